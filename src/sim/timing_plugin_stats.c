/* Statistics of the memory-side plug-ins (docs/wsmp.md):
 *
 *  - for each cache level with a prefetcher (-l1d_prefetcher, -l2_prefetcher),
 *    summed over its instances (the SMs' L1Ds, the L2 slices):
 *      <L>_prefetch_candidates   addresses the prefetcher asked for
 *      <L>_prefetch_issued       prefetch fetches sent below
 *      <L>_prefetch_useful       prefetched lines whose first demand access hit them
 *      <L>_prefetch_late         demand accesses that merged into a prefetch in flight
 *      <L>_prefetch_useless      prefetched lines evicted untouched
 *      <L>_prefetch_redundant    candidates already present or in flight
 *      <L>_prefetch_dropped      candidates refused for lack of resources
 *      <L>_prefetch_foreign      candidates another L2 slice holds (not issued)
 *      L2_prefetch_forwarded     (only with -l2_prefetch_forward) candidates another slice
 *                                holds, handed to it: counted there as issued, redundant or
 *                                dropped, not as foreign
 *      <L>_prefetch_accuracy     (useful + late) / issued
 *      <L>_prefetch_coverage     (useful + late) / (useful + late + demand read misses)
 *      <L>_prefetch_line_repeats (detail) reads a once-per-line prefetcher was not shown
 *      <L>_prefetch_redundant_present, _redundant_prefetched (detail) the redundant
 *                                candidates whose line was present (not in flight), and
 *                                those whose line a prefetch brought, untouched yet
 *    and the prefetcher's own statistics (prefetch_ops.stats) as <L>_<name>;
 *  - the DRAM scheduler's own statistics (dram_sched_ops.stats), summed over
 *    the channels.
 * Nothing is defined for what is not in use, so a plain run's statistics are
 * unchanged. */
#include <stdio.h>
#include <string.h>

#include "sim/timing.h"

enum { PF_CAND, PF_ISSUED, PF_USEFUL, PF_LATE, PF_USELESS, PF_REDUNDANT, PF_DROPPED, PF_FOREIGN, PF_DEMAND_MISSES,
       PF_LINE_REPEATS, PF_REDUNDANT_PRESENT, PF_REDUNDANT_PREFETCHED, PF_USED, PF_ACCURACY, PF_COVERAGE };
_Static_assert(PF_COVERAGE + 1 == TIMING_PF_BASE, "timing.h sizes the ids");

static const cache *level_cache(timing_state *t, int level, uint32_t i) {
    if (level == 0) return i < gpu_num_sms(t->g) ? sm_l1d(gpu_sm(t->g, i)) : NULL;
    uint32_t k = 0;
    for (uint32_t p = 0; p < gpu_num_partitions(t->g); p++) {
        partition *part = gpu_partition(t->g, p);
        for (uint32_t s = 0; s < partition_slices(part); s++, k++)
            if (k == i) return partition_l2(part, s);
    }
    return NULL;
}

static uint32_t level_count(timing_state *t, int level) {
    if (level == 0) return gpu_num_sms(t->g);
    uint32_t n = 0;
    for (uint32_t p = 0; p < gpu_num_partitions(t->g); p++) n += partition_slices(gpu_partition(t->g, p));
    return n;
}

static const prefetch_ops *level_prefetcher(timing_state *t, int level) {
    for (uint32_t i = 0; i < level_count(t, level); i++) {
        const cache *c = level_cache(t, level, i);
        if (c && cache_prefetcher(c)) return cache_prefetcher(c);
    }
    return NULL;
}

typedef struct {
    const prefetch_stat_def *defs;
    uint64_t value[TIMING_MAX_PF_STATS];
} own_sum;

static void sum_own(void *ctx, const char *name, double value) {
    own_sum *s = ctx;
    for (int i = 0; i < TIMING_MAX_PF_STATS && s->defs[i].name; i++)
        if (!s->defs[i].num && !strcmp(s->defs[i].name, name)) {
            s->value[i] += (uint64_t)value;
            return;
        }
}

