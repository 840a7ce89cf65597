/* Comparisons and selection: setp, set, selp, slct, testp.
 *
 * Float comparisons follow PTX: the plain forms (eq, ne, lt, ...) are false when an
 * operand is NaN, the u-forms (equ, neu, ...) are true; num/nan test for NaN.
 * Integer lt/le/gt/ge use the type's signedness, lo/ls/hi/hs are unsigned. */
#include "exec/float_util.h"

/* r |= (EXPR, a truth value of lane l) << l over the active lanes.  With most
 * lanes active, evaluating all 32 in a counted loop and masking the result is
 * cheaper than visiting the set bits one by one (reading an inactive lane's
 * register row is harmless: rows always hold 32 lanes, and EXPR has no side
 * effects).  Needs `active`, `dense` and `r` in scope. */
#define MASK_LOOP(EXPR)                                                       \
    do {                                                                      \
        if (dense) {                                                          \
            for (uint32_t l = 0; l < LANES; l++) r |= (uint32_t)(EXPR) << l;  \
            r &= active;                                                      \
        } else {                                                              \
            FOR_EACH_LANE(l, active) r |= (uint32_t)(EXPR) << l;              \
        }                                                                     \
    } while (0)

static int dense_mask(uint32_t active) { return active == FULL_MASK || popc32(active) >= 16; }

/* Lane mask of (a cmp b) over the active lanes, integer types.  SX and UX read
 * a lane's value signed and unsigned: sign_extend / width-masked in general,
 * plain 32-bit casts (the same values) for 32-bit types, the common case. */
#define INT_COMPARE(SX, UX)                                                                  \
    switch (cmp) {                                                                           \
    case PTX_CMP_EQ: MASK_LOOP(UX(a[l]) == UX(b[l])); break;                                 \
    case PTX_CMP_NE: MASK_LOOP(UX(a[l]) != UX(b[l])); break;                                 \
    case PTX_CMP_LT:                                                                         \
        if (sgn) MASK_LOOP(SX(a[l]) < SX(b[l]));                                             \
        else MASK_LOOP(UX(a[l]) < UX(b[l]));                                                 \
        break;                                                                               \
    case PTX_CMP_LE:                                                                         \
        if (sgn) MASK_LOOP(SX(a[l]) <= SX(b[l]));                                            \
        else MASK_LOOP(UX(a[l]) <= UX(b[l]));                                                \
        break;                                                                               \
    case PTX_CMP_GT:                                                                         \
        if (sgn) MASK_LOOP(SX(a[l]) > SX(b[l]));                                             \
        else MASK_LOOP(UX(a[l]) > UX(b[l]));                                                 \
        break;                                                                               \
    case PTX_CMP_GE:                                                                         \
        if (sgn) MASK_LOOP(SX(a[l]) >= SX(b[l]));                                            \
        else MASK_LOOP(UX(a[l]) >= UX(b[l]));                                                \
        break;                                                                               \
    case PTX_CMP_LO: MASK_LOOP(UX(a[l]) < UX(b[l])); break;                                  \
    case PTX_CMP_LS: MASK_LOOP(UX(a[l]) <= UX(b[l])); break;                                 \
    case PTX_CMP_HI: MASK_LOOP(UX(a[l]) > UX(b[l])); break;                                  \
    case PTX_CMP_HS: MASK_LOOP(UX(a[l]) >= UX(b[l])); break;                                 \
    default: break;                                                                          \
    }

static uint32_t compare_int(uint32_t active, ptx_cmp cmp, const uint64_t *a, const uint64_t *b, unsigned bits,
                            int sgn) {
    uint32_t r = 0;
    uint64_t wm = width_mask(bits);
    int dense = dense_mask(active);
#define SX_ANY(v) sign_extend((v), bits)
#define UX_ANY(v) ((v) & wm)
#define SX_32(v) ((int32_t)(uint32_t)(v))
#define UX_32(v) ((uint32_t)(v))
    if (bits == 32) {
        INT_COMPARE(SX_32, UX_32)
    } else {
        INT_COMPARE(SX_ANY, UX_ANY)
    }
#undef SX_ANY
#undef UX_ANY
#undef SX_32
#undef UX_32
    return r;
}

static inline float f32_lane(uint64_t v, int ftz) {
    float f = f32_from_bits(v);
    return ftz ? ftz32(f) : f;
}

/* compare_double's answers for f32 operands, with the comparison chosen once per
 * instruction instead of once per lane.  A float widens to double exactly, so
 * comparing the floats gives the same answers; the NaN rules are spelled with
 * C's own (a NaN operand makes <, <=, >, >=, == false and != true). */
static uint32_t compare_f32(uint32_t active, ptx_cmp cmp, const uint64_t *a, const uint64_t *b, int ftz) {
    uint32_t r = 0;
    int dense = dense_mask(active);
#define FA f32_lane(a[l], ftz)
#define FB f32_lane(b[l], ftz)
    switch (cmp) {
    case PTX_CMP_EQ: MASK_LOOP(FA == FB); break;
    case PTX_CMP_NE: MASK_LOOP((int)(FA < FB) | (int)(FA > FB)); break;
    case PTX_CMP_LT: MASK_LOOP(FA < FB); break;
    case PTX_CMP_LE: MASK_LOOP(FA <= FB); break;
    case PTX_CMP_GT: MASK_LOOP(FA > FB); break;
    case PTX_CMP_GE: MASK_LOOP(FA >= FB); break;
    case PTX_CMP_EQU: MASK_LOOP(!((int)(FA < FB) | (int)(FA > FB))); break;
    case PTX_CMP_NEU: MASK_LOOP(FA != FB); break;
    case PTX_CMP_LTU: MASK_LOOP(!(FA >= FB)); break;
    case PTX_CMP_LEU: MASK_LOOP(!(FA > FB)); break;
    case PTX_CMP_GTU: MASK_LOOP(!(FA <= FB)); break;
    case PTX_CMP_GEU: MASK_LOOP(!(FA < FB)); break;
    case PTX_CMP_NUM: MASK_LOOP((int)(FA == FA) & (int)(FB == FB)); break;
    case PTX_CMP_NAN: MASK_LOOP((int)(FA != FA) | (int)(FB != FB)); break;
    default: break;
    }
#undef FA
#undef FB
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
    if (t == PTX_T_F32) return compare_f32(x->active, cmp, a, b, ftz);
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
