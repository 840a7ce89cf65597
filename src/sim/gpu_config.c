/* From a sim_config (the option registry's struct) to the GPU's parameters.
 *
 * Core-side values without a GPGPU-Sim option are fixed here and documented:
 *   fetch                2 instructions per fetch, one warp per SM per cycle, 2 cycles
 *                        from fetch to issue (GPGPU-Sim's Fermi core; src/core/sm.c)
 *   ld.param latency     the L1 hit latency (kernel arguments live in the constant bank)
 *   registers            at most 63 per thread (Fermi's limit) counted from the PTX,
 *                        allocated per warp in units of 64 registers
 *   shared memory        allocated per CTA in units of 128 bytes
 *   coalescing           128 B lines (the L1D / constant cache line when one is used)
 *   LD/ST unit           16 memory instructions in flight per warp; 8-entry queue for
 *                        requests that bypass the L1 (atomics)
 *   -l1d_unbounded 1     the L1D keeps its line size, policies, MSHRs and queues but
 *                        gets 8192 sets x 32 ways (32 MB per SM at 128 B lines): no
 *                        workload of the suite evicts from it (L1D_total_cache_evictions
 *                        shows whether one does)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/gpu_internal.h"

#define MAX_REGS_PER_THREAD 63
#define REG_ALLOC_UNIT 64
#define SMEM_ALLOC_UNIT 128
#define LOAD_SLOTS_PER_WARP 16
#define BYPASS_QUEUE 8
#define L1D_UNBOUNDED_SETS 8192
#define L1D_UNBOUNDED_ASSOC 32

static void sm_params(const sim_config *c, sm_config *s) {
    memset(s, 0, sizeof *s);
    s->warp_size = c->warp_size;
    s->max_threads = c->max_threads_per_core;
    s->max_ctas = c->max_cta_per_core;
    s->num_regs = c->registers_per_core;
    s->max_regs_per_thread = MAX_REGS_PER_THREAD;
    s->reg_alloc_unit = REG_ALLOC_UNIT;
    s->smem_size = c->shmem_size;
    s->smem_alloc_unit = SMEM_ALLOC_UNIT;
    s->num_sched = c->num_sched_per_core;
    s->num_units[UNIT_SP] = c->num_sp_units;
    s->num_units[UNIT_SFU] = c->num_sfu_units;
    s->num_units[UNIT_DP] = c->num_dp_units;
    s->num_units[UNIT_LDST] = 1;
    s->num_units[UNIT_INT] = c->num_int_units;
    s->sub_core = c->sub_core_model;
    /* -gpgpu_num_tensor_core_units 0: one per warp scheduler (docs/tensor.md) */
    s->num_units[UNIT_TENSOR] =
        !c->tensor_core_avail ? 0 : c->num_tensor_units ? c->num_tensor_units : c->num_sched_per_core;
    s->simd_width = c->simd_width;
    s->oc_units[0] = c->oc_units_sp;
    s->oc_units[1] = c->oc_units_sfu;
    s->num_reg_banks = c->num_reg_banks;
    s->result_buses = c->n_pipeline_widths ? c->pipeline_widths[c->n_pipeline_widths - 1] : 1;
    for (int i = 0; i < SM_LAT_COUNT; i++) {
        s->lat_int[i] = c->lat_int[i];
        s->lat_fp[i] = c->lat_fp[i];
        s->lat_dp[i] = c->lat_dp[i];
        s->init_int[i] = c->init_int[i];
        s->init_fp[i] = c->init_fp[i];
        s->init_dp[i] = c->init_dp[i];
    }
    s->lat_sfu = c->lat_sfu;
    s->init_sfu = c->init_sfu;
    s->lat_tensor = c->lat_tensor;
    s->init_tensor = c->init_tensor;
    /* a fetch stops at the end of the line of the cache it reads: the L0 when there is one */
    uint32_t iline = c->l0i.nsets && c->sub_core_model ? c->l0i.line_size : c->l1i.line_size;
    s->insns_per_iline = iline >= 16 ? iline / 8 : 2;
    s->l1_latency = c->l1_latency;
    s->l1_banks = c->l1_banks;
    s->l1_bank_shift = (uint32_t)__builtin_ctz(c->l1_banks_byte_interleaving);
    s->l1_bank_xor = c->l1_banks_hashing_function == 1;
    s->smem_latency = c->smem_latency;
    /* GPGPU-Sim sends ld.param and constant loads through the constant cache,
     * which has no latency queue (-gpgpu_l1_latency is the L1D's alone). */
    s->param_latency = 1;
    s->const_latency = 1;
    s->perfect_inst_const = c->perfect_inst_const_cache;
    s->smem_banks = c->shmem_num_banks;
    s->smem_bank_width = 4;
    s->coalesce_line = 128;
    s->has_l1d = c->l1d.nsets > 0;
    s->l1d_global = true;
    s->flush_l1 = c->flush_l1_cache;
    s->l1d = c->l1d;
    s->l1d.nsets *= c->l1d_size_scale;   /* -l1d_size_scale (sensitivity probe) */
    if (c->l1d_unbounded) {
        s->l1d.nsets = L1D_UNBOUNDED_SETS;
        s->l1d.assoc = L1D_UNBOUNDED_ASSOC;
    }
    s->l1d_access_analysis = c->l1d_access_analysis;
    s->l1c = c->l1c;
    s->l1i = c->l1i;
    s->l0i = c->l0i;
    s->l1t = c->l1t;
    s->bypass_queue = BYPASS_QUEUE;
    s->load_slots_per_warp = LOAD_SLOTS_PER_WARP;
    s->cfg = c;
}

