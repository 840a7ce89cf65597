/* The device as the CUDA runtime describes it, device management, streams, events,
 * and the configuration calls that are accepted without effect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "runtime/runtime.h"
#include "sim/config.h"

#define CUDART_VERSION 13000  /* the runtime and driver version we answer: 13.0 */

/* ---- device description ---- */

/* Properties of the simulated GPU, from its configuration (the built-in defaults
 * when it has none).  The compute capability is 7.5: nvcc 13 emits no older PTX
 * target, and programs test it before using warp intrinsics. */
void cr_devinfo_init(cr_devinfo *info, const locsim_device *dev) {
    sim_config defaults;
    const sim_config *c = dev->cfg;
    if (!c) {
        config_defaults(&defaults);
        c = &defaults;
    }
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "locsim %.200s (%s)", cr.config_name,
             cr.mode == LOCSIM_MODE_TIMING ? "timing" : "functional");
    info->sms = (int)config_num_sms(c);
    info->warp_size = (int)c->warp_size;
    info->max_threads_per_sm = (int)c->max_threads_per_core;
    info->max_threads_per_block = info->max_threads_per_sm < 1024 ? info->max_threads_per_sm : 1024;
    info->max_blocks_per_sm = (int)c->max_cta_per_core;
    info->max_block_dim[0] = info->max_threads_per_block;
    info->max_block_dim[1] = info->max_threads_per_block;
    info->max_block_dim[2] = 64;
    info->max_grid_dim[0] = 0x7fffffff;
    info->max_grid_dim[1] = 65535;
    info->max_grid_dim[2] = 65535;
    info->smem_per_sm = c->shmem_size;
    info->smem_per_block = dev->max_smem_per_cta && dev->max_smem_per_cta < c->shmem_size ? dev->max_smem_per_cta
                                                                                          : c->shmem_size;
    info->regs_per_sm = (int)c->registers_per_core;
    info->regs_per_block = info->regs_per_sm < 65536 ? info->regs_per_sm : 65536;
    info->clock_khz = (int)(c->clock_mhz[CLOCK_CORE] * 1000.0);
    info->mem_clock_khz = (int)(c->clock_mhz[CLOCK_DRAM] * 1000.0);
    info->mem_bus_width = (int)(c->n_mem * c->dram.bus_width * c->dram.chips * 8);
    info->l2_bytes = (int)(cache_size_bytes(&c->l2) * config_num_l2_slices(c));
    size_t free_bytes;
    locsim_mem_get_info(dev, &free_bytes, &info->global_mem);  /* -device_memory_mb */
    info->const_mem = 64 * 1024;
    info->cc_major = 7;
    info->cc_minor = 5;
}

