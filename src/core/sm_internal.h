/* Internals of the SM shared by the files of src/core/. */
#ifndef LOCSIM_CORE_SM_INTERNAL_H
#define LOCSIM_CORE_SM_INTERNAL_H

#include <string.h>

#include "analysis/l1trace.h"
#include "core/sm.h"

/* Scoreboard value of a register whose producer is a load still in flight. */
#define SB_PENDING UINT64_MAX
/* The scoreboard keeps 32-bit cycles relative to the SM's sb_base (see
 * sb_rel): SB_REL_PENDING stands for SB_PENDING, and a relative time is at
 * most SB_REL_SPAN (sm.sb_span may lower it, for tests that force rebases). */
#define SB_REL_PENDING UINT32_MAX
#define SB_REL_SPAN (UINT32_MAX - 1)
#define NEVER UINT64_MAX

#define SM_MAX_SCHED 8
#define SM_MAX_UNITS 8          /* instances of one pipeline kind */
#define SM_MAX_CTAS 64
/* cp.async instructions one warp may have in flight: at least load_slots_per_warp
 * (each holds a memory slot), checked in sm_create. */
#define SM_MAX_CPA 16
/* cp.async.mbarrier.arrive operations a warp may have waiting for its copies, as
 * distinct thresholds (sm_mbar_progress); more merge into the newest. */
#define SM_MAX_MBAR 16
/* How long a warp whose mbarrier.try_wait cannot succeed yet stays suspended before
 * the instruction issues (and returns false) anyway.  PTX calls this time limit
 * system-dependent and no figure is published; GPGPU-Sim has no mbarrier.  The
 * value only sets how often a waiting warp re-runs its wait loop: a completed
 * phase wakes it at once (docs/cp-async.md). */
#define SM_MBAR_SUSPEND_CYCLES 1000
/* Coalesced accesses of one warp instruction: 32 lanes x up to 4 words (local
 * memory is interleaved word by word, so a v4 local access touches 4 lines). */
#define LDST_MAX_ACCESS 128
#define SM_MAX_L1_BANKS 32   /* -gpgpu_l1_banks' upper bound */
/* Registers one load writes: a wmma fragment has up to 8. */
#define SLOT_MAX_DST PTX_VEC_MAX

/* Base of the timing model's local-memory addresses: above every global address
 * (DEVMEM_GLOBAL_LIMIT), so local lines never alias global ones in a cache. */
#define SM_LOCAL_BASE 0x0000010000000000ull

/* Kernel parameters as the constant cache sees them (ld.param of a kernel's own
 * parameters goes through it, as GPGPU-Sim's param_space_kernel accesses do):
 * parameter offset + this base, below the global heap (DEVMEM_GLOBAL_BASE) and
 * the same for every kernel, as GPGPU-Sim's parameter addresses are. */
#define SM_PARAM_BASE 0x0000000010000000ull

/* Instruction memory as the caches see it: a function's code_addr + this base
 * (GPGPU-Sim's PROGRAM_MEM_START), below the global heap. */
#define SM_CODE_BASE 0x00000000F0000000ull

/* Request tags: the target in the top bits, the memory slot below. */
#define TAG_TARGET_SHIFT 60
#define TAG_SLOT_MASK ((1ull << TAG_TARGET_SHIFT) - 1)
enum { TARGET_L1D = 1, TARGET_L1C = 2, TARGET_BYPASS = 3, TARGET_L1T = 4, TARGET_L1I = 5, TARGET_L0I = 6 };

/* Operand collector (opcoll.c): collector-unit sets and reservation rings. */
enum { OC_SET_SP = 0, OC_SET_SFU, OC_SETS };
/* What a warp's next instruction needs to issue (sm.unit_mask, hot_unit): a
 * collector unit of the SP set (SP, INT), of the SFU set (SFU, DP, tensor:
 * locsim has no separate DP, INT or tensor collector units, docs/tensor.md), or
 * the LD/ST unit.  The two set classes are the sets' indices. */
enum { ICLASS_SP = OC_SET_SP, ICLASS_SFU = OC_SET_SFU, ICLASS_LDST, ICLASS_COUNT };
#define OC_MAX_UNITS 64
#define OC_RING 1024

