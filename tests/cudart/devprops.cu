// Device queries: count, properties, attributes and versions answer from the
// simulated GPU's configuration, consistently.
#include "check.h"

int main() {
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int sms = 0, warp = 0, maxthr = 0, smem = 0, major = 0, minor = 0, clock = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
    CHECK(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    CHECK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
    EXPECT(sms == p.multiProcessorCount && warp == p.warpSize && maxthr == p.maxThreadsPerBlock);
    EXPECT((size_t)smem == p.sharedMemPerBlock && major == p.major && minor == p.minor);
    int rt = 0, drv = 0;
    CHECK(cudaRuntimeGetVersion(&rt));
    CHECK(cudaDriverGetVersion(&drv));
    printf("devices=%d current=%d\n", count, dev);
    printf("name=%s\n", p.name);
    printf("sm_%d%d sms=%d warp=%d max_threads=%d dims=%dx%dx%d grid=%dx%dx%d\n", p.major, p.minor,
           p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1],
           p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("smem/block=%zu regs/block=%d threads/sm=%d clock_khz=%d unified=%d managed=%d\n", p.sharedMemPerBlock,
           p.regsPerBlock, p.maxThreadsPerMultiProcessor, clock, p.unifiedAddressing, p.managedMemory);
    printf("runtime=%d driver=%d\n", rt, drv);
    // accepted, no effect
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20));
    size_t fifo = 0;
    CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    EXPECT(fifo == 1 << 20);
    CHECK(cudaDeviceReset());
    printf("PASS\n");
    return 0;
}
