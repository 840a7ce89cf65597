/* Statistics of the timing model: snapshots of every raw counter, the derived
 * metrics (GPGPU-Sim names where they exist), per-kernel records and totals.
 *
 * Conventions:
 *   gpu_sim_insn     thread instructions (lanes active before the guard, as GPGPU-Sim)
 *   gpu_ipc          gpu_sim_insn / gpu_sim_cycle
 *   *_MPKI           misses per 1000 thread instructions
 *   *_miss_rate      misses / accesses; "accesses" count hits, pending hits and
 *                    misses (reservation fails are retried and counted apart)
 *   averagemflatency core cycles from a request leaving the LD/ST unit to its data
 *                    arriving back at the SM (L1 misses, atomics, uncached loads)
 *   issue_stall_*    scheduler-cycles in which a scheduler issued nothing, by reason
 *                    (fractions of all scheduler-cycles in issue_stall_*_frac)
 * No host time appears here: the same run gives the same numbers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "sim/timing.h"

/* ---- snapshots ---- */

static void add_cache(const cache *c, uint64_t acc[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT],
                      uint64_t fail[CACHE_FAIL_COUNT]) {
    if (!c) return;
    const cache_counters *k = cache_stats(c);
    for (int t = 0; t < MEM_ACCESS_TYPE_COUNT; t++)
        for (int o = 0; o < CACHE_OUTCOME_COUNT; o++) acc[t][o] += k->access[t][o];
    if (fail)
        for (int f = 0; f < CACHE_FAIL_COUNT; f++) fail[f] += k->fail[f];
}

static void add_sm(const sm *m, timing_snapshot *s) {
    const sm_counters *c = sm_stats(m);
    s->thread_insns += c->thread_insns;
    s->warp_insns += c->warp_insns;
    s->issue_slots += c->issue_slots;
    for (int r = 0; r < STALL_COUNT; r++) s->stall[r] += c->stall[r];
    for (int u = 0; u < UNIT_COUNT; u++) s->unit_insns[u] += c->unit_insns[u];
    s->ctas += c->ctas_done;
    s->active_sm_cycles += c->active_cycles;
    s->gmem_insns += c->gmem_insns;
    s->gmem_requests += c->gmem_requests;
    s->smem_insns += c->smem_insns;
    s->smem_conflict_cycles += c->smem_conflict_cycles;
    s->const_insns += c->const_insns;
    s->ldst_fail_cycles += c->ldst_fail_cycles;
    s->bypass_requests += c->bypass_requests;
    s->requests_out += c->requests_out;
    s->replies_in += c->replies_in;
    s->mem_lat_sum += c->mem_latency_sum;
    s->mem_lat_n += c->mem_latency_n;
    add_cache(sm_l1d(m), s->l1d, s->l1d_fail);
    uint64_t l1c[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT] = {{0}};
    add_cache(sm_l1c(m), l1c, NULL);
    for (int o = 0; o < CACHE_OUTCOME_COUNT; o++) s->l1c[o] += l1c[MEM_CONST_ACC_R][o];
}

static void add_partition(partition *p, timing_snapshot *s) {
    for (uint32_t i = 0; i < partition_slices(p); i++) {
        const cache *l2 = partition_l2(p, i);
        add_cache(l2, s->l2, s->l2_fail);
        s->l2_writebacks += cache_stats(l2)->writebacks;
    }
    const dram_counters *d = dram_stats(partition_dram(p));
    s->dram_reads += d->reads;
    s->dram_writes += d->writes;
    s->dram_read_bytes += d->read_bytes;
    s->dram_write_bytes += d->write_bytes;
    s->dram_row_hits += d->row_hits;
    s->dram_row_misses += d->row_misses;
    s->dram_activates += d->activates;
    s->dram_latency_sum += d->latency_sum;
    s->dram_data_bus_cycles += d->data_bus_cycles;
}

void timing_snapshot_take(const gpu *g, timing_snapshot *s) {
    memset(s, 0, sizeof *s);
    const gpu_counters *gc = gpu_stats(g);
    for (int d = 0; d < CLK_COUNT; d++) s->cycles[d] = gc->cycles[d];
    for (uint32_t i = 0; i < gpu_num_sms(g); i++) add_sm(gpu_sm(g, i), s);
    for (uint32_t i = 0; i < gpu_num_partitions(g); i++) add_partition(gpu_partition(g, i), s);
    const icnt_counters *rq = icnt_stats(gpu_icnt(g, 0)), *rp = icnt_stats(gpu_icnt(g, 1));
    s->icnt_req_flits = rq->flits_in;
    s->icnt_rep_flits = rp->flits_in;
    s->icnt_req_packets = rq->packets_in;
    s->icnt_rep_packets = rp->packets_in;
}

