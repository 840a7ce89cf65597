/* The timing model's statistics, kept in the statistics registry (stats.h):
 * definitions once per device, one collection pass after every kernel.
 *
 * Beyond the registry's standard groups (gpu_*, L1D_/L1C_/L2_ caches, dram_*,
 * icnt_req_/icnt_rep_) the core adds:
 *   issue_slots          scheduler-cycles (schedulers x core cycles)
 *   issue_stall_<why>    scheduler-cycles in which a scheduler issued nothing:
 *                        idle (no warp had an instruction), scoreboard (operands
 *                        not ready), pipeline (SP/SFU/DP busy), memory (waiting on
 *                        a load or the LD/ST unit busy), barrier; *_frac of all slots
 *   gmem_*, smem_*       coalescing and bank-conflict figures of the LD/ST unit
 *   gpu_*_cycle          cycles of the other clock domains
 * gpu_sim_insn counts thread instructions (lanes active before the guard, as
 * GPGPU-Sim does); MPKI is per 1000 of them.  averagemflatency is in core cycles
 * from a request leaving the LD/ST unit to its data arriving back at the SM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "sim/timing.h"

static const char *const stall_stat[STALL_COUNT] = {"issue_stall_idle", "issue_stall_scoreboard",
                                                    "issue_stall_pipeline", "issue_stall_memory",
                                                    "issue_stall_barrier"};
static const char *const unit_stat[UNIT_COUNT] = {"warp_insn_sp", "warp_insn_sfu", "warp_insn_dp", "warp_insn_ldst",
                                                     "warp_insn_tensor", "warp_insn_int"};

timing_state *timing_of(const locsim_device *dev) {
    return dev && dev->mode == LOCSIM_MODE_TIMING ? (timing_state *)dev->timing : NULL;
}

/* Is pipeline u's statistic defined?  warp_insn_int only where the SMs have an
 * INT pipeline (-gpgpu_num_int_units), so that the reports of configurations
 * without one (every Fermi-era one) keep exactly their statistics. */
static int unit_reported(const sim_config *cfg, int u) { return u != UNIT_INT || cfg->num_int_units > 0; }

