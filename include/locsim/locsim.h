/* locsim public runtime API: devices, device memory, modules, kernel launch.
 *
 * Every call returns a locsim_status; LOCSIM_OK is 0.  On error the device keeps a
 * message (locsim_last_error) naming what went wrong and where (file:line for PTX,
 * kernel/CTA/thread/PC/address for a misbehaving kernel).
 */
#ifndef LOCSIM_LOCSIM_H
#define LOCSIM_LOCSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    LOCSIM_OK = 0,
    LOCSIM_ERR_INVALID = 1,        /* bad argument from the host program */
    LOCSIM_ERR_PARSE = 2,          /* malformed PTX */
    LOCSIM_ERR_UNSUPPORTED = 3,    /* PTX feature / opcode we do not implement */
    LOCSIM_ERR_NOT_FOUND = 4,      /* unknown kernel or symbol */
    LOCSIM_ERR_OUT_OF_MEMORY = 5,
    LOCSIM_ERR_LAUNCH = 6,         /* bad launch configuration (too many threads, args...) */
    LOCSIM_ERR_KERNEL_FAULT = 7,   /* out-of-bounds access, misaligned access, trap */
    LOCSIM_ERR_DEADLOCK = 8,       /* barrier deadlock / divergent barrier / watchdog */
    LOCSIM_ERR_CONFIG = 9,
    LOCSIM_ERR_IO = 10,
    LOCSIM_ERR_INTERRUPTED = 11,   /* stopped by a signal (SIGINT/SIGTERM): partial results */
    LOCSIM_ERR_ASSERT = 12         /* a device assert() failed (__assertfail) */
} locsim_status;

typedef uint64_t locsim_dptr;  /* a device (generic/global) address */

typedef struct locsim_device locsim_device;
typedef struct locsim_module locsim_module;
typedef struct locsim_kernel locsim_kernel;
typedef struct locsim_config locsim_config;

typedef struct { uint32_t x, y, z; } locsim_dim3;

/* Execution mode of a device. */
typedef enum { LOCSIM_MODE_FUNCTIONAL = 0, LOCSIM_MODE_TIMING = 1 } locsim_mode;

/* ---- configurations (timing model) ---- */
/* Load a GPU configuration: a shipped name ("fermi_gtx480", looked up in
 * $LOCSIM_CONFIG_DIR, ./configs and the configs/ next to the executable's build
 * directory) or a path to a GPGPU-Sim-style .cfg file, then apply noverrides
 * strings as "-option value" pairs (argv style: name and value in separate
 * entries, so noverrides is even).  On error *out is NULL and err names the file,
 * line or option and what was expected.  The configuration must outlive every
 * device created from it; free it with locsim_config_free. */
locsim_status locsim_config_load(const char *name_or_path, int noverrides, char **overrides, locsim_config **out,
                                 char *err, size_t errsz);
void locsim_config_free(locsim_config *cfg);

/* ---- device ---- */
/* cfg may be NULL: the default configuration (fermi_gtx480), functional mode.
 * On failure, locsim_last_error(NULL) says why (per calling thread). */
locsim_status locsim_device_create(const locsim_config *cfg, locsim_mode mode, locsim_device **out);
void locsim_device_destroy(locsim_device *dev);
const char *locsim_last_error(const locsim_device *dev);
const char *locsim_status_name(locsim_status s);

/* ---- device memory (sparse, paged: untouched pages cost nothing) ---- */
locsim_status locsim_malloc(locsim_device *dev, locsim_dptr *out, size_t bytes);
locsim_status locsim_free(locsim_device *dev, locsim_dptr ptr);
/* Device memory left for locsim_malloc and its capacity (-device_memory_mb). */
void locsim_mem_get_info(const locsim_device *dev, size_t *free_bytes, size_t *total_bytes);
locsim_status locsim_memset(locsim_device *dev, locsim_dptr ptr, int value, size_t bytes);
locsim_status locsim_memcpy_htod(locsim_device *dev, locsim_dptr dst, const void *src, size_t bytes);
locsim_status locsim_memcpy_dtoh(locsim_device *dev, void *dst, locsim_dptr src, size_t bytes);
locsim_status locsim_memcpy_dtod(locsim_device *dev, locsim_dptr dst, locsim_dptr src, size_t bytes);