/* The cycles at which the n collector units of one set are free again, kept in
 * ascending order in a circular array starting at head (speed only).  An
 * instruction always takes a unit free soonest, and which of several such units
 * it takes cannot change any later timing (only how many units are free when
 * counts), so the set is a multiset of free cycles: the minimum is t[head], and
 * a taken unit is replaced by its new free cycle.  That cycle is usually the
 * latest of all, so the replacement is usually O(1) (see oc_units_replace_min). */
typedef struct {
    uint64_t t[OC_MAX_UNITS];
    uint32_t n, head;
} oc_unit_set;

static inline void oc_units_reset(oc_unit_set *u, uint32_t n) {
    memset(u->t, 0, sizeof u->t);
    u->n = n ? n : 1;
    u->head = 0;
}

static inline uint64_t oc_units_min(const oc_unit_set *u) { return u->t[u->head]; }

/* The unit free soonest is busy until v: drop the minimum and insert v.  The
 * minimum's slot becomes the last position; v moves towards the head past every
 * entry later than it (ties stay ahead of v). */
static inline void oc_units_replace_min(oc_unit_set *u, uint64_t v) {
    uint32_t n = u->n, pos = u->head;
    u->head = pos + 1 == n ? 0 : pos + 1;
    for (uint32_t k = 1; k < n; k++) {
        uint32_t prev = pos == 0 ? n - 1 : pos - 1;
        if (u->t[prev] <= v) break;
        u->t[pos] = u->t[prev];
        pos = prev;
    }
    u->t[pos] = v;
}

/* One cycle of the reservation ring: the register banks and result buses taken
 * in cycle `tag` (both are zero for a cycle whose slot holds another cycle). */
typedef struct {
    uint64_t tag;
    uint64_t banks;   /* register banks taken in that cycle (bit per bank) */
    uint32_t wb;      /* result buses taken in that cycle */
} oc_slot;

typedef struct {
    /* collector units' free cycles, per sub-core and set: sub-core 0 holds every
     * unit without -gpgpu_sub_core_model, each sub-core its share with it */
    oc_unit_set cu[SM_MAX_SCHED][OC_SETS];
    oc_slot ring[OC_RING];                   /* slot c % OC_RING describes cycle c */
} opcoll;

typedef struct {
    uint8_t unit;          /* sm_unit_kind */
    uint8_t iclass;        /* its issue class (ICLASS_*) */
    uint32_t latency;      /* cycles until the result is visible */
    uint32_t initiation;   /* cycles the pipeline is busy */
} insn_timing;

void sm_insn_timing(const sm_config *c, const ptx_insn *in, insn_timing *t);

/* Decode once, use many times (speed only: every figure is what walking the
 * instruction's operands gives).  A warp's next instruction is looked at on
 * every fetch, every scoreboard change and at issue; walking its operands each
 * time (kind switch, vector elements, guard) and classifying its opcode cost
 * more than the rest of the issue path.  So the SM keeps, per instruction, its
 * timing class, flags, the scoreboard entries it reads (guard, sources, and
 * destinations for WAW), those it writes, and the register-file banks of its
 * source and destination registers, in a small direct-mapped cache keyed by
 * the instruction's address and emptied at every kernel start (the scoreboard
 * layout depends on the kernel's register counts, and a module's instructions
 * may be freed between launches).  An instruction whose lists do not fit
 * (DEC_SLOW) takes the operand walk, as before.  The cache has at least as many
 * slots as the kernel has instructions (a power of two from DEC_SLOTS_MIN to
 * DEC_SLOTS_MAX): a kernel's instructions are one array, so they then never
 * evict each other (lavamd's 1310 instructions missed on nearly every issue in
 * 256 slots). */
#define DEC_SLOTS_MIN 256       /* powers of two */
#define DEC_SLOTS_MAX 4096
#define DEC_MAX_SB 12
#define DEC_MAX_RES 6
#define DEC_MAX_SRC 8
#define DEC_MAX_WR 4
#define DEC_SLOW 0xFF
enum { DEC_LOAD = 1, DEC_ATOM = 2, DEC_DRAIN = 4, DEC_CPA_WAIT = 8, DEC_MBAR_WAIT = 16 };

