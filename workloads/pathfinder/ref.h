/* pathfinder: input generation and CPU reference (C11 and C++).
 *
 * A rows x cols grid of step costs (0..9).  The cost of reaching cell (r, c) is
 * its own cost plus the cheapest of the three cells above it (c-1, c, c+1; the
 * edges have two).  The result is the cost row after the last row.
 *
 * --size S means cols = S * 768 + 77 and rows = S + 20.  The kernel advances
 * PATHFINDER_PYRAMID rows per launch; rows - 1 is never a multiple of it at the
 * test sizes, so the last launch is a short one.
 */
#ifndef WL_PATHFINDER_REF_H
#define WL_PATHFINDER_REF_H

#include <stdint.h>

#include "wl_rng.h"

#define PATHFINDER_DEFAULT_SIZE 48u
#define PATHFINDER_MAX_SIZE 512u
#define PATHFINDER_BLOCK 256
#define PATHFINDER_PYRAMID 8   /* rows per launch = ghost columns on each side of a block */
/* Columns a block produces: the rest of its threads are the ghost zone. */
#define PATHFINDER_OWNED (PATHFINDER_BLOCK - 2 * PATHFINDER_PYRAMID)

static inline uint32_t pathfinder_cols(uint32_t size) { return size * 768u + 77u; }
static inline uint32_t pathfinder_rows(uint32_t size) { return size + 20u; }
static inline uint32_t pathfinder_grid(uint32_t cols) {
    return (cols + PATHFINDER_OWNED - 1) / PATHFINDER_OWNED;
}

static inline void pathfinder_gen(uint32_t rows, uint32_t cols, uint64_t seed, int *wall) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint64_t i = 0; i < (uint64_t)rows * cols; i++) wall[i] = (int)wl_rng_below(&r, 10);
}

static inline int pathfinder_min(int a, int b) { return a < b ? a : b; }

/* Row-by-row dynamic programming; prev and cur are cols ints of scratch, the
 * answer ends up in *result (which points at prev or cur). */
static inline void pathfinder_ref(uint32_t rows, uint32_t cols, const int *wall, int *prev, int *cur,
                                  int **result) {
    for (uint32_t c = 0; c < cols; c++) prev[c] = wall[c];
    for (uint32_t r = 1; r < rows; r++) {
        const int *row = wall + (uint64_t)r * cols;
        for (uint32_t c = 0; c < cols; c++) {
            int best = prev[c];
            if (c > 0) best = pathfinder_min(best, prev[c - 1]);
            if (c + 1 < cols) best = pathfinder_min(best, prev[c + 1]);
            cur[c] = row[c] + best;
        }
        int *t = prev;
        prev = cur;
        cur = t;
    }
    *result = prev;
}

#endif
