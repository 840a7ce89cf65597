/* MFQ DRAM scheduling: the multi-level feedback queue of WSMP (Li et al.,
 * "WSMP", docs/wsmp.md; DESIGN.md 5.4), one per bank.
 *
 * A request enters a level by the latency tolerance sigma (0..100) its warp had
 * when the request left the SM (mem_req.sigma): L0 (most critical) for sigma <
 * t1, L1 below t2, L2 below t3, L3 otherwise (-mfq_thresholds t1:t2:t3).  A
 * request that has waited -mfq_timeouts[k] DRAM cycles in level k >= 1 moves to
 * the back of level k - 1 (L3 -> L2 -> L1 -> L0; L0 has no timeout).  A free
 * bank serves its highest non-empty level; inside a level, in this order:
 *   1. requests that arrived there by a timeout (they have waited longest; the
 *      paper lets them, writes included, go before fresh reads),
 *   2. reads before writes,
 *   3. the warp (SM, warp slot) whose request the bank served last, so one
 *      warp's requests go together,
 *   4. first in, first out (the time the request entered the level).
 * Row hits are not preferred: MFQ replaces FR-FCFS (paper 3.5, 4.4).  The
 * declared variant -mfq_row_hit_first 1 (the paper is silent on open rows)
 * puts, inside a level, the requests to the bank's open row before all
 * others, as FR-FCFS does in its one queue; the order above then holds among
 * the row hits and among the rest.
 *
 * Timeouts are applied lazily when a bank picks: a promotion's time is
 * computed exactly (entered + timeout), so the order is the one eager
 * promotion would give, and a free bank always takes a request at once (the
 * choice never waits for time to pass), so pick_uses_time is not needed.
 *
 * Statistics (summed over the channels; docs/wsmp.md): mfq_served_L<k> (the
 * level a request was served from: the paper's dispersal, Fig. 8),
 * mfq_dispersal_L<k>, mfq_in_L<k> (arrivals + promotions into level k),
 * mfq_timeouts_L<k> and mfq_timeout_rate_L<k> (Fig. 9), mfq_served_moved_1_2 /
 * _3plus (requests served after 1-2 / >= 3 transfers, Fig. 10). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

#define MFQ_LEVELS 4

/* Waits (DRAM cycles) the mfq_wait_over_<W>_L<k> statistics count requests
 * beyond: the share of the requests entering level k that waited there more
 * than W is the timeout rate a timeout of W would give if the order stayed
 * the same, which is how -mfq_timeouts was calibrated (docs/wsmp.md). */
static const uint32_t wait_marks[] = {100, 200, 400, 800, 1600, 3200, 6400, 12800};
#define WAIT_MARKS (sizeof wait_marks / sizeof wait_marks[0])

typedef struct {
    uint64_t entered;     /* DRAM cycle it entered its current level (FIFO key, then arrival order) */
    uint8_t level, moved, promoted;
} mfq_slot;

typedef struct {
    uint32_t thresholds[3];
    uint32_t timeout[MFQ_LEVELS];    /* [0] unused: L0 never times out */
    mfq_slot *slot;                  /* per queue slot */
    uint32_t *last_warp;             /* per bank: warp_key of its last request, 0 none */
    bool row_hit_first;              /* -mfq_row_hit_first */
    uint64_t arrivals[MFQ_LEVELS], in[MFQ_LEVELS], served[MFQ_LEVELS], timeouts[MFQ_LEVELS];
    uint64_t served_total, moved_1_2, moved_3plus, transfers;
    uint64_t wait_over[MFQ_LEVELS][WAIT_MARKS];   /* left level k (served or timed out) after more than mark */
} mfq;

static void *mfq_create(const dram_config *cfg) {
    mfq *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    memcpy(m->thresholds, cfg->mfq_thresholds, sizeof m->thresholds);
    m->row_hit_first = cfg->mfq_row_hit_first;
    for (int k = 1; k < MFQ_LEVELS; k++) m->timeout[k] = cfg->mfq_timeouts[k - 1] ? cfg->mfq_timeouts[k - 1] : 1;
    m->slot = calloc(cfg->queue_size, sizeof *m->slot);
    m->last_warp = calloc(cfg->t.nbk ? cfg->t.nbk : 1, sizeof *m->last_warp);
    if (!m->slot || !m->last_warp) {
        free(m->slot);
        free(m->last_warp);
        free(m);
        return NULL;
    }
    return m;
}

