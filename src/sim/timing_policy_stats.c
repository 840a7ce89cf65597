/* Statistics that come from plug-ins and optional analyses rather than from
 * the pipeline's own counters:
 *
 *  - the warp scheduler's own statistics (warp_sched_ops.stats / report): each
 *    SM's plug-in instance reports cumulative counters, summed over the SMs
 *    (e.g. ccws_vta_hits, ccws_avg_load_warps);
 *  - the L1D replacement policy's own statistics (cache_policy_ops.stats /
 *    report), summed over the SMs' L1Ds (e.g. L1D_LIS_locality_frac of lpc);
 *  - with -l1d_access_analysis 1, the L1D access-stream analyses of
 *    src/analysis/l1trace.h, run on every SM's stream at each kernel end:
 *      L1D_BEL_misses, L1D_BEL_MPKI       Belady-optimal misses of the same stream
 *                                         and geometry (the paper's <sched>-BEL)
 *      L1D_hits_intra_thread, _inter_thread, _inter_warp, _inter_kernel (and
 *                                         _PKI per 1000 thread instructions): read
 *                                         hits by who brought the line in
 *      L1D_stream_read_misses(_PKI), L1D_stream_accesses, ... the stream itself;
 *      L1D_CRN_0 .. L1D_CRN_15, L1D_CRN_16plus  the continuous reuse number
 *                                         distribution (CWLP Fig. 1; l1trace.h)
 * Nothing is defined for what is not in use, so the statistics of a plain run
 * are unchanged. */
#include <stdio.h>
#include <string.h>

#include "analysis/l1trace.h"
#include "sim/timing.h"

/* ---- the warp scheduler's statistics ---- */

typedef struct {
    const sched_stat_def *defs;
    uint64_t value[TIMING_MAX_SCHED_STATS];
} sched_sum;

static void sum_emitted(void *ctx, const char *name, double value) {
    sched_sum *s = ctx;
    for (int i = 0; i < TIMING_MAX_SCHED_STATS && s->defs[i].name; i++)
        if (!s->defs[i].num && !strcmp(s->defs[i].name, name)) {
            s->value[i] += (uint64_t)value;
            return;
        }
}

static int define_sched_stats(timing_state *t) {
    const warp_sched_ops *ops = gpu_get_params(t->g)->sm.sched;
    timing_stat_ids *d = &t->ids;
    d->nsched_stats = 0;
    if (!ops->stats || !ops->report) return 0;
    for (int i = 0; ops->stats[i].name; i++) {
        const sched_stat_def *s = &ops->stats[i];
        if (i >= TIMING_MAX_SCHED_STATS) return -1;
        if (!s->num) d->sched_stat[i] = stats_define_counter(t->stats, s->name, NULL, 0, s->help);
        else
            d->sched_stat[i] = stats_define_ratio(t->stats, s->name, NULL, stats_find(t->stats, s->num),
                                                  stats_find(t->stats, s->den), s->scale, 0, s->help);
        if (d->sched_stat[i] < 0) return -1;
        d->nsched_stats = i + 1;
    }
    return 0;
}

static void collect_sched_stats(timing_state *t) {
    const warp_sched_ops *ops = gpu_get_params(t->g)->sm.sched;
    const timing_stat_ids *d = &t->ids;
    if (!d->nsched_stats) return;
    sched_sum sum;
    memset(&sum, 0, sizeof sum);
    sum.defs = ops->stats;
    for (uint32_t i = 0; i < gpu_num_sms(t->g); i++) ops->report(sm_sched_state(gpu_sm(t->g, i)), sum_emitted, &sum);
    for (int i = 0; i < d->nsched_stats; i++)
        if (!ops->stats[i].num) stats_add(t->stats, d->sched_stat[i], sum.value[i]);
}

/* ---- the L1D replacement policy's statistics ---- */

typedef struct {
    const cache_policy_stat_def *defs;
    uint64_t value[TIMING_MAX_L1D_POLICY_STATS];
} l1p_sum;

static void sum_l1p_emitted(void *ctx, const char *name, double value) {
    l1p_sum *s = ctx;
    for (int i = 0; i < TIMING_MAX_L1D_POLICY_STATS && s->defs[i].name; i++)
        if (!s->defs[i].num && !strcmp(s->defs[i].name, name)) {
            s->value[i] += (uint64_t)value;
            return;
        }
}

static const cache_policy_ops *l1d_policy_ops(timing_state *t) {
    for (uint32_t i = 0; i < gpu_num_sms(t->g); i++) {
        const cache *c = sm_l1d(gpu_sm(t->g, i));
        if (c) return cache_policy(c);
    }
    return NULL;
}

