/* One streaming multiprocessor (SM) of the timing model.
 *
 * Pipeline, per core cycle (sm_cycle):
 *   1. the LD/ST unit sends at most one coalesced access to the L1D / constant
 *      cache (or the bypass queue), retrying accesses that failed to reserve
 *      resources, and at most one request leaves the SM towards the interconnect;
 *   2. each of the N warp schedulers issues at most one instruction from the warps
 *      it owns (slot % N == scheduler id) that can issue: instruction in the
 *      I-buffer, operands ready in the scoreboard, not at a barrier, target
 *      pipeline (SP / SFU / DP / LD-ST) free.  The plug-in (src/sched/) picks one.
 *   3. an issued instruction executes functionally at once (exec_warp_step); its
 *      destination registers become visible after the opcode's latency (ALU) or
 *      when the data returns (loads).
 *
 * Timing of a warp's next instruction is cached (ready_at), so a cycle in which
 * nothing can issue costs a few compares per warp, and an SM in which nothing
 * can happen before cycle T (sm_wake_at) costs nothing until T or until a reply
 * arrives (sm_receive).
 *
 * Registers (occupancy): see sm_occupancy() in occupancy.c for the rounding.
 */
#ifndef LOCSIM_CORE_SM_H
#define LOCSIM_CORE_SM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "mem/cache.h"
#include "mem/mem_req.h"
#include "sched/sched.h"

/* GPGPU-Sim's opcode-latency groups within each of int / fp / dp. */
/* (SHFL exists only in the int table.) */
typedef enum { SM_LAT_ADD = 0, SM_LAT_MAX, SM_LAT_MUL, SM_LAT_MAD, SM_LAT_DIV, SM_LAT_SHFL, SM_LAT_COUNT } sm_lat_group;

/* Execution pipelines of an SM.  UNIT_INT is used only with -gpgpu_num_int_units
 * above 0 (Volta and later); otherwise integer work runs on UNIT_SP. */
typedef enum { UNIT_SP = 0, UNIT_SFU, UNIT_DP, UNIT_LDST, UNIT_TENSOR, UNIT_INT, UNIT_COUNT } sm_unit_kind;

/* Why a scheduler issued nothing in a cycle (the issue-stall breakdown). */
typedef enum {
    STALL_IDLE = 0,      /* no live warp, or none has an instruction to issue */
    STALL_SCOREBOARD,    /* operands not ready (ALU latency) */
    STALL_PIPELINE,      /* a warp was ready but its SP/SFU/DP pipeline was busy */
    STALL_MEMORY,        /* waiting on a load from memory, or the LD/ST unit was busy */
    STALL_BARRIER,       /* every live warp waits at a barrier */
    STALL_COUNT
} sm_stall_reason;

const char *sm_stall_name(sm_stall_reason r);   /* "idle", "scoreboard", ... */