static void snapshot_diff(const timing_snapshot *a, const timing_snapshot *b, timing_snapshot *d) {
    /* every field is a uint64_t counter */
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    uint64_t *z = (uint64_t *)d;
    for (size_t i = 0; i < sizeof *d / sizeof(uint64_t); i++) z[i] = y[i] - x[i];
}

/* ---- metrics ---- */

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

static uint64_t cache_sum(const uint64_t acc[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT], int outcome) {
    uint64_t n = 0;
    for (int t = 0; t < MEM_ACCESS_TYPE_COUNT; t++) n += acc[t][outcome];
    return n;
}

static uint64_t cache_accesses(const uint64_t acc[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT]) {
    return cache_sum(acc, CACHE_HIT) + cache_sum(acc, CACHE_HIT_RESERVED) + cache_sum(acc, CACHE_MISS);
}

static uint64_t fail_sum(const uint64_t f[CACHE_FAIL_COUNT]) {
    uint64_t n = 0;
    for (int i = 0; i < CACHE_FAIL_COUNT; i++) n += f[i];
    return n;
}

#define M(fn_name, expr) \
    static double fn_name(const timing_snapshot *d) { return (double)(expr); }

M(m_cycle, d->cycles[CLK_CORE])
M(m_insn, d->thread_insns)
M(m_warp_insn, d->warp_insns)
M(m_ipc, ratio((double)d->thread_insns, (double)d->cycles[CLK_CORE]))
M(m_warp_ipc, ratio((double)d->warp_insns, (double)d->cycles[CLK_CORE]))
M(m_ctas, d->ctas)
M(m_l1d_acc, cache_accesses(d->l1d))
M(m_l1d_hit, cache_sum(d->l1d, CACHE_HIT))
M(m_l1d_pend, cache_sum(d->l1d, CACHE_HIT_RESERVED))
M(m_l1d_miss, cache_sum(d->l1d, CACHE_MISS))
M(m_l1d_fail, fail_sum(d->l1d_fail))
M(m_l1d_rate, ratio((double)cache_sum(d->l1d, CACHE_MISS), (double)cache_accesses(d->l1d)))
M(m_l1d_mpki, ratio(1000.0 * (double)cache_sum(d->l1d, CACHE_MISS), (double)d->thread_insns))
M(m_l1d_gr_acc, d->l1d[MEM_GLOBAL_ACC_R][CACHE_HIT] + d->l1d[MEM_GLOBAL_ACC_R][CACHE_HIT_RESERVED] +
                    d->l1d[MEM_GLOBAL_ACC_R][CACHE_MISS])
M(m_l1d_gr_miss, d->l1d[MEM_GLOBAL_ACC_R][CACHE_MISS])
M(m_l1d_lr_acc, d->l1d[MEM_LOCAL_ACC_R][CACHE_HIT] + d->l1d[MEM_LOCAL_ACC_R][CACHE_HIT_RESERVED] +
                    d->l1d[MEM_LOCAL_ACC_R][CACHE_MISS])
