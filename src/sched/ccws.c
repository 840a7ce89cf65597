/* CCWS: cache-conscious wavefront scheduling (Rogers, O'Connor, Aamodt, MICRO
 * 2012, section 3.3; DESIGN.md 5.2; docs/ccws.md).
 *
 *   -gpgpu_scheduler ccws   -ccws_k_throttle 8 -ccws_vta_entries 16 -ccws_vta_assoc 8 -ccws_base_score 100
 *
 * Where the paper is silent or the authors' released code (tgrogers/ccws-2012:
 * scheduling-point-system.cc, gpu-cache.cc) does something else, the default
 * follows the code and an option gives locsim's earlier rule (docs/ccws.md
 * lists which line of the code each follows): -ccws_decay_cycles,
 * -ccws_llds_add_base, -ccws_resident_counts, -ccws_admit_before,
 * -ccws_ties_by_slot, -ccws_score_from_first_access, -ccws_recap,
 * -ccws_vta_fifo, -ccws_vta_keep_on_hit, -ccws_throttle_atomics,
 * -ccws_vta_write_invalidate, -ccws_vta_probe_pending, -ccws_vta_probe_victims.
 *
 * Lost intra-warp locality detector.  Each SM has a victim tag array (VTA)
 * split into one small set-associative tag store per warp slot
 * (-ccws_vta_entries tags, -ccws_vta_assoc ways; set = line address mod sets;
 * FIFO by allocation, or LRU).  Authors' code (l1_miss_victim): at every L1D
 * miss on an absent line, read or write, the way the miss takes (or, a write
 * allocating nothing, would take) gives up the tag it last held, an invalidated
 * one too, to the partition of the last warp that missed or merged on that way.
 * Other rule (-ccws_vta_probe_victims 0; l1_evict): the L1D remembers in every
 * line the warp that reserved it, and when the line is evicted its tag goes into
 * THAT warp's partition.  On an L1D read miss (with the authors' code, also a pending hit:
 * a miss merged into an MSHR) only the requesting warp's partition is probed
 * (l1_miss); a hit there is a "VTA hit": that warp missed on a line it had
 * itself brought in and lost to other warps' accesses.  A global write removes
 * its line from every warp's partition (l1_global_write; authors' code).
 *
 * Lost-locality scores.  Every live warp has a score.  Authors' code: a new
 * warp scores 0 until its first L1D hit or miss (reads or writes; not a pending
 * hit), which makes it the base (-ccws_base_score); other rule: the base from
 * warp start.  A score above the base decays by 1 every -ccws_decay_cycles core
 * cycles down to the base.  Authors' code (-ccws_recap 1): a score above the
 * base is also capped to the current X (below) whenever it is looked at (every
 * cycle the SM is awake, and at each L1D hit or miss of its warp); a cap below
 * the base holds the score there, without decay, until the warp's next L1D hit
 * or miss raises it to the base.  On a VTA hit of warp w
 *     X = (VTA hits / warp instructions issued) x K_throttle x cutoff
 * (hits and instructions of the warps resident now, or of the SM since the
 * device was created; the hit just seen included), cutoff = live warps x base.
 * The authors' code sets the score to X (at least the base; it may lower a
 * score); the other rule raises it to base + X and never lowers it.
 *
 * Issue rule.  The live warps are sorted by score, largest first, and their
 * scores summed in that order; equal scores go to the lower warp slot (authors'
 * code; -ccws_ties_by_slot 0: to the older warp).  Authors' rule: a warp may
 * issue loads (global/local reads: the pipeline asks load_permitted) while the
 * sum of the scores AHEAD of it is below the cutoff; other rule
 * (-ccws_admit_before 0): while the sum including its own score is at most the
 * cutoff.  The first warp of the order is always allowed.  While no score is
 * above the base every warp may load.  Global/local atom is throttled like a
 * load (authors' code; -ccws_throttle_atomics 0: never).  Stores, red,
 * shared-memory and ALU instructions are never throttled.  Among the warps that may issue, priority is
 * greedy-then-oldest (as gto.c).
 *
 * Scores are kept lazily: a warp's score at cycle t is
 * max(base, peak - (t - peak_at) / decay), so nothing runs per cycle while no
 * warp is throttled.
 *
 * Statistics (report): VTA probes, hits and inserts; SM cycles in which the
 * permission was evaluated (cycles the SM was awake), those in which at least
 * one live warp was denied loads, and the sums of permitted and live warps over
 * them (ccws_avg_load_warps = permitted warps per evaluated cycle).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/config.h"

#define CCWS_DEFAULT_K 8
#define CCWS_DEFAULT_ENTRIES 16
#define CCWS_DEFAULT_ASSOC 8
#define CCWS_DEFAULT_BASE 100
#define CCWS_DEFAULT_DECAY 4      /* the authors' 325 MHz core cycle in our 1300 MHz cycles */
#define CCWS_MAX_SCHED 8          /* issue slots per SM (the SM allows at most 8) */

