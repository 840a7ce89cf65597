/* The device as the CUDA runtime describes it, device management, streams, events,
 * and the configuration calls that are accepted without effect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "runtime/runtime.h"

#define CUDART_VERSION 13000  /* the runtime and driver version we answer: 13.0 */

/* ---- device description ---- */

/* Properties of the simulated GPU.  SM count and shared memory per CTA come from
 * the device (its configuration); the rest are the GTX480 figures DESIGN.md uses
 * for the default configuration.  The compute capability is 7.5: nvcc 13 emits no
 * older PTX target, and programs test it before using warp intrinsics. */
void cr_devinfo_init(cr_devinfo *info, const locsim_device *dev) {
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "locsim %.200s (%s)", cr.config_name,
             cr.mode == LOCSIM_MODE_TIMING ? "timing" : "functional");
    info->sms = dev->num_sms ? (int)dev->num_sms : 15;
    info->warp_size = 32;
    info->max_threads_per_block = 1024;
    info->max_threads_per_sm = 1536;
    info->max_blocks_per_sm = 8;
    info->max_block_dim[0] = 1024;
    info->max_block_dim[1] = 1024;
    info->max_block_dim[2] = 64;
    info->max_grid_dim[0] = 0x7fffffff;
    info->max_grid_dim[1] = 65535;
    info->max_grid_dim[2] = 65535;
    info->smem_per_block = dev->max_smem_per_cta ? dev->max_smem_per_cta : 48 * 1024;
    info->smem_per_sm = info->smem_per_block;
    info->regs_per_block = 32768;
    info->regs_per_sm = 32768;
    info->clock_khz = 700000;
    info->mem_clock_khz = 924000;
    info->mem_bus_width = 384;
    info->l2_bytes = 768 * 1024;
    info->global_mem = (size_t)4 << 30;
    info->const_mem = 64 * 1024;
    info->cc_major = 7;
    info->cc_minor = 5;
}

static cudaError_t check_device(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDeviceCount(int *count) {
    if (!count) return cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(check_device(device));
}

cudaError_t cudaGetDevice(int *device) {
    if (!device) return cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned int device_flags, unsigned int flags) {
    (void)device_flags;
    (void)flags;
    return cudaSetDevice(device);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    (void)flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
    if (!flags) return cudaErrorInvalidValue;
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
    (void)prop;
    if (!device) return cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!p) return cr_leave(cudaErrorInvalidValue);
    if ((e = check_device(device)) != cudaSuccess) return cr_leave(e);
    const cr_devinfo *d = &cr.info;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", d->name);
    memcpy(p->uuid.bytes, "locsim-simulated", 16);
    p->totalGlobalMem = d->global_mem;
    p->sharedMemPerBlock = d->smem_per_block;
    p->regsPerBlock = d->regs_per_block;
    p->warpSize = d->warp_size;
    p->memPitch = 0x7fffffff;
    p->maxThreadsPerBlock = d->max_threads_per_block;
    memcpy(p->maxThreadsDim, d->max_block_dim, sizeof p->maxThreadsDim);
    memcpy(p->maxGridSize, d->max_grid_dim, sizeof p->maxGridSize);
    p->totalConstMem = d->const_mem;
    p->major = d->cc_major;
    p->minor = d->cc_minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = d->sms;
    p->canMapHostMemory = 1;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 1;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = d->mem_bus_width;
    p->l2CacheSize = d->l2_bytes;
    p->maxThreadsPerMultiProcessor = d->max_threads_per_sm;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = d->smem_per_sm;
    p->regsPerMultiprocessor = d->regs_per_sm;
    p->managedMemory = 1;
    p->sharedMemPerBlockOptin = d->smem_per_sm;
    p->maxBlocksPerMultiProcessor = d->max_blocks_per_sm;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
    return cr_leave(cudaSuccess);
}