/* ---- modules ---- */
/* Parse and load PTX text.  name is used in diagnostics ("kernel.ptx"). */
locsim_status locsim_module_load_ptx(locsim_device *dev, const char *ptx, size_t len,
                                     const char *name, locsim_module **out);
locsim_status locsim_module_load_file(locsim_device *dev, const char *path, locsim_module **out);
/* LOCSIM_LOAD_LAZY_UNSUPPORTED: a kernel using an unsupported instruction or special
 * register does not fail the load; launching it (or a kernel calling such a function)
 * fails with LOCSIM_ERR_UNSUPPORTED and the message naming file:line, and the other
 * kernels run.  (The CUDA runtime replacement loads this way.) */
#define LOCSIM_LOAD_LAZY_UNSUPPORTED 1u
locsim_status locsim_module_load_ptx_ex(locsim_device *dev, const char *ptx, size_t len, const char *name,
                                        unsigned flags, locsim_module **out);
void locsim_module_unload(locsim_module *mod);
/* Registers per thread of the module's kernels from ptxas's listing (the stderr of
 * `ptxas -v`): the timing model's occupancy uses them instead of its estimate from
 * the PTX.  A malformed listing or one naming a kernel the module lacks is
 * LOCSIM_ERR_PARSE ("name:line: ..."). */
locsim_status locsim_module_set_ptxas_listing(locsim_module *mod, const char *listing, size_t len,
                                              const char *name);
/* Registers per thread of one kernel (name: its PTX entry name), as ptxas gave it --
 * e.g. read from a cubin; 0 is taken as 1.  LOCSIM_ERR_NOT_FOUND when the module has
 * no such kernel (nothing changes). */
locsim_status locsim_module_set_kernel_regs(locsim_module *mod, const char *name, uint32_t regs);
locsim_status locsim_module_get_kernel(locsim_module *mod, const char *name, locsim_kernel **out);
/* Address and size of a module-scope __device__ / __constant__ variable. */
locsim_status locsim_module_get_symbol(locsim_module *mod, const char *name, locsim_dptr *addr,
                                       size_t *size);
locsim_status locsim_memcpy_to_symbol(locsim_module *mod, const char *name, const void *src,
                                      size_t bytes, size_t offset);
locsim_status locsim_memcpy_from_symbol(locsim_module *mod, const char *name, void *dst,
                                        size_t bytes, size_t offset);

/* ---- launch ---- */
/* args[i] points at the value of kernel parameter i (as cudaLaunchKernel's void **args);
 * nargs must equal the kernel's parameter count.  Runs the kernel to completion. */
locsim_status locsim_launch(locsim_kernel *k, locsim_dim3 grid, locsim_dim3 block,
                            uint32_t dyn_smem_bytes, void **args, uint32_t nargs);

/* locsim_launch with flags.  LOCSIM_LAUNCH_COOPERATIVE: every CTA of the grid runs at
 * once (functional mode: their warps take turns; timing mode: the grid must fit on the
 * GPU, which the caller checks) and cooperative groups' grid.sync() works: the kernel
 * gets a zeroed grid-sync workspace through %envreg1:%envreg2. */
enum { LOCSIM_LAUNCH_COOPERATIVE = 1 };
locsim_status locsim_launch_ex(locsim_kernel *k, locsim_dim3 grid, locsim_dim3 block, uint32_t dyn_smem_bytes,
                               void **args, uint32_t nargs, unsigned flags);

/* Kernel properties for hosts that need them (cudaFuncGetAttributes). */
typedef struct {
    uint32_t num_params;
    uint32_t param_bytes;
    uint32_t static_smem_bytes;
    uint32_t local_bytes_per_thread;
    uint32_t num_regs;              /* ptxas's count when known (listing, cubin), else the PTX's declared registers */
    uint32_t max_threads_per_block;
} locsim_kernel_info;
locsim_status locsim_kernel_get_info(const locsim_kernel *k, locsim_kernel_info *out);
const char *locsim_kernel_name(const locsim_kernel *k);

/* ---- arrays, texture and surface objects ----
 * The numbering of every enum below is CUDA's (cudaChannelFormatKind,
 * cudaResourceType, cudaTextureAddressMode, cudaTextureFilterMode,
 * cudaTextureReadMode, cudaArrayLayered / cudaArraySurfaceLoadStore), so a CUDA
 * runtime can pass its values through.  Semantics: docs/textures.md. */
