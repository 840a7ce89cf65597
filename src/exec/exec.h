/* Functional SIMT execution of decoded PTX.
 *
 * The unit of work is a CTA (exec_cta) made of warps.  A warp executes one
 * instruction at a time (exec_warp_step): that is what the timing model calls at
 * issue.  exec_cta_run is the functional-only fast path that runs a whole CTA,
 * handling barriers, until every thread has exited.
 *
 * Registers are stored [register][lane] (64 bits per lane per value register;
 * predicates are one 32-bit lane mask each).  Divergence is handled with a SIMT
 * reconvergence stack whose entries reconverge at the branch's immediate
 * post-dominator (ptx_insn.reconv).
 */
#ifndef LOCSIM_EXEC_H
#define LOCSIM_EXEC_H

#include <stdint.h>
#include <stdio.h>

#include "locsim/locsim.h"
#include "ptx/ir.h"
#include "runtime/devmem.h"

#define EXEC_WARP_SIZE 32

/* A kernel fault, reported the way compute-sanitizer does. */
typedef struct {
    locsim_status status;      /* LOCSIM_ERR_KERNEL_FAULT, LOCSIM_ERR_DEADLOCK, ... */
    char msg[768];             /* full human-readable report */
} exec_fault;

/* A texture or surface object as the executor sees it (filled by
 * src/runtime/texture.c; the handle a kernel holds is its index + 1).  Texels are
 * stored row by row: texel (x, y, z) of a layered array's layer z, or of slice z,
 * is at base + z * slice + y * pitch + x * elem_bytes. */
enum { EXEC_OBJ_NONE = 0, EXEC_OBJ_TEXTURE = 1, EXEC_OBJ_SURFACE = 2 };
typedef struct {
    uint8_t kind;              /* EXEC_OBJ_*; NONE is a free slot */
    uint8_t dims;              /* 1, 2 or 3 (of the resource; a layered array counts its layer apart) */
    uint8_t layered;
    uint8_t linear;            /* a LINEAR resource (tex1Dfetch): integer coordinates only */
    uint8_t nchan;             /* 1, 2 or 4 */
    uint8_t chan_bytes;        /* 1, 2 or 4 */
    uint8_t chan_kind;         /* locsim_channel_kind */
    uint8_t read_norm;         /* cudaReadModeNormalizedFloat */
    uint8_t normalized;        /* normalized coordinates */
    uint8_t filter;            /* 0 point, 1 linear */
    uint8_t addr[3];           /* address mode per axis (cudaTextureAddressMode numbering) */
    float border[4];
    uint32_t width, height, depth;  /* texels (height/depth 1 when absent; depth = layers when layered) */
    uint32_t elem_bytes;
    uint64_t base, pitch, slice;
} exec_texobj;

/* Everything fixed for one kernel launch (read-only while CTAs run). */
typedef struct {
    const ptx_module *mod;
    const ptx_function *kernel;
    const uint8_t *params;        /* kernel parameter buffer, laid out per kernel->params */
    uint32_t params_size;
    locsim_dim3 grid, block;
    devmem *mem;
    uint32_t smem_static;         /* bytes of static shared memory of this kernel */
    uint32_t smem_dynamic;        /* bytes of dynamic (.extern) shared memory */
    uint32_t local_stack_bytes;   /* per-thread local memory (frames of all calls) */
    uint32_t smid_count;          /* %nsmid */
    FILE *printf_out;             /* device printf destination */
    uint64_t printf_limit;        /* bytes of printf output the launch may produce (0: no limit) */
    uint64_t *printf_used;        /* ... produced so far; with printf_limit, never NULL */
    uint64_t *printf_dropped;     /* printf calls that did not fit */
    uint64_t watchdog_insns;      /* per-CTA warp-instruction limit (0 = none): hang guard */
    const exec_texobj *texobjs;   /* the device's texture and surface objects */
    uint32_t ntexobjs;
    int memcheck;                 /* fault on any global access outside a live allocation */
    uint64_t *oob_accesses;       /* memcheck off: accesses outside allocations that hit
                                     mapped memory are counted here (may be NULL) */
    uint32_t run_quantum;         /* exec_cta_run: instructions per warp turn (0: default) */
    uint64_t grid_workspace;      /* cooperative launch: device address of the grid-sync
                                     workspace (%envreg1:%envreg2), else 0 */
    const struct ldesc_set *ldesc;/* Locality Descriptors of the launch (src/ldesc/), NULL: none */
    struct devheap *heap;         /* device malloc/free heap (src/runtime/devheap.h), NULL: none
                                     (the kernel's module calls neither) */
} exec_launch;

