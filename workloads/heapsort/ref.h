/* heapsort: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The WSMP paper's own heap sort benchmark (its text gives no code; this is the
 * per-thread version it names): the key array is cut into segments of HS_SEG keys,
 * and each thread heap-sorts one segment in place in global memory (build a max-heap
 * by sifting down from the middle, then repeatedly swap the root to the end and sift
 * down).  A thread's accesses follow data-dependent paths down its heap (divergent
 * loops, irregular addresses), and the lanes of a warp work in 32 different 256-byte
 * segments, so each warp touches 8 KB and two warps fill a 16 KB L1D.
 *
 * Input model: uniform random 32-bit keys (the usual sort benchmark input), with one
 * segment in four already nearly sorted (ascending with 1 in 16 keys disturbed) as
 * real data often has sorted runs.  Size S: 512*S segments (threads) of 64 keys;
 * the default S = 12 is 6144 segments, 393216 keys, 1.5 MB.
 *
 * The check: every segment equals the CPU's sort of the same input segment. */
#ifndef WL_HEAPSORT_REF_H
#define WL_HEAPSORT_REF_H

#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define HS_MAX_SIZE 1024u
#define HS_SEG 64u        /* keys per segment (per thread) */
#define HS_BLOCK 64u      /* threads per CTA */

static inline uint32_t hs_segments(uint32_t size) { return 512u * size; }

/* segments * HS_SEG keys, or NULL on out-of-memory. */
static inline uint32_t *hs_generate(uint32_t segments, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    uint32_t *keys = (uint32_t *)malloc((size_t)segments * HS_SEG * sizeof(uint32_t));
    if (!keys) return NULL;
    for (uint32_t s = 0; s < segments; s++) {
        uint32_t *k = keys + (size_t)s * HS_SEG;
        if (wl_rng_below(&r, 4) == 0) { /* nearly sorted: ascending steps, a few disturbed */
            uint32_t v = (uint32_t)wl_rng_next(&r) >> 8;
            for (uint32_t i = 0; i < HS_SEG; i++) {
                v += wl_rng_below(&r, 1u << 16);
                k[i] = wl_rng_below(&r, 16) == 0 ? (uint32_t)wl_rng_next(&r) : v;
            }
        } else {
            for (uint32_t i = 0; i < HS_SEG; i++) k[i] = (uint32_t)wl_rng_next(&r);
        }
    }
    return keys;
}

static inline int hs_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts each segment of keys in place (the expected output). */
static inline void hs_reference(uint32_t *keys, uint32_t segments) {
    for (uint32_t s = 0; s < segments; s++) qsort(keys + (size_t)s * HS_SEG, HS_SEG, sizeof(uint32_t), hs_cmp);
}

#endif
