/* The Locality Descriptor L1D policy (Vijaykumar et al. §4.4 and Fig. 11;
 * docs/ldesc.md).  Each access is matched to its descriptor (ldesc_lookup: the
 * highest-priority descriptor whose range holds the address; a local-memory
 * access to the LOCAL descriptor whose offsets hold its word; addresses outside
 * every descriptor are plain LRU data):
 *
 *   NO_REUSE       bypass: a miss allocates no line (-ldesc_l1_bypass);
 *   INTRA_THREAD   hard pinning (-ldesc_l1_hard_pin): the line is inserted with the
 *                  highest priority; when every candidate of a set is hard-pinned
 *                  the victim is way 0, so the other ways keep their part of the
 *                  working set instead of thrashing;
 *   INTER_THREAD   soft pinning (-ldesc_l1_soft_pin): inserted above ordinary data,
 *                  below hard-pinned data, with no thrashing control (LRU among
 *                  soft-pinned lines).  1: only COACCESSED IRREGULAR descriptors
 *                  (Fig. 11, what LDesc combines); 2: every INTER_THREAD descriptor
 *                  (§4.4's wording, the LDesc-Cache ablation).
 * Victim: the LRU line among the candidates of the lowest priority present.
 * -ldesc_unpin_period P > 0: every P core cycles all priorities are reset (a line
 * pinned in an earlier period counts as ordinary data), the paper's unpin timer.
 *
 * Statistics: per descriptor (ids 0..7) L1 hits, in-flight (MSHR) hits, misses
 * and bypasses, and in total, pinned-line evictions and way-0 evictions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldesc/ldesc.h"
#include "mem/cache.h"

enum { LVL_NONE = 0, LVL_SOFT = 1, LVL_HARD = 2 };
#define STAT_IDS 8   /* descriptors with their own statistics */

typedef struct {
    uint64_t stamp;
    uint32_t epoch;     /* unpin period the priority was given in */
    uint8_t level;
} ld_line;

typedef struct {
    uint64_t hits, pending, misses, bypasses;
} ld_count;

typedef struct {
    uint32_t assoc, period;
    uint64_t local_base, local_stride;   /* local memory's interleave (cache_geometry) */
    uint8_t bypass, hard, soft;
    uint64_t clock;
    const ldesc_set *set;
    ld_count per[STAT_IDS], all;
    uint64_t pinned_evictions, way0_evictions;
    ld_line line[];     /* nsets * assoc */
} ld_state;

static void *ld_create(const cache_geometry *g) {
    ld_state *s = calloc(1, sizeof *s + (size_t)g->nsets * g->assoc * sizeof(ld_line));
    if (!s) return NULL;
    s->assoc = g->assoc;
    s->local_base = g->local_base;
    s->local_stride = g->local_word_stride;
    s->period = g->ldesc_unpin_period;
    s->bypass = g->ldesc_bypass;
    s->hard = g->ldesc_hard_pin;
    s->soft = g->ldesc_soft_pin;
    return s;
}

static const char *ld_check(const cache_geometry *g) {
    return g->level == CACHE_LEVEL_L1D ? NULL : "is for the L1D only (-l1d_policy ldesc)";
}

static ld_line *at(ld_state *s, uint32_t set, uint32_t way) { return &s->line[(size_t)set * s->assoc + way]; }

static uint32_t epoch_of(const ld_state *s, uint64_t now) { return s->period ? (uint32_t)(now / s->period) : 0; }

static const ldesc_entry *desc_of(const ld_state *s, const mem_req *r) {
    if (!s->set) return NULL;
    if (!mem_access_is_local(r->type)) return ldesc_lookup(s->set, r->addr);
    if (!s->set->nlocal || !s->local_stride || r->addr < s->local_base) return NULL;
    /* word w of every thread lies in [base + w x stride, base + (w + 1) x stride) */
    return ldesc_lookup_local(s->set, (r->addr - s->local_base) / s->local_stride * 4);
}

