/* mbarrier objects (sm_80 / sm_90) and cp.async.mbarrier.arrive.
 *
 * An mbarrier is a 64-bit object in shared memory with, per the PTX ISA (8.x,
 * "Parallel Synchronization and Communication Instructions: mbarrier"): the phase
 * (its parity is all a program can see), the pending arrival count of the current
 * phase, the expected arrival count of the next phases, and the tx-count of the
 * current phase.  A phase completes when its pending count and its tx-count are
 * both zero: the parity flips, pending is reloaded from expected, tx-count is 0.
 * The encoding is opaque to programs; ours is
 *
 *   bits  0..20  pending arrivals (0 .. 2^20 - 1, plus one for a pending cp.async arrive)
 *   bits 21..40  expected arrivals (0 .. 2^20 - 1)
 *   bits 41..61  tx-count, two's complement (-(2^20 - 1) .. 2^20 - 1)
 *   bit  62      set by mbarrier.init, cleared by mbarrier.inval: an operation on an
 *                object without it stops the kernel with a message (PTX: undefined)
 *   bit  63      phase parity
 *
 * The state an arrive returns (opaque too) holds the phase parity before the
 * arrive (bit 63), bit 62, and the pending count the arrive left (bits 0..20,
 * what mbarrier.pending_count reads; PTX defines it for the .noComplete forms,
 * where the phase cannot have completed).  test_wait / try_wait with a state are
 * true once the barrier's parity differs from the state's; with .parity P, once
 * the barrier's parity differs from P (the phase of parity P, current or the one
 * just before, has completed).
 *
 * Lanes act one after another in lane order, each as one thread's operation: the
 * result is the same whatever the warp's timing.
 *
 * cp.async.mbarrier.arrive: "an arrive-on operation triggered when every prior
 * cp.async of the executing thread has completed".  Without .noinc the pending
 * count is raised by one at the instruction (the arrive then changes nothing net).
 * The thread's copies land at the instruction (a copy may complete any time after
 * it issued; this keeps every mode's data the same, as docs/cp-async.md says for
 * cp.async).  The arrive itself: in functional execution (no step info) at once; in
 * timing mode it is queued on the warp and the timing model performs it
 * (exec_cta_mbar_async_arrive) once the memory system has returned every cp.async
 * the warp issued before it (src/core/sm.c). */
#include <stdlib.h>

#include "exec/exec_internal.h"

#define MB_CNT_MASK   0x1fffffull              /* 21 bits */
#define MB_EXP_SHIFT  21
#define MB_EXP_MASK   0xfffffull               /* 20 bits */
#define MB_TX_SHIFT   41
#define MB_VALID      (1ull << 62)
#define MB_PHASE      (1ull << 63)
#define MB_MAX_COUNT  ((1u << 20) - 1)

typedef struct {
    uint32_t pending, expected;
    int32_t tx;
    uint32_t phase;
} mbar;

static mbar mb_unpack(uint64_t v) {
    mbar m = {0, 0, 0, 0};
    m.pending = (uint32_t)(v & MB_CNT_MASK);
    m.expected = (uint32_t)((v >> MB_EXP_SHIFT) & MB_EXP_MASK);
    m.tx = (int32_t)sign_extend(v >> MB_TX_SHIFT, 21);
    m.phase = (uint32_t)(v >> 63);
    return m;
}

static uint64_t mb_pack(const mbar *m) {
    return MB_VALID | ((uint64_t)m->phase << 63) | (((uint64_t)(uint32_t)m->tx & MB_CNT_MASK) << MB_TX_SHIFT) |
           ((uint64_t)(m->expected & MB_EXP_MASK) << MB_EXP_SHIFT) | (m->pending & MB_CNT_MASK);
}

/* The phase completes when nothing is pending: flip, reload. */
static void mb_maybe_complete(exec_cta *cta, mbar *m) {
    if (m->pending || m->tx) return;
    m->phase ^= 1;
    m->pending = m->expected;
    m->tx = 0;
    cta->mbar_completions++;
}

/* The mbarrier word of lane l at the shared-memory offset off (checked by the caller). */
static uint8_t *mb_word(exec_cta *cta, uint32_t off) { return cta->smem + off; }

static int mb_fail(exec_ctx *x, uint32_t lane, uint32_t off, const char *what) {
    char msg[300];
    snprintf(msg, sizeof msg, "%s (mbarrier at shared offset 0x%x, lane %u)", what, off, lane);
    return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, msg);
}

/* Shared-memory offset of the 8-byte object operand i names for lane l, or -1
 * after a fault (outside shared memory, misaligned). */
