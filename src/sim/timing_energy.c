/* The energy model's statistics (docs/energy.md).
 *
 *   energy_<event>_events   the event's count (STAT_DETAIL, JSON)
 *   energy_<event>          count x -energy_<event>_nj, nJ (STAT_DETAIL)
 *   energy_<component>      its events' energies added in event order, nJ
 *   gpu_sim_time_ns         gpu_sim_cycle x 1000 / core MHz
 *   energy_static_<comp>    -energy_static_<comp>_w x gpu_sim_time_ns (W x ns = nJ)
 *   energy_sm_idle_cycles   SM-cycles with no CTA resident, summed over SMs
 *   energy_sm_idle_time_ns  energy_sm_idle_cycles x 1000 / core MHz
 *   energy_static_idle_sm   -energy_static_idle_sm_w x energy_sm_idle_time_ns
 *   energy_dynamic          the dynamic components added in order
 *   energy_static           the static parts added in order
 *   energy_total            energy_dynamic + energy_static
 *   energy_l2_noc_dram      energy_l2 + energy_noc + energy_dram (Tabbakh et al.'s Fig. 17)
 *   energy_avg_power_w      energy_total / gpu_sim_time_ns
 *
 * Every value is derived when read from the kernel's (or the run's) own counts,
 * so a kernel's energy is exactly its counts times the energies, and each sum
 * is exactly the sum of its parts in the order listed.  The counts come from
 * counters the components keep anyway: nothing here runs in the cycle loop. */
#include <stdio.h>

#include "sim/timing.h"

static int define_counts(stats *s, timing_stat_ids *d, const sim_config *c) {
    char name[96], help[160];
    for (int e = 0; e < ENERGY_EVENT_COUNT; e++) {
        const char *n = energy_event_name((energy_event)e);
        snprintf(name, sizeof name, "energy_%s_events", n);
        d->en_events[e] = stats_define_counter(s, name, NULL, STAT_DETAIL, "events counted by the energy model");
        snprintf(name, sizeof name, "energy_%s", n);
        snprintf(help, sizeof help, "energy_%s_events x -energy_%s_nj, nJ", n, n);
        d->en_event[e] = stats_define_scaled(s, name, d->en_events[e], c->energy_nj[e], STAT_DETAIL, help);
        if (d->en_events[e] < 0 || d->en_event[e] < 0) return -1;
    }
    return 0;
}

static int define_components(stats *s, timing_stat_ids *d) {
    char name[96];
    for (int k = 0; k < ENERGY_COMPONENT_COUNT; k++) {
        int terms[ENERGY_EVENT_COUNT];
        uint32_t n = 0;
        for (int e = 0; e < ENERGY_EVENT_COUNT; e++)
            if (energy_event_component((energy_event)e) == (energy_component)k) terms[n++] = d->en_event[e];
        snprintf(name, sizeof name, "energy_%s", energy_component_name((energy_component)k));
        d->en_comp[k] = stats_define_sum(s, name, terms, n, 0, "dynamic energy of the component, nJ");
        if (d->en_comp[k] < 0) return -1;
    }
    return 0;
}

int timing_energy_define(timing_state *t) {
    stats *s = t->stats;
    timing_stat_ids *d = &t->ids;
    const sim_config *c = t->cfg;
    char name[96];
    if (define_counts(s, d, c) || define_components(s, d)) return -1;
    d->time_ns = stats_define_scaled(s, "gpu_sim_time_ns", d->gpu.cycle, 1000.0 / c->clock_mhz[CLK_CORE], 0,
                                     "simulated time: core cycles / core clock, ns");
    if (d->time_ns < 0) return -1;
    d->en_idle_cycles = stats_define_counter(s, "energy_sm_idle_cycles", NULL, STAT_DETAIL,
                                             "SM-cycles with no CTA resident, summed over SMs");
    d->en_idle_ns = stats_define_scaled(s, "energy_sm_idle_time_ns", d->en_idle_cycles,
                                        1000.0 / c->clock_mhz[CLK_CORE], STAT_DETAIL,
                                        "energy_sm_idle_cycles / core clock, ns");
    if (d->en_idle_cycles < 0 || d->en_idle_ns < 0) return -1;
    for (int k = 0; k < ENERGY_STATIC_COUNT; k++) {
        const char *n = energy_static_name((energy_static)k);
        /* idle-SM power runs only while an SM is idle; the rest for the whole kernel */
        int idle = k == EN_STATIC_IDLE_SM;
        snprintf(name, sizeof name, "energy_static_%s", n);
        d->en_static[k] = stats_define_scaled(s, name, idle ? d->en_idle_ns : d->time_ns, c->static_w[k], 0,
                                              idle ? "idle-SM power x energy_sm_idle_time_ns, nJ"
                                                   : "static power x gpu_sim_time_ns, nJ");
        if (d->en_static[k] < 0) return -1;
    }
    int both[2], l2nd[3] = {d->en_comp[EN_C_L2], d->en_comp[EN_C_NOC], d->en_comp[EN_C_DRAM]};
    d->en_dynamic = stats_define_sum(s, "energy_dynamic", d->en_comp, ENERGY_COMPONENT_COUNT, 0,
                                     "sum of the dynamic components, nJ");
    d->en_static_sum = stats_define_sum(s, "energy_static", d->en_static, ENERGY_STATIC_COUNT, 0,
                                        "sum of the static parts, nJ");
    both[0] = d->en_dynamic;
    both[1] = d->en_static_sum;
    d->en_total = stats_define_sum(s, "energy_total", both, 2, 0, "energy_dynamic + energy_static, nJ");
    d->en_l2_noc_dram = stats_define_sum(s, "energy_l2_noc_dram", l2nd, 3, 0,
                                         "energy_l2 + energy_noc + energy_dram (dynamic), nJ");
    d->en_power = stats_define_ratio(s, "energy_avg_power_w", NULL, d->en_total, d->time_ns, 1.0, 0,
                                     "energy_total / gpu_sim_time_ns, W");
    return d->en_dynamic < 0 || d->en_static_sum < 0 || d->en_total < 0 || d->en_l2_noc_dram < 0 ||
                   d->en_power < 0
               ? -1
               : 0;
}