typedef enum { LOCSIM_CHANNEL_SIGNED = 0, LOCSIM_CHANNEL_UNSIGNED = 1, LOCSIM_CHANNEL_FLOAT = 2 } locsim_channel_kind;
/* Bits of each channel (x, y, z, w; 0 = absent): 1, 2 or 4 channels of the same
 * width (8, 16 or 32 bits; float: 16 (half) or 32). */
typedef struct { int x, y, z, w; locsim_channel_kind kind; } locsim_channel_format;

typedef struct locsim_array locsim_array;   /* a CUDA array: texels stored row by row */
enum { LOCSIM_ARRAY_LAYERED = 1, LOCSIM_ARRAY_SURFACE = 2 };
/* height 0: a 1-D array; depth 0: 2-D (or, with LOCSIM_ARRAY_LAYERED, depth is the
 * number of layers of a 1-D (height 0) or 2-D layered array). */
locsim_status locsim_array_create(locsim_device *dev, const locsim_channel_format *fmt, size_t width, size_t height,
                                  size_t depth, unsigned flags, locsim_array **out);
locsim_status locsim_array_destroy(locsim_device *dev, locsim_array *arr);
/* Format, extent (as given at creation) and flags of an array. */
void locsim_array_get_info(const locsim_array *arr, locsim_channel_format *fmt, size_t extent[3], unsigned *flags);

/* One side of a 3-D copy: an array (at byte x, row y, slice z), device memory or
 * host memory (pitch bytes per row, height rows per slice, from x, y, z). */
typedef struct {
    locsim_array *array;       /* or NULL */
    locsim_dptr dptr;          /* or 0 */
    void *host;                /* or NULL (a source is only read) */
    size_t pitch, height;      /* linear memory only */
    size_t x, y, z;            /* x in bytes */
} locsim_copy_side;
/* Copy width bytes x height rows x depth slices; at least one side is device
 * memory or an array.  Out-of-range regions of an array are LOCSIM_ERR_INVALID. */
locsim_status locsim_memcpy_3d(locsim_device *dev, const locsim_copy_side *dst, const locsim_copy_side *src,
                               size_t width, size_t height, size_t depth);

typedef enum { LOCSIM_RES_ARRAY = 0, LOCSIM_RES_LINEAR = 2, LOCSIM_RES_PITCH2D = 3 } locsim_resource_type;
typedef struct {
    locsim_resource_type type;
    locsim_array *array;           /* ARRAY */
    locsim_dptr ptr;               /* LINEAR, PITCH2D */
    locsim_channel_format format;  /* LINEAR, PITCH2D */
    size_t size_bytes;             /* LINEAR */
    size_t width, height, pitch;   /* PITCH2D (width/height in texels, pitch in bytes) */
} locsim_resource_desc;

enum { LOCSIM_ADDRESS_WRAP = 0, LOCSIM_ADDRESS_CLAMP = 1, LOCSIM_ADDRESS_MIRROR = 2, LOCSIM_ADDRESS_BORDER = 3 };
enum { LOCSIM_FILTER_POINT = 0, LOCSIM_FILTER_LINEAR = 1 };
enum { LOCSIM_READ_ELEMENT = 0, LOCSIM_READ_NORMALIZED_FLOAT = 1 };
typedef struct {
    int address_mode[3];
    int filter_mode;
    int read_mode;
    int normalized_coords;
    float border_color[4];
} locsim_texture_desc;

/* Texture and surface objects: the 64-bit handle a kernel receives (tex / suld /
 * sust operands).  Handles are small positive numbers; 0 is never one. */
locsim_status locsim_texture_create(locsim_device *dev, const locsim_resource_desc *res,
                                    const locsim_texture_desc *tex, uint64_t *handle);
locsim_status locsim_texture_destroy(locsim_device *dev, uint64_t handle);
locsim_status locsim_texture_get_desc(locsim_device *dev, uint64_t handle, locsim_resource_desc *res,
                                      locsim_texture_desc *tex);
/* A surface: an array created with LOCSIM_ARRAY_SURFACE. */
locsim_status locsim_surface_create(locsim_device *dev, const locsim_resource_desc *res, uint64_t *handle);
locsim_status locsim_surface_destroy(locsim_device *dev, uint64_t handle);
locsim_status locsim_surface_get_desc(locsim_device *dev, uint64_t handle, locsim_resource_desc *res);

