// Device printf: formats of every common kind, from several threads of one warp,
// and from several blocks one after another.
#include "check.h"

__global__ void hello(int tag, double x, const char *unused) {
    (void)unused;
    if (threadIdx.x < 4)
        printf("block %d thread %d: tag=%d x=%.3f hex=%x str=%s char=%c big=%lld\n", blockIdx.x, threadIdx.x, tag,
               x * threadIdx.x, 255 + (int)threadIdx.x, "ok", 'A' + threadIdx.x, 1234567890123LL * (threadIdx.x + 1));
}

__global__ void no_args() { printf("no arguments, %s%%\n", "100"); }

int main() {
    printf("host before\n");
    hello<<<1, 32>>>(7, 1.5, nullptr);
    CHECK(cudaDeviceSynchronize());
    printf("host between\n");
    no_args<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    printf("host after\n");
    return 0;
}
