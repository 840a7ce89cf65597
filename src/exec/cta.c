/* CTAs: creation, barriers, and the functional run loop. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

/* Functional run loop: a warp runs until it blocks, exits, or has used this many
 * instructions; then the next warp runs.  Long quanta keep the interpreter in its
 * tight loop; the limit lets a warp that spins on a flag another warp sets (through
 * shared or global memory) make progress. */
#define RUN_QUANTUM LOCSIM_DEFAULT_RUN_QUANTUM

static void reset_barrier(exec_barrier *b) {
    memset(b, 0, sizeof *b);
    b->red_all = 1;
}

/* Offset of a part of n bytes placed after `at` bytes of a warp's block. */
static size_t block_part(size_t *at, size_t n) {
    size_t off = (*at + 15) & ~(size_t)15;
    *at = off + n;
    return off;
}

/* One allocation for a warp's value registers, predicates, SIMT stack and
 * frames.  Value registers are zero where a thread can see the initial value
 * (ptx_find_zero_regs); the other rows are written before they are read.
 * Predicates start zero. */
static int alloc_warp_state(const ptx_function *k, exec_warp *w) {
    size_t at = 0;
    size_t regs_off = block_part(&at, (w->regs_cap ? w->regs_cap : 1) * sizeof *w->regs);
    size_t preds_off = block_part(&at, (w->preds_cap ? w->preds_cap : 1) * sizeof *w->preds);
    size_t stack_off = block_part(&at, w->stack_cap * sizeof *w->stack);
    size_t frames_off = block_part(&at, w->frame_cap * sizeof *w->frames);
    char *b = malloc(at);
    if (!b) return -1;
    w->block = b;
    w->block_bytes = at;
    w->regs = (uint64_t *)(void *)(b + regs_off);
    w->preds = (uint32_t *)(void *)(b + preds_off);
    w->stack = (simt_entry *)(void *)(b + stack_off);
    w->frames = (call_frame *)(void *)(b + frames_off);
    memset(w->preds, 0, (w->preds_cap ? w->preds_cap : 1) * sizeof *w->preds);
    if (!k->zero_regs_known) {
        memset(w->regs, 0, (w->regs_cap ? w->regs_cap : 1) * sizeof *w->regs);
        return 0;
    }
    for (uint32_t i = 0; i < k->nzero_regs; i++)
        memset(w->regs + (size_t)k->reg_slot[k->zero_regs[i]] * LANES, 0, LANES * sizeof *w->regs);
    return 0;
}

static int init_warp(exec_cta *cta, exec_warp *w, uint32_t index) {
    const ptx_function *k = cta->L->kernel;
    w->index = index;
    uint32_t first = index * LANES, n = cta->nthreads - first;
    w->valid = n >= LANES ? FULL_MASK : (1u << n) - 1;
    for (uint32_t l = 0; l < LANES; l++) {
        uint32_t xyz[3];
        exec_thread_xyz(cta, index, l, xyz);
        for (int c = 0; c < 3; c++) w->tid[c][l] = (uint16_t)xyz[c];
    }
    w->state = WARP_RUNNING;
    w->stack_cap = 16;
    w->frame_cap = 4;
    w->regs_cap = (size_t)k->nslots * LANES;
    w->preds_cap = k->npreds;
    if (alloc_warp_state(k, w)) return -1;
    w->regs_used = w->regs_cap;
    w->preds_used = w->preds_cap;
    w->nframes = 1;
    w->frames[0] = (call_frame){.func = k};
    w->sp = 1;
    w->stack[0] = (simt_entry){0, k->ninsn, w->valid};
    if (k->ninsn == 0) { /* an empty kernel: nothing to run */
        w->sp = 0;
        w->state = WARP_DONE;
        cta->live_warps--;
    }
    return 0;
}