static int64_t mb_offset(exec_ctx *x, unsigned i, uint32_t l) {
    ptx_space rs;
    uint64_t ra, addr = exec_addr_of(x, &x->in->opnd[i], l);
    if (!exec_mem_ptr(x, (ptx_space)x->in->space, addr, 8, ACC_ATOMIC, l, &rs, &ra)) return -1;
    if (rs != PTX_SPACE_SHARED) {
        exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, "an mbarrier object must be in shared memory");
        return -1;
    }
    if (x->info) {
        x->info->mem_mask |= 1u << l;
        x->info->mem_addr[l] = ra;
    }
    return (int64_t)ra;
}

static int mb_load(exec_ctx *x, uint32_t l, uint32_t off, mbar *m) {
    uint64_t v;
    memcpy(&v, mb_word(x->cta, off), 8);
    if (!(v & MB_VALID)) return mb_fail(x, l, off, "mbarrier operation on an object that mbarrier.init has not initialised");
    *m = mb_unpack(v);
    return 0;
}

static void mb_store(exec_cta *cta, uint32_t off, const mbar *m) {
    uint64_t v = mb_pack(m);
    memcpy(mb_word(cta, off), &v, 8);
}

/* A count operand (init, arrive): 1 .. 2^20 - 1. */
static int count_ok(uint64_t c) { return c >= 1 && c <= MB_MAX_COUNT; }

/* tx-count after adding delta, if it stays in PTX's range. */
static int tx_add(int32_t tx, int64_t delta, int32_t *out) {
    int64_t t = (int64_t)tx + delta;
    if (t > (int64_t)MB_MAX_COUNT || t < -(int64_t)MB_MAX_COUNT) return -1;
    *out = (int32_t)t;
    return 0;
}

/* One thread's arrive-on of `count` (and drop of as many expected arrivals);
 * fills *state. */
static int arrive_one(exec_ctx *x, uint32_t l, uint32_t off, uint64_t count, int64_t tx, uint64_t *state) {
    const ptx_insn *in = x->in;
    mbar m = {0, 0, 0, 0};
    if (mb_load(x, l, off, &m)) return -1;
    if (tx && tx_add(m.tx, tx, &m.tx)) return mb_fail(x, l, off, "mbarrier tx-count out of range");
    if (count > m.pending) return mb_fail(x, l, off, "mbarrier arrive of more arrivals than are pending");
    if (in->mode == PTX_MBAR_ARRIVE_DROP) {
        if (count > m.expected) return mb_fail(x, l, off, "mbarrier.arrive_drop of more arrivals than are expected");
        m.expected -= (uint32_t)count;
    }
    m.pending -= (uint32_t)count;
    *state = ((uint64_t)m.phase << 63) | MB_VALID | m.pending;
    if ((in->aux & PTX_MBAR_NOCOMPLETE) && !m.pending && !m.tx)
        return mb_fail(x, l, off, "mbarrier arrive .noComplete would complete the phase (undefined in PTX)");
    mb_maybe_complete(x->cta, &m);
    mb_store(x->cta, off, &m);
    return 0;
}

static int arrive(exec_ctx *x) {
    const ptx_insn *in = x->in;
    uint64_t *d = exec_dst(x, 0);
    const uint64_t *n = in->opnd[2].kind != PTX_OPND_NONE ? exec_src(x, 2) : NULL;
    int with_tx = (in->aux & PTX_MBAR_WITH_TX) != 0;
    FOR_EACH_LANE(l, x->active) {
        int64_t off = mb_offset(x, 1, l);
        if (off < 0) return -1;
        uint64_t count = n && !with_tx ? n[l] & 0xffffffffu : 1;
        int64_t tx = with_tx ? (int64_t)(n[l] & 0xffffffffu) : 0;
        if (!count_ok(count)) return mb_fail(x, l, (uint32_t)off, "mbarrier arrive count outside 1 .. 2^20-1");
        uint64_t state = 0;
        if (arrive_one(x, l, (uint32_t)off, count, tx, &state)) return -1;
        if (d) d[l] = state;
    }
    return 0;
}

static int init_inval(exec_ctx *x) {
    const ptx_insn *in = x->in;
    const uint64_t *n = in->mode == PTX_MBAR_INIT ? exec_src(x, 1) : NULL;
    FOR_EACH_LANE(l, x->active) {
        int64_t off = mb_offset(x, 0, l);
        if (off < 0) return -1;
        if (!n) {
            memset(mb_word(x->cta, (uint32_t)off), 0, 8);
            continue;
        }
        uint64_t c = n[l] & 0xffffffffu;
        if (!count_ok(c)) return mb_fail(x, l, (uint32_t)off, "mbarrier.init count outside 1 .. 2^20-1");
        mbar m = {.pending = (uint32_t)c, .expected = (uint32_t)c, .tx = 0, .phase = 0};
        mb_store(x->cta, (uint32_t)off, &m);
    }
    return 0;
}

