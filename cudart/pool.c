/* Stream-ordered allocation (cudaMallocAsync / cudaFreeAsync) and memory pools.
 *
 * Work runs at call time, in program order (see README), so an allocation made "on a
 * stream" is simply made now and freed now: a pool is a token holding its
 * attributes and the figures a program can read back (memory in use, its high-water
 * mark).  A pool keeps nothing once freed (reserved = used), whatever its release
 * threshold, so cudaMemPoolTrimTo has nothing to do. */
#include <stdint.h>
#include <stdlib.h>

#include "cudart.h"

cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);

#define POOL_MAGIC 0x504f4f4cu  /* "POOL" */
struct CUmemPoolHandle_st {
    unsigned magic;
    uint64_t release_threshold;
    int reuse[3];                /* cudaMemPoolReuse* 1..3 */
    uint64_t used, used_high, reserved_high;
};

static struct CUmemPoolHandle_st default_pool = {POOL_MAGIC, 0, {1, 1, 1}, 0, 0, 0};
static cudaMemPool_t current_pool = &default_pool;

/* Live pool allocations: which pool, how big. */
static struct pool_alloc {
    void *ptr;
    size_t size;
    cudaMemPool_t pool;
} *allocs;
static size_t nallocs, cap_allocs;

static int valid_pool(cudaMemPool_t p) { return p && p->magic == POOL_MAGIC; }

static cudaError_t pool_alloc(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    if (!ptr) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    int capturing = cr_capture_graph(stream) != NULL, ok = valid_pool(pool);
    cr_unlock();
    if (!ok) return cr_record(cudaErrorInvalidValue);
    if (capturing) {
        cr_warn("cudaMallocAsync on a capturing stream (a memory-allocation node) is not supported by locsim");
        return cr_record(cudaErrorStreamCaptureUnsupported);
    }
    cudaError_t e = cudaMalloc(ptr, size);
    if (e != cudaSuccess) return e;
    cr_lock();
    if (nallocs == cap_allocs) {
        size_t cap = cap_allocs ? 2 * cap_allocs : 64;
        struct pool_alloc *a = realloc(allocs, cap * sizeof *a);
        if (!a) {
            cr_unlock();
            cudaFree(*ptr);
            *ptr = NULL;
            return cr_record(cudaErrorMemoryAllocation);
        }
        allocs = a;
        cap_allocs = cap;
    }
    allocs[nallocs++] = (struct pool_alloc){*ptr, size, pool};
    pool->used += size;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
    if (pool->used > pool->reserved_high) pool->reserved_high = pool->used;
    cr_unlock();
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
    return pool_alloc(ptr, size, current_pool, stream);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    return pool_alloc(ptr, size, pool, stream);
}

/* Memory from cudaMalloc may be given back here too; it belongs to no pool. */
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
    cr_lock();
    int capturing = cr_capture_graph(stream) != NULL;
    for (size_t i = 0; ptr && i < nallocs; i++)
        if (allocs[i].ptr == ptr) {
            allocs[i].pool->used -= allocs[i].size;
            allocs[i] = allocs[--nallocs];
            break;
        }
    cr_unlock();
    if (capturing) {
        cr_warn("cudaFreeAsync on a capturing stream (a memory-free node) is not supported by locsim");
        return cr_record(cudaErrorStreamCaptureUnsupported);
    }
    return cudaFree(ptr);
}

cudaError_t cudaMallocAsync_ptsz(void **ptr, size_t size, cudaStream_t s) { return cudaMallocAsync(ptr, size, s); }
cudaError_t cudaFreeAsync_ptsz(void *ptr, cudaStream_t s) { return cudaFreeAsync(ptr, s); }
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t s) {
    return cudaMallocFromPoolAsync(ptr, size, pool, s);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
    if (!pool) return cr_record(cudaErrorInvalidValue);
    if (device != 0) return cr_record(cudaErrorInvalidDevice);
    *pool = &default_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) {
    if (!pool) return cr_record(cudaErrorInvalidValue);
    if (device != 0) return cr_record(cudaErrorInvalidDevice);
    cr_lock();
    *pool = current_pool;
    cr_unlock();
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    if (device != 0) return cr_record(cudaErrorInvalidDevice);
    if (!valid_pool(pool)) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    current_pool = pool;
    cr_unlock();
    return cudaSuccess;
}

/* The properties (device-resident, pinned, no IPC handle) are what this device has. */
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const void *props) {
    if (!pool || !props) return cr_record(cudaErrorInvalidValue);
    struct CUmemPoolHandle_st *p = calloc(1, sizeof *p);
    if (!p) return cr_record(cudaErrorMemoryAllocation);
    *p = default_pool;
    p->release_threshold = p->used = p->used_high = p->reserved_high = 0;
    *pool = p;
    return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
    if (!valid_pool(pool) || pool == &default_pool) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    if (current_pool == pool) current_pool = &default_pool;
    pool->magic = 0;
    cr_unlock();
    free(pool);
    return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
    (void)keep;
    return valid_pool(pool) ? cudaSuccess : cr_record(cudaErrorInvalidValue);
}

enum {
    ATTR_REUSE_FOLLOW = 1, ATTR_REUSE_OPPORTUNISTIC = 2, ATTR_REUSE_INTERNAL = 3, ATTR_RELEASE_THRESHOLD = 4,
    ATTR_RESERVED_CURRENT = 5, ATTR_RESERVED_HIGH = 6, ATTR_USED_CURRENT = 7, ATTR_USED_HIGH = 8
};

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value) {
    if (!valid_pool(pool) || !value) return cr_record(cudaErrorInvalidValue);
    cudaError_t e = cudaSuccess;
    cr_lock();
    switch (attr) {
    case ATTR_REUSE_FOLLOW: case ATTR_REUSE_OPPORTUNISTIC: case ATTR_REUSE_INTERNAL:
        pool->reuse[attr - 1] = *(int *)value != 0;
        break;
    case ATTR_RELEASE_THRESHOLD: pool->release_threshold = *(uint64_t *)value; break;
    /* the high-water marks may only be reset, to 0 */
    case ATTR_RESERVED_HIGH:
    case ATTR_USED_HIGH:
        if (*(uint64_t *)value != 0) e = cudaErrorInvalidValue;
        else if (attr == ATTR_USED_HIGH) pool->used_high = pool->used;
        else pool->reserved_high = pool->used;
        break;
    default: e = cudaErrorInvalidValue; break;
    }
    cr_unlock();
    return e == cudaSuccess ? e : cr_record(e);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value) {
    if (!valid_pool(pool) || !value) return cr_record(cudaErrorInvalidValue);
    cudaError_t e = cudaSuccess;
    cr_lock();
    switch (attr) {
    case ATTR_REUSE_FOLLOW: case ATTR_REUSE_OPPORTUNISTIC: case ATTR_REUSE_INTERNAL:
        *(int *)value = pool->reuse[attr - 1];
        break;
    case ATTR_RELEASE_THRESHOLD: *(uint64_t *)value = pool->release_threshold; break;
    case ATTR_RESERVED_CURRENT: case ATTR_USED_CURRENT: *(uint64_t *)value = pool->used; break;
    case ATTR_RESERVED_HIGH: *(uint64_t *)value = pool->reserved_high; break;
    case ATTR_USED_HIGH: *(uint64_t *)value = pool->used_high; break;
    default: e = cudaErrorInvalidValue; break;
    }
    cr_unlock();
    return e == cudaSuccess ? e : cr_record(e);
}
