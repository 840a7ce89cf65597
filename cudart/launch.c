/* Kernel launches.
 *
 * nvcc 13 turns `kernel<<<g, b, smem, s>>>(args)` into
 *   __cudaPushCallConfiguration(g, b, smem, s);   at the call site
 *   __cudaGetKernel(&handle, stub);               once per stub
 *   __cudaPopCallConfiguration(&g, &b, &smem, &s);
 *   __cudaLaunchKernel(handle, g, b, args, smem, s);
 * Our kernel handle is the host stub's address itself: stable for the life of the
 * program, and the same key cudaLaunchKernel(func, ...) uses.
 */
#include <stdio.h>
#include <string.h>

#include "cudart.h"
#include "sim/progress.h"
#include "runtime/runtime.h"

/* Configurations pushed and not yet popped, per host thread (threads launch
 * independently); nesting happens when a launch's arguments themselves launch
 * kernels. */
#define CONFIG_STACK_DEPTH 64
typedef struct {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
} launch_config;
static _Thread_local launch_config config_stack[CONFIG_STACK_DEPTH];
static _Thread_local int config_depth;

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, cudaStream_t stream) {
    if (config_depth == CONFIG_STACK_DEPTH) cr_die("kernel launches nested more than %d deep", CONFIG_STACK_DEPTH);
    config_stack[config_depth++] = (launch_config){grid, block, smem, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void *stream) {
    if (config_depth == 0) return cudaErrorMissingConfiguration;
    launch_config c = config_stack[--config_depth];
    *grid = c.grid;
    *block = c.block;
    *smem = c.smem;
    *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *handle, const void *host_fun) {
    cr_lock();
    cr_function *f = cr_find_function(host_fun);
    cr_unlock();
    if (!handle) return cr_record(cudaErrorInvalidValue);
    *handle = (cudaKernel_t)host_fun;
    return f ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

/* The checks a GPU makes before it accepts a launch. */
static cudaError_t check_config(cr_function *f, locsim_kernel *k, dim3 grid, dim3 block, size_t smem) {
    const cr_devinfo *d = &cr.info;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > (uint64_t)d->max_threads_per_block || block.x > (unsigned)d->max_block_dim[0] ||
        block.y > (unsigned)d->max_block_dim[1] || block.z > (unsigned)d->max_block_dim[2])
        return cudaErrorInvalidConfiguration;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > (unsigned)d->max_grid_dim[0] ||
        grid.y > (unsigned)d->max_grid_dim[1] || grid.z > (unsigned)d->max_grid_dim[2])
        return cudaErrorInvalidConfiguration;
    locsim_kernel_info info;
    if (locsim_kernel_get_info(k, &info) == LOCSIM_OK) {
        size_t limit = f->max_dyn_smem ? f->max_dyn_smem + (size_t)info.static_smem_bytes : d->smem_per_block;
        if (limit > d->smem_per_sm) limit = d->smem_per_sm;
        if (smem + info.static_smem_bytes > limit) return cudaErrorInvalidValue;
        /* more threads than the kernel's __launch_bounds__ (.maxntid) allow */
        if (info.max_threads_per_block && threads > info.max_threads_per_block) return cudaErrorLaunchOutOfResources;
    }
    return cudaSuccess;
}

/* Kernel arguments, with pointers into non-identity managed/pinned regions replaced
 * by their device addresses.  Only pointer-sized parameters can hold a pointer. */
#define MAX_PARAMS 512
static cudaError_t translate_args(locsim_kernel *k, void **args, void **out, uint64_t *slots) {
    const ptx_function *fn = k->fn;
    if (fn->nparams > MAX_PARAMS) return cudaErrorInvalidValue;
    for (uint32_t i = 0; i < fn->nparams; i++) {
        out[i] = args ? args[i] : NULL;
        if (!out[i]) return cudaErrorInvalidValue;
        if (fn->params[i].size != 8) continue;
        uint64_t v;
        memcpy(&v, out[i], 8);
        uint64_t t = cr_translate_arg(v);
        if (t != v) {
            slots[i] = t;
            out[i] = &slots[i];
        }
    }
    return cudaSuccess;
}