typedef struct {
    uint64_t tag;          /* line address + 1; 0 = empty */
    uint64_t stamp;        /* insertion order (LRU victim: the smallest) */
} vta_entry;

typedef struct {
    uint32_t k_throttle, entries, assoc, base, decay;
    bool add_base, resident_counts, admit_before, vta_fifo, keep_on_hit;
    bool throttle_atomics, write_invalidate, probe_pending;
    bool ties_by_slot, first_access, recap, probe_victims;
} ccws_options;

typedef struct {
    uint32_t num_sched, max_warps;
    uint32_t k_throttle, entries, assoc, sets, base, decay;
    bool add_base, resident_counts, admit_before, vta_fifo, keep_on_hit;
    bool throttle_atomics, write_invalidate, probe_pending;
    bool ties_by_slot, first_access, recap, probe_victims;

    vta_entry *vta;        /* [max_warps][entries], set-major within a warp */
    uint64_t vta_clock;

    /* per warp slot */
    uint64_t peak[SCHED_MAX_WARPS];     /* score at peak_at */
    uint64_t peak_at[SCHED_MAX_WARPS];
    warp_mask held;        /* score is peak, at or below the base, not decaying, until the warp's next
                              L1D hit or miss makes it the base (0 of a new warp, a cap below the base) */
    uint64_t start_seq[SCHED_MAX_WARPS];/* arrival order: ties in the sort go to the older */
    uint64_t seq;
    warp_mask live;
    uint32_t nlive;
    uint64_t all_base_at;  /* from this cycle on every score is back at the base */

    /* LLDS inputs: this SM's since creation, or the resident warps' */
    uint64_t insns, vta_hits;                 /* since creation (vta_hits: the statistic too) */
    uint64_t res_insns, res_hits;             /* of the warps resident now */
    uint64_t warp_insns[SCHED_MAX_WARPS], warp_hits[SCHED_MAX_WARPS];

    /* statistics */
    uint64_t probes, inserts, write_invalidations;
    uint64_t eval_cycles, throttled_cycles, load_warps_sum, live_warps_sum;

    int last[CCWS_MAX_SCHED];       /* GTO: per scheduler, the greedy warp */
} ccws_state;

/* ---- options ---- */

static ccws_options read_options(const sched_params *p) {
    /* unit tests may build the plug-in without a configuration: the defaults */
    ccws_options o = {CCWS_DEFAULT_K, CCWS_DEFAULT_ENTRIES, CCWS_DEFAULT_ASSOC, CCWS_DEFAULT_BASE, CCWS_DEFAULT_DECAY,
                      false, true, true, true, true, true, true, true, true, true, true, true};
    const sim_config *c = p->cfg;
    if (!c) return o;
    o.k_throttle = c->ccws_k_throttle;
    o.entries = c->ccws_vta_entries;
    o.assoc = c->ccws_vta_assoc;
    o.base = c->ccws_base_score;
    o.decay = c->ccws_decay_cycles;
    o.add_base = c->ccws_llds_add_base;
    o.resident_counts = c->ccws_resident_counts;
    o.admit_before = c->ccws_admit_before;
    o.vta_fifo = c->ccws_vta_fifo;
    o.keep_on_hit = c->ccws_vta_keep_on_hit;
    o.throttle_atomics = c->ccws_throttle_atomics;
    o.write_invalidate = c->ccws_vta_write_invalidate;
    o.probe_pending = c->ccws_vta_probe_pending;
    o.ties_by_slot = c->ccws_ties_by_slot;
    o.first_access = c->ccws_score_from_first_access;
    o.recap = c->ccws_recap;
    o.probe_victims = c->ccws_vta_probe_victims;
    return o;
}

