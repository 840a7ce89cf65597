/* Placement 'first_touch' (FirstTouch-Distrib, Arunkumar et al. ISCA 2017, as
 * the Locality Descriptor paper's §6.2 uses it): a page (-numa_page_size, 64 KB)
 * is placed in the zone of the SM that touches it first; the grid is split into
 * N contiguous chunks of CTAs (linear order), chunk z running in zone z.
 * The page table is an open-addressing hash that grows (rarely) when a new page
 * is touched and it is three quarters full. */
#include <stdio.h>
#include <stdlib.h>

#include "numa/numa.h"

typedef struct {
    uint32_t nzones;
    uint32_t page_shift;
    uint64_t *key;       /* page + 1; 0 = empty */
    uint8_t *zone;
    uint64_t cap, count;
} ft_state;

static void *ft_create(const numa_geom *g, char *err, size_t errlen) {
    if (g->page_size < 128 || (g->page_size & (g->page_size - 1))) {
        snprintf(err, errlen, "-numa_page_size: expected a power of two of at least 128 bytes, got %llu",
                 (unsigned long long)g->page_size);
        return NULL;
    }
    ft_state *s = calloc(1, sizeof *s);
    if (s) {
        s->nzones = g->nzones;
        s->page_shift = (uint32_t)__builtin_ctzll(g->page_size);
        s->cap = 1024;
        s->key = calloc(s->cap, sizeof *s->key);
        s->zone = calloc(s->cap, 1);
    }
    if (!s || !s->key || !s->zone) {
        if (s) free(s->key), free(s->zone), free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return s;
}

static void ft_destroy(void *st) {
    ft_state *s = st;
    free(s->key);
    free(s->zone);
    free(s);
}

static uint64_t slot_of(const ft_state *s, uint64_t key) {
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    uint64_t i = (h >> 20) & (s->cap - 1);
    while (s->key[i] && s->key[i] != key) i = (i + 1) & (s->cap - 1);
    return i;
}

static int grow(ft_state *s) {
    ft_state t = *s;
    t.cap = s->cap * 2;
    t.key = calloc(t.cap, sizeof *t.key);
    t.zone = calloc(t.cap, 1);
    if (!t.key || !t.zone) {
        free(t.key);
        free(t.zone);
        return -1;
    }
    for (uint64_t i = 0; i < s->cap; i++)
        if (s->key[i]) {
            uint64_t j = slot_of(&t, s->key[i]);
            t.key[j] = s->key[i];
            t.zone[j] = s->zone[i];
        }
    free(s->key);
    free(s->zone);
    *s = t;
    return 0;
}

static uint32_t ft_zone_of(void *st, uint64_t addr, uint32_t from, int touch, uint64_t *local) {
    ft_state *s = st;
    uint64_t key = (addr >> s->page_shift) + 1;
    uint64_t i = slot_of(s, key);
    *local = addr;
    if (s->key[i]) return s->zone[i];
    if (!touch) return s->nzones;
    /* out of host memory: the page stays unplaced and goes to the toucher each time */
    if (4 * (s->count + 1) > 3 * s->cap && grow(s)) return from;
    i = slot_of(s, key);
    s->key[i] = key;
    s->zone[i] = (uint8_t)from;
    s->count++;
    return from;
}

static int ft_kernel_begin(void *st, const numa_launch *L, uint8_t *cta_zone, locsim_dim3 *cls) {
    const ft_state *s = st;
    (void)cls;
    for (uint64_t id = 0; id < L->nctas; id++) cta_zone[id] = (uint8_t)(id * s->nzones / L->nctas);
    return 1;
}

const numa_place_ops numa_place_first_touch = {
    .name = "first_touch",
    .help = "FirstTouch-Distrib: pages placed where first touched; the grid split in contiguous CTA chunks per zone",
    .create = ft_create,
    .destroy = ft_destroy,
    .kernel_begin = ft_kernel_begin,
    .zone_of = ft_zone_of,
};
