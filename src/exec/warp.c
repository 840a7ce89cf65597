/* The warp interpreter: SIMT stack, control flow, barrier arrival, and the
 * dispatch of one instruction to its handler.  See exec_internal.h for the model. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

static int in_block(const exec_warp *w, const void *p) {
    const char *b = w->block;
    return b && (const char *)p >= b && (const char *)p < b + w->block_bytes;
}

int exec_warp_grow(exec_warp *w, void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *p;
    if (in_block(w, *arr)) { /* leaves the block: its part there stays unused */
        p = malloc(n * elem);
        if (p && *cap) memcpy(p, *arr, *cap * elem);
    } else {
        p = realloc(*arr, n * elem);
    }
    if (!p) return -1;
    *arr = p;
    *cap = n;
    return 0;
}

/* Free what exec_warp_grow moved out of w's block, then the block. */
void exec_warp_free(exec_warp *w) {
    void *parts[] = {w->regs, w->preds, w->stack, w->frames};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!in_block(w, parts[i])) free(parts[i]);
    free(w->block);
    w->block = NULL;
    w->regs = NULL;
    w->preds = NULL;
    w->stack = NULL;
    w->frames = NULL;
}

int exec_stack_push(exec_cta *cta, exec_warp *w, uint32_t pc, uint32_t reconv, uint32_t mask) {
    if (w->sp == w->stack_cap) {
        /* Only grows when divergence nests deeper than ever before in this warp. */
        size_t cap = w->stack_cap;
        if (exec_warp_grow(w, (void **)&w->stack, &cap, (size_t)w->sp + 1, sizeof *w->stack)) {
            exec_fault_set(cta, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for the SIMT stack");
            return -1;
        }
        w->stack_cap = (uint32_t)cap;
    }
    w->stack[w->sp++] = (simt_entry){pc, reconv, mask};
    return 0;
}

void exec_lanes_exit(exec_cta *cta, exec_warp *w, uint32_t lanes) {
    (void)cta;
    if (w->ncopies) exec_cp_async_drain(w, lanes); /* a thread's copies land before it is gone */
    w->exited |= lanes;
    for (uint32_t i = 0; i < w->sp; i++) w->stack[i].mask &= ~lanes;
    for (uint32_t i = 0; i < w->nframes; i++) w->frames[i].ret_mask &= ~lanes;
}

/* Lanes that executed ret in a .func: they leave every entry of the frame and wait
 * at the function's exit until the frame drains. */
static void frame_ret(exec_warp *w, call_frame *fr, uint32_t lanes) {
    fr->ret_mask |= lanes;
    for (uint32_t i = fr->simt_base; i < w->sp; i++) w->stack[i].mask &= ~lanes;
}

static void warp_done(exec_cta *cta, exec_warp *w) {
    if (w->state == WARP_DONE) return;
    w->state = WARP_DONE;
    cta->live_warps--;
}

/* Pop finished entries: empty masks, paths at their reconvergence point, lanes at
 * the end of their function.  A drained frame returns to its caller. */
static int settle(exec_ctx *x) {
    exec_warp *w = x->w;
    for (;;) {
        if (w->sp == 0) {
            warp_done(x->cta, w);
            return 0;
        }
        call_frame *fr = &w->frames[w->nframes - 1];
        simt_entry *top = &w->stack[w->sp - 1];
        if (top->pc >= fr->func->ninsn && top->mask) { /* fell off the end: ret / exit */
            if (w->nframes == 1) exec_lanes_exit(x->cta, w, top->mask);
            else frame_ret(w, fr, top->mask);
            continue;
        }
        if (w->sp - 1 != fr->simt_base) {
            if (top->mask == 0 || top->pc == top->reconv) {
                w->sp--;
                continue;
            }
            return 0;
        }
        if (top->mask) return 0;
        w->sp--; /* the frame's base entry is empty: the frame has drained */
        if (w->nframes == 1) continue;
        x->fr = fr;
        x->f = fr->func;
        x->slot = x->f->reg_slot; /* (call frames keep one row per register: call.c) */
        if (exec_frame_finish(x, fr->ret_mask & ~w->exited)) return -1;
    }
}

/* bra: divergent when the guard splits the active lanes.  The top entry becomes the
 * reconvergence entry (unless it already reconverges at the same point, as in a
 * loop's exit test) and both paths are pushed, the fall-through path on top. */
static int branch(exec_ctx *x) {
    exec_warp *w = x->w;
    const ptx_insn *in = x->in;
    uint32_t top_i = w->sp - 1;
    uint32_t taken = x->active, fall = w->stack[top_i].mask & ~taken;
    uint32_t target = (uint32_t)x->in->opnd[0].imm;
    if (in->opnd[0].kind != PTX_OPND_LABEL || target > x->f->ninsn) return exec_unsupported(x);
    if (!fall) {
        w->stack[top_i].pc = target;
        return 0;
    }
    if (!taken) {
        w->stack[top_i].pc = x->pc + 1;
        return 0;
    }
    uint32_t r = in->reconv;
    if (w->stack[top_i].reconv == r) {
        w->stack[top_i].pc = target;
        w->stack[top_i].mask = taken;
    } else {
        w->stack[top_i].pc = r;
        if (exec_stack_push(x->cta, w, target, r, taken)) return -1;
    }
    return exec_stack_push(x->cta, w, x->pc + 1, r, fall);
}

static int do_ret(exec_ctx *x) {
    exec_warp *w = x->w;
    if (x->active) {
        if (w->nframes == 1) exec_lanes_exit(x->cta, w, x->active); /* ret from the kernel */
        else frame_ret(w, x->fr, x->active);
    }
    w->stack[w->sp - 1].pc = x->pc + 1;
    return 0;
}

/* bar.sync / barrier.sync / bar.arrive / bar.red: the warp counts as warp-size
 * threads.  Every live lane must arrive together (else: divergent barrier). */
static int barrier_arrive(exec_ctx *x) {
    const ptx_insn *in = x->in;
    exec_warp *w = x->w;
    exec_cta *cta = x->cta;
    if (in->flags & PTX_F_WARP) return exec_warp_op(x);
    unsigned nd = in->ndst, nsrc = in->nopnd > nd ? in->nopnd - nd : 0;
    int is_red = (in->flags & PTX_F_RED) != 0;
    if (nsrc < (is_red ? 2u : 1u)) return exec_unsupported(x);
    uint32_t lane0 = (uint32_t)__builtin_ctz(x->active);
    uint32_t live = w->valid & ~w->exited;
    if (x->active != live) {
        char where[400];
        exec_fault_where(x, (uint32_t)__builtin_ctz(live & ~x->active), where, sizeof where);
        exec_fault_set(cta, LOCSIM_ERR_DEADLOCK,
                       "========= Barrier error detected. Divergent thread(s) in warp\n%s"
                       "=========     lanes 0x%08x arrived at the barrier, live lanes are 0x%08x",
                       where, x->active, live);
        return -1;
    }
    uint64_t id = exec_src(x, nd)[lane0];
    uint64_t count = 0;
    if (nsrc >= (is_red ? 3u : 2u)) count = exec_src(x, nd + 1)[lane0] & 0xffffffffu;
    if (id >= EXEC_NUM_BARRIERS) return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, "barrier number out of range 0..15");
    count = (count + LANES - 1) / LANES * LANES; /* counted in whole warps */
    exec_barrier *b = &cta->bars[id];
    if (count) {
        if (b->expected && b->expected != count)
            return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, "barrier used with different thread counts");
        b->expected = (uint32_t)count;
    }
    b->arrived += LANES;
    if (is_red) {
        uint32_t p = exec_pred_src(x, &in->opnd[in->nopnd - 1]) & x->active;
        b->red_popc += popc32(p);
        if (p != x->active) b->red_all = 0;
        if (p) b->red_any = 1;
    }
    if ((in->flags & PTX_F_ARRIVE) && !is_red) return 0;
    w->state = WARP_AT_BARRIER;
    w->bar_id = (uint8_t)id;
    w->bar_insn = in;
    w->bar_active = x->active;
    b->waiting++;
    return 0;
}