typedef struct {
    const ptx_insn *in;        /* key; NULL: empty */
    insn_timing nt;
    uint8_t flags;             /* DEC_* */
    uint8_t nsb;               /* scoreboard entries read, or DEC_SLOW */
    uint8_t nres;              /* scoreboard entries written (destinations) */
    uint8_t nsrc, nwr;         /* source / destination value registers (banks) */
    uint16_t sb[DEC_MAX_SB];   /* index into the warp's scoreboard (predicates after the registers) */
    uint16_t res[DEC_MAX_RES];
    uint8_t src_bank[DEC_MAX_SRC]; /* register mod the banks a warp can use (sm.bank_mod), in operand order */
    uint8_t wr_bank[DEC_MAX_WR];
} insn_decode;

/* A decode is a function of the instruction, the SM configuration and the
 * kernel's register count, the same on every SM of a GPU running one kernel, so
 * the SMs of a GPU share one cache (sm_share_decode): one copy of a kernel's
 * decodes in the host's cache instead of one per SM (15 x 160 KB for lavamd).
 * `mask` + 1 slots in use, `cap` allocated. */
typedef struct {
    insn_decode *slot;
    uint32_t mask, cap;
} sm_decode_cache;

typedef struct {
    exec_cta *cta;         /* NULL: slot empty */
    uint16_t cta_slot;
    uint16_t index;        /* warp index in its CTA */
    uint8_t live;          /* not exited */
    uint8_t at_barrier;
    uint8_t wait_mem;      /* the next instruction reads/writes a register a load has not filled */
    uint8_t is_load;       /* the next instruction reads global/local memory */
    uint8_t throttled;     /* ... or is one the scheduler's load_permitted covers (atom) */
    uint8_t drain;         /* the next instruction needs an empty scoreboard (call/ret) */
    uint8_t cpa_wait;      /* the next instruction is cp.async.wait_group / wait_all: it issues
                              when no copy of a group below cpa_limit is in flight */
    uint8_t ncpa;          /* cp.async instructions of this warp in flight ... */
    uint16_t cpa_slot[SM_MAX_CPA]; /* ... and their memory slots */
    uint32_t cpa_committed; /* cp.async groups the warp has committed (commit_group, wait_all) */
    uint32_t cpa_limit;    /* groups [0, cpa_limit) must have landed before the wait issues */
    uint32_t cpa_issued;   /* cp.async instructions the warp has sent to memory (their sequence numbers) */
    uint8_t mbar_wait;     /* the next instruction is mbarrier.try_wait: it may suspend until
                              mbar_deadline unless a phase completes (exec_warp_mbar_suspended) */
    uint8_t nmbar;         /* queued cp.async.mbarrier.arrive operations, oldest first: each waits
                              until no copy with a sequence number below seq is in flight */
    struct { uint32_t seq, n; } mbar_q[SM_MAX_MBAR];
    uint64_t mbar_deadline;
    uint8_t ibuf_spare;    /* the instruction after `next` is in the I-buffer too */
    uint8_t imiss;         /* its fetch waits for the instruction cache: IMISS_FILL (a miss or
                              pending hit, answered by the fill) or IMISS_RETRY (refused: no
                              MSHR or miss-queue room; fetched again after the next fill/send) */
    const ptx_insn *next;  /* next instruction, NULL when none */
    insn_timing nt;        /* its pipeline and latency */
    const insn_decode *dec; /* its decode (valid while dec->in == next: the cache may reuse the slot) */
    uint64_t ibuf_at;      /* cycle it is decoded in the I-buffer */
    uint64_t ready_at;     /* max(ibuf_at, operands ready) when !wait_mem */
    uint64_t sb_max;       /* latest finite ready time written to the scoreboard */
    uint32_t mem_pending;  /* memory slots of this warp in flight */
    uint32_t *reg_ready;   /* scoreboard: cycle each value register is visible, relative to sb_base */
    uint32_t *pred_ready;  /* ... and each predicate */
} sm_warp;

typedef struct {
    exec_cta *cta;         /* NULL: free */
    uint64_t linear;       /* CTA id in the grid */
    uint32_t first_warp;
    uint32_t live_warps;   /* warps not exited */
    uint32_t inflight;     /* memory slots in flight */
    uint64_t mbar_seen;    /* exec_cta_mbar_completions when its try_wait warps were last checked */
} sm_cta;