static int define_l1d_policy_stats(timing_state *t) {
    const cache_policy_ops *ops = l1d_policy_ops(t);
    timing_stat_ids *d = &t->ids;
    d->nl1p_stats = 0;
    if (!ops || !ops->stats || !ops->report) return 0;
    for (int i = 0; ops->stats[i].name; i++) {
        const cache_policy_stat_def *s = &ops->stats[i];
        if (i >= TIMING_MAX_L1D_POLICY_STATS) return -1;
        if (!s->num) d->l1p_stat[i] = stats_define_counter(t->stats, s->name, NULL, 0, s->help);
        else
            d->l1p_stat[i] = stats_define_ratio(t->stats, s->name, NULL, stats_find(t->stats, s->num),
                                                stats_find(t->stats, s->den), s->scale, 0, s->help);
        if (d->l1p_stat[i] < 0) return -1;
        d->nl1p_stats = i + 1;
    }
    return 0;
}

static void collect_l1d_policy_stats(timing_state *t) {
    const timing_stat_ids *d = &t->ids;
    if (!d->nl1p_stats) return;
    const cache_policy_ops *ops = l1d_policy_ops(t);
    uint64_t now = gpu_stats(t->g)->cycles[CLK_CORE];
    l1p_sum sum;
    memset(&sum, 0, sizeof sum);
    sum.defs = ops->stats;
    for (uint32_t i = 0; i < gpu_num_sms(t->g); i++) {
        const cache *c = sm_l1d(gpu_sm(t->g, i));
        if (c) ops->report(cache_policy_state(c), now, sum_l1p_emitted, &sum);
    }
    for (int i = 0; i < d->nl1p_stats; i++)
        if (!ops->stats[i].num) stats_add(t->stats, d->l1p_stat[i], sum.value[i]);
}

/* ---- L1D access-stream analyses ---- */

enum {
    L1A_ACCESSES, L1A_READS, L1A_WRITES, L1A_MISSES, L1A_READ_MISSES,
    L1A_INTRA_THREAD, L1A_INTER_THREAD, L1A_INTER_WARP, L1A_INTER_KERNEL, L1A_UNATTRIBUTED,
    L1A_BEL_MISSES, L1A_BEL_READ_MISSES, L1A_LOST,
    L1A_BEL_MPKI, L1A_INTRA_THREAD_PKI, L1A_INTER_THREAD_PKI, L1A_INTER_WARP_PKI, L1A_INTER_KERNEL_PKI,
    L1A_READ_MISSES_PKI, L1A_COUNT
};
_Static_assert(L1A_COUNT == TIMING_L1A_STATS, "timing.h sizes the ids of these statistics");
_Static_assert(L1T_CRN_BUCKETS == TIMING_L1A_CRN, "timing.h sizes the CRN histogram's ids");