/* The priority a line of descriptor e is inserted with. */
static uint8_t level_of(const ld_state *s, const ldesc_entry *e) {
    if (!e) return LVL_NONE;
    if (s->hard && (e->d.type & LOCSIM_LDESC_INTRA_THREAD)) return LVL_HARD;
    if (s->soft && (e->d.type & LOCSIM_LDESC_INTER_THREAD) &&
        (s->soft == 2 || (e->d.sharing == LOCSIM_LDESC_COACCESSED && e->d.pattern == LOCSIM_LDESC_IRREGULAR)))
        return LVL_SOFT;
    return LVL_NONE;
}

/* A line's priority now: none once its unpin period has passed. */
static uint8_t live_level(const ld_line *l, uint32_t epoch) {
    return l->level && l->epoch == epoch ? l->level : LVL_NONE;
}

/* NO_REUSE data allocates no line (with -ldesc_l1_bypass). */
static int bypassed(const ld_state *s, const ldesc_entry *e) {
    return e && s->bypass && e->d.type == LOCSIM_LDESC_NO_REUSE;
}

static void ld_kernel_begin(void *st, const ldesc_set *hints) {
    ((ld_state *)st)->set = hints;
}

static cache_alloc_decision ld_allocate(void *st, uint32_t set, uint32_t way, const cache_line *victim,
                                        const mem_req *r, uint64_t now) {
    (void)set, (void)way, (void)victim, (void)now;
    const ldesc_entry *e = desc_of(st, r);
    return bypassed(st, e) ? CACHE_ALLOC_BYPASS : CACHE_ALLOC_INSERT;
}

static void ld_insert(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    ld_state *s = st;
    ld_line *l = at(s, set, way);
    l->stamp = ++s->clock;
    l->level = level_of(s, desc_of(s, r));
    l->epoch = epoch_of(s, now);
}

static void ld_hit(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)r, (void)now;
    ld_state *s = st;
    at(s, set, way)->stamp = ++s->clock;
}

static int ld_find_victim(void *st, uint32_t set, uint64_t candidates, const mem_req *r, uint64_t now) {
    (void)r;
    ld_state *s = st;
    uint32_t epoch = epoch_of(s, now);
    int best = -1;
    uint8_t best_lvl = 0;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (!(candidates & (1ull << w))) continue;
        const ld_line *l = at(s, set, w);
        uint8_t lvl = live_level(l, epoch);
        if (best < 0 || lvl < best_lvl || (lvl == best_lvl && l->stamp < at(s, set, (uint32_t)best)->stamp)) {
            best = (int)w;
            best_lvl = lvl;
        }
    }
    if (best < 0) return -1;
    if (best_lvl == LVL_HARD && (candidates & 1u)) {   /* the whole set is hard-pinned */
        best = 0;
        s->way0_evictions++;
    }
    if (best_lvl) s->pinned_evictions++;
    return best;
}

static void ld_access(void *st, uint32_t set, int way, const mem_req *r, cache_outcome o, uint64_t now) {
    (void)set, (void)now;
    ld_state *s = st;
    const ldesc_entry *e = desc_of(s, r);
    if (!e) return;
    /* A read miss that left no line behind was bypassed (counted here, once, and
     * not in allocate, which a refused access asks again at its retry). */
    int bypass = o == CACHE_MISS && way < 0 && !mem_access_is_write(r->type) && bypassed(s, e);
    ld_count *c[2] = {&s->all, e->id < STAT_IDS ? &s->per[e->id] : NULL};
    for (int i = 0; i < 2 && c[i]; i++) {
        if (o == CACHE_HIT) c[i]->hits++;
        else if (o == CACHE_HIT_RESERVED) c[i]->pending++;
        else if (o == CACHE_MISS) c[i]->misses++;
        c[i]->bypasses += bypass;
    }
}

