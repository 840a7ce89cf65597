/* CWLP: the CWLP paper's locality-information-based warp reordering (Zhang et
 * al., FITEE 2018, sections 5.2 and 6; DESIGN.md section 5.3).  Meant with
 * -l1d_policy lpc, whose LIS is the L1D locality signal this scheduler reads
 * (sched_view.l1d_locality); it never names that policy.
 *
 *  - While the L1D says "locality" (signal 1): loose round-robin, the next ready
 *    warp after the one this scheduler issued last ("if LIS shows that the cache
 *    has locality, the warp queue will not reorder to keep locality").
 *  - Otherwise (signal 0, or -1 from a policy without a signal, read as a score
 *    of 0): reorder so that long- and short-latency warps alternate ("long- and
 *    short-latency warps are put into the warp pool in an interleaved fashion").
 *    A warp is long-latency when its next instruction reads global or local
 *    memory (sched_view.next_is_load: "long latency warps have accesses to the
 *    global memory"; a store does not hold the warp up), short otherwise.  The
 *    priority logic (section 6, Fig. 9):
 *      1. the oldest ready warp, if its class differs from the class of the
 *         warp this scheduler issued last ("whether the warp is the oldest among
 *         the remaining warps" AND "the latency of the warp is different");
 *      2. else a ready warp of the other class, the lowest warp slot first ("the
 *         XOR logic has a priority to be checked separately"; "the priority
 *         logic will issue the warp according to the warp number");
 *      3. else the oldest ready warp.
 *    Before the first issue there is no last class and step 3 applies.
 *  The paper's Algorithm 2 reorders when the count of predicted lines is the
 *  larger, which contradicts its text; we follow the text (DESIGN.md 5.3).
 *
 * Statistics: cwlp_lrr_picks and cwlp_reorder_picks (picks made in each mode).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sched/sched.h"

typedef struct {
    uint32_t num_sched;
    uint64_t lrr_picks, reorder_picks;
    int *last;              /* per scheduler: warp issued last, -1 before the first
                               (kept when that warp exits, as lrr keeps it) */
    int8_t *last_long;      /* per scheduler: its class (1 long, 0 short), -1 none */
} cwlp_state;

static void *cwlp_create(const sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "scheduler 'cwlp' takes no arguments (got ':%s')", p->args);
        return NULL;
    }
    cwlp_state *s = calloc(1, sizeof *s + p->num_sched * (sizeof(int) + sizeof(int8_t)));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->num_sched = p->num_sched;
    s->last = (int *)(s + 1);
    s->last_long = (int8_t *)(s->last + p->num_sched);
    for (uint32_t i = 0; i < p->num_sched; i++) {
        s->last[i] = -1;
        s->last_long[i] = -1;
    }
    return s;
}

/* Steps 1-3 of the priority logic (see the top of the file). */
static int reorder_pick(const sched_view *v, int last_long) {
    int oldest = sched_oldest_in(v, v->ready);
    if (last_long < 0) return oldest;
    warp_mask other = last_long ? v->ready & ~v->next_is_load : v->ready & v->next_is_load;
    if (oldest >= 0 && sched_mask_has(other, (uint32_t)oldest)) return oldest;
    if (other) return __builtin_ctzll(other);
    return oldest;
}

static int cwlp_pick(void *st, const sched_view *v) {
    cwlp_state *s = st;
    uint32_t id = v->sched_id;
    int locality = v->l1d_locality ? v->l1d_locality(v->l1d) : -1;
    int w;
    if (locality == 1) {
        w = sched_next_after(v->ready, s->last[id]);
        s->lrr_picks++;
    } else {
        w = reorder_pick(v, s->last_long[id]);
        s->reorder_picks++;
    }
    if (w >= 0) {
        s->last[id] = w;
        s->last_long[id] = (int8_t)sched_mask_has(v->next_is_load, (uint32_t)w);
    }
    return w;
}

static void cwlp_report(void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const cwlp_state *s = st;
    emit(ctx, "cwlp_lrr_picks", (double)s->lrr_picks);
    emit(ctx, "cwlp_reorder_picks", (double)s->reorder_picks);
}

static const sched_stat_def cwlp_stats[] = {
    {"cwlp_lrr_picks", NULL, NULL, 0, "CWLP picks made in LRR order (the L1D's LIS said locality)"},
    {"cwlp_reorder_picks", NULL, NULL, 0, "CWLP picks made by long/short-latency interleaving (no locality)"},
    {NULL, NULL, NULL, 0, NULL},
};

const warp_sched_ops sched_cwlp = {
    .name = "cwlp",
    .help = "CWLP: LRR while the L1D policy signals locality (-l1d_policy lpc), else alternate long/short-latency "
            "warps",
    .create = cwlp_create,
    .destroy = free,
    .pick = cwlp_pick,
    .report = cwlp_report,
    .stats = cwlp_stats,
};