static int trap(exec_ctx *x) { return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, "trap instruction executed"); }

/* Non-control instructions. */
static int execute(exec_ctx *x) {
    const ptx_insn *in = x->in;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_DIV:
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX:
        return type_float((ptx_type)in->type) ? exec_alu_float(x) : exec_alu_int(x);
    case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_COPYSIGN:
        return exec_alu_float(x);
    case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_REM: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_PRMT: case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_AND:
    case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_LOP3:
    case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_BMSK:
        return exec_alu_int(x);
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SELP: case PTX_OP_SLCT: case PTX_OP_TESTP:
        return exec_compare(x);
    case PTX_OP_MOV: case PTX_OP_CVTA: case PTX_OP_ISSPACEP: return exec_mov(x);
    case PTX_OP_CVT: return exec_cvt(x);
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: return exec_memory(x);
    case PTX_OP_ATOM: case PTX_OP_RED: return exec_atomic(x);
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_TXQ: case PTX_OP_SUQ: case PTX_OP_SULD: case PTX_OP_SUST:
        return exec_texture(x);
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX: case PTX_OP_ACTIVEMASK:
        return exec_warp_op(x);
    case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2:
    case PTX_OP_VMAX2: case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4: case PTX_OP_VABSDIFF4:
    case PTX_OP_VMIN4: case PTX_OP_VMAX4:
        return exec_video(x);
    case PTX_OP_CP_ASYNC: case PTX_OP_CP_ASYNC_COMMIT: case PTX_OP_CP_ASYNC_WAIT: case PTX_OP_CP_ASYNC_WAIT_ALL:
        return exec_cp_async(x);
    case PTX_OP_MBARRIER: case PTX_OP_MBARRIER_PENDING: case PTX_OP_CP_ASYNC_MBAR:
        return exec_mbarrier(x);
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_MMA: case PTX_OP_LDMATRIX:
        return exec_tensor(x);
    /* No functional effect: memory is sequentially consistent here, prefetches and
     * sleeps only matter to the timing model. */
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
    case PTX_OP_NANOSLEEP: case PTX_OP_BRKPT:
        return 0;
    case PTX_OP_TRAP: return trap(x);
    default: return exec_unsupported(x);
    }
}

