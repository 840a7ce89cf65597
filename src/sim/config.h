/* The simulator configuration: a typed struct filled from GPGPU-Sim-style
 * config files and command-line overrides.
 *
 *   sim_config cfg;
 *   char err[512];
 *   if (config_load(&cfg, "fermi_gtx480", err, sizeof err) ||       // defaults + file
 *       config_set(&cfg, "-gpgpu_n_clusters", "30", NULL, err, sizeof err) ||  // overrides
 *       config_finalize(&cfg, err, sizeof err))                      // cross-checks
 *       { fprintf(stderr, "locsim: %s\n", err); exit(2); }
 *
 * The rest of the simulator reads the fields directly (no string lookups in
 * the cycle loop).  Every option is declared once, in src/sim/options.c, with
 * its GPGPU-Sim name where one exists, type, default, range and one line of
 * help; config_help() prints them all.  To add an option: a field here and a
 * row there.
 *
 * File syntax (GPGPU-Sim's): "-option value" pairs separated by whitespace,
 * usually one per line; '#' starts a comment (at the start of a token);
 * "double quotes" group a value that contains spaces or newlines.  A later
 * setting of an option replaces an earlier one (so the command line, applied
 * after the file, wins).  Errors name file:line (or "command line"), the option
 * and what was expected.
 */
#ifndef LOCSIM_SIM_CONFIG_H
#define LOCSIM_SIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "locsim/locsim.h"
#include "mem/addrmap.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/icnt.h"
#include "mem/partition.h"
#include "sim/energy.h"

/* Columns of GPGPU-Sim's -ptx_opcode_latency_* lists: "ADD,MAX,MUL,MAD,DIV". */
enum { OPLAT_ADD = 0, OPLAT_MAX, OPLAT_MUL, OPLAT_MAD, OPLAT_DIV, OPLAT_SHFL, OPLAT_COUNT };

/* Clock domains, indices of clock_mhz[]. */
/* -gpgpu_shmem_option holds at most this many carve-outs (Hopper has 10). */
enum { CONFIG_MAX_SHMEM_OPTIONS = 16 };

enum { CLOCK_CORE = 0, CLOCK_ICNT, CLOCK_L2, CLOCK_DRAM, CLOCK_COUNT };

/* -l1d_global_write_policy */
enum { L1D_GLOBAL_WRITE_FROM_CACHE = 0, L1D_GLOBAL_WRITE_THROUGH, L1D_GLOBAL_WRITE_EVICT, L1D_GLOBAL_WRITE_BACK };

typedef struct locsim_config sim_config;

struct locsim_config {
    /* ---- run limits ---- */
    uint64_t max_insn;                 /* thread instructions, 0 = no limit */
    uint64_t max_cycle;                /* core cycles, 0 = no limit */
    uint64_t max_cta;                  /* CTAs issued in timing mode, 0 = no limit */
    uint32_t sim_threads;              /* -sim_threads: host threads for the SMs (results identical) */
    bool deadlock_detect;              /* -gpgpu_deadlock_detect: stop a stuck kernel */
    uint64_t deadlock_cycles;          /* core cycles without progress that mean stuck */
    uint64_t window_insn;              /* per-kernel timed thread instructions, 0 = the whole kernel */
    uint64_t warmup_insn;              /* per-kernel functional warm-up, thread instructions of whole CTAs */
    uint32_t l1d_size_scale;           /* -l1d_size_scale: L1D sets x this (sensitivity probe) */
    uint32_t dram_bw_scale;            /* -dram_bw_scale: DRAM data moves this many times faster (probe) */
    uint64_t device_memory_mb;         /* capacity of device memory (locsim_malloc) */

