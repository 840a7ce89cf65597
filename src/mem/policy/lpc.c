/* LPC: the CWLP paper's locality-protected cache allocation based on the
 * instruction PC (Zhang et al., FITEE 2018, section 5.1), with its locality
 * information score (LIS, section 5.2.1).  Meant for the L1D (-l1d_policy lpc).
 *
 * Per line (DESIGN.md section 5.3):
 *   W_PC   the PC of the line's last access        ("PC, shown as W_PC, is for the
 *                                                    instruction which has accessed
 *                                                    the cache line recently")
 *   reuse  did the last access come from the same PC as the one before it
 *   LPL    the locality prediction logic's bit: the previous access's reuse bit
 *   pred   LPL AND reuse ("an AND operation between the last and the current
 *          reuse values of the same block"): the next access is predicted to
 *          have locality
 * On a hit: reuse = (PC == W_PC); pred = LPL & reuse; LPL = reuse; W_PC = PC.
 * On an allocation: W_PC = requester's PC, reuse = LPL = pred = 0.
 * Only a real hit (CACHE_HIT) runs the detector: the paper's Algorithm 1 does it
 * under "STATUS=HIT"; a pending hit or a sector miss only refreshes recency.
 *
 * Victim (PCAU, "if a cache block is LRU and is without a locality, it will be
 * evicted"): the least recently used candidate whose pred is 0; when every
 * candidate is predicted to have locality, the LRU candidate, and the set's
 * predictions are cleared so that lines cannot stay frozen.  Recency is LRU's:
 * every touch (hit, pending hit, sector miss, allocation) refreshes it, so with
 * no predictions LPC picks exactly what lru picks.
 *
 * LIS: every access the cache accepts adds one bit to a 10-access window: the
 * pred bit the hit left on its line, 0 for any other outcome (a miss's line is
 * new and predicts nothing).  When the window holds 10 bits the verdict is
 * latched, locality = (sum > 5) ("if the addition of the 10 bits is larger than
 * five ... there is locality"), and the window is cleared ("for every 10 L1
 * cache accesses, LIS update logic buffer will be cleaned up").  The verdict
 * holds until the next window completes (the paper's Algorithm 2 acts only when
 * dist0 + dist1 == 10); it starts as "no locality".  It is the policy's locality
 * signal (cache_policy_ops.locality), which the SM hands to its warp scheduler.
 *
 * Statistics (summed over the L1Ds): L1D_LIS_locality_cycles / L1D_LIS_cycles
 * = L1D_LIS_locality_frac, the fraction of core cycles since each L1D's first
 * access in which its LIS said "locality"; L1D_LPC_predicted_hits (hits that
 * left pred = 1), L1D_LPC_protected_victims (victims chosen past an older line
 * that was predicted to have locality), L1D_LPC_set_clears (victims taken from
 * an all-predicted set).
 */
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"

#define LIS_WINDOW 10u      /* accesses per LIS window (paper: "10-bit storage") */
#define LIS_THRESHOLD 5u    /* locality when the window's sum is larger than this */

typedef struct {
    uint64_t stamp;   /* LRU recency: a per-cache counter, later = more recent */
    uint32_t pc;      /* W_PC */
    uint8_t reuse, lpl, pred;
} lpc_line;

typedef struct {
    uint32_t assoc;
    uint64_t clock;
    /* LIS */
    uint32_t win_count, win_sum;
    int locality;               /* latched verdict of the last complete window */
    int started;                /* an access has been seen (time accounting runs) */
    uint64_t since;             /* cycle of the last time-accounting update */
    uint64_t locality_cycles, cycles;
    /* counters */
    uint64_t predicted_hits, protected_victims, set_clears;
    lpc_line line[];            /* nsets * assoc */
} lpc_state;

static void *lpc_create(const cache_geometry *g) {
    lpc_state *s = calloc(1, sizeof *s + (size_t)g->nsets * g->assoc * sizeof(lpc_line));
    if (s) s->assoc = g->assoc;
    return s;
}

static void lpc_destroy(void *st) { free(st); }

static lpc_line *line_of(lpc_state *s, uint32_t set, uint32_t way) {
    return &s->line[(size_t)set * s->assoc + way];
}

static void lpc_touch(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    lpc_state *s = st;
    line_of(s, set, way)->stamp = ++s->clock;
}

static void lpc_insert(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)now;
    lpc_state *s = st;
    lpc_line *l = line_of(s, set, way);
    l->stamp = ++s->clock;
    l->pc = r->pc;
    l->reuse = l->lpl = l->pred = 0;
}

static void lpc_evict(void *st, uint32_t set, uint32_t way, const cache_line *line) {
    (void)line;
    lpc_state *s = st;
    memset(line_of(s, set, way), 0, sizeof(lpc_line));
}