static void mfq_destroy(void *st) {
    mfq *m = st;
    if (!m) return;
    free(m->slot);
    free(m->last_warp);
    free(m);
}

/* The level of a request from its warp's sigma. */
static uint8_t level_of(const mfq *m, uint8_t sigma) {
    uint8_t k = 0;
    while (k < 3 && sigma >= m->thresholds[k]) k++;
    return k;
}

/* One warp of the GPU: its SM and warp slot (+ 1, so 0 means none). */
static uint32_t warp_key(const mem_req *r) { return ((uint32_t)r->sm << 16 | r->warp) + 1; }

static void mfq_arrival(void *st, dram_queue *q, int32_t s, uint64_t now) {
    mfq *m = st;
    mfq_slot *x = &m->slot[s];
    x->level = level_of(m, q->slots[s].req.sigma);
    x->entered = now;
    x->moved = 0;
    x->promoted = 0;
    m->arrivals[x->level]++;
    m->in[x->level]++;
}

/* A request leaves level k after waiting `waited` cycles there. */
static void note_wait(mfq *m, uint8_t level, uint64_t waited) {
    for (uint32_t i = 0; i < WAIT_MARKS && waited > wait_marks[i]; i++) m->wait_over[level][i]++;
}

/* Move a request up one level per timeout elapsed by now, each promotion at
 * the cycle it was due, to the back of the level above. */
static void promote(mfq *m, mfq_slot *x, uint64_t now) {
    while (x->level > 0 && now - x->entered >= m->timeout[x->level]) {
        m->timeouts[x->level]++;
        note_wait(m, x->level, m->timeout[x->level]);
        x->entered += m->timeout[x->level];
        x->level--;
        x->promoted = 1;
        if (x->moved < 255) x->moved++;
        m->in[x->level]++;
        m->transfers++;
    }
}

/* Is request sa served before sb?  Level first, then the order inside it. */
static bool before(const mfq *m, const dram_queue *q, int32_t sa, int32_t sb, uint32_t last, int64_t open_row) {
    const mfq_slot *a = &m->slot[sa], *b = &m->slot[sb];
    if (a->level != b->level) return a->level < b->level;
    if (m->row_hit_first && open_row >= 0) {
        bool ha = q->slots[sa].row == (uint32_t)open_row, hb = q->slots[sb].row == (uint32_t)open_row;
        if (ha != hb) return ha;
    }
    if (a->promoted != b->promoted) return a->promoted;
    bool wa = mem_access_is_write(q->slots[sa].req.type), wb = mem_access_is_write(q->slots[sb].req.type);
    if (wa != wb) return !wa;
    if (last) {
        bool la = warp_key(&q->slots[sa].req) == last, lb = warp_key(&q->slots[sb].req) == last;
        if (la != lb) return la;
    }
    if (a->entered != b->entered) return a->entered < b->entered;
    return q->slots[sa].seq < q->slots[sb].seq;
}

static int32_t mfq_pick(void *st, const dram_queue *q, uint32_t bank, int64_t open_row, uint64_t now) {
    mfq *m = st;
    uint32_t last = m->last_warp[bank];
    int32_t best = DRAM_NONE;
    for (int32_t s = q->bank_oldest[bank]; s != DRAM_NONE; s = q->slots[s].bank_next) {
        promote(m, &m->slot[s], now);
        if (best == DRAM_NONE || before(m, q, s, best, last, open_row)) best = s;
    }
    if (best == DRAM_NONE) return best;
    const mfq_slot *x = &m->slot[best];
    note_wait(m, x->level, now - x->entered);
    m->served[x->level]++;
    m->served_total++;
    if (x->moved >= 3) m->moved_3plus++;
    else if (x->moved) m->moved_1_2++;
    m->last_warp[bank] = warp_key(&q->slots[best].req);
    return best;
}