/* What a kernel fault does to the context: sticky, as on a GPU. */
static cudaError_t fault_error(locsim_status st) {
    if (st == LOCSIM_ERR_DEADLOCK) return cudaErrorLaunchFailure;
    if (st == LOCSIM_ERR_ASSERT) return cudaErrorAssert;
    if (st == LOCSIM_ERR_KERNEL_FAULT) return cudaErrorIllegalAddress;
    return cudaErrorLaunchFailure;
}

static cudaError_t run_kernel(cr_function *f, locsim_kernel *k, dim3 grid, dim3 block, void **args, size_t smem,
                              unsigned flags) {
    static void *argv[MAX_PARAMS];
    static uint64_t slots[MAX_PARAMS];
    cudaError_t e = translate_args(k, args, argv, slots);
    if (e != cudaSuccess) return e;
    locsim_counters before, after;
    locsim_get_counters(cr.dev, &before);
    cr_regions_to_device();
    cr_set_in_kernel(cr.mode == LOCSIM_MODE_TIMING);
    locsim_status st = locsim_launch_ex(k, (locsim_dim3){grid.x, grid.y, grid.z},
                                        (locsim_dim3){block.x, block.y, block.z}, (uint32_t)smem, argv,
                                        k->fn->nparams, flags);
    cr_set_in_kernel(0);
    cr_regions_to_host();
    locsim_get_counters(cr.dev, &after);
    cr_stats_record(f->name, &before, &after);
    if (st == LOCSIM_ERR_INTERRUPTED) cr_die_by_signal(progress_stop_signal());
    if (st == LOCSIM_OK) return cudaSuccess;
    if (st == LOCSIM_ERR_UNSUPPORTED) {
        /* loaded lazily (register.c): this kernel uses something locsim lacks; the
         * others run, and the program sees the error of this launch only */
        cr_warn("launch of %s refused: %s", f->name, locsim_last_error(cr.dev));
        return cudaErrorInvalidPtx;
    }
    if (st == LOCSIM_ERR_LAUNCH || st == LOCSIM_ERR_INVALID) {
        cr_warn("launch of %s refused: %s", f->name, locsim_last_error(cr.dev));
        return st == LOCSIM_ERR_LAUNCH ? cudaErrorInvalidConfiguration : cudaErrorInvalidValue;
    }
    /* A fault inside the kernel: report it like compute-sanitizer would, and poison
     * the context so the program's next synchronising call sees it. */
    cr_warn("kernel %s failed: %s", f->name, locsim_last_error(cr.dev));
    cr.sticky_error = fault_error(st);
    return cudaSuccess;
}

static int max_blocks_per_sm(locsim_kernel *k, int block_size, size_t dyn_smem);

/* A cooperative launch (LOCSIM_LAUNCH_COOPERATIVE) needs every CTA resident at once:
 * at most the occupancy calculator's blocks per SM times the SMs, as on a GPU. */
static cudaError_t check_cooperative(cr_function *f, locsim_kernel *k, dim3 grid, dim3 block, size_t smem) {
    uint64_t ctas = (uint64_t)grid.x * grid.y * grid.z;
    int per_sm = max_blocks_per_sm(k, (int)(block.x * block.y * block.z), smem);
    uint64_t fit = (uint64_t)per_sm * (uint64_t)cr.info.sms;
    if (ctas <= fit) return cudaSuccess;
    cr_warn("cooperative launch of %s: %llu blocks, but only %llu (%d per SM) can be resident at once", f->name,
            (unsigned long long)ctas, (unsigned long long)fit, per_sm);
    return cudaErrorCooperativeLaunchTooLarge;
}