typedef struct exec_cta exec_cta;  /* opaque: defined in src/exec/ */

/* What one warp instruction did; filled by exec_warp_step for the timing model. */
typedef enum {
    EXEC_STEP_OK = 0,        /* instruction executed */
    EXEC_STEP_BARRIER,       /* warp arrived at a barrier and must wait (instruction retired) */
    EXEC_STEP_EXITED,        /* every thread of the warp has exited */
    EXEC_STEP_FAULT          /* kernel fault; see exec_cta_fault() */
} exec_step_result;

typedef struct {
    const ptx_insn *insn;       /* the instruction executed (NULL if none) */
    uint32_t pc;                /* its index in the function */
    const ptx_function *func;   /* the function it belongs to */
    uint32_t active_mask;       /* lanes that executed it (after guard predicate) */
    uint32_t thread_insns;      /* = popcount of active_mask: lanes whose guard is false do not
                                   count (GPGPU-Sim's gpu_sim_insn: set_not_active at execute) */
    /* Memory instructions (ld/st/atom/red): the resolved space (generic addresses
     * are classified) and per-lane addresses in that space.  mem_space is
     * PTX_SPACE_NONE for non-memory instructions. */
    uint8_t mem_space;
    uint8_t mem_is_store;       /* st, red */
    uint8_t mem_is_atomic;      /* atom, red */
    uint8_t mem_size;           /* bytes per lane (vector width x element size) */
    uint8_t mem_is_texture;     /* tex, tld4: global reads through the texture cache (one
                                   address per lane: its first texel, as GPGPU-Sim) */
    uint8_t mem_is_kparam;      /* ld.param of a kernel's own parameters (mem_addr: offset in
                                   the parameter buffer); a call sequence's .param is not */
    uint32_t mem_mask;          /* lanes that accessed memory */
    uint64_t mem_addr[EXEC_WARP_SIZE]; /* global: device address; shared: shared offset;
                                          local: local offset of that lane's thread */
} exec_step_info;

/* Create a CTA with linear index cta_linear (x fastest) on SM smid.  Allocates its
 * warps, registers, shared and local memory.  NULL on out-of-memory. */
exec_cta *exec_cta_create(const exec_launch *L, uint64_t cta_linear, uint32_t smid);
void exec_cta_destroy(exec_cta *cta);

uint32_t exec_cta_num_warps(const exec_cta *cta);
/* Execute the next instruction of warp w. */
exec_step_result exec_warp_step(exec_cta *cta, uint32_t w, exec_step_info *info);
/* 1 if warp w is waiting at a barrier, or has exited. */
int exec_warp_waiting(const exec_cta *cta, uint32_t w);
int exec_warp_exited(const exec_cta *cta, uint32_t w);
/* The instruction warp w would execute next (for schedulers that look ahead), or NULL. */
const ptx_insn *exec_warp_next_insn(const exec_cta *cta, uint32_t w);
/* Index of that instruction in its function (0 when the warp has none). */
uint32_t exec_warp_pc(const exec_cta *cta, uint32_t w);
/* Its byte address in instruction memory (the function's code_addr + 8 x pc). */
uint64_t exec_warp_code_addr(const exec_cta *cta, uint32_t w);
/* exec_warp_next_insn(), and when it is not NULL also exec_warp_code_addr()
 * and exec_warp_pc() in *code_addr and *pc: one call for the fetch unit. */
const ptx_insn *exec_warp_fetch_point(const exec_cta *cta, uint32_t w, uint64_t *code_addr, uint32_t *pc);
/* When every live warp of the CTA has arrived, release the barrier; returns 1 if released. */
int exec_cta_try_release_barrier(exec_cta *cta);
int exec_cta_done(const exec_cta *cta);
const exec_fault *exec_cta_fault(const exec_cta *cta);
/* Current %clock64 source for the CTA (timing mode sets it to the SM cycle). */
void exec_cta_set_clock(exec_cta *cta, uint64_t cycle);

/* Functional fast path: run the whole CTA to completion.  Adds executed thread and
 * warp instructions to the counters.  Returns LOCSIM_OK or the fault's status
 * (details in exec_cta_fault). */