M(m_l1d_lr_miss, d->l1d[MEM_LOCAL_ACC_R][CACHE_MISS])
M(m_l1d_fail_line, d->l1d_fail[CACHE_FAIL_LINE_ALLOC])
M(m_l1d_fail_mshr, d->l1d_fail[CACHE_FAIL_MSHR_ENTRY] + d->l1d_fail[CACHE_FAIL_MSHR_MERGE])
M(m_l1d_fail_mq, d->l1d_fail[CACHE_FAIL_MISS_QUEUE])
M(m_l1c_acc, d->l1c[CACHE_HIT] + d->l1c[CACHE_HIT_RESERVED] + d->l1c[CACHE_MISS])
M(m_l1c_miss, d->l1c[CACHE_MISS])
M(m_l2_acc, cache_accesses(d->l2))
M(m_l2_hit, cache_sum(d->l2, CACHE_HIT))
M(m_l2_pend, cache_sum(d->l2, CACHE_HIT_RESERVED))
M(m_l2_miss, cache_sum(d->l2, CACHE_MISS))
M(m_l2_fail, fail_sum(d->l2_fail))
M(m_l2_rate, ratio((double)cache_sum(d->l2, CACHE_MISS), (double)cache_accesses(d->l2)))
M(m_l2_mpki, ratio(1000.0 * (double)cache_sum(d->l2, CACHE_MISS), (double)d->thread_insns))
M(m_l2_wb, d->l2_writebacks)
M(m_dram_rd, d->dram_reads)
M(m_dram_wr, d->dram_writes)
M(m_dram_rd_bytes, d->dram_read_bytes)
M(m_dram_wr_bytes, d->dram_write_bytes)
M(m_dram_rbh, ratio((double)d->dram_row_hits, (double)(d->dram_row_hits + d->dram_row_misses)))
M(m_dram_act, d->dram_activates)
M(m_dram_lat, ratio((double)d->dram_latency_sum, (double)(d->dram_reads + d->dram_writes)))
M(m_dram_util, ratio((double)d->dram_data_bus_cycles, (double)d->cycles[CLK_DRAM]))
M(m_mflat, ratio((double)d->mem_lat_sum, (double)d->mem_lat_n))
M(m_icnt_req_flits, d->icnt_req_flits)
M(m_icnt_rep_flits, d->icnt_rep_flits)
M(m_icnt_flits, d->icnt_req_flits + d->icnt_rep_flits)
M(m_icnt_packets, d->icnt_req_packets + d->icnt_rep_packets)
M(m_gmem_insns, d->gmem_insns)
M(m_gmem_reqs, d->gmem_requests)
M(m_gmem_per_insn, ratio((double)d->gmem_requests, (double)d->gmem_insns))
M(m_smem_insns, d->smem_insns)
M(m_smem_conf, d->smem_conflict_cycles)
M(m_ldst_fail, d->ldst_fail_cycles)
M(m_bypass, d->bypass_requests)
M(m_slots, d->issue_slots)
M(m_st_idle, d->stall[STALL_IDLE])
M(m_st_sb, d->stall[STALL_SCOREBOARD])
M(m_st_pipe, d->stall[STALL_PIPELINE])
M(m_st_mem, d->stall[STALL_MEMORY])
M(m_st_bar, d->stall[STALL_BARRIER])
M(m_st_idle_f, ratio((double)d->stall[STALL_IDLE], (double)d->issue_slots))
M(m_st_sb_f, ratio((double)d->stall[STALL_SCOREBOARD], (double)d->issue_slots))
M(m_st_pipe_f, ratio((double)d->stall[STALL_PIPELINE], (double)d->issue_slots))
M(m_st_mem_f, ratio((double)d->stall[STALL_MEMORY], (double)d->issue_slots))
M(m_st_bar_f, ratio((double)d->stall[STALL_BARRIER], (double)d->issue_slots))
M(m_icnt_cycles, d->cycles[CLK_ICNT])
M(m_l2_cycles, d->cycles[CLK_L2])
M(m_dram_cycles, d->cycles[CLK_DRAM])

