/* Floating-point helpers shared by alu_float.c, cvt.c, compare.c and atomic.c:
 * rounding-mode scoping, flush-to-zero, NVIDIA's canonical NaN, and exact software
 * rounding to the 16-bit formats (f16, bf16). */
#ifndef LOCSIM_EXEC_FLOAT_UTIL_H
#define LOCSIM_EXEC_FLOAT_UTIL_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>

#include "exec/exec_internal.h"

#define CANON_NAN32 0x7fffffffu
#define CANON_NAN64 0x7fffffffffffffffull
#define CANON_NAN16 0x7fffu

/* Directed rounding: every operation computed between round_begin and round_end
 * rounds in that mode.  The operands are loaded from memory after fesetround (an
 * opaque call) and results stored before the second one, so the compiler cannot
 * move the arithmetic out of the scope (the build uses -ffp-contract=off).
 * Returns the mode to restore, or -1 when nothing was changed (round to nearest). */
static inline int fp_mode_of(ptx_rnd r) {
    switch (r) {
    case PTX_RND_RZ: case PTX_RND_RZI: return FE_TOWARDZERO;
    case PTX_RND_RM: case PTX_RND_RMI: return FE_DOWNWARD;
    case PTX_RND_RP: case PTX_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}
static inline int round_begin(ptx_rnd r) {
    int m = fp_mode_of(r);
    if (m == FE_TONEAREST) return -1;
    int old = fegetround();
    fesetround(m);
    return old;
}
static inline void round_end(int old) {
    if (old >= 0) fesetround(old);
}

static inline float ftz32(float f) {
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}
static inline double ftz64(double d) {
    return fpclassify(d) == FP_SUBNORMAL ? copysign(0.0, d) : d;
}
static inline float sat32(float f) {
    if (isnan(f)) return 0.0f;
    return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}
static inline double sat64(double d) {
    if (isnan(d)) return 0.0;
    return d < 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
}
static inline uint64_t canon32(float f) { return isnan(f) ? CANON_NAN32 : f32_bits(f); }
static inline uint64_t canon64(double d) { return isnan(d) ? CANON_NAN64 : f64_bits(d); }

/* ---- 16-bit formats ---- */
typedef struct {
    unsigned mant_bits;   /* stored fraction bits */
    int bias, emin, emax; /* emin: exponent of the smallest normal */
} small_fmt;

static const small_fmt FMT_F16 = {10, 15, -14, 15};
static const small_fmt FMT_BF16 = {7, 127, -126, 127};

static inline double small_to_double(uint32_t h, const small_fmt *f) {
    unsigned exp_bits = 15 - f->mant_bits;
    uint32_t sign = (h >> 15) & 1, e = (h >> f->mant_bits) & ((1u << exp_bits) - 1);
    uint32_t m = h & ((1u << f->mant_bits) - 1);
    double v;
    if (e == (1u << exp_bits) - 1) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)m, f->emin - (int)f->mant_bits);
    else v = ldexp((double)(m | (1u << f->mant_bits)), (int)e - f->bias - (int)f->mant_bits);
    return sign ? -v : v;
}

/* Round a double to the 16-bit format in mode r (RN ties to even).  Exact: the
 * double is split into an integer count of the target's quanta and a fraction. */
static inline uint32_t double_to_small(double v, ptx_rnd r, const small_fmt *f) {
    unsigned exp_bits = 15 - f->mant_bits;
    uint32_t exp_all = (1u << exp_bits) - 1, sign = signbit(v) ? 0x8000u : 0;
    uint32_t inf = sign | (exp_all << f->mant_bits), maxfin = sign | ((exp_all << f->mant_bits) - 1);
    if (isnan(v)) return CANON_NAN16;
    if (isinf(v)) return inf;
    double a = fabs(v);
    if (a == 0.0) return sign;
    int ex;
    frexp(a, &ex);
    int e = ex - 1;
    if (e < f->emin) e = f->emin;
    int mode = fp_mode_of(r);
    int up_on_inexact = (mode == FE_UPWARD && !sign) || (mode == FE_DOWNWARD && sign);
    if (e > f->emax) /* overflow */
        return (mode == FE_TONEAREST || up_on_inexact) ? inf : maxfin;
    double scaled = ldexp(a, (int)f->mant_bits - e);
    double n = floor(scaled), frac = scaled - n;
    if (mode == FE_TONEAREST) {
        if (frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0.0)) n += 1.0;
    } else if (up_on_inexact && frac > 0.0) {
        n += 1.0;
    }
    uint64_t q = (uint64_t)n;
    if (q >= (2ull << f->mant_bits)) { /* rounded up into the next binade */
        q >>= 1;
        e++;
        if (e > f->emax) return (mode == FE_TONEAREST || up_on_inexact) ? inf : maxfin;
    }
    if (q < (1ull << f->mant_bits)) return sign | (uint32_t)q; /* subnormal (e == emin) */
    return sign | ((uint32_t)(e + f->bias) << f->mant_bits) | (uint32_t)(q - (1ull << f->mant_bits));
}

static inline int small_is_subnormal(uint32_t h, const small_fmt *f) {
    return ((h >> f->mant_bits) & ((1u << (15 - f->mant_bits)) - 1)) == 0 && (h & ((1u << f->mant_bits) - 1)) != 0;
}

#endif