    /* ---- SM ---- */
    uint32_t n_clusters, n_cores_per_cluster;
    uint32_t max_threads_per_core, warp_size;    /* -gpgpu_shader_core_pipeline */
    uint32_t simd_width;               /* lanes per pipeline: warp_size/simd_width cycles per warp instruction */
    uint32_t registers_per_core;
    uint32_t max_cta_per_core;
    uint32_t shmem_size;               /* bytes per SM */
    uint32_t shmem_num_banks;
    bool shmem_limited_broadcast;
    uint32_t smem_latency, l1_latency; /* core cycles */
    uint32_t l1_banks;                 /* -gpgpu_l1_banks: L1D banks, each takes one 32 B sector a cycle */
    uint32_t l1_banks_byte_interleaving; /* bytes of consecutive addresses one bank holds */
    uint32_t l1_banks_hashing_function;  /* 0 linear, 1 bitwise XOR (GPGPU-Sim's numbering) */
    uint32_t num_sched_per_core;
    char scheduler[128];               /* "gto", "lrr", "two_level_active:6:0:1", ... (src/sched/) */
    char cta_scheduler[64];            /* "rr", ... (src/cta/) */
    uint32_t max_insn_issue_per_warp;
    uint32_t num_sp_units, num_sfu_units, num_dp_units;
    uint32_t num_int_units;            /* -gpgpu_num_int_units (0: int runs on the SP units) */
    bool sub_core_model;               /* -gpgpu_sub_core_model */
    uint32_t oc_units_sp, oc_units_sfu, oc_units_mem, num_reg_banks;
    uint32_t pipeline_widths[11], n_pipeline_widths;   /* -gpgpu_pipeline_widths (7 or 11 entries) */
    uint32_t lat_int[OPLAT_COUNT], init_int[OPLAT_COUNT];
    uint32_t lat_fp[OPLAT_COUNT], init_fp[OPLAT_COUNT];
    uint32_t lat_dp[OPLAT_COUNT], init_dp[OPLAT_COUNT];
    uint32_t lat_sfu, init_sfu;        /* -ptx_opcode_latency_sfu / _initiation_sfu */
    bool tensor_core_avail;            /* -gpgpu_tensor_core_avail: the SM has tensor cores */
    uint32_t num_tensor_units;         /* -gpgpu_num_tensor_core_units */
    uint32_t lat_tensor, init_tensor;  /* -ptx_opcode_latency_tesnor / _initiation_tensor */

    /* ---- caches ---- */
    cache_geometry l1d, l1i, l1c, l1t, l2;   /* l2: one slice */
    cache_geometry l0i;                      /* -gpgpu_cache:il0 per sub-core (nsets 0: none) */
    char l1d_policy[32], l2_policy[32];      /* replacement overrides ("" = the string's letter) */
    uint32_t sharing_dead_block;             /* -sharing_dead_block (policy 'sharing', docs/sharing.md) */
    uint32_t sharing_detect_stores;          /* -sharing_detect_stores (policy 'sharing' in the L2) */
    uint32_t sharing_kernel_reset;           /* -sharing_kernel_reset (policy 'sharing' in the L2) */
    uint32_t ldesc_l1_bypass, ldesc_l1_hard_pin, ldesc_l1_soft_pin, ldesc_unpin_period;   /* policy 'ldesc' */
    uint32_t l1d_global_write;               /* L1D_GLOBAL_WRITE_* */
    bool flush_l1_cache;                     /* invalidate L1D between kernels */
    /* Unified L1D / shared memory (docs/modern.md): with adaptive_cache_config
     * each kernel gets the smallest carve-out of shmem_option (KB) that holds
     * its resident CTAs' shared memory; the L1D keeps the rest of unified_l1d_kb. */
    bool adaptive_cache_config;              /* -gpgpu_adaptive_cache_config */
    uint32_t shmem_option[CONFIG_MAX_SHMEM_OPTIONS], n_shmem_option;   /* -gpgpu_shmem_option, KB ascending */
    uint32_t unified_l1d_kb;                 /* -gpgpu_unified_l1d_size, KB (0: none) */
    bool perfect_inst_const_cache;           /* constant/parameter loads always hit */
    bool flush_l2_cache;                     /* drop dirty L2 lines after each kernel (GPGPU-Sim's flush) */
    bool perf_sim_memcpy;                    /* host<->device copies fill the L2 */
    bool ptxas_registers;                    /* registers per thread from ptxas when known */

    /* ---- clocks (MHz) ---- */
    double clock_mhz[CLOCK_COUNT];

