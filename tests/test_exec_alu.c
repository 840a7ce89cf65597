/* Executor: arithmetic corner cases, one instruction per case.  Each case runs
 * `op d, a[, b[, c]]` on operands moved in as raw bits and compares the bits of the
 * result with the value worked out by hand (the working is in `why`). */
#include <math.h>

#include "test_exec_util.h"

typedef struct {
    const char *op;     /* the instruction, without operands */
    int dbits, sbits;   /* register widths: 16, 32, 64; dbits 1 = predicate result */
    int nsrc;
    const char *src[3]; /* source bits (hex) */
    uint64_t want;
    const char *why;
} alu_case;

static const char *reg_prefix(int bits) { return bits == 16 ? "%h" : bits == 64 ? "%rd" : "%r"; }

/* Build one kernel running every case, case i storing its result at out[i]. */
static void run_cases(const alu_case *c, size_t n) {
    size_t cap = 256 * n + 64, len = 0;
    char *body = malloc(cap);
    assert_non_null(body);
    body[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *sp = reg_prefix(c[i].sbits), *dp = reg_prefix(c[i].dbits == 1 ? 32 : c[i].dbits);
        for (int j = 0; j < c[i].nsrc; j++)
            len += (size_t)snprintf(body + len, cap - len, "  mov.b%d %s%d, %s;\n", c[i].sbits, sp, 2 + j, c[i].src[j]);
        if (c[i].dbits == 1) {
            len += (size_t)snprintf(body + len, cap - len, "  %s %%p1", c[i].op);
        } else {
            len += (size_t)snprintf(body + len, cap - len, "  %s %s1", c[i].op, dp);
        }
        for (int j = 0; j < c[i].nsrc; j++) len += (size_t)snprintf(body + len, cap - len, ", %s%d", sp, 2 + j);
        len += (size_t)snprintf(body + len, cap - len, ";\n");
        if (c[i].dbits == 1)
            len += (size_t)snprintf(body + len, cap - len, "  selp.u32 %%r1, 1, 0, %%p1;\n  st.global.b32 [%%rd0+%zu], %%r1;\n",
                                    8 * i);
        else
            len += (size_t)snprintf(body + len, cap - len, "  st.global.b%d [%%rd0+%zu], %s1;\n", c[i].dbits, 8 * i, dp);
    }
    uint64_t *out = calloc(n, 8);
    assert_non_null(out);
    xt_run_body(body, out, n * 8);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] != c[i].want) {
            fprintf(stderr, "case %zu: %s -> 0x%llx, want 0x%llx (%s)\n", i, c[i].op, (unsigned long long)out[i],
                    (unsigned long long)c[i].want, c[i].why);
            bad = 1;
        }
    }
    free(out);
    free(body);
    assert_int_equal(bad, 0);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- f32 rounding modes, ftz, saturation, NaN ---- */