/* expect_tx raises the tx-count, complete_tx lowers it; either may end the phase
 * (a complete_tx may come first: the count goes negative until the expect). */
static int tx_op(exec_ctx *x) {
    const uint64_t *n = exec_src(x, 1);
    int sign = x->in->mode == PTX_MBAR_EXPECT_TX ? 1 : -1;
    FOR_EACH_LANE(l, x->active) {
        int64_t off = mb_offset(x, 0, l);
        mbar m = {0, 0, 0, 0};
        if (off < 0 || mb_load(x, l, (uint32_t)off, &m)) return -1;
        if (tx_add(m.tx, sign * (int64_t)(n[l] & 0xffffffffu), &m.tx))
            return mb_fail(x, l, (uint32_t)off, "mbarrier tx-count out of range");
        mb_maybe_complete(x->cta, &m);
        mb_store(x->cta, (uint32_t)off, &m);
    }
    return 0;
}

/* Is the phase that lane l's state / parity operand names complete? -1: fault. */
static int wait_done(exec_ctx *x, uint32_t l, const uint64_t *s) {
    int64_t off = mb_offset(x, 1, l);
    mbar m = {0, 0, 0, 0};
    if (off < 0 || mb_load(x, l, (uint32_t)off, &m)) return -1;
    uint32_t want = (x->in->aux & PTX_MBAR_PARITY) ? (uint32_t)(s[l] & 1) : (uint32_t)(s[l] >> 63);
    return m.phase != want;
}

static int test_wait(exec_ctx *x) {
    const uint64_t *s = exec_src(x, 2);
    uint32_t done = 0;
    FOR_EACH_LANE(l, x->active) {
        int r = wait_done(x, l, s);
        if (r < 0) return -1;
        if (r) done |= 1u << l;
    }
    exec_pred_write(x, &x->in->opnd[0], done);
    return 0;
}

/* ---- cp.async.mbarrier.arrive ---- */

/* Perform record r's arrives (one per lane, on each lane's barrier). */
static int async_arrive(exec_ctx *x, const exec_mbar_arrive *r) {
    FOR_EACH_LANE(l, r->mask) {
        mbar m = {0, 0, 0, 0};
        if (mb_load(x, l, r->off[l], &m)) return -1;
        if (!m.pending) return mb_fail(x, l, r->off[l], "cp.async.mbarrier.arrive on a barrier with no pending arrival");
        m.pending--;
        mb_maybe_complete(x->cta, &m);
        mb_store(x->cta, r->off[l], &m);
    }
    return 0;
}

static int queue_arrive(exec_ctx *x, const exec_mbar_arrive *r) {
    exec_warp *w = x->w;
    if (w->narrives == w->arrives_cap) { /* only when more are queued than ever before */
        uint32_t cap = w->arrives_cap ? 2 * w->arrives_cap : 4;
        exec_mbar_arrive *p = realloc(w->arrives, cap * sizeof *p);
        if (!p) return exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for cp.async arrives");
        w->arrives = p;
        w->arrives_cap = cap;
    }
    w->arrives[w->narrives++] = *r;
    x->cta->mbar_queued++;
    return 0;
}

static int cp_async_arrive(exec_ctx *x) {
    exec_mbar_arrive r;
    r.mask = x->active;
    FOR_EACH_LANE(l, x->active) {
        int64_t off = mb_offset(x, 0, l);
        mbar m = {0, 0, 0, 0};
        if (off < 0 || mb_load(x, l, (uint32_t)off, &m)) return -1;
        r.off[l] = (uint32_t)off;
        if (!(x->in->aux & PTX_MBAR_NOINC)) {
            if (m.pending >= MB_CNT_MASK) return mb_fail(x, l, (uint32_t)off, "mbarrier pending count overflow");
            m.pending++;
            mb_store(x->cta, (uint32_t)off, &m);
        }
    }
    if (x->w->ncopies) exec_cp_async_drain(x->w, x->active);
    return x->info ? queue_arrive(x, &r) : async_arrive(x, &r);
}

