/* Internals of the runtime shared by src/runtime/, the timing model's launch path
 * and the libcudart replacement.  The public API is include/locsim/locsim.h. */
#ifndef LOCSIM_RUNTIME_H
#define LOCSIM_RUNTIME_H

#include <stdarg.h>
#include <stdio.h>

#include "exec/exec.h"
#include "ldesc/ldesc.h"
#include "locsim/locsim.h"
#include "ptx/ir.h"
#include "runtime/devheap.h"
#include "runtime/devmem.h"

/* Per-thread local memory given by default to kernels whose call graph is
 * recursive (the depth is unknown statically; locsim_set_stack_size changes it).
 * Non-recursive kernels get exactly the deepest chain of frames. */
#define RUNTIME_RECURSIVE_STACK_BYTES (16u * 1024u)
/* The largest per-thread local memory a kernel may have. */
#define RUNTIME_MAX_STACK_BYTES (1u << 24)
/* Hang guard: warp instructions one CTA may execute before it is declared stuck. */
#define RUNTIME_DEFAULT_WATCHDOG (1ull << 30)  /* ~10 s of functional simulation */

struct locsim_kernel {
    locsim_module *mod;
    const ptx_function *fn;
    uint32_t index;              /* function index in the module */
    uint32_t param_bytes;
    uint32_t smem_static;        /* bytes of static shared memory it uses */
    uint32_t dyn_smem_base;      /* offset where its dynamic (.extern) shared memory starts */
    uint32_t local_stack_bytes;  /* per-thread local memory for its call frames (recursive:
                                    the static frames only; the device's stack size applies) */
    int recursive;               /* its call graph has a cycle */
    uint32_t nregs;              /* value + predicate registers (for occupancy) */
};

/* ptxas_info.c: calls each(ctx, kernel name, its length, registers) for every
 * "Used N registers" of a `ptxas -v` listing; each returns non-zero for an unknown
 * kernel.  0, or -1 with "file:line: what" in err. */
typedef int (*ptxas_kernel_fn)(void *ctx, const char *name, size_t len, uint32_t regs);
int ptxas_listing_parse(const char *text, size_t len, const char *file, ptxas_kernel_fn each, void *ctx, char *err,
                        size_t errlen);

struct locsim_module {
    locsim_device *dev;
    ptx_module *ptx;
    locsim_kernel *kernels;      /* one per .entry, in module order */
    uint32_t nkernels;
    int uses_heap;               /* declares the device malloc or free: its launches get the heap */
    locsim_module *next;         /* device's list of loaded modules */
};

/* The timing model plugs in here (NULL in functional mode). */
typedef struct locsim_timing_ops {
    locsim_status (*launch)(void *timing, const exec_launch *L, locsim_device *dev);
    void (*destroy)(void *timing);
    /* A host<->device copy touched [addr, addr + bytes) (GPGPU-Sim's copy engine
     * writes it through the L2: -gpgpu_perf_sim_memcpy).  May be NULL. */
    void (*memcpy_touch)(void *timing, uint64_t addr, uint64_t bytes);
} locsim_timing_ops;

/* What a texture / surface object was created from (for the get-descriptor calls). */
typedef struct {
    locsim_resource_desc res;
    locsim_texture_desc tex;
} runtime_texobj_info;

struct locsim_array {
    locsim_device *dev;
    locsim_dptr base;
    locsim_channel_format fmt;
    size_t extent[3];            /* as given at creation */
    unsigned flags;
    uint32_t width, height, depth;  /* texels (1 where the extent is 0) */
    uint32_t elem_bytes;
    uint64_t pitch, slice;       /* bytes per row, per slice / layer */
    locsim_array *next;          /* device's list of arrays */
};