/* ---- Locality Descriptors (Vijaykumar et al., ISCA 2018; docs/ldesc.md) ----
 * A descriptor tells the simulated GPU how a kernel's threads reuse one data
 * structure.  It is a hint: it never changes what a program computes, only how
 * the CTA scheduler (-cta_scheduler ldesc), the L1D (-l1d_policy ldesc) and the
 * prefetcher treat the data.  Attach descriptors after the data is in device
 * memory and before the launches they describe; they apply to every launch
 * until detached, cleared, or their allocation is freed. */
enum {                                   /* locality type: a bit set (several allowed) */
    LOCSIM_LDESC_INTRA_THREAD = 1u,      /* reuse by the same thread (hard pinning) */
    LOCSIM_LDESC_INTER_THREAD = 2u,      /* data shared between threads / CTAs */
    LOCSIM_LDESC_NO_REUSE = 4u           /* streamed once (bypasses the L1); alone only */
};
typedef enum { LOCSIM_LDESC_COACCESSED = 0, LOCSIM_LDESC_NEARBY = 1 } locsim_ldesc_sharing;
typedef enum { LOCSIM_LDESC_REGULAR = 0, LOCSIM_LDESC_IRREGULAR = 1 } locsim_ldesc_pattern;
/* Where the data structure lives (not one of the paper's five components: its
 * LIBOR example's INTRA_THREAD data is per-thread local memory, which has no
 * device pointer).  LOCAL: base and size are byte offsets in each thread's local
 * memory (the kernel's stack frame: local arrays and spills; ptxas's "bytes stack
 * frame", locsim_kernel_info.local_bytes_per_thread), the same range in every
 * thread of every launch while attached; INTRA_THREAD or NO_REUSE only. */
typedef enum { LOCSIM_LDESC_GLOBAL = 0, LOCSIM_LDESC_LOCAL = 1 } locsim_ldesc_space;
/* The largest local memory a thread may have (CUDA's limit, 512 KB). */
#define LOCSIM_LDESC_LOCAL_MAX (512u * 1024u)

typedef struct {
    /* 1. the data structure: [base, base + size) inside one live allocation */
    locsim_dptr base;
    uint64_t size;
    /* 2. locality type: LOCSIM_LDESC_* bits */
    uint32_t type;
    /* 3. tile semantics.  A data tile (D-Tile) is data_tile.x x .y x .z elements of
     *    elem_size bytes (x fastest); a compute tile (C-Tile) is compute_tile.x x .y
     *    x .z CTAs.  C-Tiles and D-Tiles correspond 1:1: the k-th D-Tile in X->Y->Z
     *    order goes with the k-th C-Tile in the order `map` gives -- map.d is the
     *    rank of grid dimension d in the C-Tile traversal (1 fastest; 0: the
     *    dimension is not traversed, as (1,0,0) in the paper's histo example). */
    uint32_t elem_size;
    locsim_dim3 data_tile;
    locsim_dim3 compute_tile;
    locsim_dim3 map;
    /* 4. locality semantics: sharing type, access pattern, stride (elements) */
    locsim_ldesc_sharing sharing;
    locsim_ldesc_pattern pattern;
    int64_t stride;
    /* 5. priority: larger wins when descriptors conflict */
    int32_t priority;
    /* address space of [base, base + size): GLOBAL (0, device memory) or LOCAL */
    locsim_ldesc_space space;
} locsim_ldesc;

/* At most this many descriptors are attached at once. */
#define LOCSIM_LDESC_MAX 16
/* Validate and attach d; *id (may be NULL) receives its number (0..MAX-1, the
 * index of its statistics).  LOCSIM_ERR_INVALID with a message naming the field
 * for a range outside every live allocation, zero tile dimensions, an unknown
 * type/sharing/pattern, NO_REUSE mixed with another type, a bad map, an unknown
 * space, a LOCAL range past LOCSIM_LDESC_LOCAL_MAX or of type INTER_THREAD. */
locsim_status locsim_ldesc_attach(locsim_device *dev, const locsim_ldesc *d, int *id);
locsim_status locsim_ldesc_detach(locsim_device *dev, int id);
void locsim_ldesc_clear(locsim_device *dev);
/* Descriptors attached now. */
uint32_t locsim_ldesc_count(const locsim_device *dev);