static int define_core(stats *s, const sim_config *cfg, timing_stat_ids *d) {
    int ok = 1;
#define C(field, name, flags, help) ok &= (d->field = stats_define_counter(s, name, NULL, flags, help)) >= 0
    C(ctas, "gpu_ctas", 0, "CTAs completed");
    C(regs_per_thread, "gpu_kernel_regs_per_thread", 0,
      "registers per thread occupancy charged the launch (a total sums the launches)");
    C(regs_estimated, "gpu_kernel_regs_estimated", 0,
      "launches whose registers are locsim's liveness estimate from the PTX, not ptxas's count (a fallback)");
    C(icnt_cycles, "gpu_icnt_cycle", STAT_DETAIL, "interconnect cycles");
    C(l2_cycles, "gpu_l2_cycle", STAT_DETAIL, "L2 cycles");
    C(dram_cycles, "gpu_dram_cycle", STAT_DETAIL, "DRAM command cycles");
    C(skipped_cycles, "gpu_skipped_cycle", STAT_DETAIL, "core cycles jumped over while nothing could happen");
    C(active_sm_cycles, "gpu_active_sm_cycle", STAT_DETAIL, "SM cycles with a resident CTA, summed over SMs");
    C(slots, "issue_slots", STAT_DETAIL, "scheduler-cycles (schedulers x core cycles x SMs)");
    for (int r = 0; r < STALL_COUNT; r++) C(stall[r], stall_stat[r], STAT_DETAIL, "scheduler-cycles without issue");
    for (int r = 0; r < STALL_COUNT; r++) {
        char name[64];
        snprintf(name, sizeof name, "%s_frac", stall_stat[r]);
        ok &= (d->stall_frac[r] = stats_define_ratio(s, name, NULL, d->stall[r], d->slots, 1.0, 0,
                                                     "share of scheduler-cycles without issue, by reason")) >= 0;
    }
    for (int u = 0; u < UNIT_COUNT; u++) {
        d->unit[u] = -1;
        if (unit_reported(cfg, u)) C(unit[u], unit_stat[u], STAT_DETAIL, "warp instructions per pipeline");
    }
    C(gmem_insns, "gmem_warp_accesses", 0, "global/local/constant/texture warp memory instructions");
    C(gmem_reqs, "gmem_requests", 0, "coalesced line requests they made");
    ok &= (d->gmem_per_insn = stats_define_ratio(s, "gmem_requests_per_access", NULL, d->gmem_reqs, d->gmem_insns, 1.0,
                                                 0, "coalescing: line requests per warp memory instruction")) >= 0;
    C(smem_insns, "smem_warp_accesses", 0, "shared-memory warp instructions");
    C(smem_conflicts, "smem_bank_conflict_cycles", 0, "extra LD/ST cycles spent on shared-memory bank conflicts");
    C(const_insns, "const_warp_accesses", STAT_DETAIL, "constant-memory warp instructions");
    C(param_insns, "param_warp_accesses", STAT_DETAIL,
      "ld.param warp instructions of kernel arguments sent to the constant cache");
    C(tex_insns, "tex_warp_accesses", STAT_DETAIL, "texture-fetch warp instructions (tex, tld4) that read memory");
    C(ldst_fails, "ldst_reservation_fail_cycles", 0, "cycles the LD/ST unit retried an access a cache refused");
    /* Not on a normal L1 with one bank, where one access a cycle never conflicts:
     * a statistic that is always 0 there would make every run of an earlier model
     * differ from its rerun (sweep --accept). */
    d->l1_bank_conflicts = -1;
    if (cfg->l1_banks > 1 || cfg->l1d.sectored)
        C(l1_bank_conflicts, "gpgpu_n_l1cache_bkconflict", 0,
          "cycles an L1D access waited for a bank another access took that cycle (-gpgpu_l1_banks)");
    C(oc_bank_conflicts, "oc_bank_conflict_cycles", STAT_DETAIL,
      "cycles operand reads waited for a register-file bank (-gpgpu_num_reg_banks)");
    C(result_bus_stalls, "result_bus_stall_cycles", STAT_DETAIL,
      "cycles instructions waited for a free result bus (EX_WB of -gpgpu_pipeline_widths)");
    C(bypass, "l1_bypass_requests", STAT_DETAIL, "requests past the L1 (atomics, uncached)");
    C(send_fails, "icnt_sm_inject_stalls", STAT_DETAIL, "cycles an SM's request found the network full");
    /* The CTA-to-SM map and sharers per block (docs/sharing.md). */
    C(nbr, "cta_neighbours", STAT_DETAIL, "CTAs with a linear predecessor in their grid (both dispatched)");
    C(nbr_same, "cta_neighbours_same_sm", STAT_DETAIL, "... that ran on the same SM as that predecessor");
    C(sm_ctas, "cta_sm_ctas", STAT_DETAIL, "CTAs dispatched, over SMs and kernels");
    C(sm_ctas_max, "cta_sm_ctas_max_x_sms", STAT_DETAIL, "per kernel: SMs x the most CTAs one SM ran, summed");
    C(sm_ctas_min, "cta_sm_ctas_min_x_sms", STAT_DETAIL, "per kernel: SMs x the fewest CTAs one SM ran, summed");
    C(sm_insn, "cta_sm_insn", STAT_DETAIL, "thread instructions, over SMs and kernels");
    C(sm_insn_max, "cta_sm_insn_max_x_sms", STAT_DETAIL, "per kernel: SMs x the most thread instructions of one SM");
    C(sharer_lines, "sharers_lines", STAT_DETAIL, "distinct L2 lines SMs loaded (global/local) per kernel, summed");
    C(sharer_sm_lines, "sharers_sm_lines", STAT_DETAIL, "sum over those lines of the distinct SMs that loaded each");
    C(cta_clusters, "cta_sched_clusters", STAT_DETAIL,
      "CTA clusters the CTA scheduler formed, summed over kernels (-cta_scheduler ldesc; docs/ldesc.md)");
#define R(field, name, num, den, help) \
    ok &= (d->field = stats_define_ratio(s, name, NULL, d->num, d->den, 1.0, 0, help)) >= 0
    R(nbr_frac, "cta_neighbour_same_sm_frac", nbr_same, nbr, "share of CTAs placed on the SM of their linear predecessor");
    R(ctas_max_ratio, "cta_sm_imbalance", sm_ctas_max, sm_ctas, "CTAs per SM: max / mean (1 = balanced)");
    R(ctas_min_ratio, "cta_sm_min_over_mean", sm_ctas_min, sm_ctas, "CTAs per SM: min / mean");
    R(insn_max_ratio, "sm_insn_imbalance", sm_insn_max, sm_insn, "thread instructions per SM: max / mean");
    R(sharers, "sharers_per_block", sharer_sm_lines, sharer_lines,
      "distinct SMs loading each L2 line in a kernel, mean over lines (Tabbakh et al.'s sharers per cache block)");
#undef R
#undef C
    return ok ? 0 : -1;
}


