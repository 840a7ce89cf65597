/* atax: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * PolyBench's ATAX, y = A^T (A x), in PolyBench/GPU's two kernels: ax_kernel1, one
 * thread per row i, tmp[i] = sum_j A[i][j] x[j] (a warp's threads walk 32 different
 * rows: each thread re-reads its own row's line 8 times, the 32 rows' lines must
 * stay in the L1 between; x[j] is one broadcast); ax_kernel2, one thread per column
 * j, y[j] = sum_i A[i][j] tmp[i] (coalesced, A streamed once: no reuse).
 *
 * Sizes: A is N x N, N = 256 * size; default size 8, N = 2048 (16 MB; PolyBench/GPU
 * uses 4096).  A, x uniform in [0, 1) from the seed (PolyBench fills i*j/N patterns;
 * random values catch index errors a product pattern hides).
 *
 * Each sum is an fmaf chain in index order, here and in the kernels: tmp and y
 * are compared bit for bit. */
#ifndef WL_ATAX_REF_H
#define WL_ATAX_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define AX_MAX_SIZE 32u /* N = 8192: 256 MB */
#define AX_THREADS 256u /* PolyBench/GPU's 1-D CTA */

static inline uint32_t ax_order(uint32_t size) { return 256u * size; }

/* a: n * n, x: n (malloc'd; 0 on out-of-memory) */
static inline int ax_generate(uint32_t n, uint64_t seed, float **a_out, float **x_out) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *a = (float *)malloc((size_t)n * n * sizeof(float)), *x = (float *)malloc((size_t)n * sizeof(float));
    if (!a || !x) {
        free(a); free(x);
        return 0;
    }
    for (size_t i = 0; i < (size_t)n * n; i++) a[i] = wl_rng_float(&r);
    for (uint32_t i = 0; i < n; i++) x[i] = wl_rng_float(&r);
    *a_out = a;
    *x_out = x;
    return 1;
}

static inline void ax_reference(const float *a, const float *x, uint32_t n, float *tmp, float *y) {
    for (uint32_t i = 0; i < n; i++) {
        float s = 0.0f;
        for (uint32_t j = 0; j < n; j++) s = fmaf(a[(size_t)i * n + j], x[j], s);
        tmp[i] = s;
    }
    for (uint32_t j = 0; j < n; j++) {
        float s = 0.0f;
        for (uint32_t i = 0; i < n; i++) s = fmaf(a[(size_t)i * n + j], tmp[i], s);
        y[j] = s;
    }
}

#endif
