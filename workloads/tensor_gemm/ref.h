/* tensor_gemm: input generation and CPU reference (C11 and C++).
 *
 * D = A x B + C with A (M x K) and B (K x N) in half precision and C, D in single
 * precision: the tensor cores' f16-in, f32-accumulate GEMM.  A is row-major, B is
 * column-major (column n is K contiguous halves: B[k][n] at n * K + k), C and D
 * row-major.  --size S: M = N = 64 S, K = 32 S + 32 (whole 32 x 32 CTA tiles, whole
 * 16-deep k steps).
 *
 * The entries are exact: A and B take the values -2, -1.75, ..., 2 (v / 4, v an
 * integer in [-8, 8]), C the multiples of 1/16 in [-8, 8).  Every product is then a
 * multiple of 1/16 of magnitude at most 4 and every partial sum of a row's K
 * products plus C a multiple of 1/16 below 2^11, which float holds exactly (15
 * significant bits): D does not depend on the order or the precision in which a
 * tensor core adds, and the check is bit for bit.
 */
#ifndef WL_TENSOR_GEMM_REF_H
#define WL_TENSOR_GEMM_REF_H

#include <math.h>
#include <stdint.h>

#include "wl_rng.h"

#define TG_DEFAULT_SIZE 8u
#define TG_MAX_SIZE 64u
#define TG_TILE 32u        /* a CTA computes a 32 x 32 tile of D: 2 x 2 warps of 16 x 16 */
#define TG_THREADS 128u

typedef struct {
    uint32_t m, n, k;
} tg_dims;

static inline tg_dims tg_dims_for(uint32_t size) {
    tg_dims d;
    d.m = 64u * size;
    d.n = 64u * size;
    d.k = 32u * size + 32u;
    return d;
}

/* The IEEE half bits of v / 4 for an integer v in [-8, 8] (all exact in half). */
static inline uint16_t tg_half_quarter(int v) {
    if (v == 0) return 0;
    uint16_t sign = v < 0 ? 0x8000u : 0;
    unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
    while ((a >> e) > 1) e++;                  /* a = 2^e x (1 + f), e <= 3 */
    unsigned frac = (a << (10 - e)) & 0x3ffu;  /* the 10 fraction bits */
    int exp = (int)e - 2 + 15;                 /* the value is a x 2^-2 */
    return (uint16_t)(sign | (unsigned)exp << 10 | frac);
}

static inline float tg_half_value(uint16_t h) {
    int e = (h >> 10) & 0x1f;
    float m = (float)(h & 0x3ff);
    float v = e ? ldexpf(1024.0f + m, e - 25) : ldexpf(m, -24);
    return (h & 0x8000u) ? -v : v;
}

static inline void tg_gen(tg_dims d, uint64_t seed, uint16_t *a, uint16_t *b, float *c) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint64_t i = 0; i < (uint64_t)d.m * d.k; i++) a[i] = tg_half_quarter((int)wl_rng_below(&r, 17) - 8);
    for (uint64_t i = 0; i < (uint64_t)d.k * d.n; i++) b[i] = tg_half_quarter((int)wl_rng_below(&r, 17) - 8);
    for (uint64_t i = 0; i < (uint64_t)d.m * d.n; i++) c[i] = (float)((int)wl_rng_below(&r, 256) - 128) / 16.0f;
}

/* D = A B + C: exact (see above), so summed in any order. */
static inline void tg_ref(tg_dims d, const uint16_t *a, const uint16_t *b, const float *c, float *want) {
    for (uint32_t i = 0; i < d.m; i++)
        for (uint32_t j = 0; j < d.n; j++) {
            double s = c[(uint64_t)i * d.n + j];
            for (uint32_t k = 0; k < d.k; k++)
                s += (double)tg_half_value(a[(uint64_t)i * d.k + k]) * (double)tg_half_value(b[(uint64_t)j * d.k + k]);
            want[(uint64_t)i * d.n + j] = (float)s;
        }
}

#endif