static const alu_case f32_cases[] = {
    /* 1 + 1.5*2^-24 = 1 + 0.75 ulp (ulp of 1 is 2^-23) */
    {"add.rn.f32", 32, 32, 2, {"0x3F800000", "0x33C00000"}, 0x3F800001, "0.75 ulp rounds up to 1+ulp"},
    {"add.rz.f32", 32, 32, 2, {"0x3F800000", "0x33C00000"}, 0x3F800000, "toward zero drops it"},
    {"add.rm.f32", 32, 32, 2, {"0x3F800000", "0x33C00000"}, 0x3F800000, "toward -inf drops it"},
    {"add.rp.f32", 32, 32, 2, {"0x3F800000", "0x33C00000"}, 0x3F800001, "toward +inf rounds up"},
    /* the same, negative: -1 - 0.75 ulp */
    {"add.rz.f32", 32, 32, 2, {"0xBF800000", "0xB3C00000"}, 0xBF800000, "toward zero: -1"},
    {"add.rm.f32", 32, 32, 2, {"0xBF800000", "0xB3C00000"}, 0xBF800001, "toward -inf: -(1+ulp)"},
    {"add.rp.f32", 32, 32, 2, {"0xBF800000", "0xB3C00000"}, 0xBF800000, "toward +inf: -1"},
    /* exact ties: 1 + 2^-24 is half an ulp */
    {"add.rn.f32", 32, 32, 2, {"0x3F800000", "0x33800000"}, 0x3F800000, "tie to even: 1.0 (mantissa 0)"},
    {"add.rn.f32", 32, 32, 2, {"0x3F800001", "0x33800000"}, 0x3F800002, "tie to even: mantissa 1 -> 2"},
    /* (1+2^-23)^2 = 1 + 2^-22 + 2^-46 */
    {"mul.rz.f32", 32, 32, 2, {"0x3F800001", "0x3F800001"}, 0x3F800002, "2^-46 dropped"},
    {"mul.rp.f32", 32, 32, 2, {"0x3F800001", "0x3F800001"}, 0x3F800003, "2^-46 rounds up one ulp"},
    /* 2^-70 * 2^-60 = 2^-130: subnormal, 2^19 units of 2^-149 = 0x00080000 */
    {"fma.rn.f32", 32, 32, 3, {"0x1C800000", "0x21800000", "0x00000000"}, 0x00080000, "subnormal kept"},
    {"fma.rn.ftz.f32", 32, 32, 3, {"0x1C800000", "0x21800000", "0x00000000"}, 0x00000000, "ftz: +0"},
    {"fma.rn.ftz.f32", 32, 32, 3, {"0x9C800000", "0x21800000", "0x00000000"}, 0x80000000, "ftz keeps the sign: -0"},
    /* 2^-130 + 2^-126 = 1.0625 * 2^-126 is normal: the fused product is not flushed */
    {"fma.rn.ftz.f32", 32, 32, 3, {"0x1C800000", "0x21800000", "0x00800000"}, 0x00880000, "normal result kept"},
    {"mul.rn.ftz.f32", 32, 32, 2, {"0x1C800000", "0x21800000"}, 0x00000000, "subnormal product flushed"},
    {"add.f32", 32, 32, 2, {"0x00000001", "0x00000000"}, 0x00000001, "smallest subnormal + 0"},
    {"add.ftz.f32", 32, 32, 2, {"0x00000001", "0x00000000"}, 0x00000000, "input flushed"},
    /* division, square root, reciprocal */
    {"div.rn.f32", 32, 32, 2, {"0x3F800000", "0x40400000"}, 0x3EAAAAAB, "1/3 = 0x3eaaaaab (last bit rounds up)"},
    {"div.rz.f32", 32, 32, 2, {"0x3F800000", "0x40400000"}, 0x3EAAAAAA, "1/3 truncated"},
    {"div.rn.f32", 32, 32, 2, {"0x40000000", "0x40400000"}, 0x3F2AAAAB, "2/3"},
    {"sqrt.rn.f32", 32, 32, 1, {"0x40000000"}, 0x3FB504F3, "sqrt(2)"},
    {"rcp.rn.f32", 32, 32, 1, {"0x40400000"}, 0x3EAAAAAB, "1/3"},
    /* NaN results are the canonical 0x7fffffff */
    {"add.f32", 32, 32, 2, {"0x7FC00001", "0x3F800000"}, 0x7FFFFFFF, "NaN payload canonicalised"},
    {"sqrt.rn.f32", 32, 32, 1, {"0xBF800000"}, 0x7FFFFFFF, "sqrt(-1)"},
    {"mul.f32", 32, 32, 2, {"0x7F800000", "0x00000000"}, 0x7FFFFFFF, "inf * 0"},
    {"min.f32", 32, 32, 2, {"0x7FC00000", "0x40000000"}, 0x40000000, "min(NaN, 2) = 2"},
    {"max.f32", 32, 32, 2, {"0x7FC00000", "0x7FC00000"}, 0x7FFFFFFF, "max(NaN, NaN) = NaN"},
    {"min.f32", 32, 32, 2, {"0x00000000", "0x80000000"}, 0x80000000, "min(+0, -0) = -0"},
    {"max.f32", 32, 32, 2, {"0x80000000", "0x00000000"}, 0x00000000, "max(-0, +0) = +0"},
    /* saturation: clamp to [0, 1], NaN -> 0 */
    {"add.sat.f32", 32, 32, 2, {"0x3F400000", "0x3F000000"}, 0x3F800000, "0.75 + 0.5 -> 1"},
    {"mul.sat.f32", 32, 32, 2, {"0xC0000000", "0x40400000"}, 0x00000000, "-6 -> 0"},
    {"add.sat.f32", 32, 32, 2, {"0x7FC00000", "0x3F800000"}, 0x00000000, "NaN -> 0"},
    /* sign-bit operations */
    {"neg.f32", 32, 32, 1, {"0x00000000"}, 0x80000000, "-(+0) = -0"},
    {"abs.f32", 32, 32, 1, {"0xBF800000"}, 0x3F800000, "|-1| = 1"},
    {"copysign.f32", 32, 32, 2, {"0xBF800000", "0x40000000"}, 0xC0000000, "2 with the sign of -1"},
    /* approximate ops that are exact for these inputs */
    {"ex2.approx.f32", 32, 32, 1, {"0x3F800000"}, 0x40000000, "2^1"},
    {"lg2.approx.f32", 32, 32, 1, {"0x41000000"}, 0x40400000, "log2(8) = 3"},
    {"rsqrt.approx.f32", 32, 32, 1, {"0x40800000"}, 0x3F000000, "1/sqrt(4)"},
    /* classification and ordered / unordered compares */
    {"testp.subnormal.f32", 1, 32, 1, {"0x00000001"}, 1, "smallest subnormal"},
    {"testp.normal.f32", 1, 32, 1, {"0x00000001"}, 0, "not normal"},
    {"testp.notanumber.f32", 1, 32, 1, {"0x7FC00000"}, 1, "NaN"},
    {"setp.ne.f32", 1, 32, 2, {"0x7FC00000", "0x3F800000"}, 0, "ordered ne is false with a NaN"},
    {"setp.neu.f32", 1, 32, 2, {"0x7FC00000", "0x3F800000"}, 1, "unordered ne is true"},
    {"setp.lt.f32", 1, 32, 2, {"0x80000000", "0x00000000"}, 0, "-0 < +0 is false"},
    {"setp.eq.ftz.f32", 1, 32, 2, {"0x00000001", "0x00000000"}, 1, "ftz compare: subnormal == 0"},
};

static void test_f32_corner_cases(void **state) {
    (void)state;
    run_cases(f32_cases, N(f32_cases));
}

