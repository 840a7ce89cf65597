/* nw: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Needleman-Wunsch global alignment of two protein-like sequences of NW_ALPHABET
 * letters.  The second sequence is a mutated copy of the first (substitutions,
 * insertions, deletions), so the optimal path stays near the diagonal as in real
 * alignments.  The substitution scores come from a random symmetric matrix (positive
 * on the diagonal) drawn from the seed; gaps cost NW_PENALTY.  The host precomputes
 * ref[i][j] = substitution score of a[i] against b[j], as GPU ports do. */
#ifndef WL_NW_REF_H
#define WL_NW_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define NW_TILE 16          /* tile side = threads per CTA */
#define NW_ALPHABET 24
#define NW_PENALTY 10

typedef struct {
    int32_t len;     /* both sequences; a multiple of NW_TILE */
    int32_t *ref;    /* len x len substitution scores, row i = a[i], column j = b[j] */
    int32_t *score;  /* (len+1) x (len+1), first row and column initialised */
} nw_problem;

/* len = 64 * size */
static inline int32_t nw_length(uint32_t size) { return (int32_t)(64u * size); }

static inline void nw_free(nw_problem *p) {
    free(p->ref); free(p->score);
    memset(p, 0, sizeof *p);
}

/* Returns 0, or -1 on out-of-memory (p is then empty). */
static inline int nw_generate(nw_problem *p, uint32_t size, uint64_t seed) {
    wl_rng r;
    int32_t len = nw_length(size), w = len + 1;
    int32_t sub[NW_ALPHABET][NW_ALPHABET];
    memset(p, 0, sizeof *p);
    wl_rng_seed(&r, seed);
    p->len = len;
    p->ref = (int32_t *)malloc((size_t)len * len * sizeof(int32_t));
    p->score = (int32_t *)malloc((size_t)w * w * sizeof(int32_t));
    uint8_t *a = (uint8_t *)malloc((size_t)len), *b = (uint8_t *)malloc((size_t)len);
    if (!p->ref || !p->score || !a || !b) {
        free(a); free(b); nw_free(p);
        return -1;
    }
    for (int x = 0; x < NW_ALPHABET; x++) {
        sub[x][x] = 4 + (int32_t)wl_rng_below(&r, 8);
        for (int y = 0; y < x; y++) sub[x][y] = sub[y][x] = -4 + (int32_t)wl_rng_below(&r, 7);
    }
    for (int32_t i = 0; i < len; i++) a[i] = (uint8_t)wl_rng_below(&r, NW_ALPHABET);
    /* b: copy a with ~15% substitutions, ~5% insertions, ~5% deletions */
    int32_t ia = 0, ib = 0;
    while (ib < len) {
        uint32_t op = wl_rng_below(&r, 100);
        if (ia >= len || (op >= 15 && op < 20)) {
            b[ib++] = (uint8_t)wl_rng_below(&r, NW_ALPHABET);    /* insertion (or tail) */
        } else if (op < 15) {
            b[ib++] = (uint8_t)wl_rng_below(&r, NW_ALPHABET);    /* substitution */
            ia++;
        } else if (op < 25) {
            ia++;                                                  /* deletion */
        } else {
            b[ib++] = a[ia++];                                     /* match */
        }
    }
    for (int32_t i = 0; i < len; i++)
        for (int32_t j = 0; j < len; j++) p->ref[(size_t)i * len + j] = sub[a[i]][b[j]];
    memset(p->score, 0, (size_t)w * w * sizeof(int32_t));
    for (int32_t k = 0; k < w; k++) {
        p->score[k] = -k * NW_PENALTY;
        p->score[(size_t)k * w] = -k * NW_PENALTY;
    }
    free(a);
    free(b);
    return 0;
}

static inline int32_t nw_max3(int32_t x, int32_t y, int32_t z) {
    int32_t m = x > y ? x : y;
    return m > z ? m : z;
}

/* Fills the whole (len+1)^2 score matrix (first row/column as generated). */
static inline void nw_reference(const nw_problem *p, int32_t *score) {
    int32_t len = p->len, w = len + 1;
    memcpy(score, p->score, (size_t)w * w * sizeof(int32_t));
    for (int32_t i = 1; i <= len; i++)
        for (int32_t j = 1; j <= len; j++)
            score[(size_t)i * w + j] = nw_max3(score[(size_t)(i - 1) * w + j - 1] + p->ref[(size_t)(i - 1) * len + j - 1],
                                               score[(size_t)(i - 1) * w + j] - NW_PENALTY,
                                               score[(size_t)i * w + j - 1] - NW_PENALTY);
}

#endif