static void mfq_report(const void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const mfq *m = st;
    char name[32];
    for (int k = 0; k < MFQ_LEVELS; k++) {
        snprintf(name, sizeof name, "mfq_arrivals_L%d", k);
        emit(ctx, name, (double)m->arrivals[k]);
        snprintf(name, sizeof name, "mfq_in_L%d", k);
        emit(ctx, name, (double)m->in[k]);
        snprintf(name, sizeof name, "mfq_served_L%d", k);
        emit(ctx, name, (double)m->served[k]);
        if (k) {
            snprintf(name, sizeof name, "mfq_timeouts_L%d", k);
            emit(ctx, name, (double)m->timeouts[k]);
            for (uint32_t i = 0; i < WAIT_MARKS; i++) {
                snprintf(name, sizeof name, "mfq_wait_over_%u_L%d", wait_marks[i], k);
                emit(ctx, name, (double)m->wait_over[k][i]);
            }
        }
    }
    emit(ctx, "mfq_served", (double)m->served_total);
    emit(ctx, "mfq_transfers", (double)m->transfers);
    emit(ctx, "mfq_served_moved_1_2", (double)m->moved_1_2);
    emit(ctx, "mfq_served_moved_3plus", (double)m->moved_3plus);
}

#define LEVEL_STATS(k)                                                                                          \
    {"mfq_arrivals_L" #k, NULL, NULL, 0, "DRAM requests that arrived in MFQ level L" #k " (by their warp's sigma)"}, \
    {"mfq_in_L" #k, NULL, NULL, 0, "requests that entered level L" #k " (arrivals + promotions by timeout)"},      \
    {"mfq_served_L" #k, NULL, NULL, 0, "requests a bank served from level L" #k},                                  \
    {"mfq_dispersal_L" #k, "mfq_served_L" #k, "mfq_served", 1.0,                                                  \
     "share of the served requests served from level L" #k " (paper Fig. 8)"}
#define WAIT_STAT(w, k)                                                                                         \
    {"mfq_wait_over_" #w "_L" #k, NULL, NULL, 0,                                                              \
     "requests that left level L" #k " (served or timed out) after waiting more than " #w " DRAM cycles in it"}
#define TIMEOUT_STATS(k)                                                                                   \
    {"mfq_timeouts_L" #k, NULL, NULL, 0, "requests that timed out of level L" #k " (moved up one level)"}, \
    {"mfq_timeout_rate_L" #k, "mfq_timeouts_L" #k, "mfq_in_L" #k, 1.0,                                     \
     "timeouts / requests that entered level L" #k " (paper Fig. 9)"},                                    \
    WAIT_STAT(100, k), WAIT_STAT(200, k), WAIT_STAT(400, k), WAIT_STAT(800, k), WAIT_STAT(1600, k),          \
    WAIT_STAT(3200, k), WAIT_STAT(6400, k), WAIT_STAT(12800, k)

static const dram_sched_stat_def mfq_stats[] = {
    {"mfq_served", NULL, NULL, 0, "requests the MFQ scheduler handed to a bank"},
    {"mfq_transfers", NULL, NULL, 0, "level changes by timeout"},
    LEVEL_STATS(0), LEVEL_STATS(1), LEVEL_STATS(2), LEVEL_STATS(3),
    TIMEOUT_STATS(1), TIMEOUT_STATS(2), TIMEOUT_STATS(3),
    {"mfq_served_moved_1_2", NULL, NULL, 0, "requests served after 1 or 2 transfers (paper Fig. 10)"},
    {"mfq_served_moved_3plus", NULL, NULL, 0, "requests served after 3 or more transfers (paper Fig. 10)"},
    {NULL, NULL, NULL, 0, NULL},
};

const dram_sched_ops dram_sched_mfq = {
    .name = "mfq",
    .help = "WSMP's multi-level feedback queue per bank: levels by the warp's latency tolerance "
            "(-mfq_thresholds), timeout promotion (-mfq_timeouts), reads first, one warp's requests together; "
            "-mfq_row_hit_first 1 puts open-row requests first inside a level",
    .create = mfq_create,
    .destroy = mfq_destroy,
    .on_arrival = mfq_arrival,
    .pick = mfq_pick,
    .uses_sigma = true,
    .report = mfq_report,
    .stats = mfq_stats,
};
