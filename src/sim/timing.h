/* Timing mode of a device (the object behind dev->timing) and its statistics. */
#ifndef LOCSIM_SIM_TIMING_H
#define LOCSIM_SIM_TIMING_H

#include <stdint.h>

#include "exec/exec.h"
#include "locsim/locsim.h"
#include "sim/config.h"
#include "sim/gpu.h"

/* Every raw counter of the GPU at one moment; statistics of a kernel are the
 * difference of two snapshots. */
typedef struct {
    uint64_t cycles[CLK_COUNT];
    uint64_t thread_insns, warp_insns, issue_slots, stall[STALL_COUNT];
    uint64_t unit_insns[UNIT_COUNT];
    uint64_t ctas, active_sm_cycles;
    uint64_t gmem_insns, gmem_requests, smem_insns, smem_conflict_cycles, const_insns;
    uint64_t ldst_fail_cycles, bypass_requests, requests_out, replies_in;
    uint64_t mem_lat_sum, mem_lat_n;
    uint64_t l1d[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT], l1d_fail[CACHE_FAIL_COUNT];
    uint64_t l1c[CACHE_OUTCOME_COUNT];
    uint64_t l2[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT], l2_fail[CACHE_FAIL_COUNT], l2_writebacks;
    uint64_t dram_reads, dram_writes, dram_read_bytes, dram_write_bytes, dram_row_hits, dram_row_misses;
    uint64_t dram_activates, dram_latency_sum, dram_data_bus_cycles;
    uint64_t icnt_req_flits, icnt_rep_flits, icnt_req_packets, icnt_rep_packets;
} timing_snapshot;

void timing_snapshot_take(const gpu *g, timing_snapshot *s);

/* One statistic: GPGPU-Sim's name where one exists. */
typedef struct {
    const char *name;
    const char *help;
    int is_int;          /* print as an integer */
    double (*value)(const timing_snapshot *d);
} timing_metric;

/* The metrics, in report order; *n gets the count. */
const timing_metric *timing_metrics(uint32_t *n);

typedef struct {
    char name[128];      /* kernel name */
    uint64_t launch;     /* 0-based launch number on the device */
    uint32_t grid_ctas, cta_threads, ctas_per_sm, max_resident;
    const char *occupancy_limiter;
    int status;          /* locsim_status of the launch */
    timing_snapshot delta;
} timing_kernel_record;

typedef struct {
    gpu *g;
    const sim_config *cfg;
    sim_config *owned_cfg;           /* when the device was created without one */
    double start_s, last_progress_s; /* host time: progress line only */
    int progress_shown;
    timing_snapshot at_launch;
    timing_kernel_record *kernels;   /* every launch, in order */
    uint64_t nkernels, cap_kernels;
    void *stats;                     /* the statistics registry of this device, if any */
} timing_state;

/* The timing state of a timing-mode device, NULL otherwise. */
timing_state *timing_of(const locsim_device *dev);

int timing_stats_init(timing_state *t, char *err, size_t errlen);
void timing_stats_kernel_begin(timing_state *t, const exec_launch *L);
void timing_stats_kernel_end(timing_state *t, const exec_launch *L, locsim_status st);
void timing_stats_free(timing_state *t);

/* Statistics of the whole run (every kernel) as "name value" lines, and as JSON
 * (deterministic: no host time, fixed order, integers printed exactly). */
void timing_report_text(const timing_state *t, FILE *out);
int timing_report_json(const timing_state *t, FILE *out);

#endif
