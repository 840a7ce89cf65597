/* transpose: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The CUDA SDK's transpose sample, in its coalesced shared-memory version: out =
 * in^T for a W x H float matrix.  A CTA of 32 x 8 threads moves a 32 x 32 tile:
 * coalesced row reads into a shared tile, then coalesced row writes of the
 * tile's columns; the tile has one padding column (33 words a row) so that
 * reading a column hits 32 different banks.  Every element is read and written
 * once: no reuse at all (the Locality Descriptor paper's NO_REUSE).
 *
 * Sizes: W = 512 * size, H = 256 * size (not square, so that a swapped width and
 * height shows); default size 4, 2048 x 1024 (8 MB per matrix; the SDK sample
 * transposes 1024 x 1024 a hundred times).  Elements are distinct (a seed-scrambled
 * bijection of their indices, integers below 2^24 as floats), so any misplaced
 * element is caught; compared bit for bit. */
#ifndef WL_TRANSPOSE_REF_H
#define WL_TRANSPOSE_REF_H

#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define TR_MAX_SIZE 11u /* 5632 x 2816: fewer than 2^24 elements, so all distinct (tr_generate) */
#define TR_TILE 32u
#define TR_ROWS 8u      /* CTA: 32 x 8 threads, each moves 4 elements of a tile column */

static inline uint32_t tr_width(uint32_t size) { return 512u * size; }
static inline uint32_t tr_height(uint32_t size) { return 256u * size; }

/* w * h distinct values (malloc'd; NULL on out-of-memory): element i holds
 * (i * mul + add) mod 2^24 with an odd mul, a bijection on [0, 2^24), as a float
 * (exact: below 2^24); mul and add come from the seed. */
static inline float *tr_generate(uint32_t w, uint32_t h, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *m = (float *)malloc((size_t)w * h * sizeof(float));
    if (!m) return NULL;
    uint32_t mul = (uint32_t)wl_rng_next(&r) | 1u, add = (uint32_t)wl_rng_next(&r);
    for (size_t i = 0; i < (size_t)w * h; i++) m[i] = (float)(((uint32_t)i * mul + add) & 0xffffffu);
    return m;
}

static inline void tr_reference(const float *in, uint32_t w, uint32_t h, float *out) {
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) out[(size_t)x * h + y] = in[(size_t)y * w + x];
}

#endif
