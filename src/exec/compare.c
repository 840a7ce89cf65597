/* Comparisons and selection: setp, set, selp, slct, testp.
 *
 * Float comparisons follow PTX: the plain forms (eq, ne, lt, ...) are false when an
 * operand is NaN, the u-forms (equ, neu, ...) are true; num/nan test for NaN.
 * Integer lt/le/gt/ge use the type's signedness, lo/ls/hi/hs are unsigned. */
#include "exec/float_util.h"

/* Lane mask of (a cmp b) over the active lanes, integer types. */
static uint32_t compare_int(uint32_t active, ptx_cmp cmp, const uint64_t *a, const uint64_t *b, unsigned bits,
                            int sgn) {
    uint32_t r = 0;
    uint64_t wm = width_mask(bits);
#define CMP_LOOP(A, B, OP) \
    FOR_EACH_LANE(l, active) r |= (uint32_t)((A) OP (B)) << l
    if (sgn && (cmp == PTX_CMP_LT || cmp == PTX_CMP_LE || cmp == PTX_CMP_GT || cmp == PTX_CMP_GE)) {
        switch (cmp) {
        case PTX_CMP_LT: CMP_LOOP(sign_extend(a[l], bits), sign_extend(b[l], bits), <); break;
        case PTX_CMP_LE: CMP_LOOP(sign_extend(a[l], bits), sign_extend(b[l], bits), <=); break;
        case PTX_CMP_GT: CMP_LOOP(sign_extend(a[l], bits), sign_extend(b[l], bits), >); break;
        default: CMP_LOOP(sign_extend(a[l], bits), sign_extend(b[l], bits), >=); break;
        }
        return r;
    }
    switch (cmp) {
    case PTX_CMP_EQ: CMP_LOOP(a[l] & wm, b[l] & wm, ==); break;
    case PTX_CMP_NE: CMP_LOOP(a[l] & wm, b[l] & wm, !=); break;
    case PTX_CMP_LT: case PTX_CMP_LO: CMP_LOOP(a[l] & wm, b[l] & wm, <); break;
    case PTX_CMP_LE: case PTX_CMP_LS: CMP_LOOP(a[l] & wm, b[l] & wm, <=); break;
    case PTX_CMP_GT: case PTX_CMP_HI: CMP_LOOP(a[l] & wm, b[l] & wm, >); break;
    case PTX_CMP_GE: case PTX_CMP_HS: CMP_LOOP(a[l] & wm, b[l] & wm, >=); break;
    default: break;
    }
#undef CMP_LOOP
    return r;
}

static int compare_double(ptx_cmp cmp, double a, double b) {
    int un = isnan(a) || isnan(b);
    switch (cmp) {
    case PTX_CMP_EQ: return !un && a == b;
    case PTX_CMP_NE: return !un && a != b;
    case PTX_CMP_LT: return !un && a < b;
    case PTX_CMP_LE: return !un && a <= b;
    case PTX_CMP_GT: return !un && a > b;
    case PTX_CMP_GE: return !un && a >= b;
    case PTX_CMP_EQU: return un || a == b;
    case PTX_CMP_NEU: return un || a != b;
    case PTX_CMP_LTU: return un || a < b;
    case PTX_CMP_LEU: return un || a <= b;
    case PTX_CMP_GTU: return un || a > b;
    case PTX_CMP_GEU: return un || a >= b;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return 0;
    }
}

/* Value of lane operand v as a double, for float compare types. */
static double as_double(ptx_type t, uint64_t v, int ftz) {
    switch (t) {
    case PTX_T_F32: {
        float f = f32_from_bits(v);
        return ftz ? ftz32(f) : f;
    }
    case PTX_T_F64: return f64_from_bits(v);
    case PTX_T_BF16: return small_to_double((uint32_t)v & 0xffff, &FMT_BF16);
    default: return small_to_double((uint32_t)v & 0xffff, &FMT_F16);
    }
}

/* (a cmp b) as a lane mask for any type; *ok = 0 for types we do not compare. */
static uint32_t compare(exec_ctx *x, ptx_type t, ptx_cmp cmp, const uint64_t *a, const uint64_t *b, int *ok) {
    *ok = 1;
    if (!type_float(t)) {
        unsigned bits = type_bits(t);
        if (bits == 0 || bits > 64) { *ok = 0; return 0; }
        return compare_int(x->active, cmp, a, b, bits, type_signed(t));
    }
    if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) { *ok = 0; return 0; }
    int ftz = (x->in->flags & PTX_F_FTZ) != 0;
    uint32_t r = 0;
    FOR_EACH_LANE(l, x->active) r |= (uint32_t)compare_double(cmp, as_double(t, a[l], ftz), as_double(t, b[l], ftz)) << l;
    return r;
}

