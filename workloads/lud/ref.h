/* lud: input generation and the check, shared by host.c (C11) and kernel.cu's main (C++).
 *
 * Blocked LU decomposition without pivoting (Doolittle: unit lower L, upper U, stored
 * in place in the row-major n x n matrix).  The matrix is diagonally dominant
 * (off-diagonal entries in [-1, 1), diagonal n), so no pivoting is needed and every
 * pivot stays >= 1.
 *
 * n need not be a multiple of the 16 x 16 tile: the kernels treat the matrix as if
 * padded with the identity (A 0; 0 I), whose LU factors are (L 0; 0 I)(U 0; 0 I), so
 * an element outside the matrix reads as 1 on the diagonal and 0 elsewhere and is
 * never written.
 *
 * --size S means n = 40*S + 8 (S = 1: 48 = three whole tiles; S = 2: 88 = five
 * tiles and a half one, so the ragged last tile row and column are exercised). */
#ifndef WL_LUD_REF_H
#define WL_LUD_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define LUD_BS 16               /* tile edge */
#define LUD_DEFAULT_SIZE 8u     /* n = 328: 21 x 21 tiles */
#define LUD_MAX_SIZE 1000u      /* n*n stays far below 2^31 */

static inline int32_t lud_n(uint32_t size) { return (int32_t)(40u * size + 8u); }
static inline int32_t lud_tiles(int32_t n) { return (n + LUD_BS - 1) / LUD_BS; }

/* Returns the n x n matrix (row-major) or NULL when out of memory or size is too large. */
static inline float *lud_generate(uint32_t size, uint64_t seed, int32_t *n_out) {
    wl_rng r;
    *n_out = 0;
    if (size < 1 || size > LUD_MAX_SIZE) return NULL;
    int32_t n = lud_n(size);
    float *a = (float *)malloc((size_t)n * (size_t)n * sizeof(float));
    if (!a) return NULL;
    wl_rng_seed(&r, seed);
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            a[(size_t)i * n + j] = i == j ? (float)n : 2.0f * wl_rng_float(&r) - 1.0f;
    *n_out = n;
    return a;
}

/* Check of the factorisation: reconstruct L*U from lu (in double) and compare it with
 * the original a.  Gaussian elimination in floating point, in any order of operations,
 * with or without fma, yields factors with L*U = A + E, |E| <= gamma_n |L| |U|
 * elementwise, gamma_n = n u / (1 - n u), u = 2^-24 (Higham, Accuracy and Stability
 * of Numerical Algorithms, Thm 9.3).  We allow twice that bound (the double-precision
 * reconstruction adds a relative error below 1e-13); a wrong update moves an entry by
 * O(1), far above it (the bound is ~1e-5 * n at worst here).
 * Returns 1 when every entry is within the bound, 0 otherwise (the first failing
 * entry in *bad_i, *bad_j, *got = (L*U)_ij, *want = a_ij). */
static inline int lud_check(int32_t n, const float *a, const float *lu, int32_t *bad_i, int32_t *bad_j,
                            double *got, double *want) {
    double u = ldexp(1.0, -24);
    double gamma = 2.0 * (n * u) / (1.0 - n * u);
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = 0; j < n; j++) {
            int32_t last = i < j ? i : j;
            double sum = 0.0, bound = 0.0;
            for (int32_t p = 0; p <= last; p++) {
                double l = p == i ? 1.0 : (double)lu[(size_t)i * n + p];
                double up = (double)lu[(size_t)p * n + j];
                sum += l * up;
                bound += fabs(l) * fabs(up);
            }
            double expect = (double)a[(size_t)i * n + j];
            if (!(fabs(sum - expect) <= gamma * bound)) {
                *bad_i = i;
                *bad_j = j;
                *got = sum;
                *want = expect;
                return 0;
            }
        }
    }
    return 1;
}

#endif