/* Everything about the SM's hardware, read from the configuration by the GPU top. */
typedef struct {
    uint32_t warp_size;            /* 32 (the only value supported) */
    uint32_t max_threads;          /* -gpgpu_shader_core_pipeline <threads>:32 */
    uint32_t max_ctas;             /* -gpgpu_shader_cta */
    uint32_t num_regs;             /* -gpgpu_shader_registers: 32-bit registers per SM */
    uint32_t max_regs_per_thread;  /* hardware cap on registers per thread */
    uint32_t reg_alloc_unit;       /* registers per warp are allocated in multiples of this */
    uint32_t smem_size;            /* -gpgpu_shmem_size: bytes per SM */
    uint32_t smem_alloc_unit;      /* shared memory per CTA is allocated in multiples of this */
    uint32_t num_sched;            /* -gpgpu_num_sched_per_core */
    const warp_sched_ops *sched;   /* -gpgpu_scheduler (already looked up) */
    const char *sched_args;
    const void *cfg;               /* locsim_config, for plug-ins' own options */
    uint32_t num_units[UNIT_COUNT];/* SP, SFU, DP (0: double precision runs on the SFU), LD/ST, tensor (0: none),
                                      INT (0: integer runs on SP) */
    bool sub_core;                 /* -gpgpu_sub_core_model: one sub-core per scheduler (docs/timing-core.md) */
    uint32_t simd_width;           /* lanes a pipeline processes per cycle (32: one warp per cycle) */
    uint32_t oc_units[2];          /* collector units: SP set, SFU set (-gpgpu_operand_collector_num_units_*) */
    uint32_t num_reg_banks;        /* -gpgpu_num_reg_banks (1..64) */
    uint32_t result_buses;         /* EX_WB width of -gpgpu_pipeline_widths */
    /* latency and initiation interval, GPGPU-Sim's -ptx_opcode_latency_* groups */
    uint32_t lat_int[SM_LAT_COUNT], lat_fp[SM_LAT_COUNT], lat_dp[SM_LAT_COUNT], lat_sfu;
    uint32_t init_int[SM_LAT_COUNT], init_fp[SM_LAT_COUNT], init_dp[SM_LAT_COUNT], init_sfu;
    uint32_t lat_tensor, init_tensor;  /* wmma.mma / mma on UNIT_TENSOR */
    uint32_t insns_per_iline;      /* 8-byte PTX instructions per instruction-cache line */
    uint32_t l1_latency;           /* L1D hit: cycles until the data is visible; misses leave after it */
    uint32_t l1_banks;             /* L1D banks: each takes one 32 B sector access a cycle (1: one access a cycle) */
    uint32_t l1_bank_shift;        /* log2 of -gpgpu_l1_banks_byte_interleaving */
    bool l1_bank_xor;              /* -gpgpu_l1_banks_hashing_function 1 */
    uint32_t smem_latency;         /* shared memory access (no conflicts) */
    uint32_t param_latency;        /* ld.param of kernel arguments with a perfect constant cache */
    bool perfect_inst_const;       /* -gpgpu_perfect_inst_const_cache: instruction fetches, constant
                                      and parameter loads always hit (else fetches go through the
                                      L1I and kernel parameters through the L1C, misses to the L2) */
    uint32_t const_latency;        /* constant-cache hit (GPGPU-Sim: no latency queue, next cycle) */
    uint32_t smem_banks;           /* 32 */
    uint32_t smem_bank_width;      /* 4 bytes */
    uint32_t coalesce_line;        /* 128: bytes a coalesced request covers */
    bool has_l1d;                  /* -gpgpu_cache:dl1 is not "none" */
    bool l1d_global;               /* global accesses use the L1D (else only local ones do) */
    bool flush_l1;                 /* -gpgpu_flush_l1_cache: invalidate the L1D at every kernel start */
    cache_geometry l1d, l1c;       /* -gpgpu_cache:dl1, -gpgpu_const_cache:l1 */
    cache_geometry l1i;            /* -gpgpu_cache:il1 */
    cache_geometry l0i;            /* -gpgpu_cache:il0: one per sub-core in front of the L1I (nsets 0: none) */
    cache_geometry l1t;            /* -gpgpu_tex_cache:l1 */
    uint32_t bypass_queue;         /* requests that skip the L1 (atomics, uncached) waiting to leave */
    uint32_t load_slots_per_warp;  /* memory instructions a warp may have in flight */
    uint32_t total_sms;            /* for the local-memory address interleave */
    bool l1d_access_analysis;      /* record the L1D access stream (src/analysis/l1trace.h) */
    bool track_sigma;              /* keep each warp's latency tolerance (a plug-in uses it: docs/wsmp.md) */
} sm_config;

/* The resources one CTA of a kernel takes and how many fit in an SM. */
typedef struct {
    uint32_t threads;              /* per CTA */
    uint32_t warps;                /* per CTA */
    uint32_t regs_per_thread;      /* after the cap */
    uint32_t regs_per_cta;         /* after rounding */
    uint32_t smem_per_cta;         /* after rounding */
    uint32_t limit_threads, limit_ctas, limit_regs, limit_smem;  /* CTAs per SM each allows */
    uint32_t ctas_per_sm;          /* the minimum: what the SM runs at once */
    const char *limiter;           /* "threads", "ctas", "registers", "shared memory" */
} sm_occupancy_info;