static uint32_t combine(ptx_boolop op, uint32_t v, uint32_t c) {
    switch (op) {
    case PTX_BOOL_AND: return v & c;
    case PTX_BOOL_OR: return v | c;
    case PTX_BOOL_XOR: return v ^ c;
    default: return v;
    }
}

static int setp(exec_ctx *x) {
    const ptx_insn *in = x->in;
    unsigned nd = in->ndst ? in->ndst : 1;
    if (in->nopnd < nd + 2) return exec_unsupported(x);
    int ok;
    uint32_t v = compare(x, (ptx_type)in->type, (ptx_cmp)in->cmp, exec_src(x, nd), exec_src(x, nd + 1), &ok);
    if (!ok) return exec_unsupported(x);
    uint32_t c = (in->boolop && in->nopnd > nd + 2) ? exec_pred_src(x, &in->opnd[nd + 2]) : 0;
    exec_pred_write(x, &in->opnd[0], combine((ptx_boolop)in->boolop, v, c));
    if (nd > 1) exec_pred_write(x, &in->opnd[1], combine((ptx_boolop)in->boolop, ~v, c));
    return 0;
}

/* set.cmp.dtype.stype d, a, b: all ones / 1.0f when true, 0 when false.
 * type is the destination type, type2 the compared type. */
static int set(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 3) return exec_unsupported(x);
    ptx_type st = in->type2 ? (ptx_type)in->type2 : (ptx_type)in->type;
    int ok;
    uint32_t v = compare(x, st, (ptx_cmp)in->cmp, exec_src(x, 1), exec_src(x, 2), &ok);
    if (!ok) return exec_unsupported(x);
    if (in->boolop && in->nopnd > 3) v = combine((ptx_boolop)in->boolop, v, exec_pred_src(x, &in->opnd[3]));
    uint64_t *d = exec_dst(x, 0);
    if (!d) return 0;
    uint64_t t = in->type == PTX_T_F32 ? 0x3f800000u : 0xffffffffu;
    FOR_EACH_LANE(l, x->active) d[l] = ((v >> l) & 1) ? t : 0;
    return 0;
}

static int selp(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 4) return exec_unsupported(x);
    uint64_t *d = exec_dst(x, 0);
    const uint64_t *a = exec_src(x, 1), *b = exec_src(x, 2);
    uint32_t c = exec_pred_src(x, &in->opnd[3]);
    uint64_t wm = width_mask(type_bits((ptx_type)in->type));
    if (!d) return 0;
    FOR_EACH_LANE(l, x->active) d[l] = (((c >> l) & 1) ? a[l] : b[l]) & wm;
    return 0;
}

/* slct.dtype.ctype d, a, b, c: d = (c >= 0) ? a : b; an f32 c of -0 counts as >= 0,
 * NaN as false. */
static int slct(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 4) return exec_unsupported(x);
    uint64_t *d = exec_dst(x, 0);
    const uint64_t *a = exec_src(x, 1), *b = exec_src(x, 2), *c = exec_src(x, 3);
    uint64_t wm = width_mask(type_bits((ptx_type)in->type));
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    if (!d) return 0;
    FOR_EACH_LANE(l, x->active) {
        int ge;
        if (in->type2 == PTX_T_F32) {
            float f = f32_from_bits(c[l]);
            if (ftz) f = ftz32(f);
            ge = f >= 0.0f;
        } else {
            ge = (int32_t)(uint32_t)c[l] >= 0;
        }
        d[l] = (ge ? a[l] : b[l]) & wm;
    }
    return 0;
}

static int testp(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1);
    uint32_t r = 0;
    FOR_EACH_LANE(l, x->active) {
        double v = in->type == PTX_T_F64 ? f64_from_bits(a[l]) : (double)f32_from_bits(a[l]);
        int cls = in->type == PTX_T_F64 ? fpclassify(v) : fpclassify(f32_from_bits(a[l]));
        int t;
        switch ((ptx_testpmode)in->mode) {
        case PTX_TESTP_FINITE: t = isfinite(v); break;
        case PTX_TESTP_INFINITE: t = isinf(v); break;
        case PTX_TESTP_NUMBER: t = !isnan(v); break;
        case PTX_TESTP_NOTANUMBER: t = isnan(v); break;
        case PTX_TESTP_NORMAL: t = cls == FP_NORMAL; break;
        case PTX_TESTP_SUBNORMAL: t = cls == FP_SUBNORMAL; break;
        default: return exec_unsupported(x);
        }
        r |= (uint32_t)(t != 0) << l;
    }
    exec_pred_write(x, &in->opnd[0], r);
    return 0;
}

int exec_compare(exec_ctx *x) {
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_SETP: return setp(x);
    case PTX_OP_SET: return set(x);
    case PTX_OP_SELP: return selp(x);
    case PTX_OP_SLCT: return slct(x);
    case PTX_OP_TESTP: return testp(x);
    default: return exec_unsupported(x);
    }
}