/* One instruction at the top of the SIMT stack.  0, or -1 on a fault. */
static int step(exec_ctx *x) {
    exec_warp *w = x->w;
    const ptx_insn *in = x->in;
    int rc = 0;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_BRA: return branch(x);
    case PTX_OP_CALL:
        if (x->active) return exec_call(x);
        break;
    case PTX_OP_RET: return do_ret(x);
    case PTX_OP_EXIT:
        if (x->active) exec_lanes_exit(x->cta, w, x->active);
        break;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (x->active) rc = barrier_arrive(x);
        break;
    default:
        if (x->active) rc = execute(x);
        break;
    }
    if (rc == 0) w->stack[w->sp - 1].pc = x->pc + 1;
    return rc;
}

static void fill_info(exec_step_info *info, const exec_ctx *x, uint32_t mask) {
    info->insn = x->in;
    info->pc = x->pc;
    info->func = x->f;
    info->active_mask = x->active;
    info->thread_insns = popc32(mask);
    info->mem_space = PTX_SPACE_NONE;
    info->mem_is_store = 0;
    info->mem_is_atomic = 0;
    info->mem_is_texture = 0;
    info->mem_is_kparam = 0;
    info->mem_size = 0;
    info->mem_mask = 0;
}

static int watchdog_fault(exec_ctx *x) {
    const exec_cta *cta = x->cta;
    exec_fault_set(x->cta, LOCSIM_ERR_DEADLOCK,
                   "Watchdog: block (%u,%u,%u) of kernel %s executed %llu warp instructions without finishing "
                   "(a runaway loop?); stopped in %s at PC %u (line %u)",
                   cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], cta->L->kernel->name,
                   (unsigned long long)cta->warp_insns, x->f->name, x->pc, x->in->line);
    return -1;
}

exec_step_result exec_run_warp(exec_cta *cta, exec_warp *w, exec_step_info *info, uint64_t budget) {
    exec_ctx x;
    x.cta = cta;
    x.w = w;
    x.info = info;
    const uint64_t watchdog = cta->L->watchdog_insns;
    while (budget-- && w->state == WARP_RUNNING && !cta->faulted) {
        call_frame *fr = &w->frames[w->nframes - 1];
        const simt_entry *top = &w->stack[w->sp - 1];
        x.fr = fr;
        x.f = fr->func;
        x.pc = top->pc;
        x.in = &x.f->insns[x.pc];
        x.regs = w->regs + fr->reg_base;
        x.slot = x.f->reg_slot;
        x.preds = w->preds + fr->pred_base;
        uint32_t mask = top->mask, active = mask;
        if (x.in->guard != PTX_NO_GUARD) {
            uint32_t g = x.preds[x.in->guard];
            active &= x.in->guard_neg ? ~g : g;
        }
        x.active = active;
        cta->warp_insns++;
        cta->thread_insns += popc32(active);
        if (info) fill_info(info, &x, active);
        if (watchdog && cta->warp_insns > watchdog) {
            watchdog_fault(&x);
            break;
        }
        if (step(&x)) break;
        top = &w->stack[w->sp - 1];
        fr = &w->frames[w->nframes - 1];
        if (top->pc == top->reconv || top->pc >= fr->func->ninsn || top->mask == 0)
            if (settle(&x)) break;
    }
    if (cta->faulted) return EXEC_STEP_FAULT;
    if (w->state == WARP_DONE) return EXEC_STEP_EXITED;
    if (w->state == WARP_AT_BARRIER) return EXEC_STEP_BARRIER;
    return EXEC_STEP_OK;
}
