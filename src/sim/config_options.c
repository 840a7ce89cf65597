/* Every configuration option: name, type, default, range, help.
 * Defaults are GPGPU-Sim 3.x's GTX480 configuration (configs/fermi_gtx480.cfg
 * restates them).  Options without a GPGPU-Sim counterpart say "(locsim)". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"
#include "sim/config_options.h"

#define F(field) offsetof(sim_config, field)
#define QUOTE_(x) #x
#define QUOTE(x) QUOTE_(x)   /* a numeric macro as a default string */
#define SECTION(title) {.name = NULL, .help = title}
#define UINT(n, field, d, lo, hi, h) {.name = n, .type = OPT_UINT, .offset = F(field), .min = lo, .max = hi, .def = d, .help = h}
#define U64(n, field, d, lo, hi, h) {.name = n, .type = OPT_U64, .offset = F(field), .min = lo, .max = hi, .def = d, .help = h}
#define BOOL(n, field, d, h) {.name = n, .type = OPT_BOOL, .offset = F(field), .def = d, .help = h}
#define STR(n, field, d, h) {.name = n, .type = OPT_STRING, .offset = F(field), .size = sizeof(((sim_config *)0)->field), .def = d, .help = h}
#define LIST(n, field, cnt, sp, lo, hi, syn, d, h) \
    {.name = n, .type = OPT_U32LIST, .offset = F(field), .count = cnt, .sep = sp, .min = lo, .max = hi, .syntax = syn, .def = d, .help = h}
#define CACHE(n, field, d, h) {.name = n, .type = OPT_CACHE, .offset = F(field), .syntax = "<N|S>:<sets>:<line>:<assoc>,<repl>:<wr>:<alloc>:<wr_alloc>:<idx>,<mshr>:<entries>:<merge>,<miss queue>", .def = d, .help = h}
#define DBL(n, field, d, lo, hi, h) {.name = n, .type = OPT_DOUBLE, .offset = F(field), .dmin = lo, .dmax = hi, .def = d, .help = h}
#define EN(n, ev, d, h) DBL("energy_" n "_nj", energy_nj[ev], d, 0.0, 1e6, h)
#define ST(n, comp, d, h) DBL("energy_static_" n "_w", static_w[comp], d, 0.0, 1e6, h)
#define HOST_UINT(n, field, d, lo, hi, h) \
    {.name = n, .type = OPT_UINT, .offset = F(field), .min = lo, .max = hi, .def = d, .help = h, .host = true}
#define CUSTOM(n, p, f, syn, d, h) {.name = n, .type = OPT_CUSTOM, .parse = p, .format = f, .syntax = syn, .def = d, .help = h}

/* ---- custom parsers ---- */

/* -gpgpu_cache:il0: "none" (no L0 instruction caches) or a cache string. */
static int parse_l0i(sim_config *c, const char *v, char *err, size_t n) {
    if (!strcmp(v, "none")) {
        memset(&c->l0i, 0, sizeof c->l0i);
        snprintf(c->l0i.text, sizeof c->l0i.text, "none");
        return 0;
    }
    return cache_geometry_parse(v, &c->l0i, err, n);
}

static void format_l0i(const sim_config *c, char *buf, size_t n) { snprintf(buf, n, "%s", c->l0i.text); }

static int parse_pipeline(sim_config *c, const char *v, char *err, size_t n) {
    unsigned threads, warp;
    char extra;
    if (sscanf(v, "%u:%u%c", &threads, &warp, &extra) != 2 || warp == 0 || threads == 0 || threads > 4096) {
        snprintf(err, n, "expected <threads per SM>:<warp size>, e.g. 1536:32");
        return -1;
    }
    if (warp != 32) {
        snprintf(err, n, "warp size %u: only 32 is supported", warp);
        return -1;
    }
    if (threads % warp) {
        snprintf(err, n, "%u threads per SM is not a multiple of the warp size %u", threads, warp);
        return -1;
    }
    c->max_threads_per_core = threads;
    c->warp_size = warp;
    return 0;
}

static void format_pipeline(const sim_config *c, char *buf, size_t n) {
    snprintf(buf, n, "%u:%u", c->max_threads_per_core, c->warp_size);
}

static int parse_clocks(sim_config *c, const char *v, char *err, size_t n) {
    double mhz[CLOCK_COUNT];
    const char *p = v;
    for (int i = 0; i < CLOCK_COUNT; i++) {
        char *end;
        mhz[i] = strtod(p, &end);
        bool sep_ok = i + 1 < CLOCK_COUNT ? *end == ':' : *end == '\0';
        if (end == p || !sep_ok || !(mhz[i] > 0.0 && mhz[i] <= 100000.0)) {
            snprintf(err, n, "expected <core>:<icnt>:<l2>:<dram> clocks in MHz, each in (0, 100000]");
            return -1;
        }
        p = end + 1;
    }
    memcpy(c->clock_mhz, mhz, sizeof mhz);
    return 0;
}

static void format_clocks(const sim_config *c, char *buf, size_t n) {
    snprintf(buf, n, "%.17g:%.17g:%.17g:%.17g", c->clock_mhz[0], c->clock_mhz[1], c->clock_mhz[2], c->clock_mhz[3]);
}

static int parse_timing(sim_config *c, const char *v, char *err, size_t n) {
    return dram_timing_parse(v, &c->dram.t, err, n);
}

static void format_timing(const sim_config *c, char *buf, size_t n) { dram_timing_format(&c->dram.t, buf, n); }

/* 0 and 1 are GPGPU-Sim's numbers for FIFO and FR-FCFS; names pick any
 * registered scheduler (src/mem/dram_sched_*.c). */
static int parse_dram_sched(sim_config *c, const char *v, char *err, size_t n) {
    const char *name = strcmp(v, "0") == 0 ? "fifo" : strcmp(v, "1") == 0 ? "frfcfs" : v;
    if (!dram_sched_find(name)) {
        int k = snprintf(err, n, "unknown DRAM scheduler '%s' (expected 0, 1", v);
        for (uint32_t i = 0; dram_sched_at(i) && k > 0 && (size_t)k < n; i++)
            k += snprintf(err + k, n - (size_t)k, ", %s", dram_sched_at(i)->name);
        if (k > 0 && (size_t)k < n) snprintf(err + k, n - (size_t)k, ")");
        return -1;
    }
    snprintf(c->dram.scheduler, sizeof c->dram.scheduler, "%s", name);
    return 0;
}

static void format_dram_sched(const sim_config *c, char *buf, size_t n) { snprintf(buf, n, "%s", c->dram.scheduler); }

/* GPGPU-Sim 3.x writes 7 widths (ID_OC_SP,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_SFU,
 * OC_EX_MEM,EX_WB), 4.x 11 (with DP and INT stages); EX_WB is last in both. */
