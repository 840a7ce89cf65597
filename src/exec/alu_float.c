/* Floating-point arithmetic, exact IEEE where PTX is exact.
 *
 * f32/f64 add, sub, mul, fma, div, sqrt and rcp with .rn/.rz/.rm/.rp are computed
 * by the host's IEEE unit in the requested mode (fma/fmaf are correctly rounded).
 * .ftz flushes subnormal f32 inputs and results to sign-preserving zero; .sat clamps
 * to [0, 1] with NaN -> 0; a NaN result becomes NVIDIA's canonical NaN
 * (0x7fffffff, 0x7fffffffffffffff).  abs, neg and copysign are sign-bit operations
 * (a NaN keeps its payload).  min/max return the non-NaN operand (both NaN ->
 * canonical NaN; .NaN propagates) and order -0 below +0.
 *
 * Approximate operations (.approx: rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh,
 * div.approx/div.full) are computed in double and rounded to the result type once.
 * That is at least as accurate as the hardware (which allows up to a few ulp, or an
 * absolute error for sin/cos), so results may differ from a GPU in the last bits.
 *
 * f16/bf16 (and their x2 pairs): add, sub, mul, fma, neg, abs, min, max, computed
 * exactly (round-to-odd in double, then one rounding to the 16-bit format).
 */
#include "exec/float_util.h"

typedef struct {
    uint64_t *d;
    const uint64_t *a, *b, *c;
    uint32_t flags;
    int ftz, sat;
} fargs;

/* ---- f32 ---- */
static inline float in32(const fargs *g, uint64_t v) {
    float f = f32_from_bits(v);
    return g->ftz ? ftz32(f) : f;
}
static inline uint64_t out32(const fargs *g, float r) {
    if (g->ftz) r = ftz32(r);
    if (g->sat) r = sat32(r);
    return canon32(r);
}

static float min_f32(float a, float b, int nan_prop) {
    if (isnan(a) || isnan(b)) return (nan_prop || (isnan(a) && isnan(b))) ? NAN : isnan(a) ? b : a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static float max_f32(float a, float b, int nan_prop) {
    if (isnan(a) || isnan(b)) return (nan_prop || (isnan(a) && isnan(b))) ? NAN : isnan(a) ? b : a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

#define F32_LOOP(expr)                                                  \
    FOR_EACH_LANE(l, x->active) {                                       \
        float fa = in32(g, g->a[l]);                                    \
        (void)fa;                                                       \
        g->d[l] = out32(g, (expr));                                     \
    }
#define F32_LOOP2(expr)                                                 \
    FOR_EACH_LANE(l, x->active) {                                       \
        float fa = in32(g, g->a[l]), fb = in32(g, g->b[l]);             \
        g->d[l] = out32(g, (expr));                                     \
    }

static int f32_approx(exec_ctx *x, fargs *g) {
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_RCP: F32_LOOP((float)(1.0 / (double)fa)); break;
    case PTX_OP_SQRT: F32_LOOP(sqrtf(fa)); break;
    case PTX_OP_RSQRT: F32_LOOP((float)(1.0 / sqrt((double)fa))); break;
    case PTX_OP_SIN: F32_LOOP((float)sin((double)fa)); break;
    case PTX_OP_COS: F32_LOOP((float)cos((double)fa)); break;
    case PTX_OP_LG2: F32_LOOP((float)log2((double)fa)); break;
    case PTX_OP_EX2: F32_LOOP((float)exp2((double)fa)); break;
    case PTX_OP_TANH: F32_LOOP((float)tanh((double)fa)); break;
    case PTX_OP_DIV: F32_LOOP2((float)((double)fa / (double)fb)); break;
    default: return exec_unsupported(x);
    }
    return 0;
}

/* add/sub/mul/fma without .ftz/.sat: the bulk of f32 work, kept free of per-lane
 * flag tests. */
static int f32_plain(exec_ctx *x, fargs *g) {
    uint64_t *d = g->d;
    const uint64_t *a = g->a, *b = g->b, *c = g->c;
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_ADD: FOR_EACH_LANE(l, x->active) d[l] = canon32(f32_from_bits(a[l]) + f32_from_bits(b[l])); return 1;
    case PTX_OP_SUB: FOR_EACH_LANE(l, x->active) d[l] = canon32(f32_from_bits(a[l]) - f32_from_bits(b[l])); return 1;
    case PTX_OP_MUL: FOR_EACH_LANE(l, x->active) d[l] = canon32(f32_from_bits(a[l]) * f32_from_bits(b[l])); return 1;
    case PTX_OP_MAD:
    case PTX_OP_FMA:
        FOR_EACH_LANE(l, x->active) d[l] = canon32(fmaf(f32_from_bits(a[l]), f32_from_bits(b[l]), f32_from_bits(c[l])));
        return 1;
    default: return 0;
    }
}

