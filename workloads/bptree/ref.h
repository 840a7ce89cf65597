/* bptree: input generation, tree building and CPU reference (shared by host.c and
 * kernel.cu's main).
 *
 * B+tree search in the style of Rodinia's b+tree findK: a bulk-loaded B+tree laid
 * out in flat arrays, one CTA per query, one thread per key slot of a node; at each
 * level every thread tests whether the query falls between its key and the next,
 * and the one that does names the child for the whole CTA (in shared memory).
 *
 * Nodes hold up to BT_ORDER keys and are filled to BT_FILL (69%, the average fill
 * of a B-tree built by random inserts).  An internal node's key i is the smallest
 * key under child i.  A node's key row has BT_ORDER + 1 entries, unused ones and
 * the last being BT_NONE, so slot i can always compare with slot i + 1.
 *
 * The tree indexes 16384 * size distinct random keys (1 M keys at the default size
 * 64, the size of Rodinia's largest input; 8 MB of nodes), each with a record
 * value.  There are 64 * size queries (Rodinia runs 10000 at 1 M keys; we keep the
 * simulation short): half are keys of the tree, half random
 * numbers (almost all absent).  The reference answers them by binary search in
 * the sorted keys, without the tree. */
#ifndef WL_BPTREE_REF_H
#define WL_BPTREE_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define BT_ORDER 128u             /* keys per node (threads per CTA) */
#define BT_FILL 88u               /* keys per node when bulk-loaded */
#define BT_NONE 0xffffffffu       /* an unused key slot; also "not found" */
#define BT_MAX_SIZE 1024u         /* 16 M keys */

static inline uint32_t bt_num_keys(uint32_t size) { return 16384u * size; }
static inline uint32_t bt_num_queries(uint32_t size) { return 64u * size; }

typedef struct {
    uint32_t nodes, levels;       /* levels: internal levels above the leaves */
    uint32_t root;
    uint32_t *key;                /* nodes * (BT_ORDER + 1) */
    uint32_t *child;              /* nodes * BT_ORDER: node index, or record index in a leaf */
} bt_tree;

typedef struct {
    uint32_t n;
    uint32_t *keys;               /* sorted, distinct, < BT_NONE */
    uint32_t *records;            /* value of keys[i] */
} bt_data;

static inline void bt_data_free(bt_data *d) {
    free(d->keys);
    free(d->records);
}

static inline void bt_tree_free(bt_tree *t) {
    free(t->key);
    free(t->child);
}

static inline int bt_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorted distinct keys with their records, and the queries; 0 on out-of-memory
 * (nothing to free). */
static inline int bt_generate(uint32_t n, uint32_t nq, uint64_t seed, bt_data *d, uint32_t **queries) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    d->keys = (uint32_t *)malloc(n * sizeof(uint32_t));
    d->records = (uint32_t *)malloc(n * sizeof(uint32_t));
    *queries = (uint32_t *)malloc(nq * sizeof(uint32_t));
    if (!d->keys || !d->records || !*queries) {
        bt_data_free(d);
        free(*queries);
        return 0;
    }
    /* distinct sorted keys: draw, sort, redraw the duplicates until none are left */
    for (uint32_t i = 0; i < n; i++) d->keys[i] = (uint32_t)wl_rng_below(&r, BT_NONE);
    for (;;) {
        qsort(d->keys, n, sizeof(uint32_t), bt_cmp_u32);
        int dup = 0;
        for (uint32_t i = 1; i < n; i++)
            if (d->keys[i] == d->keys[i - 1]) {
                d->keys[i] = (uint32_t)wl_rng_below(&r, BT_NONE);
                dup = 1;
            }
        if (!dup) break;
    }
    d->n = n;
    for (uint32_t i = 0; i < n; i++) d->records[i] = wl_rng_below(&r, BT_NONE); /* never BT_NONE */
    for (uint32_t q = 0; q < nq; q++)
        (*queries)[q] = wl_rng_below(&r, 2) ? d->keys[wl_rng_below(&r, n)] : (uint32_t)wl_rng_below(&r, BT_NONE);
    return 1;
}

/* Bulk-load: leaves of BT_FILL keys, then levels of BT_FILL children up to one
 * root.  0 on out-of-memory (nothing to free). */
static inline int bt_build(const bt_data *d, bt_tree *t) {
    uint32_t total = 0, width = (d->n + BT_FILL - 1) / BT_FILL;
    for (uint32_t w = width;; w = (w + BT_FILL - 1) / BT_FILL) {
        total += w;
        if (w == 1) break;
    }
    t->nodes = total;
    t->key = (uint32_t *)malloc((size_t)total * (BT_ORDER + 1) * sizeof(uint32_t));
    t->child = (uint32_t *)malloc((size_t)total * BT_ORDER * sizeof(uint32_t));
    if (!t->key || !t->child) {
        bt_tree_free(t);
        return 0;
    }
    memset(t->key, 0xff, (size_t)total * (BT_ORDER + 1) * sizeof(uint32_t));
    memset(t->child, 0, (size_t)total * BT_ORDER * sizeof(uint32_t));
    /* leaves: node i holds keys [i * FILL, ...), children are record indices */
    for (uint32_t i = 0; i < d->n; i++) {
        uint32_t node = i / BT_FILL, slot = i % BT_FILL;
        t->key[(size_t)node * (BT_ORDER + 1) + slot] = d->keys[i];
        t->child[(size_t)node * BT_ORDER + slot] = i;
    }
    uint32_t first = 0, count = width, levels = 0; /* the level being covered */
    while (count > 1) {
        uint32_t up = first + count, up_count = (count + BT_FILL - 1) / BT_FILL;
        for (uint32_t c = 0; c < count; c++) {
            uint32_t node = up + c / BT_FILL, slot = c % BT_FILL;
            t->key[(size_t)node * (BT_ORDER + 1) + slot] = t->key[(size_t)(first + c) * (BT_ORDER + 1)];
            t->child[(size_t)node * BT_ORDER + slot] = first + c;
        }
        first = up;
        count = up_count;
        levels++;
    }
    t->root = first;
    t->levels = levels;
    return 1;
}

/* The record of key q, or BT_NONE: binary search, no tree. */
static inline uint32_t bt_lookup(const bt_data *d, uint32_t q) {
    uint32_t lo = 0, hi = d->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->keys[mid] < q) lo = mid + 1;
        else hi = mid;
    }
    return lo < d->n && d->keys[lo] == q ? d->records[lo] : BT_NONE;
}

#endif
