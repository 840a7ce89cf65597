// Error reporting as on a real GPU:
//  - a launch with too many threads per block fails with cudaErrorInvalidConfiguration,
//    which cudaGetLastError returns once and then clears (not sticky);
//  - other bad launch configurations and API misuse give their documented errors;
//  - with argument "fault": an out-of-bounds store is a sticky error
//    (cudaErrorIllegalAddress) that every later call reports;
//  - with argument "unsupported": a runtime call locsim lacks stops the program.
#include <string.h>
#include "check.h"

__global__ void fill(int *v, int n, int value) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = value;
}

__global__ void store_far(int *v) { v[threadIdx.x + (1 << 24)] = 1; }

__global__ void __launch_bounds__(64) bounded(int *v) { v[threadIdx.x] = 2; }

static void show(const char *what, cudaError_t e) { printf("%s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e)); }

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int *d;
    CHECK(cudaMalloc(&d, 64 * sizeof(int)));

    if (!strcmp(mode, "fault")) {
        store_far<<<1, 32>>>(d);
        show("synchronize", cudaDeviceSynchronize());
        show("memcpy after fault", cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice));
        show("get last error", cudaGetLastError());
        show("get last error again", cudaGetLastError());
        return 3;
    }
    if (!strcmp(mode, "unsupported")) {
        cudaIpcMemHandle_t h;
        printf("calling cudaIpcGetMemHandle\n");
        fflush(stdout);
        cudaIpcGetMemHandle(&h, d);
        printf("not reached\n");
        return 0;
    }

    fill<<<1, 1025>>>(d, 64, 1);  // 1025 threads per block: more than 1024
    show("1025 threads", cudaGetLastError());
    show("then", cudaGetLastError());
    show("synchronize", cudaDeviceSynchronize());

    fill<<<1, dim3(32, 32, 2)>>>(d, 64, 1);  // 2048 threads
    show("32x32x2 threads", cudaPeekAtLastError());
    show("peek does not clear", cudaGetLastError());

    fill<<<1, dim3(1, 1, 65)>>>(d, 64, 1);  // block z limit is 64
    show("block z 65", cudaGetLastError());
    fill<<<dim3(1, 65536), 32>>>(d, 64, 1);  // grid y limit is 65535
    show("grid y 65536", cudaGetLastError());
    fill<<<0, 32>>>(d, 64, 1);
    show("empty grid", cudaGetLastError());
    fill<<<1, 32, 1 << 20>>>(d, 64, 1);  // 1 MB of dynamic shared memory
    show("1 MB shared", cudaGetLastError());
    bounded<<<1, 128>>>(d);  // more threads than its __launch_bounds__
    show("128 threads, bounds 64", cudaGetLastError());
    bounded<<<1, 64>>>(d);
    show("64 threads, bounds 64", cudaGetLastError());

    // a cooperative launch through the launch attribute runs; thread-block clusters
    // of more than one block are refused
    cudaLaunchAttribute coop = {};
    coop.id = cudaLaunchAttributeCooperative;
    coop.val.cooperative = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(1);
    config.blockDim = dim3(32);
    config.attrs = &coop;
    config.numAttrs = 1;
    show("cooperative launch", cudaLaunchKernelEx(&config, fill, d, 64, 3));
    show("its last error", cudaGetLastError());
    cudaLaunchAttribute cluster = {};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = 2;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.gridDim = dim3(2);
    config.attrs = &cluster;
    show("cluster of 2 blocks", cudaLaunchKernelEx(&config, fill, d, 64, 3));
    show("its last error", cudaGetLastError());

    // a good launch still works after all that
    fill<<<2, 32>>>(d, 64, 42);
    show("good launch", cudaGetLastError());
    int h[64];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 42 && h[63] == 42);

    int host_int = 0;
    show("memcpy to a host pointer as device", cudaMemcpy(&host_int, h, 4, cudaMemcpyHostToDevice));
    show("memcpy past the allocation", cudaMemcpy(h, d, 65 * sizeof(int), cudaMemcpyDeviceToHost));
    show("bad direction", cudaMemcpy(h, d, 4, (cudaMemcpyKind)7));
    show("free of a non-allocation", cudaFree(d + 1));
    int *gone;
    CHECK(cudaMalloc(&gone, 64));
    CHECK(cudaFree(gone));
    show("copy from a freed pointer", cudaMemcpy(h, gone, 4, cudaMemcpyDefault));
    show("free it again", cudaFree(gone));
    show("set device 1", cudaSetDevice(1));
    int count = -1;
    show("device count", cudaGetDeviceCount(&count));
    printf("count = %d\n", count);
    show("last error", cudaGetLastError());
    show("cleared", cudaGetLastError());
    CHECK(cudaFree(d));
    printf("PASS\n");
    return 0;
}
