/* invindex: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Inverted-index construction (the inversion step of an indexer, the Mars
 * InvertedIndex problem): the input is a forward index -- for every document its
 * distinct term ids in increasing order, each with its term frequency -- and the
 * output is the inverted index: for every term its postings, the (document, tf)
 * pairs of the documents that contain it, as CSR arrays (start[term] ..).
 *
 * On the GPU (one thread per document): ii_count adds one to the document
 * frequency of each of its terms with atomics; the host turns the frequencies
 * into list starts (exclusive prefix sum); ii_scatter claims a place in each of
 * its terms' lists with an atomic cursor and writes its pair there.  A list's
 * order is the order its atomics arrived in, as with any atomic scatter: the check
 * compares each list as a set (sorted by document on the host), and the document
 * frequencies exactly.
 *
 * Documents are 256 * size bags of words: each draws 16..127 words from a
 * vocabulary with Zipf frequencies (rank r has weight 1/(r+1), as in real text);
 * the II_STOP_WORDS most frequent are stop words, which indexers leave out, and
 * the next II_TERMS are the indexed terms.  The common terms still have postings
 * in a good part of the documents (their counters are contended) and most terms
 * in a few.  4096 documents at the default size 16: a 1.4 MB forward index and
 * as large an inverted one.  (Atomics are slow to simulate -- every one is an L2
 * transaction -- which keeps the default small.) */
#ifndef WL_INVINDEX_REF_H
#define WL_INVINDEX_REF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define II_TERMS 16384u           /* indexed terms */
#define II_STOP_WORDS 32u         /* the most frequent words, not indexed */
#define II_RANKS (II_TERMS + II_STOP_WORDS)
#define II_MIN_TOKENS 16u
#define II_MAX_TOKENS 127u
#define II_BLOCK 128u             /* threads per CTA */
#define II_MAX_SIZE 4096u         /* 1 M documents */

static inline uint32_t ii_num_docs(uint32_t size) { return 256u * size; }

/* A forward or inverted index in CSR form: list i is item[start[i] .. start[i+1]). */
typedef struct {
    uint32_t lists, items;
    uint32_t *start;              /* lists + 1 */
    uint32_t *item;               /* term ids (forward) or document ids (inverted) */
    uint32_t *tf;                 /* term frequency of each pair */
} ii_csr;

static inline void ii_csr_free(ii_csr *c) {
    free(c->start);
    free(c->item);
    free(c->tf);
}

static inline int ii_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The forward index of `docs` documents; 0 on out-of-memory (nothing to free). */
static inline int ii_generate(uint32_t docs, uint64_t seed, ii_csr *fwd) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    double *cdf = (double *)malloc(II_RANKS * sizeof(double)), acc = 0.0;
    size_t cap = (size_t)docs * II_MAX_TOKENS;
    fwd->lists = docs;
    fwd->items = 0;
    fwd->start = (uint32_t *)malloc((docs + 1) * sizeof(uint32_t));
    fwd->item = (uint32_t *)malloc(cap * sizeof(uint32_t));
    fwd->tf = (uint32_t *)malloc(cap * sizeof(uint32_t));
    if (!cdf || !fwd->start || !fwd->item || !fwd->tf) {
        free(cdf);
        ii_csr_free(fwd);
        return 0;
    }
    for (uint32_t t = 0; t < II_RANKS; t++) cdf[t] = acc += 1.0 / (double)(t + 1);
    uint32_t tokens[II_MAX_TOKENS];
    for (uint32_t d = 0; d < docs; d++) {
        uint32_t drawn = II_MIN_TOKENS + wl_rng_below(&r, II_MAX_TOKENS - II_MIN_TOKENS + 1), len = 0;
        for (uint32_t i = 0; i < drawn; i++) { /* a Zipf-distributed word; stop words dropped */
            double u = wl_rng_double(&r) * acc;
            uint32_t lo = 0, hi = II_RANKS - 1;
            while (lo < hi) {
                uint32_t mid = (lo + hi) / 2;
                if (cdf[mid] > u) hi = mid;
                else lo = mid + 1;
            }
            if (lo >= II_STOP_WORDS) tokens[len++] = lo - II_STOP_WORDS;
        }
        qsort(tokens, len, sizeof(uint32_t), ii_cmp_u32); /* bag of words: distinct terms with counts */
        fwd->start[d] = fwd->items;
        for (uint32_t i = 0; i < len; i++) {
            if (i > 0 && tokens[i] == tokens[i - 1]) {
                fwd->tf[fwd->items - 1]++;
                continue;
            }
            fwd->item[fwd->items] = tokens[i];
            fwd->tf[fwd->items++] = 1;
        }
    }
    fwd->start[docs] = fwd->items;
    free(cdf);
    return 1;
}

/* The inverted index, lists in document order; 0 on out-of-memory (nothing to free). */
static inline int ii_reference(const ii_csr *fwd, ii_csr *inv) {
    inv->lists = II_TERMS;
    inv->items = fwd->items;
    inv->start = (uint32_t *)calloc(II_TERMS + 1, sizeof(uint32_t));
    inv->item = (uint32_t *)malloc(((size_t)fwd->items + 1) * sizeof(uint32_t));
    inv->tf = (uint32_t *)malloc(((size_t)fwd->items + 1) * sizeof(uint32_t));
    uint32_t *fill = (uint32_t *)calloc(II_TERMS, sizeof(uint32_t));
    if (!inv->start || !inv->item || !inv->tf || !fill) {
        free(fill);
        ii_csr_free(inv);
        return 0;
    }
    for (uint32_t i = 0; i < fwd->items; i++) inv->start[fwd->item[i] + 1]++;
    for (uint32_t t = 0; t < II_TERMS; t++) inv->start[t + 1] += inv->start[t];
    for (uint32_t d = 0; d < fwd->lists; d++)
        for (uint32_t i = fwd->start[d]; i < fwd->start[d + 1]; i++) {
            uint32_t t = fwd->item[i], at = inv->start[t] + fill[t]++;
            inv->item[at] = d;
            inv->tf[at] = fwd->tf[i];
        }
    free(fill);
    return 1;
}

static inline int ii_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The GPU's index (document frequencies df[II_TERMS], lists in the reference's
 * places, each in arrival order) against the reference.  Each list is sorted by
 * document in scratch (items pairs) before the comparison.  Returns 1 if equal;
 * otherwise 0 with the first difference in msg. */
static inline int ii_compare(const ii_csr *want, const uint32_t *df, const uint32_t *doc, const uint32_t *tf,
                             uint64_t *scratch, char *msg, size_t msg_size) {
    for (uint32_t t = 0; t < II_TERMS; t++) {
        uint32_t s = want->start[t], n = want->start[t + 1] - s;
        if (df[t] != n) {
            snprintf(msg, msg_size, "term %u: got document frequency %u, expected %u", t, df[t], n);
            return 0;
        }
        for (uint32_t i = 0; i < n; i++) scratch[i] = (uint64_t)doc[s + i] << 32 | tf[s + i];
        qsort(scratch, n, sizeof(uint64_t), ii_cmp_u64);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t d = (uint32_t)(scratch[i] >> 32), f = (uint32_t)scratch[i];
            if (d != want->item[s + i] || f != want->tf[s + i]) {
                snprintf(msg, msg_size, "term %u, posting %u: got (doc %u, tf %u), expected (doc %u, tf %u)", t, i,
                         d, f, want->item[s + i], want->tf[s + i]);
                return 0;
            }
        }
    }
    return 1;
}

#endif