/* Charge the cycles since the last update to the verdict that held them. */
static void lis_account(lpc_state *s, uint64_t now) {
    if (!s->started || now <= s->since) return;
    uint64_t d = now - s->since;
    s->cycles += d;
    if (s->locality) s->locality_cycles += d;
    s->since = now;
}

static void lis_push(lpc_state *s, uint32_t bit, uint64_t now) {
    if (!s->started) {
        s->started = 1;
        s->since = now;
    }
    s->win_sum += bit;
    if (++s->win_count < LIS_WINDOW) return;
    lis_account(s, now);
    s->locality = s->win_sum > LIS_THRESHOLD;
    s->win_count = s->win_sum = 0;
}

static void lpc_access(void *st, uint32_t set, int way, const mem_req *r, cache_outcome o, uint64_t now) {
    lpc_state *s = st;
    uint32_t pred = 0;
    if (o == CACHE_HIT && way >= 0) {
        lpc_line *l = line_of(s, set, (uint32_t)way);
        l->reuse = r->pc == l->pc;
        l->pred = l->lpl & l->reuse;
        l->lpl = l->reuse;
        l->pc = r->pc;
        pred = l->pred;
        s->predicted_hits += pred;
    }
    lis_push(s, pred, now);
}

static int lpc_find_victim(void *st, uint32_t set, uint64_t candidates, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    lpc_state *s = st;
    lpc_line *l = line_of(s, set, 0);
    int lru = -1, unpredicted = -1;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (!(candidates & (1ull << w))) continue;
        if (lru < 0 || l[w].stamp < l[lru].stamp) lru = (int)w;
        if (!l[w].pred && (unpredicted < 0 || l[w].stamp < l[unpredicted].stamp)) unpredicted = (int)w;
    }
    if (unpredicted >= 0) {
        s->protected_victims += unpredicted != lru;
        return unpredicted;
    }
    if (lru >= 0) {
        /* every candidate predicted: LRU, and forget the set's predictions */
        for (uint32_t w = 0; w < s->assoc; w++) l[w].pred = 0;
        s->set_clears++;
    }
    return lru;
}

static int lpc_locality(const void *st) { return ((const lpc_state *)st)->locality; }

static void lpc_report(const void *st, uint64_t now, void (*emit)(void *ctx, const char *name, double value),
                       void *ctx) {
    const lpc_state *s = st;
    /* close the open interval on a copy: reporting must not change the state */
    uint64_t cycles = s->cycles, loc = s->locality_cycles;
    if (s->started && now > s->since) {
        cycles += now - s->since;
        if (s->locality) loc += now - s->since;
    }
    emit(ctx, "L1D_LIS_cycles", (double)cycles);
    emit(ctx, "L1D_LIS_locality_cycles", (double)loc);
    emit(ctx, "L1D_LPC_predicted_hits", (double)s->predicted_hits);
    emit(ctx, "L1D_LPC_protected_victims", (double)s->protected_victims);
    emit(ctx, "L1D_LPC_set_clears", (double)s->set_clears);
}

static const cache_policy_stat_def lpc_stats[] = {
    {"L1D_LIS_cycles", NULL, NULL, 0, "core cycles since each L1D's first access, summed over the L1Ds"},
    {"L1D_LIS_locality_cycles", NULL, NULL, 0, "of which the L1D's LIS said 'locality' (last 10-access window sum > 5)"},
    {"L1D_LIS_locality_frac", "L1D_LIS_locality_cycles", "L1D_LIS_cycles", 1.0,
     "fraction of cycles with locality (CWLP's LIS)"},
    {"L1D_LPC_predicted_hits", NULL, NULL, 0, "L1D hits that left the line predicted to have locality (LPL & reuse)"},
    {"L1D_LPC_protected_victims", NULL, NULL, 0,
     "LPC victims chosen over an older line that was predicted to have locality"},
    {"L1D_LPC_set_clears", NULL, NULL, 0, "LPC victims from a set whose lines were all predicted (predictions cleared)"},
    {NULL, NULL, NULL, 0, NULL},
};

const cache_policy_ops cache_policy_lpc = {
    .name = "lpc",
    .help = "CWLP's PC-based locality-protected allocation: LRU among lines not predicted to have locality; "
            "its LIS is the L1D locality signal",
    .create = lpc_create,
    .destroy = lpc_destroy,
    .on_hit = lpc_touch,
    .on_insert = lpc_insert,
    .on_evict = lpc_evict,
    .find_victim = lpc_find_victim,
    .on_access = lpc_access,
    .locality = lpc_locality,
    .report = lpc_report,
    .stats = lpc_stats,
};
