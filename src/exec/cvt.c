/* cvt: every integer width, int <-> float with each rounding mode, float <-> float
 * (f16, bf16, f32, f64), .sat, .ftz, .relu.
 *
 * Float -> integer saturates to the destination range and NaN gives 0 (as PTX
 * defines; never C's undefined conversion).  A signed integer result is
 * sign-extended to the width of the destination register (relaxed type rules),
 * an unsigned one zero-extended.  type is the destination type, type2 the source.
 */
#include "exec/float_util.h"

static int is_int(ptx_type t) { return !type_float(t) && t != PTX_T_PRED && type_bits(t) > 0 && type_bits(t) <= 64; }

/* Store an integer result of dtype into the destination register. */
static uint64_t int_result(uint64_t v, ptx_type dt, unsigned dst_bits) {
    unsigned b = type_bits(dt);
    if (type_signed(dt) && dst_bits > b) return (uint64_t)sign_extend(v, b) & width_mask(dst_bits);
    return v & width_mask(b);
}

static uint64_t sat_int(int64_t sv, uint64_t uv, int src_signed, ptx_type dt) {
    unsigned b = type_bits(dt);
    if (type_signed(dt)) {
        int64_t hi = (int64_t)(width_mask(b) >> 1), lo = -hi - 1;
        if (src_signed) return (uint64_t)(sv > hi ? hi : sv < lo ? lo : sv);
        return uv > (uint64_t)hi ? (uint64_t)hi : uv;
    }
    uint64_t hi = width_mask(b);
    if (src_signed) return sv < 0 ? 0 : ((uint64_t)sv > hi ? hi : (uint64_t)sv);
    return uv > hi ? hi : uv;
}

/* A 64-bit integer as a double that rounds correctly to any format of <= 51 bits:
 * beyond 53 significant bits the dropped bits are ORed into the last kept one. */
static double int_to_double_sticky(int64_t sv, uint64_t uv, int sgn) {
    int neg = sgn && sv < 0;
    uint64_t mag = sgn ? (neg ? 0 - (uint64_t)sv : (uint64_t)sv) : uv;
    int k = 0;
    if (mag >> 53) {
        k = 64 - __builtin_clzll(mag) - 53;
        uint64_t lost = mag & ((1ull << k) - 1);
        mag = (mag >> k) | (lost != 0);
    }
    double d = ldexp((double)mag, k);
    return neg ? -d : d;
}

static double round_integral(double v, ptx_rnd r) {
    switch (r) {
    case PTX_RND_RNI: return nearbyint(v); /* default mode: ties to even */
    case PTX_RND_RZI: return trunc(v);
    case PTX_RND_RMI: return floor(v);
    case PTX_RND_RPI: return ceil(v);
    default: return v;
    }
}
static float round_integral_f(float v, ptx_rnd r) {
    switch (r) {
    case PTX_RND_RNI: return nearbyintf(v);
    case PTX_RND_RZI: return truncf(v);
    case PTX_RND_RMI: return floorf(v);
    case PTX_RND_RPI: return ceilf(v);
    default: return v;
    }
}

/* Float (as an exact double) -> integer type dt: round, saturate, NaN -> 0. */
static uint64_t float_to_int(double v, ptx_rnd r, ptx_type dt) {
    if (isnan(v)) return 0;
    v = round_integral(v, r ? r : PTX_RND_RZI);
    unsigned b = type_bits(dt);
    if (type_signed(dt)) {
        double lim = ldexp(1.0, (int)b - 1); /* 2^(b-1) */
        if (v >= lim) return width_mask(b) >> 1;
        if (v < -lim) return (uint64_t)(-(int64_t)(width_mask(b) >> 1) - 1);
        return (uint64_t)(int64_t)v;
    }
    if (v <= 0.0) return 0;
    if (v >= ldexp(1.0, (int)b)) return width_mask(b);
    return (uint64_t)v;
}

/* Source lane value of a float type as a double (exact), with .ftz for f32. */
static double float_src(ptx_type st, uint64_t v, int ftz) {
    switch (st) {
    case PTX_T_F32: {
        float f = f32_from_bits(v);
        return ftz ? ftz32(f) : f;
    }
    case PTX_T_F64: return f64_from_bits(v);
    case PTX_T_BF16: return small_to_double((uint32_t)v & 0xffff, &FMT_BF16);
    default: {
        uint32_t h = (uint32_t)v & 0xffff;
        if (ftz && small_is_subnormal(h, &FMT_F16)) h &= 0x8000;
        return small_to_double(h, &FMT_F16);
    }
    }
}

/* Round an exact double to float type dt in mode r (the value may come from an
 * integer via int_to_double_sticky, or from a float source). */
static uint64_t to_float(double v, ptx_type dt, ptx_rnd r, int ftz, int sat, int relu) {
    if (relu && !isnan(v) && v < 0) v = 0.0;
    if (sat) v = sat64(v);
    switch (dt) {
    case PTX_T_F64: return canon64(v);
    case PTX_T_F32: {
        int old = round_begin(r);
        volatile double vv = v;
        volatile float f = (float)vv;
        round_end(old);
        float out = f;
        if (ftz) out = ftz32(out);
        return canon32(out);
    }
    case PTX_T_BF16: return double_to_small(v, r ? r : PTX_RND_RN, &FMT_BF16);
    default: {
        uint32_t h = double_to_small(v, r ? r : PTX_RND_RN, &FMT_F16);
        if (ftz && small_is_subnormal(h, &FMT_F16)) h &= 0x8000;
        return h;
    }
    }
}