/* ---- statistics of the device so far ---- */
typedef struct {
    uint64_t kernels;          /* kernels launched */
    uint64_t thread_insns;     /* gpu_sim_insn: thread instructions executed */
    uint64_t warp_insns;       /* warp instructions issued */
    uint64_t cycles;           /* gpu_sim_cycle (timing mode; 0 in functional mode) */
    uint64_t oob_accesses;     /* memcheck_oob_accesses: lane accesses outside every live
                                  allocation that landed in mapped device memory (and
                                  ran, as on a GPU); 0 with memcheck on */
} locsim_counters;
void locsim_get_counters(const locsim_device *dev, locsim_counters *out);

/* Out-of-bounds global accesses (docs/memcheck.md).  Off (the default): as on a GPU,
 * an access inside mapped device memory (the 2 MiB granules holding a live
 * allocation) succeeds and is counted in oob_accesses, with a one-line warning on
 * stderr the first time; one outside it fails the kernel (LOCSIM_ERR_KERNEL_FAULT,
 * cudaErrorIllegalAddress).  On: the first access outside a live allocation stops
 * the kernel with a compute-sanitizer-style report. */
void locsim_set_memcheck(locsim_device *dev, int on);
/* 1 if the configuration asks for memcheck (-memcheck 1); 0 for NULL. */
int locsim_config_memcheck(const locsim_config *cfg);
/* Functional mode runs each warp of a CTA for up to this many instructions before
 * the next warp (0: the default, LOCSIM_DEFAULT_RUN_QUANTUM).  Results never depend
 * on it for race-free programs; tests use it to check exactly that.  A device
 * created with a configuration starts with its -functional_run_quantum. */
/* 32, not longer: a program with a shared-memory race inside a barrier interval
 * (Rodinia leukocyte, docs/functional.md) then gives the answer timing mode and
 * GPUs give, at no measurable speed cost against 65536. */
#define LOCSIM_DEFAULT_RUN_QUANTUM 32
void locsim_set_run_quantum(locsim_device *dev, uint32_t insns);
/* Functional mode: the order CTAs run in (-functional_cta_order): 0 linear, 1 reverse,
 * N > 1 a pseudo-random permutation drawn from seed N.  A race-free program's results
 * do not depend on it; one with a race between CTAs may (docs/functional.md). */
void locsim_set_cta_order(locsim_device *dev, uint32_t order);
/* A 64-bit digest (FNV-1a's step over 64-bit words) of every byte copied
 * device -> host so far, copy by copy: two runs of one program whose digests
 * agree showed the host the same results (determinism tests). */
uint64_t locsim_dtoh_digest(const locsim_device *dev);

/* Where device printf output goes (default stdout). */
void locsim_set_printf_stream(locsim_device *dev, void *FILE_ptr);
/* The printf FIFO: the bytes of device printf output one launch may produce
 * (0, the default: no limit; cudart sets CUDA's 1 MB, cudaLimitPrintfFifoSize).
 * A printf whose output would not fit is dropped whole, and the launch ends
 * with a warning that counts them. */
void locsim_set_printf_fifo_size(locsim_device *dev, uint64_t bytes);
uint64_t locsim_printf_fifo_size(const locsim_device *dev);
/* The per-thread stack of kernels whose call graph is recursive (default 16 KB;
 * cudaLimitStackSize).  Non-recursive kernels get exactly what their deepest
 * call chain needs.  LOCSIM_ERR_INVALID above 16 MB. */
locsim_status locsim_set_stack_size(locsim_device *dev, uint64_t bytes);
uint64_t locsim_stack_size(const locsim_device *dev);
/* The heap of device-side malloc/free (and C++ new/delete): LOCSIM_DEFAULT_MALLOC_HEAP
 * bytes unless set (CUDA's default, cudaLimitMallocHeapSize).  It is made at the first
 * launch of a kernel whose module calls malloc or free, and fixed from then on:
 * setting it afterwards is LOCSIM_ERR_INVALID, as CUDA's cudaErrorInvalidValue.
 * locsim_malloc_heap_reset frees it (and every block in it): cudaDeviceReset. */
#define LOCSIM_DEFAULT_MALLOC_HEAP (8ull << 20)
locsim_status locsim_set_malloc_heap_size(locsim_device *dev, uint64_t bytes);
uint64_t locsim_malloc_heap_size(const locsim_device *dev);
void locsim_malloc_heap_reset(locsim_device *dev);

#ifdef __cplusplus
}
#endif
#endif
