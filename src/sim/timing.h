/* Timing mode of a device (the object behind dev->timing) and its statistics. */
#ifndef LOCSIM_SIM_TIMING_H
#define LOCSIM_SIM_TIMING_H

#include <stdint.h>

#include "exec/exec.h"
#include "locsim/locsim.h"
#include "sim/config.h"
#include "sim/gpu.h"
#include "sim/stats.h"

#define TIMING_MAX_SCHED_STATS 32   /* statistics a warp-scheduler plug-in may define */
#define TIMING_MAX_L1D_POLICY_STATS 48  /* statistics an L1D replacement policy may define */
#define TIMING_MAX_PF_STATS 24      /* statistics a prefetcher plug-in may define (per cache level) */
#define TIMING_MAX_DSCHED_STATS 64  /* statistics a DRAM scheduler plug-in may define (mfq: 50) */
#define TIMING_PF_BASE 15           /* <L>_prefetch_* statistics every prefetcher has (timing_plugin_stats.c) */
#define TIMING_L1A_STATS 19         /* L1D access-stream analysis statistics (timing_policy_stats.c) */
#define TIMING_L1A_CRN 17           /* ... and its CRN histogram buckets (L1T_CRN_BUCKETS) */

/* Ids of the statistics the timing model defines in its registry. */
typedef struct {
    stats_gpu_ids gpu;
    stats_cache_ids l1d, l1c, l1t, l1i, l2;
    stats_cache_ids l0i;             /* defined only with L0 I-caches (has_l0i) */
    int has_l0i;
    stats_dram_ids dram;
    stats_icnt_ids req, rep;
    int regs_per_thread, regs_estimated, cta_clusters;
    int ctas, icnt_cycles, l2_cycles, dram_cycles, skipped_cycles, active_sm_cycles;
    int slots, stall[STALL_COUNT], stall_frac[STALL_COUNT];
    int unit[UNIT_COUNT];
    int gmem_insns, gmem_reqs, gmem_per_insn, smem_insns, smem_conflicts, const_insns, param_insns, tex_insns;
    int ldst_fails, l1_bank_conflicts, bypass, send_fails, oc_bank_conflicts, result_bus_stalls;
    int nbr, nbr_same, nbr_frac, sm_ctas, sm_ctas_max, sm_ctas_min, sm_insn, sm_insn_max;   /* CTA map */
    int ctas_max_ratio, ctas_min_ratio, insn_max_ratio, sharer_lines, sharer_sm_lines, sharers;
    int l1d_bypassed, l1d_mshr_shared, l2_bypassed, l2_compulsory, l2_compulsory_frac, dram_bytes;
    int l2_misses_no_bypass, l2_mpki_no_bypass;   /* docs/sharing.md */
    /* caps, windows and the regime (timing_stats.c, docs/timing-core.md) */
    int ff_insn, exec_insn, windows_closed, warmup_ctas, ff_ctas;
    int grid_ctas, cta_slots, grid_waves, num_sms, grid_ctas_max, grid_rows_max, occ_warps_max;
    int occ_by[4];                                          /* launches limited by threads, CTAs, registers, smem */
    int live_warp_cycles, live_warps_mean, live_warps_max;
    int l2_lines, footprint_bytes, l1d_capacity, l2_capacity, footprint_l1d, footprint_l2;
    int sched_stat[TIMING_MAX_SCHED_STATS], nsched_stats;  /* the warp scheduler's own (warp_sched_ops.stats) */
    int l1a[TIMING_L1A_STATS], has_l1a;                    /* -l1d_access_analysis */
    int l1a_crn[TIMING_L1A_CRN];                           /* ... L1D_CRN_<n> */
    int l1p_stat[TIMING_MAX_L1D_POLICY_STATS], nl1p_stats; /* the L1D policy's own (cache_policy_ops.stats) */
    /* prefetchers of the L1D [0] and the L2 [1], and the DRAM scheduler (timing_plugin_stats.c) */
    struct {
        int on, base[TIMING_PF_BASE], own[TIMING_MAX_PF_STATS], nown;
        int forwarded;   /* <L>_prefetch_forwarded, -1 unless the L2 hands candidates over */
    } pf[2];
    int dsched_stat[TIMING_MAX_DSCHED_STATS], ndsched_stats;
    /* multi-module GPU (timing_numa_stats.c) */
    int numa_on, numa_local, numa_remote, numa_all, numa_eff;
    int numa_zone[NUMA_MAX_MODULES], numa_zone_share[NUMA_MAX_MODULES];
    int numa_zone_dram[NUMA_MAX_MODULES], numa_zone_bw[NUMA_MAX_MODULES];
    int numa_link_packets, numa_link_bytes, numa_link_stalls, numa_link_cap, numa_link_util, numa_parts, numa_stolen;
    /* energy model (timing_energy.c) */
    int time_ns, en_events[ENERGY_EVENT_COUNT], en_event[ENERGY_EVENT_COUNT];
    int en_idle_cycles, en_idle_ns; /* SM-cycles with no CTA resident, and that time in ns */
    int en_comp[ENERGY_COMPONENT_COUNT], en_static[ENERGY_STATIC_COUNT];
    int en_dynamic, en_static_sum, en_total, en_l2_noc_dram, en_power;
} timing_stat_ids;

typedef struct {
    gpu *g;
    const sim_config *cfg;
    sim_config *owned_cfg;           /* when the device was created without one */
    double host_seconds;             /* spent in kernels, cumulative (STAT_HOST) */
    stats *stats;                    /* per-kernel and total statistics */
    timing_stat_ids ids;
} timing_state;

timing_state *timing_of(const locsim_device *dev);

/* Define the statistics (at attach) and collect them after each kernel. */
int timing_stats_init(timing_state *t, char *err, size_t errlen);
void timing_stats_kernel_end(timing_state *t, const exec_launch *L, double host_seconds);
void timing_stats_free(timing_state *t);
/* Plug-in and analysis statistics (timing_policy_stats.c): defined at init,
 * collected inside each kernel's collection pass. */
int timing_policy_stats_define(timing_state *t);
/* Prefetcher and DRAM-scheduler statistics (timing_plugin_stats.c), likewise;
 * nothing is defined for a level without a prefetcher. */
int timing_plugin_stats_define(timing_state *t);
void timing_plugin_stats_collect(timing_state *t);
/* Multi-module statistics (timing_numa_stats.c), likewise; none with one module. */
int timing_numa_stats_define(timing_state *t);
void timing_numa_stats_collect(timing_state *t);
void timing_policy_stats_collect(timing_state *t);
/* Energy model statistics (timing_energy.c): defined at init from the
 * configuration's energies; collected from the components' counters. */
int timing_energy_define(timing_state *t);
void timing_energy_collect(timing_state *t);

/* Total value of a statistic by name (its per-kernel name), 0 if unknown. */
double timing_stat_total(const timing_state *t, const char *name);

/* Statistics of the whole run as "name = value" lines, and as JSON
 * (deterministic: host-time statistics are left out). */
void timing_report_text(const timing_state *t, FILE *out);
int timing_report_json(const timing_state *t, FILE *out);

#endif