/* ---- f64 ---- */
static const alu_case f64_cases[] = {
    {"div.rn.f64", 64, 64, 2, {"0x3FF0000000000000", "0x4008000000000000"}, 0x3FD5555555555555ull, "1/3"},
    {"div.rp.f64", 64, 64, 2, {"0x3FF0000000000000", "0x4008000000000000"}, 0x3FD5555555555556ull,
     "1/3 = 0x3fd5555555555555 + 1/3 ulp: rp rounds up"},
    {"sqrt.rn.f64", 64, 64, 1, {"0x4000000000000000"}, 0x3FF6A09E667F3BCDull, "sqrt(2)"},
    {"rcp.rn.f64", 64, 64, 1, {"0x4008000000000000"}, 0x3FD5555555555555ull, "1/3"},
    /* (1+2^-52)^2 = 1 + 2^-51 + 2^-104 */
    {"mul.rz.f64", 64, 64, 2, {"0x3FF0000000000001", "0x3FF0000000000001"}, 0x3FF0000000000002ull, "dropped"},
    {"mul.rp.f64", 64, 64, 2, {"0x3FF0000000000001", "0x3FF0000000000001"}, 0x3FF0000000000003ull, "up one ulp"},
    /* fma keeps the 2^-104 that a separate mul+add loses: (1+2^-52)^2 - (1+2^-51) = 2^-104 */
    {"fma.rn.f64", 64, 64, 3, {"0x3FF0000000000001", "0x3FF0000000000001", "0xBFF0000000000002"}, 0x3970000000000000ull,
     "2^-104 = exponent 1023-104 = 919 = 0x397"},
    {"mul.f64", 64, 64, 2, {"0x7FF0000000000000", "0x0000000000000000"}, 0x7FFFFFFFFFFFFFFFull, "inf * 0: canonical NaN"},
    {"min.f64", 64, 64, 2, {"0x7FF8000000000000", "0xC000000000000000"}, 0xC000000000000000ull, "min(NaN, -2) = -2"},
    {"neg.f64", 64, 64, 1, {"0x3FF0000000000000"}, 0xBFF0000000000000ull, "-1"},
    {"testp.finite.f64", 1, 64, 1, {"0x7FF0000000000000"}, 0, "inf is not finite"},
    {"setp.gtu.f64", 1, 64, 2, {"0x7FF8000000000000", "0x3FF0000000000000"}, 1, "unordered gt with NaN"},
};

static void test_f64_corner_cases(void **state) {
    (void)state;
    run_cases(f64_cases, N(f64_cases));
}

/* ---- cvt ---- */
static const alu_case cvt_cases[] = {
    /* float -> int, round to nearest even */
    {"cvt.rni.s32.f32", 32, 32, 1, {"0x40200000"}, 2, "2.5 -> 2 (even)"},
    {"cvt.rni.s32.f32", 32, 32, 1, {"0x40600000"}, 4, "3.5 -> 4 (even)"},
    {"cvt.rni.s32.f32", 32, 32, 1, {"0xC0200000"}, 0xFFFFFFFEu, "-2.5 -> -2"},
    {"cvt.rni.s32.f32", 32, 32, 1, {"0x3F000000"}, 0, "0.5 -> 0"},
    /* other integer roundings */
    {"cvt.rzi.s32.f32", 32, 32, 1, {"0xC0FCCCCD"}, 0xFFFFFFF9u, "-7.9 -> -7"},
    {"cvt.rmi.s32.f32", 32, 32, 1, {"0xC0E33333"}, 0xFFFFFFF8u, "-7.1 -> -8"},
    {"cvt.rpi.s32.f32", 32, 32, 1, {"0x40E33333"}, 8, "7.1 -> 8"},
    /* saturation and NaN */
    {"cvt.rzi.s32.f32", 32, 32, 1, {"0x7FC00000"}, 0, "NaN -> 0"},
    {"cvt.rzi.s32.f32", 32, 32, 1, {"0x4F32D05E"}, 0x7FFFFFFF, "3e9 -> INT_MAX"},
    {"cvt.rzi.s32.f32", 32, 32, 1, {"0xCF32D05E"}, 0x80000000u, "-3e9 -> INT_MIN"},
    {"cvt.rzi.u32.f32", 32, 32, 1, {"0xBF800000"}, 0, "-1 -> 0 (unsigned)"},
    {"cvt.rzi.u32.f32", 32, 32, 1, {"0x4F9502F9"}, 0xFFFFFFFFu, "5e9 -> UINT_MAX"},
    {"cvt.rzi.s64.f64", 64, 64, 1, {"0x43E158E460913D00"}, 0x7FFFFFFFFFFFFFFFull, "1e19 -> INT64_MAX"},
    {"cvt.rzi.u64.f64", 64, 64, 1, {"0xC014000000000000"}, 0, "-5 -> 0"},
    /* int -> float: 2^24 + 1 needs 25 bits */
    {"cvt.rn.f32.s32", 32, 32, 1, {"16777217"}, 0x4B800000, "2^24+1 tie -> 2^24 (even)"},
    {"cvt.rn.f32.s32", 32, 32, 1, {"16777219"}, 0x4B800002, "2^24+3 tie -> 2^24+4 (even)"},
    {"cvt.rz.f32.s32", 32, 32, 1, {"16777219"}, 0x4B800001, "2^24+3 -> 2^24+2"},
    {"cvt.rp.f32.s32", 32, 32, 1, {"16777217"}, 0x4B800001, "2^24+1 -> 2^24+2"},
    {"cvt.rn.f32.u64", 32, 64, 1, {"0xFFFFFFFFFFFFFFFF"}, 0x5F800000, "2^64-1 -> 2^64"},
    {"cvt.rz.f32.u64", 32, 64, 1, {"0xFFFFFFFFFFFFFFFF"}, 0x5F7FFFFF, "2^64-1 -> largest float below 2^64"},
    {"cvt.rn.f64.s32", 64, 32, 1, {"0xFFFFFFFF"}, 0xBFF0000000000000ull, "-1"},
    /* float <-> float */
    {"cvt.rn.f32.f64", 32, 64, 1, {"0x3FD5555555555555"}, 0x3EAAAAAB, "1/3 rounds up"},
    {"cvt.rz.f32.f64", 32, 64, 1, {"0x3FD5555555555555"}, 0x3EAAAAAA, "1/3 truncated"},
    {"cvt.f64.f32", 64, 32, 1, {"0x3FC00000"}, 0x3FF8000000000000ull, "1.5 exact"},
    {"cvt.rni.f32.f32", 32, 32, 1, {"0x40200000"}, 0x40000000, "2.5 -> 2.0"},
    {"cvt.rmi.f32.f32", 32, 32, 1, {"0xBF000000"}, 0xBF800000, "-0.5 -> -1.0"},
    {"cvt.sat.f32.f32", 32, 32, 1, {"0x40000000"}, 0x3F800000, "2 -> 1"},
    {"cvt.rzi.f64.f64", 64, 64, 1, {"0xC00C000000000000"}, 0xC008000000000000ull, "-3.5 -> -3"},
    /* f16 / bf16: 1/3 = 1.333 * 2^-2 -> mantissa 0.333*1024 = 341 (0x155), exponent 13 */
    {"cvt.rn.f16.f32", 16, 32, 1, {"0x3EAAAAAB"}, 0x3555, "1/3 in half"},
    {"cvt.f32.f16", 32, 16, 1, {"0x3555"}, 0x3EAAA000, "0x155 << 13 in the f32 mantissa"},
    {"cvt.rn.f16.f32", 16, 32, 1, {"0x477FF000"}, 0x7C00, "65520 is the tie above 65504: even -> 65536 -> inf"},
    {"cvt.rn.f16.f32", 16, 32, 1, {"0x477FEF00"}, 0x7BFF, "65519 -> 65504"},
    {"cvt.rz.f16.f32", 16, 32, 1, {"0x49742400"}, 0x7BFF, "1e6 toward zero -> max finite"},
    {"cvt.rn.f16.f32", 16, 32, 1, {"0x33800000"}, 0x0001, "2^-24 is the smallest half subnormal"},
    {"cvt.rn.bf16.f32", 16, 32, 1, {"0x3EAAAAAB"}, 0x3EAB, "upper 0x3eaa, rest 0xaaab > half -> up"},
    /* integer widths */
    {"cvt.sat.s8.s32", 32, 32, 1, {"300"}, 127, "clamped to 127"},
    {"cvt.sat.s8.s32", 32, 32, 1, {"0xFFFFFED4"}, 0xFFFFFF80u, "-300 -> -128, sign-extended to the register"},
    {"cvt.sat.u8.s32", 32, 32, 1, {"0xFFFFFFFB"}, 0, "-5 -> 0"},
    {"cvt.s32.s8", 32, 32, 1, {"0x80"}, 0xFFFFFF80u, "sign-extend byte 0x80"},
    {"cvt.u32.u8", 32, 32, 1, {"0x1FF"}, 0xFF, "low byte"},
    {"cvt.s64.s32", 64, 32, 1, {"0xFFFFFFFF"}, 0xFFFFFFFFFFFFFFFFull, "-1 widened"},
    {"cvt.u64.u32", 64, 32, 1, {"0xFFFFFFFF"}, 0xFFFFFFFFull, "zero-extended"},
    {"cvt.u32.u64", 32, 64, 1, {"0x123456789"}, 0x23456789, "truncated"},
    {"cvt.s32.s16", 32, 16, 1, {"0x8000"}, 0xFFFF8000u, "-32768"},
};