/* cudaDeviceAttr values used below (driver_types.h, CUDA 13). */
enum {
    ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_DIM_X = 2, ATTR_MAX_BLOCK_DIM_Y = 3, ATTR_MAX_BLOCK_DIM_Z = 4,
    ATTR_MAX_GRID_DIM_X = 5, ATTR_MAX_GRID_DIM_Y = 6, ATTR_MAX_GRID_DIM_Z = 7, ATTR_MAX_SHARED_PER_BLOCK = 8,
    ATTR_TOTAL_CONSTANT_MEMORY = 9, ATTR_WARP_SIZE = 10, ATTR_MAX_PITCH = 11, ATTR_MAX_REGISTERS_PER_BLOCK = 12,
    ATTR_CLOCK_RATE = 13, ATTR_TEXTURE_ALIGNMENT = 14, ATTR_GPU_OVERLAP = 15, ATTR_MULTIPROCESSOR_COUNT = 16,
    ATTR_KERNEL_EXEC_TIMEOUT = 17, ATTR_INTEGRATED = 18, ATTR_CAN_MAP_HOST_MEMORY = 19, ATTR_COMPUTE_MODE = 20,
    ATTR_CONCURRENT_KERNELS = 31, ATTR_ECC_ENABLED = 32, ATTR_PCI_BUS_ID = 33, ATTR_PCI_DEVICE_ID = 34,
    ATTR_MEMORY_CLOCK_RATE = 36, ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37, ATTR_L2_CACHE_SIZE = 38,
    ATTR_MAX_THREADS_PER_SM = 39, ATTR_ASYNC_ENGINE_COUNT = 40, ATTR_UNIFIED_ADDRESSING = 41,
    ATTR_PCI_DOMAIN_ID = 50, ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76, ATTR_STREAM_PRIORITIES = 78,
    ATTR_GLOBAL_L1_CACHE = 79, ATTR_LOCAL_L1_CACHE = 80, ATTR_MAX_SHARED_PER_SM = 81,
    ATTR_MAX_REGISTERS_PER_SM = 82, ATTR_MANAGED_MEMORY = 83, ATTR_MULTI_GPU_BOARD = 84,
    ATTR_HOST_NATIVE_ATOMIC = 86, ATTR_SINGLE_TO_DOUBLE_PERF_RATIO = 87, ATTR_PAGEABLE_MEMORY_ACCESS = 88,
    ATTR_CONCURRENT_MANAGED_ACCESS = 89, ATTR_COMPUTE_PREEMPTION = 90, ATTR_COOPERATIVE_LAUNCH = 95,
    ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97, ATTR_MAX_BLOCKS_PER_SM = 106, ATTR_RESERVED_SHARED_PER_BLOCK = 111,
    ATTR_MEMORY_POOLS_SUPPORTED = 115, ATTR_NUMA_CONFIG = 130, ATTR_NUMA_ID = 131, ATTR_HOST_NUMA_ID = 134
};

