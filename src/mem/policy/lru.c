/* LRU replacement: every line carries the time of its last touch (a per-cache
 * counter, not the clock, so two touches in one cycle are still ordered); the
 * victim is the candidate touched longest ago (ties: lowest way). */
#include <stdlib.h>

#include "mem/cache.h"

typedef struct {
    uint32_t assoc;
    uint64_t clock;
    uint64_t stamp[];   /* nsets * assoc */
} lru_state;

static void *lru_create(const cache_geometry *g) {
    lru_state *s = calloc(1, sizeof *s + (size_t)g->nsets * g->assoc * sizeof(uint64_t));
    if (s) s->assoc = g->assoc;
    return s;
}

static void lru_destroy(void *st) { free(st); }

static void lru_touch(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    lru_state *s = st;
    s->stamp[(size_t)set * s->assoc + way] = ++s->clock;
}

static int lru_find_victim(void *st, uint32_t set, uint64_t candidates, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    const lru_state *s = st;
    const uint64_t *stamp = &s->stamp[(size_t)set * s->assoc];
    int best = -1;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (!(candidates & (1ull << w))) continue;
        if (best < 0 || stamp[w] < stamp[best]) best = (int)w;
    }
    return best;
}

const cache_policy_ops cache_policy_lru = {
    .name = "lru",
    .help = "least recently used (hits and insertions update recency)",
    .create = lru_create,
    .destroy = lru_destroy,
    .on_hit = lru_touch,
    .on_insert = lru_touch,
    .find_victim = lru_find_victim,
    .pure_choice = 1,   /* find_victim reads the stamps only */
};