static void test_cvt_corner_cases(void **state) {
    (void)state;
    run_cases(cvt_cases, N(cvt_cases));
}

/* ---- integer ---- */
static const alu_case int_cases[] = {
    {"div.u32", 32, 32, 2, {"7", "0"}, 0xFFFFFFFFu, "x / 0 = all ones"},
    {"rem.u32", 32, 32, 2, {"7", "0"}, 7, "x % 0 = x"},
    {"div.s32", 32, 32, 2, {"0x80000000", "0xFFFFFFFF"}, 0x80000000u, "INT_MIN / -1 = INT_MIN"},
    {"rem.s32", 32, 32, 2, {"0x80000000", "0xFFFFFFFF"}, 0, "INT_MIN % -1 = 0"},
    {"div.s32", 32, 32, 2, {"0xFFFFFFF9", "2"}, 0xFFFFFFFDu, "-7 / 2 = -3 (truncating)"},
    {"rem.s32", 32, 32, 2, {"0xFFFFFFF9", "2"}, 0xFFFFFFFFu, "-7 % 2 = -1"},
    {"div.s64", 64, 64, 2, {"0xFFFFFFFFFFFFFFF9", "0"}, 0xFFFFFFFFFFFFFFFFull, "signed x / 0 = -1"},
    {"shl.b32", 32, 32, 2, {"1", "33"}, 0, "shift >= 32 gives 0"},
    {"shr.s32", 32, 32, 2, {"0xFFFFFFF8", "40"}, 0xFFFFFFFFu, "arithmetic shift >= 32 fills the sign"},
    {"shr.u32", 32, 32, 2, {"0x80000000", "32"}, 0, "logical shift by 32 gives 0"},
    {"shr.s32", 32, 32, 2, {"0xFFFFFFF8", "1"}, 0xFFFFFFFCu, "-8 >> 1 = -4"},
    {"shl.b64", 64, 64, 2, {"1", "63"}, 0x8000000000000000ull, "top bit"},
    {"mul.hi.u32", 32, 32, 2, {"0xFFFFFFFF", "0xFFFFFFFF"}, 0xFFFFFFFEu, "(2^32-1)^2 = 0xfffffffe00000001"},
    {"mul.hi.s32", 32, 32, 2, {"0xFFFFFFFF", "0xFFFFFFFF"}, 0, "(-1)*(-1) = 1: high word 0"},
    {"mul.wide.s32", 64, 32, 2, {"0xFFFFFFFE", "3"}, 0xFFFFFFFFFFFFFFFAull, "-2*3 = -6 in 64 bits"},
    {"mul.wide.u32", 64, 32, 2, {"0xFFFFFFFF", "2"}, 0x1FFFFFFFEull, "no sign extension"},
    {"mul.hi.u64", 64, 64, 2, {"0xFFFFFFFFFFFFFFFF", "2"}, 1, "(2^64-1)*2 = 2^65-2: high word 1"},
    {"mul.lo.s32", 32, 32, 2, {"0x10000", "0x10000"}, 0, "2^32 wraps to 0"},
    {"mad.lo.s32", 32, 32, 3, {"3", "4", "0xFFFFFFFF"}, 11, "3*4 - 1"},
    {"bfe.u32", 32, 32, 3, {"0x12345678", "8", "8"}, 0x56, "bits 8..15"},
    {"bfe.s32", 32, 32, 3, {"0x80", "4", "4"}, 0xFFFFFFF8u, "bits 4..7 = 0b1000, sign-extended"},
    {"bfe.u32", 32, 32, 3, {"0xC0000000", "30", "8"}, 3, "field clipped at bit 31"},
    {"bfe.s32", 32, 32, 3, {"0x12345678", "8", "0"}, 0, "len 0 gives 0"},
    {"prmt.b32", 32, 32, 3, {"0x33221100", "0x77665544", "0x7531"}, 0x77553311u, "bytes 1,3,5,7 of b:a"},
    {"prmt.b32", 32, 32, 3, {"0x00000080", "0", "0x0008"}, 0x808080FFu, "selector 8: sign of byte 0 (0x80) -> 0xff"},
    {"prmt.b32.f4e", 32, 32, 3, {"0x33221100", "0x77665544", "1"}, 0x44332211u, "bytes 4,3,2,1"},
    {"shf.l.wrap.b32", 32, 32, 3, {"0x12345678", "0x9ABCDEF0", "8"}, 0xBCDEF012u, "high word of (b:a) << 8"},
    {"shf.r.wrap.b32", 32, 32, 3, {"0x12345678", "0x9ABCDEF0", "40"}, 0xF0123456u, "40 mod 32 = 8"},
    {"shf.r.clamp.b32", 32, 32, 3, {"0x12345678", "0x9ABCDEF0", "40"}, 0x9ABCDEF0u, "clamped to 32: b"},
    /* bmsk (PTX ISA 7.6; CUB's radix sort emits it): width b from bit a */
    {"bmsk.wrap.b32", 32, 32, 2, {"1", "2"}, 0x00000006u, "bits 1..2 (the ISA's own example)"},
    {"bmsk.clamp.b32", 32, 32, 2, {"4", "8"}, 0x00000FF0u, "bits 4..11"},
    {"bmsk.clamp.b32", 32, 32, 2, {"28", "8"}, 0xF0000000u, "runs past bit 31: stops at the top"},
    {"bmsk.clamp.b32", 32, 32, 2, {"4", "0"}, 0u, "width 0: empty"},
    {"bmsk.clamp.b32", 32, 32, 2, {"32", "4"}, 0u, "clamp: position 32 gives 0"},
    {"bmsk.wrap.b32", 32, 32, 2, {"33", "4"}, 0x0000001Eu, "wrap: position 33 is 1 -> bits 1..4"},
    {"bmsk.clamp.b32", 32, 32, 2, {"8", "40"}, 0xFFFFFF00u, "clamp: width >= 32 runs to the top"},
    {"bmsk.wrap.b32", 32, 32, 2, {"8", "40"}, 0x0000FF00u, "wrap: width 40 is 8"},
    {"clz.b32", 32, 32, 1, {"0x00010000"}, 15, "bit 16 set"},
    {"clz.b32", 32, 32, 1, {"0"}, 32, "zero"},
    {"popc.b64", 32, 64, 1, {"0xF0F0000000000001"}, 9, "8 + 1"},
    {"brev.b32", 32, 32, 1, {"1"}, 0x80000000u, "bit 0 -> bit 31"},
    {"bfind.u32", 32, 32, 1, {"0x00010000"}, 16, "msb at 16"},
    {"bfind.s32", 32, 32, 1, {"0xFFFFFFFF"}, 0xFFFFFFFFu, "-1 has no non-sign bit"},
    {"bfind.s32", 32, 32, 1, {"0xFFFF0000"}, 15, "negative: highest 0 bit is 15"},
    {"bfind.shiftamt.u32", 32, 32, 1, {"0x00010000"}, 15, "31 - 16"},
    {"min.s32", 32, 32, 2, {"0xFFFFFFFF", "1"}, 0xFFFFFFFFu, "-1 < 1"},
    {"min.u32", 32, 32, 2, {"0xFFFFFFFF", "1"}, 1, "unsigned"},
    {"max.s16", 16, 16, 2, {"0x8000", "5"}, 5, "-32768 < 5"},
    {"sad.u32", 32, 32, 3, {"3", "10", "100"}, 107, "|3-10| + 100"},
    {"abs.s32", 32, 32, 1, {"0x80000000"}, 0x80000000u, "|INT_MIN| wraps"},
    {"neg.s32", 32, 32, 1, {"5"}, 0xFFFFFFFBu, "-5"},
    {"mul24.lo.s32", 32, 32, 2, {"0x00FFFFFF", "2"}, 0xFFFFFFFEu, "24-bit -1 times 2"},
    {"mul24.hi.u32", 32, 32, 2, {"0x00FFFFFF", "0x00FFFFFF"}, 0xFFFFFE00u, "0xfffffe000001 bits 47..16"},
    {"lop3.b32", 32, 32, 3, {"0xF0", "0xCC", "0xAA"}, 0x96, "lut 0x96 = a^b^c; lut given below"},
    {"dp4a.u32.u32", 32, 32, 3, {"0x01020304", "0x01010101", "10"}, 20, "1+2+3+4+10"},
    {"dp4a.s32.s32", 32, 32, 3, {"0x000000FF", "0x00000002", "0"}, 0xFFFFFFFEu, "(-1)*2"},
    {"add.sat.s32", 32, 32, 2, {"0x7FFFFFFF", "1"}, 0x7FFFFFFF, "saturates"},
    {"sub.sat.s32", 32, 32, 2, {"0x80000000", "1"}, 0x80000000u, "saturates low"},
    {"add.s16", 16, 16, 2, {"0x7FFF", "1"}, 0x8000, "wraps in 16 bits"},
    {"and.b32", 32, 32, 2, {"0xF0F0", "0xFF00"}, 0xF000, "and"},
    {"not.b16", 16, 16, 1, {"0x00FF"}, 0xFF00, "16-bit not"},
    {"cnot.b32", 32, 32, 1, {"0"}, 1, "cnot 0 = 1"},
    {"setp.lt.s32", 1, 32, 2, {"0xFFFFFFFF", "0"}, 1, "-1 < 0 signed"},
    {"setp.lo.u32", 1, 32, 2, {"0xFFFFFFFF", "0"}, 0, "unsigned: 2^32-1 < 0 is false"},
    {"setp.gt.s16", 1, 16, 2, {"0x0001", "0x8000"}, 1, "1 > -32768"},
};