#define PER(i)                                                                                     \
    {"ldesc_d" #i "_l1_hits", NULL, NULL, 0, "L1D hits on descriptor " #i "'s data"},              \
    {"ldesc_d" #i "_l1_pending_hits", NULL, NULL, 0,                                               \
     "L1D in-flight (MSHR) hits on descriptor " #i "'s data"},                                     \
    {"ldesc_d" #i "_l1_misses", NULL, NULL, 0, "L1D misses on descriptor " #i "'s data"},          \
    {"ldesc_d" #i "_l1_bypasses", NULL, NULL, 0, "L1D misses of descriptor " #i " not allocated (NO_REUSE)"}

static const cache_policy_stat_def ld_stats[] = {
    {"ldesc_l1_hits", NULL, NULL, 0, "L1D hits on described data (any descriptor)"},
    {"ldesc_l1_pending_hits", NULL, NULL, 0, "L1D in-flight (MSHR) hits on described data"},
    {"ldesc_l1_misses", NULL, NULL, 0, "L1D misses on described data"},
    {"ldesc_l1_bypasses", NULL, NULL, 0, "L1D misses not allocated because their descriptor is NO_REUSE"},
    {"ldesc_l1_accesses", NULL, NULL, 0, "L1D accesses to described data (hits + pending hits + misses)"},
    {"ldesc_l1_inflight_hit_rate", "ldesc_l1_pending_hits", "ldesc_l1_accesses", 1.0,
     "in-flight (MSHR) hits / accesses on described data (the paper's Fig. 16)"},
    {"ldesc_l1_pinned_evictions", NULL, NULL, 0, "victims that were pinned (hard or soft, in their unpin period)"},
    {"ldesc_l1_way0_evictions", NULL, NULL, 0, "victims taken from way 0 because the whole set was hard-pinned"},
    PER(0), PER(1), PER(2), PER(3), PER(4), PER(5), PER(6), PER(7),
    {NULL, NULL, NULL, 0, NULL},
};

static void ld_report(const void *st, uint64_t now, void (*emit)(void *, const char *, double), void *ctx) {
    (void)now;
    const ld_state *s = st;
    emit(ctx, "ldesc_l1_hits", (double)s->all.hits);
    emit(ctx, "ldesc_l1_pending_hits", (double)s->all.pending);
    emit(ctx, "ldesc_l1_misses", (double)s->all.misses);
    emit(ctx, "ldesc_l1_bypasses", (double)s->all.bypasses);
    emit(ctx, "ldesc_l1_accesses", (double)(s->all.hits + s->all.pending + s->all.misses));
    emit(ctx, "ldesc_l1_pinned_evictions", (double)s->pinned_evictions);
    emit(ctx, "ldesc_l1_way0_evictions", (double)s->way0_evictions);
    for (int i = 0; i < STAT_IDS; i++) {
        char name[48];
        const ld_count *c = &s->per[i];
        const uint64_t v[4] = {c->hits, c->pending, c->misses, c->bypasses};
        static const char *const what[4] = {"hits", "pending_hits", "misses", "bypasses"};
        for (int k = 0; k < 4; k++) {
            snprintf(name, sizeof name, "ldesc_d%d_l1_%s", i, what[k]);
            emit(ctx, name, (double)v[k]);
        }
    }
}

const cache_policy_ops cache_policy_ldesc = {
    .name = "ldesc",
    .help = "Locality Descriptor L1D (Vijaykumar et al.): NO_REUSE bypasses, INTRA_THREAD hard-pinned (way 0 "
            "evicted when a set is all pinned), INTER_THREAD soft-pinned; LRU otherwise (docs/ldesc.md)",
    .create = ld_create,
    .destroy = free,
    .on_hit = ld_hit,
    .on_insert = ld_insert,
    .find_victim = ld_find_victim,
    .allocate = ld_allocate,
    .check = ld_check,
    .on_access = ld_access,
    .report = ld_report,
    .stats = ld_stats,
    .kernel_begin = ld_kernel_begin,
};