static int f32_exact(exec_ctx *x, fargs *g) {
    int nanp = (g->flags & PTX_F_NAN) != 0;
    if (!g->ftz && !g->sat && f32_plain(x, g)) return 0;
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_ADD: F32_LOOP2(fa + fb); break;
    case PTX_OP_SUB: F32_LOOP2(fa - fb); break;
    case PTX_OP_MUL: F32_LOOP2(fa * fb); break;
    case PTX_OP_DIV: F32_LOOP2(fa / fb); break;
    case PTX_OP_MIN: F32_LOOP2(min_f32(fa, fb, nanp)); break;
    case PTX_OP_MAX: F32_LOOP2(max_f32(fa, fb, nanp)); break;
    case PTX_OP_MAD:
    case PTX_OP_FMA:
        FOR_EACH_LANE(l, x->active) {
            g->d[l] = out32(g, fmaf(in32(g, g->a[l]), in32(g, g->b[l]), in32(g, g->c[l])));
        }
        break;
    case PTX_OP_RCP: F32_LOOP(1.0f / fa); break;
    case PTX_OP_SQRT: F32_LOOP(sqrtf(fa)); break;
    default: return exec_unsupported(x);
    }
    return 0;
}

/* Sign-bit operations: no rounding, no canonical NaN. */
static int f32_bitwise(exec_ctx *x, fargs *g) {
    FOR_EACH_LANE(l, x->active) {
        uint64_t a = g->ftz ? f32_bits(ftz32(f32_from_bits(g->a[l]))) : g->a[l] & 0xffffffffu;
        switch ((ptx_opcode)x->in->op) {
        case PTX_OP_ABS: g->d[l] = a & 0x7fffffffu; break;
        case PTX_OP_NEG: g->d[l] = a ^ 0x80000000u; break;
        default: /* COPYSIGN d, a, b: b's magnitude with a's sign */
            g->d[l] = (g->b[l] & 0x7fffffffu) | (a & 0x80000000u);
            break;
        }
    }
    return 0;
}

static int f32_ops(exec_ctx *x, fargs *g) {
    ptx_opcode op = (ptx_opcode)x->in->op;
    if (op == PTX_OP_ABS || op == PTX_OP_NEG || op == PTX_OP_COPYSIGN) return f32_bitwise(x, g);
    int approx = (g->flags & PTX_F_APPROX) || op == PTX_OP_RSQRT || op == PTX_OP_SIN || op == PTX_OP_COS ||
                 op == PTX_OP_LG2 || op == PTX_OP_EX2 || op == PTX_OP_TANH;
    if (approx) return f32_approx(x, g);
    int old = round_begin((ptx_rnd)x->in->rnd);
    int r = f32_exact(x, g);
    round_end(old);
    return r;
}

/* ---- f64 ---- */
static inline uint64_t out64(const fargs *g, double r) {
    if (g->ftz) r = ftz64(r);
    if (g->sat) r = sat64(r);
    return canon64(r);
}
static inline double in64(const fargs *g, uint64_t v) {
    double d = f64_from_bits(v);
    return g->ftz ? ftz64(d) : d;
}

#define F64_LOOP(expr)                                                    \
    FOR_EACH_LANE(l, x->active) {                                         \
        double fa = in64(g, g->a[l]);                                     \
        g->d[l] = out64(g, (expr));                                       \
    }
