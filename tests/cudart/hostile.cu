// Hostile arguments to the CUDA runtime replacement (issue 34).  One program, one
// mode per run (argv[1]), so the test builds it once:
//   pitch    cudaMemcpy2D / cudaMemcpy3D / cudaMemset2D with pitches near 2^63 or
//            above the device's maximum, cudaMallocPitch with widths of 2^32 and
//            SIZE_MAX: errors, never a crash or a success without memory
//   handles  cudaStreamDestroy twice, cudaStreamWaitEvent on a destroyed or NULL
//            event, cudaMemsetAsync / launches on a destroyed stream: invalid handle
//   fifo     cudaLimitPrintfFifoSize: a kernel printing more than the FIFO holds
//            loses what does not fit (and locsim says so)
//   stack N  cudaLimitStackSize set to N bytes: a recursion of depth 200 needs more
//            than 1 KB and fits in 64 KB; cudaDeviceGetLimit returns what was set
#include <stdint.h>
#include <string.h>
#include "check.h"

__global__ void fill(int *v) { v[threadIdx.x] = 1; }

__global__ void chatty(int lines) {
    for (int i = 0; i < lines; i++) printf("line %04d of thread %d: some padding to make it long\n", i, threadIdx.x);
}

__device__ int depth_sum(int n) {
    volatile int pad[8];
    for (int i = 0; i < 8; i++) pad[i] = n + i;
    return n == 0 ? pad[0] : pad[1] + depth_sum(n - 1);
}

__global__ void recurse(int *out, int n) { *out = depth_sum(n); }

static int pitch_mode(void) {
    const size_t huge = (size_t)1 << 63;
    char host[4096];
    char *dev;
    CHECK(cudaMalloc(&dev, 4096));
    cudaError_t e = cudaMemcpy2D(dev, 64, host, huge, 16, 2, cudaMemcpyHostToDevice);
    EXPECT(e == cudaErrorInvalidPitchValue);
    e = cudaMemcpy2D(host, huge, dev, 64, 16, 2, cudaMemcpyDeviceToHost);
    EXPECT(e == cudaErrorInvalidPitchValue);
    e = cudaMemcpy2D(host, SIZE_MAX, host + 64, SIZE_MAX, 16, SIZE_MAX, cudaMemcpyHostToHost);
    EXPECT(e == cudaErrorInvalidPitchValue);
    e = cudaMemset2D(dev, huge, 0, 16, 3);
    EXPECT(e == cudaErrorInvalidPitchValue);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(host, huge, 16, 2);
    p.dstPtr = make_cudaPitchedPtr(dev, 64, 16, 2);
    p.extent = make_cudaExtent(16, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    EXPECT(cudaMemcpy3D(&p) == cudaErrorInvalidPitchValue);
    p.srcPtr = make_cudaPitchedPtr(host, 64, 16, SIZE_MAX / 2);   /* rows x depth wraps */
    p.extent = make_cudaExtent(16, 2, 4);
    EXPECT(cudaMemcpy3D(&p) == cudaErrorInvalidValue);
    /* array positions near SIZE_MAX: their sum with the extent used to wrap into a
     * small number and pass the bounds check (a write somewhere else) */
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, 64, 64));
    EXPECT(cudaMemcpy2DToArray(arr, 0, SIZE_MAX - 1, host, 64, 64, 2, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy2DToArray(arr, SIZE_MAX - 8, 0, host, 64, 64, 2, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy2DFromArray(host, 64, arr, 0, SIZE_MAX, 64, 2, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    CHECK(cudaFreeArray(arr));
    /* a host range that wraps past the end of the address space */
    EXPECT(cudaMemcpy(host, host + 8, SIZE_MAX - 4, cudaMemcpyHostToHost) == cudaErrorInvalidValue);
    cudaGetLastError();
    void *ptr = (void *)1;
    size_t pitch = 0;
    EXPECT(cudaMallocPitch(&ptr, &pitch, (size_t)1 << 32, (size_t)1 << 32) != cudaSuccess);
    EXPECT(ptr == NULL);
    EXPECT(cudaMallocPitch(&ptr, &pitch, SIZE_MAX, 1) != cudaSuccess);
    EXPECT(ptr == NULL);
    EXPECT(cudaMallocPitch(&ptr, &pitch, 1000, 1ull << 62) != cudaSuccess);
    cudaGetLastError();
    CHECK(cudaMallocPitch(&ptr, &pitch, 1000, 4));
    EXPECT(ptr != NULL && pitch == 1024);
    CHECK(cudaMemcpy2D(ptr, pitch, host, 1000, 1000, 4, cudaMemcpyHostToDevice));   /* a good one still works */
    CHECK(cudaFree(ptr));
    CHECK(cudaFree(dev));
    printf("pitch: ok\n");
    return 0;
}

static int handles_mode(void) {
    cudaStream_t s;
    cudaEvent_t ev;
    int *dev;
    CHECK(cudaMalloc(&dev, 128));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaStreamWaitEvent(s, ev, 0));
    CHECK(cudaStreamDestroy(s));
    EXPECT(cudaStreamDestroy(s) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaMemsetAsync(dev, 0, 128, s) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaMemcpyAsync(dev, dev, 64, cudaMemcpyDeviceToDevice, s) == cudaErrorInvalidResourceHandle);
    fill<<<1, 32, 0, s>>>(dev);
    EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    EXPECT(cudaStreamWaitEvent(0, NULL, 0) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventDestroy(ev));
    EXPECT(cudaStreamWaitEvent(0, ev, 0) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaEventDestroy(ev) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaEventRecord(ev, 0) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    fill<<<1, 32>>>(dev);   /* the default stream still works */
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(dev));
    printf("handles: ok\n");
    return 0;
}

static int fifo_mode(void) {
    size_t v = 0;
    CHECK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    EXPECT(v == 1 << 20);
    CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096));
    CHECK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    EXPECT(v == 4096);
    chatty<<<1, 1>>>(1000);   /* ~60 KB of text into 4 KB */
    CHECK(cudaDeviceSynchronize());
    chatty<<<1, 1>>>(2);      /* the next launch starts with an empty FIFO */
    CHECK(cudaDeviceSynchronize());
    printf("fifo: ok\n");
    return 0;
}

static int stack_mode(size_t bytes) {
    int *out, got = 0;
    CHECK(cudaMalloc(&out, sizeof *out));
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, bytes));
    size_t v = 0;
    CHECK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    EXPECT(v == bytes);
    recurse<<<1, 1>>>(out, 200);
    cudaError_t e = cudaDeviceSynchronize();
    printf("stack %zu: %s\n", bytes, cudaGetErrorName(e));
    if (e == cudaSuccess) {
        CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
        printf("sum %d\n", got);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (!strcmp(argv[1], "pitch")) return pitch_mode();
    if (!strcmp(argv[1], "handles")) return handles_mode();
    if (!strcmp(argv[1], "fifo")) return fifo_mode();
    if (!strcmp(argv[1], "stack") && argc > 2) return stack_mode((size_t)atoll(argv[2]));
    return 2;
}