    /* ---- memory partitions and DRAM ---- */
    uint32_t n_mem;                          /* memory channels */
    uint32_t n_sub_partition_per_mchannel;   /* L2 slices per channel */
    dram_config dram;                        /* timing, data bus, queues, scheduler */
    char mem_addr_mapping[256];
    uint32_t memory_partition_indexing;      /* 0 linear, 1 hashed */
    uint32_t dram_bank_indexing;             /* 0 linear, 1 XOR */
    uint32_t mem_address_mask;               /* accepted for GPGPU-Sim files; the mapping string decides */

    /* ---- multi-module (NUMA) GPU, docs/numa.md ---- */
    uint32_t numa_n_modules;                 /* 1: a single-module GPU (nothing NUMA is built) */
    double numa_link_bandwidth;              /* GB/s per module's egress link */
    double numa_link_latency;                /* ns */
    char numa_placement[32];                 /* xor | first_touch | ldesc (src/numa/) */
    char numa_link_topology[16];             /* egress | ring (src/numa/numa.c) */
    uint32_t numa_page_size;                 /* bytes (first_touch) */
    bool numa_cta_partition;                 /* let the placement partition the grid */
    bool numa_cta_steal;                     /* idle zones take CTAs of other zones */
    bool numa_flat_fabric;                   /* the zones' mapping over one crossbar, no links */
    uint32_t rop_latency, dram_latency;      /* L2 cycles */
    uint32_t l2_prefetch_forward;            /* -l2_prefetch_forward: L2 cycles to hand a candidate to its slice (0: off) */
    uint32_t l2_far_latency;                 /* -l2_far_latency: L2 cycles more to the far L2 half (0: one L2) */
    uint32_t partition_queues[PART_Q_COUNT];

    /* ---- prefetchers (src/mem/prefetch/) and WSMP (docs/wsmp.md) ---- */
    char l1d_prefetcher[24], l2_prefetcher[24];   /* "" = none */
    prefetch_config pf;                      /* their options (copied into l1d.pf and l2.pf) */
    double ppf_tau_hi, ppf_tau_lo, ppf_theta_pos, ppf_theta_neg;   /* integers, checked */
    uint32_t wsmp_timeouts[3];               /* -gpgpu_scheduler wsmp: core cycles in L1, L2, L3 before moving up */

    /* ---- interconnect ---- */
    icnt_config icnt;

    /* ---- CCWS warp scheduler (src/sched/ccws.c) and L1D analyses (src/analysis/) ---- */
    uint32_t ccws_k_throttle;                /* K_throttle of the lost-locality detected score */
    uint32_t ccws_vta_entries;               /* victim tags per warp */
    uint32_t ccws_vta_assoc;                 /* ways of each warp's VTA partition */
    uint32_t ccws_base_score;                /* base lost-locality score */
    uint32_t ccws_decay_cycles;              /* core cycles per point of score decay */
    bool ccws_llds_add_base;                 /* 1: score on a VTA hit = base + LLDS, never lowered */
    bool ccws_resident_counts;               /* LLDS counts of the resident warps only */
    bool ccws_admit_before;                  /* admit while the scores ahead sum below the cutoff */
    bool ccws_vta_fifo;                      /* VTA: FIFO by allocation, no refresh on re-insert */
    bool ccws_vta_keep_on_hit;               /* VTA: a hit leaves the entry in place */
    bool ccws_throttle_atomics;              /* throttled warps may not issue atom either */
    bool ccws_vta_write_invalidate;          /* a global write clears its line from every warp's VTA */
    bool ccws_vta_probe_victims;             /* VTA tags from every miss's probe victim, not evictions */
    bool ccws_vta_probe_pending;             /* pending hits (MSHR merges) probe the VTA too */
    bool ccws_ties_by_slot;                  /* equal scores: lower slot first (else the older warp) */
    bool ccws_score_from_first_access;       /* a new warp scores 0 until its first L1D hit or miss */
    bool ccws_recap;                         /* re-cap scores to the current LLDS every cycle and access */
    bool l1d_unbounded;                      /* give every SM an effectively infinite L1D */
    bool l1d_access_analysis;                /* record L1D access streams: Belady misses, locality breakdown */
    bool memcheck;                           /* stop at the first out-of-bounds access (docs/memcheck.md) */
    uint32_t functional_run_quantum;         /* functional mode: instructions per warp turn (docs/functional.md) */
    uint32_t functional_cta_order;           /* functional mode: 0 linear, 1 reverse, N > 1 shuffled by seed N */