static const timing_metric metrics[] = {
    {"gpu_sim_cycle", "core cycles", 1, m_cycle},
    {"gpu_sim_insn", "thread instructions", 1, m_insn},
    {"gpu_warp_insn", "warp instructions issued", 1, m_warp_insn},
    {"gpu_ipc", "thread instructions per core cycle", 0, m_ipc},
    {"gpu_warp_ipc", "warp instructions per core cycle", 0, m_warp_ipc},
    {"gpu_ctas", "CTAs completed", 1, m_ctas},
    {"gpu_icnt_cycle", "interconnect cycles", 1, m_icnt_cycles},
    {"gpu_l2_cycle", "L2 cycles", 1, m_l2_cycles},
    {"gpu_dram_cycle", "DRAM command cycles", 1, m_dram_cycles},
    {"L1D_total_cache_accesses", "L1D hits + pending hits + misses", 1, m_l1d_acc},
    {"L1D_total_cache_hits", "L1D hits", 1, m_l1d_hit},
    {"L1D_total_cache_pending_hits", "L1D hits on a line being fetched (MSHR merges)", 1, m_l1d_pend},
    {"L1D_total_cache_misses", "L1D misses", 1, m_l1d_miss},
    {"L1D_total_cache_reservation_fails", "L1D accesses that found no line/MSHR/queue room (retried)", 1, m_l1d_fail},
    {"L1D_total_cache_miss_rate", "L1D misses / accesses", 0, m_l1d_rate},
    {"L1D_MPKI", "L1D misses per 1000 thread instructions", 0, m_l1d_mpki},
    {"L1D_global_read_accesses", "L1D global loads", 1, m_l1d_gr_acc},
    {"L1D_global_read_misses", "L1D global load misses", 1, m_l1d_gr_miss},
    {"L1D_local_read_accesses", "L1D local loads", 1, m_l1d_lr_acc},
    {"L1D_local_read_misses", "L1D local load misses", 1, m_l1d_lr_miss},
    {"L1D_reservation_fail_line_alloc", "reservation fails: no line to allocate", 1, m_l1d_fail_line},
    {"L1D_reservation_fail_mshr", "reservation fails: MSHR entries or merge slots full", 1, m_l1d_fail_mshr},
    {"L1D_reservation_fail_miss_queue", "reservation fails: miss queue full", 1, m_l1d_fail_mq},
    {"L1C_total_cache_accesses", "constant cache accesses", 1, m_l1c_acc},
    {"L1C_total_cache_misses", "constant cache misses", 1, m_l1c_miss},
    {"L2_total_cache_accesses", "L2 hits + pending hits + misses", 1, m_l2_acc},
    {"L2_total_cache_hits", "L2 hits", 1, m_l2_hit},
    {"L2_total_cache_pending_hits", "L2 MSHR merges", 1, m_l2_pend},
    {"L2_total_cache_misses", "L2 misses", 1, m_l2_miss},
    {"L2_total_cache_reservation_fails", "L2 reservation fails (retried)", 1, m_l2_fail},
    {"L2_total_cache_miss_rate", "L2 misses / accesses", 0, m_l2_rate},
    {"L2_MPKI", "L2 misses per 1000 thread instructions", 0, m_l2_mpki},
    {"L2_writebacks", "dirty L2 lines written to DRAM", 1, m_l2_wb},
    {"dram_reads", "DRAM read requests", 1, m_dram_rd},
    {"dram_writes", "DRAM write requests", 1, m_dram_wr},
    {"dram_read_bytes", "bytes read from DRAM", 1, m_dram_rd_bytes},
    {"dram_write_bytes", "bytes written to DRAM", 1, m_dram_wr_bytes},
    {"dram_row_buffer_hit_rate", "requests that found their row open / requests", 0, m_dram_rbh},
    {"dram_activates", "row activations", 1, m_dram_act},
    {"dram_avg_latency", "DRAM cycles from queue entry to completion", 0, m_dram_lat},
    {"dram_bus_utilization", "data-bus busy cycles / DRAM cycles, summed over channels", 0, m_dram_util},
    {"averagemflatency", "core cycles from a request leaving the LD/ST unit to its data returning", 0, m_mflat},
    {"icnt_total_flits", "flits injected into both networks", 1, m_icnt_flits},
    {"icnt_request_flits", "flits SM -> L2", 1, m_icnt_req_flits},
    {"icnt_reply_flits", "flits L2 -> SM", 1, m_icnt_rep_flits},
    {"icnt_packets", "packets injected into both networks", 1, m_icnt_packets},
    {"gmem_warp_accesses", "global/local warp memory instructions", 1, m_gmem_insns},
    {"gmem_requests", "coalesced line requests they made (incl. constant)", 1, m_gmem_reqs},
    {"gmem_requests_per_access", "coalescing: requests per warp memory instruction", 0, m_gmem_per_insn},
    {"smem_warp_accesses", "shared-memory warp instructions", 1, m_smem_insns},
    {"smem_bank_conflict_cycles", "extra cycles spent on bank conflicts", 1, m_smem_conf},
    {"ldst_reservation_fail_cycles", "cycles the LD/ST unit retried a refused access", 1, m_ldst_fail},
    {"bypass_requests", "requests past the L1 (atomics, uncached)", 1, m_bypass},
    {"issue_slots", "scheduler-cycles (schedulers x core cycles)", 1, m_slots},
    {"issue_stall_idle", "no warp with an instruction to issue", 1, m_st_idle},
    {"issue_stall_scoreboard", "operands not ready (ALU latency)", 1, m_st_sb},
    {"issue_stall_pipeline", "ready warp, its SP/SFU/DP pipeline busy", 1, m_st_pipe},
    {"issue_stall_memory", "waiting on a load, or the LD/ST unit busy", 1, m_st_mem},
    {"issue_stall_barrier", "every warp at a barrier", 1, m_st_bar},
    {"issue_stall_idle_frac", "issue_stall_idle / issue_slots", 0, m_st_idle_f},
    {"issue_stall_scoreboard_frac", "issue_stall_scoreboard / issue_slots", 0, m_st_sb_f},
    {"issue_stall_pipeline_frac", "issue_stall_pipeline / issue_slots", 0, m_st_pipe_f},
    {"issue_stall_memory_frac", "issue_stall_memory / issue_slots", 0, m_st_mem_f},
    {"issue_stall_barrier_frac", "issue_stall_barrier / issue_slots", 0, m_st_bar_f},
};