static int parse_widths(sim_config *c, const char *v, char *err, size_t n) {
    uint32_t w[11], k = 0;
    const char *p = v;
    for (;;) {
        char *end;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p || x > 64 || k == 11) break;
        w[k++] = (uint32_t)x;
        if (*end == '\0') {
            if ((k != 7 && k != 11) || w[k - 1] == 0 || w[k - 1] > 64) break;
            memcpy(c->pipeline_widths, w, sizeof w);
            c->n_pipeline_widths = k;
            return 0;
        }
        if (*end != ',') break;
        p = end + 1;
    }
    snprintf(err, n, "expected 7 (GPGPU-Sim 3.x) or 11 (4.x) comma-separated widths in [0, 64], the last (EX_WB) >= 1");
    return -1;
}

static void format_widths(const sim_config *c, char *buf, size_t n) {
    size_t k = 0;
    for (uint32_t i = 0; i < c->n_pipeline_widths && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%u", i ? "," : "", c->pipeline_widths[i]);
}

/* -gpgpu_shmem_option: shared-memory carve-outs in KB, ascending ("0,8,16,32,64,96"). */
static int parse_shmem_option(sim_config *c, const char *v, char *err, size_t n) {
    uint32_t kb[CONFIG_MAX_SHMEM_OPTIONS], k = 0;
    const char *p = v;
    for (;;) {
        char *end;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p || x > 4096 || k == CONFIG_MAX_SHMEM_OPTIONS || (k && x <= kb[k - 1])) break;
        kb[k++] = (uint32_t)x;
        if (*end == '\0') {
            memcpy(c->shmem_option, kb, k * sizeof *kb);
            c->n_shmem_option = k;
            return 0;
        }
        if (*end != ',') break;
        p = end + 1;
    }
    snprintf(err, n, "expected 1 to %d comma-separated carve-outs in KB, each in [0, 4096], strictly ascending",
             CONFIG_MAX_SHMEM_OPTIONS);
    return -1;
}

static void format_shmem_option(const sim_config *c, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < c->n_shmem_option && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%u", i ? "," : "", c->shmem_option[i]);
}

/* ---- the table ---- */

