/* mummer: input generation, suffix array and CPU reference (shared by host.c and
 * kernel.cu's main).
 *
 * MUMmerGPU-style read matching: for every short read and every start position q
 * in it, find the longest exact match of read[q..] anywhere in a reference genome.
 * MUMmerGPU walks a suffix tree; we search the reference's suffix array, the
 * array form of the same index: a binary search finds where read[q..] would sort
 * among the suffixes, and the longest match is with one of the two neighbours
 * there.  One GPU thread per read, as in MUMmerGPU.
 *
 * The reference is 16384 * size bases (384 K at the default size 24: a small
 * bacterial genome is a few megabases; the host builds the suffix array by sorting,
 * which limits us), with repeats: a tenth of it copies earlier stretches with 1%
 * point mutations, as genomes repeat themselves.  Reads are MUM_READ_LEN = 50
 * bases (a short-read length), 32 * size of them: nine in ten sampled from the
 * reference with 2% sequencing errors, one in ten random (contamination).  For
 * each read and each q in 0..MUM_READ_LEN - MUM_MIN_MATCH the answer is the match
 * length and the reference position, both produced by the same search on the CPU;
 * the check also confirms on the reference itself that each reported match holds
 * and cannot be extended.  mum_search is written once and runs on both sides. */
#ifndef WL_MUMMER_REF_H
#define WL_MUMMER_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#ifdef __CUDACC__
#define MUM_HD __host__ __device__
#else
#define MUM_HD
#endif

#define MUM_READ_LEN 50u
#define MUM_MIN_MATCH 25u                                  /* the shortest match reported */
#define MUM_STARTS (MUM_READ_LEN - MUM_MIN_MATCH + 1)      /* start positions per read */
#define MUM_BLOCK 64u                                      /* threads per CTA */
#define MUM_MAX_SIZE 256u                                  /* 4 M bases */

static inline uint32_t mum_ref_len(uint32_t size) { return 16384u * size; }
static inline uint32_t mum_num_reads(uint32_t size) { return 32u * size; }

static inline uint8_t mum_base(wl_rng *r) { return (uint8_t)"ACGT"[wl_rng_below(r, 4)]; }

/* Reference (n bases) and reads (nr * MUM_READ_LEN); 0 on out-of-memory (nothing to free). */
static inline int mum_generate(uint32_t n, uint32_t nr, uint64_t seed, uint8_t **ref, uint8_t **reads) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    *ref = (uint8_t *)malloc(n);
    *reads = (uint8_t *)malloc((size_t)nr * MUM_READ_LEN);
    if (!*ref || !*reads) {
        free(*ref);
        free(*reads);
        return 0;
    }
    uint8_t *g = *ref;
    for (uint32_t i = 0; i < n;) {
        uint32_t len = 100 + wl_rng_below(&r, 400);
        if (i > 1000 && wl_rng_below(&r, 10) == 0) { /* a repeat of an earlier stretch */
            uint32_t from = wl_rng_below(&r, i - len); /* i > 1000 > len: ends before i */
            for (uint32_t j = 0; j < len && i < n; j++, i++)
                g[i] = wl_rng_below(&r, 100) == 0 ? mum_base(&r) : g[from + j];
        } else {
            for (uint32_t j = 0; j < len && i < n; j++, i++) g[i] = mum_base(&r);
        }
    }
    for (uint32_t k = 0; k < nr; k++) {
        uint8_t *read = *reads + (size_t)k * MUM_READ_LEN;
        if (wl_rng_below(&r, 10) == 0) {
            for (uint32_t j = 0; j < MUM_READ_LEN; j++) read[j] = mum_base(&r);
        } else {
            uint32_t at = wl_rng_below(&r, n - MUM_READ_LEN + 1);
            for (uint32_t j = 0; j < MUM_READ_LEN; j++)
                read[j] = wl_rng_below(&r, 50) == 0 ? mum_base(&r) : g[at + j];
        }
    }
    return 1;
}

/* Is suffix a of g[0..n) before suffix b?  (A proper prefix sorts first.) */
static inline int mum_suffix_less(const uint8_t *g, uint32_t n, uint32_t a, uint32_t b) {
    while (a < n && b < n) {
        if (g[a] != g[b]) return g[a] < g[b];
        a++;
        b++;
    }
    return a == n && b < n;
}

/* The suffix array of g[0..n) by a bottom-up merge sort; NULL on out-of-memory. */
static inline uint32_t *mum_suffix_array(const uint8_t *g, uint32_t n) {
    uint32_t *sa = (uint32_t *)malloc(n * sizeof(uint32_t)), *tmp = (uint32_t *)malloc(n * sizeof(uint32_t));
    if (!sa || !tmp) {
        free(sa);
        free(tmp);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) sa[i] = i;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = mum_suffix_less(g, n, sa[j], sa[i]) ? sa[j++] : sa[i++];
            while (i < mid) tmp[k++] = sa[i++];
            while (j < hi) tmp[k++] = sa[j++];
        }
        uint32_t *t = sa;
        sa = tmp;
        tmp = t;
    }
    free(tmp);
    return sa;
}

/* Longest common prefix of p[0..m) and g[s..n). */
MUM_HD static inline uint32_t mum_lcp(const uint8_t *g, uint32_t n, uint32_t s, const uint8_t *p, uint32_t m) {
    uint32_t k = 0;
    while (k < m && s + k < n && g[s + k] == p[k]) k++;
    return k;
}

/* The longest match of p[0..m) in g: binary search for the first suffix not
 * before p, then the longer match of it and its predecessor (the later one on a
 * tie).  *pos gets the reference position; returns the length. */
MUM_HD static inline uint32_t mum_search(const uint8_t *g, uint32_t n, const uint32_t *sa, const uint8_t *p, uint32_t m,
                                  uint32_t *pos) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, s = sa[mid];
        uint32_t k = mum_lcp(g, n, s, p, m);
        int before = k < m && (s + k == n || g[s + k] < p[k]); /* suffix before p */
        if (before) lo = mid + 1;
        else hi = mid;
    }
    uint32_t best = 0, at = 0;
    if (lo > 0) {
        best = mum_lcp(g, n, sa[lo - 1], p, m);
        at = sa[lo - 1];
    }
    if (lo < n) {
        uint32_t k = mum_lcp(g, n, sa[lo], p, m);
        if (k >= best) {
            best = k;
            at = sa[lo];
        }
    }
    *pos = at;
    return best;
}

#endif
