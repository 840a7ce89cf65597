// Reliability checks of the CUDA runtime replacement (issue 10).  One program, one
// mode per run (argv[1]), so the test builds it once:
//   assert     a failing device assert(): the launch's error is cudaErrorAssert (710)
//   coop       cudaLaunchCooperativeKernel runs grid.sync() (tests/cudart/coop.cu does more)
//   lazy       a kernel with an instruction locsim lacks (pmevent) fails at its launch;
//              another kernel of the same program runs
//   malloc     cudaMalloc beyond the configured device memory fails; cudaMemGetInfo
//              reports what is left
//   spin       a kernel that never ends (stopped by -gpgpu_max_cycle or a signal)
#include <assert.h>
#include <cooperative_groups.h>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void checked(int *v, int bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i != bad);
    v[i] = i;
}

__global__ void grid_sum(int *v) {
    cg::grid_group g = cg::this_grid();
    v[g.thread_rank()] = 1;
    g.sync();
    if (g.thread_rank() == 0) v[0] = 2;
}

__global__ void uses_pmevent(int *v) {
    asm volatile("pmevent 1;");
    v[threadIdx.x] = 7;
}

__global__ void plain(int *v) { v[threadIdx.x] = 5; }

__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

static int mode_assert() {
    int *v;
    CHECK(cudaMalloc(&v, 64 * sizeof(int)));
    checked<<<2, 32>>>(v, 37);
    cudaError_t e = cudaDeviceSynchronize();
    printf("assert: %d %s\n", (int)e, cudaGetErrorName(e));
    return e == cudaErrorAssert ? 0 : 1;
}

static int mode_coop() {
    int *v;
    CHECK(cudaMalloc(&v, 64 * sizeof(int)));
    void *args[] = {&v};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_sum, dim3(2), dim3(32), args, 0, 0);
    printf("coop: %d %s\n", (int)e, cudaGetErrorName(e));
    CHECK(cudaDeviceSynchronize());
    int h[2] = {0, 0};
    CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("coop: after the grid sync v[0] %d v[1] %d\n", h[0], h[1]);
    return e == cudaSuccess && h[0] == 2 && h[1] == 1 ? 0 : 1;
}

static int mode_lazy() {
    int *v;
    CHECK(cudaMalloc(&v, 64 * sizeof(int)));
    uses_pmevent<<<1, 32>>>(v);
    cudaError_t e = cudaGetLastError();
    printf("lazy: %d %s\n", (int)e, cudaGetErrorName(e));
    plain<<<1, 32>>>(v);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int h = 0;
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("lazy: plain kernel wrote %d\n", h);
    return e == cudaErrorInvalidPtx && h == 5 ? 0 : 1;
}

// With -device_memory_mb 64: 40 MiB fits, a second 40 MiB does not; free memory
// is 64 MiB, then 24 MiB, then 64 MiB again after cudaFree.
static int mode_malloc() {
    size_t free0, total, free1, free2;
    CHECK(cudaMemGetInfo(&free0, &total));
    void *a, *b = nullptr;
    CHECK(cudaMalloc(&a, (size_t)40 << 20));
    CHECK(cudaMemGetInfo(&free1, &total));
    cudaError_t e = cudaMalloc(&b, (size_t)40 << 20);
    cudaGetLastError();
    CHECK(cudaFree(a));
    CHECK(cudaMemGetInfo(&free2, &total));
    printf("malloc: total %zu MiB, free %zu -> %zu -> %zu MiB, second 40 MiB: %s\n", total >> 20, free0 >> 20,
           free1 >> 20, free2 >> 20, cudaGetErrorName(e));
    return e == cudaErrorMemoryAllocation && b == nullptr && free1 == free0 - ((size_t)40 << 20) && free2 == free0
               ? 0 : 1;
}

static int mode_spin() {
    int *flag;
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    printf("spin: started\n");
    fflush(stdout);
    spin<<<1, 32>>>(flag);
    cudaError_t e = cudaDeviceSynchronize();
    printf("spin: %s\n", cudaGetErrorName(e));
    return 0;
}

int main(int argc, char **argv) {
    const char *m = argc > 1 ? argv[1] : "";
    if (!strcmp(m, "assert")) return mode_assert();
    if (!strcmp(m, "coop")) return mode_coop();
    if (!strcmp(m, "lazy")) return mode_lazy();
    if (!strcmp(m, "malloc")) return mode_malloc();
    if (!strcmp(m, "spin")) return mode_spin();
    fprintf(stderr, "usage: reliab assert|coop|lazy|malloc|spin\n");
    return 2;
}