/* Value of one attribute; -1 in *known when we do not model it. */
static int attribute_value(int attr, int *known) {
    const cr_devinfo *d = &cr.info;
    *known = 1;
    switch (attr) {
    case ATTR_MAX_THREADS_PER_BLOCK: return d->max_threads_per_block;
    case ATTR_MAX_BLOCK_DIM_X: return d->max_block_dim[0];
    case ATTR_MAX_BLOCK_DIM_Y: return d->max_block_dim[1];
    case ATTR_MAX_BLOCK_DIM_Z: return d->max_block_dim[2];
    case ATTR_MAX_GRID_DIM_X: return d->max_grid_dim[0];
    case ATTR_MAX_GRID_DIM_Y: return d->max_grid_dim[1];
    case ATTR_MAX_GRID_DIM_Z: return d->max_grid_dim[2];
    case ATTR_MAX_SHARED_PER_BLOCK: return (int)d->smem_per_block;
    case ATTR_TOTAL_CONSTANT_MEMORY: return (int)d->const_mem;
    case ATTR_WARP_SIZE: return d->warp_size;
    case ATTR_MAX_PITCH: return 0x7fffffff;
    case ATTR_MAX_REGISTERS_PER_BLOCK: return d->regs_per_block;
    case ATTR_CLOCK_RATE: return d->clock_khz;
    case ATTR_TEXTURE_ALIGNMENT: return 512;
    case ATTR_GPU_OVERLAP: return 1;
    case ATTR_MULTIPROCESSOR_COUNT: return d->sms;
    case ATTR_CAN_MAP_HOST_MEMORY: return 1;
    case ATTR_CONCURRENT_KERNELS: return 1;
    case ATTR_MEMORY_CLOCK_RATE: return d->mem_clock_khz;
    case ATTR_GLOBAL_MEMORY_BUS_WIDTH: return d->mem_bus_width;
    case ATTR_L2_CACHE_SIZE: return d->l2_bytes;
    case ATTR_MAX_THREADS_PER_SM: return d->max_threads_per_sm;
    case ATTR_ASYNC_ENGINE_COUNT: return 1;
    case ATTR_UNIFIED_ADDRESSING: return 1;
    case ATTR_CC_MAJOR: return d->cc_major;
    case ATTR_CC_MINOR: return d->cc_minor;
    case ATTR_GLOBAL_L1_CACHE: return 1;
    case ATTR_LOCAL_L1_CACHE: return 1;
    case ATTR_MAX_SHARED_PER_SM: return (int)d->smem_per_sm;
    case ATTR_MAX_REGISTERS_PER_SM: return d->regs_per_sm;
    case ATTR_MANAGED_MEMORY: return 1;
    case ATTR_SINGLE_TO_DOUBLE_PERF_RATIO: return 2;
    case ATTR_MAX_SHARED_PER_BLOCK_OPTIN: return (int)d->smem_per_sm;
    case ATTR_MAX_BLOCKS_PER_SM: return d->max_blocks_per_sm;
    case ATTR_NUMA_ID: return -1;
    case ATTR_HOST_NUMA_ID: return -1;
    case ATTR_KERNEL_EXEC_TIMEOUT: case ATTR_INTEGRATED: case ATTR_COMPUTE_MODE: case ATTR_ECC_ENABLED:
    case ATTR_PCI_BUS_ID: case ATTR_PCI_DEVICE_ID: case ATTR_PCI_DOMAIN_ID: case ATTR_STREAM_PRIORITIES:
    case ATTR_MULTI_GPU_BOARD: case ATTR_HOST_NATIVE_ATOMIC: case ATTR_PAGEABLE_MEMORY_ACCESS:
    case ATTR_CONCURRENT_MANAGED_ACCESS: case ATTR_COMPUTE_PREEMPTION: case ATTR_COOPERATIVE_LAUNCH:
    case ATTR_RESERVED_SHARED_PER_BLOCK: case ATTR_MEMORY_POOLS_SUPPORTED: case ATTR_NUMA_CONFIG:
        return 0;
    }
    *known = 0;
    return 0;
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!value) return cr_leave(cudaErrorInvalidValue);
    if ((e = check_device(device)) != cudaSuccess) return cr_leave(e);
    int known;
    int v = attribute_value(attr, &known);
    if (!known) {
        /* Texture/surface limits and interop capabilities: nothing a simulated
         * compute kernel can use.  Answer 0 ("not supported") but say so. */
        if (attr <= 0 || attr > 200) return cr_leave(cudaErrorInvalidValue);
        cr_warn("cudaDeviceGetAttribute(%d): not modelled, answering 0", attr);
    }
    *value = v;
    return cr_leave(cudaSuccess);
}

/* ---- synchronisation and reset ---- */

cudaError_t cudaDeviceSynchronize(void) {
    cudaError_t e = cr_enter();
    return cr_leave(e);  /* work already done; a sticky fault surfaces here */
}

cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

/* Destroy every allocation and restart the device from scratch: modules are loaded
 * again (fresh __device__ variables), errors cleared.  Statistics keep counting. */
cudaError_t cudaDeviceReset(void) {
    cr_lock();
    if (cr.unloading) return cr_leave(cudaErrorCudartUnloading);
    if (cr.dev) {
        cr_stats_fold_device();
        cr_release_regions();
        for (int i = 0; i < cr.nvars; i++)
            if (cr.vars[i].managed_ptr) *cr.vars[i].managed_ptr = NULL;
        cr_release_modules();
        locsim_device_destroy(cr.dev);
        cr.dev = NULL;
    }
    cr.sticky_error = cudaSuccess;
    cr.last_error = cudaSuccess;
    cr_unlock();
    return cudaSuccess;
}

/* ---- versions ---- */

cudaError_t cudaRuntimeGetVersion(int *version) {
    if (!version) return cudaErrorInvalidValue;
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version) {
    if (!version) return cudaErrorInvalidValue;
    *version = CUDART_VERSION;
    return cudaSuccess;
}

/* ---- accepted without effect: the model's caches, limits and carveouts come from
 * the locsim configuration, not from the program ---- */