static int define_l1_analysis(timing_state *t) {
    timing_stat_ids *d = &t->ids;
    stats *s = t->stats;
    int *id = d->l1a, insn = d->gpu.insn, ok = 1;
    d->has_l1a = 0;
    if (!t->cfg->l1d_access_analysis || !t->cfg->l1d.nsets) return 0;
#define C(k, name, flags, help) ok &= (id[k] = stats_define_counter(s, name, NULL, flags, help)) >= 0
#define R(k, name, num, help) ok &= (id[k] = stats_define_ratio(s, name, NULL, id[num], insn, 1000.0, 0, help)) >= 0
    C(L1A_ACCESSES, "L1D_stream_accesses", STAT_DETAIL, "L1D accesses recorded (line requests the cache accepted)");
    C(L1A_READS, "L1D_stream_reads", STAT_DETAIL, "of which reads");
    C(L1A_WRITES, "L1D_stream_writes", STAT_DETAIL, "of which writes");
    C(L1A_MISSES, "L1D_stream_misses", STAT_DETAIL, "misses of the real L1D in the stream (reads + writes)");
    C(L1A_READ_MISSES, "L1D_stream_read_misses", 0, "read misses of the real L1D");
    C(L1A_INTRA_THREAD, "L1D_hits_intra_thread", 0,
      "read hits on a line the same warp brought in, by a lane (thread) of that initial access");
    C(L1A_INTER_THREAD, "L1D_hits_inter_thread", 0,
      "read hits on a line the same warp brought in, by other lanes (threads) of the warp");
    C(L1A_INTER_WARP, "L1D_hits_inter_warp", 0, "read hits on a line another warp of the kernel brought in");
    C(L1A_INTER_KERNEL, "L1D_hits_inter_kernel", 0,
      "read hits on a line a warp of an earlier kernel brought in (the L1D kept it)");
    C(L1A_UNATTRIBUTED, "L1D_hits_unattributed", STAT_DETAIL, "read hits on a line no recorded miss brought in");
    C(L1A_BEL_MISSES, "L1D_BEL_misses", 0, "misses of a Belady-optimal L1D of the same geometry on the same stream");
    C(L1A_BEL_READ_MISSES, "L1D_BEL_read_misses", STAT_DETAIL, "of which read misses");
    C(L1A_LOST, "L1D_stream_lost", STAT_DETAIL, "accesses not analysed for lack of host memory");
    R(L1A_BEL_MPKI, "L1D_BEL_MPKI", L1A_BEL_MISSES, "Belady-optimal L1D misses per 1000 thread instructions");
    R(L1A_INTRA_THREAD_PKI, "L1D_hits_intra_thread_PKI", L1A_INTRA_THREAD, "intra-thread hits per 1000 thread insns");
    R(L1A_INTER_THREAD_PKI, "L1D_hits_inter_thread_PKI", L1A_INTER_THREAD, "inter-thread hits per 1000 thread insns");
    R(L1A_INTER_WARP_PKI, "L1D_hits_inter_warp_PKI", L1A_INTER_WARP, "inter-warp hits per 1000 thread insns");
    R(L1A_INTER_KERNEL_PKI, "L1D_hits_inter_kernel_PKI", L1A_INTER_KERNEL, "inter-kernel hits per 1000 thread insns");
    R(L1A_READ_MISSES_PKI, "L1D_stream_read_misses_PKI", L1A_READ_MISSES, "L1D read misses per 1000 thread insns");
#undef C
#undef R
    for (int k = 0; k < L1T_CRN_BUCKETS; k++) {
        char name[32], help[160];
        int last = k == L1T_CRN_BUCKETS - 1;
        snprintf(name, sizeof name, last ? "L1D_CRN_%dplus" : "L1D_CRN_%d", k);
        snprintf(help, sizeof help,
                 "L1D misses whose line was then accessed %s%d more time(s) before its next miss "
                 "(continuous reuse number, CWLP Fig. 1)", last ? "at least " : "", k);
        ok &= (d->l1a_crn[k] = stats_define_counter(s, name, NULL, STAT_DETAIL, help)) >= 0;
    }
    d->has_l1a = ok;
    return ok ? 0 : -1;
}

static void collect_l1_analysis(timing_state *t) {
    const timing_stat_ids *d = &t->ids;
    if (!d->has_l1a) return;
    l1_trace_totals sum;
    uint64_t crn[L1T_CRN_BUCKETS] = {0};
    memset(&sum, 0, sizeof sum);
    for (uint32_t i = 0; i < gpu_num_sms(t->g); i++) {
        l1_trace *tr = sm_l1_trace(gpu_sm(t->g, i));
        if (!tr) continue;
        if (l1_trace_analyze(tr))
            fprintf(stderr, "locsim: out of host memory analysing the L1D access stream of SM %u\n", i);
        const l1_trace_totals *x = l1_trace_get_totals(tr);
        sum.accesses += x->accesses;
        sum.reads += x->reads;
        sum.writes += x->writes;
        sum.misses += x->misses;
        sum.read_misses += x->read_misses;
        sum.hits_intra_thread += x->hits_intra_thread;
        sum.hits_inter_thread += x->hits_inter_thread;
        sum.hits_inter_warp += x->hits_inter_warp;
        sum.hits_inter_kernel += x->hits_inter_kernel;
        sum.hits_unattributed += x->hits_unattributed;
        sum.bel_misses += x->bel_misses;
        sum.bel_read_misses += x->bel_read_misses;
        sum.lost += x->lost;
        for (int k = 0; k < L1T_CRN_BUCKETS; k++) crn[k] += x->crn[k];
    }
    const uint64_t v[] = {sum.accesses, sum.reads, sum.writes, sum.misses, sum.read_misses,
                          sum.hits_intra_thread, sum.hits_inter_thread, sum.hits_inter_warp, sum.hits_inter_kernel,
                          sum.hits_unattributed,
                          sum.bel_misses, sum.bel_read_misses, sum.lost};
    for (int k = 0; k <= L1A_LOST; k++) stats_add(t->stats, d->l1a[k], v[k]);
    for (int k = 0; k < L1T_CRN_BUCKETS; k++) stats_add(t->stats, d->l1a_crn[k], crn[k]);
}

int timing_policy_stats_define(timing_state *t) {
    return define_sched_stats(t) || define_l1d_policy_stats(t) || define_l1_analysis(t) || timing_plugin_stats_define(t)
               ? -1
               : 0;
}

void timing_policy_stats_collect(timing_state *t) {
    collect_sched_stats(t);
    collect_l1d_policy_stats(t);
    collect_l1_analysis(t);
    timing_plugin_stats_collect(t);
}
