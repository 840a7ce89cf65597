// Many kernel launches in a loop: 1000 increments of a vector, then ping-pong
// between two buffers with a second kernel (each launch sees the previous one's
// results), then a launch through the cudaLaunchKernel entry point.
#include "check.h"

__global__ void increment(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1;
}

// dst[i] = src[i] + src[(i + 1) % n]
__global__ void neighbour_sum(const int *src, int *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i] + src[(i + 1) % n];
}

int main() {
    const int n = 300, launches = 1000, steps = 10;
    int *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMemset(a, 0, n * sizeof(int)));
    for (int k = 0; k < launches; k++) {
        increment<<<(n + 127) / 128, 128>>>(a, n);
        CHECK(cudaGetLastError());
    }
    int h[n];
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == launches);
    printf("after %d launches: v[0] = %d, v[%d] = %d\n", launches, h[0], n - 1, h[n - 1]);

    // Host reference of the ping-pong: all values equal, so each step doubles them.
    int *src = a, *dst = b;
    for (int s = 0; s < steps; s++) {
        neighbour_sum<<<3, 100>>>(src, dst, n);
        int *t = src;
        src = dst;
        dst = t;
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, src, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == launches << steps);
    printf("after %d ping-pong steps: v[0] = %d\n", steps, h[0]);

    // The runtime API launch: cudaLaunchKernel(func, grid, block, args, smem, stream)
    int count = n;
    void *args[] = {&a, &count};
    CHECK(cudaLaunchKernel((const void *)increment, dim3(3), dim3(100), args, 0, 0));
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    printf("after cudaLaunchKernel: v[0] = %d\n", h[0]);
    EXPECT(src == a && h[0] == (launches << steps) + 1);  // an even number of steps ends in a

    // and cudaLaunchKernelEx (cudaLaunchKernelExC underneath), with a harmless attribute
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributePriority;
    attr.val.priority = 0;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(3);
    config.blockDim = dim3(100);
    config.attrs = &attr;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, increment, a, count));
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    printf("after cudaLaunchKernelEx: v[0] = %d\n", h[0]);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    printf("PASS\n");
    return 0;
}
