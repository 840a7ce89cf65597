/* syrk: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * PolyBench's SYRK, symmetric rank-k update, in the GPU version's form: every
 * element of the N x N matrix C becomes beta * C[i][j] + alpha * sum_k A[i][k] A[j][k]
 * (the whole square, as PolyBench/GPU computes it), A is N x M.  One thread per
 * element of C: a warp's 32 threads read the same A[i][k] (one broadcast) and 32
 * different rows A[j][k] (32 lines, each reused M / 8 times by the same thread and
 * by every warp of every CTA with the same column block): the inter-thread,
 * co-accessed reuse that the Locality Descriptor paper's Table 2 lists for it.
 *
 * Sizes: N = M = 32 * size; default size 6, N = 192 (PolyBench/GPU runs 1024; the
 * L1D sees 32 rows of 768 B = 24 KB per warp's column block, over a 16 KB L1).
 * A and C hold uniform values in [0, 1) (PolyBench's are (i*j)/N patterns; random
 * values catch index errors that a product pattern would hide); alpha and beta
 * come from the seed, as PolyBench's fixed 32412 and 2123 scaled to O(1).
 *
 * Each thread's sum is an fmaf chain over k in order, then
 * fmaf(alpha, sum, beta * C): the reference performs exactly those float
 * operations, so C is compared bit for bit. */
#ifndef WL_SYRK_REF_H
#define WL_SYRK_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define SK_MAX_SIZE 64u /* N = 2048: 16 MB per matrix */
#define SK_BX 32u       /* CTA: 32 x 8 threads, x along a row of C (PolyBench/GPU's shape) */
#define SK_BY 8u

static inline uint32_t sk_order(uint32_t size) { return 32u * size; }

/* a, c: n * n (malloc'd; 0 on out-of-memory) */
static inline int sk_generate(uint32_t n, uint64_t seed, float **a_out, float **c_out, float *alpha,
                              float *beta) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *a = (float *)malloc((size_t)n * n * sizeof(float)), *c = (float *)malloc((size_t)n * n * sizeof(float));
    if (!a || !c) {
        free(a); free(c);
        return 0;
    }
    *alpha = 0.5f + wl_rng_float(&r);
    *beta = 0.5f + wl_rng_float(&r);
    for (size_t i = 0; i < (size_t)n * n; i++) a[i] = wl_rng_float(&r);
    for (size_t i = 0; i < (size_t)n * n; i++) c[i] = wl_rng_float(&r);
    *a_out = a;
    *c_out = c;
    return 1;
}

/* C = beta C + alpha A A^T in place, each element as the kernel computes it */
static inline void sk_reference(const float *a, float *c, uint32_t n, float alpha, float beta) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            float sum = 0.0f;
            for (uint32_t k = 0; k < n; k++) sum = fmaf(a[(size_t)i * n + k], a[(size_t)j * n + k], sum);
            c[(size_t)i * n + j] = fmaf(alpha, sum, beta * c[(size_t)i * n + j]);
        }
}

#endif