/* Read and write hits (pending hits included, as GPGPU-Sim's power counters
 * take them: only MISS is a miss there) and misses, and fills, of one cache;
 * reservation failures are retried, not accesses.  rd: the cache's read-hit
 * event, followed in the event list by its read miss and, where `writes`,
 * its write hit and write miss (read-only caches have no write events). */
_Static_assert(EN_L1D_READ_MISS == EN_L1D_READ + 1 && EN_L1D_WRITE == EN_L1D_READ + 2 &&
                   EN_L1D_WRITE_MISS == EN_L1D_READ + 3 && EN_L2_READ_MISS == EN_L2_READ + 1 &&
                   EN_L2_WRITE == EN_L2_READ + 2 && EN_L2_WRITE_MISS == EN_L2_READ + 3 &&
                   EN_L1C_READ_MISS == EN_L1C_READ + 1 && EN_L1T_READ_MISS == EN_L1T_READ + 1,
               "cache_events needs read hit, read miss, write hit, write miss in a row");

static void cache_events(const cache *c, uint64_t *n, energy_event rd, int writes, energy_event fill) {
    const cache_counters *k = cache_stats(c);
    for (int ty = 0; ty < MEM_ACCESS_TYPE_COUNT; ty++) {
        int write = mem_access_is_write((uint8_t)ty);
        if (write && !writes) continue;
        int ev = write ? (int)rd + 2 : (int)rd;
        n[ev] += k->access[ty][CACHE_HIT] + k->access[ty][CACHE_HIT_RESERVED];
        n[ev + 1] += k->access[ty][CACHE_MISS];
    }
    n[fill] += k->fills;
}

static void sm_events(const sm *m, uint64_t *n) {
    const sm_counters *c = sm_stats(m);
    if (sm_l1d(m)) cache_events(sm_l1d(m), n, EN_L1D_READ, 1, EN_L1D_FILL);
    cache_events(sm_l1c(m), n, EN_L1C_READ, 0, EN_L1C_FILL);
    if (sm_l1t(m)) cache_events(sm_l1t(m), n, EN_L1T_READ, 0, EN_L1T_FILL);
    n[EN_SHMEM_READ] += c->smem_read_passes;
    n[EN_SHMEM_WRITE] += c->smem_write_passes;
    n[EN_RF_READ] += c->rf_reads;
    n[EN_RF_WRITE] += c->rf_writes;
    n[EN_ALU_OP] += c->unit_threads[UNIT_SP] + c->unit_threads[UNIT_INT]; /* int ops cost an ALU op, as on SP */
    n[EN_SFU_OP] += c->unit_threads[UNIT_SFU];
    n[EN_DP_OP] += c->unit_threads[UNIT_DP];
    n[EN_WARP_INST] += c->warp_insns;
}

void timing_energy_collect(timing_state *t) {
    uint64_t n[ENERGY_EVENT_COUNT] = {0};
    uint64_t busy = 0;
    for (uint32_t i = 0; i < gpu_num_sms(t->g); i++) {
        sm_events(gpu_sm(t->g, i), n);
        busy += sm_stats(gpu_sm(t->g, i))->active_cycles;
    }
    for (uint32_t i = 0; i < gpu_num_partitions(t->g); i++) {
        partition *p = gpu_partition(t->g, i);
        for (uint32_t k = 0; k < partition_slices(p); k++)
            cache_events(partition_l2(p, k), n, EN_L2_READ, 1, EN_L2_FILL);
        const dram_counters *dc = dram_stats(partition_dram(p));
        n[EN_DRAM_ACT] += dc->activates;
        n[EN_DRAM_PRE] += dc->precharges;
        n[EN_DRAM_RD] += dc->read_bursts;
        n[EN_DRAM_WR] += dc->write_bursts;
    }
    n[EN_NOC_FLIT] = icnt_stats(gpu_icnt(t->g, 0))->flits_in + icnt_stats(gpu_icnt(t->g, 1))->flits_in;
    for (int e = 0; e < ENERGY_EVENT_COUNT; e++) stats_add(t->stats, t->ids.en_events[e], n[e]);
    /* Counters are cumulative over the run: every SM exists for every core
     * cycle, and is idle for those it had no CTA resident. */
    uint64_t all = (uint64_t)gpu_num_sms(t->g) * gpu_stats(t->g)->cycles[CLK_CORE];
    stats_add(t->stats, t->ids.en_idle_cycles, all > busy ? all - busy : 0);
}
