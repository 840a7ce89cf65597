/* doitgen: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * PolyBench's DOITGEN (the multiresolution analysis kernel of MADNESS): for every
 * (r, q), sum[r][q][p] = sum_s A[r][q][s] * C4[s][p], then A[r][q][.] = sum[r][q][.].
 * On the GPU (our port; PolyBench/GPU has none): dg_sum, one thread per (r, q, p)
 * with p along x, reads its row A[r][q][.] (one broadcast per warp) and the column
 * C4[.][p] (coalesced, and the whole 16 KB C4 is re-read by every CTA: the
 * co-accessed inter-thread reuse of the Locality Descriptor paper's Table 2); then
 * dg_copy writes sum back into A (streamed once: no reuse).
 *
 * Sizes: NQ = NP = 64, NR = 4 * size; default size 6, NR = 24 (A and sum 384 KB
 * each; PolyBench's standard data set is 128^3 with NP = 128; ours keeps C4 at
 * 16 KB, the size of the baseline L1D).  A and C4 uniform in [0, 1) from the seed
 * (PolyBench fills (i*j) mod n patterns; random values catch index errors).
 *
 * Each sum is an fmaf chain over s in order, here and in the kernel: A and sum
 * are compared bit for bit. */
#ifndef WL_DOITGEN_REF_H
#define WL_DOITGEN_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define DG_MAX_SIZE 2048u /* NR = 8192: 128 MB per array */
#define DG_NQ 64u
#define DG_NP 64u
#define DG_BX 32u         /* CTA: 32 x 8 threads, x along p, y along the (r, q) rows */
#define DG_BY 8u

static inline uint32_t dg_nr(uint32_t size) { return 4u * size; }

/* a: nr * NQ * NP, c4: NP * NP (malloc'd; 0 on out-of-memory) */
static inline int dg_generate(uint32_t nr, uint64_t seed, float **a_out, float **c4_out) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    size_t na = (size_t)nr * DG_NQ * DG_NP;
    float *a = (float *)malloc(na * sizeof(float)), *c4 = (float *)malloc(DG_NP * DG_NP * sizeof(float));
    if (!a || !c4) {
        free(a); free(c4);
        return 0;
    }
    for (size_t i = 0; i < na; i++) a[i] = wl_rng_float(&r);
    for (size_t i = 0; i < DG_NP * DG_NP; i++) c4[i] = wl_rng_float(&r);
    *a_out = a;
    *c4_out = c4;
    return 1;
}

/* sum: nr * NQ * NP; a is overwritten with it, as the kernels do */
static inline void dg_reference(float *a, const float *c4, uint32_t nr, float *sum) {
    for (size_t rq = 0; rq < (size_t)nr * DG_NQ; rq++)
        for (uint32_t p = 0; p < DG_NP; p++) {
            float s = 0.0f;
            for (uint32_t k = 0; k < DG_NP; k++) s = fmaf(a[rq * DG_NP + k], c4[k * DG_NP + p], s);
            sum[rq * DG_NP + p] = s;
        }
    for (size_t i = 0; i < (size_t)nr * DG_NQ * DG_NP; i++) a[i] = sum[i];
}

#endif
