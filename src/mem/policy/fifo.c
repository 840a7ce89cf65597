/* FIFO replacement: the victim is the candidate inserted first; hits do not
 * change the order (ties: lowest way). */
#include <stdlib.h>

#include "mem/cache.h"

typedef struct {
    uint32_t assoc;
    uint64_t clock;
    uint64_t inserted[];   /* nsets * assoc */
} fifo_state;

static void *fifo_create(const cache_geometry *g) {
    fifo_state *s = calloc(1, sizeof *s + (size_t)g->nsets * g->assoc * sizeof(uint64_t));
    if (s) s->assoc = g->assoc;
    return s;
}

static void fifo_destroy(void *st) { free(st); }

static void fifo_insert(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    fifo_state *s = st;
    s->inserted[(size_t)set * s->assoc + way] = ++s->clock;
}

static int fifo_find_victim(void *st, uint32_t set, uint64_t candidates, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    const fifo_state *s = st;
    const uint64_t *ins = &s->inserted[(size_t)set * s->assoc];
    int best = -1;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (!(candidates & (1ull << w))) continue;
        if (best < 0 || ins[w] < ins[best]) best = (int)w;
    }
    return best;
}

const cache_policy_ops cache_policy_fifo = {
    .name = "fifo",
    .help = "first in, first out (insertion order; hits do not matter)",
    .create = fifo_create,
    .destroy = fifo_destroy,
    .on_insert = fifo_insert,
    .find_victim = fifo_find_victim,
    .pure_choice = 1,   /* find_victim reads the stamps only */
};