static int define_level(timing_state *t, int level) {
    const char *p = level == 0 ? "L1D" : "L2";
    const prefetch_ops *ops = level_prefetcher(t, level);
    stats *s = t->stats;
    int *id = t->ids.pf[level].base, ok = 1;
    t->ids.pf[level].on = 0;
    t->ids.pf[level].nown = 0;
    if (!ops) return 0;
    char name[96];
#define C(k, suffix, flags, help) \
    (snprintf(name, sizeof name, "%s%s", p, suffix), ok &= (id[k] = stats_define_counter(s, name, NULL, flags, help)) >= 0)
    C(PF_CAND, "_prefetch_candidates", 0, "addresses the prefetcher asked for");
    C(PF_ISSUED, "_prefetch_issued", 0, "prefetch fetches sent below");
    C(PF_USEFUL, "_prefetch_useful", 0, "prefetched lines whose first demand access found them present");
    C(PF_LATE, "_prefetch_late", 0, "demand accesses that merged into a prefetch still in flight");
    C(PF_USELESS, "_prefetch_useless", 0, "prefetched lines evicted or invalidated before any demand access");
    C(PF_REDUNDANT, "_prefetch_redundant", 0, "candidates already present or in flight (not issued)");
    C(PF_DROPPED, "_prefetch_dropped", 0, "candidates refused: no spare MSHR entry, line or miss-queue slot");
    C(PF_FOREIGN, "_prefetch_foreign", 0, "candidates another L2 slice holds (a slice prefetches its own lines only)");
    C(PF_DEMAND_MISSES, "_prefetch_demand_read_misses", STAT_DETAIL, "demand reads that missed");
    C(PF_LINE_REPEATS, "_prefetch_line_repeats", STAT_DETAIL,
      "demand reads not shown to a once-per-line prefetcher (spp, spp_ppf): the next sector of the line "
      "the same warp's previous read used");
    C(PF_REDUNDANT_PRESENT, "_prefetch_redundant_present", STAT_DETAIL,
      "redundant candidates whose line was present (the rest were in flight)");
    C(PF_REDUNDANT_PREFETCHED, "_prefetch_redundant_prefetched", STAT_DETAIL,
      "redundant candidates whose line a prefetch brought or is bringing, untouched by any demand access yet");
    /* only where candidates are handed over: a run without it keeps its statistics */
    t->ids.pf[level].forwarded = -1;
    if (level == 1 && cache_prefetch_forwards(level_cache(t, level, 0))) {
        snprintf(name, sizeof name, "%s_prefetch_forwarded", p);
        t->ids.pf[level].forwarded = stats_define_counter(
            s, name, NULL, 0, "candidates another L2 slice holds, handed to it (-l2_prefetch_forward)");
        ok &= t->ids.pf[level].forwarded >= 0;
    }
#undef C
    if (!ok) return -1;
    int used_terms[2] = {id[PF_USEFUL], id[PF_LATE]};
    snprintf(name, sizeof name, "%s_prefetch_used", p);
    id[PF_USED] = stats_define_sum(s, name, used_terms, 2, STAT_DETAIL, "useful + late prefetches");
    if (id[PF_USED] < 0) return -1;
    snprintf(name, sizeof name, "%s_prefetch_accuracy", p);
    id[PF_ACCURACY] = stats_define_ratio(s, name, NULL, id[PF_USED], id[PF_ISSUED], 1.0, 0,
                                         "(useful + late) / issued prefetches");
    int den_terms[2] = {id[PF_USED], id[PF_DEMAND_MISSES]};
    snprintf(name, sizeof name, "%s_prefetch_coverage_base", p);
    int den = stats_define_sum(s, name, den_terms, 2, STAT_DETAIL, "useful + late + demand read misses");
    snprintf(name, sizeof name, "%s_prefetch_coverage", p);
    id[PF_COVERAGE] = den < 0 ? -1
                              : stats_define_ratio(s, name, NULL, id[PF_USED], den, 1.0, 0,
                                                   "(useful + late) / (useful + late + demand read misses): the "
                                                   "share of would-be misses the prefetches covered");
    if (id[PF_ACCURACY] < 0 || id[PF_COVERAGE] < 0) return -1;
    for (int i = 0; ops->stats && ops->report && ops->stats[i].name; i++) {
        const prefetch_stat_def *d = &ops->stats[i];
        if (i >= TIMING_MAX_PF_STATS) return -1;
        snprintf(name, sizeof name, "%s_%s", p, d->name);
        int *own = &t->ids.pf[level].own[i];
        if (!d->num) {
            *own = stats_define_counter(s, name, NULL, 0, d->help);
        } else {
            char num[96], dn[96];
            snprintf(num, sizeof num, "%s_%s", p, d->num);
            snprintf(dn, sizeof dn, "%s_%s", p, d->den);
            *own = stats_define_ratio(s, name, NULL, stats_find(s, num), stats_find(s, dn), d->scale, 0, d->help);
        }
        if (*own < 0) return -1;
        t->ids.pf[level].nown = i + 1;
    }
    t->ids.pf[level].on = 1;
    return 0;
}

