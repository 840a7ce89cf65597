/* The GPU top of the timing model: SMs, two crossbars (requests SM -> L2 slice,
 * replies L2 slice -> SM), memory partitions (L2 slices + DRAM channel), the CTA
 * scheduler, and four clock domains.
 *
 * Clocks.  Each domain (core, interconnect, L2, DRAM) has a frequency (kHz,
 * integer, from -gpgpu_clock_domains in MHz).  Cycle n of a domain of frequency f
 * happens at time n / f.  The loop always advances the domain(s) whose next edge
 * is earliest, comparing (n_a + 1) * f_b with (n_b + 1) * f_a in integers, so
 * the ratio is exact and no floating-point drift can reorder events; domains
 * with the same edge time tick in the fixed order core, interconnect, L2, DRAM.
 * (DRAM's domain is its command clock, as GPGPU-Sim's -gpgpu_clock_domains gives.)
 *
 * Per tick:
 *   core:  each SM takes at most one reply from the reply network, CTAs are
 *          dispatched (at most one per SM), then every SM runs a cycle (its
 *          requests enter the request network through gpu_send);
 *   icnt:  each L2 slice offers one reply to the reply network, then both
 *          networks advance a cycle;
 *   L2:    each slice takes at most one request from the request network, then
 *          every partition runs an L2 cycle;
 *   DRAM:  every partition runs a DRAM cycle.
 *
 * Idle time.  When no SM can do anything before core cycle T (every warp waits
 * on memory that is not in flight, or on a fixed latency) and the networks and
 * partitions are empty, all four clocks jump to T at once (the skipped cycles
 * still count in gpu_sim_cycle and DRAM cycles).  While memory requests are in
 * flight the memory side is simulated cycle by cycle; sleeping SMs cost one
 * compare per core cycle.
 *
 * A kernel ends when every CTA has retired and the memory system has drained
 * (so a kernel's writes are accounted to it).
 */
#ifndef LOCSIM_SIM_GPU_H
#define LOCSIM_SIM_GPU_H

#include <stdint.h>

#include "core/sm.h"
#include "cta/cta_sched.h"
#include "locsim/locsim.h"
#include "mem/addrmap.h"
#include "mem/icnt.h"
#include "mem/partition.h"
#include "numa/numa.h"

enum { CLK_CORE = 0, CLK_ICNT, CLK_L2, CLK_DRAM, CLK_COUNT };

/* Everything the GPU is built from (gpu_config.c fills it from a locsim_config). */
typedef struct {
    sm_config sm;
    uint32_t num_sms;
    uint64_t clock_khz[CLK_COUNT];
    icnt_config icnt;
    partition_config part;
    addrmap_config amap;
    const cta_sched_ops *cta_sched;
    const char *cta_args;
    bool flush_l2;                 /* -gpgpu_flush_l2_cache */
    bool perf_memcpy;              /* -gpgpu_perf_sim_memcpy */
    bool ptxas_regs;               /* -gpgpu_ptxas_registers */
    uint64_t max_cycle, max_insn;  /* -gpgpu_max_cycle / -gpgpu_max_insn: stop the timing simulation (0: no limit) */
    uint64_t max_cta;              /* -gpgpu_max_cta: CTAs issued in timing mode (0: no limit) */
    uint64_t deadlock_cycles;      /* -gpgpu_deadlock_detect / _cycles: 0 = never stop a stuck kernel */
    uint32_t sim_threads;          /* -sim_threads: host threads stepping the SMs (1: serial) */
    uint64_t window_insn;          /* -timing_window_insn: timed thread instructions per kernel (0: all) */
    uint64_t warmup_insn;          /* -timing_warmup_insn: functional warm-up per kernel (0: none) */
    numa_config numa;              /* n_modules 1: a single-module GPU (docs/numa.md) */
    const void *cfg;
} gpu_params;

