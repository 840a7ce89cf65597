/* WSMP as a warp scheduler (docs/wsmp.md): the multi-level feedback queue of
 * the MFQ DRAM scheduler (src/mem/dram_sched_mfq.c) applied to warp issue, since
 * the WSMP paper speaks of scheduling warps by their latency tolerance.
 *
 * A warp's level comes from its latency tolerance sigma (sched_view.sigma, kept
 * by the SM): L0 for sigma < t1 ... L3 for sigma >= t3 (-mfq_thresholds, shared
 * with the DRAM scheduler).  A warp enters the back of its level when it starts
 * and each time it issues; having waited -wsmp_timeouts[k] core cycles in level
 * k >= 1 it moves to the back of level k - 1.  Each scheduler issues the ready
 * warp of the highest level, the one that entered it first (ties: the oldest
 * warp).  Timeouts are computed when asked, at the cycle each was due. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/config.h"

#define WSMP_LEVELS 4

typedef struct {
    uint32_t thresholds[3];
    uint32_t timeout[WSMP_LEVELS];     /* [0] unused */
    uint64_t entered[SCHED_MAX_WARPS]; /* core cycle the warp entered its current level */
    uint64_t issued[WSMP_LEVELS], promoted_issues;
} wsmp_state;

static void *wsmp_create(const sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "scheduler 'wsmp' takes no arguments (got ':%s'); see -mfq_thresholds, -wsmp_timeouts",
                 p->args);
        return NULL;
    }
    wsmp_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const sim_config *c = p->cfg;
    static const uint32_t def_th[3] = {25, 50, 75}, def_to[3] = {16, 32, 64};
    for (int k = 0; k < 3; k++) {
        s->thresholds[k] = c ? c->dram.mfq_thresholds[k] : def_th[k];
        s->timeout[k + 1] = c ? c->wsmp_timeouts[k] : def_to[k];
        if (!s->timeout[k + 1]) s->timeout[k + 1] = 1;
    }
    return s;
}

static uint32_t base_level(const wsmp_state *s, uint32_t sigma) {
    uint32_t k = 0;
    while (k < 3 && sigma >= s->thresholds[k]) k++;
    return k;
}

/* The level warp w is in at `now`: its sigma's, raised one per timeout waited. */
static uint32_t level_now(const wsmp_state *s, uint32_t w, uint32_t sigma, uint64_t now, uint64_t *entered) {
    uint32_t k = base_level(s, sigma);
    uint64_t t = s->entered[w];
    while (k > 0 && now - t >= s->timeout[k]) t += s->timeout[k--];
    *entered = t;
    return k;
}

static int wsmp_pick(void *st, const sched_view *v) {
    wsmp_state *s = st;
    int best = -1;
    uint32_t best_level = WSMP_LEVELS, best_base = 0;
    uint64_t best_entered = 0;
    for (uint32_t i = 0; i < v->nlive; i++) {   /* oldest first: ties go to the oldest */
        uint32_t w = v->age_order[i];
        if (!sched_mask_has(v->ready, w)) continue;
        uint32_t sigma = v->sigma ? v->sigma[w] : 100;
        uint64_t entered;
        uint32_t k = level_now(s, w, sigma, v->now, &entered);
        if (k < best_level || (k == best_level && entered < best_entered)) {
            best = (int)w;
            best_level = k;
            best_entered = entered;
            best_base = base_level(s, sigma);
        }
    }
    if (best >= 0) {
        s->issued[best_level]++;
        if (best_level < best_base) s->promoted_issues++;
    }
    return best;
}

/* Issuing (picked or not) puts the warp at the back of its level. */
static void wsmp_issued(void *st, uint32_t w, const ptx_insn *in, uint64_t now) {
    (void)in;
    wsmp_state *s = st;
    if (w < SCHED_MAX_WARPS) s->entered[w] = now;
}

static void wsmp_warp_start(void *st, uint32_t w, uint64_t now) { wsmp_issued(st, w, NULL, now); }

static void wsmp_report(void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const wsmp_state *s = st;
    static const char *const names[WSMP_LEVELS] = {"wsmp_issued_L0", "wsmp_issued_L1", "wsmp_issued_L2",
                                                    "wsmp_issued_L3"};
    for (int k = 0; k < WSMP_LEVELS; k++) emit(ctx, names[k], (double)s->issued[k]);
    emit(ctx, "wsmp_issued_promoted", (double)s->promoted_issues);
}

static const sched_stat_def wsmp_stats[] = {
    {"wsmp_issued_L0", NULL, NULL, 0, "warp instructions the wsmp scheduler picked from level L0"},
    {"wsmp_issued_L1", NULL, NULL, 0, "... from level L1"},
    {"wsmp_issued_L2", NULL, NULL, 0, "... from level L2"},
    {"wsmp_issued_L3", NULL, NULL, 0, "... from level L3"},
    {"wsmp_issued_promoted", NULL, NULL, 0, "picks of a warp a timeout had moved above its sigma's level"},
    {NULL, NULL, NULL, 0, NULL},
};

const warp_sched_ops sched_wsmp = {
    .name = "wsmp",
    .help = "WSMP: warps by latency tolerance in a multi-level feedback queue (-mfq_thresholds, -wsmp_timeouts)",
    .create = wsmp_create,
    .destroy = free,
    .pick = wsmp_pick,
    .warp_start = wsmp_warp_start,
    .issued = wsmp_issued,
    .report = wsmp_report,
    .stats = wsmp_stats,
    .uses_sigma = true,
};