static void collect_level(timing_state *t, int level) {
    if (!t->ids.pf[level].on) return;
    const prefetch_ops *ops = level_prefetcher(t, level);
    uint64_t v[PF_REDUNDANT_PREFETCHED + 1] = {0}, forwarded = 0;
    own_sum own;
    memset(&own, 0, sizeof own);
    own.defs = ops->stats;
    for (uint32_t i = 0; i < level_count(t, level); i++) {
        const cache *c = level_cache(t, level, i);
        if (!c || !cache_prefetcher(c)) continue;
        const cache_prefetch_counters *k = cache_prefetch_stats(c);
        const uint64_t x[] = {k->candidates, k->issued, k->useful, k->late, k->useless, k->redundant, k->dropped,
                              k->foreign, k->demand_read_misses, k->line_repeats, k->redundant_present,
                              k->redundant_prefetched};
        for (int j = 0; j <= PF_REDUNDANT_PREFETCHED; j++) v[j] += x[j];
        forwarded += k->forwarded;
        if (t->ids.pf[level].nown) ops->report(cache_prefetcher_state(c), sum_own, &own);
    }
    for (int j = 0; j <= PF_REDUNDANT_PREFETCHED; j++) stats_add(t->stats, t->ids.pf[level].base[j], v[j]);
    if (t->ids.pf[level].forwarded >= 0) stats_add(t->stats, t->ids.pf[level].forwarded, forwarded);
    for (int i = 0; i < t->ids.pf[level].nown; i++)
        if (!ops->stats[i].num) stats_add(t->stats, t->ids.pf[level].own[i], own.value[i]);
}

/* ---- the DRAM scheduler's own statistics ---- */

static const dram_sched_ops *dram_sched_of(timing_state *t) {
    return gpu_num_partitions(t->g) ? dram_scheduler(partition_dram(gpu_partition(t->g, 0))) : NULL;
}

typedef struct {
    const dram_sched_stat_def *defs;
    uint64_t value[TIMING_MAX_DSCHED_STATS];
} dsched_sum;

static void sum_dsched(void *ctx, const char *name, double value) {
    dsched_sum *s = ctx;
    for (int i = 0; i < TIMING_MAX_DSCHED_STATS && s->defs[i].name; i++)
        if (!s->defs[i].num && !strcmp(s->defs[i].name, name)) {
            s->value[i] += (uint64_t)value;
            return;
        }
}

static int define_dsched(timing_state *t) {
    const dram_sched_ops *ops = dram_sched_of(t);
    timing_stat_ids *d = &t->ids;
    d->ndsched_stats = 0;
    if (!ops || !ops->stats || !ops->report) return 0;
    for (int i = 0; ops->stats[i].name; i++) {
        const dram_sched_stat_def *x = &ops->stats[i];
        if (i >= TIMING_MAX_DSCHED_STATS) return -1;
        if (!x->num) d->dsched_stat[i] = stats_define_counter(t->stats, x->name, NULL, 0, x->help);
        else
            d->dsched_stat[i] = stats_define_ratio(t->stats, x->name, NULL, stats_find(t->stats, x->num),
                                                   stats_find(t->stats, x->den), x->scale, 0, x->help);
        if (d->dsched_stat[i] < 0) return -1;
        d->ndsched_stats = i + 1;
    }
    return 0;
}

static void collect_dsched(timing_state *t) {
    const timing_stat_ids *d = &t->ids;
    if (!d->ndsched_stats) return;
    const dram_sched_ops *ops = dram_sched_of(t);
    dsched_sum sum;
    memset(&sum, 0, sizeof sum);
    sum.defs = ops->stats;
    for (uint32_t i = 0; i < gpu_num_partitions(t->g); i++)
        ops->report(dram_sched_state(partition_dram(gpu_partition(t->g, i))), sum_dsched, &sum);
    for (int i = 0; i < d->ndsched_stats; i++)
        if (!ops->stats[i].num) stats_add(t->stats, d->dsched_stat[i], sum.value[i]);
}

int timing_plugin_stats_define(timing_state *t) {
    return define_level(t, 0) || define_level(t, 1) || define_dsched(t) || timing_numa_stats_define(t) ? -1 : 0;
}

void timing_plugin_stats_collect(timing_state *t) {
    collect_level(t, 0);
    collect_level(t, 1);
    collect_dsched(t);
    timing_numa_stats_collect(t);
}