/* A memory instruction between issue and the arrival of its last data. */
typedef struct {
    uint32_t warp;
    uint8_t used;
    uint8_t all_sent;      /* the LD/ST unit has sent every access */
    uint8_t ndst;
    uint8_t cpa;           /* a cp.async: its copies belong to group cpa_group */
    uint32_t cpa_group;
    uint32_t cpa_seq;      /* ... and is the warp's cpa_seq-th cp.async */
    uint32_t dst[SLOT_MAX_DST]; /* value registers it writes */
    uint32_t outstanding;  /* accesses not answered yet */
    uint32_t miss_lanes;   /* lanes whose access missed (latency tolerance, track_sigma) */
    uint64_t data_ready;   /* when the data of hits is visible */
    int32_t next_free;
} mem_slot;

typedef struct {
    uint64_t addr;         /* line-aligned address */
    uint16_t bytes;
    uint8_t sectors;
    uint32_t lanes;        /* lanes whose addresses fall in the line (L1D access-stream analysis) */
} ldst_access;

typedef struct {
    uint8_t busy;          /* holds an instruction with accesses to send */
    uint8_t target;        /* TARGET_* */
    uint8_t type;          /* mem_access_type */
    uint8_t atomic;
    uint8_t blocked;       /* the current access was refused and nothing has changed since:
                              retrying cannot succeed before a fill or a miss-queue pop */
    uint8_t sigma_fixed;   /* track_sigma: the instruction's sigma is taken (sigma_fix in ldst.c) */
    uint8_t sigma;         /* ... and is this */
    uint32_t warp, slot, pc;
    uint32_t naccess, next;
    uint64_t free_at;      /* shared-memory bank conflicts keep the unit busy until */
    uint64_t bank_free_at[SM_MAX_L1_BANKS]; /* L1D banks (-gpgpu_l1_banks): taken until this cycle */
    ldst_access acc[LDST_MAX_ACCESS];
} ldst_unit;

typedef struct {
    mem_req *q;
    uint32_t cap, head, len;
} req_ring;

struct sm {
    sm_config c;
    uint32_t id;
    sm_send_fn send;
    sm_cta_done_fn cta_done;
    exec_memlog *memlog;           /* sm_set_memlog: deferred global memory, or NULL */
    void *port_ctx;