static void test_int_corner_cases(void **state) {
    (void)state;
    /* lop3 takes its LUT as a fourth operand: patch the one case by hand */
    alu_case c[N(int_cases)];
    memcpy(c, int_cases, sizeof c);
    for (size_t i = 0; i < N(c); i++)
        if (strcmp(c[i].op, "lop3.b32") == 0) c[i].op = "lop3.b32 %r1, %r2, %r3, %r4, 0x96; //";
    run_cases(c, N(c));
}

/* ---- SIMD video instructions (issue 33, item 4) ----
 * a = 0x10F07F80: bytes (element 0 first) 0x80 0x7F 0xF0 0x10, signed -128 127 -16 16;
 *                 half-words 0x7F80 (32640), 0x10F0 (4336).
 * b = 0x20018190: bytes 0x90 0x81 0x01 0x20, signed -112 -127 1 32;
 *                 half-words 0x8190 (signed -32368), 0x2001 (8193).
 * c = 0x0A0B0C0D.  Every value below is worked out in its comment. */
#define VA "0x10F07F80"
#define VB "0x20018190"
#define VC "0x0A0B0C0D"
static const alu_case video_cases[] = {
    {"vabsdiff4.u32.u32.u32", 32, 32, 3, {VA, VB, VC}, 0x10EF0210u, "|80-90|=10 |7F-81|=02 |F0-01|=EF |10-20|=10"},
    {"vabsdiff4.u32.u32.u32.add", 32, 32, 3, {VA, VB, VC}, 0x0A0B0D1Eu, "c + 0x10+0x02+0xEF+0x10 (0x111)"},
    {"vabsdiff4.s32.s32.s32", 32, 32, 3, {VA, VB, VC}, 0x1011FE10u, "16, |127+127|=254 -> FE, 17, 16"},
    {"vadd4.u32.u32.u32.sat", 32, 32, 3, {VA, VB, VC}, 0x30F1FFFFu, "0x110 -> FF, 0x100 -> FF, F1, 30"},
    {"vadd4.s32.s32.s32.sat", 32, 32, 3, {VA, VB, VC}, 0x30F10080u, "-240 -> -128 (80), 0, -15 (F1), 48"},
    {"vsub4.s32.s32.s32 %r1.b20, %r2, %r3, %r4; //", 32, 32, 3, {VA, VB, VC}, 0x0AEF0CF0u,
     "elements 0, 2: -16 (F0), -17 (EF); 1, 3 from c: 0C, 0A"},
    {"vavrg4.u32.u32.u32", 32, 32, 3, {VA, VB, VC}, 0x18798088u, "(273)>>1=88, 257>>1=80, 242>>1=79, 49>>1=18"},
    {"vavrg4.s32.s32.s32", 32, 32, 3, {VA, VB, VC}, 0x18F80088u, "-240>>1=-120 (88), 1>>1=0, -15>>1=-8 (F8), 18"},
    {"vmin4.u32.u32.u32 %r1, %r2.b0123, %r3.b4567, %r4; //", 32, 32, 3, {VA, VB, VC}, 0x807F0110u,
     "reversed bytes: min(10,20) min(F0,01) min(7F,81) min(80,90)"},
    {"vmax4.s32.s32.s32 %r1, %r2, %r3.b7777, %r4; //", 32, 32, 3, {VA, VB, VC}, 0x20207F20u,
     "every b element is b's byte 3 (32): max(-128,32) max(127,32) max(-16,32) max(16,32)"},
    {"vadd2.s32.s32.s32.sat", 32, 32, 3, {VA, VB, VC}, 0x30F10110u, "32640-32368=272, 4336+8193=12529"},
    {"vadd2.u32.u32.u32.sat", 32, 32, 3, {VA, VB, VC}, 0x30F1FFFFu, "0x10110 -> FFFF, 30F1"},
    {"vsub2.s32.s32.s32.sat", 32, 32, 3, {VA, VB, VC}, 0xF0EF7FFFu, "32640+32368 -> 7FFF, 4336-8193=-3857 (F0EF)"},
    {"vabsdiff2.u32.u32.u32.add", 32, 32, 3, {VA, VB, VC}, 0x0A0B1D2Eu, "c + 0x210 + 0xF11 (0x1121)"},
    {"vmin2.s32.s32.s32.add", 32, 32, 3, {VA, VB, VC}, 0x0A0A9E8Du, "c + (-32368 + 4336) = c - 0x6D80"},
    {"vmax2.u32.u32.u32 %r1.h1, %r2.h32, %r3.h10, %r4; //", 32, 32, 3, {VA, VB, VC}, 0x20010C0Du,
     "element 1: max(b's 2001, a's 10F0); element 0 from c: 0C0D"},
};