    /* ---- energy model (src/sim/energy.c, docs/energy.md) ---- */
    double energy_nj[ENERGY_EVENT_COUNT];    /* nJ per event */
    double static_w[ENERGY_STATIC_COUNT];    /* static power per component, W */
};

/* Fill every option with its default (the GTX480 values of GPGPU-Sim 3.x). */
void config_defaults(sim_config *c);

/* The longest path to a config file locsim takes, plus one (PATH_MAX). */
#define CONFIG_PATH_MAX 4096

/* Find a config by name (configs/<name>.cfg under $LOCSIM_CONFIG_DIR, ./configs,
 * or extra_dir when not NULL) or by path (anything with a '/' or ending in .cfg).
 * Writes the path to out.  -1 with err listing where it looked, or saying that
 * the path is longer than out can hold. */
int config_resolve(const char *name_or_path, const char *extra_dir, char *out, size_t outlen,
                   char *err, size_t errlen);

/* Read options from a file into c (on top of what c holds). */
int config_load_file(sim_config *c, const char *path, char *err, size_t errlen);
/* Parse options from a string; `origin` names it in errors (e.g. "command line"). */
int config_load_string(sim_config *c, const char *text, const char *origin, char *err, size_t errlen);
/* config_defaults + config_resolve + config_load_file. */
int config_load(sim_config *c, const char *name_or_path, char *err, size_t errlen);

/* The value of option `name` (with or without the leading '-'), written as in a
 * config file, into buf; -1 if there is no such option. */
int config_get(const sim_config *c, const char *name, char *buf, size_t n);
/* Does option `name` say how the simulator runs on the host rather than what it
 * simulates (-sim_threads)?  Results do not depend on such an option, so the
 * config dump, the sweep points and the JSON's inputs leave it out. */
bool config_is_host_option(const char *name);
/* Set one option; name with or without the leading '-'.  origin NULL = "command line". */
int config_set(sim_config *c, const char *name, const char *value, const char *origin, char *err, size_t errlen);
/* Apply "-option value" pairs (argv-style, no program name). */
int config_apply_args(sim_config *c, int argc, char *const *argv, char *err, size_t errlen);

/* Cross-option checks and derived settings (policy overrides into the cache
 * geometries, the address mapping against the channel and bank counts, buffers
 * large enough for the largest packet, ...).  Call once after the last override. */
int config_finalize(sim_config *c, char *err, size_t errlen);

/* Every option with its default, range and help (locsim --help-options). */
void config_help(FILE *out);
/* Every option with its current value, in config-file syntax (loadable again). */
void config_dump(const sim_config *c, FILE *out);

/* Derived views for the parts of the memory system. */
static inline uint32_t config_num_sms(const sim_config *c) { return c->n_clusters * c->n_cores_per_cluster; }
static inline uint32_t config_max_warps_per_sm(const sim_config *c) { return c->max_threads_per_core / c->warp_size; }
static inline uint32_t config_num_l2_slices(const sim_config *c) { return c->n_mem * c->n_sub_partition_per_mchannel; }
void config_addrmap(const sim_config *c, addrmap_config *out);
void config_partition(const sim_config *c, partition_config *out);
/* The carve-out of a kernel whose resident CTAs need smem_bytes of shared
 * memory (-gpgpu_adaptive_cache_config): the smallest -gpgpu_shmem_option that
 * holds them, in KB, with *ways the L1D ways left to the cache.  Without the
 * option: 0, and *ways the L1D's associativity. */
uint32_t config_l1d_carveout(const sim_config *c, uint64_t smem_bytes, uint32_t *ways);

#endif