/* Statistics of the sharing-aware cache management (docs/sharing.md); after the
 * cache groups, whose L2 misses one of them divides. */
static int define_sharing(stats *s, timing_stat_ids *d) {
    int ok = 1;
#define C(field, name, flags, help) ok &= (d->field = stats_define_counter(s, name, NULL, flags, help)) >= 0
#define R(field, name, num, den, help) \
    ok &= (d->field = stats_define_ratio(s, name, NULL, d->num, d->den, 1.0, 0, help)) >= 0
    C(l1d_bypassed, "L1D_bypassed_fills", 0, "L1D misses whose line the policy did not keep (allocate: bypass)");
    C(l1d_mshr_shared, "L1D_mshr_hits_shared", 0,
      "L1D pending (MSHR) hits answered by a fill the L2 marked shared (another SM owns the line)");
    C(l2_bypassed, "L2_bypassed_fills", 0, "L2 misses the policy kept out of the L2 (allocate: bypass)");
    C(l2_misses_no_bypass, "L2_total_cache_misses_no_bypass", 0,
      "L2 misses less L2_bypassed_fills: the misses that allocated a line (a bypass -- e.g. ld.local under "
      "-l2_policy sharing -- allocates none)");
    ok &= (d->l2_mpki_no_bypass = stats_define_ratio(s, "L2_MPKI_no_bypass", NULL, d->l2_misses_no_bypass,
                                                     d->gpu.insn, 1000.0, 0,
                                                     "L2_MPKI without the bypassed misses (docs/sharing.md)")) >= 0;
    C(l2_compulsory, "L2_compulsory_misses", 0, "L2 misses that were the first reference to their line");
    R(l2_compulsory_frac, "L2_compulsory_miss_frac", l2_compulsory, l2.misses,
      "compulsory share of L2 misses (the rest: capacity and conflict)");
    C(dram_bytes, "dram_traffic_bytes", 0, "bytes read from and written to DRAM (off-chip traffic)");
#undef R
#undef C
    return ok ? 0 : -1;
}

/* What a run covered in timing mode and the regime it ran in (docs/timing-core.md,
 * "Caps and timing windows"; the regime table of docs/harness.md).  After the
 * cache and sharing groups, whose statistics some of these divide. */
static const char *const occ_limit_stat[4] = {"gpu_occ_limited_by_threads", "gpu_occ_limited_by_ctas",
                                              "gpu_occ_limited_by_registers", "gpu_occ_limited_by_smem"};

