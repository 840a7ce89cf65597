/* Internals of the functional SIMT executor, shared by the files of src/exec/.
 *
 * Register file: each call frame owns nregs value registers and npreds predicate
 * registers.  A value register is 32 lanes of 64-bit slots, stored contiguously
 * (regs[r * 32 + lane]).  A value of a narrower type keeps its bits in the low end
 * of the slot and every write zeroes the bits above the written type (loads and
 * cvt into a wider register sign-extend signed types to the register's declared
 * width, as PTX's relaxed type rules say).  A predicate register is a 32-bit lane
 * mask.
 *
 * SIMT stack: entries {pc, reconv, mask}.  The top entry is what the warp executes.
 * A divergent branch turns the top into the reconvergence entry (pc = the branch's
 * immediate post-dominator) and pushes the two paths; an entry is popped when its
 * pc reaches its reconv.  Each call frame has a base entry (reconv = the callee's
 * ninsn, its exit); lanes that execute `ret` leave every entry of the frame and
 * wait in the frame's ret_mask until the whole frame has drained, then return
 * together.  Exited lanes leave every mask of every frame.
 *
 * Memory: generic addresses use the windows of devmem.h (shared, local) plus a
 * private window for kernel parameters (EXEC_PARAM_WINDOW, see cvta.param).
 *
 * Choices where PTX leaves freedom (each is documented again where it is made):
 *  - registers, shared and local memory start zeroed (determinism);
 *  - reconvergence is the parser's immediate post-dominator: a path that returns
 *    makes it the function exit, so code after such an if/else runs per path (as in
 *    GPGPU-Sim), and a barrier reached while other lanes wait to `ret` is divergent;
 *  - shfl from a lane that is not executing returns that lane's register content;
 *  - the .sync forms fault only when an executing lane is missing from membermask;
 *  - div/rem by zero and INT_MIN / -1 give the hardware's values (alu_int.c);
 *  - .approx functions are computed in double and rounded once (alu_float.c);
 *  - bar counts whole warps; a barrier without a count waits for every live warp;
 *  - functional %clock64 counts the CTA's warp instructions (including the reader);
 *  - vprintf returns the number of arguments parsed, as CUDA's printf does;
 *  - the only allocations after exec_cta_create happen when a warp calls or
 *    diverges deeper than it ever has (frames, registers and SIMT stack grow).
 */
#ifndef LOCSIM_EXEC_INTERNAL_H
#define LOCSIM_EXEC_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "exec/exec.h"

#define LANES EXEC_WARP_SIZE
#define FULL_MASK 0xffffffffu

/* Generic window of the kernel parameter buffer (cvta.param / generic ld of a
 * kernel parameter).  Private to the executor: it sits below the shared window. */
#define EXEC_PARAM_WINDOW (DEVMEM_SHARED_WINDOW - DEVMEM_WINDOW_SIZE)

#define EXEC_NUM_BARRIERS 16
#define EXEC_ALLOC_CACHE 4    /* allocations remembered by the global fast path */
#define EXEC_PAGE_CACHE 16    /* pages remembered (direct-mapped on the page number) */
/* A call chain deeper than this is reported as a stack overflow. */
#define EXEC_MAX_CALL_DEPTH 4096

typedef struct {
    uint32_t pc;       /* next instruction of these lanes */
    uint32_t reconv;   /* pop when pc reaches this */
    uint32_t mask;     /* lanes on this path */
} simt_entry;

typedef struct {
    const ptx_function *func;
    size_t reg_base;       /* first slot of this frame's registers in warp->regs */
    size_t pred_base;      /* first predicate of this frame in warp->preds */
    uint32_t local_base;   /* byte offset of the frame in each thread's local memory */
    uint32_t simt_base;    /* index of the frame's base entry in the SIMT stack */
    uint32_t ret_mask;     /* lanes that executed ret and wait at the function exit */
    const ptx_call *site;  /* call site in the caller (NULL for the kernel frame) */
} call_frame;

typedef enum { WARP_RUNNING = 0, WARP_AT_BARRIER, WARP_DONE } warp_state;

/* One cp.async instruction's copies still in flight (cp_async.c): per lane, where
 * from and to (host pointers, checked at issue), how many source bytes, and the
 * cp.async-group the copy belongs to (the lane's commit count at issue). */