int exec_mbarrier(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (x->info) {
        x->info->mem_space = PTX_SPACE_SHARED;
        x->info->mem_is_atomic = 1;
        x->info->mem_size = 8;
    }
    switch ((ptx_opcode)in->op) {
    case PTX_OP_MBARRIER_PENDING: {
        uint64_t *d = exec_dst(x, 0);
        const uint64_t *s = exec_src(x, 1);
        if (x->info) x->info->mem_space = PTX_SPACE_NONE;
        FOR_EACH_LANE(l, x->active) d[l] = s[l] & MB_CNT_MASK;
        return 0;
    }
    case PTX_OP_CP_ASYNC_MBAR: return cp_async_arrive(x);
    case PTX_OP_MBARRIER: break;
    default: return exec_unsupported(x);
    }
    switch ((ptx_mbarmode)in->mode) {
    case PTX_MBAR_INIT: case PTX_MBAR_INVAL: return init_inval(x);
    case PTX_MBAR_ARRIVE: case PTX_MBAR_ARRIVE_DROP: return arrive(x);
    case PTX_MBAR_EXPECT_TX: case PTX_MBAR_COMPLETE_TX: return tx_op(x);
    case PTX_MBAR_TEST_WAIT: case PTX_MBAR_TRY_WAIT: return test_wait(x);
    default: return exec_unsupported(x);
    }
}

/* ---- the timing model's side ---- */

/* Perform the oldest queued cp.async arrive of warp w (its copies have returned). */
int exec_cta_mbar_async_arrive(exec_cta *cta, uint32_t w) {
    if (w >= cta->nwarps || cta->faulted) return cta->faulted ? -1 : 0;
    exec_warp *wp = &cta->warps[w];
    if (!wp->narrives) return 0;
    exec_mbar_arrive r = wp->arrives[0];
    memmove(wp->arrives, wp->arrives + 1, (wp->narrives - 1) * sizeof *wp->arrives);
    wp->narrives--;
    cta->mbar_queued--;
    exec_ctx x;
    memset(&x, 0, sizeof x);
    x.cta = cta;
    x.w = wp;
    x.fr = &wp->frames[wp->nframes ? wp->nframes - 1 : 0];
    x.f = x.fr->func;
    x.pc = wp->sp ? wp->stack[wp->sp - 1].pc : 0;
    x.in = x.pc < x.f->ninsn ? &x.f->insns[x.pc] : &x.f->insns[0];
    x.active = r.mask;  /* a fault names the first of these lanes */
    return async_arrive(&x, &r);
}

/* Functional execution takes over (a timing window ended, or a test): every
 * queued arrive happens now, in warp order. */
void exec_cta_mbar_flush(exec_cta *cta) {
    for (uint32_t w = 0; w < cta->nwarps && cta->mbar_queued && !cta->faulted; w++)
        while (cta->warps[w].narrives)
            if (exec_cta_mbar_async_arrive(cta, w)) return;
}

uint64_t exec_cta_mbar_completions(const exec_cta *cta) { return cta->mbar_completions; }

/* 1 when warp w's next instruction is an mbarrier.try_wait that would return false
 * for one of its lanes (the warp may suspend), else 0.  No side effect. */
int exec_warp_mbar_suspended(exec_cta *cta, uint32_t w) {
    if (w >= cta->nwarps || cta->faulted) return 0;
    exec_warp *wp = &cta->warps[w];
    if (wp->state != WARP_RUNNING || !wp->sp) return 0;
    exec_ctx x; /* the fields exec_src and exec_addr_of read (scratch is written first) */
    x.info = NULL;
    x.cta = cta;
    x.w = wp;
    x.fr = &wp->frames[wp->nframes - 1];
    x.f = x.fr->func;
    x.pc = wp->stack[wp->sp - 1].pc;
    if (x.pc >= x.f->ninsn) return 0;
    x.in = &x.f->insns[x.pc];
    if (x.in->op != PTX_OP_MBARRIER || x.in->mode != PTX_MBAR_TRY_WAIT) return 0;
    x.regs = wp->regs + x.fr->reg_base;
    x.slot = x.f->reg_slot;
    x.preds = wp->preds + x.fr->pred_base;
    uint32_t active = wp->stack[wp->sp - 1].mask;
    if (x.in->guard != PTX_NO_GUARD) {
        uint32_t g = x.preds[x.in->guard];
        active &= x.in->guard_neg ? ~g : g;
    }
    x.active = active;
    const uint64_t *s = exec_src(&x, 2);
    FOR_EACH_LANE(l, active) {
        /* evaluated without faulting: an operand that is not a barrier is left for
         * the instruction itself to report */
        uint64_t a = exec_addr_of(&x, &x.in->opnd[1], l), off = a;
        if (x.in->space == PTX_SPACE_NONE && exec_classify_generic(a, &off) != PTX_SPACE_SHARED) return 0;
        if (off + 8 > cta->smem_size || (off & 7)) return 0;
        uint64_t v;
        memcpy(&v, cta->smem + off, 8);
        if (!(v & MB_VALID)) return 0;
        uint32_t want = (x.in->aux & PTX_MBAR_PARITY) ? (uint32_t)(s[l] & 1) : (uint32_t)(s[l] >> 63);
        if ((uint32_t)(v >> 63) == want) return 1;
    }
    return 0;
}