static void *ccws_create(const sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen,
                 "scheduler 'ccws' takes no arguments (got ':%s'); use the -ccws_* options",
                 p->args);
        return NULL;
    }
    if (p->num_sched > CCWS_MAX_SCHED || p->max_warps > SCHED_MAX_WARPS) {
        snprintf(err, errlen, "scheduler 'ccws': at most %d schedulers and %d warps per SM", CCWS_MAX_SCHED,
                 SCHED_MAX_WARPS);
        return NULL;
    }
    ccws_options o = read_options(p);
    if (o.entries == 0 || o.assoc == 0 || o.assoc > o.entries || o.entries % o.assoc) {
        snprintf(err, errlen,
                 "scheduler 'ccws': -ccws_vta_assoc (%u) must divide -ccws_vta_entries (%u) "
                 "(use -ccws_vta_assoc %u for a fully associative VTA)",
                 o.assoc, o.entries, o.entries);
        return NULL;
    }
    if (o.decay == 0) {
        snprintf(err, errlen, "scheduler 'ccws': -ccws_decay_cycles must be at least 1");
        return NULL;
    }
    ccws_state *s = calloc(1, sizeof *s);
    if (s) s->vta = calloc((size_t)p->max_warps * o.entries, sizeof *s->vta);
    if (!s || !s->vta) {
        if (s) free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->num_sched = p->num_sched;
    s->max_warps = p->max_warps;
    s->k_throttle = o.k_throttle;
    s->entries = o.entries;
    s->assoc = o.assoc;
    s->sets = o.entries / o.assoc;
    s->base = o.base;
    s->decay = o.decay;
    s->add_base = o.add_base;
    s->resident_counts = o.resident_counts;
    s->admit_before = o.admit_before;
    s->vta_fifo = o.vta_fifo;
    s->keep_on_hit = o.keep_on_hit;
    s->throttle_atomics = o.throttle_atomics;
    s->write_invalidate = o.write_invalidate;
    s->probe_pending = o.probe_pending;
    s->ties_by_slot = o.ties_by_slot;
    s->first_access = o.first_access;
    s->recap = o.recap;
    s->probe_victims = o.probe_victims;
    for (uint32_t i = 0; i < CCWS_MAX_SCHED; i++) s->last[i] = -1;
    return s;
}

static void ccws_destroy(void *st) {
    ccws_state *s = st;
    if (!s) return;
    free(s->vta);
    free(s);
}

/* ---- victim tag array ---- */

static vta_entry *vta_set(ccws_state *s, uint32_t w, uint64_t line_addr) {
    uint32_t set = (uint32_t)(line_addr % s->sets);
    return &s->vta[(size_t)w * s->entries + (size_t)set * s->assoc];
}

static void vta_insert(ccws_state *s, uint32_t w, uint64_t line_addr) {
    vta_entry *set = vta_set(s, w, line_addr);
    uint64_t tag = line_addr + 1;
    vta_entry *victim = &set[0];
    for (uint32_t i = 0; i < s->assoc; i++) {
        if (set[i].tag == tag) {
            if (s->vta_fifo) return; /* FIFO: already there, keeps its place (authors' code) */
            victim = &set[i];        /* LRU: refresh */
            break;
        }
        if (victim->tag && (!set[i].tag || set[i].stamp < victim->stamp)) victim = &set[i];
    }
    victim->tag = tag;
    victim->stamp = ++s->vta_clock;
    s->inserts++;
}

/* Probe w's partition; a hit invalidates the entry unless it is kept. */
static int vta_probe(ccws_state *s, uint32_t w, uint64_t line_addr) {
    vta_entry *set = vta_set(s, w, line_addr);
    uint64_t tag = line_addr + 1;
    s->probes++;
    for (uint32_t i = 0; i < s->assoc; i++)
        if (set[i].tag == tag) {
            if (!s->keep_on_hit) set[i].tag = 0;
            return 1;
        }
    return 0;
}

/* A global write: the line leaves every warp's partition (authors' code: the
 * victim tags of every warp are probed and a hit invalidated).  Slots without a
 * live warp are emptied when a warp starts, so only live ones are visited. */
