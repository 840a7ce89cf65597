/* mov (including vector pack/unpack and predicates), cvta, isspacep. */
#include "exec/exec_internal.h"

static int mov_pred(exec_ctx *x) {
    exec_pred_write(x, &x->in->opnd[0], exec_pred_src(x, &x->in->opnd[1]));
    return 0;
}

/* mov.b64 %rd, {%r1, %r2}: element k fills bits [k*w, (k+1)*w) */
static int mov_pack(exec_ctx *x, uint64_t *d) {
    const ptx_operand *v = &x->in->opnd[1];
    unsigned n = v->comp ? v->comp : 1, w = type_bits((ptx_type)x->in->type) / n;
    uint64_t em = width_mask(w);
    if (w == 0 || n > 4) return exec_unsupported(x);
    FOR_EACH_LANE(l, x->active) {
        uint64_t r = 0;
        for (unsigned k = 0; k < n; k++) {
            uint64_t e;
            if ((v->vec_imm >> k) & 1) e = v->vec[k]; /* an immediate element: its bits */
            else if (v->vec[k] == PTX_REG_SINK) continue;
            else e = exec_row(x, v->vec[k])[l];
            r |= (e & em) << (k * w);
        }
        d[l] = r;
    }
    return 0;
}

/* mov.b64 {%r1, %r2}, %rd: the inverse.  The source is read in full first: it may
 * be one of the destinations. */
static int mov_unpack(exec_ctx *x) {
    const ptx_operand *v = &x->in->opnd[0];
    unsigned n = v->comp ? v->comp : 1, w = type_bits((ptx_type)x->in->type) / n;
    uint64_t em = width_mask(w), src[LANES];
    if (w == 0 || n > 4) return exec_unsupported(x);
    memcpy(src, exec_src(x, 1), sizeof src);
    for (unsigned k = 0; k < n; k++) {
        if (v->vec[k] == PTX_REG_SINK) continue;
        uint64_t *d = exec_row(x, v->vec[k]);
        FOR_EACH_LANE(l, x->active) d[l] = (src[l] >> (k * w)) & em;
    }
    return 0;
}

static int mov(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    if (in->type == PTX_T_PRED || in->opnd[0].kind == PTX_OPND_PRED) return mov_pred(x);
    if (in->opnd[0].kind == PTX_OPND_VEC) return mov_unpack(x);
    uint64_t *d = exec_dst(x, 0);
    if (!d) return 0;
    if (in->opnd[1].kind == PTX_OPND_VEC) return mov_pack(x, d);
    unsigned bits = type_bits((ptx_type)in->type);
    uint64_t wm = width_mask(bits ? bits : 64);
    if (in->opnd[1].kind == PTX_OPND_IMM) { /* written straight, not broadcast into scratch and copied */
        uint64_t v = (uint64_t)in->opnd[1].imm & wm;
        if (x->active == FULL_MASK) {
            for (uint32_t l = 0; l < LANES; l++) d[l] = v;
        } else {
            FOR_EACH_LANE(l, x->active) d[l] = v;
        }
        return 0;
    }
    const uint64_t *a = exec_src(x, 1);
    if (x->active == FULL_MASK) {
        for (uint32_t l = 0; l < LANES; l++) d[l] = a[l] & wm;
    } else {
        FOR_EACH_LANE(l, x->active) d[l] = a[l] & wm;
    }
    return 0;
}

static uint64_t window_of(ptx_space s) {
    switch (s) {
    case PTX_SPACE_SHARED: return DEVMEM_SHARED_WINDOW;
    case PTX_SPACE_LOCAL: return DEVMEM_LOCAL_WINDOW;
    case PTX_SPACE_PARAM: return EXEC_PARAM_WINDOW;
    default: return 0; /* global and const addresses are generic addresses already */
    }
}

/* cvta.space d, a: space address -> generic;  cvta.to.space d, a: generic -> space. */
static int cvta(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    uint64_t *d = exec_dst(x, 0);
    const uint64_t *a = exec_src(x, 1);
    uint64_t win = window_of((ptx_space)in->space);
    uint64_t wm = width_mask(type_bits((ptx_type)in->type) ? type_bits((ptx_type)in->type) : 64);
    int to = (in->flags & PTX_F_TO) != 0;
    if (!d) return 0;
    FOR_EACH_LANE(l, x->active) {
        uint64_t v = a[l];
        if (win) v = to ? v - win : (v & 0xffffffffu) + win; /* space addresses are 32-bit offsets */
        d[l] = v & wm;
    }
    return 0;
}

static int isspacep(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1);
    ptx_space want = (ptx_space)in->space;
    if (want == PTX_SPACE_CONST) want = PTX_SPACE_GLOBAL; /* const data lives in device memory */
    uint32_t r = 0;
    FOR_EACH_LANE(l, x->active) {
        uint64_t off;
        r |= (uint32_t)(exec_classify_generic(a[l], &off) == want) << l;
    }
    exec_pred_write(x, &in->opnd[0], r);
    return 0;
}

int exec_mov(exec_ctx *x) {
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_MOV: return mov(x);
    case PTX_OP_CVTA: return cvta(x);
    case PTX_OP_ISSPACEP: return isspacep(x);
    default: return exec_unsupported(x);
    }
}