    sm_kernel k;
    int kernel_active;
    /* Compact copies of each warp's issue state for the per-cycle scan (kept
     * in step with warps[] by sm_warp_sync): the scan touches only these. */
    uint64_t hot_ready[SCHED_MAX_WARPS];   /* warps[w].ready_at */
    uint64_t hot_ibuf[SCHED_MAX_WARPS];    /* warps[w].ibuf_at */
    uint8_t hot_unit[SCHED_MAX_WARPS];     /* issue class (ICLASS_*) of the next instruction */
    uint8_t hot_wait[SCHED_MAX_WARPS];     /* stall reason while waiting for an event */
    warp_mask event_mask;                  /* warps that wait for an event: barrier, load data, no instruction */
    warp_mask mem_wait_mask;               /* ... those whose hot_wait is STALL_MEMORY */
    warp_mask barrier_mask;                /* ... those whose hot_wait is STALL_BARRIER */
    warp_mask load_mask;                   /* next instruction reads global/local memory */
    warp_mask throttle_mask;               /* next instruction is subject to load_permitted */
    warp_mask unit_mask[ICLASS_COUNT];     /* next instruction's issue class is hot_unit (by bit) */
    /* Which warps have hot_ready <= the current cycle, kept by events instead of
     * a compare per warp per cycle (speed only): time_ok holds the warps whose
     * ready cycle is at most wheel_now; a warp ready later waits in the bucket
     * of its ready cycle mod TW_SLOTS when that is less than TW_SLOTS cycles
     * ahead, else in far (with far_min the earliest).  Entries may be stale (the
     * warp was synced again since): a bucket's warps are checked against
     * hot_ready when it comes due. */
    warp_mask time_ok;
    warp_mask mem_full;                    /* warps with load_slots_per_warp memory instructions in flight */
    warp_mask tw[64];
    uint64_t tw_busy;                      /* bit b: tw[b] may be non-empty */
    warp_mask far;
    uint64_t far_min, wheel_now;
    bool throttle_atomics;                 /* the scheduler's load_permitted covers atomics too */
    sm_warp warps[SCHED_MAX_WARPS];
    sm_cta ctas[SM_MAX_CTAS];
    uint32_t resident;
    uint32_t ctas_exited;  /* resident CTAs whose warps have all exited: they wait for their
                              memory operations, and a reply may retire one (sm_reply_may_retire) */
    uint8_t age_order[SCHED_MAX_WARPS];
    warp_mask age_group[SM_MAX_CTAS];      /* warp slots of each resident CTA, oldest first (sched_view.age_groups) */
    uint32_t ngroups;
    /* Latency tolerance (docs/wsmp.md), kept when c.track_sigma: per warp slot,
     * how many in-flight memory instructions each lane waits on after a miss,
     * the lanes with any, and sigma = 100 x (32 - those lanes) / 32, floored. */
    uint8_t sigma[SCHED_MAX_WARPS];
    uint32_t wait_lanes[SCHED_MAX_WARPS];
    uint8_t lane_wait[SCHED_MAX_WARPS][32];
    uint32_t nlive;
    uint64_t live_since;           /* cycle the live-warp integral was last brought up to */
    warp_mask live_mask;
    warp_mask sched_mask[SM_MAX_SCHED];
    uint64_t unit_free[UNIT_COUNT][SM_MAX_UNITS];
    opcoll oc;
    sm_decode_cache own_dec;   /* this SM's decode cache ... */
    sm_decode_cache *dec;      /* ... or the one the SMs of a GPU share (sm_share_decode): the one used */
    /* Register banks: without sub-cores register r of warp w is in bank
     * (r + w) mod banks, as in GPGPU-Sim; with -gpgpu_sub_core_model each
     * sub-core has banks / schedulers of them and r of w is in bank
     * sub * bank_mod + (r + w) mod bank_mod (Accel-Sim's register_bank). */
    uint32_t bank_mod;                     /* banks one warp's registers spread over */
    uint8_t warp_bank[SCHED_MAX_WARPS];    /* base + w mod bank_mod, base: the first bank of w's sub-core
                                              (0 without sub-cores) */
    uint8_t warp_bank_wrap[SCHED_MAX_WARPS]; /* base + bank_mod: a bank number at or above it wraps */
    uint8_t warp_sched[SCHED_MAX_WARPS];   /* w mod the scheduler count: w's scheduler */
    uint8_t warp_sub[SCHED_MAX_WARPS];     /* w's sub-core: its scheduler, or 0 without sub-cores */
    uint32_t sub_units[UNIT_COUNT];        /* units of each pipeline one sub-core owns (all without sub-cores) */
    uint64_t fetch_free;   /* first cycle the fetch unit can fetch for another warp */

    ldst_unit ldst;
    cache *l1d, *l1c, *l1t;
    cache *l1i;            /* NULL: -gpgpu_perfect_inst_const_cache */
    /* L0 instruction caches, one per sub-core (l0i.c), or all NULL; with them
     * each sub-core fetches in its own slot (sub_fetch_free) */
    cache *l0i[SM_MAX_SCHED];
    uint64_t sub_fetch_free[SM_MAX_SCHED];
    uint32_t l0_rr;        /* the sub-core whose L0 miss the L1I takes first */
    mem_req *l0_woken;     /* warps an L0 fill wakes */
    uint32_t l0_woken_cap;
    uint32_t iretry;       /* warps in IMISS_RETRY */
    l1_trace *l1_trace;    /* L1D access-stream recorder (-l1d_access_analysis), else NULL */
    req_ring bypass;
    uint32_t out_rr;
    mem_slot *slots;
    uint32_t nslots;
    int32_t free_slot;
    uint32_t *sb_store;    /* every warp's scoreboard, one block (sb_entries entries) */
    size_t sb_entries;
    uint64_t sb_base;      /* the cycle relative scoreboard time 0 stands for */
    uint64_t sb_span;      /* largest relative time kept (SB_REL_SPAN) */
    uint64_t sb_rebases;   /* rebases so far (for tests: not a statistic) */
    uint64_t sb_clamped;   /* times that did not fit even after one (never at SB_REL_SPAN) */
    mem_req *woken;
    uint32_t woken_cap;

