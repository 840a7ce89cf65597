/* Device heap for device-side malloc / free: see devheap.h. */
#include <stdlib.h>
#include <string.h>

#include "runtime/devheap.h"

#define ALIGN 16u
#define KEY_EMPTY 0ull
#define KEY_DEAD  (~0ull)

typedef struct {
    uint64_t off, len;
} range;

struct devheap {
    uint64_t base, size;
    range *free;             /* free ranges, sorted by offset, never adjacent (coalesced) */
    size_t nfree, free_cap;
    /* live blocks: open addressing on offset + 1 (KEY_EMPTY / KEY_DEAD mark free slots) */
    uint64_t *keys, *lens;
    size_t cap, nkeys;       /* nkeys counts live and dead slots */
    uint64_t used, live;
};

static size_t slot_of(uint64_t key, size_t cap) { return (size_t)(key * 0x9E3779B97F4A7C15ull >> 7) & (cap - 1); }

static int table_put(devheap *h, uint64_t off, uint64_t len);

/* Rebuild the table with room for twice the live blocks (dead slots dropped). */
static int table_grow(devheap *h) {
    size_t cap = h->cap ? h->cap : 64;
    while (cap < 4 * (h->live + 1)) cap *= 2;
    uint64_t *ok = h->keys, *ol = h->lens;
    size_t ocap = h->cap;
    h->keys = calloc(cap, sizeof *h->keys);
    h->lens = calloc(cap, sizeof *h->lens);
    if (!h->keys || !h->lens) {
        free(h->keys);
        free(h->lens);
        h->keys = ok;
        h->lens = ol;
        return -1;
    }
    h->cap = cap;
    h->nkeys = 0;
    for (size_t i = 0; i < ocap; i++)
        if (ok[i] != KEY_EMPTY && ok[i] != KEY_DEAD) table_put(h, ok[i] - 1, ol[i]);
    free(ok);
    free(ol);
    return 0;
}

static int table_put(devheap *h, uint64_t off, uint64_t len) {
    if (2 * (h->nkeys + 1) > h->cap && table_grow(h)) return -1;
    size_t i = slot_of(off + 1, h->cap);
    while (h->keys[i] != KEY_EMPTY && h->keys[i] != KEY_DEAD) i = (i + 1) & (h->cap - 1);
    if (h->keys[i] == KEY_EMPTY) h->nkeys++;
    h->keys[i] = off + 1;
    h->lens[i] = len;
    return 0;
}

/* Remove the live block at off; its length, or 0 when there is none. */
static uint64_t table_take(devheap *h, uint64_t off) {
    if (!h->cap) return 0;
    for (size_t i = slot_of(off + 1, h->cap); h->keys[i] != KEY_EMPTY; i = (i + 1) & (h->cap - 1))
        if (h->keys[i] == off + 1) {
            h->keys[i] = KEY_DEAD;
            return h->lens[i];
        }
    return 0;
}

devheap *devheap_create(uint64_t base, uint64_t size) {
    devheap *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->base = base;
    h->size = size & ~(uint64_t)(ALIGN - 1);
    h->free_cap = 16;
    h->free = malloc(h->free_cap * sizeof *h->free);
    if (!h->free) {
        free(h);
        return NULL;
    }
    if (h->size) h->free[h->nfree++] = (range){0, h->size};
    return h;
}

void devheap_destroy(devheap *h) {
    if (!h) return;
    free(h->free);
    free(h->keys);
    free(h->lens);
    free(h);
}

uint64_t devheap_malloc(devheap *h, uint64_t n) {
    if (n > h->size) return 0;
    uint64_t len = n ? (n + ALIGN - 1) & ~(uint64_t)(ALIGN - 1) : ALIGN;
    for (size_t i = 0; i < h->nfree; i++) {
        range *r = &h->free[i];
        if (r->len < len) continue;
        uint64_t off = r->off;
        if (table_put(h, off, len)) return 0;
        r->off += len;
        r->len -= len;
        if (!r->len) {
            memmove(r, r + 1, (h->nfree - i - 1) * sizeof *r);
            h->nfree--;
        }
        h->used += len;
        h->live++;
        return h->base + off;
    }
    return 0;
}

/* Return [off, off + len) to the free ranges, merging with its neighbours. */
static int give_back(devheap *h, uint64_t off, uint64_t len) {
    size_t lo = 0, hi = h->nfree;
    while (lo < hi) { /* first range after off */
        size_t mid = (lo + hi) / 2;
        if (h->free[mid].off < off) lo = mid + 1;
        else hi = mid;
    }
    int join_prev = lo > 0 && h->free[lo - 1].off + h->free[lo - 1].len == off;
    int join_next = lo < h->nfree && off + len == h->free[lo].off;
    if (join_prev && join_next) {
        h->free[lo - 1].len += len + h->free[lo].len;
        memmove(&h->free[lo], &h->free[lo + 1], (h->nfree - lo - 1) * sizeof *h->free);
        h->nfree--;
    } else if (join_prev) {
        h->free[lo - 1].len += len;
    } else if (join_next) {
        h->free[lo].off = off;
        h->free[lo].len += len;
    } else {
        if (h->nfree == h->free_cap) {
            range *p = realloc(h->free, 2 * h->free_cap * sizeof *p);
            if (!p) return -1;
            h->free = p;
            h->free_cap *= 2;
        }
        memmove(&h->free[lo + 1], &h->free[lo], (h->nfree - lo) * sizeof *h->free);
        h->free[lo] = (range){off, len};
        h->nfree++;
    }
    return 0;
}

int devheap_free(devheap *h, uint64_t addr) {
    if (addr < h->base || addr - h->base >= h->size) return -1;
    uint64_t off = addr - h->base, len = table_take(h, off);
    if (!len) return -1;
    h->used -= len;
    h->live--;
    return give_back(h, off, len);
}

uint64_t devheap_base(const devheap *h) { return h->base; }
uint64_t devheap_size(const devheap *h) { return h->size; }
uint64_t devheap_used(const devheap *h) { return h->used; }
uint64_t devheap_live_blocks(const devheap *h) { return h->live; }