/* Counters of the GPU top itself. */
typedef struct {
    uint64_t cycles[CLK_COUNT];    /* cycles of each domain (skipped ones included) */
    uint64_t skipped_core_cycles;  /* core cycles jumped over while idle */
    uint64_t kernels;
    uint64_t ctas_launched;
    uint64_t send_fails;           /* an SM's request found the request network full */
    /* The CTA-to-SM map (summed over kernels; docs/sharing.md): */
    uint64_t cta_neighbours;       /* CTAs c >= 1 of each grid ... */
    uint64_t cta_neighbours_same_sm; /* ... whose linear predecessor c - 1 ran on the same SM */
    uint64_t sm_ctas_sum;          /* CTAs run, over the SMs */
    uint64_t sm_ctas_max_x_sms;    /* per kernel: SMs x the most CTAs one SM ran */
    uint64_t sm_ctas_min_x_sms;    /* per kernel: SMs x the fewest CTAs one SM ran */
    uint64_t sm_insn_sum;          /* thread instructions, over the SMs */
    uint64_t sm_insn_max_x_sms;    /* per kernel: SMs x the most thread instructions of one SM */
    /* Sharers per block: distinct L2 lines that SMs read through their L1D
     * (global/local loads reaching the L2) per kernel, and the sum over them of
     * the distinct SMs that read each. */
    uint64_t sharer_lines, sharer_sm_lines;
    uint64_t regs_per_thread_sum;  /* over launches: registers per thread occupancy charged */
    uint64_t regs_estimated;       /* launches whose count is the liveness estimate (no ptxas listing) */
    uint64_t cta_clusters;         /* CTA clusters the CTA scheduler formed (cta_sched_ops.clusters) */
    /* Thread / warp instructions run functionally, outside the timing model: the
     * warm-up, the rest of a kernel past its timing window, everything after a cap. */
    uint64_t ff_thread_insns, ff_warp_insns;
    uint64_t windows_closed;       /* kernels whose timing window closed before their end */
    uint64_t ctas_warmup;          /* CTAs run functionally in warm-ups */
    uint64_t ctas_fast_forward;    /* CTAs finished or run functionally after a window or a cap */
    uint64_t grid_ctas, cta_slots; /* per launch, summed: its grid's CTAs; SMs x CTAs per SM */
    uint64_t occ_limited_by[4];    /* launches whose occupancy threads / CTAs / registers / smem limit */
} gpu_counters;

/* What stopped the timing simulation (-gpgpu_max_insn, -gpgpu_max_cycle,
 * -gpgpu_max_cta): GPGPU-Sim's caps.  The rest of the program runs functionally. */
typedef struct {
    const char *option;            /* "-gpgpu_max_insn", ...; NULL: no cap was reached */
    uint64_t cycle;                /* core cycle it stopped at */
    uint64_t thread_insns;         /* thread instructions timed by then */
    uint64_t ctas;                 /* CTAs issued in timing mode by then */
    uint64_t kernel;               /* launch index (0-based) of the kernel it stopped in */
    char kernel_name[128];
} gpu_cap_info;

typedef struct gpu gpu;

gpu *gpu_create(const gpu_params *p, char *err, size_t errlen);
void gpu_destroy(gpu *g);

/* Run one kernel to completion.  On a kernel fault or deadlock returns its status
 * with a message in err.  With a timing window, a warm-up or after a cap, part or
 * all of the kernel runs functionally (counted in gpu_counters.ff_*), so the
 * kernel's results are always complete. */
locsim_status gpu_run_kernel(gpu *g, const exec_launch *L, char *err, size_t errlen);

/* -gpgpu_perf_sim_memcpy: a host<->device copy of [addr, addr + bytes) went
 * through the L2 (GPGPU-Sim's copy engine): each 32 B chunk, in copy order,
 * makes its sector valid in the slice the address maps to.  Takes no simulated
 * time.  No effect when the option is off. */
void gpu_memcpy_touch(gpu *g, uint64_t addr, uint64_t bytes);

/* ---- inspection (statistics, tests) ---- */
const gpu_params *gpu_get_params(const gpu *g);
const gpu_counters *gpu_stats(const gpu *g);
uint32_t gpu_num_sms(const gpu *g);
const sm *gpu_sm(const gpu *g, uint32_t i);
uint32_t gpu_num_partitions(const gpu *g);
partition *gpu_partition(const gpu *g, uint32_t i);
const icnt *gpu_icnt(const gpu *g, int replies);
/* The multi-module fabric, NULL with one module (docs/numa.md). */
const numa *gpu_numa(const gpu *g);
/* What stopped the timing simulation; NULL while no cap has been reached. */
const gpu_cap_info *gpu_cap(const gpu *g);
/* Occupancy of the last kernel launched. */
const sm_occupancy_info *gpu_last_occupancy(const gpu *g);
/* Most CTAs resident on one SM at once during the last kernel. */
uint32_t gpu_last_max_resident(const gpu *g);

/* Hook for a progress display and stop requests: called every 2^14 core cycles
 * with the running kernel's cycle and thread-instruction counts so far; a non-zero
 * return stops the kernel (LOCSIM_ERR_INTERRUPTED). */
typedef int (*gpu_progress_fn)(void *ctx, uint64_t cycles, uint64_t thread_insns);
void gpu_set_progress(gpu *g, gpu_progress_fn fn, void *ctx);
/* Called once, when a cap stops the timing simulation, before the rest of the
 * kernel runs functionally (which may take long: say so first). */
typedef void (*gpu_cap_fn)(void *ctx, const gpu_cap_info *cap);
void gpu_set_cap_hook(gpu *g, gpu_cap_fn fn, void *ctx);

#endif