#define F64_LOOP2(expr)                                                   \
    FOR_EACH_LANE(l, x->active) {                                         \
        double fa = in64(g, g->a[l]), fb = in64(g, g->b[l]);              \
        g->d[l] = out64(g, (expr));                                       \
    }

static double min_f64(double a, double b, int nan_prop) {
    if (isnan(a) || isnan(b)) return (nan_prop || (isnan(a) && isnan(b))) ? NAN : isnan(a) ? b : a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static double max_f64(double a, double b, int nan_prop) {
    if (isnan(a) || isnan(b)) return (nan_prop || (isnan(a) && isnan(b))) ? NAN : isnan(a) ? b : a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

static int f64_ops(exec_ctx *x, fargs *g) {
    ptx_opcode op = (ptx_opcode)x->in->op;
    int nanp = (g->flags & PTX_F_NAN) != 0;
    if (op == PTX_OP_ABS || op == PTX_OP_NEG || op == PTX_OP_COPYSIGN) {
        FOR_EACH_LANE(l, x->active) {
            uint64_t a = g->ftz ? f64_bits(ftz64(f64_from_bits(g->a[l]))) : g->a[l];
            if (op == PTX_OP_ABS) g->d[l] = a & ~(1ull << 63);
            else if (op == PTX_OP_NEG) g->d[l] = a ^ (1ull << 63);
            else g->d[l] = (g->b[l] & ~(1ull << 63)) | (a & (1ull << 63));
        }
        return 0;
    }
    int old = round_begin((ptx_rnd)x->in->rnd);
    int rc = 0;
    if (!g->ftz && !g->sat && (op == PTX_OP_FMA || op == PTX_OP_MAD)) {
        FOR_EACH_LANE(l, x->active)
            g->d[l] = canon64(fma(f64_from_bits(g->a[l]), f64_from_bits(g->b[l]), f64_from_bits(g->c[l])));
        round_end(old);
        return 0;
    }
    switch (op) {
    case PTX_OP_ADD: F64_LOOP2(fa + fb); break;
    case PTX_OP_SUB: F64_LOOP2(fa - fb); break;
    case PTX_OP_MUL: F64_LOOP2(fa * fb); break;
    case PTX_OP_DIV: F64_LOOP2(fa / fb); break;
    case PTX_OP_MIN: F64_LOOP2(min_f64(fa, fb, nanp)); break;
    case PTX_OP_MAX: F64_LOOP2(max_f64(fa, fb, nanp)); break;
    case PTX_OP_MAD:
    case PTX_OP_FMA:
        FOR_EACH_LANE(l, x->active) {
            g->d[l] = out64(g, fma(in64(g, g->a[l]), in64(g, g->b[l]), in64(g, g->c[l])));
        }
        break;
    case PTX_OP_RCP: F64_LOOP(1.0 / fa); break;     /* .rn exact; .approx.ftz: exact too (see top) */
    case PTX_OP_SQRT: F64_LOOP(sqrt(fa)); break;
    case PTX_OP_RSQRT: F64_LOOP(1.0 / sqrt(fa)); break;
    default: rc = exec_unsupported(x); break;
    }
    round_end(old);
    return rc;
}

/* ---- f16 / bf16 (scalar or x2 pairs) ---- */
/* fma/add/mul in double rounded toward zero with the inexact flag ORed into the
 * last bit ("round to odd"): the double keeps > 2 extra bits over the 16-bit format,
 * so the single final rounding is correct. */
static double round_to_odd(double a, double b, double c, int which) {
    int old = fegetround();
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double va = a, vb = b, vc = c;
    volatile double r;
    switch (which) {
    case 0: r = va + vb; break;
    case 1: r = va - vb; break;
    case 2: r = va * vb; break;
    default: r = fma(va, vb, vc); break;
    }
    int inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(old);
    double out = r;
    if (inexact && isfinite(out)) {
        uint64_t bits = f64_bits(out) | 1;
        out = f64_from_bits(bits);
    }
    return out;
}

static uint32_t half_op(ptx_opcode op, uint32_t ha, uint32_t hb, uint32_t hc, const small_fmt *f, const fargs *g,
                        ptx_rnd rnd) {
    if (g->ftz) {
        if (small_is_subnormal(ha, f)) ha &= 0x8000;
        if (small_is_subnormal(hb, f)) hb &= 0x8000;
        if (small_is_subnormal(hc, f)) hc &= 0x8000;
    }
    double a = small_to_double(ha, f), b = small_to_double(hb, f), c = small_to_double(hc, f), r;
    int nanp = (g->flags & PTX_F_NAN) != 0;
    switch (op) {
    case PTX_OP_ADD: r = round_to_odd(a, b, 0, 0); break;
    case PTX_OP_SUB: r = round_to_odd(a, b, 0, 1); break;
    case PTX_OP_MUL: r = round_to_odd(a, b, 0, 2); break;
    case PTX_OP_FMA: case PTX_OP_MAD: r = round_to_odd(a, b, c, 3); break;
    case PTX_OP_NEG: return ha ^ 0x8000;
    case PTX_OP_ABS: return ha & 0x7fff;
    case PTX_OP_MIN: r = min_f64(a, b, nanp); break;
    case PTX_OP_MAX: r = max_f64(a, b, nanp); break;
    default: return CANON_NAN16;
    }
    if (g->sat) r = sat64(r);
    uint32_t h = double_to_small(r, rnd, f);
    if (g->ftz && small_is_subnormal(h, f)) h &= 0x8000;
    return h;
}

static int half_ops(exec_ctx *x, fargs *g) {
    ptx_type t = (ptx_type)x->in->type;
    ptx_opcode op = (ptx_opcode)x->in->op;
    const small_fmt *f = (t == PTX_T_BF16 || t == PTX_T_BF16X2) ? &FMT_BF16 : &FMT_F16;
    int pairs = (t == PTX_T_F16X2 || t == PTX_T_BF16X2) ? 2 : 1;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD:
    case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_MIN: case PTX_OP_MAX: break;
    default: return exec_unsupported(x);
    }
    ptx_rnd rnd = x->in->rnd ? (ptx_rnd)x->in->rnd : PTX_RND_RN;
    FOR_EACH_LANE(l, x->active) {
        uint64_t r = 0;
        for (int p = 0; p < pairs; p++) {
            unsigned sh = 16u * (unsigned)p;
            uint32_t ha = (uint32_t)(g->a[l] >> sh) & 0xffff;
            uint32_t hb = g->b ? (uint32_t)(g->b[l] >> sh) & 0xffff : 0;
            uint32_t hc = g->c ? (uint32_t)(g->c[l] >> sh) & 0xffff : 0;
            r |= (uint64_t)half_op(op, ha, hb, hc, f, g, rnd) << sh;
        }
        g->d[l] = r;
    }
    return 0;
}

int exec_alu_float(exec_ctx *x) {
    const ptx_insn *in = x->in;
    fargs g;
    uint64_t sink[LANES];
    g.d = exec_dst(x, 0);
    if (!g.d) g.d = sink;
    g.a = in->nopnd > 1 ? exec_src(x, 1) : NULL;
    g.b = in->nopnd > 2 ? exec_src(x, 2) : NULL;
    g.c = in->nopnd > 3 ? exec_src(x, 3) : NULL;
    g.flags = in->flags;
    g.ftz = (in->flags & PTX_F_FTZ) != 0;
    g.sat = (in->flags & PTX_F_SAT) != 0;
    if (!g.a) return exec_unsupported(x);
    ptx_opcode op = (ptx_opcode)in->op;
    int binary = op == PTX_OP_ADD || op == PTX_OP_SUB || op == PTX_OP_MUL || op == PTX_OP_DIV ||
                 op == PTX_OP_MIN || op == PTX_OP_MAX || op == PTX_OP_COPYSIGN;
    if ((binary && !g.b) || ((op == PTX_OP_FMA || op == PTX_OP_MAD) && !g.c)) return exec_unsupported(x);
    switch ((ptx_type)in->type) {
    case PTX_T_F32: return f32_ops(x, &g);
    case PTX_T_F64: return f64_ops(x, &g);
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2: return half_ops(x, &g);
    default: return exec_unsupported(x);
    }
}