static cudaError_t launch_flags(const void *host_fun, dim3 grid, dim3 block, void **args, size_t smem,
                                cudaStream_t stream, unsigned flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f = cr_find_function(host_fun);
    if (!f) return cr_leave(cudaErrorInvalidDeviceFunction);
    locsim_kernel *k = cr_function_kernel(f, &e);
    if (!k) return cr_leave(e);
    e = check_config(f, k, grid, block, smem);
    if (e == cudaSuccess && (flags & LOCSIM_LAUNCH_COOPERATIVE)) e = check_cooperative(f, k, grid, block, smem);
    if (e != cudaSuccess) return cr_leave(e);
    cudaGraph_t g = cr_capture_graph(stream);
    if (g && flags) {
        cr_warn("a cooperative launch on a capturing stream is not supported by locsim's stream capture");
        return cr_leave(cudaErrorStreamCaptureUnsupported);
    }
    if (g) return cr_leave(cr_capture_kernel(g, host_fun, grid, block, smem, args)); /* runs with the graph */
    return cr_leave(run_kernel(f, k, grid, block, args, smem, flags));
}

static cudaError_t launch(const void *host_fun, dim3 grid, dim3 block, void **args, size_t smem,
                          cudaStream_t stream) {
    return launch_flags(host_fun, grid, block, args, smem, stream, 0);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return launch(kernel, grid, block, args, smem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t smem,
                                    cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return launch(kernel, grid, block, args, smem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                             cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return launch(func, grid, block, args, smem, stream);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                  cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return launch(func, grid, block, args, smem, stream);
}

/* Cooperative launch: every CTA of the grid runs at once and grid.sync() works
 * (locsim_launch_ex, LOCSIM_LAUNCH_COOPERATIVE). */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                        cudaStream_t stream) {
    return launch_flags(func, grid, block, args, smem, stream, LOCSIM_LAUNCH_COOPERATIVE);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                             cudaStream_t stream) {
    return launch_flags(func, grid, block, args, smem, stream, LOCSIM_LAUNCH_COOPERATIVE);
}

/* Launch attributes change nothing in this model except a cooperative launch (*flags)
 * and thread-block clusters larger than one CTA, which it lacks. */
static cudaError_t check_launch_attributes(const cudaLaunchConfig_t *config, unsigned *flags) {
    if (config->numAttrs && !config->attrs) return cudaErrorInvalidValue;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative && a->val.cooperative) *flags |= LOCSIM_LAUNCH_COOPERATIVE;
        if ((a->id == cudaLaunchAttributeClusterDimension || a->id == cudaLaunchAttributePreferredClusterDimension) &&
            (uint64_t)a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1) {
            cr_warn("thread-block clusters are not supported");
            return cudaErrorNotSupported;
        }
    }
    return cudaSuccess;
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
    if (!config) return cr_record(cudaErrorInvalidValue);
    cr_lock();
    unsigned flags = 0;
    cudaError_t e = check_launch_attributes(config, &flags);
    if (e == cudaSuccess) e = cr_check_stream(config->stream);
    if (e != cudaSuccess) return cr_leave(e);
    e = launch_flags(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream, flags);
    cr_unlock();
    return e;
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args) {
    return cudaLaunchKernelExC(config, func, args);
}

/* ---- function attributes ---- */