const timing_metric *timing_metrics(uint32_t *n) {
    *n = sizeof metrics / sizeof *metrics;
    return metrics;
}

/* ---- kernels ---- */

timing_state *timing_of(const locsim_device *dev) {
    return dev && dev->mode == LOCSIM_MODE_TIMING ? (timing_state *)dev->timing : NULL;
}

int timing_stats_init(timing_state *t, char *err, size_t errlen) {
    (void)err;
    (void)errlen;
    t->kernels = NULL;
    t->nkernels = t->cap_kernels = 0;
    return 0;
}

void timing_stats_free(timing_state *t) { free(t->kernels); }

void timing_stats_kernel_begin(timing_state *t, const exec_launch *L) {
    (void)L;
    timing_snapshot_take(t->g, &t->at_launch);
}

void timing_stats_kernel_end(timing_state *t, const exec_launch *L, locsim_status st) {
    if (t->nkernels == t->cap_kernels) {
        uint64_t cap = t->cap_kernels ? t->cap_kernels * 2 : 16;
        timing_kernel_record *k = realloc(t->kernels, cap * sizeof *k);
        if (!k) return; /* the record is lost; the totals are not */
        t->kernels = k;
        t->cap_kernels = cap;
    }
    timing_kernel_record *k = &t->kernels[t->nkernels];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", L->kernel->name);
    k->launch = t->nkernels++;
    k->grid_ctas = L->grid.x * L->grid.y * L->grid.z;
    k->cta_threads = L->block.x * L->block.y * L->block.z;
    const sm_occupancy_info *o = gpu_last_occupancy(t->g);
    k->ctas_per_sm = o->ctas_per_sm;
    k->occupancy_limiter = o->limiter;
    k->max_resident = gpu_last_max_resident(t->g);
    k->status = st;
    timing_snapshot now;
    timing_snapshot_take(t->g, &now);
    snapshot_diff(&t->at_launch, &now, &k->delta);
}

/* ---- reports ---- */

static void print_value(FILE *out, const timing_metric *m, double v) {
    if (m->is_int) fprintf(out, "%" PRIu64, (uint64_t)v);
    else fprintf(out, "%.6f", v);
}

void timing_report_text(const timing_state *t, FILE *out) {
    uint32_t n;
    const timing_metric *ms = timing_metrics(&n);
    timing_snapshot total;
    timing_snapshot_take(t->g, &total);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(out, "%-36s ", ms[i].name);
        print_value(out, &ms[i], ms[i].value(&total));
        fputc('\n', out);
    }
}

static void json_metrics(FILE *out, const timing_snapshot *d, const char *indent) {
    uint32_t n;
    const timing_metric *ms = timing_metrics(&n);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(out, "%s\"%s\": ", indent, ms[i].name);
        print_value(out, &ms[i], ms[i].value(d));
        fputs(i + 1 < n ? ",\n" : "\n", out);
    }
}

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(out, "\\u%04x", *s);
        else fputc(*s, out);
    }
    fputc('"', out);
}

int timing_report_json(const timing_state *t, FILE *out) {
    timing_snapshot total;
    timing_snapshot_take(t->g, &total);
    fputs("{\n  \"total\": {\n", out);
    json_metrics(out, &total, "    ");
    fputs("  },\n  \"kernels\": [", out);
    for (uint64_t i = 0; i < t->nkernels; i++) {
        const timing_kernel_record *k = &t->kernels[i];
        fputs(i ? ",\n    {\n" : "\n    {\n", out);
        fputs("      \"kernel\": ", out);
        json_string(out, k->name);
        fprintf(out,
                ",\n      \"launch\": %" PRIu64 ",\n      \"grid_ctas\": %u,\n      \"cta_threads\": %u,\n"
                "      \"ctas_per_sm\": %u,\n      \"max_resident_ctas\": %u,\n      \"occupancy_limiter\": ",
                k->launch, k->grid_ctas, k->cta_threads, k->ctas_per_sm, k->max_resident);
        json_string(out, k->occupancy_limiter ? k->occupancy_limiter : "");
        fprintf(out, ",\n      \"status\": ");
        json_string(out, locsim_status_name((locsim_status)k->status));
        fputs(",\n", out);
        json_metrics(out, &k->delta, "      ");
        fputs("    }", out);
    }
    fputs(t->nkernels ? "\n  ]\n}\n" : "]\n}\n", out);
    return ferror(out) ? -1 : 0;
}