static int define_regime(stats *s, timing_stat_ids *d) {
    int ok = 1;
#define C(field, name, total, flags, help) ok &= (d->field = stats_define_counter(s, name, total, flags, help)) >= 0
#define M(field, name, help) ok &= (d->field = stats_define_max(s, name, NULL, 0, help)) >= 0
#define R(field, name, num, den, help) \
    ok &= (d->field = stats_define_ratio(s, name, NULL, d->num, d->den, 1.0, 0, help)) >= 0
    C(ff_insn, "gpu_ff_insn", "gpu_tot_ff_insn", 0,
      "thread instructions run functionally, untimed: warm-up, past a timing window, after a cap");
    int terms[2] = {d->gpu.insn, d->ff_insn};
    ok &= (d->exec_insn = stats_define_sum(s, "gpu_exec_insn", terms, 2, 0,
                                           "thread instructions executed: timed (gpu_sim_insn) + gpu_ff_insn")) >= 0;
    C(windows_closed, "gpu_timing_windows_closed", NULL, 0,
      "kernels whose -timing_window_insn window closed before the kernel's end");
    C(warmup_ctas, "gpu_warmup_ctas", NULL, 0, "CTAs run functionally in -timing_warmup_insn warm-ups");
    C(ff_ctas, "gpu_ff_ctas", NULL, 0, "CTAs finished or run functionally after a window or a cap");
    C(grid_ctas, "gpu_grid_ctas", NULL, 0, "CTAs in the launches' grids (summed over launches)");
    C(cta_slots, "gpu_cta_slots", NULL, 0, "CTA slots of the GPU for each launch: SMs x CTAs per SM (summed)");
    R(grid_waves, "gpu_grid_waves", grid_ctas, cta_slots,
      "grid CTAs / CTA slots: how many times the grids fill every SM (below 1: SMs left idle)");
    M(num_sms, "gpu_num_sms", "SMs of the GPU");
    M(grid_ctas_max, "gpu_grid_ctas_max", "the largest grid, in CTAs");
    M(grid_rows_max, "gpu_grid_rows_max", "the most grid rows (grid.y x grid.z) of a launch");
    M(occ_warps_max, "gpu_occ_warps_per_sm", "warps per SM the occupancy allows (CTAs per SM x warps per CTA), "
                                            "the largest of the launches");
    for (int i = 0; i < 4; i++)
        ok &= (d->occ_by[i] = stats_define_counter(s, occ_limit_stat[i], NULL, 0,
                                                   "launches whose CTAs per SM this resource limits (first of "
                                                   "threads, CTAs, registers, shared memory when tied)")) >= 0;
    C(live_warp_cycles, "sm_live_warp_cycles", NULL, STAT_DETAIL,
      "live warps integrated over SM cycles with a resident CTA");
    R(live_warps_mean, "sm_live_warps_mean", live_warp_cycles, active_sm_cycles,
      "live warps per SM, mean over SM cycles with a resident CTA");
    M(live_warps_max, "sm_live_warps_max", "the most warps live in one SM at once");
    C(l2_lines, "L2_distinct_lines", NULL, 0, "distinct L2 lines the L2 was asked for (the footprint past the L1)");
    C(footprint_bytes, "gpu_footprint_bytes", NULL, 0, "L2_distinct_lines x the L2 line size");
    M(l1d_capacity, "L1D_capacity_bytes",
      "one SM's L1D capacity (0: no L1D); with -gpgpu_adaptive_cache_config what the carve-out left, the largest "
      "of the kernels'");
    M(l2_capacity, "L2_capacity_bytes", "the L2's capacity, all slices");
    R(footprint_l1d, "gpu_footprint_over_L1D", footprint_bytes, l1d_capacity,
      "footprint / one SM's L1D capacity");
    R(footprint_l2, "gpu_footprint_over_L2", footprint_bytes, l2_capacity, "footprint / L2 capacity");
#undef R
#undef M
#undef C
    return ok ? 0 : -1;
}

/* L0I_* (the sub-cores' L0 instruction caches, summed) only where the
 * configuration has them, so that no other report changes. */
static int define_l0i(stats *s, const sim_config *cfg, timing_stat_ids *d) {
    d->has_l0i = cfg->l0i.nsets && cfg->sub_core_model;
    return d->has_l0i ? stats_define_cache(s, "L0I", d->gpu.insn, &d->l0i) : 0;
}

int timing_stats_init(timing_state *t, char *err, size_t errlen) {
    timing_stat_ids *d = &t->ids;
    t->stats = stats_create();
    if (!t->stats || stats_define_gpu(t->stats, &d->gpu) || define_core(t->stats, t->cfg, d) ||
        stats_define_cache(t->stats, "L1D", d->gpu.insn, &d->l1d) ||
        stats_define_cache(t->stats, "L1C", d->gpu.insn, &d->l1c) ||
        stats_define_cache(t->stats, "L1T", d->gpu.insn, &d->l1t) ||
        stats_define_cache(t->stats, "L1I", d->gpu.insn, &d->l1i) ||
        define_l0i(t->stats, t->cfg, d) ||
        stats_define_cache(t->stats, "L2", d->gpu.insn, &d->l2) || stats_define_dram(t->stats, &d->dram) ||
        stats_define_icnt(t->stats, "icnt_req", &d->req) || stats_define_icnt(t->stats, "icnt_rep", &d->rep) ||
        define_sharing(t->stats, d) || define_regime(t->stats, d) || timing_policy_stats_define(t) ||
        timing_energy_define(t)) {
        snprintf(err, errlen, "cannot define the statistics (out of memory?)");
        return -1;
    }
    return 0;
}

void timing_stats_free(timing_state *t) { stats_destroy(t->stats); }