static cudaError_t check_device(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDeviceCount(int *count) {
    if (!count) return cr_record(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(check_device(device));
}

cudaError_t cudaGetDevice(int *device) {
    if (!device) return cr_record(cudaErrorInvalidValue);
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
    if (!flags) return cr_record(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
    (void)prop;
    if (!device) return cr_record(cudaErrorInvalidValue);
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
    p->hostRegisterSupported = 1;
    p->memoryPoolsSupported = 1;
    p->cooperativeLaunch = 1;
    p->persistingL2CacheMaxSize = d->l2_bytes / 4 * 3;
    p->accessPolicyMaxWindowSize = 128 << 20;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
    return cr_leave(cudaSuccess);
}


/* Value of one attribute; -1 in *known when we do not model it. */
static int attribute_value(int attr, int *known) {
    const cr_devinfo *d = &cr.info;
    *known = 1;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: return d->max_threads_per_block;
    case cudaDevAttrMaxBlockDimX: return d->max_block_dim[0];
    case cudaDevAttrMaxBlockDimY: return d->max_block_dim[1];
    case cudaDevAttrMaxBlockDimZ: return d->max_block_dim[2];
    case cudaDevAttrMaxGridDimX: return d->max_grid_dim[0];
    case cudaDevAttrMaxGridDimY: return d->max_grid_dim[1];
    case cudaDevAttrMaxGridDimZ: return d->max_grid_dim[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return (int)d->smem_per_block;
    case cudaDevAttrTotalConstantMemory: return (int)d->const_mem;
    case cudaDevAttrWarpSize: return d->warp_size;
    case cudaDevAttrMaxPitch: return 0x7fffffff;
    case cudaDevAttrMaxRegistersPerBlock: return d->regs_per_block;
    case cudaDevAttrClockRate: return d->clock_khz;
    case cudaDevAttrTextureAlignment: return 512;
    case cudaDevAttrGpuOverlap: return 1;
    case cudaDevAttrMultiProcessorCount: return d->sms;
    case cudaDevAttrCanMapHostMemory: return 1;
    case cudaDevAttrConcurrentKernels: return 1;
    case cudaDevAttrMemoryClockRate: return d->mem_clock_khz;
    case cudaDevAttrGlobalMemoryBusWidth: return d->mem_bus_width;
    case cudaDevAttrL2CacheSize: return d->l2_bytes;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return d->max_threads_per_sm;
    case cudaDevAttrAsyncEngineCount: return 1;
    case cudaDevAttrUnifiedAddressing: return 1;
    case cudaDevAttrComputeCapabilityMajor: return d->cc_major;
    case cudaDevAttrComputeCapabilityMinor: return d->cc_minor;
    case cudaDevAttrGlobalL1CacheSupported: return 1;
    case cudaDevAttrLocalL1CacheSupported: return 1;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return (int)d->smem_per_sm;
    case cudaDevAttrMaxRegistersPerMultiprocessor: return d->regs_per_sm;
    case cudaDevAttrManagedMemory: return 1;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return 2;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return (int)d->smem_per_sm;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return d->max_blocks_per_sm;
    case cudaDevAttrHostRegisterSupported: return 1;
    case cudaDevAttrMemoryPoolsSupported: return 1; /* cudaMallocAsync (pool.c) */
    case cudaDevAttrCooperativeLaunch: return 1;      /* grid.sync() (launch.c) */
    /* persisting-L2 hints are accepted and remembered (cudaStreamSetAttribute), not modelled */
    case cudaDevAttrMaxPersistingL2CacheSize: return d->l2_bytes / 4 * 3;
    case cudaDevAttrMaxAccessPolicyWindowSize: return 128 << 20;
    case cudaDevAttrNumaId: return -1;
    case cudaDevAttrHostNumaId: return -1;
    case cudaDevAttrKernelExecTimeout: case cudaDevAttrIntegrated: case cudaDevAttrComputeMode: case cudaDevAttrEccEnabled:
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId: case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrIsMultiGpuBoard: case cudaDevAttrHostNativeAtomicSupported: case cudaDevAttrPageableMemoryAccess:
    case cudaDevAttrConcurrentManagedAccess: case cudaDevAttrComputePreemptionSupported:
    case cudaDevAttrReservedSharedMemoryPerBlock: case cudaDevAttrNumaConfig:
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

/* Free every allocation and reload every module (fresh __device__ variables),
 * clear the errors.  The simulated GPU itself stays, so its statistics cover the
 * whole program: many programs reset the device just before they exit. */
cudaError_t cudaDeviceReset(void) {
    cr_lock();
    if (cr.unloading) return cr_leave(cudaErrorCudartUnloading);
    if (cr.dev) {
        cr_free_all_allocations();
        locsim_malloc_heap_reset(cr.dev);  /* the next malloc-using launch makes a new one */
        cr_release_modules();
        cr_load_modules();
    }
    cr_clear_errors();
    cr_unlock();
    return cudaSuccess;
}

/* ---- versions ---- */

cudaError_t cudaRuntimeGetVersion(int *version) {
    if (!version) return cr_record(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version) {
    if (!version) return cr_record(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

/* ---- accepted without effect: the model's caches, limits and carveouts come from
 * the locsim configuration, not from the program ---- */

cudaError_t cudaDeviceSetCacheConfig(int config) {
    return config < 0 || config > 3 ? cr_record(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(int *config) {
    if (!config) return cr_record(cudaErrorInvalidValue);
    *config = 0;  /* cudaFuncCachePreferNone */
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(int config) {
    return config < 0 || config > 2 ? cr_record(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(int *config) {
    if (!config) return cr_record(cudaErrorInvalidValue);
    *config = 1;  /* cudaSharedMemBankSizeFourByte */
    return cudaSuccess;
}

/* cudaLimit*: StackSize, PrintfFifoSize, MallocHeapSize, DevRuntimeSyncDepth,
 * DevRuntimePendingLaunchCount, MaxL2FetchGranularity, PersistingL2CacheSize.
 * The first three are honoured (the device's locsim_set_stack_size,
 * locsim_set_printf_fifo_size and locsim_set_malloc_heap_size, docs/limits.md);
 * the others are only stored.
 * The stack default is what recursive kernels get (16 KB), not CUDA's 1 KB. */
#define LIMIT_COUNT 7
enum { LIMIT_STACK = 0, LIMIT_PRINTF_FIFO = 1, LIMIT_MALLOC_HEAP = 2 };
static size_t limits[LIMIT_COUNT] = {16 << 10, 1 << 20, 8 << 20, 2, 2048, 32, 0};

void cr_apply_limits(locsim_device *dev) {
    locsim_set_stack_size(dev, limits[LIMIT_STACK]);
    locsim_set_printf_fifo_size(dev, limits[LIMIT_PRINTF_FIFO]);
    locsim_set_malloc_heap_size(dev, limits[LIMIT_MALLOC_HEAP]);
}

cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
    if (limit < 0 || limit >= LIMIT_COUNT) return cr_record(cudaErrorUnsupportedLimit);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (limit == LIMIT_STACK && locsim_set_stack_size(cr.dev, value) != LOCSIM_OK) {
        cr_warn("cudaDeviceSetLimit(cudaLimitStackSize, %zu): %s", value, locsim_last_error(cr.dev));
        return cr_leave(cudaErrorInvalidValue);
    }
    if (limit == LIMIT_PRINTF_FIFO) {
        if (value == 0) return cr_leave(cudaErrorInvalidValue);
        locsim_set_printf_fifo_size(cr.dev, value);
    }
    if (limit == LIMIT_MALLOC_HEAP && locsim_set_malloc_heap_size(cr.dev, value) != LOCSIM_OK) {
        cr_warn("cudaDeviceSetLimit(cudaLimitMallocHeapSize, %zu): %s", value, locsim_last_error(cr.dev));
        return cr_leave(cudaErrorInvalidValue);
    }
    limits[limit] = limit == LIMIT_STACK ? (size_t)locsim_stack_size(cr.dev) : value;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit) {
    if (!value) return cr_record(cudaErrorInvalidValue);
    if (limit < 0 || limit >= LIMIT_COUNT) return cr_record(cudaErrorUnsupportedLimit);
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
    if (!can) return cr_record(cudaErrorInvalidValue);
    if (check_device(device) != cudaSuccess || check_device(peer) != cudaSuccess) return cr_record(cudaErrorInvalidDevice);
    *can = 0;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---- streams: tokens; work runs at call time, in program order ---- */

/* Streams and events are handles the program passes back; a destroyed one (or a
 * pointer we never made) must be refused without being dereferenced, since its
 * memory is gone.  Each kind keeps the list of its live handles, and a handle is
 * valid only while it is on that list (programs create a handful). */
struct CUstream_st {
    struct CUstream_st *next;
    unsigned flags;
    int priority;
};
static struct CUstream_st *live_streams;

/* Whether s is one of the live streams we created (s is not dereferenced). */
static int live_stream(cudaStream_t s) {
    for (struct CUstream_st *t = live_streams; t; t = t->next)
        if (t == s) return 1;
    return 0;
}

static int valid_stream_locked(cudaStream_t s) {
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread || live_stream(s);
}

static int valid_stream(cudaStream_t s) {
    cr_lock();
    int ok = valid_stream_locked(s);
    cr_unlock();
    return ok;
}

cudaError_t cr_check_stream(cudaStream_t s) {
    return valid_stream(s) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

/* Stream attributes set with cudaStreamSetAttribute (below). */
#define STREAM_ATTRS 16
#define STREAM_ATTR_TABLE 64
static struct {
    cudaStream_t stream;
    int id;
    char value[64];
} stream_attrs[STREAM_ATTR_TABLE];

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority) {
    if (!stream || flags > 1) return cr_record(cudaErrorInvalidValue);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s) return cr_leave(cudaErrorMemoryAllocation);
    *s = (struct CUstream_st){live_streams, flags, priority};
    live_streams = s;
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
    for (struct CUstream_st **pp = &live_streams; *pp; pp = &(*pp)->next) {
        if (*pp == stream) {
            *pp = stream->next;
            for (int i = 0; i < STREAM_ATTR_TABLE; i++)
                if (stream_attrs[i].stream == stream) stream_attrs[i].id = 0, stream_attrs[i].stream = NULL;
            free(stream);
            return cr_leave(cudaSuccess);
        }
    }
    return cr_leave(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(valid_stream_locked(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

static int valid_event_locked(cudaEvent_t e);

/* Work runs at call time, so an event is always complete when waited on; the
 * handles must still be live ones (a NULL or destroyed event is refused). */
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    if (flags > 1) return cr_record(cudaErrorInvalidValue);  /* cudaEventWaitDefault / External */
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!valid_stream_locked(stream) || !valid_event_locked(event)) return cr_leave(cudaErrorInvalidResourceHandle);
    return cr_leave(cr_capture_event_wait(stream, event)); /* joins a capture (graph.c) */
}

/* Stream attributes (access-policy windows for persisting L2 lines, synchronisation
 * policy, priority): remembered and returned, with no effect on the model.  The value
 * is CUDA's 64-byte cudaLaunchAttributeValue union. */

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr, const void *value) {
    if (!value || attr <= 0 || attr >= STREAM_ATTRS || !valid_stream(stream)) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    int slot = -1;
    for (int i = 0; i < STREAM_ATTR_TABLE; i++) {
        if (stream_attrs[i].id == attr && stream_attrs[i].stream == stream) {
            slot = i;
            break;
        }
        if (slot < 0 && stream_attrs[i].id == 0) slot = i;
    }
    if (slot >= 0) {
        stream_attrs[slot].stream = stream;
        stream_attrs[slot].id = attr;
        memcpy(stream_attrs[slot].value, value, sizeof stream_attrs[slot].value);
    }
    cr_unlock();
    return slot >= 0 ? cudaSuccess : cr_record(cudaErrorMemoryAllocation);
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr, void *value) {
    if (!value || attr <= 0 || attr >= STREAM_ATTRS || !valid_stream(stream)) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    memset(value, 0, 64);  /* never set: zeros (an empty window, the default policy) */
    for (int i = 0; i < STREAM_ATTR_TABLE; i++)
        if (stream_attrs[i].id == attr && stream_attrs[i].stream == stream) memcpy(value, stream_attrs[i].value, 64);
    cr_unlock();
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, int attr, const void *value) {
    return cudaStreamSetAttribute(stream, attr, value);
}
cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, int attr, void *value) {
    return cudaStreamGetAttribute(stream, attr, value);
}

/* Persisting lines are not modelled: nothing to reset. */
cudaError_t cudaCtxResetPersistingL2Cache(void) { return cudaSuccess; }

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
    if (!flags || !valid_stream(stream)) return cr_record(cudaErrorInvalidValue);
    *flags = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread ? stream->flags : 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
    if (!priority || !valid_stream(stream)) return cr_record(cudaErrorInvalidValue);
    *priority = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread ? stream->priority : 0;
    return cudaSuccess;
}

typedef void (*host_fn)(void *);
typedef void (*stream_callback)(cudaStream_t, cudaError_t, void *);

/* Host work queued on a stream runs now: everything before it has completed (on a
 * capturing stream it becomes a host node of the graph). */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, host_fn fn, void *user_data) {
    if (!fn || !valid_stream(stream)) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    cudaGraph_t g = cr_capture_graph(stream);
    cudaError_t e = g ? cr_capture_host(g, fn, user_data) : cudaSuccess;
    cr_unlock();
    if (!g) fn(user_data);
    return e == cudaSuccess ? cudaSuccess : cr_record(e);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, stream_callback cb, void *user_data, unsigned int flags) {
    if (!cb || flags != 0 || !valid_stream(stream)) return cr_record(cudaErrorInvalidValue);
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

struct CUevent_st {
    struct CUevent_st *next;
    unsigned flags;
    int recorded;
    double time_ms;  /* simulated time when recorded */
};
static struct CUevent_st *live_events;

/* Whether e is one of the live events we created (e is not dereferenced). */
static int valid_event_locked(cudaEvent_t e) {
    for (struct CUevent_st *t = live_events; t; t = t->next)
        if (t == e) return 1;
    return 0;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    if (!event || flags > 0xf) return cr_record(cudaErrorInvalidValue);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    struct CUevent_st *ev = calloc(1, sizeof *ev);
    if (!ev) return cr_leave(cudaErrorMemoryAllocation);
    ev->flags = flags;
    ev->next = live_events;
    live_events = ev;
    *event = ev;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    for (struct CUevent_st **pp = &live_events; *pp; pp = &(*pp)->next) {
        if (*pp == event) {
            *pp = event->next;
            free(event);
            return cr_leave(cudaSuccess);
        }
    }
    return cr_leave(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!valid_event_locked(event) || !valid_stream_locked(stream)) return cr_leave(cudaErrorInvalidResourceHandle);
    cr_capture_event_record(event, stream);
    if (cr_capture_graph(stream)) return cr_leave(cudaSuccess); /* a point in the capture, no time */
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
    return cr_leave(valid_event_locked(event) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ms) return cr_leave(cudaErrorInvalidValue);
    if (!valid_event_locked(start) || !valid_event_locked(end) || !start->recorded || !end->recorded ||
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