static void vta_invalidate_all(ccws_state *s, uint64_t line_addr) {
    uint64_t tag = line_addr + 1;
    for (warp_mask m = s->live; m; m &= m - 1) {
        vta_entry *set = vta_set(s, (uint32_t)__builtin_ctzll(m), line_addr);
        for (uint32_t i = 0; i < s->assoc; i++)
            if (set[i].tag == tag) {
                set[i].tag = 0;
                s->write_invalidations++;
            }
    }
}

/* ---- scores ---- */

static uint64_t score_at(const ccws_state *s, uint32_t w, uint64_t now) {
    if (sched_mask_has(s->held, w)) return s->peak[w];
    uint64_t elapsed = (now > s->peak_at[w] ? now - s->peak_at[w] : 0) / s->decay;
    uint64_t p = s->peak[w];
    return p > s->base + elapsed ? p - elapsed : s->base;
}

static uint64_t cutoff(const ccws_state *s) { return (uint64_t)s->nlive * s->base; }

/* X = hits / instructions x K x cutoff, in integers (the authors' code computes
 * it in float and truncates). */
static uint64_t lost_locality(const ccws_state *s) {
    uint64_t hits = s->resident_counts ? s->res_hits : s->vta_hits;
    uint64_t insns = s->resident_counts ? s->res_insns : s->insns;
    return hits * s->k_throttle * cutoff(s) / (insns ? insns : 1);
}

/* Authors' code: a score above the base is capped to the current X whenever it
 * is looked at; a cap at or below the base holds it there.  x: lost_locality(). */
static void recap(ccws_state *s, uint32_t w, uint64_t x, uint64_t now) {
    if (sched_mask_has(s->held, w)) return;
    uint64_t sc = score_at(s, w, now);
    if (sc <= s->base || sc <= x) return;
    s->peak[w] = x;
    s->peak_at[w] = now;
    if (x <= s->base) s->held |= (warp_mask)1 << w;
}

static void on_vta_hit(ccws_state *s, uint32_t w, uint64_t now) {
    s->vta_hits++;
    if (!sched_mask_has(s->live, w)) return;
    s->warp_hits[w]++;
    s->res_hits++;
    uint64_t x = lost_locality(s), target;
    if (s->add_base) {
        target = s->base + x;
        if (target <= score_at(s, w, now)) return; /* never lowers a score */
    } else {
        /* the authors' code adds X and then caps the score at X: it becomes X,
         * and a score at or below the base is the base */
        target = x > s->base ? x : s->base;
    }
    s->held &= ~((warp_mask)1 << w);
    s->peak[w] = target;
    s->peak_at[w] = now;
    uint64_t back_at = now + (target - s->base) * s->decay;
    if (back_at > s->all_base_at) s->all_base_at = back_at;
}

/* ---- plug-in hooks ---- */

static void ccws_warp_start(void *st, uint32_t w, uint64_t now) {
    ccws_state *s = st;
    if (w >= s->max_warps) return;
    /* a new warp in the slot: no lost locality yet, no victim tags */
    memset(&s->vta[(size_t)w * s->entries], 0, s->entries * sizeof *s->vta);
    s->peak[w] = s->first_access ? 0 : s->base;   /* authors' code: 0 until its first L1D hit or miss */
    s->peak_at[w] = now;
    if (s->first_access) s->held |= (warp_mask)1 << w;
    else s->held &= ~((warp_mask)1 << w);
    s->start_seq[w] = ++s->seq;
    if (!sched_mask_has(s->live, w)) s->nlive++;
    s->live |= (warp_mask)1 << w;
}

static void ccws_warp_exit(void *st, uint32_t w, uint64_t now) {
    (void)now;
    ccws_state *s = st;
    if (w >= s->max_warps) return;
    /* its hits and instructions leave the resident counts with it */
    s->res_insns -= s->warp_insns[w];
    s->res_hits -= s->warp_hits[w];
    s->warp_insns[w] = s->warp_hits[w] = 0;
    if (sched_mask_has(s->live, w)) s->nlive--;
    s->live &= ~((warp_mask)1 << w);
    sched_forget_warp(s->last, s->num_sched, w);
}

static void ccws_issued(void *st, uint32_t w, const ptx_insn *in, uint64_t now) {
    (void)in;
    (void)now;
    ccws_state *s = st;
    s->insns++;
    if (w < s->max_warps && sched_mask_has(s->live, w)) {
        s->warp_insns[w]++;
        s->res_insns++;
    }
}

