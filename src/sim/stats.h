/* The statistics registry: named statistics, per kernel and in total, printed
 * as a text summary ("name = value", GPGPU-Sim names) and as JSON.
 *
 * Model.  Components keep their own plain counters (cache_counters,
 * dram_counters, ...) that only ever grow.  At the end of every kernel the owner
 * of the registry runs one collection pass that adds every component's
 * cumulative values into the registry:
 *
 *   stats_collect_begin(s);
 *   stats_add(s, id, value)               for every instance (sums them), or the
 *   stats_add_cache/_dram/_icnt helpers   for whole groups with GPGPU-Sim names;
 *   stats_kernel_end(s, "kernel_name");   kernel values = this pass - the previous one
 *
 * so per-kernel values are differences of cumulative ones and nothing in the
 * cycle loop touches the registry.  Sources are integer counters or real values
 * (e.g. host seconds); derived statistics are ratios of two sources times a
 * scale (miss rate, IPC, MPKI), computed from the kernel's or the total's own
 * numbers.  A statistic may have a separate name for its total
 * (gpu_sim_cycle / gpu_tot_sim_cycle, as GPGPU-Sim prints them).
 *
 * Determinism: statistics are kept and printed in definition order; integers
 * print exactly and doubles with %.17g in JSON.  Statistics derived from host
 * time (STAT_HOST) are left out of JSON unless asked for, so two runs of the
 * same simulation give byte-identical JSON.
 */
#ifndef LOCSIM_SIM_STATS_H
#define LOCSIM_SIM_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/icnt.h"

typedef struct stats stats;

/* Flags of a statistic. */
#define STAT_HOST   0x1u   /* depends on host time: not in JSON unless STATS_JSON_HOST */
#define STAT_DETAIL 0x2u   /* a breakdown: in JSON, left out of the text summary */

/* stats_write_json flags */
#define STATS_JSON_HOST 0x1u

stats *stats_create(void);
void stats_destroy(stats *s);

/* Definitions return the statistic's id (>= 0), or -1 when the name is taken or
 * memory runs out.  total_name NULL: the total has the same name. */
int stats_define_counter(stats *s, const char *name, const char *total_name, unsigned flags, const char *help);
int stats_define_real(stats *s, const char *name, const char *total_name, unsigned flags, const char *help);
/* A level, not a count: each kernel's value is the largest stats_add_max gave
 * in its pass (every instance), the total the largest over the kernels. */
int stats_define_max(stats *s, const char *name, const char *total_name, unsigned flags, const char *help);
/* value = scale * num / den (0 when den is 0); num and den are earlier
 * statistics.  The ratio inherits STAT_HOST from them. */
int stats_define_ratio(stats *s, const char *name, const char *total_name, int num, int den, double scale,
                       unsigned flags, const char *help);
/* value = scale * value of src (any earlier statistic): e.g. an energy, a
 * count times its energy per event. */
int stats_define_scaled(stats *s, const char *name, int src, double scale, unsigned flags, const char *help);
/* value = terms[0] + terms[1] + ... (earlier statistics), added in that order,
 * so a reader adding the same values in the same order gets the same double. */
int stats_define_sum(stats *s, const char *name, const int *terms, uint32_t nterms, unsigned flags,
                     const char *help);
int stats_find(const stats *s, const char *name);
uint32_t stats_count(const stats *s);
const char *stats_name(const stats *s, int id);

/* ---- collection ---- */
void stats_collect_begin(stats *s);
void stats_add(stats *s, int id, uint64_t cumulative);
void stats_add_max(stats *s, int id, uint64_t value);
void stats_add_real(stats *s, int id, double cumulative);
/* Close the pass as the end of a kernel; 0, or -1 when out of memory. */
int stats_kernel_end(stats *s, const char *kernel_name);

/* ---- reading ---- */
uint32_t stats_kernels(const stats *s);
const char *stats_kernel_name(const stats *s, uint32_t k);
/* Value of statistic id for kernel k, or for the whole run when k == STATS_TOTAL. */
#define STATS_TOTAL UINT32_MAX
double stats_value(const stats *s, uint32_t k, int id);
uint64_t stats_counter_value(const stats *s, uint32_t k, int id);

/* ---- output ---- */
/* GPGPU-Sim style: kernel k's values, each statistic with a total name followed
 * by its running total (gpu_sim_cycle ... gpu_tot_sim_cycle). */
void stats_print_kernel(const stats *s, uint32_t k, FILE *out);
/* Totals of the run, under their total names. */
void stats_print_total(const stats *s, FILE *out);
/* {"kernels": [{"name": ..., "index": k, "stats": {...}}, ...], "total": {...}}.
 * 0, or -1 on a write error. */
int stats_write_json(const stats *s, FILE *out, unsigned flags);
/* The same, with extra members written first into the top-level object by
 * extra(w, ctx) (the run's inputs: see sim/run_inputs.h). */
typedef void (*stats_json_extra_fn)(void *json_writer, void *ctx);
int stats_write_json_with(const stats *s, FILE *out, unsigned flags, stats_json_extra_fn extra, void *ctx);

/* ---- standard groups with GPGPU-Sim names ---- */

/* gpu_sim_cycle, gpu_sim_insn, gpu_sim_warp_insn, gpu_ipc, averagemflatency,
 * gpgpu_simulation_time_sec / gpgpu_simulation_rate (host time) and their totals. */
typedef struct {
    int cycle, insn, warp_insn, ipc;
    int mem_latency_sum, mem_latency_n, mem_latency;
    int host_seconds, sim_rate;
} stats_gpu_ids;
int stats_define_gpu(stats *s, stats_gpu_ids *ids);

/* <P>_total_cache_accesses, _hits, _misses, _pending_hits, _reservation_fails,
 * _miss_rate (misses / accesses; reservation fails are not accesses), <P>_MPKI
 * (per 1000 of insn_id, skipped when insn_id < 0), and the breakdowns
 * <P>_cache_stats_breakdown[TYPE][OUTCOME] and <P>_cache_fail_breakdown[REASON]. */
typedef struct {
    int accesses, hits, misses, pending_hits, reservation_fails, miss_rate, mpki;
    int writebacks, evictions;
    int breakdown[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT];
    int fail[CACHE_FAIL_COUNT];
} stats_cache_ids;
int stats_define_cache(stats *s, const char *prefix, int insn_id, stats_cache_ids *ids);
void stats_add_cache(stats *s, const stats_cache_ids *ids, const cache *c);

/* dram_reads, dram_writes, bytes, activates, precharges, row-buffer hits/misses,
 * dram_row_buffer_locality (hit rate), dram_avg_latency (DRAM cycles from queue
 * entry to data), dram_bw_util (data bus busy fraction), dram_avg_queue_occupancy. */
typedef struct {
    int reads, writes, read_bytes, write_bytes, activates, precharges, row_hits, row_misses;
    int requests, latency_sum, channel_cycles, bus_cycles, queue_sum, push_fails;
    int row_locality, avg_latency, bw_util, avg_queue;
} stats_dram_ids;
int stats_define_dram(stats *s, stats_dram_ids *ids);
void stats_add_dram(stats *s, const stats_dram_ids *ids, const dram *d);

/* <P>_packets, <P>_flits, <P>_push_fails, <P>_avg_latency (interconnect cycles). */
typedef struct {
    int packets, flits, push_fails, latency_sum, delivered, avg_latency;
} stats_icnt_ids;
int stats_define_icnt(stats *s, const char *prefix, stats_icnt_ids *ids);
void stats_add_icnt(stats *s, const stats_icnt_ids *ids, const icnt *n);

#endif
