/* Kernel faults, worded the way compute-sanitizer reports them, so users can read
 * them with the habits they already have:
 *
 *   ========= Invalid __global__ read of size 4 bytes
 *   =========     at scale_add+PC 13 (line 36 of scale.ptx)
 *   =========     by thread (0,0,0) in block (1,0,0)
 *   =========     Address 0x100000100 is out of bounds
 *
 * Only the first fault of a CTA is kept: it is the cause, later ones are noise. */
#include <stdarg.h>
#include <stdio.h>

#include "exec/exec_internal.h"

void exec_fault_set(exec_cta *cta, locsim_status st, const char *fmt, ...) {
    if (cta->faulted) return;
    cta->faulted = 1;
    cta->fault.status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cta->fault.msg, sizeof cta->fault.msg, fmt, ap);
    va_end(ap);
}

int exec_fault_where(const exec_ctx *x, uint32_t lane, char *buf, size_t n) {
    uint32_t t[3];
    exec_thread_xyz(x->cta, x->w->index, lane, t);
    const exec_launch *L = x->cta->L;
    const char *module = L->mod && L->mod->source_name ? L->mod->source_name : "?";
    uint32_t line = x->in ? x->in->line : 0;
    char callee[160] = "";
    if (x->f != L->kernel)
        snprintf(callee, sizeof callee, " called from kernel %s", L->kernel->name);
    return snprintf(buf, n,
                    "=========     at %s+PC %u (line %u of %s)%s\n"
                    "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n",
                    x->f->name, x->pc, line, module, callee, t[0], t[1], t[2], x->cta->ctaid[0], x->cta->ctaid[1],
                    x->cta->ctaid[2]);
}

static const char *space_label(ptx_space s) {
    switch (s) {
    case PTX_SPACE_SHARED: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_CONST: return "__constant__";
    case PTX_SPACE_PARAM: return "__param__";
    default: return "__global__";
    }
}

static const char *access_label(exec_access a) {
    return a == ACC_READ ? "read" : a == ACC_WRITE ? "write" : "atomic";
}

int exec_fault_memory(exec_ctx *x, ptx_space space, exec_access acc, unsigned size, uint64_t addr, uint32_t lane,
                      const char *why) {
    char where[400];
    exec_fault_where(x, lane, where, sizeof where);
    exec_fault_set(x->cta, LOCSIM_ERR_KERNEL_FAULT,
                   "========= Invalid %s %s of size %u bytes\n%s=========     Address 0x%llx is %s",
                   space_label(space), access_label(acc), size, where, (unsigned long long)addr, why);
    return -1;
}

/* A fault tied to the instruction as a whole (trap, unsupported form, stack overflow):
 * reported for the first active lane. */
int exec_fault_insn(exec_ctx *x, locsim_status st, const char *what) {
    char where[400];
    uint32_t lane = x->active ? (uint32_t)__builtin_ctz(x->active) : 0;
    exec_fault_where(x, lane, where, sizeof where);
    exec_fault_set(x->cta, st, "========= %s\n%s", what, where);
    return -1;
}

int exec_unsupported(exec_ctx *x) {
    char what[200];
    snprintf(what, sizeof what, "unsupported instruction '%s' with type %s (line %u)", ptx_opcode_name(x->in->op),
             ptx_type_name((ptx_type)x->in->type), x->in->line);
    return exec_fault_insn(x, LOCSIM_ERR_UNSUPPORTED, what);
}