static const option_def options[] = {
    SECTION("Run limits"),
    U64("gpgpu_max_insn", max_insn, "0", 0, UINT64_MAX,
        "stop the timing simulation once this many thread instructions have issued, over all kernels (0: no "
        "limit); the statistics cover what ran, the JSON's \"stop\" says where, and the rest of the program "
        "runs functionally so its results stay exact (GPGPU-Sim's option)"),
    U64("gpgpu_max_cycle", max_cycle, "0", 0, UINT64_MAX,
        "stop the timing simulation at this core cycle, over all kernels (0: no limit); then as -gpgpu_max_insn"),
    U64("gpgpu_max_cta", max_cta, "0", 0, UINT64_MAX,
        "issue at most this many CTAs in timing mode, over all kernels (0: no limit): the issued ones run to their "
        "end, then the timing simulation stops as with -gpgpu_max_insn (GPGPU-Sim 4's hit_max_cta_count)"),
    BOOL("gpgpu_deadlock_detect", deadlock_detect, "1",
         "stop a kernel whose simulation is stuck: no instruction issued and no reply reaching an SM for "
         "-gpgpu_deadlock_cycles core cycles, with a report of what waits on what (GPGPU-Sim's option)"),
    U64("gpgpu_deadlock_cycles", deadlock_cycles, "10000000", 1, UINT64_MAX,
        "(locsim) core cycles without progress before -gpgpu_deadlock_detect stops a kernel (checked every 2^16 "
        "cycles, so it fires within 65536 cycles after)"),
    U64("timing_window_insn", window_insn, "0", 0, UINT64_MAX,
        "per-kernel timing window (0: off): each kernel's first N thread instructions (after the warm-up; at most "
        "N, within one cycle's issue of it) are simulated in timing mode; then issue stops, the memory requests in flight complete (still timed), and the "
        "kernel's remaining instructions run functionally (fast-forward, untimed; docs/timing-core.md)"),
    U64("timing_warmup_insn", warmup_insn, "0", 0, UINT64_MAX,
        "per-kernel functional warm-up (0: off): the kernel's first CTAs in the CTA scheduler's order, at least "
        "this many thread instructions of whole CTAs, run functionally (untimed; caches see none of their "
        "accesses) before the timing part starts"),
    U64("device_memory_mb", device_memory_mb, "4096", 1, 1048576,
        "device memory in MiB: allocations beyond it fail (cudaErrorMemoryAllocation); what cudaMemGetInfo and "
        "totalGlobalMem report (not a GPGPU-Sim option; 4 GiB as cudart reported before)"),

    SECTION("Streaming multiprocessors"),
    UINT("gpgpu_n_clusters", n_clusters, "15", 1, 1024, "number of SM clusters"),
    UINT("gpgpu_n_cores_per_cluster", n_cores_per_cluster, "1", 1, 64, "SMs per cluster"),
    CUSTOM("gpgpu_shader_core_pipeline", parse_pipeline, format_pipeline, "<threads per SM>:<warp size>",
           "1536:32", "thread slots per SM and warp size (32 only)"),
    UINT("gpgpu_simd_width", simd_width, "32", 1, 32,
         "(locsim) lanes per SIMD pipeline: a warp instruction holds it warp_size/simd_width cycles"),
    UINT("gpgpu_shader_registers", registers_per_core, "32768", 1, 1u << 20, "32-bit registers per SM"),
    UINT("gpgpu_shader_cta", max_cta_per_core, "8", 1, 64, "maximum resident CTAs per SM"),
    UINT("gpgpu_shmem_size", shmem_size, "49152", 0, 1u << 20, "shared memory bytes per SM"),
    UINT("gpgpu_shmem_num_banks", shmem_num_banks, "32", 1, 64, "shared memory banks"),
    {.name = "gpgpu_shmem_limited_broadcast", .type = OPT_BOOL, .offset = F(shmem_limited_broadcast), .def = "0",
     .compat = true, .help = "GPGPU-Sim's limited shared-memory broadcast; locsim broadcasts any number of lanes "
                             "reading one word (GPGPU-Sim's GTX480 value 0)"},
    UINT("gpgpu_smem_latency", smem_latency, "26", 1, 1000, "shared memory access latency, core cycles"),
    UINT("gpgpu_l1_latency", l1_latency, "35", 1, 1000,
         "L1D latency, core cycles: a hit's data is visible, and a miss leaves for the L2, this long after the access"),
    UINT("gpgpu_l1_banks", l1_banks, "1", 1, 32,
         "L1D banks (a power of two): each accepts one 32 B sector access a cycle; an access whose sectors need a "
         "bank already taken this cycle waits for the next (gpgpu_n_l1cache_bkconflict)"),
    UINT("gpgpu_l1_banks_byte_interleaving", l1_banks_byte_interleaving, "32", 32, 4096,
         "L1D bank interleaving granularity in bytes (a power of two)"),
    UINT("gpgpu_l1_banks_hashing_function", l1_banks_hashing_function, "0", 0, 1,
         "L1D bank index: 0 linear (address bits above the interleaving), 1 those XOR the bits above them "
         "(GPGPU-Sim's numbering; its IPOLY and Fermi hashes are defined for 16-64 entries only)"),
    UINT("gpgpu_num_sched_per_core", num_sched_per_core, "2", 1, 8, "warp schedulers per SM"),
    STR("gpgpu_scheduler", scheduler, "gto",
        "warp scheduler: lrr | gto | two_level_active:<G>:<inner>:<outer> | warp_limiting:<prio>:<N> | ..."),
    STR("cta_scheduler", cta_scheduler, "rr", "(locsim) CTA scheduler: rr (GPGPU-Sim's round-robin, greedy) | bcs | q8 | q16 | qx | q8_adpt | q16_adpt | qx_adpt (docs/sharing.md) | ldesc (Locality Descriptor clustering, docs/ldesc.md)"),
    UINT("gpgpu_max_insn_issue_per_warp", max_insn_issue_per_warp, "1", 1, 1,
         "instructions one warp may issue per cycle: only 1 (GPGPU-Sim's GTX480 value) is modelled"),
    UINT("gpgpu_num_sp_units", num_sp_units, "2", 1, 8, "SP (ALU) pipelines per SM"),
    UINT("gpgpu_num_sfu_units", num_sfu_units, "1", 1, 8, "SFU pipelines per SM"),
    UINT("gpgpu_num_dp_units", num_dp_units, "0", 0, 8, "double-precision pipelines per SM (0: DP runs on the SFU)"),
    UINT("gpgpu_num_int_units", num_int_units, "0", 0, 8,
         "integer pipelines per SM (GPGPU-Sim 4.x): with 1 or more, every SP-pipe instruction but f32 add/sub/min/"
         "max/mul/mad/fma runs on them (Volta and later); 0 (GPGPU-Sim's default, Fermi): int and fp share the SP "
         "pipelines"),
    BOOL("gpgpu_sub_core_model", sub_core_model, "0",
         "(GPGPU-Sim 4.x / Accel-Sim) split the SM into one sub-core per warp scheduler: warp w belongs to sub-core "
         "w mod -gpgpu_num_sched_per_core, which has its own share of the collector units, register banks and of "
         "every pipeline but the LD/ST unit (docs/timing-core.md, Volta-class SM); 0: one shared pool (Fermi)"),
    UINT("gpgpu_operand_collector_num_units_sp", oc_units_sp, "6", 1, 64,
         "operand collector units for SP instructions (src/core/opcoll.c)"),
    UINT("gpgpu_operand_collector_num_units_sfu", oc_units_sfu, "8", 1, 64,
         "operand collector units for SFU instructions (and DP ones without a DP unit)"),
    {.name = "gpgpu_operand_collector_num_units_mem", .type = OPT_UINT, .offset = F(oc_units_mem), .min = 1, .max = 64,
     .def = "2", .compat = true,
     .help = "operand collector units for LD/ST; locsim's memory instructions skip the collector units"},
    UINT("gpgpu_num_reg_banks", num_reg_banks, "16", 1, 64,
         "register file banks: one operand read or result write per bank per cycle"),
    CUSTOM("gpgpu_pipeline_widths", parse_widths, format_widths, "<7 or 11 widths>, EX_WB last", "2,0,0,1,1,2,0,0,1,1,2",
           "GPGPU-Sim's pipeline register widths; locsim uses EX_WB (result buses: results written back per "
           "cycle); the others are accepted for compatibility"),
    /* GPGPU-Sim 4.x's SM2_GTX480 values; the int lists' 6th column (SHFL) may be
     * left out, as GPGPU-Sim 3.x files do, and then keeps GPGPU-Sim's default. */
    {.name = "ptx_opcode_latency_int", .type = OPT_U32LIST, .offset = F(lat_int), .count = OPLAT_COUNT,
     .min_count = OPLAT_SHFL, .sep = ',', .min = 1, .max = 100000, .syntax = "<ADD>,<MAX>,<MUL>,<MAD>,<DIV>[,<SHFL>]",
     .def = "4,13,4,5,145,32", .help = "integer latencies (and shfl), core cycles (src/core/opclass.c lists the opcodes)"},
    {.name = "ptx_opcode_initiation_int", .type = OPT_U32LIST, .offset = F(init_int), .count = OPLAT_COUNT,
     .min_count = OPLAT_SHFL, .sep = ',', .min = 1, .max = 100000, .syntax = "<ADD>,<MAX>,<MUL>,<MAD>,<DIV>[,<SHFL>]",
     .def = "1,2,2,1,8,4", .help = "integer initiation intervals (and shfl), core cycles"},
    LIST("ptx_opcode_latency_fp", lat_fp, OPLAT_SHFL, ',', 1, 100000, "<ADD>,<MAX>,<MUL>,<MAD>,<DIV>",
         "4,13,4,5,39", "single-precision latencies, core cycles"),
    LIST("ptx_opcode_initiation_fp", init_fp, OPLAT_SHFL, ',', 1, 100000, "<ADD>,<MAX>,<MUL>,<MAD>,<DIV>",
         "1,2,1,1,4", "single-precision initiation intervals, core cycles"),
    LIST("ptx_opcode_latency_dp", lat_dp, OPLAT_SHFL, ',', 1, 100000, "<ADD>,<MAX>,<MUL>,<MAD>,<DIV>",
         "8,19,8,8,330", "double-precision latencies, core cycles"),
    LIST("ptx_opcode_initiation_dp", init_dp, OPLAT_SHFL, ',', 1, 100000, "<ADD>,<MAX>,<MUL>,<MAD>,<DIV>",
         "8,16,8,8,130", "double-precision initiation intervals, core cycles"),
    UINT("ptx_opcode_latency_sfu", lat_sfu, "8", 1, 100000,
         "latency of rcp, sqrt, rsqrt, sin, cos, lg2, ex2 (any type), core cycles"),
    UINT("ptx_opcode_initiation_sfu", init_sfu, "8", 1, 100000,
         "initiation interval of rcp, sqrt, rsqrt, sin, cos, lg2, ex2, core cycles"),
    /* Tensor cores (docs/tensor.md): GPGPU-Sim 4.x's option names and defaults
     * (its -ptx_opcode_latency_tesnor keeps GPGPU-Sim's spelling, so that its
     * configuration files carry over); off by default, as in GPGPU-Sim, and in the
     * Fermi/GT200 configurations, which have none. */
    BOOL("gpgpu_tensor_core_avail", tensor_core_avail, "0",
         "the SMs have tensor cores: wmma.mma and mma run on a tensor pipeline; without them a kernel using "
         "a tensor-core instruction (wmma, mma, ldmatrix) is refused at launch (GPGPU-Sim's default 0)"),
    UINT("gpgpu_num_tensor_core_units", num_tensor_units, "0", 0, 8,
         "tensor-core pipelines per SM when -gpgpu_tensor_core_avail 1; 0 (GPGPU-Sim's default): one per warp "
         "scheduler (-gpgpu_num_sched_per_core), the number Accel-Sim's tuner writes (Volta/Ampere: 4)"),
    UINT("ptx_opcode_latency_tesnor", lat_tensor, "64", 1, 100000,
         "latency of wmma.mma and mma, core cycles (GPGPU-Sim 4.x's name, spelling included, and default)"),
    UINT("ptx_opcode_initiation_tensor", init_tensor, "64", 1, 100000,
         "initiation interval of wmma.mma and mma on one tensor pipeline, core cycles (GPGPU-Sim 4.x's default)"),

    SECTION("Caches (GPGPU-Sim cache strings)"),
    CACHE("gpgpu_cache:dl1", l1d, "N:32:128:4,L:L:m:N:H,S:64:8,8", "L1 data cache per SM"),
    CACHE("gpgpu_cache:il1", l1i, "N:4:128:4,L:R:f:N:L,A:2:32,4",
          "L1 instruction cache per SM: its line size bounds a fetch (2 instructions, 1 at a line's end); "
          "a miss reads the L2 (docs/fidelity.md)"),
    CUSTOM("gpgpu_cache:il0", parse_l0i, format_l0i, "none | <cache string>", "none",
           "(locsim) L0 instruction cache of each sub-core (-gpgpu_sub_core_model 1; Volta and later): each has "
           "its own fetch slot and L0, whose misses take the SM's L1I one a cycle; none: no L0 (GPGPU-Sim and "
           "Accel-Sim have none; docs/timing-core.md)"),
    CACHE("gpgpu_const_cache:l1", l1c, "N:64:64:2,L:R:f:N:L,A:2:32,4", "constant cache per SM"),
    CACHE("gpgpu_tex_cache:l1", l1t, "N:4:128:24,L:R:m:N:L,F:128:4,128:2", "texture cache per SM (tex / tld4 reads; F-type MSHRs: <fragment fifo>:<request fifo>,<rob>)"),
    CACHE("gpgpu_cache:dl2", l2, "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32",
          "one L2 slice (there are n_mem x n_sub_partition_per_mchannel)"),
    STR("l1d_policy", l1d_policy, "", "(locsim) L1D replacement policy by name (the registered ones below); empty: the cache string's letter"),
    STR("l2_policy", l2_policy, "", "(locsim) L2 replacement policy by name; empty: the cache string's letter"),
    UINT("sharing_dead_block", sharing_dead_block, "0", 0, 1,
         "(locsim) policy 'sharing' in the L1D: a private LRU line passed over once is marked dead and evicted the "
         "next time it is LRU (Tabbakh et al. VI-B)"),
    UINT("sharing_detect_stores", sharing_detect_stores, "0", 0, 1,
         "(locsim) policy 'sharing' in the L2: 0 only loads (ld.global/const/tex, fetches) set a line's owner and "
         "shared flag, as the paper's flow chart (Tabbakh et al. Fig. 9); 1 global stores and atomics do too"),
    UINT("sharing_kernel_reset", sharing_kernel_reset, "0", 0, 1,
         "(locsim) policy 'sharing' in the L2: 1 clears every line's owner and shared flag at each kernel launch "
         "(the next SM to load a line owns it); 0 the flags live as long as the line (the paper is silent; "
         "docs/sharing.md)"),
    UINT("ldesc_l1_bypass", ldesc_l1_bypass, "1", 0, 1,
         "(locsim) policy 'ldesc' in the L1D: misses on NO_REUSE descriptors' data allocate no line (docs/ldesc.md)"),
    UINT("ldesc_l1_hard_pin", ldesc_l1_hard_pin, "1", 0, 1,
         "(locsim) policy 'ldesc': INTRA_THREAD data is hard-pinned (way 0 is evicted when a set is all pinned)"),
    UINT("ldesc_l1_soft_pin", ldesc_l1_soft_pin, "1", 0, 2,
         "(locsim) policy 'ldesc': soft pinning of INTER_THREAD data; 0 off, 1 COACCESSED IRREGULAR descriptors "
         "only (the paper's Fig. 11), 2 every INTER_THREAD descriptor (its section 4.4)"),
    UINT("ldesc_unpin_period", ldesc_unpin_period, "0", 0, 2147483647,
         "(locsim) policy 'ldesc': reset every pinned line's priority each this many core cycles (0: never; the "
         "paper's unpin timer, whose period it does not give)"),
    {.name = "l1d_global_write_policy", .type = OPT_ENUM, .offset = F(l1d_global_write),
     .choices = "cache|through|evict|back", .def = "cache",
     .help = "(locsim) L1D policy for global writes; cache: as the -gpgpu_cache:dl1 string says (local writes always follow it)"},
    BOOL("gpgpu_flush_l1_cache", flush_l1_cache, "1", "invalidate the L1D at every kernel boundary"),
    BOOL("gpgpu_adaptive_cache_config", adaptive_cache_config, "0",
         "unified L1D/shared memory: each kernel gets the smallest -gpgpu_shmem_option carve-out that holds its "
         "resident CTAs' shared memory, the L1D the rest of -gpgpu_unified_l1d_size (its ways shrink; docs/modern.md)"),
    CUSTOM("gpgpu_shmem_option", parse_shmem_option, format_shmem_option, "<KB>[,<KB>...] ascending", "0",
           "shared-memory carve-outs of the unified array, KB (with -gpgpu_adaptive_cache_config 1)"),
    UINT("gpgpu_unified_l1d_size", unified_l1d_kb, "0", 0, 4096,
         "size of the unified L1D/shared array, KB: -gpgpu_cache:dl1 must describe this size (with "
         "-gpgpu_adaptive_cache_config 1)"),
    BOOL("gpgpu_perfect_inst_const_cache", perfect_inst_const_cache, "0",
         "constant-cache and kernel-parameter loads always hit (1 cycle); 0: ld.param of kernel arguments goes "
         "through the constant cache and its misses through the L2, as GPGPU-Sim's param_space_kernel loads"),
    BOOL("gpgpu_flush_l2_cache", flush_l2_cache, "0",
         "after each kernel drop the L2 lines holding dirty data, without write-back traffic (GPGPU-Sim's "
         "flush); clean lines stay"),
    BOOL("gpgpu_ptxas_registers", ptxas_registers, "1",
         "(locsim) 1: registers per thread from the module's ptxas listing or cubin when it has one (as GPGPU-Sim "
         "takes them from ptxas), else the liveness estimate; 0: always the liveness estimate (ablations)"),
    BOOL("gpgpu_perf_sim_memcpy", perf_sim_memcpy, "1",
         "host<->device copies write their 32 B sectors into the L2 (allocated, valid, clean) so inputs start warm"),

    SECTION("Clocks"),
    CUSTOM("gpgpu_clock_domains", parse_clocks, format_clocks, "<core>:<icnt>:<l2>:<dram>", "700.0:700.0:700.0:924.0",
           "clock frequencies in MHz (DRAM: command clock)"),

    SECTION("Memory partitions and DRAM"),
    UINT("gpgpu_n_mem", n_mem, "6", 1, 256, "memory channels (one DRAM controller and partition each)"),
    UINT("gpgpu_n_sub_partition_per_mchannel", n_sub_partition_per_mchannel, "2", 1, 16,
         "L2 slices per memory channel (a power of two)"),
    CUSTOM("gpgpu_dram_timing_opt", parse_timing, format_timing,
           "nbk=<n>:CCD=<c>:RRD=<c>:RCD=<c>:RAS=<c>:RP=<c>:RC=<c>:CL=<c>:WL=<c>:CDLR=<c>:WR=<c>:nbkgrp=<n>:CCDL=<c>:RTPL=<c>",
           "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2",
           "DRAM banks and timing in DRAM cycles (keys not given keep their value)"),
    UINT("gpgpu_dram_buswidth", dram.bus_width, "4", 1, 64, "bytes per DRAM chip per beat"),
    UINT("gpgpu_n_mem_per_ctrlr", dram.chips, "2", 1, 16, "DRAM chips per channel (channel width = buswidth x chips)"),
    UINT("gpgpu_dram_burst_length", dram.burst_length, "8", 1, 64, "beats per column command"),
    UINT("dram_data_command_freq_ratio", dram.freq_ratio, "4", 1, 16, "data beats per command cycle (2 DDR, 4 GDDR5)"),
    BOOL("dram_dual_bus_interface", dram.dual_bus, "0",
         "1: separate row and column command buses, so a channel issues one ACT/PRE and one RD/WR a cycle "
         "(HBM; GPGPU-Sim 4.x's option); 0: one command a cycle (GDDR)"),
    CUSTOM("gpgpu_dram_scheduler", parse_dram_sched, format_dram_sched, "0|1|<name>", "1",
           "DRAM scheduler: 0 = fifo, 1 = frfcfs, or a registered name"),
    UINT("gpgpu_frfcfs_dram_sched_queue_size", dram.queue_size, "64", 1, 4096, "DRAM scheduler queue entries per channel"),
    UINT("gpgpu_dram_return_queue_size", dram.return_queue_size, "116", 1, 4096,
         "finished DRAM requests waiting to return to the L2, per channel"),
    STR("gpgpu_mem_addr_mapping", mem_addr_mapping, ADDRMAP_GTX480_DEFAULT,
        "address -> channel/bank/row/column: [dramid@<bit>;]<64 letters D B R C S 0, MSB first>"),
    UINT("gpgpu_memory_partition_indexing", memory_partition_indexing, "0", 0, 2,
         "0: channel as mapped; 1: hash the row bits into the channel; 2: IPOLY over the L2 slices "
         "(GPGPU-Sim 4.x; 16, 32 or 64 slices)"),
    UINT("dram_bnk_indexing_policy", dram_bank_indexing, "0", 0, 1, "0: bank as mapped; 1: XOR the row into the bank"),
    UINT("dram_bnkgrp_indexing_policy", dram.bnkgrp_lower_bits, "1", 0, 1,
         "bank group of a bank: 0 its higher bits (bank / (nbk / nbkgrp)), 1 its lower bits (bank % nbkgrp)"),
    {.name = "gpgpu_mem_address_mask", .type = OPT_UINT, .offset = F(mem_address_mask), .min = 0, .max = 3, .def = "1",
     .compat = true, .help = "GPGPU-Sim's address mask; -gpgpu_mem_addr_mapping decides the mapping"},
    {.name = "gpgpu_l2_rop_latency", .alias = "rop_latency", .type = OPT_UINT, .offset = F(rop_latency),
     .min = 0, .max = 100000, .def = "120", .help = "L2 cycles from a request's arrival at a partition to its L2 access"},
    UINT("dram_latency", dram_latency, "100", 0, 100000, "L2 cycles from an L2 miss to the DRAM scheduler queue"),
    UINT("l2_far_latency", l2_far_latency, "0", 0, 100000,
         "(locsim) L2 in two halves (A100/H100): the first half of the SMs and of the channels form one; a request "
         "to the other half's L2 slices waits this many L2 cycles more (0: one uniform L2; docs/modern.md)"),
    LIST("gpgpu_dram_partition_queues", partition_queues, PART_Q_COUNT, ':', 1, 4096,
         "<icnt->L2>:<L2->dram>:<dram->L2>:<L2->icnt>", "64:64:64:64", "queue sizes inside a memory partition"),

    SECTION("Prefetchers and WSMP (docs/wsmp.md)"),
    STR("l1d_prefetcher", l1d_prefetcher, "",
        "(locsim) prefetcher of each SM's L1D by name (nextline, stride, spp, spp_ppf, ldesc: docs/ldesc.md); empty: none"),
    STR("l2_prefetcher", l2_prefetcher, "", "(locsim) prefetcher of each L2 slice by name; empty: none"),
    UINT("l2_prefetch_forward", l2_prefetch_forward, "0", 0, 100000,
         "(locsim) a slice's L2 prefetch candidate that another slice holds is handed to that slice and fetched "
         "there this many L2 cycles later (0: not fetched, counted as foreign; one module only; docs/wsmp.md)"),
    UINT("nextline_degree", pf.nextline_degree, "1", 1, 32, "(locsim) nextline: lines fetched after the accessed one (ChampSim next_line: 1)"),
    UINT("stride_entries", pf.stride_entries, "256", 1, 1u << 20,
         "(locsim) stride: per-PC table entries, a power of two"),
    UINT("stride_degree", pf.stride_degree, "3", 1, 32, "(locsim) stride: strides fetched ahead (ChampSim ip_stride: 3)"),
    UINT("spp_page_bytes", pf.spp_page_bytes, "4096", 256, 1u << 20, "(locsim) SPP page size in bytes, a power of two (SPP: 4 KB)"),
    UINT("spp_st_entries", pf.spp_st_entries, "256", 16, 65536,
         "(locsim) SPP signature table entries, a multiple of 16 (WSMP 3.2.1: 256)"),
    UINT("spp_pt_sets", pf.spp_pt_sets, "512", 1, 65536,
         "(locsim) SPP pattern-table sets per warp table (4 deltas each), a power of two (SPP: 512)"),
    UINT("spp_warps", pf.spp_warps, "1024", 1, 65536,
         "(locsim) SPP pattern tables, one per warp of the GPU, SM x 64 + slot modulo this (WSMP 3.2.2: one per active warp; 1024 covers 16 SMs)"),
    UINT("spp_tp", pf.spp_tp, "65", 0, 100, "(locsim) SPP path-confidence threshold T_p in percent (WSMP 3.2.3: 65)"),
    UINT("spp_max_lines", pf.spp_max_lines, "20", 1, 32, "(locsim) SPP: most candidates per trigger, T_f (WSMP 3.2.3: 20)"),
    DBL("ppf_tau_hi", ppf_tau_hi, "-5", -1000, 1000, "(locsim) PPF: perceptron sum >= tau_hi prefetches (PPF: -5; an integer)"),
    DBL("ppf_tau_lo", ppf_tau_lo, "-15", -1000, 1000,
        "(locsim) PPF: tau_lo <= sum < tau_hi is a candidate, below tau_lo rejected (PPF: -15; an integer)"),
    DBL("ppf_theta_pos", ppf_theta_pos, "90", -1000, 1000,
        "(locsim) PPF: train up only while the sum is below this (PPF: 90; an integer)"),
    DBL("ppf_theta_neg", ppf_theta_neg, "-80", -1000, 1000,
        "(locsim) PPF: train down only while the sum is above this (PPF: -80; an integer)"),
    UINT("ppf_min_prefetches", pf.ppf_min_prefetches, "1", 0, 32,
         "(locsim) PPF: when fewer candidates pass tau_hi, the best candidates between tau_lo and tau_hi make up this many"),
    LIST("mfq_thresholds", dram.mfq_thresholds, 3, ':', 0, 100, "<t1>:<t2>:<t3>", "25:50:75",
         "(locsim) MFQ DRAM scheduler: sigma < t1 -> L0, < t2 -> L1, < t3 -> L2, else L3 (DESIGN 5.4: 25/50/75)"),
    LIST("mfq_timeouts", dram.mfq_timeouts, 3, ':', 1, 1000000, "<L1>:<L2>:<L3>", "6400:6400:1600",
         "(locsim) MFQ: DRAM cycles a request waits in L1, L2, L3 before it moves up one level (calibrated to "
         "WSMP 4.4's <= 15% timeouts per level on experiments/wsmp.yaml's programs at the suites' inputs, docs/wsmp.md)"),
    BOOL("mfq_row_hit_first", dram.mfq_row_hit_first, "0",
         "(locsim) MFQ: inside a level, requests to the bank's open row first (1; the paper is silent, 0 = its text: no row-hit priority)"),
    LIST("wsmp_timeouts", wsmp_timeouts, 3, ':', 1, 1000000, "<L1>:<L2>:<L3>", "16:32:64",
         "(locsim) -gpgpu_scheduler wsmp: core cycles a warp waits in L1, L2, L3 before it moves up one level"),

    SECTION("Interconnect (crossbar)"),
    UINT("icnt_flit_size", icnt.flit_size, "40", 4, 1024, "bytes per flit"),
    UINT("icnt_in_buffer_limit", icnt.in_buffer_flits, "64", 1, 65536, "input buffer per port, flits"),
    UINT("icnt_out_buffer_limit", icnt.out_buffer_flits, "64", 1, 65536, "output buffer per port, flits"),
    UINT("icnt_latency", icnt.latency, "8", 0, 10000, "(locsim) crossbar traversal latency, interconnect cycles"),
    UINT("icnt_flits_per_cycle", icnt.flits_per_cycle, "1", 1, 64, "(locsim) flits per port per interconnect cycle"),

    SECTION("Multi-module (NUMA) GPU (docs/numa.md)"),
    UINT("numa_n_modules", numa_n_modules, "1", 1, 16,
         "(locsim) GPU modules (NUMA zones), a power of two; each owns an equal share of the SMs and memory channels"),
    DBL("numa_link_bandwidth", numa_link_bandwidth, "192", 0.001, 1e6,
        "(locsim) GB/s of each module's egress link to the other modules (requests and replies it sends)"),
    DBL("numa_link_latency", numa_link_latency, "20", 0.0, 1e6,
        "(locsim) ns a packet spends crossing an inter-module link (rounded up to interconnect cycles)"),
    STR("numa_link_topology", numa_link_topology, "egress",
        "(locsim) links between modules: egress (one link per module, one hop to any module) | ring (a link to each "
        "neighbour of a ring, the shorter way round; MCM-GPU's topology)"),
    STR("numa_placement", numa_placement, "xor",
        "(locsim) data placement across zones: xor (line interleaving) | first_touch (64 KB pages, FirstTouch-Distrib) "
        "| ldesc (Locality Descriptor Algorithm 2)"),
    UINT("numa_page_size", numa_page_size, "65536", 128, 1073741824, "(locsim) page size of -numa_placement first_touch, bytes"),
    BOOL("numa_cta_partition", numa_cta_partition, "1",
         "(locsim) let the placement partition the grid across zones (first_touch, ldesc); 0: the -cta_scheduler alone "
         "(the paper's LDesc-Placement)"),
    BOOL("numa_cta_steal", numa_cta_steal, "1",
         "(locsim) with a partitioned grid, an SM whose zone has no CTA left takes one from the zone with the most left "
         "(its last cluster not started); 0: it idles"),
    BOOL("numa_flat_fabric", numa_flat_fabric, "0",
         "(locsim) 1: keep the modules' data placement and zone mapping but join every SM to every L2 slice through "
         "one crossbar, without links (the monolithic twin with the same address mapping)"),

    SECTION("CCWS warp scheduler (-gpgpu_scheduler ccws) and L1D locality analyses"),
    UINT("ccws_k_throttle", ccws_k_throttle, "8", 0, 1000000,
         "(locsim) CCWS K_throttle: LLDS = VTA hits / warp insns issued x K x cutoff (see -ccws_llds_add_base)"),
    UINT("ccws_vta_entries", ccws_vta_entries, "16", 1, 4096, "(locsim) CCWS victim tags per warp"),
    UINT("ccws_vta_assoc", ccws_vta_assoc, "8", 1, 4096,
         "(locsim) CCWS ways per warp's victim tag array (must divide -ccws_vta_entries)"),
    UINT("ccws_base_score", ccws_base_score, "100", 1, 1000000,
         "(locsim) CCWS base lost-locality score (cutoff = live warps x base)"),
    UINT("ccws_decay_cycles", ccws_decay_cycles, "4", 1, 1000000,
         "(locsim) CCWS: core cycles per point a score decays (4: the authors' code decays 1 per cycle of its "
         "325 MHz core, 1300/325)"),
    BOOL("ccws_llds_add_base", ccws_llds_add_base, "0",
         "(locsim) CCWS: 0 (authors' code): a VTA hit sets the warp's score to hits/insns x K x cutoff (at least "
         "the base, possibly lower than before); 1: base + that, and a hit never lowers a score"),
    BOOL("ccws_resident_counts", ccws_resident_counts, "1",
         "(locsim) CCWS: 1 (authors' code): the LLDS's VTA hits and instructions are those of the warps resident "
         "now (a warp's leave with it); 0: the SM's since the device was created"),
    BOOL("ccws_admit_before", ccws_admit_before, "1",
         "(locsim) CCWS: 1 (authors' code): a warp may load while the scores ahead of it sum below the cutoff; "
         "0: while the sum with its own score is at most the cutoff (ties: -ccws_ties_by_slot)"),
    BOOL("ccws_ties_by_slot", ccws_ties_by_slot, "1",
         "(locsim) CCWS: 1 (authors' code, sort by score, ties to the lower warp id): equal scores are ordered by "
         "warp slot; 0: the older warp first"),
    BOOL("ccws_score_from_first_access", ccws_score_from_first_access, "1",
         "(locsim) CCWS: 1 (authors' code: a slot's score is 0 once its warp exits, and becomes the base at the "
         "new warp's first L1D hit or miss): a new warp scores 0 until then; 0: the base from warp start"),
    BOOL("ccws_recap", ccws_recap, "1",
         "(locsim) CCWS: 1 (authors' code): a score above the base is re-capped to the current hits/insns x K x "
         "cutoff every cycle and at each of its warp's L1D hits and misses, and may so fall below the base until "
         "that warp's next L1D hit or miss raises it to the base; 0: scores change only at VTA hits and decay"),
    BOOL("ccws_vta_fifo", ccws_vta_fifo, "1",
         "(locsim) CCWS: 1 (authors' code): VTA ways replaced first-in first-out, a tag already present is not "
         "refreshed; 0: LRU, a re-inserted tag is refreshed"),
    BOOL("ccws_vta_keep_on_hit", ccws_vta_keep_on_hit, "1",
         "(locsim) CCWS: 1 (authors' code): a VTA hit leaves the tag in place; 0: the hit invalidates it"),
    BOOL("ccws_throttle_atomics", ccws_throttle_atomics, "1",
         "(locsim) CCWS: 1 (authors' code, where atom is a load): a warp denied loads may not issue a global/local "
         "atom either; 0: atomics are never throttled"),
    BOOL("ccws_vta_write_invalidate", ccws_vta_write_invalidate, "1",
         "(locsim) CCWS: 1 (authors' code): a global write to the L1D removes its line from every warp's victim "
         "tags; 0: writes leave the victim tags alone"),
    BOOL("ccws_vta_probe_victims", ccws_vta_probe_victims, "1",
         "(locsim) CCWS: 1 (authors' code): at every L1D read or write miss on an absent line, the line its way "
         "last held (an invalidated one too) goes to the VTA of the last warp to miss or merge on that way; "
         "0: genuine evictions, to the VTA of the warp that allocated the line"),
    BOOL("ccws_vta_probe_pending", ccws_vta_probe_pending, "1",
         "(locsim) CCWS: 1 (authors' code): every L1D read miss probes the warp's victim tags, pending hits "
         "(merged into an MSHR) included; 0: only misses that allocate"),
    UINT("l1d_size_scale", l1d_size_scale, "1", 1, 64,
         "(locsim) multiply the L1D's sets by this (line size, ways, MSHRs, queues and policies kept): the "
         "regime table's 4x-L1D sensitivity probe (docs/harness.md)"),
    UINT("dram_bw_scale", dram_bw_scale, "1", 1, 16,
         "(locsim) this many times the DRAM bandwidth at the same latency: the command clock runs this many "
         "times faster and every DRAM delay (tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tCDLR, tWR, tRTPL, "
         "-mfq_timeouts) takes this many times the cycles; tCCD, tCCDL and the burst keep theirs: the regime "
         "table's 2x-DRAM-bandwidth sensitivity probe (docs/harness.md)"),
    BOOL("l1d_unbounded", l1d_unbounded, "0",
         "(locsim) effectively infinite L1D: 8192 sets x 32 ways (32 MB at 128 B lines) per SM, same line, "
         "policies and MSHRs"),
    BOOL("l1d_access_analysis", l1d_access_analysis, "0",
         "(locsim) record every SM's L1D access stream; report Belady-optimal misses (L1D_BEL_*) and the "
         "intra-thread / inter-thread / inter-warp hit breakdown (L1D_hits_*)"),
    /* Energy model (docs/energy.md; src/sim/energy.c).  locsim's own option
     * names: GPGPU-Sim's power model (GPUWattch) is driven by an XML file of
     * McPAT parameters, not by per-event energies, so there is nothing to keep.
     * All energies are nJ per event, static powers W.  Every default is what
     * GPUWattch's GTX480 model (Leng et al., ISCA 2013; GPGPU-Sim's
     * configs/tested-cfgs/SM2_GTX480/gpuwattch_gtx480.xml at gpgpu-sim_distribution
     * 90ec3399) charges for one such event, as tools/gpuwattch/run.sh computes
     * it: McPAT builds the XML's structures, GPGPU-Sim's gpgpu_sim_wrapper
     * scales each activity count by the XML's factor (DC_RH, ...), and the
     * driver reads the energy one event adds to the wrapper's power report
     * (tools/gpuwattch/gtx480.out).  "x 32" and such: GPGPU-Sim counts that
     * many per locsim event (docs/energy.md says where the two differ). */
    SECTION("Energy model (nJ per event, W static; docs/energy.md)"),
    EN("l1d_read", EN_L1D_READ, "2.9346",
       "per L1D read hit (pending hits included); GPUWattch: DC_RH 22.14 x McPAT's read-hit energy, "
       "2.58325 nJ to the L1D plus 0.351352 nJ of coalescing (its MC component)"),
    EN("l1d_read_miss", EN_L1D_READ_MISS, "2.22507", "per L1D read miss; GPUWattch: DC_RM 24.66 x McPAT"),
    EN("l1d_write", EN_L1D_WRITE, "0.220124", "per L1D write hit; GPUWattch: DC_WH 1.53 x McPAT"),
    EN("l1d_write_miss", EN_L1D_WRITE_MISS, "2.60367", "per L1D write miss; GPUWattch: DC_WM 39.79 x McPAT"),
    EN("l1d_fill", EN_L1D_FILL, "0.0",
       "per L1D fill; GPUWattch charges a fill to the miss (DC_RM), none of its own"),
    EN("l1c_read", EN_L1C_READ, "1.4673", "per constant-cache read hit; GPUWattch: CC_H 11.07 x McPAT"),
    EN("l1c_read_miss", EN_L1C_READ_MISS, "1.11254", "per constant-cache read miss; GPUWattch: CC_M 12.33 x McPAT"),
    EN("l1c_fill", EN_L1C_FILL, "0.0", "per constant-cache fill; GPUWattch: none (in the miss)"),
    EN("l1t_read", EN_L1T_READ, "1.35331", "per texture-cache read hit; GPUWattch: TC_H 10.21 x McPAT"),
    EN("l1t_read_miss", EN_L1T_READ_MISS, "2.22507", "per texture-cache read miss; GPUWattch: TC_M 24.66 x McPAT"),
    EN("l1t_fill", EN_L1T_FILL, "0.0", "per texture-cache fill; GPUWattch: none (in the miss)"),
    EN("shmem_read", EN_SHMEM_READ, "2.11946",
       "per shared-memory read pass (a warp access, one more per bank-conflict replay); GPUWattch: SHRD_ACC "
       "7.04 x McPAT, per pass (GPGPU-Sim's gpgpu_n_shmem_bank_access)"),
    EN("shmem_write", EN_SHMEM_WRITE, "2.11946", "per shared-memory write pass; GPUWattch: as a read (SHRD_ACC)"),
    EN("rf_read", EN_RF_READ, "0.232539",
       "per warp register operand read; GPUWattch: 32 (GPGPU-Sim counts warp_size per operand) x REG_RD "
       "0.14 x McPAT = 32 x 0.00726686"),
    EN("rf_write", EN_RF_WRITE, "0.191553", "per warp register result write; GPUWattch: 32 x REG_WR 0.21 x McPAT"),
    EN("alu_op", EN_ALU_OP, "0.0862327",
       "per thread operation on the SP pipeline; GPUWattch: an integer op, 32 (GPGPU-Sim's INT__OP weight) x "
       "SP_ACC 2.38 x McPAT = 32 x 0.00269477 (an fp32 add would be 1 x FPU_ACC: 0.0296)"),
    EN("sfu_op", EN_SFU_OP, "1.20879",
       "per thread operation on the SFU pipeline; GPUWattch: 25 (GPGPU-Sim's FP_SQRT_OP weight; sin 12, lg2 "
       "and ex2 35) x SFU_ACC 0.51 x McPAT = 25 x 0.0483518"),
    EN("dp_op", EN_DP_OP, "0.0295799",
       "per thread operation on a DP pipeline (with -gpgpu_num_dp_units 0 DP runs on, and counts as, the SFU); "
       "GPUWattch: 1 (FP__OP weight) x FPU_ACC 0.64 x McPAT"),
    EN("warp_inst", EN_WARP_INST, "1.38301",
       "per warp instruction issued; GPUWattch: instruction buffer and decode 32 x TOT_INST x McPAT (0.115651) "
       "+ scheduler FP_INT x McPAT (0.0548896) + pipeline PIPE_A 2.57 x McPAT (25.4618 W at duty cycle 1, "
       "duty = warp instructions / (2 per cycle x 15 SMs): 1.21247 nJ at 700 MHz)"),
    EN("l2_read", EN_L2_READ, "2.80504", "per L2 read hit; GPUWattch: L2_RH 13.79 x McPAT"),
    EN("l2_read_miss", EN_L2_READ_MISS, "0.102042",
       "per L2 read miss; GPUWattch: L2_RM 35.18 x McPAT's tag-array read (a miss reads tags only there)"),
    EN("l2_write", EN_L2_WRITE, "13.8512", "per L2 write hit (stores, L1 write-backs); GPUWattch: L2_WH 43.07 x McPAT"),
    EN("l2_write_miss", EN_L2_WRITE_MISS, "15.0243", "per L2 write miss; GPUWattch: L2_WM 28.72 x McPAT"),
    EN("l2_fill", EN_L2_FILL, "0.0", "per L2 fill from DRAM; GPUWattch: none (in the miss)"),
    EN("noc_flit", EN_NOC_FLIT, "1.93858",
       "per crossbar flit (request and reply networks); GPUWattch: NOC_A 305.48 x McPAT's router energy"),
    EN("dram_act", EN_DRAM_ACT, "0.0",
       "per DRAM row activation; GPUWattch's GTX480 model charges none (dram_act_coeff 0; GPGPU-Sim passes "
       "no activation count): its read, write and precharge energies cover it"),
    EN("dram_pre", EN_DRAM_PRE, "4.23225", "per DRAM precharge; GPUWattch: MEM_PRE 0.11 x dram_pre_coeff 3.8475e-8 J"),
    EN("dram_rd", EN_DRAM_RD, "26.9485",
       "per DRAM read burst (one column command, GPGPU-Sim's n_rd); GPUWattch: MEM_RD 0.33 x (dram_rd_coeff "
       "7.74707143e-8 J + McPAT's memory controller, 4.19 nJ): 25.5654 DRAM + 1.3831 controller"),
    EN("dram_wr", EN_DRAM_WR, "15.8649",
       "per DRAM write burst; GPUWattch: MEM_WR 0.40 x (dram_wr_coeff 3.54664286e-8 J + McPAT's memory "
       "controller): 14.1866 DRAM + 1.67829 controller"),
    ST("sm", EN_STATIC_SM, "9.82366",
       "constant power, W: GPUWattch's CONST_DYNAMICN 11 W (clock tree and the like, fitted) less the "
       "1.17634 W of it McPAT books to the memory controller (-energy_static_dram_w)"),
    ST("l2", EN_STATIC_L2, "0.0",
       "static power of the L2, W; GPUWattch charges none (McPAT's 0.089 W leakage is not in its total)"),
    ST("noc", EN_STATIC_NOC, "0.0",
       "static power of the crossbar, W; GPUWattch charges none (McPAT's 0.030 W leakage is not in its total)"),
    ST("dram", EN_STATIC_DRAM, "1.17634",
       "constant power of the memory controllers, W: McPAT's front end, transaction engine and PHY at 10% "
       "activity (GPUWattch's MC component with no traffic)"),
    ST("idle_sm", EN_STATIC_IDLE_SM, "1.59",
       "power of one SM with no CTA resident, W, charged for each such SM-cycle; GPUWattch: idle_core_power "
       "1.59 x IDLE_CORE_N 1"),
    SECTION("Host (how the simulation runs: results do not depend on it)"),
    HOST_UINT("sim_threads", sim_threads, "1", 1, 256,
              "(locsim) host threads stepping the SMs of a core cycle in parallel (OpenMP); statistics and "
              "outputs are byte-identical to -sim_threads 1 (docs/timing-core.md, \"Parallel simulation\"). "
              "Left out of config dumps, sweep points and the JSON's config hash"),
    SECTION("Checking and functional execution"),
    BOOL("memcheck", memcheck, "0",
         "(locsim) 1: stop at the first global access outside a live allocation with a compute-sanitizer-style "
         "report; 0: behave as a GPU (accesses in mapped memory run and are counted in memcheck_oob_accesses, "
         "others fail with cudaErrorIllegalAddress)"),
    UINT("functional_run_quantum", functional_run_quantum, QUOTE(LOCSIM_DEFAULT_RUN_QUANTUM), 1, 0x7fffffff,
         "(locsim) functional mode: a warp runs up to this many instructions before the next warp of its CTA "
         "runs (1: GPGPU-Sim's functional mode, one instruction per warp in turn); a race-free program's "
         "results do not depend on it (docs/functional.md). The timing model interleaves warps cycle by "
         "cycle and does not use it"),
    UINT("functional_cta_order", functional_cta_order, "0", 0, 0x7fffffff,
         "(locsim) functional mode: the order CTAs run in: 0 linear (CTA 0 first), 1 reverse, N > 1 a "
         "pseudo-random order drawn from seed N; a program whose results change with it has a race between "
         "CTAs (docs/functional.md)"),
};

const option_def *config_option_table(size_t *count) {
    *count = sizeof options / sizeof options[0];
    return options;
}