    void *sched_state;
    uint64_t wake_at;
    /* per scheduler: no warp of it can issue before this cycle (a lower bound,
     * lowered by every event that may let one issue sooner) */
    uint64_t sched_next[SM_MAX_SCHED];
    uint64_t last_cycle;          /* last cycle sm_cycle ran (stall accounting) */
    int have_last;
    uint8_t stall_reason[SM_MAX_SCHED];
    sm_counters st;
    int faulted;
    exec_fault fault;
};

/* ---- the scoreboard's times (sm.c) ----
 *
 * Why 32 bits: a warp's scoreboard has an entry per PTX register and
 * predicate of the kernel's module, for every warp of every SM, and it is read
 * at every fetch and issue; 64-bit entries made it twice the host memory
 * traffic.  An entry is a cycle minus sb_base.  A write that would not fit
 * moves sb_base up to the current cycle first (sb_rebase): entries at or
 * after the new base keep their cycle exactly; an entry before it becomes the
 * new base.  That changes no decision: a scoreboard time is only ever
 * compared with the current cycle, which never goes back, or combined by max
 * with other times into a warp's ready cycle that is itself only compared
 * with the current cycle (a ready cycle in the past means "now" whatever its
 * value: tw_file, next_wake); and every cycle from the rebase on is at or
 * after the new base, so an old time and the new base are both "past" at
 * every later read.  Until the first rebase (2^32 cycles into a kernel's run)
 * the times are those of 64-bit entries bit for bit.
 *
 * The bound and the rule: a relative time is at most SB_REL_SPAN = 2^32 - 2
 * (all ones is SB_REL_PENDING).  Before ready cycle t is written at cycle now,
 * if t - sb_base > SB_REL_SPAN the base moves to now; t - now is then a
 * latency (a writeback or a memory round trip: thousands of cycles at most),
 * far below 2^32 - 2, so t fits and no relative time ever overflows.  Should a
 * latency ever reach 2^32 - 2 cycles the time is clamped and sb_clamped
 * counts it (test_scoreboard_rebase_boundary drives every case by hand). */
void sb_rebase(sm *s, uint64_t now);

/* Relative form of ready cycle t (> now, or now + 1 at most in the past)
 * written at cycle now. */
static inline uint32_t sb_rel(sm *s, uint64_t t, uint64_t now) {
    if (t - s->sb_base > s->sb_span) sb_rebase(s, now);
    if (t - s->sb_base > s->sb_span) { /* never at SB_REL_SPAN: a wait of 2^32 cycles */
        s->sb_clamped++;
        t = s->sb_base + s->sb_span;
    }
    return (uint32_t)(t - s->sb_base);
}

/* Absolute cycle of a relative scoreboard time (SB_PENDING for a pending load). */
static inline uint64_t sb_abs(const sm *s, uint32_t r) { return r == SB_REL_PENDING ? SB_PENDING : s->sb_base + r; }

/* ---- sm.c ---- */
/* Something changed (a reply, a freed slot, an idle LD/ST unit): look at every
 * scheduler's warps again at cycle `now`. */
static inline void sm_poke(sm *s, uint64_t now) {
    if (now < s->wake_at) s->wake_at = now;
    for (uint32_t i = 0; i < s->c.num_sched; i++)
        if (now < s->sched_next[i]) s->sched_next[i] = now;
}
/* Warp w's count of memory instructions in flight changed: keep mem_full. */
static inline void sm_mem_pending_set(sm *s, uint32_t w, uint32_t n) {
    warp_mask bit = (warp_mask)1 << w;
    s->warps[w].mem_pending = n;
    s->mem_full = n >= s->c.load_slots_per_warp ? s->mem_full | bit : s->mem_full & ~bit;
}
/* Re-read warp w's next instruction after it changed (issue, barrier release). */
void sm_warp_refresh(sm *s, uint32_t w, uint64_t ibuf_at);
/* Warp w issued `cur` (with `spare`: the instruction after it was in its
 * I-buffer): read its next instruction and when it is decoded. */
