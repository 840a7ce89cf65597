/* Warp schedulers: one plug-in per file behind warp_sched_ops, chosen by name.
 *
 * An SM has N issue slots ("schedulers"); scheduler s owns the SM's warp slots w
 * with w % N == s.  One plug-in instance serves the whole SM (policies such as
 * SWL and CCWS reason about every warp of the SM), and is asked once per cycle per
 * scheduler that has at least one warp able to issue:
 *
 *     warp = ops->pick(state, &view);
 *
 * The pipeline has already decided which warps CAN issue this cycle (instruction
 * fetched, operands ready in the scoreboard, not at a barrier, target pipeline
 * free); the policy only decides which of them DOES.  The pipeline never looks at
 * a policy's name.  Hooks other than create/destroy/pick may be NULL.
 *
 * Warp slots are numbered 0..max_warps-1 (at most SCHED_MAX_WARPS).  The age of a
 * warp is the order in which the SM received it: the view lists live warps oldest
 * first (warps of one CTA arrive together and are listed by their warp index in
 * the CTA, so "ties by lower warp id" holds).
 */
#ifndef LOCSIM_SCHED_H
#define LOCSIM_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

#define SCHED_MAX_WARPS 64

typedef uint64_t warp_mask;  /* bit w = warp slot w */

/* Parameters of one plug-in instance (one SM). */
typedef struct {
    uint32_t sm_id;
    uint32_t num_sched;      /* N issue slots per SM */
    uint32_t max_warps;      /* warp slots of the SM (<= SCHED_MAX_WARPS) */
    const char *args;        /* text after "<name>:" in -gpgpu_scheduler ("" if none) */
    const void *cfg;         /* the locsim_config, for a policy's own options (may be NULL) */
} sched_params;

/* What the pipeline knows this cycle, for one scheduler. */
typedef struct {
    uint64_t now;            /* core cycle */
    uint32_t sched_id;       /* which of the N issue slots is choosing */
    warp_mask ready;         /* this scheduler's warps that can issue now (non-empty) */
    warp_mask owned;         /* this scheduler's live warps (ready or not) */
    warp_mask live;          /* every live warp of the SM (all schedulers) */
    warp_mask next_is_load;  /* warps whose next instruction reads global/local memory */
    warp_mask at_barrier;    /* live warps of the SM waiting at a CTA barrier */
    const uint8_t *age_order;/* live warps of the SM, oldest first */
    uint32_t nlive;          /* entries in age_order (= popcount(live)) */
    /* The same order by CTA (optional, NULL if not given): the warp slots of
     * each resident CTA, oldest CTA first; within a CTA, age is slot order.
     * sched_oldest_in() uses it to test one mask per CTA instead of one warp at
     * a time (same answer). */
    const warp_mask *age_groups;
    uint32_t ngroups;
    /* The SM's L1D locality signal, asked on demand (a policy that does not use
     * it costs nothing): l1d_locality(l1d) is 1 when the L1D's replacement
     * policy currently sees locality, 0 when it does not, -1 when the policy
     * has no such signal (cache_policy_ops.locality; e.g. lpc's LIS). */
    int (*l1d_locality)(const void *l1d);
    const void *l1d;
    /* Latency tolerance per warp slot, 0..100 (docs/wsmp.md): 100 x the share of
     * the warp's 32 lanes not waiting on a memory miss.  NULL unless a plug-in
     * asked for it (warp_sched_ops.uses_sigma, dram_sched_ops.uses_sigma). */
    const uint8_t *sigma;
} sched_view;

/* A statistic a policy reports (see warp_sched_ops.stats): a counter that
 * report() emits under `name` (num == NULL), or the ratio scale x num / den of
 * two of them.  Counters are cumulative per SM; the timing model sums them over
 * the SMs and takes per-kernel differences. */
typedef struct {
    const char *name;
    const char *num, *den;   /* NULL for a counter */
    double scale;
    const char *help;
} sched_stat_def;