static void collect_sm(timing_state *t, const sm *m) {
    stats *s = t->stats;
    const timing_stat_ids *d = &t->ids;
    const sm_counters *c = sm_stats(m);
    stats_add(s, d->gpu.insn, c->thread_insns);
    stats_add(s, d->gpu.warp_insn, c->warp_insns);
    stats_add(s, d->gpu.mem_latency_sum, c->mem_latency_sum);
    stats_add(s, d->gpu.mem_latency_n, c->mem_latency_n);
    stats_add(s, d->ctas, c->ctas_done);
    stats_add(s, d->active_sm_cycles, c->active_cycles);
    stats_add(s, d->slots, c->issue_slots);
    for (int r = 0; r < STALL_COUNT; r++) stats_add(s, d->stall[r], c->stall[r]);
    for (int u = 0; u < UNIT_COUNT; u++) stats_add(s, d->unit[u], c->unit_insns[u]);
    stats_add(s, d->gmem_insns, c->gmem_insns + c->const_insns + c->tex_insns);
    stats_add(s, d->gmem_reqs, c->gmem_requests);
    stats_add(s, d->smem_insns, c->smem_insns);
    stats_add(s, d->smem_conflicts, c->smem_conflict_cycles);
    stats_add(s, d->const_insns, c->const_insns);
    stats_add(s, d->param_insns, c->param_insns);
    stats_add(s, d->tex_insns, c->tex_insns);
    stats_add(s, d->ldst_fails, c->ldst_fail_cycles);
    stats_add(s, d->l1_bank_conflicts, c->l1_bank_conflict_cycles);
    stats_add(s, d->oc_bank_conflicts, c->oc_bank_conflict_cycles);
    stats_add(s, d->result_bus_stalls, c->result_bus_stall_cycles);
    stats_add(s, d->bypass, c->bypass_requests);
    stats_add(s, d->live_warp_cycles, c->live_warp_cycles);
    stats_add_max(s, d->live_warps_max, c->live_warps_max);
    if (sm_l1d(m)) stats_add_cache(s, &d->l1d, sm_l1d(m));
    stats_add_cache(s, &d->l1c, sm_l1c(m));
    if (sm_l1t(m)) stats_add_cache(s, &d->l1t, sm_l1t(m));
    if (sm_l1i(m)) stats_add_cache(s, &d->l1i, sm_l1i(m));
    for (uint32_t k = 0; d->has_l0i && sm_l0i(m, k); k++) stats_add_cache(s, &d->l0i, sm_l0i(m, k));
}

