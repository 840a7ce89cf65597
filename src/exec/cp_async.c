/* cp.async: asynchronous global -> shared copies (sm_80).
 *
 * Functional semantics, exact for every program that follows PTX's rules: a copy
 * is checked (bounds, alignment) when the instruction issues, but its bytes land
 * in shared memory only when the issuing thread waits for its cp.async-group:
 *   cp.async.commit_group   closes the lane's open group (its commit count + 1);
 *   cp.async.wait_group N   lands every copy of the lane's committed groups but
 *                           the N most recent;
 *   cp.async.wait_all       lands every copy of the lane (= commit; wait_group 0);
 *   thread exit             lands the thread's remaining copies.
 * Copies land in issue order.  The source is read when the copy lands: a program
 * that writes the source or reads the destination before waiting races on a GPU
 * too, and here it sees the old data, deterministically.  src-size < cp-size
 * reads src-size bytes and zero-fills the rest; a true ignore-src predicate
 * zero-fills everything without reading.
 *
 * For the timing model a cp.async is a global read of its source (what the
 * LD/ST unit sends to memory); wait_group / wait_all stall the warp until all of
 * its memory accesses have returned (src/core/sm.c: drain). */
#include <stdlib.h>

#include "exec/exec_internal.h"

static void land(exec_async_copy *c, uint32_t lane) {
    unsigned n = c->src_bytes[lane];
    if (n) memcpy(c->dst[lane], c->src[lane], n);
    if (n < c->size) memset(c->dst[lane] + n, 0, c->size - n);
}

/* Land the copies of each lane of lanes whose group is below limit[lane], in issue
 * order, then drop the records nothing is left in. */
static void land_below(exec_warp *w, uint32_t lanes, const uint32_t limit[LANES]) {
    uint32_t keep = 0;
    for (uint32_t i = 0; i < w->ncopies; i++) {
        exec_async_copy *c = &w->copies[i];
        FOR_EACH_LANE(l, c->mask & lanes) {
            if (c->group[l] < limit[l]) {
                land(c, l);
                c->mask &= ~(1u << l);
            }
        }
        if (c->mask) {
            if (keep != i) w->copies[keep] = *c;
            keep++;
        }
    }
    w->ncopies = keep;
}

void exec_cp_async_drain(exec_warp *w, uint32_t lanes) {
    uint32_t all[LANES];
    for (uint32_t l = 0; l < LANES; l++) all[l] = UINT32_MAX;
    land_below(w, lanes, all);
}

static int issue(exec_ctx *x) {
    const ptx_insn *in = x->in;
    exec_warp *w = x->w;
    unsigned size = (unsigned)in->opnd[2].imm;
    if (in->nopnd < 3 || (size != 4 && size != 8 && size != 16)) return exec_unsupported(x);
    if (w->ncopies == w->copies_cap) { /* only when more copies are in flight than ever before */
        uint32_t cap = w->copies_cap ? 2 * w->copies_cap : 4;
        exec_async_copy *p = realloc(w->copies, cap * sizeof *p);
        if (!p) return exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for cp.async copies");
        w->copies = p;
        w->copies_cap = cap;
    }
    exec_async_copy *c = &w->copies[w->ncopies];
    c->size = (uint8_t)size;
    c->mask = 0;
    const ptx_operand *extra = in->nopnd > 3 ? &in->opnd[3] : NULL;
    uint32_t ignore = extra && extra->kind == PTX_OPND_PRED ? exec_pred_src(x, extra) : 0;
    const uint64_t *srcsz = extra && extra->kind != PTX_OPND_PRED ? exec_src(x, 3) : NULL;
    exec_step_info *info = x->info;
    if (info) {
        info->mem_space = PTX_SPACE_GLOBAL;
        info->mem_is_store = 0;
        info->mem_is_atomic = 0;
        info->mem_size = (uint8_t)size;
        info->mem_mask = 0;
    }
    FOR_EACH_LANE(l, x->active) {
        ptx_space rs;
        uint64_t ra, daddr = exec_addr_of(x, &in->opnd[0], l);
        uint8_t *dst = exec_mem_ptr(x, PTX_SPACE_SHARED, daddr, size, ACC_WRITE, l, &rs, &ra);
        if (!dst) return -1;
        uint64_t n = (ignore >> l) & 1 ? 0 : srcsz ? srcsz[l] & 0xffffffffu : size;
        if (n > size) return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, "cp.async source size exceeds the copy size");
        const uint8_t *src = NULL;
        if (n) {
            uint64_t saddr = exec_addr_in(x, &in->opnd[1], PTX_SPACE_GLOBAL, l);
            /* the whole cp-size is checked (alignment and bounds) like an access of that size */
            src = exec_mem_ptr(x, PTX_SPACE_GLOBAL, saddr, size, ACC_READ, l, &rs, &ra);
            if (!src) return -1;
            if (info) {
                info->mem_mask |= 1u << l;
                info->mem_addr[l] = ra;
            }
        }
        c->dst[l] = dst;
        c->src[l] = src;
        c->src_bytes[l] = (uint8_t)n;
        c->group[l] = w->committed[l];
        c->mask |= 1u << l;
    }
    if (c->mask) w->ncopies++;
    return 0;
}

int exec_cp_async(exec_ctx *x) {
    exec_warp *w = x->w;
    uint32_t limit[LANES];
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_CP_ASYNC: return issue(x);
    case PTX_OP_CP_ASYNC_COMMIT:
        FOR_EACH_LANE(l, x->active) w->committed[l]++;
        return 0;
    case PTX_OP_CP_ASYNC_WAIT: {
        uint64_t n = (uint64_t)x->in->opnd[0].imm;
        FOR_EACH_LANE(l, x->active) limit[l] = w->committed[l] > n ? w->committed[l] - (uint32_t)n : 0;
        if (w->ncopies) land_below(w, x->active, limit);
        return 0;
    }
    case PTX_OP_CP_ASYNC_WAIT_ALL:
        FOR_EACH_LANE(l, x->active) w->committed[l]++;
        if (w->ncopies) exec_cp_async_drain(w, x->active);
        return 0;
    default: return exec_unsupported(x);
    }
}