static void test_video_simd(void **state) {
    (void)state;
    run_cases(video_cases, N(video_cases));
}

/* ---- carry chains: a 64-bit add and subtract out of 32-bit halves ---- */
static void test_carry_chains(void **state) {
    (void)state;
    static const char *body =
        "  mov.u32 %r10, 0xFFFFFFFF;\n  mov.u32 %r11, 1;\n  mov.u32 %r12, 2;\n"
        "  mov.u32 %r13, 0;\n  mov.u32 %r14, 5;\n"
        /* (1:0xffffffff) + (2:1) = (4:0): the low add carries */
        "  add.cc.u32 %r1, %r10, %r11;\n"
        "  addc.u32 %r2, %r11, %r12;\n"
        "  st.global.u32 [%rd0+0], %r1;\n"
        "  st.global.u32 [%rd0+4], %r2;\n"
        /* (5:0) - (1:1) = (3:0xffffffff): the low subtract borrows */
        "  sub.cc.u32 %r3, %r13, %r11;\n"
        "  subc.u32 %r4, %r14, %r11;\n"
        "  st.global.u32 [%rd0+8], %r3;\n"
        "  st.global.u32 [%rd0+12], %r4;\n"
        /* three-word add with a carry through the middle: (0:0xffffffff:0xffffffff) + 1 */
        "  add.cc.u32 %r5, %r10, %r11;\n"
        "  addc.cc.u32 %r6, %r10, %r13;\n"
        "  addc.u32 %r7, %r13, %r13;\n"
        "  st.global.u32 [%rd0+16], %r5;\n"
        "  st.global.u32 [%rd0+20], %r6;\n"
        "  st.global.u32 [%rd0+24], %r7;\n"
        /* mad.lo.cc / madc.hi: (2^32-1)*(2^32-1) + (2^32-1) as 64 bits:
         * lo = 1 + 0xffffffff = 0 carry 1; hi = 0xfffffffe + 0 + 1 = 0xffffffff */
        "  mad.lo.cc.u32 %r8, %r10, %r10, %r10;\n"
        "  madc.hi.u32 %r9, %r10, %r10, %r13;\n"
        "  st.global.u32 [%rd0+28], %r8;\n"
        "  st.global.u32 [%rd0+32], %r9;\n";
    uint32_t r[9];
    xt_run_body(body, r, sizeof r);
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 4);
    assert_int_equal(r[2], 0xFFFFFFFFu);
    assert_int_equal(r[3], 3);
    assert_int_equal(r[4], 0);
    assert_int_equal(r[5], 0);
    assert_int_equal(r[6], 1);
    assert_int_equal(r[7], 0);
    assert_int_equal(r[8], 0xFFFFFFFFu);
}

