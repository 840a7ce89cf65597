/* mvt: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * PolyBench's MVT, x1 += A y1 and x2 += A^T y2, in PolyBench/GPU's two kernels:
 * mv_kernel1, one thread per row i (a warp walks 32 rows, each thread re-reading its
 * row's line 8 times: the lines of 32 rows must stay in the L1 between; y1[j] one
 * broadcast), and mv_kernel2, one thread per column (coalesced, A streamed once).
 *
 * Sizes: A is N x N, N = 256 * size; default size 8, N = 2048 (16 MB; PolyBench/GPU
 * uses 4096).  A, x1, x2, y1, y2 uniform in [0, 1) from the seed.
 *
 * Each sum is an fmaf chain in index order starting from the old x, here and in
 * the kernels: x1 and x2 are compared bit for bit. */
#ifndef WL_MVT_REF_H
#define WL_MVT_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define MV_MAX_SIZE 32u /* N = 8192: 256 MB */
#define MV_THREADS 256u /* PolyBench/GPU's 1-D CTA */

static inline uint32_t mv_order(uint32_t size) { return 256u * size; }

typedef struct {
    uint32_t n;
    float *a, *x1, *x2, *y1, *y2;
} mv_data;

static inline void mv_free(mv_data *d) {
    free(d->a); free(d->x1); free(d->x2); free(d->y1); free(d->y2);
}

/* 0 on out-of-memory */
static inline int mv_generate(uint32_t n, uint64_t seed, mv_data *d) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    d->n = n;
    d->a = (float *)malloc((size_t)n * n * sizeof(float));
    d->x1 = (float *)malloc(n * sizeof(float)); d->x2 = (float *)malloc(n * sizeof(float));
    d->y1 = (float *)malloc(n * sizeof(float)); d->y2 = (float *)malloc(n * sizeof(float));
    if (!d->a || !d->x1 || !d->x2 || !d->y1 || !d->y2) {
        mv_free(d);
        return 0;
    }
    for (size_t i = 0; i < (size_t)n * n; i++) d->a[i] = wl_rng_float(&r);
    float *v[4] = { d->x1, d->x2, d->y1, d->y2 };
    for (int k = 0; k < 4; k++)
        for (uint32_t i = 0; i < n; i++) v[k][i] = wl_rng_float(&r);
    return 1;
}

static inline void mv_reference(const mv_data *d, float *x1, float *x2) {
    uint32_t n = d->n;
    for (uint32_t i = 0; i < n; i++) {
        float s = d->x1[i];
        for (uint32_t j = 0; j < n; j++) s = fmaf(d->a[(size_t)i * n + j], d->y1[j], s);
        x1[i] = s;
    }
    for (uint32_t i = 0; i < n; i++) {
        float s = d->x2[i];
        for (uint32_t j = 0; j < n; j++) s = fmaf(d->a[(size_t)j * n + i], d->y2[j], s);
        x2[i] = s;
    }
}

#endif