typedef struct warp_sched_ops {
    const char *name;        /* as written in -gpgpu_scheduler */
    const char *help;        /* one line: syntax and meaning */
    /* Parse p->args and build the per-SM state; NULL with a message in err on a
     * bad argument string or out of memory. */
    void *(*create)(const sched_params *p, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* Return a warp from v->ready (never one outside it), or -1 to issue nothing. */
    int (*pick)(void *st, const sched_view *v);

    /* ---- optional hooks ---- */
    /* Warp slot w of the SM was (re)filled by a new CTA / its warp exited. */
    void (*warp_start)(void *st, uint32_t w, uint64_t now);
    void (*warp_exit)(void *st, uint32_t w, uint64_t now);
    /* Warp w issued instruction in (after pick, and also for issues a policy did
     * not pick itself, e.g. when the pipeline issues a second instruction). */
    void (*issued)(void *st, uint32_t w, const ptx_insn *in, uint64_t now);
    /* Once per core cycle in which the SM is awake, before any pick.  skipped is
     * the number of idle cycles jumped over since the previous call (policies
     * with time-decaying state apply them at once). */
    void (*cycle)(void *st, uint64_t now, uint64_t skipped);
    /* Warps that may issue a global/local load now (CCWS throttling); NULL means
     * all.  The pipeline removes the others from ready when their next
     * instruction is a load, before pick. */
    warp_mask (*load_permitted)(void *st, uint64_t now);
    /* Does load_permitted also hold back global/local atomics (atom: CCWS, whose
     * authors' code treats atom as a load)?  Asked once per SM after create;
     * NULL: loads only. */
    bool (*throttles_atomics)(void *st);
    /* L1D events with the warp that caused them: a read miss by warp w on
     * line_addr (address / line size), `merged` when it was a pending hit (merged
     * into the MSHR of a line already in flight) rather than a miss that
     * allocated; the eviction of a line that warp `owner` had allocated; a global
     * write by warp w to line_addr (any outcome, also a refused attempt). */
    void (*l1_miss)(void *st, uint32_t w, uint64_t line_addr, bool merged, uint64_t now);
    void (*l1_evict)(void *st, uint32_t owner, uint64_t line_addr, uint64_t now);
    /* The victim of an L1D miss as GPGPU-Sim 3.x's tag probe names it (mem/cache.h
     * cache_victim_hook): at every read or write miss on an absent line, the line
     * its way last held (an invalidated one too) and the warp that last missed or
     * merged on that way. */
    void (*l1_miss_victim)(void *st, uint32_t owner, uint64_t line_addr, uint64_t now);
    void (*l1_global_write)(void *st, uint32_t w, uint64_t line_addr, uint64_t now);
    /* Every L1D access by warp w the cache answered with a hit or a miss (reads
     * and writes; not pending hits, not refused attempts).  NULL: not wanted. */
    void (*l1_access)(void *st, uint32_t w, bool hit, uint64_t now);
    /* Write the policy's own statistics as "name value" pairs through emit. */
    void (*report)(void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx);
    /* The statistics report() emits (and ratios of them), ending with name == NULL;
     * the timing model defines them in its registry.  NULL: none. */
    const sched_stat_def *stats;
    /* The policy reads sched_view.sigma: the SM keeps the latency tolerance. */
    bool uses_sigma;
} warp_sched_ops;

/* ---- registry (registry.c) ---- */
/* The ops of a -gpgpu_scheduler string ("gto", "two_level_active:2:gto:gto",
 * "warp_limiting:gto:8"...): the name is the text up to the first ':'.  *args is
 * set to the rest (never NULL).  NULL for an unknown name. */
const warp_sched_ops *sched_find(const char *spec, const char **args);
/* The i-th registered scheduler, NULL past the end (for help texts). */
const warp_sched_ops *sched_at(uint32_t i);

/* ---- helpers shared by the policies (policy_util.c) ---- */
static inline int sched_mask_has(warp_mask m, uint32_t w) { return (int)((m >> w) & 1u); }
/* The first warp of age_order that is in m, or -1. */
int sched_oldest_in(const sched_view *v, warp_mask m);
/* Round-robin: the first warp of m after `last` in slot order (wrapping), or -1. */
int sched_next_after(warp_mask m, int last);
/* Greedy-then-oldest: `last` while it is in m, else the oldest warp of m, or -1. */
int sched_greedy_in(const sched_view *v, warp_mask m, int last);
/* Warp slot w has exited: clear it from the n per-scheduler "last issued" slots, so
 * a new warp in that slot does not inherit the position. */
void sched_forget_warp(int *last, uint32_t n, uint32_t w);
/* Split "a:b:c" into at most max fields (copied into buf); returns the count. */
int sched_split_args(const char *args, char *buf, size_t bufsz, char **fields, int max);

#endif