typedef struct {
    uint32_t mask;              /* lanes whose copy has not landed yet */
    uint8_t size;               /* cp-size: 4, 8 or 16 */
    uint8_t src_bytes[EXEC_WARP_SIZE];
    uint32_t group[EXEC_WARP_SIZE];
    uint8_t *dst[EXEC_WARP_SIZE];
    const uint8_t *src[EXEC_WARP_SIZE];
} exec_async_copy;

/* A cp.async.mbarrier.arrive waiting for the warp's earlier copies (timing mode,
 * mbarrier.c): the lanes that executed it and the shared offset of each one's barrier. */
typedef struct {
    uint32_t mask;
    uint32_t off[EXEC_WARP_SIZE];
} exec_mbar_arrive;

typedef struct {
    uint32_t index;        /* warp number in the CTA */
    uint32_t valid;        /* lanes that are threads of the CTA */
    uint32_t exited;       /* lanes that have exited */
    uint8_t state;         /* warp_state */
    uint8_t bar_id;        /* barrier waited on (state == WARP_AT_BARRIER) */
    const ptx_insn *bar_insn;  /* that bar instruction (bar.red writes its result at release) */
    uint32_t bar_active;   /* lanes that executed it */
    uint32_t carry;        /* per-lane carry flag of add.cc / addc chains */
    uint16_t tid[3][LANES]; /* %tid.x/y/z of each lane */

    /* regs, preds, stack and frames start in one allocation (block): a warp's
     * state is then one piece of host memory, not four.  One that outgrows its
     * part moves to an allocation of its own (exec_warp_grow). */
    void *block;
    size_t block_bytes;
    simt_entry *stack;
    uint32_t sp, stack_cap;
    call_frame *frames;
    uint32_t nframes, frame_cap;
    uint64_t *regs;        /* value registers of every frame, frame after frame */
    size_t regs_used, regs_cap;   /* in slots (uint64_t) */
    uint32_t *preds;
    size_t preds_used, preds_cap;
    exec_async_copy *copies;   /* cp.async copies in flight, in issue order */
    uint32_t ncopies, copies_cap;
    uint32_t committed[LANES]; /* cp.async-groups committed by each lane */
    exec_mbar_arrive *arrives; /* queued cp.async.mbarrier.arrive operations, oldest first */
    uint32_t narrives, arrives_cap;
} exec_warp;

/* Make room for `need` elements of `elem` bytes in *arr (capacity *cap,
 * doubled from 16 as needed); *arr may lie in w's block.  0, or -1 out of
 * memory (nothing changed). */
int exec_warp_grow(exec_warp *w, void **arr, size_t *cap, size_t need, size_t elem);
/* Free a warp's registers, predicates, stack and frames. */
void exec_warp_free(exec_warp *w);

typedef struct {
    uint32_t arrived;      /* threads counted (warp size per arriving warp) */
    uint32_t expected;     /* thread count from the instruction; 0 = every live warp */
    uint32_t red_popc;     /* bar.red accumulators over the arriving threads */
    uint32_t red_all;      /* 1 while every arriving thread's predicate was true */
    uint32_t red_any;
    uint32_t waiting;      /* warps blocked on this barrier */
} exec_barrier;

struct exec_cta {
    const exec_launch *L;
    uint64_t cta_linear;
    uint32_t ctaid[3];
    uint32_t smid;
    uint32_t nthreads, nwarps;
    uint32_t smem_size;
    uint8_t *smem;
    uint32_t local_bytes;   /* per thread */
    uint8_t *local;         /* nthreads * local_bytes */
    exec_warp *warps;
    exec_barrier bars[EXEC_NUM_BARRIERS];
    uint32_t live_warps;    /* warps not done */
    uint64_t warp_insns;    /* executed by this CTA (watchdog, functional %clock) */
    uint64_t thread_insns;
    uint64_t clock;         /* %clock64 in timing mode */
    int clock_external;     /* exec_cta_set_clock was called */
    /* Fast path of global accesses: allocations and pages recently accessed
     * (allocations do not change while a kernel runs; device pages never move). */
    struct { uint64_t lo, len; } allocs[EXEC_ALLOC_CACHE];  /* len 0: empty */
    uint32_t alloc_next;                                     /* round-robin victim */
    uint32_t alloc_last;                                     /* entry that hit last */
    struct { uint64_t page_no; uint8_t *host; } pages[EXEC_PAGE_CACHE]; /* host NULL: empty */
    uint64_t mbar_completions; /* mbarrier phases completed (the timing model wakes waiters) */
    uint32_t mbar_queued;      /* cp.async arrives queued in the warps (timing mode) */
    exec_memlog *memlog;       /* set while the timing model issues with deferred global memory */
    int faulted;
    exec_fault fault;
};

