/* nqueens: the work list and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Counting the solutions of the N-queens puzzle by bitboard backtracking, the way
 * GPU solvers split it: the host enumerates every legal placement of the first
 * NQ_PREFIX_ROWS rows (a prefix, stored as the three attack masks it leaves for the
 * next row), and each GPU thread counts the completions of one prefix.
 *
 * N = size + 7: sizes 1..9 give N = 8..16 (a 32-bit mask holds a row).  N = 12 at
 * the default size 5 is 14200 solutions from 4080 prefixes (threads); N = 13 takes
 * five times as long (the search grows about 5x per row).  The
 * puzzle has no input beyond N: the seed shuffles the work list (which thread gets
 * which prefix), as a work queue would; the answer does not depend on it.
 *
 * Besides the per-prefix counts (compared with the recursive CPU count of the same
 * prefix), the total is compared with the published number of solutions. */
#ifndef WL_NQUEENS_REF_H
#define WL_NQUEENS_REF_H

#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define NQ_MAX_N 16
#define NQ_MAX_SIZE (NQ_MAX_N - 7)
#define NQ_PREFIX_ROWS 4          /* rows placed by the host */
#define NQ_BLOCK 64u              /* threads per CTA */

static inline int nq_board(uint32_t size) { return (int)size + 7; }

/* Solutions of N queens for N = 0..16 (OEIS A000170). */
static const uint64_t nq_known[NQ_MAX_N + 1] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712,
                                                 365596, 2279184, 14772512 };

/* One prefix: the columns taken and the two diagonal attack masks for the next row. */
typedef struct {
    uint32_t cols, left, right;
} nq_prefix;

static inline void nq_enumerate(int n, int row, uint32_t cols, uint32_t left, uint32_t right, nq_prefix *out,
                                uint32_t *count) {
    const uint32_t all = (1u << n) - 1;
    if (row == NQ_PREFIX_ROWS) {
        if (out) out[*count] = (nq_prefix){ cols, left, right };
        (*count)++;
        return;
    }
    for (uint32_t avail = all & ~(cols | left | right); avail; avail &= avail - 1) {
        uint32_t bit = avail & (0u - avail);
        nq_enumerate(n, row + 1, cols | bit, ((left | bit) << 1) & all, (right | bit) >> 1, out, count);
    }
}

/* The shuffled work list (NULL on out-of-memory); *count gets its length. */
static inline nq_prefix *nq_generate(int n, uint64_t seed, uint32_t *count) {
    *count = 0;
    nq_enumerate(n, 0, 0, 0, 0, NULL, count);
    nq_prefix *list = (nq_prefix *)malloc(*count * sizeof(nq_prefix));
    if (!list) return NULL;
    uint32_t k = 0;
    nq_enumerate(n, 0, 0, 0, 0, list, &k);
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint32_t i = *count; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = wl_rng_below(&r, i);
        nq_prefix t = list[i - 1];
        list[i - 1] = list[j];
        list[j] = t;
    }
    return list;
}

/* Completions of a partial board with `rows` rows still to place (recursive). */
static inline uint32_t nq_count(uint32_t all, int rows, uint32_t cols, uint32_t left, uint32_t right) {
    if (rows == 0) return 1;
    uint32_t total = 0;
    for (uint32_t avail = all & ~(cols | left | right); avail; avail &= avail - 1) {
        uint32_t bit = avail & (0u - avail);
        total += nq_count(all, rows - 1, cols | bit, ((left | bit) << 1) & all, (right | bit) >> 1);
    }
    return total;
}

#endif