void sm_warp_fetch(sm *s, uint32_t w, const ptx_insn *cur, int spare, uint64_t now);
/* Recompute when w's next instruction can issue (its scoreboard changed). */
void sm_warp_recheck(sm *s, uint32_t w);
/* A cp.async of warp w returned: perform the cp.async.mbarrier.arrive operations
 * that waited for it (and wake the CTA's try_wait warps if a phase completed). */
void sm_mbar_progress(sm *s, uint32_t w, uint64_t now);
/* Copy warp w's issue state into the compact arrays. */
void sm_warp_sync(sm *s, uint32_t w);
/* A memory slot finished: its CTA may retire. */
void sm_cta_check_retire(sm *s, uint32_t cta_slot, uint64_t now);

/* ---- opcoll.c ---- */
void oc_kernel_begin(sm *s);
/* The sub-core whose collector units and pipelines scheduler `sched` uses. */
static inline uint32_t oc_sub(const sm *s, uint32_t sched) { return s->c.sub_core ? sched : 0; }
/* First cycle a collector unit of sub-core `sub` for an instruction of issue
 * class `set` (ICLASS_SP or ICLASS_SFU) is free (an instruction issued at t
 * needs one free at t+1). */
static inline uint64_t oc_cu_free_at(const sm *s, uint32_t sub, uint8_t set) { return oc_units_min(&s->oc.cu[sub][set]); }
/* An ALU instruction of warp w issued at `now`: reserve its collector unit,
 * register banks, function unit and result bus; returns the cycle its result
 * is visible. */
uint64_t oc_issue(sm *s, uint32_t w, const ptx_insn *in, const insn_decode *d, const insn_timing *t, uint64_t now);

/* ---- sm.c: the decode cache ---- */
void sm_decode_fill(sm *s, insn_decode *d, const ptx_insn *in);
static inline const insn_decode *sm_decode(sm *s, const ptx_insn *in) {
    insn_decode *d = &s->dec->slot[((uintptr_t)in / sizeof *in) & s->dec->mask];
    if (d->in != in) sm_decode_fill(s, d, in);
    return d;
}

enum { IMISS_NONE = 0, IMISS_FILL = 1, IMISS_RETRY = 2 };
/* The instruction cache answered warp w's fetch (fill) or has room again
 * (send): fetch for the warps that waited. */
void sm_ifetch_filled(sm *s, uint32_t w, uint64_t now);
void sm_ifetch_retry(sm *s, uint64_t now);

/* ---- l0i.c: L0 instruction caches ---- */
int l0i_init(sm *s, char *err, size_t errlen);
void l0i_free(sm *s);
/* Move at most one L0 miss into the L1I (its one access a cycle). */
void l0i_cycle(sm *s, uint64_t now);
/* An L0 miss the L1I kept waiting was answered (r: the L1I's woken request). */
void l0i_filled(sm *s, const mem_req *r, uint64_t now);
/* Some L0 has a miss for the L1I. */
int l0i_queued(const sm *s);
static inline int l0i_has_work(const sm *s) { return s->l0i[0] && l0i_queued(s); }

/* ---- ldst.c ---- */
int ldst_init(sm *s, char *err, size_t errlen);
void ldst_free(sm *s);
/* Can the LD/ST unit take a memory instruction of warp w now? */
int ldst_can_accept(const sm *s, uint32_t w, uint64_t now);
/* The warp's memory instruction executed (info): set up its accesses and
 * scoreboard entries. */
void ldst_issue(sm *s, uint32_t w, const exec_step_info *info, uint64_t now);
/* Bank-conflict degree of a shared-memory warp access (ldst.c says how it counts). */
uint32_t ldst_bank_degree(uint32_t smem_banks, uint32_t bank_width, const exec_step_info *info);
/* Send one access to the caches; move one request towards the interconnect. */
void ldst_cycle(sm *s, uint64_t now);
/* Work the LD/ST side has for the next cycle (accesses or requests to send). */
int ldst_has_work(const sm *s);
/* Earliest cycle after now at which the unit has something to do (UINT64_MAX: none). */
uint64_t ldst_next_work(const sm *s, uint64_t now);
int32_t ldst_slot_alloc(sm *s, uint32_t w);
void ldst_kernel_begin(sm *s);

#endif