/* Occupancy of a kernel with these CTA resources.  kernel_regs is the PTX
 * register count (value + predicate registers).  Returns 0, or -1 with err set
 * when a single CTA cannot fit at all. */
int sm_occupancy(const sm_config *c, uint32_t threads_per_cta, uint32_t kernel_regs, uint32_t smem_per_cta,
                 sm_occupancy_info *out, char *err, size_t errlen);

/* Registers per thread a kernel needs, estimated from the register pressure of
 * its PTX (regs.c); `limit` is returned when the analysis cannot finish. */
uint32_t sm_kernel_registers(const ptx_module *m, const ptx_function *kernel, uint32_t limit);

/* What an SM needs to know about the running kernel. */
typedef struct {
    const exec_launch *L;
    sm_occupancy_info occ;
    uint32_t max_regs, max_preds;  /* largest register counts of any function of the module */
} sm_kernel;

/* Per-SM statistics (summed by the GPU top). */
typedef struct {
    uint64_t thread_insns, warp_insns;
    uint64_t issue_slots;          /* scheduler-cycles (N per core cycle the SM had work) */
    uint64_t stall[STALL_COUNT];   /* scheduler-cycles with no issue, by reason */
    uint64_t unit_insns[UNIT_COUNT];
    uint64_t unit_threads[UNIT_COUNT]; /* thread operations (active lanes) per pipeline (energy model) */
    uint64_t rf_reads, rf_writes;  /* warp register operand reads / result writes through the collector */
    uint64_t smem_read_passes, smem_write_passes;  /* shared-memory array passes (1 + conflict replays) */
    uint64_t ctas_done;
    uint64_t active_cycles;        /* cycles with at least one CTA resident */
    uint64_t gmem_insns, gmem_requests;  /* global/local warp accesses and the line requests they made */
    uint64_t smem_insns, smem_conflict_cycles;  /* extra cycles spent on bank conflicts */
    uint64_t const_insns;
    uint64_t param_insns;          /* ld.param of kernel arguments sent to the constant cache */
    uint64_t tex_insns;            /* tex / tld4 warp instructions that read memory */
    uint64_t ldst_fail_cycles;     /* cycles the LD/ST unit retried a reservation fail */
    uint64_t l1_bank_conflict_cycles; /* cycles an L1D access waited for a bank another access held */
    uint64_t oc_bank_conflict_cycles;  /* cycles operand reads waited for a register bank */
    uint64_t result_bus_stall_cycles;  /* cycles instructions waited for a free result bus */
    uint64_t bypass_requests;      /* atomics and uncached accesses sent past the L1 */
    uint64_t mem_latency_sum, mem_latency_n, mem_latency_max;  /* request out -> data back, core cycles */
    uint64_t requests_out, replies_in;
    /* Occupancy actually reached: live warps integrated over core cycles (their
     * mean is this / active_cycles), and the most live at once. */
    uint64_t live_warp_cycles, live_warps_max;
} sm_counters;

typedef struct sm sm;

/* Where requests leave the SM: returns 1 if the interconnect took it. */
typedef int (*sm_send_fn)(void *ctx, uint32_t sm_id, const mem_req *r);
/* A CTA finished (its exec_cta is destroyed after the call). */
typedef void (*sm_cta_done_fn)(void *ctx, uint32_t sm_id, uint64_t cta_linear);

sm *sm_create(const sm_config *c, uint32_t id, char *err, size_t errlen);
void sm_destroy(sm *s);
void sm_set_ports(sm *s, sm_send_fn send, sm_cta_done_fn done, void *ctx);
/* s decodes through owner's instruction-decode cache instead of its own (a
 * decode is the same on every SM of one configuration running one kernel, see
 * sm_internal.h).  owner must outlive s's use of it. */
void sm_share_decode(sm *s, sm *owner);
/* Parallel simulation: the instructions this SM issues defer their global
 * data movement into `log` (exec.h), or move it at once (NULL, the default). */
void sm_set_memlog(sm *s, exec_memlog *log);

/* Start / end of a kernel: sizes the scoreboard and load slots (the only
 * allocation; none happens per cycle).  The caches keep their contents across
 * kernels unless -gpgpu_flush_l1_cache asks for an L1D invalidate, as in GPGPU-Sim. */
