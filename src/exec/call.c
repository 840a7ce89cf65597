/* .func calls and returns.
 *
 * A call pushes a call frame: the callee's registers (zeroed) on the warp's
 * register stack, and its frame of frame_size bytes in every thread's local memory,
 * right after the caller's frame (16-byte aligned; frames are a stack whose pointer
 * is uniform across the warp).  Arguments are copied from the caller's call-site
 * .param slots (or registers / immediates) into the callee's formal slots; on
 * return the callee's return slots are copied back into the call site's.
 *
 * Reconvergence: the caller's SIMT entry moves past the call before the callee's
 * base entry is pushed, so lanes that did not call (guard false) simply wait there.
 * Lanes executing `ret` leave the frame's entries and wait in ret_mask; when the
 * frame has drained (see settle in warp.c) exec_frame_finish returns them together.
 */
#include <stdlib.h>

#include "exec/exec_internal.h"
#include "runtime/devheap.h"

static uint32_t align_up32(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

uint8_t *exec_thread_local(exec_cta *cta, const exec_warp *w, uint32_t lane) {
    return cta->local + ((size_t)w->index * LANES + lane) * cta->local_bytes;
}

/* Frames that take part in calls -- a .func callee, and a caller (it contains a
 * call) -- keep one row per PTX register (ptx_assign_reg_slots packs only
 * kernels without calls), so the code below indexes their rows by register
 * number. */

/* Read n bytes of a call-site value (a frame slot of the frame at frame_base, a
 * register of regs, or an immediate) for lane into dst. */
static int call_value_read(exec_ctx *x, const ptx_operand *o, const uint64_t *regs, uint32_t frame_base,
                           uint32_t lane, void *dst, unsigned n) {
    exec_cta *cta = x->cta;
    uint64_t v;
    switch ((ptx_opnd_kind)o->kind) {
    case PTX_OPND_ADDR: {
        uint64_t off = (uint64_t)frame_base + (uint64_t)o->imm;
        if (o->addr_base != PTX_ABASE_FRAME || off + n > cta->local_bytes) return -1;
        memcpy(dst, exec_thread_local(cta, x->w, lane) + off, n);
        return 0;
    }
    case PTX_OPND_REG: v = regs[(size_t)o->reg * LANES + lane]; break;
    case PTX_OPND_IMM: v = (uint64_t)o->imm; break;
    default: return -1;
    }
    memset(dst, 0, n);
    memcpy(dst, &v, n < 8 ? n : 8);
    return 0;
}

static int call_value_write(exec_ctx *x, const ptx_operand *o, uint64_t *regs, uint32_t frame_base, uint32_t lane,
                            const void *src, unsigned n) {
    exec_cta *cta = x->cta;
    switch ((ptx_opnd_kind)o->kind) {
    case PTX_OPND_ADDR: {
        uint64_t off = (uint64_t)frame_base + (uint64_t)o->imm;
        if (o->addr_base != PTX_ABASE_FRAME || off + n > cta->local_bytes) return -1;
        memcpy(exec_thread_local(cta, x->w, lane) + off, src, n);
        return 0;
    }
    case PTX_OPND_REG: {
        uint64_t v = 0;
        memcpy(&v, src, n < 8 ? n : 8);
        regs[(size_t)o->reg * LANES + lane] = v;
        return 0;
    }
    case PTX_OPND_SINK: return 0;
    default: return -1;
    }
}

int exec_call_arg(exec_ctx *x, const ptx_call *site, unsigned i, uint32_t lane, void *dst, unsigned n) {
    if (i >= site->nargs) return -1;
    return call_value_read(x, &site->args[i], x->regs, x->fr->local_base, lane, dst, n);
}

int exec_call_ret(exec_ctx *x, const ptx_call *site, unsigned i, uint32_t lane, const void *src, unsigned n) {
    if (i >= site->nrets) return 0;
    return call_value_write(x, &site->rets[i], x->regs, x->fr->local_base, lane, src, n);
}


/* Make room for one more frame of callee (only allocates when the warp calls
 * deeper than it ever has). */
static int reserve_frame(exec_warp *w, const ptx_function *callee) {
    size_t fcap = w->frame_cap, scap = w->stack_cap;
    int bad = exec_warp_grow(w, (void **)&w->frames, &fcap, (size_t)w->nframes + 1, sizeof *w->frames);
    w->frame_cap = (uint32_t)fcap;
    bad = bad || exec_warp_grow(w, (void **)&w->stack, &scap, (size_t)w->sp + 1, sizeof *w->stack);
    w->stack_cap = (uint32_t)scap;
    if (bad) return -1;
    if (exec_warp_grow(w, (void **)&w->regs, &w->regs_cap, w->regs_used + (size_t)callee->nregs * LANES, sizeof *w->regs))
        return -1;
    if (exec_warp_grow(w, (void **)&w->preds, &w->preds_cap, w->preds_used + callee->npreds, sizeof *w->preds))
        return -1;
    return 0;
}

static int call_fault(exec_ctx *x, const char *fmt, const char *name) {
    char what[300];
    snprintf(what, sizeof what, fmt, name);
    return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
}

/* __assertfail(message, file, line, function, charSize): what nvcc calls when a
 * device assert() fails.  As CUDA does, the kernel stops with the assertion's text,
 * file, line, function, block and thread ("file:line: function: block: [x,y,z],
 * thread: [x,y,z] Assertion `message` failed.") and the launch fails with
 * cudaErrorAssert (LOCSIM_ERR_ASSERT).  The first calling lane is reported; the
 * others of the warp are counted. */
static int exec_assertfail(exec_ctx *x, const ptx_call *site) {
    uint32_t first = 0, n = 0;
    FOR_EACH_LANE(l, x->active) {
        if (n++ == 0) first = l;
    }
    uint64_t msg_addr = 0, file_addr = 0, fn_addr = 0;
    uint32_t line = 0;
    char msg[256] = "?", file[256] = "?", fn[256] = "?";
    if (exec_call_arg(x, site, 0, first, &msg_addr, 8) || exec_call_arg(x, site, 1, first, &file_addr, 8) ||
        exec_call_arg(x, site, 2, first, &line, 4) || exec_call_arg(x, site, 3, first, &fn_addr, 8))
        return exec_unsupported(x);
    if ((msg_addr && exec_read_string(x, msg_addr, first, msg, sizeof msg) < 0) ||
        (file_addr && exec_read_string(x, file_addr, first, file, sizeof file) < 0) ||
        (fn_addr && exec_read_string(x, fn_addr, first, fn, sizeof fn) < 0))
        return -1;
    const uint32_t *b = x->cta->ctaid;
    char what[1200];
    snprintf(what, sizeof what,
             "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.%s", file, line, fn, b[0], b[1],
             b[2], (unsigned)x->w->tid[0][first], (unsigned)x->w->tid[1][first], (unsigned)x->w->tid[2][first], msg,
             n > 1 ? " (and the other active threads of this warp)" : "");
    return exec_fault_insn(x, LOCSIM_ERR_ASSERT, what);
}

/* Device malloc(size) and free(ptr) (devheap.h): each calling lane in turn, in lane
 * order, so threads that allocate at once get addresses in a fixed order.  malloc
 * returns NULL when the heap has no room; free(NULL) does nothing; freeing anything
 * else than a live block malloc returned stops the kernel (undefined in CUDA). */
static int exec_heap_call(exec_ctx *x, const ptx_call *site, int is_free) {
    struct devheap *h = x->cta->L->heap;
    if (!h) return exec_fault_insn(x, LOCSIM_ERR_UNSUPPORTED, "device malloc/free called without a device heap");
    FOR_EACH_LANE(l, x->active) {
        uint64_t a = 0;
        if (exec_call_arg(x, site, 0, l, &a, 8)) return exec_unsupported(x);
        if (is_free) {
            if (a && devheap_free(h, a)) {
                char what[200];
                snprintf(what, sizeof what, "free(0x%llx) by lane %u: not a block device malloc returned, or freed already",
                         (unsigned long long)a, l);
                return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
            }
            continue;
        }
        uint64_t p = devheap_malloc(h, a);
        if (exec_call_ret(x, site, 0, l, &p, 8)) return exec_unsupported(x);
    }
    x->w->stack[x->w->sp - 1].pc = x->pc + 1;
    return 0;
}

/* An indirect call (call (r), %rd, (a), prototype): the callee is the function whose
 * address (PTX_FUNC_ADDR) each active lane's register holds.  Lanes naming different
 * functions split as at a divergent branch: the lanes of the first lane's function
 * run the call now, the others run the same instruction afterwards, and all meet
 * after it.  0 and *func when every active lane names one function, 1 after a
 * split, -1 after a fault (not a function's address, a kernel, a wrong arity). */
static int indirect_callee(exec_ctx *x, const ptx_call *site, uint32_t *func) {
    const ptx_module *mod = x->cta->L->mod;
    const uint64_t *t = exec_src(x, 1);
    uint32_t first = (uint32_t)__builtin_ctz(x->active), same = 0;
    uint64_t v = t[first];
    FOR_EACH_LANE(l, x->active) {
        if (t[l] == v) same |= 1u << l;
    }
    if (same != x->active) {
        exec_warp *w = x->w;
        w->stack[w->sp - 1].pc = x->pc + 1;
        if (exec_stack_push(x->cta, w, x->pc, x->pc + 1, x->active & ~same)) return -1;
        if (exec_stack_push(x->cta, w, x->pc, x->pc + 1, same)) return -1;
        return 1;
    }
    uint64_t off = v - PTX_FUNC_ADDR_BASE;
    char what[300];
    if (v < PTX_FUNC_ADDR_BASE || off % PTX_FUNC_ADDR_STRIDE || off / PTX_FUNC_ADDR_STRIDE >= mod->nfuncs) {
        snprintf(what, sizeof what, "Indirect call through address 0x%llx (lane %u): not a function's address",
                 (unsigned long long)v, first);
        return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
    }
    const ptx_function *callee = &mod->funcs[off / PTX_FUNC_ADDR_STRIDE];
    const char *why = ptx_function_unsupported(mod, (uint32_t)(off / PTX_FUNC_ADDR_STRIDE));
    if (why) {
        snprintf(what, sizeof what, "indirect call to '%s', which cannot run on locsim: %s", callee->name, why);
        return exec_fault_insn(x, LOCSIM_ERR_UNSUPPORTED, what);
    }
    if (callee->is_entry || site->nargs != callee->nparams || (site->nrets && site->nrets != callee->nrets)) {
        snprintf(what, sizeof what, "Indirect call to '%s' (lane %u): %s", callee->name, first,
                 callee->is_entry ? "a kernel, not a .func" : "its parameters do not match the call's prototype");
        return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
    }
    *func = (uint32_t)(off / PTX_FUNC_ADDR_STRIDE);
    return 0;
}

int exec_call(exec_ctx *x) {
    const ptx_insn *in = x->in;
    const ptx_module *mod = x->cta->L->mod;
    if (in->call >= x->f->ncalls) return exec_unsupported(x);
    const ptx_call *site = &x->f->calls[in->call];
    uint32_t func = site->func;
    if (site->indirect) {
        int rc = indirect_callee(x, site, &func);
        if (rc) return rc < 0 ? -1 : 0;
    }
    if (func >= mod->nfuncs) return exec_unsupported(x);
    const ptx_function *callee = &mod->funcs[func];
    exec_warp *w = x->w;
    if (callee->is_extern || !callee->insns) {
        if (strcmp(callee->name, "vprintf") == 0) {
            if (exec_vprintf(x, site, x->active)) return -1;
            w->stack[w->sp - 1].pc = x->pc + 1;
            return 0;
        }
        if (strcmp(callee->name, "__assertfail") == 0) return exec_assertfail(x, site);
        if (strcmp(callee->name, "malloc") == 0) return exec_heap_call(x, site, 0);
        if (strcmp(callee->name, "free") == 0) return exec_heap_call(x, site, 1);
        char what[300];
        snprintf(what, sizeof what, "unsupported external function '%s'", callee->name);
        return exec_fault_insn(x, LOCSIM_ERR_UNSUPPORTED, what);
    }
    if (w->nframes >= EXEC_MAX_CALL_DEPTH) return call_fault(x, "Stack overflow: call depth limit reached calling '%s'", callee->name);
    uint32_t align = callee->frame_align > 16 ? callee->frame_align : 16;
    uint64_t base = align_up32(x->fr->local_base + align_up32(x->f->frame_size, 16), align);
    if (base + callee->frame_size > x->cta->local_bytes)
        return call_fault(x, "Stack overflow: local memory exhausted calling '%s'", callee->name);
    size_t caller_frame = (size_t)(x->fr - w->frames);
    if (reserve_frame(w, callee)) return exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for a call frame");
    x->fr = &w->frames[caller_frame];
    x->regs = w->regs + x->fr->reg_base;
    x->preds = w->preds + x->fr->pred_base;

    /* arguments: caller's call-site slots -> callee's formals */
    unsigned nargs = site->nargs < callee->nparams ? site->nargs : callee->nparams;
    for (unsigned i = 0; i < nargs; i++) {
        const ptx_param *p = &callee->params[i];
        if (p->is_reg) continue; /* set below, once the callee's registers exist */
        if (p->offset + p->size > callee->frame_size) return exec_unsupported(x);
        FOR_EACH_LANE(l, x->active) {
            uint8_t *dst = exec_thread_local(x->cta, w, l) + base + p->offset;
            if (call_value_read(x, &site->args[i], x->regs, x->fr->local_base, l, dst, p->size))
                return exec_unsupported(x);
        }
    }

    w->stack[w->sp - 1].pc = x->pc + 1;
    call_frame *fr = &w->frames[w->nframes++];
    fr->func = callee;
    fr->reg_base = w->regs_used;
    fr->pred_base = w->preds_used;
    fr->local_base = (uint32_t)base;
    fr->simt_base = w->sp;
    fr->ret_mask = 0;
    fr->site = site;
    memset(w->regs + w->regs_used, 0, (size_t)callee->nregs * LANES * sizeof *w->regs);
    memset(w->preds + w->preds_used, 0, callee->npreds * sizeof *w->preds);
    /* .reg formals: the argument goes straight into the callee's register */
    for (unsigned i = 0; i < nargs; i++) {
        const ptx_param *p = &callee->params[i];
        if (!p->is_reg) continue;
        if (p->reg >= callee->nregs) return exec_unsupported(x);
        uint64_t *row = w->regs + w->regs_used + (size_t)p->reg * LANES;
        FOR_EACH_LANE(l, x->active) {
            uint64_t v = 0;
            if (call_value_read(x, &site->args[i], x->regs, x->fr->local_base, l, &v, p->size))
                return exec_unsupported(x);
            row[l] = v & width_mask(p->size * 8);
        }
    }
    w->regs_used += (size_t)callee->nregs * LANES;
    w->preds_used += callee->npreds;
    w->stack[w->sp++] = (simt_entry){0, callee->ninsn, x->active};
    return 0;
}

/* The top frame has drained: return `lanes` to the caller with the callee's return
 * values, and pop the frame.  Its SIMT base entry is already popped. */
int exec_frame_finish(exec_ctx *x, uint32_t lanes) {
    exec_warp *w = x->w;
    call_frame *fr = &w->frames[w->nframes - 1];
    call_frame *caller = fr - 1;
    const ptx_function *callee = fr->func;
    const ptx_call *site = fr->site;
    unsigned nrets = site->nrets < callee->nrets ? site->nrets : callee->nrets;
    uint64_t *caller_regs = w->regs + caller->reg_base;
    for (unsigned i = 0; i < nrets; i++) {
        const ptx_param *r = &callee->rets[i];
        if (r->is_reg ? r->reg >= callee->nregs : r->offset + r->size > callee->frame_size)
            return exec_unsupported(x);
        FOR_EACH_LANE(l, lanes) {
            const uint8_t *src = r->is_reg ? (const uint8_t *)(w->regs + fr->reg_base + (size_t)r->reg * LANES + l)
                                           : exec_thread_local(x->cta, w, l) + fr->local_base + r->offset;
            if (call_value_write(x, &site->rets[i], caller_regs, caller->local_base, l, src, r->size))
                return exec_unsupported(x);
        }
    }
    w->regs_used = fr->reg_base;
    w->preds_used = fr->pred_base;
    w->nframes--;
    return 0;
}