exec_cta *exec_cta_create(const exec_launch *L, uint64_t cta_linear, uint32_t smid) {
    exec_cta *cta = calloc(1, sizeof *cta);
    if (!cta) return NULL;
    cta->L = L;
    cta->cta_linear = cta_linear;
    if (!L->grid.x || !L->grid.y || !L->block.x || !L->block.y) { /* the runtime rejects these first */
        free(cta);
        return NULL;
    }
    cta->ctaid[0] = (uint32_t)(cta_linear % L->grid.x);
    cta->ctaid[1] = (uint32_t)((cta_linear / L->grid.x) % L->grid.y);
    cta->ctaid[2] = (uint32_t)(cta_linear / ((uint64_t)L->grid.x * L->grid.y));
    cta->smid = smid;
    cta->nthreads = L->block.x * L->block.y * L->block.z;
    cta->nwarps = (cta->nthreads + LANES - 1) / LANES;
    cta->smem_size = L->smem_static + L->smem_dynamic;
    cta->local_bytes = L->local_stack_bytes;
    if (cta->local_bytes < L->kernel->frame_size) cta->local_bytes = L->kernel->frame_size;
    cta->local_bytes = (cta->local_bytes + 15) & ~15u;
    cta->smem = calloc(cta->smem_size ? cta->smem_size : 1, 1);
    cta->local = calloc(cta->local_bytes ? (size_t)cta->nwarps * LANES * cta->local_bytes : 1, 1);
    cta->warps = calloc(cta->nwarps ? cta->nwarps : 1, sizeof *cta->warps);
    for (uint32_t i = 0; i < EXEC_NUM_BARRIERS; i++) reset_barrier(&cta->bars[i]);
    cta->live_warps = cta->nwarps;
    if (!cta->smem || !cta->local || !cta->warps) goto fail;
    for (uint32_t i = 0; i < cta->nwarps; i++)
        if (init_warp(cta, &cta->warps[i], i)) goto fail;
    return cta;
fail:
    exec_cta_destroy(cta);
    return NULL;
}

void exec_cta_destroy(exec_cta *cta) {
    if (!cta) return;
    if (cta->warps) {
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            exec_warp *w = &cta->warps[i];
            exec_warp_free(w);
            free(w->copies);
            free(w->arrives);
        }
    }
    free(cta->warps);
    free(cta->smem);
    free(cta->local);
    free(cta);
}

uint32_t exec_cta_num_warps(const exec_cta *cta) { return cta->nwarps; }

exec_step_result exec_warp_step(exec_cta *cta, uint32_t w, exec_step_info *info) {
    if (cta->faulted) return EXEC_STEP_FAULT;
    if (w >= cta->nwarps) return EXEC_STEP_EXITED;
    exec_warp *wp = &cta->warps[w];
    if (wp->state == WARP_DONE) return EXEC_STEP_EXITED;
    if (wp->state == WARP_AT_BARRIER) return EXEC_STEP_BARRIER;
    return exec_run_warp(cta, wp, info, 1);
}

int exec_warp_waiting(const exec_cta *cta, uint32_t w) {
    return w >= cta->nwarps || cta->warps[w].state != WARP_RUNNING;
}

int exec_warp_exited(const exec_cta *cta, uint32_t w) {
    return w >= cta->nwarps || cta->warps[w].state == WARP_DONE;
}

const ptx_insn *exec_warp_next_insn(const exec_cta *cta, uint32_t w) {
    if (w >= cta->nwarps) return NULL;
    const exec_warp *wp = &cta->warps[w];
    if (wp->state == WARP_DONE || wp->sp == 0) return NULL;
    const ptx_function *f = wp->frames[wp->nframes - 1].func;
    uint32_t pc = wp->stack[wp->sp - 1].pc;
    return pc < f->ninsn ? &f->insns[pc] : NULL;
}

uint64_t exec_warp_code_addr(const exec_cta *cta, uint32_t w) {
    if (w >= cta->nwarps) return 0;
    const exec_warp *wp = &cta->warps[w];
    if (wp->sp == 0 || wp->nframes == 0) return 0;
    return wp->frames[wp->nframes - 1].func->code_addr + (uint64_t)wp->stack[wp->sp - 1].pc * 8;
}

/* exec_warp_next_insn, exec_warp_code_addr and exec_warp_pc at once (every
 * fetch asks for the three; one read of the warp's top frame and stack entry). */
const ptx_insn *exec_warp_fetch_point(const exec_cta *cta, uint32_t w, uint64_t *code_addr, uint32_t *pc) {
    if (w >= cta->nwarps) return NULL;
    const exec_warp *wp = &cta->warps[w];
    if (wp->state == WARP_DONE || wp->sp == 0) return NULL;
    const ptx_function *f = wp->frames[wp->nframes - 1].func;
    uint32_t p = wp->stack[wp->sp - 1].pc;
    if (p >= f->ninsn) return NULL;
    *code_addr = f->code_addr + (uint64_t)p * 8;
    *pc = p;
    return &f->insns[p];
}

uint32_t exec_warp_pc(const exec_cta *cta, uint32_t w) {
    if (w >= cta->nwarps) return 0;
    const exec_warp *wp = &cta->warps[w];
    return wp->sp ? wp->stack[wp->sp - 1].pc : 0;
}