void timing_stats_kernel_end(timing_state *t, const exec_launch *L, double host_seconds) {
    stats *s = t->stats;
    const timing_stat_ids *d = &t->ids;
    const gpu_counters *gc = gpu_stats(t->g);
    t->host_seconds += host_seconds;
    stats_collect_begin(s);
    stats_add(s, d->gpu.cycle, gc->cycles[CLK_CORE]);
    stats_add(s, d->icnt_cycles, gc->cycles[CLK_ICNT]);
    stats_add(s, d->l2_cycles, gc->cycles[CLK_L2]);
    stats_add(s, d->dram_cycles, gc->cycles[CLK_DRAM]);
    stats_add(s, d->skipped_cycles, gc->skipped_core_cycles);
    stats_add(s, d->send_fails, gc->send_fails);
    stats_add(s, d->nbr, gc->cta_neighbours);
    stats_add(s, d->nbr_same, gc->cta_neighbours_same_sm);
    stats_add(s, d->sm_ctas, gc->sm_ctas_sum);
    stats_add(s, d->sm_ctas_max, gc->sm_ctas_max_x_sms);
    stats_add(s, d->sm_ctas_min, gc->sm_ctas_min_x_sms);
    stats_add(s, d->sm_insn, gc->sm_insn_sum);
    stats_add(s, d->sm_insn_max, gc->sm_insn_max_x_sms);
    stats_add(s, d->sharer_lines, gc->sharer_lines);
    stats_add(s, d->sharer_sm_lines, gc->sharer_sm_lines);
    stats_add(s, d->regs_per_thread, gc->regs_per_thread_sum);
    stats_add(s, d->regs_estimated, gc->regs_estimated);
    stats_add(s, d->cta_clusters, gc->cta_clusters);
    stats_add(s, d->ff_insn, gc->ff_thread_insns);
    stats_add(s, d->windows_closed, gc->windows_closed);
    stats_add(s, d->warmup_ctas, gc->ctas_warmup);
    stats_add(s, d->ff_ctas, gc->ctas_fast_forward);
    stats_add(s, d->grid_ctas, gc->grid_ctas);
    stats_add(s, d->cta_slots, gc->cta_slots);
    for (int i = 0; i < 4; i++) stats_add(s, d->occ_by[i], gc->occ_limited_by[i]);
    stats_add_max(s, d->num_sms, gpu_num_sms(t->g));
    stats_add_max(s, d->grid_ctas_max, (uint64_t)L->grid.x * L->grid.y * L->grid.z);
    stats_add_max(s, d->grid_rows_max, (uint64_t)L->grid.y * L->grid.z);
    const sm_occupancy_info *occ = gpu_last_occupancy(t->g);
    stats_add_max(s, d->occ_warps_max, (uint64_t)occ->ctas_per_sm * occ->warps);
    stats_add_real(s, d->gpu.host_seconds, t->host_seconds);
    uint64_t l1_bypassed = 0, l1_mshr_shared = 0;
    for (uint32_t i = 0; i < gpu_num_sms(t->g); i++) {
        const sm *m = gpu_sm(t->g, i);
        collect_sm(t, m);
        if (sm_l1d(m)) {
            l1_bypassed += cache_stats(sm_l1d(m))->bypassed;
            l1_mshr_shared += cache_stats(sm_l1d(m))->mshr_hits_shared;
        }
    }
    stats_add(s, d->l1d_bypassed, l1_bypassed);
    stats_add(s, d->l1d_mshr_shared, l1_mshr_shared);
    uint64_t l2_bypassed = 0, l2_misses = 0, compulsory = 0, dram_bytes = 0, lines = 0, l2_bytes = 0, l2_line = 0;
    for (uint32_t i = 0; i < gpu_num_partitions(t->g); i++) {
        partition *p = gpu_partition(t->g, i);
        for (uint32_t k = 0; k < partition_slices(p); k++) {
            stats_add_cache(s, &d->l2, partition_l2(p, k));
            l2_bypassed += cache_stats(partition_l2(p, k))->bypassed;
            l2_misses += cache_total(partition_l2(p, k), CACHE_MISS);
            l2_bytes += cache_size_bytes(cache_geom(partition_l2(p, k)));
            l2_line = cache_geom(partition_l2(p, k))->line_size;
        }
        lines += partition_stats(p)->distinct_lines;
        stats_add_dram(s, &d->dram, partition_dram(p));
        compulsory += partition_stats(p)->compulsory_misses;
        dram_bytes += dram_stats(partition_dram(p))->read_bytes + dram_stats(partition_dram(p))->write_bytes;
    }
    stats_add(s, d->l2_bypassed, l2_bypassed);
    /* In an allocate-on-miss L2 (every shipped config) each bypass is decided at,
     * and is one of, the misses; an allocate-on-fill L2 decides at fills, which
     * need not match misses one to one, hence the floor. */
    stats_add(s, d->l2_misses_no_bypass, l2_misses > l2_bypassed ? l2_misses - l2_bypassed : 0);
    stats_add(s, d->l2_compulsory, compulsory);
    stats_add(s, d->dram_bytes, dram_bytes);
    stats_add(s, d->l2_lines, lines);
    stats_add(s, d->footprint_bytes, lines * l2_line);
    stats_add_max(s, d->l2_capacity, l2_bytes);
    const sm *m0 = gpu_sm(t->g, 0);
    /* the ways the kernel's carve-out left (all of them without -gpgpu_adaptive_cache_config) */
    const cache *l1d0 = sm_l1d(m0);
    stats_add_max(s, d->l1d_capacity,
                  l1d0 ? cache_size_bytes(cache_geom(l1d0)) / cache_geom(l1d0)->assoc * cache_active_ways(l1d0) : 0);
    stats_add_icnt(s, &d->req, gpu_icnt(t->g, 0));
    stats_add_icnt(s, &d->rep, gpu_icnt(t->g, 1));
    timing_policy_stats_collect(t);
    timing_energy_collect(t);
    if (stats_kernel_end(s, L->kernel->name))
        fprintf(stderr, "locsim: out of memory recording the statistics of kernel '%s'\n", L->kernel->name);
}

double timing_stat_total(const timing_state *t, const char *name) {
    int id = stats_find(t->stats, name);
    return id < 0 ? 0.0 : stats_value(t->stats, STATS_TOTAL, id);
}

void timing_report_text(const timing_state *t, FILE *out) { stats_print_total(t->stats, out); }

int timing_report_json(const timing_state *t, FILE *out) { return stats_write_json(t->stats, out, 0); }