struct locsim_device {
    locsim_mode mode;
    const locsim_config *cfg;
    devmem *mem;
    locsim_module *modules;
    locsim_counters counters;
    uint32_t num_sms;            /* %nsmid; from the config in timing mode */
    uint32_t max_smem_per_cta;   /* launch limit */
    FILE *printf_out;
    uint64_t printf_fifo_bytes;  /* device printf output one launch may produce (0: no limit) */
    uint64_t printf_used;        /* of the current launch */
    uint64_t printf_dropped;     /* printf calls of the current launch that did not fit */
    uint32_t stack_bytes;        /* per-thread stack of recursive kernels (locsim_set_stack_size) */
    uint64_t heap_bytes;         /* device malloc heap size (locsim_set_malloc_heap_size) */
    struct devheap *heap;        /* the heap, made at the first launch that needs it; fixed after */
    locsim_dptr heap_base;       /* its device memory */
    exec_texobj *texobjs;        /* texture and surface objects (handle = index + 1) */
    runtime_texobj_info *texinfo;
    uint32_t ntexobjs, texobj_cap;
    locsim_array *arrays;        /* live arrays (freed with the device) */
    uint64_t mem_capacity;       /* bytes locsim_malloc may hand out (-device_memory_mb) */
    uint64_t mem_used;           /* bytes of live locsim_malloc allocations (256-byte granules) */
    int memcheck;                /* locsim_set_memcheck */
    int warned_oob;              /* the one-line out-of-bounds warning was printed */
    uint32_t run_quantum;        /* functional warp quantum (0: default) */
    uint32_t cta_order;          /* functional CTA order: -functional_cta_order */
    uint64_t dtoh_digest;        /* locsim_dtoh_digest */
    uint64_t next_code_addr;     /* instruction memory: where the next loaded function goes */
    const locsim_timing_ops *timing_ops;
    void *timing;
    /* Locality Descriptors (ldesc_api.c): the attached ones by id, and their
     * priority-sorted snapshot that launches carry (exec_launch.ldesc). */
    locsim_ldesc ldesc_slot[LOCSIM_LDESC_MAX];
    uint8_t ldesc_used[LOCSIM_LDESC_MAX];
    ldesc_set ldesc;
    char error[2048];
};

/* Tell the timing model (if any) about a host<->device copy. */
static inline void runtime_memcpy_touch(locsim_device *dev, uint64_t addr, uint64_t bytes) {
    if (dev->timing_ops && dev->timing_ops->memcpy_touch && bytes)
        dev->timing_ops->memcpy_touch(dev->timing, addr, bytes);
}

/* The cycle-level model (src/sim/) attaches itself to a timing-mode device: it
 * reads dev->cfg, sets dev->timing_ops/dev->timing and the device limits
 * (num_sms, max_smem_per_cta).  Weak so the runtime links without it. */
locsim_status timing_attach(locsim_device *dev) __attribute__((weak));

/* Record an error message on the device and return st. */
locsim_status runtime_error(locsim_device *dev, locsim_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Resolve a loaded module's symbols: place variables, rewrite ABASE_SYM operands to
 * absolute addresses, compute per-kernel shared and local sizes. */
locsim_status runtime_module_link(locsim_module *mod);

/* Build the exec_launch for a kernel launch (validates the configuration and packs
 * the parameters into params_buf, which must hold k->param_bytes). */
locsim_status runtime_prepare_launch(locsim_kernel *k, locsim_dim3 grid, locsim_dim3 block,
                                     uint32_t dyn_smem, void **args, uint32_t nargs,
                                     uint8_t *params_buf, exec_launch *L);

/* The device heap for a launch of a module that calls malloc/free (made at the
 * first such launch, of locsim_set_malloc_heap_size's size). */
locsim_status runtime_heap_for_launch(locsim_device *dev);

/* Drop the descriptors inside a freed allocation [base, base + size). */
void runtime_ldesc_forget(locsim_device *dev, uint64_t base, uint64_t size);

/* Free the device's arrays and objects (device destruction). */
void runtime_textures_free(locsim_device *dev);

#endif