/* bar.red: write the reduction into the destination of a released warp. */
static void write_red_result(exec_warp *w, const exec_barrier *b) {
    const ptx_insn *in = w->bar_insn;
    if (!in || !(in->flags & PTX_F_RED) || in->nopnd == 0) return;
    const call_frame *fr = &w->frames[w->nframes - 1];
    const ptx_operand *d = &in->opnd[0];
    if (d->kind == PTX_OPND_PRED) {
        int v = in->mode == PTX_ATOM_OR ? b->red_any : b->red_all;
        uint32_t *p = &w->preds[fr->pred_base + d->reg];
        *p = (*p & ~w->bar_active) | (v ? w->bar_active : 0);
    } else if (d->kind == PTX_OPND_REG) {
        uint64_t *r = &w->regs[fr->reg_base + (size_t)fr->func->reg_slot[d->reg] * LANES];
        FOR_EACH_LANE(l, w->bar_active) r[l] = b->red_popc;
    }
}

int exec_cta_try_release_barrier(exec_cta *cta) {
    int released = 0;
    for (uint32_t id = 0; id < EXEC_NUM_BARRIERS; id++) {
        exec_barrier *b = &cta->bars[id];
        if (!b->arrived) continue;
        uint32_t need = b->expected ? b->expected : LANES * cta->live_warps;
        if (b->arrived < need) continue;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            exec_warp *w = &cta->warps[i];
            if (w->state != WARP_AT_BARRIER || w->bar_id != id) continue;
            write_red_result(w, b);
            w->state = WARP_RUNNING;
            w->bar_insn = NULL;
            released = 1;
        }
        reset_barrier(b);
    }
    return released;
}

int exec_cta_done(const exec_cta *cta) { return cta->live_warps == 0 || cta->faulted; }

const exec_fault *exec_cta_fault(const exec_cta *cta) { return cta->faulted ? &cta->fault : NULL; }

void exec_cta_set_memlog(exec_cta *cta, exec_memlog *log) { cta->memlog = log; }

void exec_cta_set_clock(exec_cta *cta, uint64_t cycle) {
    cta->clock = cycle;
    cta->clock_external = 1;
}

/* Every live warp is blocked and no barrier can complete. */
static void report_deadlock(exec_cta *cta) {
    char detail[400] = "";
    size_t n = 0;
    for (uint32_t id = 0; id < EXEC_NUM_BARRIERS && n < sizeof detail - 100; id++) {
        const exec_barrier *b = &cta->bars[id];
        if (!b->waiting) continue;
        uint32_t need = b->expected ? b->expected : LANES * cta->live_warps;
        n += (size_t)snprintf(detail + n, sizeof detail - n, "%s%u warp(s) wait at barrier %u (%u threads expected, %u arrived)",
                              n ? "; " : "", b->waiting, id, need, b->arrived);
    }
    exec_fault_set(cta, LOCSIM_ERR_DEADLOCK,
                   "Barrier deadlock in kernel %s, block (%u,%u,%u): %s; %u of %u warps have exited, so the "
                   "barrier can never complete",
                   cta->L->kernel->name, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], detail,
                   cta->nwarps - cta->live_warps, cta->nwarps);
}

void exec_cta_round(exec_cta *cta, uint64_t *thread_insns, uint64_t *warp_insns) {
    if (cta->faulted || !cta->live_warps) return;
    uint64_t t0 = cta->thread_insns, w0 = cta->warp_insns;
    int ran = 0;
    if (cta->mbar_queued) exec_cta_mbar_flush(cta); /* arrives a timing run left queued */
    for (uint32_t i = 0; i < cta->nwarps && !cta->faulted; i++) {
        exec_warp *w = &cta->warps[i];
        if (w->state != WARP_RUNNING) continue;
        exec_run_warp(cta, w, NULL, cta->L->run_quantum ? cta->L->run_quantum : RUN_QUANTUM);
        ran = 1;
    }
    if (!cta->faulted && cta->live_warps && !exec_cta_try_release_barrier(cta) && !ran) report_deadlock(cta);
    if (thread_insns) *thread_insns += cta->thread_insns - t0;
    if (warp_insns) *warp_insns += cta->warp_insns - w0;
}

locsim_status exec_cta_run(exec_cta *cta, uint64_t *thread_insns, uint64_t *warp_insns) {
    while (!exec_cta_done(cta)) exec_cta_round(cta, thread_insns, warp_insns);
    return cta->faulted ? cta->fault.status : LOCSIM_OK;
}