int gpu_params_from_config(const sim_config *c, gpu_params *p, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    sm_params(c, &p->sm);
    p->sm.sched = sched_find(c->scheduler, &p->sm.sched_args);
    if (!p->sm.sched) {
        int k = snprintf(err, errlen, "-gpgpu_scheduler: unknown warp scheduler '%s' (expected", c->scheduler);
        for (uint32_t i = 0; sched_at(i) && k > 0 && (size_t)k < errlen; i++)
            k += snprintf(err + k, errlen - (size_t)k, "%s %s", i ? "," : "", sched_at(i)->name);
        if (k > 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, ")");
        return -1;
    }
    p->num_sms = config_num_sms(c);
    p->sm.total_sms = p->num_sms;
    const dram_sched_ops *ds = dram_sched_find(c->dram.scheduler);
    p->sm.track_sigma = p->sm.sched->uses_sigma || (ds && ds->uses_sigma);
    for (int d = 0; d < CLK_COUNT; d++) p->clock_khz[d] = (uint64_t)llround(c->clock_mhz[d] * 1000.0);
    p->clock_khz[CLK_DRAM] *= c->dram_bw_scale;   /* with config_partition's delays: more commands a ns, same ns */
    p->icnt = c->icnt;
    config_partition(c, &p->part);
    config_addrmap(c, &p->amap);
    p->cta_sched = cta_sched_find(c->cta_scheduler, &p->cta_args);
    if (!p->cta_sched) {
        int k = snprintf(err, errlen, "-cta_scheduler: unknown CTA scheduler '%s' (expected", c->cta_scheduler);
        for (uint32_t i = 0; cta_sched_at(i) && k > 0 && (size_t)k < errlen; i++)
            k += snprintf(err + k, errlen - (size_t)k, "%s %s", i ? "," : "", cta_sched_at(i)->name);
        if (k > 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, ")");
        return -1;
    }
    p->max_cycle = c->max_cycle;
    p->flush_l2 = c->flush_l2_cache;
    p->perf_memcpy = c->perf_sim_memcpy;
    p->ptxas_regs = c->ptxas_registers;
    p->max_insn = c->max_insn;
    p->max_cta = c->max_cta;
    p->deadlock_cycles = c->deadlock_detect ? c->deadlock_cycles : 0;
    p->sim_threads = c->sim_threads ? c->sim_threads : 1;
    p->window_insn = c->window_insn;
    p->warmup_insn = c->warmup_insn;
    p->numa = (numa_config){.n_modules = c->numa_n_modules, .num_sms = p->num_sms, .n_channels = c->n_mem,
                            .slices_per_channel = c->n_sub_partition_per_mchannel,
                            .link_gbps = c->numa_link_bandwidth, .link_ns = c->numa_link_latency,
                            .icnt_khz = p->clock_khz[CLK_ICNT],
                            .port_bytes = c->icnt.flit_size * c->icnt.flits_per_cycle, .page_size = c->numa_page_size,
                            .place = numa_place_find(c->numa_placement), .cta_partition = c->numa_cta_partition,
                            .cta_steal = c->numa_cta_steal, .flat = c->numa_flat_fabric,
                            .ring = !strcmp(c->numa_link_topology, "ring")};
    if (!p->numa.place) {
        snprintf(err, errlen, "-numa_placement: unknown placement '%s'", c->numa_placement);
        return -1;
    }
    p->cfg = c;
    return 0;
}

/* Build and drop one instance of each plug-in so that a bad argument string is
 * reported when the configuration is loaded, not at the first launch. */
int gpu_params_validate(const gpu_params *p, char *err, size_t errlen) {
    char why[256];
    sched_params sp = {.sm_id = 0, .num_sched = p->sm.num_sched, .max_warps = p->sm.max_threads / p->sm.warp_size,
                       .args = p->sm.sched_args, .cfg = p->cfg};
    if (sp.max_warps == 0 || sp.max_warps > SCHED_MAX_WARPS) {
        snprintf(err, errlen, "-gpgpu_shader_core_pipeline: at most %d warps per SM are supported", SCHED_MAX_WARPS);
        return -1;
    }
    void *st = p->sm.sched->create(&sp, why, sizeof why);
    if (!st) {
        snprintf(err, errlen, "-gpgpu_scheduler: %s", why);
        return -1;
    }
    p->sm.sched->destroy(st);
    if (!p->cta_sched) {
        snprintf(err, errlen, "no CTA scheduler");
        return -1;
    }
    cta_sched_params cp = {.num_sms = p->num_sms, .max_ctas_per_sm = 1, .nctas = 1, .grid = {1, 1, 1},
                           .args = p->cta_args, .cfg = p->cfg};
    st = p->cta_sched->create(&cp, why, sizeof why);
    if (!st) {
        snprintf(err, errlen, "CTA scheduler: %s", why);
        return -1;
    }
    p->cta_sched->destroy(st);
    return 0;
}