static void ccws_l1_miss(void *st, uint32_t w, uint64_t line_addr, bool merged, uint64_t now) {
    ccws_state *s = st;
    if (w >= s->max_warps || (merged && !s->probe_pending)) return;
    if (vta_probe(s, w, line_addr)) on_vta_hit(s, w, now);
}

static void ccws_l1_global_write(void *st, uint32_t w, uint64_t line_addr, uint64_t now) {
    (void)w;
    (void)now;
    ccws_state *s = st;
    if (s->write_invalidate) vta_invalidate_all(s, line_addr);
}

/* Authors' code (cache_access -> increment_score): a hit or miss raises a held
 * score (0 of a new warp, a cap below the base) to the base, and re-caps a
 * score above it. */
static void ccws_l1_access(void *st, uint32_t w, bool hit, uint64_t now) {
    (void)hit;
    ccws_state *s = st;
    if (w >= s->max_warps || !sched_mask_has(s->live, w)) return;
    if (sched_mask_has(s->held, w)) {
        s->held &= ~((warp_mask)1 << w);
        s->peak[w] = s->base;
        s->peak_at[w] = now;
    } else if (s->recap) {
        recap(s, w, lost_locality(s), now);
    }
}

static bool ccws_throttles_atomics(void *st) { return ((const ccws_state *)st)->throttle_atomics; }

/* The tags that enter the VTA: genuine evictions, owned by the warp that
 * allocated the line (-ccws_vta_probe_victims 0), or the victim way of every
 * miss as the authors' GPGPU-Sim 3.0 probe names it, owned by the last warp to
 * miss or merge on that way (1; gpu-cache.cc, high_locality_protected_cache::
 * access).  Both hooks are always set; the option picks the one that inserts. */
static void ccws_l1_evict(void *st, uint32_t owner, uint64_t line_addr, uint64_t now) {
    (void)now;
    ccws_state *s = st;
    if (!s->probe_victims && owner < s->max_warps) vta_insert(s, owner, line_addr);
}

static void ccws_l1_miss_victim(void *st, uint32_t owner, uint64_t line_addr, uint64_t now) {
    (void)now;
    ccws_state *s = st;
    if (s->probe_victims && owner < s->max_warps) vta_insert(s, owner, line_addr);
}

/* Ties in the score order: the lower slot (authors' code) or the older warp.
 * Slots are visited in increasing order, so a lower slot never moves behind. */
static int goes_before(const ccws_state *s, uint32_t w, uint32_t other) {
    return s->ties_by_slot ? 0 : s->start_seq[other] > s->start_seq[w];
}

/* Live warps sorted by score (largest first; ties: goes_before).  n <= 64. */
static uint32_t sort_by_score(const ccws_state *s, uint64_t now, uint8_t *order, uint64_t *score) {
    uint32_t n = 0;
    for (warp_mask m = s->live; m; m &= m - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        uint64_t sc = score_at(s, w, now);
        uint32_t j = n++;
        /* insertion sort */
        while (j > 0 && (score[j - 1] < sc || (score[j - 1] == sc && goes_before(s, w, order[j - 1])))) {
            order[j] = order[j - 1];
            score[j] = score[j - 1];
            j--;
        }
        order[j] = (uint8_t)w;
        score[j] = sc;
    }
    return n;
}

static warp_mask ccws_load_permitted(void *st, uint64_t now) {
    ccws_state *s = st;
    warp_mask permitted = ~s->live; /* bits of empty slots do not matter */
    if (!s->nlive) return permitted;
    s->eval_cycles++;
    s->live_warps_sum += s->nlive;
    if (now >= s->all_base_at) { /* every score at the base: the sum equals the cutoff */
        s->load_warps_sum += s->nlive;
        return ~(warp_mask)0;
    }
    if (s->recap) {   /* the authors' cycle(): every score above the base re-capped */
        uint64_t x = lost_locality(s);
        for (warp_mask m = s->live; m; m &= m - 1) recap(s, (uint32_t)__builtin_ctzll(m), x, now);
    }
    uint8_t order[SCHED_MAX_WARPS];
    uint64_t score[SCHED_MAX_WARPS], sum = 0, limit = cutoff(s);
    uint32_t n = sort_by_score(s, now, order, score), allowed = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t before = sum;
        sum += score[i];
        if (i == 0 || (s->admit_before ? before < limit : sum <= limit)) {
            permitted |= (warp_mask)1 << order[i];
            allowed++;
        }
    }
    s->load_warps_sum += allowed;
    if (allowed < n) s->throttled_cycles++;
    return permitted;
}

