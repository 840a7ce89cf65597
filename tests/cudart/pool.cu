// Stream-ordered allocation and memory pools (issue 33, item 2): an allocator loop
// with cudaMallocAsync / cudaFreeAsync on a stream, the default pool's attributes,
// and a pool of one's own.  Iteration i allocates (i + 1) KiB, fills it with i,
// and copies the first and last ints back.  Then the persisting-L2 hints a program
// checks for and sets (accepted and remembered, not modelled).
#include <stdint.h>
#include "check.h"

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

int main() {
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    printf("memory pools supported: %d\n", supported);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = UINT64_MAX, got = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    printf("release threshold kept: %d\n", got == UINT64_MAX);
    int bad = 0;
    for (int i = 0; i < 10; i++) {
        int n = (i + 1) * 256, h[2];
        int *p;
        CHECK(cudaMallocAsync(&p, n * sizeof(int), s));
        fill<<<(n + 255) / 256, 256, 0, s>>>(p, n, i);
        CHECK(cudaMemcpyAsync(&h[0], p, sizeof(int), cudaMemcpyDeviceToHost, s));
        CHECK(cudaMemcpyAsync(&h[1], p + n - 1, sizeof(int), cudaMemcpyDeviceToHost, s));
        CHECK(cudaFreeAsync(p, s));
        CHECK(cudaStreamSynchronize(s));
        bad |= h[0] != i || h[1] != i;
    }
    uint64_t used = 1, high = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    // one allocation live at a time: the largest, 10 KiB
    printf("allocator loop: %s, in use after %llu, high-water %llu\n", bad ? "wrong values" : "values right",
           (unsigned long long)used, (unsigned long long)high);
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    int *a, *b;
    CHECK(cudaMallocFromPoolAsync(&a, 4096, mine, s));
    CHECK(cudaMallocFromPoolAsync(&b, 8192, mine, s));
    CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
    printf("own pool in use: %llu\n", (unsigned long long)used);  // 12288
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
    printf("own pool in use after freeing: %llu\n", (unsigned long long)used);
    CHECK(cudaMemPoolTrimTo(mine, 0));
    CHECK(cudaMemPoolDestroy(mine));

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("persisting L2 max > 0: %d, window max > 0: %d\n", prop.persistingL2CacheMaxSize > 0,
           prop.accessPolicyMaxWindowSize > 0);
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize));
    size_t lim = 0;
    CHECK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
    int *win;
    CHECK(cudaMalloc(&win, 1 << 20));
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = win;
    v.accessPolicyWindow.num_bytes = 1 << 20;
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    cudaStreamAttrValue back = {};
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back));
    fill<<<4, 256, 0, s>>>(win, 1024, 7);
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaCtxResetPersistingL2Cache());
    printf("persisting limit kept: %d, window read back: %zu bytes, hit ratio %g, persisting %d\n",
           lim == (size_t)prop.persistingL2CacheMaxSize, back.accessPolicyWindow.num_bytes,
           back.accessPolicyWindow.hitRatio, back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
    return bad;
}
