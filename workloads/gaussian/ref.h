/* gaussian: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Gaussian elimination without pivoting of a dense N x N system A x = b, the problem
 * of Rodinia's gaussian: for each pivot t the multipliers m[i][t] = a[i][t] / a[t][t]
 * of the rows below it (ge_fan1), then the trailing rows and b are updated,
 * a[i][j] -= m[i][t] * a[t][j] (ge_fan2).  What is left is the upper-triangular
 * factor, the transformed b and the multipliers (the unit lower factor).
 *
 * The matrix (Rodinia's generator has the same shape): a symmetric Toeplitz matrix
 * 10 * rho^|i-j|, the covariance of a first-order autoregressive process (positive
 * definite, so elimination without pivoting is stable), rho in [0.98, 0.995) by the
 * seed, plus a random non-negative diagonal (keeps it positive definite); b random.
 * rho^d is built by repeated float multiplication, so the input is the same on
 * every machine.  N = 16 * size; default size 7: N = 112, 49 KB of matrix, 222
 * launches (Rodinia's own matrices go from 16 to thousands of rows).
 *
 * Every update is one fmaf(-m, p, a), here and in the kernels, and the multiplier
 * one IEEE division: the reference performs exactly the GPU's float operations,
 * so a, b and m are compared bit for bit. */
#ifndef WL_GAUSSIAN_REF_H
#define WL_GAUSSIAN_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define GE_MAX_SIZE 128u     /* N = 2048: 16 MB per matrix, 4094 launches */
#define GE_FAN1_THREADS 256u /* ge_fan1: one thread per row below the pivot */
#define GE_TILE 16u          /* ge_fan2: 16 x 16 threads, x along a row */

static inline uint32_t ge_order(uint32_t size) { return 16u * size; }

/* a: n * n row-major, b: n (malloc'd; 0 on out-of-memory). */
static inline int ge_generate(uint32_t n, uint64_t seed, float **a_out, float **b_out) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *a = (float *)malloc((size_t)n * n * sizeof(float));
    float *b = (float *)malloc((size_t)n * sizeof(float));
    float *coe = (float *)malloc((size_t)n * sizeof(float));
    if (!a || !b || !coe) {
        free(a); free(b); free(coe);
        return 0;
    }
    float rho = 0.98f + 0.015f * wl_rng_float(&r);
    coe[0] = 10.0f;
    for (uint32_t d = 1; d < n; d++) coe[d] = coe[d - 1] * rho;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) a[(size_t)i * n + j] = coe[i > j ? i - j : j - i];
    for (uint32_t i = 0; i < n; i++) {
        a[(size_t)i * n + i] += wl_rng_float(&r);
        b[i] = 2.0f * wl_rng_float(&r) - 1.0f;
    }
    free(coe);
    *a_out = a;
    *b_out = b;
    return 1;
}

/* Eliminate in place: a becomes the upper factor (with the eliminated entries as
 * ge_fan2 leaves them), b the transformed right-hand side, m (n * n, zeroed by
 * the caller) holds m[i][t] for i > t. */
static inline void ge_reference(float *a, float *b, float *m, uint32_t n) {
    for (uint32_t t = 0; t + 1 < n; t++) {
        for (uint32_t i = t + 1; i < n; i++) m[(size_t)i * n + t] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
        for (uint32_t i = t + 1; i < n; i++) {
            float mi = m[(size_t)i * n + t];
            for (uint32_t j = t; j < n; j++)
                a[(size_t)i * n + j] = fmaf(-mi, a[(size_t)t * n + j], a[(size_t)i * n + j]);
            b[i] = fmaf(-mi, b[t], b[i]);
        }
    }
}

#endif
