/* Structural check of a decoded module: every index the executor will follow is
 * in range.  ptx_parse() only produces modules that pass; the fuzzer and the
 * tests call this to prove it, and a runtime may call it on IR built by hand. */
#include "ptx/ir.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct {
    const ptx_module *m;
    const ptx_function *f;
    uint32_t pc;
    char *msg;
    size_t msgsz;
} vctx;

static int bad(vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(vctx *v, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (v->msg && v->msgsz)
        snprintf(v->msg, v->msgsz, "%s: insn %u: %s", v->f ? v->f->name : "module", v->pc, what);
    return -1;
}

static int check_operand(vctx *v, const ptx_operand *o)
{
    const ptx_function *f = v->f;
    switch (o->kind) {
    case PTX_OPND_NONE:
    case PTX_OPND_IMM:
    case PTX_OPND_SINK:
        return 0;
    case PTX_OPND_REG:
        return o->reg < f->nregs ? 0 : bad(v, "register %u out of range", o->reg);
    case PTX_OPND_PRED:
        return o->reg < f->npreds ? 0 : bad(v, "predicate %u out of range", o->reg);
    case PTX_OPND_SREG:
        return o->reg < PTX_SREG_COUNT && o->reg != PTX_SREG_NONE && o->comp < 3 ? 0 : bad(v, "bad special register");
    case PTX_OPND_VEC:
        if (o->comp < 1 || o->comp > PTX_VEC_MAX)
            return bad(v, "vector of %u elements", o->comp);
        for (unsigned i = 0; i < o->comp; i++)
            if (!(o->vec_imm & (1u << i)) && o->vec[i] != PTX_REG_SINK && o->vec[i] >= f->nregs)
                return bad(v, "vector element register %u out of range", o->vec[i]);
        return 0;
    case PTX_OPND_ADDR:
    case PTX_OPND_SYMADDR:
        switch (o->addr_base) {
        case PTX_ABASE_NONE:
            return 0;
        case PTX_ABASE_REG:
            return o->reg < f->nregs ? 0 : bad(v, "address register %u out of range", o->reg);
        case PTX_ABASE_SYM:
            return o->reg < v->m->nvars ? 0 : bad(v, "variable %u out of range", o->reg);
        case PTX_ABASE_FRAME:
            return o->imm >= 0 && (uint64_t)o->imm <= f->frame_size ? 0 : bad(v, "frame offset %lld out of range",
                                                                              (long long)o->imm);
        case PTX_ABASE_KPARAM:
            return f->is_entry && o->imm >= 0 && (uint64_t)o->imm <= f->kparam_size
                       ? 0
                       : bad(v, "kernel parameter offset %lld out of range", (long long)o->imm);
        default:
            return bad(v, "bad address base %u", o->addr_base);
        }
    case PTX_OPND_LABEL:
        return o->imm >= 0 && (uint64_t)o->imm <= f->ninsn ? 0 : bad(v, "label target out of range");
    case PTX_OPND_FUNC:
        return o->imm >= 0 && (uint64_t)o->imm < v->m->nfuncs ? 0 : bad(v, "function index out of range");
    default:
        return bad(v, "bad operand kind %u", o->kind);
    }
}

static int check_insn(vctx *v, const ptx_insn *in)
{
    const ptx_function *f = v->f;
    if (in->op >= PTX_OP_COUNT)
        return bad(v, "bad opcode %u", in->op);
    if (in->nopnd > PTX_MAX_OPNDS || in->ndst > in->nopnd)
        return bad(v, "bad operand count");
    if (in->guard != PTX_NO_GUARD && in->guard >= f->npreds)
        return bad(v, "guard predicate out of range");
    if (in->type >= PTX_T_COUNT || in->type2 >= PTX_T_COUNT || in->space >= PTX_SPACE_COUNT)
        return bad(v, "bad type or space");
    for (unsigned i = 0; i < in->nopnd; i++)
        if (check_operand(v, &in->opnd[i]) < 0)
            return -1;
    if (in->op == PTX_OP_BRA) {
        if (in->opnd[0].kind != PTX_OPND_LABEL)
            return bad(v, "branch without a label");
        if (in->reconv > f->ninsn)
            return bad(v, "reconvergence point out of range");
    }
    if (in->op == PTX_OP_CALL) {
        if (in->call >= f->ncalls)
            return bad(v, "call index out of range");
        const ptx_call *c = &f->calls[in->call];
        if (c->nargs > 16 || c->nrets > PTX_CALL_MAX_RETS)
            return bad(v, "too many call arguments or return values");
        if (c->indirect) {
            /* the callee is found at run time (exec_call checks its arity then) */
            if (in->nopnd < 2 || in->opnd[1].kind != PTX_OPND_REG)
                return bad(v, "indirect call without a target register");
        } else {
            if (c->func >= v->m->nfuncs)
                return bad(v, "callee out of range");
            const ptx_function *callee = &v->m->funcs[c->func];
            if (c->nargs != callee->nparams || (c->nrets && c->nrets != callee->nrets))
                return bad(v, "call arity does not match '%s'", callee->name);
        }
        for (unsigned i = 0; i < c->nargs; i++)
            if (check_operand(v, &c->args[i]) < 0)
                return -1;
        for (unsigned i = 0; i < c->nrets; i++)
            if (check_operand(v, &c->rets[i]) < 0)
                return -1;
    }
    return 0;
}

int ptx_module_verify(const ptx_module *m, char *msg, size_t msgsz)
{
    vctx v = {m, NULL, 0, msg, msgsz};
    if (!m)
        return bad(&v, "no module");
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *var = &m->vars[i];
        if (!var->name || var->space >= PTX_SPACE_COUNT)
            return bad(&v, "bad variable %u", i);
        if (var->init_sym) {
            if (!var->init)
                return bad(&v, "variable '%s' has symbols but no data", var->name);
            for (uint64_t s = 0; s < var->size / 8; s++) {
                uint32_t e = var->init_sym[s];
                if (!e)
                    continue;
                uint32_t idx = (e & ~PTX_INIT_SYM_FUNC) - 1;
                if ((e & PTX_INIT_SYM_FUNC) ? idx >= m->nfuncs : idx >= m->nvars)
                    return bad(&v, "variable '%s' initializer names a bad symbol", var->name);
            }
        }
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *f = &m->funcs[fi];
        v.f = f;
        v.pc = 0;
        if (!f->name)
            return bad(&v, "function %u has no name", fi);
        if (!f->is_entry) {
            for (int r = 0; r < 2; r++) {
                const ptx_param *ps = r ? f->params : f->rets;
                uint32_t n = r ? f->nparams : f->nrets;
                for (uint32_t i = 0; i < n; i++)
                    if (!f->is_extern && (uint64_t)ps[i].offset + ps[i].size > f->frame_size)
                        return bad(&v, "parameter '%s' outside the frame", ps[i].name);
            }
        } else {
            for (uint32_t i = 0; i < f->nparams; i++)
                if ((uint64_t)f->params[i].offset + f->params[i].size > f->kparam_size)
                    return bad(&v, "parameter '%s' outside the parameter buffer", f->params[i].name);
        }
        for (uint32_t i = 0; i < f->ninsn; i++) {
            v.pc = i;
            if (check_insn(&v, &f->insns[i]) < 0)
                return -1;
        }
    }
    return 0;
}
