// Cooperative launch and grid-wide synchronisation (issue 33, item 2).  8 blocks of
// 64 threads, in[i] = i (512 ints).  Three phases separated by grid.sync():
//   1. every thread writes in[i] + 1 to a[i];
//   2. block b sums a over the block after its own, (b + 1) % 8, into part[b]
//      (so it reads what another block wrote in phase 1): block b's neighbour holds
//      i = 64n .. 64n + 63, sum of (i + 1) = 64 * 64n + 2080;
//   3. thread 0 of block 0 adds the 8 parts: 0+..+511 + 512 = 131328.
// Repeated twice in one launch (the barrier word is reused), and the kernel is
// launched twice.  A plain launch of the same kernel traps in grid.sync() (no
// workspace: a sticky error), shown by a second program mode.
#include <cooperative_groups.h>
#include <string.h>
#include "check.h"
namespace cg = cooperative_groups;

__global__ void phases(const int *in, int *a, int *part, int *total) {
    cg::grid_group g = cg::this_grid();
    __shared__ int acc;
    for (int round = 0; round < 2; round++) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        a[i] = in[i] + 1 + round;
        g.sync();
        if (threadIdx.x == 0) acc = 0;
        __syncthreads();
        int n = (blockIdx.x + 1) % gridDim.x;
        atomicAdd(&acc, a[n * blockDim.x + threadIdx.x]);
        __syncthreads();
        if (threadIdx.x == 0) part[blockIdx.x] = acc;
        g.sync();
        if (g.thread_rank() == 0) {
            int t = 0;
            for (int b = 0; b < gridDim.x; b++) t += part[b];
            total[round] = t;
        }
        g.sync();
    }
}

int main(int argc, char **argv) {
    int h[512], *in, *a, *part, *total, ht[2];
    for (int i = 0; i < 512; i++) h[i] = i;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&a, sizeof h));
    CHECK(cudaMalloc(&part, 8 * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof ht));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    void *args[] = {&in, &a, &part, &total};
    if (argc > 1 && !strcmp(argv[1], "plain")) {
        phases<<<8, 64>>>(in, a, part, total);
        cudaError_t e = cudaDeviceSynchronize();
        printf("grid.sync in a plain launch: %s\n", cudaGetErrorName(e));
        return 0;
    }
    int coop = 0, per_sm = 0, sms = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, 64, 0));
    printf("cooperative launch supported: %d\n", coop);
    for (int launch = 0; launch < 2; launch++) {
        CHECK(cudaLaunchCooperativeKernel((void *)phases, dim3(8), dim3(64), args, 0, 0));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(ht, total, sizeof ht, cudaMemcpyDeviceToHost));
        // round r: sum of (i + 1 + r) over 512 = 130816 + 512 (1 + r)
        printf("launch %d: totals %d %d\n", launch, ht[0], ht[1]);
    }
    // one block more than can be resident at once
    cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, dim3(per_sm * sms + 1), dim3(64), args, 0, 0);
    printf("too large: %s\n", cudaGetErrorName(e));
    return 0;
}