/* Everything a handler needs about the instruction being executed. */
typedef struct {
    exec_cta *cta;
    exec_warp *w;
    call_frame *fr;
    const ptx_function *f;
    const ptx_insn *in;
    uint32_t pc;
    uint32_t active;       /* lanes executing it (after the guard) */
    uint64_t *regs;        /* this frame's value registers (rows by slot) */
    const uint32_t *slot;  /* f->reg_slot: the row of each value register */
    uint32_t *preds;       /* this frame's predicates */
    exec_step_info *info;  /* NULL in the functional fast path */
    uint64_t scratch[PTX_MAX_OPNDS][LANES];  /* immediates and special registers, broadcast */
} exec_ctx;

/* ---- lane iteration ---- */
/* Visit the set lanes of mask in ascending order (deterministic). */
#define FOR_EACH_LANE(l, mask) \
    for (uint32_t m_##l = (mask), l = 0; m_##l && ((l = (uint32_t)__builtin_ctz(m_##l)), 1); m_##l &= m_##l - 1)

/* Portable SWAR popcount: the build targets baseline x86-64, where
 * __builtin_popcount is a libgcc call. */
static inline uint32_t popc32(uint32_t m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (m * 0x01010101u) >> 24;
}

/* ---- type helpers (inline: they sit in every instruction's path) ---- */
static inline unsigned type_size(ptx_type t) {
    static const uint8_t size[PTX_T_COUNT] = {
        [PTX_T_B8] = 1, [PTX_T_B16] = 2, [PTX_T_B32] = 4, [PTX_T_B64] = 8, [PTX_T_B128] = 16,
        [PTX_T_U8] = 1, [PTX_T_U16] = 2, [PTX_T_U32] = 4, [PTX_T_U64] = 8,
        [PTX_T_S8] = 1, [PTX_T_S16] = 2, [PTX_T_S32] = 4, [PTX_T_S64] = 8,
        [PTX_T_F16] = 2, [PTX_T_F16X2] = 4, [PTX_T_BF16] = 2, [PTX_T_BF16X2] = 4, [PTX_T_F32] = 4, [PTX_T_F64] = 8,
    };
    return (unsigned)t < PTX_T_COUNT ? size[t] : 0;
}
static inline int type_signed(ptx_type t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }
static inline int type_float(ptx_type t) { return t >= PTX_T_F16 && t <= PTX_T_F64; }
static inline unsigned type_bits(ptx_type t) { return type_size(t) * 8; }
static inline uint64_t width_mask(unsigned bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
static inline int64_t sign_extend(uint64_t v, unsigned bits) {
    if (bits >= 64) return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= width_mask(bits);
    return (int64_t)((v ^ m) - m);
}
static inline float f32_from_bits(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64_from_bits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Width in bits of value register r of the current frame (its declared type). */
static inline unsigned reg_bits(const exec_ctx *x, uint32_t r) {
    unsigned b = x->f->reg_types ? type_bits((ptx_type)x->f->reg_types[r]) : 64;
    return b ? b : 64;
}

/* Row of value register r of the current frame (ptx_assign_reg_slots). */
static inline uint64_t *exec_row(const exec_ctx *x, uint32_t r) { return x->regs + (size_t)x->slot[r] * LANES; }

/* ---- operands (operand.c) ---- */
/* 32 lane values of a source operand: a register row, or scratch filled with an
 * immediate / special register / symbol address. */
const uint64_t *exec_src_slow(exec_ctx *x, unsigned i);
static inline const uint64_t *exec_src(exec_ctx *x, unsigned i) {
    const ptx_operand *o = &x->in->opnd[i];
    if (o->kind == PTX_OPND_REG) return exec_row(x, o->reg);
    return exec_src_slow(x, i);
}
/* Lane mask of a predicate source operand (negation applied; immediates 0/1). */
uint32_t exec_pred_src(const exec_ctx *x, const ptx_operand *o);
/* Write a lane mask into a predicate destination for the active lanes. */
static inline void exec_pred_write(exec_ctx *x, const ptx_operand *o, uint32_t value) {
    if (o->kind != PTX_OPND_PRED) return; /* '_' sink */
    uint32_t *p = &x->preds[o->reg];
    *p = (*p & ~x->active) | (value & x->active);
}
/* Destination register row, or NULL for a sink. */
static inline uint64_t *exec_dst(exec_ctx *x, unsigned i) {
    const ptx_operand *o = &x->in->opnd[i];
    return o->kind == PTX_OPND_REG ? exec_row(x, o->reg) : NULL;
}
uint64_t exec_sreg_value(const exec_ctx *x, uint32_t sreg, unsigned comp, uint32_t lane);
/* Linear thread index of lane in the CTA, and its (x,y,z). */
void exec_thread_xyz(const exec_cta *cta, uint32_t warp, uint32_t lane, uint32_t xyz[3]);

/* ---- handlers: 0 = done, -1 = fault recorded in the CTA ---- */
int exec_alu_int(exec_ctx *x);
int exec_alu_float(exec_ctx *x);
int exec_cvt(exec_ctx *x);
int exec_compare(exec_ctx *x);   /* setp, set, selp, slct, testp */
int exec_mov(exec_ctx *x);       /* mov, cvta, isspacep, logic on predicates */
int exec_memory(exec_ctx *x);    /* ld, ldu, st */
int exec_atomic(exec_ctx *x);    /* atom, red */
int exec_warp_op(exec_ctx *x);   /* shfl, vote, match, redux, activemask, bar.warp.sync */
int exec_texture(exec_ctx *x);   /* tex, tld4, txq, suld, sust, suq (texture.c) */
int exec_cp_async(exec_ctx *x);  /* cp.async, commit_group, wait_group, wait_all */
int exec_video(exec_ctx *x);     /* vadd2/4 ... vmax2/4 (video.c) */
int exec_mbarrier(exec_ctx *x);  /* mbarrier.*, cp.async.mbarrier.arrive (mbarrier.c) */
int exec_tensor(exec_ctx *x);    /* wmma.load/store/mma, mma, ldmatrix (tensor.c) */
/* Land every pending cp.async copy of lanes (they exit: their copies complete). */
void exec_cp_async_drain(exec_warp *w, uint32_t lanes);

/* ---- memory helpers (memory.c) ---- */
typedef enum { ACC_READ, ACC_WRITE, ACC_ATOMIC } exec_access;
/* Host pointer to size bytes at addr in space (GLOBAL/CONST/SHARED/LOCAL/PARAM or
 * NONE = generic) for lane; checks bounds and alignment, and records a fault
 * (returning NULL) when the access is invalid.  *resolved gets the concrete space
 * and *raddr the address within it. */
/* Perform a logged atomic (atomic.c; exec_memlog_replay). */
void exec_atom_apply(const exec_memop *op);
/* Append op to the CTA's memory log; -1 with a fault out of host memory. */
int exec_memlog_defer(exec_ctx *x, const exec_memop *op);
uint8_t *exec_mem_ptr(exec_ctx *x, ptx_space space, uint64_t addr, unsigned size, exec_access acc, uint32_t lane,
                      ptx_space *resolved, uint64_t *raddr);
/* The common case of exec_mem_ptr, inline: an aligned access to the global
 * allocation and page last used, or to shared / local memory.  NULL means "take the
 * slow path" (which checks everything and reports faults), never a fault itself. */
static inline uint8_t *exec_mem_fast(exec_ctx *x, ptx_space space, uint64_t addr, unsigned size, uint32_t lane) {
    exec_cta *cta = x->cta;
    if (addr & (size - 1)) return NULL;
    if (space == PTX_SPACE_NONE) {
        if (addr >= DEVMEM_GLOBAL_LIMIT) return NULL; /* a window: the slow path classifies it */
        space = PTX_SPACE_GLOBAL;                     /* generic below the windows is global */
    }
    switch (space) {
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST: {
        unsigned i = cta->alloc_last;
        uint64_t off = addr - cta->allocs[i].lo;
        if (off >= cta->allocs[i].len || size > cta->allocs[i].len - off) {
            for (i = 0; i < EXEC_ALLOC_CACHE; i++) {
                off = addr - cta->allocs[i].lo;
                if (off < cta->allocs[i].len && size <= cta->allocs[i].len - off) break;
            }
            if (i == EXEC_ALLOC_CACHE) return NULL;
            cta->alloc_last = i;
        }
        uint64_t pn = addr >> DEVMEM_PAGE_BITS;
        unsigned slot = (unsigned)pn & (EXEC_PAGE_CACHE - 1);
        if (cta->pages[slot].page_no != pn || !cta->pages[slot].host) return NULL;
        return cta->pages[slot].host + (addr & (DEVMEM_PAGE_SIZE - 1));
    }
    case PTX_SPACE_SHARED:
        if (addr >= cta->smem_size || size > cta->smem_size - addr) return NULL;
        return cta->smem + addr;
    case PTX_SPACE_LOCAL:
        if (addr >= cta->local_bytes || size > cta->local_bytes - addr) return NULL;
        return cta->local + ((size_t)x->w->index * LANES + lane) * cta->local_bytes + addr;
    default: return NULL;
    }
}

/* Per-lane effective address of operand i (an ADDR operand) in its own space. */
uint64_t exec_addr_of(exec_ctx *x, const ptx_operand *o, uint32_t lane);
/* The same for an operand whose space is not the instruction's (cp.async's source). */
uint64_t exec_addr_in(exec_ctx *x, const ptx_operand *o, ptx_space space, uint32_t lane);
/* Read a NUL-terminated string at a generic address (printf); -1 + fault if bad. */
int exec_read_string(exec_ctx *x, uint64_t gaddr, uint32_t lane, char *buf, size_t bufsz);
/* Generic address -> space and offset. */
ptx_space exec_classify_generic(uint64_t gaddr, uint64_t *offset);

/* ---- calls (call.c) ---- */
int exec_call(exec_ctx *x);
int exec_ret(exec_ctx *x);
int exec_vprintf(exec_ctx *x, const ptx_call *site, uint32_t lanes);
/* The top frame has drained: copy its return values to the caller for lanes, pop it. */
int exec_frame_finish(exec_ctx *x, uint32_t lanes);
/* Call-site argument i / return slot i of the current (calling) frame, n bytes, one lane. */
int exec_call_arg(exec_ctx *x, const ptx_call *site, unsigned i, uint32_t lane, void *dst, unsigned n);
int exec_call_ret(exec_ctx *x, const ptx_call *site, unsigned i, uint32_t lane, const void *src, unsigned n);
/* Base of a thread's local memory. */
uint8_t *exec_thread_local(exec_cta *cta, const exec_warp *w, uint32_t lane);

/* ---- faults (fault.c) ---- */
void exec_fault_set(exec_cta *cta, locsim_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "=========     at <func>+PC <pc> (line L of M)\n=========     by thread (..) in block (..)\n" */
int exec_fault_where(const exec_ctx *x, uint32_t lane, char *buf, size_t n);
int exec_fault_memory(exec_ctx *x, ptx_space space, exec_access acc, unsigned size, uint64_t addr, uint32_t lane,
                      const char *why);
int exec_fault_insn(exec_ctx *x, locsim_status st, const char *what);
int exec_unsupported(exec_ctx *x);

/* ---- SIMT stack (warp.c) ---- */
int exec_stack_push(exec_cta *cta, exec_warp *w, uint32_t pc, uint32_t reconv, uint32_t mask);
/* Run warp w for at most budget instructions, until it blocks, exits or faults. */
exec_step_result exec_run_warp(exec_cta *cta, exec_warp *w, exec_step_info *info, uint64_t budget);
/* Remove lanes from every entry and every frame's ret mask (thread exit). */
void exec_lanes_exit(exec_cta *cta, exec_warp *w, uint32_t lanes);

#endif