/* ---- predicates: setp with a combining predicate and two destinations ---- */
static void test_predicate_logic(void **state) {
    (void)state;
    static const char *body =
        "  mov.u32 %r10, 1;\n  mov.u32 %r11, 5;\n  mov.u32 %r12, 3;\n  mov.u32 %r13, 2;\n"
        "  mov.u32 %r14, 10;\n  mov.u32 %r15, 20;\n  mov.u32 %r16, 0xFFFFFFFF;\n"
        "  setp.eq.u32 %p1, %r10, %r10;\n"                 /* true */
        "  setp.lt.and.s32 %p2|%p3, %r11, %r12, %p1;\n"    /* (5<3)&&p1 = 0; !(5<3)&&p1 = 1 */
        "  setp.lt.or.s32 %p4|%p5, %r11, %r12, !%p1;\n"    /* 0||0 = 0; 1||0 = 1 */
        "  xor.pred %p6, %p3, %p5;\n"                      /* 1^1 = 0 */
        "  not.pred %p7, %p6;\n"                           /* 1 */
        "  selp.u32 %r1, 1, 0, %p2;\n"
        "  selp.u32 %r2, 1, 0, %p3;\n"
        "  selp.u32 %r3, 1, 0, %p4;\n"
        "  selp.u32 %r4, 1, 0, %p5;\n"
        "  selp.u32 %r5, 1, 0, %p6;\n"
        "  selp.u32 %r6, 1, 0, %p7;\n"
        "  set.gt.u32.s32 %r7, %r13, %r10;\n"              /* 2 > 1: all ones */
        "  set.gt.f32.s32 %r8, %r10, %r13;\n"              /* 1 > 2: 0.0 */
        "  slct.u32.s32 %r9, %r14, %r15, %r16;\n"          /* c = -1 < 0 -> b = 20 */
        "  st.global.v4.u32 [%rd0], {%r1, %r2, %r3, %r4};\n"
        "  st.global.v4.u32 [%rd0+16], {%r5, %r6, %r7, %r8};\n"
        "  st.global.u32 [%rd0+32], %r9;\n";
    uint32_t r[9];
    xt_run_body(body, r, sizeof r);
    static const uint32_t want[9] = {0, 1, 0, 1, 0, 1, 0xFFFFFFFFu, 0, 20};
    for (int i = 0; i < 9; i++) assert_int_equal(r[i], want[i]);
}

/* ---- f16 / f16x2 arithmetic ---- */
static void test_half_arithmetic(void **state) {
    (void)state;
    static const char *body =
        /* 1.5 + 2.25 = 3.75 (0x4380); 1.5 * 2.25 = 3.375 (0x42C0) */
        "  mov.b16 %h1, 0x3E00;\n"
        "  mov.b16 %h2, 0x4080;\n"
        "  add.f16 %h3, %h1, %h2;\n"
        "  mul.f16 %h4, %h1, %h2;\n"
        /* fma(1.5, 2.25, 1) = 4.375 (0x4460) */
        "  mov.b16 %h5, 0x3C00;\n"
        "  fma.rn.f16 %h6, %h1, %h2, %h5;\n"
        "  st.global.b16 [%rd0+0], %h3;\n"
        "  st.global.b16 [%rd0+2], %h4;\n"
        "  st.global.b16 [%rd0+4], %h6;\n"
        /* f16x2: {1.5, 2.25} * {2.25, 1.5} = {3.375, 3.375} */
        "  mov.b32 %r1, 0x40803E00;\n"
        "  mov.b32 %r2, 0x3E004080;\n"
        "  mul.f16x2 %r3, %r1, %r2;\n"
        "  st.global.b32 [%rd0+8], %r3;\n"
        /* 2049 is not representable: 2048 + 1 rounds to even (2048 = 0x6800) */
        "  mov.b16 %h7, 0x6800;\n"
        "  add.f16 %h8, %h7, %h5;\n"
        "  st.global.b16 [%rd0+12], %h8;\n";
    uint16_t r[7];
    xt_run_body(body, r, sizeof r);
    assert_int_equal(r[0], 0x4380);
    assert_int_equal(r[1], 0x42C0);
    assert_int_equal(r[2], 0x4460);
    assert_int_equal(r[4], 0x42C0);
    assert_int_equal(r[5], 0x42C0);
    assert_int_equal(r[6], 0x6800);
}