static cudaError_t function_of(const void *func, cr_function **f, locsim_kernel **k) {
    *f = cr_find_function(func);
    if (!*f) return cudaErrorInvalidDeviceFunction;
    cudaError_t e = cudaSuccess;
    *k = cr_function_kernel(*f, &e);
    return *k ? cudaSuccess : e;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f;
    locsim_kernel *k;
    if (!attr) return cr_leave(cudaErrorInvalidValue);
    if ((e = function_of(func, &f, &k)) != cudaSuccess) return cr_leave(e);
    locsim_kernel_info info;
    if (locsim_kernel_get_info(k, &info) != LOCSIM_OK) return cr_leave(cudaErrorInvalidDeviceFunction);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = info.static_smem_bytes;
    attr->localSizeBytes = info.local_bytes_per_thread;
    attr->numRegs = (int)info.num_regs;
    attr->maxThreadsPerBlock = info.max_threads_per_block ? (int)info.max_threads_per_block
                                                          : cr.info.max_threads_per_block;
    attr->ptxVersion = cr.info.cc_major * 10 + cr.info.cc_minor;
    attr->binaryVersion = attr->ptxVersion;
    size_t dyn = f->max_dyn_smem;
    if (!dyn && cr.info.smem_per_block > info.static_smem_bytes) dyn = cr.info.smem_per_block - info.static_smem_bytes;
    attr->maxDynamicSharedSizeBytes = (int)dyn;
    attr->preferredShmemCarveout = -1;
    return cr_leave(cudaSuccess);
}

/* cudaFuncAttribute values (driver_types.h) */
#define cudaFuncAttributeMaxDynamicSharedMemorySize 8
#define cudaFuncAttributeMax 16

cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f;
    locsim_kernel *k;
    if ((e = function_of(func, &f, &k)) != cudaSuccess) return cr_leave(e);
    if (attr < 0 || attr >= cudaFuncAttributeMax) return cr_leave(cudaErrorInvalidValue);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > cr.info.smem_per_sm) return cr_leave(cudaErrorInvalidValue);
        f->max_dyn_smem = (uint32_t)value;
    }
    /* Carveout and cluster attributes are hints with no effect on the model. */
    return cr_leave(cudaSuccess);
}

/* Cache and shared-memory bank preferences: accepted, no effect (the L1/shared
 * split comes from the locsim configuration). */
cudaError_t cudaFuncSetCacheConfig(const void *func, int config) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f;
    locsim_kernel *k;
    if ((e = function_of(func, &f, &k)) != cudaSuccess) return cr_leave(e);
    return cr_leave(config < 0 || config > 3 ? cudaErrorInvalidValue : cudaSuccess);
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f;
    locsim_kernel *k;
    if ((e = function_of(func, &f, &k)) != cudaSuccess) return cr_leave(e);
    return cr_leave(config < 0 || config > 2 ? cudaErrorInvalidValue : cudaSuccess);
}

cudaError_t cudaFuncGetName(const char **name, const void *func) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f = cr_find_function(func);
    if (!name) return cr_leave(cudaErrorInvalidValue);
    if (!f) return cr_leave(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cr_leave(cudaSuccess);
}

/* ---- occupancy, from the configured SM limits ---- */

static int max_blocks_per_sm(locsim_kernel *k, int block_size, size_t dyn_smem) {
    const cr_devinfo *d = &cr.info;
    if (block_size <= 0) return 0;
    int warps = (block_size + d->warp_size - 1) / d->warp_size;
    int by_threads = d->max_threads_per_sm / (warps * d->warp_size);
    int blocks = by_threads < d->max_blocks_per_sm ? by_threads : d->max_blocks_per_sm;
    locsim_kernel_info info;
    if (locsim_kernel_get_info(k, &info) == LOCSIM_OK) {
        size_t smem = dyn_smem + info.static_smem_bytes;
        if (smem > 0) {
            int by_smem = (int)(d->smem_per_sm / smem);
            if (by_smem < blocks) blocks = by_smem;
        }
    }
    return blocks;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num_blocks, const void *func, int block_size,
                                                                   size_t dyn_smem, unsigned int flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_function *f;
    locsim_kernel *k;
    (void)flags;
    if (!num_blocks || block_size <= 0) return cr_leave(cudaErrorInvalidValue);
    if ((e = function_of(func, &f, &k)) != cudaSuccess) return cr_leave(e);
    *num_blocks = max_blocks_per_sm(k, block_size, dyn_smem);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks, const void *func, int block_size,
                                                          size_t dyn_smem) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num_blocks, func, block_size, dyn_smem, 0);
}