cudaError_t cudaDeviceSetCacheConfig(int config) {
    return config < 0 || config > 3 ? cudaErrorInvalidValue : cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(int *config) {
    if (!config) return cudaErrorInvalidValue;
    *config = 0;  /* cudaFuncCachePreferNone */
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(int config) {
    return config < 0 || config > 2 ? cudaErrorInvalidValue : cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(int *config) {
    if (!config) return cudaErrorInvalidValue;
    *config = 1;  /* cudaSharedMemBankSizeFourByte */
    return cudaSuccess;
}

#define LIMIT_COUNT 7
static size_t limits[LIMIT_COUNT] = {1024, 1 << 20, 8 << 20, 2, 2048, 32, 0};

cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
    if (limit < 0 || limit >= LIMIT_COUNT) return cudaErrorUnsupportedLimit;
    cr_lock();
    limits[limit] = value;
    cr_unlock();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit) {
    if (!value) return cudaErrorInvalidValue;
    if (limit < 0 || limit >= LIMIT_COUNT) return cudaErrorUnsupportedLimit;
    cr_lock();
    *value = limits[limit];
    cr_unlock();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer) {
    if (!can) return cudaErrorInvalidValue;
    if (check_device(device) != cudaSuccess || check_device(peer) != cudaSuccess) return cudaErrorInvalidDevice;
    *can = 0;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---- streams: tokens; work runs at call time, in program order ---- */

#define STREAM_MAGIC 0x5354524du  /* "STRM" */
struct CUstream_st {
    unsigned magic;
    unsigned flags;
    int priority;
};

static int valid_stream(cudaStream_t s) {
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread || s->magic == STREAM_MAGIC;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority) {
    if (!stream || flags > 1) return cudaErrorInvalidValue;
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s) return cr_leave(cudaErrorMemoryAllocation);
    *s = (struct CUstream_st){STREAM_MAGIC, flags, priority};
    *stream = s;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags) {
    return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread || stream->magic != STREAM_MAGIC)
        return cr_leave(cudaErrorInvalidResourceHandle);
    stream->magic = 0;
    free(stream);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(valid_stream(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    (void)event;
    (void)flags;
    return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
    if (!flags || !valid_stream(stream)) return cudaErrorInvalidValue;
    *flags = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread ? stream->flags : 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
    if (!priority || !valid_stream(stream)) return cudaErrorInvalidValue;
    *priority = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread ? stream->priority : 0;
    return cudaSuccess;
}

typedef void (*host_fn)(void *);
typedef void (*stream_callback)(cudaStream_t, cudaError_t, void *);

/* Host work queued on a stream runs now: everything before it has completed. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, host_fn fn, void *user_data) {
    if (!fn || !valid_stream(stream)) return cudaErrorInvalidValue;
    fn(user_data);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, stream_callback cb, void *user_data, unsigned int flags) {
    if (!cb || flags != 0 || !valid_stream(stream)) return cudaErrorInvalidValue;
    cb(stream, cudaPeekAtLastError(), user_data);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(s); }
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned int f) {
    return cudaStreamWaitEvent(s, e, f);
}
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, host_fn fn, void *u) { return cudaLaunchHostFunc(s, fn, u); }

/* ---- events: timestamps in simulated time ---- */

#define EVENT_MAGIC 0x45564e54u  /* "EVNT" */
struct CUevent_st {
    unsigned magic;
    unsigned flags;
    int recorded;
    double time_ms;  /* simulated time when recorded */
};

static int valid_event(cudaEvent_t e) { return e && e->magic == EVENT_MAGIC; }

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    if (!event || flags > 0xf) return cudaErrorInvalidValue;
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    struct CUevent_st *ev = calloc(1, sizeof *ev);
    if (!ev) return cr_leave(cudaErrorMemoryAllocation);
    ev->magic = EVENT_MAGIC;
    ev->flags = flags;
    *event = ev;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!valid_event(event)) return cr_leave(cudaErrorInvalidResourceHandle);
    event->magic = 0;
    free(event);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!valid_event(event) || !valid_stream(stream)) return cr_leave(cudaErrorInvalidResourceHandle);
    event->recorded = 1;
    event->time_ms = cr_sim_time_ms();
    return cr_leave(cudaSuccess);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    (void)flags;
    return cudaEventRecord(event, stream);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecord(event, stream); }
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    return cudaEventRecordWithFlags(event, stream, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(valid_event(event) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ms) return cr_leave(cudaErrorInvalidValue);
    if (!valid_event(start) || !valid_event(end) || !start->recorded || !end->recorded ||
        (start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming))
        return cr_leave(cudaErrorInvalidResourceHandle);
    if (cr.mode != LOCSIM_MODE_TIMING && !cr.noted_functional_events) {
        cr.noted_functional_events = 1;
        cr_warn("note: functional mode has no simulated time; cudaEventElapsedTime reports 0 ms "
                "(run with timing mode for simulated time)");
    }
    *ms = (float)(end->time_ms - start->time_ms);
    return cr_leave(cudaSuccess);
}
