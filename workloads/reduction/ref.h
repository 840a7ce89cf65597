/* reduction: input generation and CPU reference (C11 and C++).
 *
 * --size S means n = S * 32768 + 1234 ints (a ragged tail: n is not a multiple of
 * a warp, a block or the grid).  The result is the sum and the number of
 * non-zero elements.
 */
#ifndef WL_REDUCTION_REF_H
#define WL_REDUCTION_REF_H

#include <stdint.h>

#include "wl_rng.h"

#define REDUCTION_DEFAULT_SIZE 128u
/* Values are in [-100, 100], so |sum| <= 100 * n; n stays below 2^31 / 100 so the
 * int sum can never overflow (on the GPU or here). */
#define REDUCTION_MAX_SIZE 512u
#define REDUCTION_BLOCK 256u
#define REDUCTION_ITEMS_PER_THREAD 4u  /* grid sized so each thread sums >= ~4 elements */
#define REDUCTION_MAX_GRID 1024u       /* also the most partials the final pass reads */

static inline uint32_t reduction_n(uint32_t size) { return size * 32768u + 1234u; }

static inline uint32_t reduction_grid(uint32_t n) {
    uint32_t per_block = REDUCTION_BLOCK * REDUCTION_ITEMS_PER_THREAD;
    uint32_t blocks = (n + per_block - 1) / per_block;
    return blocks < REDUCTION_MAX_GRID ? blocks : REDUCTION_MAX_GRID;
}

/* About a third of the values are zero (so the non-zero count is not simply n),
 * the rest uniform in [-100, 100]. */
static inline void reduction_gen(uint32_t n, uint64_t seed, int *in) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint32_t i = 0; i < n; i++) {
        if (wl_rng_below(&r, 3) == 0)
            in[i] = 0;
        else
            in[i] = (int)wl_rng_below(&r, 201) - 100;
    }
}

static inline void reduction_ref(uint32_t n, const int *in, int *sum, int *nonzero) {
    int s = 0, nz = 0;
    for (uint32_t i = 0; i < n; i++) {
        s += in[i];
        nz += in[i] != 0;
    }
    *sum = s;
    *nonzero = nz;
}

#endif