static int ccws_pick(void *st, const sched_view *v) {
    ccws_state *s = st;
    int w = sched_greedy_in(v, v->ready, s->last[v->sched_id]);
    s->last[v->sched_id] = w;
    return w;
}

static void ccws_report(void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const ccws_state *s = st;
    emit(ctx, "ccws_vta_probes", (double)s->probes);
    emit(ctx, "ccws_vta_hits", (double)s->vta_hits);
    emit(ctx, "ccws_vta_inserts", (double)s->inserts);
    emit(ctx, "ccws_vta_write_invalidations", (double)s->write_invalidations);
    emit(ctx, "ccws_eval_cycles", (double)s->eval_cycles);
    emit(ctx, "ccws_throttled_cycles", (double)s->throttled_cycles);
    emit(ctx, "ccws_load_warps_sum", (double)s->load_warps_sum);
    emit(ctx, "ccws_live_warps_sum", (double)s->live_warps_sum);
}

static const sched_stat_def ccws_stats[] = {
    {"ccws_vta_probes", NULL, NULL, 0,
     "L1D read misses (pending hits too with -ccws_vta_probe_pending 1) that probed the warp's VTA partition"},
    {"ccws_vta_hits", NULL, NULL, 0, "VTA hits: a warp missed on a line it had brought in and lost (lost locality)"},
    {"ccws_vta_inserts", NULL, NULL, 0, "tags put into a warp's VTA partition (probe victims of L1D misses, or evictions with "
     "-ccws_vta_probe_victims 0)"},
    {"ccws_vta_write_invalidations", NULL, NULL, 0, "victim tags removed by global writes to their line"},
    {"ccws_eval_cycles", NULL, NULL, 0, "SM cycles in which load permission was evaluated (SM awake, warps live)"},
    {"ccws_throttled_cycles", NULL, NULL, 0, "of those, cycles in which at least one live warp could not load"},
    {"ccws_load_warps_sum", NULL, NULL, 0, "sum over evaluated cycles of warps allowed to issue loads"},
    {"ccws_live_warps_sum", NULL, NULL, 0, "sum over evaluated cycles of live warps"},
    {"ccws_avg_load_warps", "ccws_load_warps_sum", "ccws_eval_cycles", 1.0,
     "warps allowed to issue loads, average per evaluated SM cycle"},
    {"ccws_avg_live_warps", "ccws_live_warps_sum", "ccws_eval_cycles", 1.0,
     "live warps, average per evaluated SM cycle"},
    {"ccws_throttled_frac", "ccws_throttled_cycles", "ccws_eval_cycles", 1.0,
     "share of evaluated SM cycles with loads throttled"},
    {NULL, NULL, NULL, 0, NULL},
};

const warp_sched_ops sched_ccws = {
    .name = "ccws",
    .help = "cache-conscious wavefront scheduling: VTA lost-locality scores throttle loads, GTO priority "
            "(-ccws_k_throttle, -ccws_vta_entries, -ccws_vta_assoc, -ccws_base_score, -ccws_decay_cycles, "
            "-ccws_llds_add_base, -ccws_resident_counts, -ccws_admit_before, -ccws_ties_by_slot, "
            "-ccws_score_from_first_access, -ccws_recap, -ccws_vta_fifo, -ccws_vta_keep_on_hit, "
            "-ccws_throttle_atomics, -ccws_vta_write_invalidate, -ccws_vta_probe_pending, -ccws_vta_probe_victims)",
    .create = ccws_create,
    .destroy = ccws_destroy,
    .pick = ccws_pick,
    .warp_start = ccws_warp_start,
    .warp_exit = ccws_warp_exit,
    .issued = ccws_issued,
    .load_permitted = ccws_load_permitted,
    .throttles_atomics = ccws_throttles_atomics,
    .l1_miss = ccws_l1_miss,
    .l1_evict = ccws_l1_evict,
    .l1_miss_victim = ccws_l1_miss_victim,
    .l1_global_write = ccws_l1_global_write,
    .l1_access = ccws_l1_access,
    .report = ccws_report,
    .stats = ccws_stats,
};