locsim_status exec_cta_run(exec_cta *cta, uint64_t *thread_insns, uint64_t *warp_insns);
/* One turn of each running warp of the CTA (and a barrier release): exec_cta_run is
 * this until exec_cta_done.  A cooperative launch runs all its CTAs' rounds in turn. */
void exec_cta_round(exec_cta *cta, uint64_t *thread_insns, uint64_t *warp_insns);

/* mbarrier objects (src/exec/mbarrier.c), for the timing model:
 * a cp.async.mbarrier.arrive issued in timing mode is queued on its warp; once
 * every cp.async the warp issued before it has returned from memory, the timing
 * model performs it (the oldest queued first).  0, or -1 after a fault. */
int exec_cta_mbar_async_arrive(exec_cta *cta, uint32_t w);
/* Perform every queued arrive now (functional execution takes over). */
void exec_cta_mbar_flush(exec_cta *cta);
/* mbarrier phases the CTA has completed: a change wakes warps suspended in try_wait. */
uint64_t exec_cta_mbar_completions(const exec_cta *cta);
/* 1 when warp w's next instruction is an mbarrier.try_wait that would return
 * false for one of its lanes now (the warp may suspend on it); no side effect. */
int exec_warp_mbar_suspended(exec_cta *cta, uint32_t w);


/* ---- Parallel simulation: global memory in SM order (docs/timing-core.md,
 * "Parallel simulation (-sim_threads)") ----
 *
 * While SMs step a core cycle on several threads, an instruction issued with a
 * memory log set (exec_cta_set_memlog) checks its global and constant accesses
 * as always (bounds, alignment, faults depend only on addresses), but moves no
 * data: it appends one exec_memop per lane and element instead, in the order it
 * would have moved them.  After the cycle the logs are replayed SM by SM, which
 * is exactly the serial order (SM 0's cycle, then SM 1's, ...).  The registers
 * an atomic writes are written at replay: no instruction can read them
 * earlier, since a warp issues at most one instruction per cycle and the
 * scoreboard holds its destinations past its issue cycle.  A deferred load
 * reads at once as well (nothing writes global memory while the SMs step: every
 * store and atomic waits for the replay), which is the serial result unless a
 * store or atomic comes before it in the serial order of that cycle; the replay
 * reads it again then (exec_memlog_replay's *written).  Shared, local and
 * parameter accesses (private to an SM) are done at once. */
typedef enum { EXEC_MEMOP_LOAD, EXEC_MEMOP_STORE, EXEC_MEMOP_ATOMIC } exec_memop_kind;

typedef struct {
    uint8_t *host;         /* the device bytes (a materialised page) */
    uint64_t *dst;         /* load / atom: the destination register of the lane, or NULL */
    uint64_t v, c;         /* store: the value; atom: operands b and c */
    uint8_t kind;          /* exec_memop_kind */
    uint8_t size;          /* bytes moved */
    uint8_t sext;          /* load: sign-extend to this many bits (0: zero-extend) */
    uint8_t aop, atype, abits;   /* atom: ptx_atomop, ptx_type, bits */
} exec_memop;

typedef struct {
    exec_memop *ops;
    size_t n, cap;
    int oom;               /* an append failed: the cycle's log is incomplete */
} exec_memlog;

/* Append one op; -1 (and log->oom set) out of host memory. */
int exec_memlog_push(exec_memlog *log, const exec_memop *op);
/* Perform the logged ops in order and empty the log.  *written: a store or
 * atomic has been replayed in this cycle (before this log, or in it); set by
 * the replay.  A load is read again only after one: it read the memory of the
 * cycle's start at issue. */
void exec_memlog_replay(exec_memlog *log, int *written);
void exec_memlog_free(exec_memlog *log);
/* The log the next exec_warp_step of the CTA defers into (NULL: move data at once). */
void exec_cta_set_memlog(exec_cta *cta, exec_memlog *log);
/* Can the kernels of module m run with deferred global memory?  No when an
 * instruction moves global data outside ld/st/atom/red (textures, surfaces,
 * cp.async, mbarrier, wmma/ldmatrix) or calls a built-in (printf, assert,
 * malloc, free): those kernels step their SMs serially. */
int exec_module_parallel_safe(const ptx_module *m);

#endif
