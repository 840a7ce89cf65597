/* gemm: input generation and CPU reference (C11 and C++).
 *
 * C = alpha * A * B + beta * C, single precision, row-major; A is M x K, B is K x N.
 * --size S means M = 32*S + 19, N = 32*S + 13, K = 16*S + 5: none is a multiple of
 * the 16 x 16 tile, so every edge of the iteration space has partial tiles.
 */
#ifndef WL_GEMM_REF_H
#define WL_GEMM_REF_H

#include <math.h>
#include <stdint.h>

#include "wl_rng.h"

#define GEMM_DEFAULT_SIZE 10u
#define GEMM_MAX_SIZE 256u
#define GEMM_TILE 16
#define GEMM_ALPHA 1.5f
#define GEMM_BETA (-0.5f)

typedef struct {
    uint32_t m, n, k;
} gemm_dims;

static inline gemm_dims gemm_dims_for(uint32_t size) {
    gemm_dims d;
    d.m = 32u * size + 19u;
    d.n = 32u * size + 13u;
    d.k = 16u * size + 5u;
    return d;
}

/* Entries in [-1, 1) with 24 random bits (the scaling is exact). */
static inline void gemm_gen(gemm_dims d, uint64_t seed, float *a, float *b, float *c) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint64_t i = 0; i < (uint64_t)d.m * d.k; i++) a[i] = wl_rng_float(&r) * 2.0f - 1.0f;
    for (uint64_t i = 0; i < (uint64_t)d.k * d.n; i++) b[i] = wl_rng_float(&r) * 2.0f - 1.0f;
    for (uint64_t i = 0; i < (uint64_t)d.m * d.n; i++) c[i] = wl_rng_float(&r) * 2.0f - 1.0f;
}

/* The exact-ish result in double, and for each element the bound on how far a
 * correct float computation may be from it.
 *
 * Why this tolerance: the GPU accumulates the K products with K fused
 * multiply-adds in float (one rounding each), then rounds alpha*acc and the final
 * fma with beta*c.  Standard error analysis bounds the error of that sum by
 * (K + 3) * u * (|alpha| * sum_k |a_ik b_kj| + |beta| * |c_ij|), with u = 2^-24;
 * the double reference's own error is 2^29 times smaller.  A wrong element (a
 * missing or duplicated product, a stale tile) is off by a whole product, far
 * beyond the bound, except when that product is itself tiny, which the random
 * inputs make rare across a whole matrix. */
static inline void gemm_ref(gemm_dims d, const float *a, const float *b, const float *c, double *want,
                            double *tol) {
    double u = ldexp(1.0, -24);
    for (uint32_t i = 0; i < d.m; i++) {
        for (uint32_t j = 0; j < d.n; j++) {
            double sum = 0.0, mag = 0.0;
            for (uint32_t k = 0; k < d.k; k++) {
                double p = (double)a[(uint64_t)i * d.k + k] * (double)b[(uint64_t)k * d.n + j];
                sum += p;
                mag += fabs(p);
            }
            double cij = (double)c[(uint64_t)i * d.n + j];
            uint64_t at = (uint64_t)i * d.n + j;
            want[at] = (double)GEMM_ALPHA * sum + (double)GEMM_BETA * cij;
            tol[at] = (double)(d.k + 4) * u * (fabs((double)GEMM_ALPHA) * mag + fabs((double)GEMM_BETA * cij));
        }
    }
}

/* Index of the first element outside its tolerance (NaN counts as outside), or count. */
static inline uint64_t gemm_first_mismatch(uint64_t count, const float *got, const double *want,
                                           const double *tol) {
    for (uint64_t i = 0; i < count; i++)
        if (!(fabs((double)got[i] - want[i]) <= tol[i])) return i;
    return count;
}

#endif
