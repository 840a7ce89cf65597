/* scalarprod: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The CUDA SDK's scalarProd problem: the dot products of many pairs of float
 * vectors.  Its structure: a grid of fewer CTAs than pairs, each CTA taking pairs
 * blockIdx.x, blockIdx.x + gridDim.x, ...; for a pair, SP_ACCUM partial sums (the
 * CTA's threads take them in turns), partial sum p adding elements p, p + SP_ACCUM,
 * ... (consecutive threads read consecutive elements: coalesced), then a tree
 * reduction of the partial sums in shared memory.  Every element is read once: no
 * reuse (the Locality Descriptor paper's NO_REUSE).
 *
 * Sizes: 128 * size pairs of SP_ELEMS = 4096 elements (the SDK's vector length;
 * it runs 256 pairs); default size 4, 512 pairs, 16 MB.  Elements uniform in
 * [0, 1) from the seed (the SDK's).
 *
 * Partial sums are fmaf chains in element order and the tree adds them in the
 * kernel's order (stride SP_ACCUM / 2, / 4, ... 1): the reference performs exactly
 * the GPU's float operations and the products are compared bit for bit. */
#ifndef WL_SCALARPROD_REF_H
#define WL_SCALARPROD_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define SP_MAX_SIZE 256u  /* 32768 pairs, 1 GB */
#define SP_ELEMS 4096u    /* elements per vector (the SDK's ELEMENT_N) */
#define SP_ACCUM 1024u    /* partial sums per pair (the SDK's ACCUM_N) */
#define SP_THREADS 256u
#define SP_CTAS 128u      /* grid: at most this many CTAs, each loops over pairs */

static inline uint32_t sp_pairs(uint32_t size) { return 128u * size; }

/* a, b: pairs * SP_ELEMS (malloc'd; 0 on out-of-memory) */
static inline int sp_generate(uint32_t pairs, uint64_t seed, float **a_out, float **b_out) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    size_t n = (size_t)pairs * SP_ELEMS;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    if (!a || !b) {
        free(a); free(b);
        return 0;
    }
    for (size_t i = 0; i < n; i++) a[i] = wl_rng_float(&r);
    for (size_t i = 0; i < n; i++) b[i] = wl_rng_float(&r);
    *a_out = a;
    *b_out = b;
    return 1;
}

/* out[pairs]; acc is SP_ACCUM floats of scratch */
static inline void sp_reference(const float *a, const float *b, uint32_t pairs, float *acc, float *out) {
    for (uint32_t v = 0; v < pairs; v++) {
        const float *va = a + (size_t)v * SP_ELEMS, *vb = b + (size_t)v * SP_ELEMS;
        for (uint32_t p = 0; p < SP_ACCUM; p++) {
            float s = 0.0f;
            for (uint32_t i = p; i < SP_ELEMS; i += SP_ACCUM) s = fmaf(va[i], vb[i], s);
            acc[p] = s;
        }
        for (uint32_t stride = SP_ACCUM / 2; stride > 0; stride >>= 1)
            for (uint32_t p = 0; p < stride; p++) acc[p] += acc[p + stride];
        out[v] = acc[0];
    }
}

#endif