int sm_kernel_begin(sm *s, const sm_kernel *k, char *err, size_t errlen);
void sm_kernel_end(sm *s);
/* Counters that are levels of one kernel, not totals (live_warps_max): zeroed
 * by sm_kernel_begin, and by the GPU for a kernel that runs only functionally. */
void sm_kernel_levels_reset(sm *s);

/* Room for another CTA of the running kernel. */
uint32_t sm_free_cta_slots(const sm *s);
/* Take a CTA (created by the caller; the SM owns and destroys it). */
int sm_add_cta(sm *s, exec_cta *cta, uint64_t cta_linear, uint64_t now);

/* One core cycle. */
void sm_cycle(sm *s, uint64_t now);
/* The first cycle at which sm_cycle can do anything without outside input;
 * UINT64_MAX when the SM waits only on memory replies (or is empty). */
uint64_t sm_wake_at(const sm *s);
/* A reply from the memory system. */
void sm_receive(sm *s, const mem_req *reply, uint64_t now);

/* The kernel's timing window closed: issue nothing more.  The SM still moves
 * what is in flight (LD/ST unit, misses, fetches, replies), so the memory system
 * drains; sm_quiet() tells when nothing of the SM is left in it. */
void sm_stop_issue(sm *s, uint64_t now);
bool sm_quiet(const sm *s);
/* Run every resident CTA to its end functionally (their state is exact: an
 * instruction executes at issue), adding the instructions to *thread_insns and
 * *warp_insns.  LOCSIM_OK, or a fault's status with its message in *fault.
 * The CTAs stay resident until sm_kernel_end. */
locsim_status sm_finish_functionally(sm *s, uint64_t *thread_insns, uint64_t *warp_insns, uint64_t *ctas,
                                     exec_fault *fault);

/* CTAs resident, and whether anything is still in flight. */
uint32_t sm_resident_ctas(const sm *s);
/* Could a reply retire a CTA (one whose warps have all exited waits for its
 * memory operations)?  When not, sm_receive calls none of the SM's ports. */
bool sm_reply_may_retire(const sm *s);
bool sm_idle(const sm *s);
/* Live warps waiting at a barrier (to tell a program's barrier deadlock from a
 * simulator resource deadlock). */
uint32_t sm_warps_at_barrier(const sm *s);
/* One line on what the SM's warps wait for (stuck-simulation reports); 0 and
 * nothing written when no CTA is resident, else snprintf's count. */
int sm_describe_waits(const sm *s, char *out, size_t n);
/* A kernel fault recorded by the SM (NULL if none). */
const exec_fault *sm_fault(const sm *s);

/* Account the stall reasons up to `now` (call at kernel end before reading). */
void sm_flush_stats(sm *s, uint64_t now);
const sm_counters *sm_stats(const sm *s);
const cache *sm_l1d(const sm *s);
/* A unified L1D/shared array's carve-out for the kernel just begun (after
 * sm_kernel_begin emptied the L1D): new lines take only `ways` ways. */
int sm_set_l1d_ways(sm *s, uint32_t ways);
const cache *sm_l1c(const sm *s);
const cache *sm_l1i(const sm *s);  /* NULL with a perfect instruction cache */
const cache *sm_l0i(const sm *s, uint32_t sub);  /* sub-core sub's L0 I-cache; NULL when there is none */
const cache *sm_l1t(const sm *s);  /* NULL without a texture cache */
/* The SM's L1D access-stream recorder (NULL unless l1d_access_analysis): the
 * timing model analyses and empties it at each kernel end. */
struct l1_trace *sm_l1_trace(const sm *s);
/* The scheduler plug-in instance (policies' own statistics, tests). */
void *sm_sched_state(const sm *s);
uint32_t sm_id(const sm *s);

/* Local memory: the timing model's address of byte `offset` of the local memory
 * of the thread in hardware thread slot `slot` of SM `sm_id` (see ldst.c). */
uint64_t sm_local_address(const sm_config *c, uint32_t sm_id, uint32_t slot, uint64_t offset);

#endif