/* ---- setp over a whole or partial warp (compare.c's counted loop for 16 or
 * more active lanes, its lane-by-lane loop below that) against the PTX rules,
 * lane by lane: 32 operand pairs with NaN, zeros of both signs, infinities,
 * subnormals and equal values ---- */
static const char *const setp_warp_ptx =
    XT_HEADER
    ".visible .entry cmpk(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.u64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n  ld.global.f32 %f2, [%rd4+4];\n"
    "  mov.b32 %r3, %f1;\n  mov.b32 %r4, %f2;\n"
    "  mul.wide.u32 %rd5, %r1, 72;\n  add.u64 %rd6, %rd2, %rd5;\n"
    "  setp.eq.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+0], %r5;\n"
    "  setp.ne.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+4], %r5;\n"
    "  setp.lt.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+8], %r5;\n"
    "  setp.le.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+12], %r5;\n"
    "  setp.gt.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+16], %r5;\n"
    "  setp.ge.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+20], %r5;\n"
    "  setp.equ.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+24], %r5;\n"
    "  setp.neu.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+28], %r5;\n"
    "  setp.ltu.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+32], %r5;\n"
    "  setp.leu.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+36], %r5;\n"
    "  setp.gtu.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+40], %r5;\n"
    "  setp.geu.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+44], %r5;\n"
    "  setp.num.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+48], %r5;\n"
    "  setp.nan.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+52], %r5;\n"
    "  setp.lt.s32 %p1, %r3, %r4;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+56], %r5;\n"
    "  setp.lo.u32 %p1, %r3, %r4;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+60], %r5;\n"
    "  setp.ge.s32 %p1, %r3, %r4;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+64], %r5;\n"
    "  setp.eq.s32 %p1, %r3, %r4;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd6+68], %r5;\n"
    "  ret;\n}\n";

#define SETP_NRES 18
static int setp_ref(int k, uint32_t ab, uint32_t bb) {
    float fa, fb;
    memcpy(&fa, &ab, 4);
    memcpy(&fb, &bb, 4);
    double a = fa, b = fb;
    int un = isnan(a) || isnan(b);
    switch (k) {
    case 0: return !un && a == b;
    case 1: return !un && a != b;
    case 2: return !un && a < b;
    case 3: return !un && a <= b;
    case 4: return !un && a > b;
    case 5: return !un && a >= b;
    case 6: return un || a == b;
    case 7: return un || a != b;
    case 8: return un || a < b;
    case 9: return un || a <= b;
    case 10: return un || a > b;
    case 11: return un || a >= b;
    case 12: return !un;
    case 13: return un;
    case 14: return (int32_t)ab < (int32_t)bb;
    case 15: return ab < bb;
    case 16: return (int32_t)ab >= (int32_t)bb;
    default: return ab == bb;
    }
}

static void test_setp_whole_and_partial_warps(void **state) {
    (void)state;
    static const uint32_t vals[] = {0x7FC00000, 0x3F800000, 0x80000000, 0x00000000, 0x7F800000, 0xFF800000,
                                    0x00000001, 0x80000001, 0xBF800000, 0x40000000, 0x3F800000, 0x7FC00001};
    uint32_t in[64];
    for (uint32_t l = 0; l < 32; l++) { /* pairs: (vals[l % 12], vals[(l * 5 + 1) % 12]) */
        in[2 * l] = vals[l % 12];
        in[2 * l + 1] = vals[(l * 5 + 1) % 12];
    }
    static const uint32_t blocks[] = {32, 20, 7}; /* all lanes; 20 (counted loop, masked); 7 (lane by lane) */
    for (size_t bi = 0; bi < 3; bi++) {
        xt t = xt_open(setp_warp_ptx, "setp_warp.ptx");
        locsim_dptr din = xt_buf(&t, in, sizeof in);
        uint32_t out[32 * SETP_NRES];
        memset(out, 0xAB, sizeof out);
        locsim_dptr dout = xt_buf(&t, out, sizeof out);
        void *args[] = {&din, &dout};
        xt_run(&t, "cmpk", 1, blocks[bi], args, 2);
        xt_get(&t, out, dout, sizeof out);
        xt_close(&t);
        int bad = 0;
        for (uint32_t l = 0; l < blocks[bi]; l++)
            for (int k = 0; k < SETP_NRES; k++)
                if (out[l * SETP_NRES + k] != (uint32_t)setp_ref(k, in[2 * l], in[2 * l + 1])) {
                    fprintf(stderr, "block %u lane %u compare %d: got %u\n", blocks[bi], l, k, out[l * SETP_NRES + k]);
                    bad = 1;
                }
        assert_int_equal(bad, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_corner_cases),  cmocka_unit_test(test_f64_corner_cases),
        cmocka_unit_test(test_cvt_corner_cases),  cmocka_unit_test(test_int_corner_cases),
        cmocka_unit_test(test_carry_chains),      cmocka_unit_test(test_predicate_logic),
        cmocka_unit_test(test_half_arithmetic),    cmocka_unit_test(test_setp_whole_and_partial_warps),
        cmocka_unit_test(test_video_simd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