static int cvt_int_int(exec_ctx *x, uint64_t *d, const uint64_t *a, ptx_type dt, ptx_type st, unsigned dbits) {
    unsigned sb = type_bits(st);
    int ss = type_signed(st), sat = (x->in->flags & PTX_F_SAT) != 0;
    FOR_EACH_LANE(l, x->active) {
        int64_t sv = sign_extend(a[l], sb);
        uint64_t uv = a[l] & width_mask(sb);
        uint64_t v = sat ? sat_int(sv, uv, ss, dt) : (ss ? (uint64_t)sv : uv);
        d[l] = int_result(v, dt, dbits);
    }
    return 0;
}

/* Integer -> float.  f32/f64 destinations convert in the host's rounding mode
 * (exactly one rounding); 16-bit ones go through the sticky double. */
static int cvt_int_float(exec_ctx *x, uint64_t *d, const uint64_t *a, ptx_type dt, ptx_type st) {
    unsigned sb = type_bits(st);
    int ss = type_signed(st);
    ptx_rnd r = x->in->rnd ? (ptx_rnd)x->in->rnd : PTX_RND_RN;
    int ftz = (x->in->flags & PTX_F_FTZ) != 0, sat = (x->in->flags & PTX_F_SAT) != 0;
    if (dt == PTX_T_F32 || dt == PTX_T_F64) {
        int old = round_begin(r);
        FOR_EACH_LANE(l, x->active) {
            int64_t sv = sign_extend(a[l], sb);
            uint64_t uv = a[l] & width_mask(sb);
            if (dt == PTX_T_F32) {
                float f = ss ? (float)sv : (float)uv;
                if (sat) f = sat32(f);
                d[l] = f32_bits(ftz ? ftz32(f) : f);
            } else {
                double v = ss ? (double)sv : (double)uv;
                d[l] = f64_bits(sat ? sat64(v) : v);
            }
        }
        round_end(old);
        return 0;
    }
    FOR_EACH_LANE(l, x->active) {
        double v = int_to_double_sticky(sign_extend(a[l], sb), a[l] & width_mask(sb), ss);
        d[l] = to_float(v, dt, r, ftz, sat, 0);
    }
    return 0;
}

static int cvt_float_int(exec_ctx *x, uint64_t *d, const uint64_t *a, ptx_type dt, ptx_type st, unsigned dbits) {
    int ftz = (x->in->flags & PTX_F_FTZ) != 0;
    ptx_rnd r = (ptx_rnd)x->in->rnd;
    FOR_EACH_LANE(l, x->active) d[l] = int_result(float_to_int(float_src(st, a[l], ftz), r, dt), dt, dbits);
    return 0;
}

static int cvt_float_float(exec_ctx *x, uint64_t *d, const uint64_t *a, ptx_type dt, ptx_type st) {
    const ptx_insn *in = x->in;
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0, relu = (in->flags & PTX_F_RELU) != 0;
    ptx_rnd r = (ptx_rnd)in->rnd;
    int integral = r >= PTX_RND_RNI && r <= PTX_RND_RPI;
    if (dt == PTX_T_F32 && st == PTX_T_F32) { /* stays in float: rounding to integral, ftz, sat */
        FOR_EACH_LANE(l, x->active) {
            float f = f32_from_bits(a[l]);
            if (ftz) f = ftz32(f);
            if (integral) f = round_integral_f(f, r);
            if (sat) f = sat32(f);
            if (ftz) f = ftz32(f);
            d[l] = canon32(f);
        }
        return 0;
    }
    FOR_EACH_LANE(l, x->active) {
        double v = float_src(st, a[l], ftz);
        if (integral) v = round_integral(v, r);
        d[l] = to_float(v, dt, integral ? PTX_RND_RN : r, ftz, sat, relu);
    }
    return 0;
}

/* cvt.rn.f16x2.f32 d, a, b: a converted into the upper half, b into the lower. */
static int cvt_pack_x2(exec_ctx *x, uint64_t *d) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 3) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1), *b = exec_src(x, 2);
    ptx_type half = in->type == PTX_T_BF16X2 ? PTX_T_BF16 : PTX_T_F16;
    int relu = (in->flags & PTX_F_RELU) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    ptx_rnd r = in->rnd ? (ptx_rnd)in->rnd : PTX_RND_RN;
    FOR_EACH_LANE(l, x->active) {
        uint64_t hi = to_float(f32_from_bits(a[l]), half, r, 0, sat, relu);
        uint64_t lo = to_float(f32_from_bits(b[l]), half, r, 0, sat, relu);
        d[l] = (hi << 16) | lo;
    }
    return 0;
}

int exec_cvt(exec_ctx *x) {
    const ptx_insn *in = x->in;
    ptx_type dt = (ptx_type)in->type, st = in->type2 ? (ptx_type)in->type2 : dt;
    uint64_t sink[LANES];
    uint64_t *d = exec_dst(x, 0);
    if (!d) d = sink;
    if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && st == PTX_T_F32) return cvt_pack_x2(x, d);
    if (in->nopnd < 2) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1);
    unsigned dbits = in->opnd[0].kind == PTX_OPND_REG ? reg_bits(x, in->opnd[0].reg) : 64;
    int dfloat = type_float(dt), sfloat = type_float(st);
    if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2 || st == PTX_T_F16X2 || st == PTX_T_BF16X2) return exec_unsupported(x);
    if (!dfloat && !sfloat) {
        if (!is_int(dt) || !is_int(st)) return exec_unsupported(x);
        return cvt_int_int(x, d, a, dt, st, dbits);
    }
    if (dfloat && !sfloat) return is_int(st) ? cvt_int_float(x, d, a, dt, st) : exec_unsupported(x);
    if (!dfloat) return is_int(dt) ? cvt_float_int(x, d, a, dt, st, dbits) : exec_unsupported(x);
    return cvt_float_float(x, d, a, dt, st);
}
