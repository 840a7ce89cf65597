/* The CCWS warp scheduler (src/sched/ccws.c): its victim tag array, its
 * lost-locality scores and the load throttling they cause, on hand-made event
 * sequences (the plug-in alone) and end to end on a timing device.  Expected
 * values are worked out in the comments from the rules in DESIGN.md 5.2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sched/sched.h"
#include "sim/config.h"
#include "timing_util.h"

extern const warp_sched_ops sched_ccws;

/* ---- the plug-in alone (K 8, 16 entries, 8 ways, base 100) ----
 *
 * make(): no configuration, so the defaults: the authors' rules (decay 1 point
 * per 4 cycles, score = X on a hit, resident counts, admission while the sum
 * ahead is below the cutoff with ties to the lower slot, FIFO VTA keeping
 * entries on a hit).  make_old(): locsim's earlier rules, every option flipped
 * (decay 1 per cycle, base + X never lowered, counts since creation, admission
 * while the sum with the warp's own score is at most the cutoff with ties to
 * the older warp, LRU VTA invalidating on a hit). */

typedef struct {
    void *st;
    uint32_t nwarps;
} fixture;

/* A tag into warp w's VTA partition through whichever hook the configuration
 * inserts from (an L1D miss's probe victim, or an eviction: exactly one of the
 * two inserts; test_vta_insert_rule_picks_one_hook checks which). */
static void vta_put(void *st, uint32_t w, uint64_t line, uint64_t now) {
    sched_ccws.l1_evict(st, w, line, now);
    sched_ccws.l1_miss_victim(st, w, line, now);
}

static void make_cfg(fixture *f, uint32_t nwarps, const sim_config *cfg) {
    char err[256] = "";
    sched_params p = {.sm_id = 0, .num_sched = 1, .max_warps = 32, .args = "", .cfg = cfg};
    f->st = sched_ccws.create(&p, err, sizeof err);
    if (!f->st) print_error("%s\n", err);
    assert_non_null(f->st);
    f->nwarps = nwarps;
    for (uint32_t w = 0; w < nwarps; w++) sched_ccws.warp_start(f->st, w, 0); /* warp 0 is the oldest */
    /* each warp's first L1D access: the authors' code scores a new warp 0 until it */
    for (uint32_t w = 0; w < nwarps; w++) sched_ccws.l1_access(f->st, w, false, 0);
}

static void make(fixture *f, uint32_t nwarps) { make_cfg(f, nwarps, NULL); }

static sim_config old_rules(void) {
    sim_config c;
    config_defaults(&c);
    c.ccws_decay_cycles = 1;
    c.ccws_llds_add_base = true;
    c.ccws_resident_counts = false;
    c.ccws_admit_before = false;
    c.ccws_vta_fifo = false;
    c.ccws_vta_keep_on_hit = false;
    c.ccws_ties_by_slot = false;
    c.ccws_score_from_first_access = false;
    c.ccws_recap = false;
    c.ccws_vta_probe_victims = false;
    return c;
}

static void make_old(fixture *f, uint32_t nwarps) {
    static sim_config c;
    c = old_rules();
    make_cfg(f, nwarps, &c);
}

static void issue_by(fixture *f, uint32_t w, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) sched_ccws.issued(f->st, w, NULL, 0);
}

static void issue_n(fixture *f, uint32_t n) { issue_by(f, 0, n); }

/* A VTA hit of warp w on a fresh line at cycle now. */
static void vta_hit(fixture *f, uint32_t w, uint64_t line, uint64_t now) {
    vta_put(f->st, w, line, now);
    sched_ccws.l1_miss(f->st, w, line, false, now);
}

typedef struct {
    double probes, hits, inserts, write_inv;
} ccws_counts;

static void take(void *ctx, const char *name, double value) {
    ccws_counts *c = ctx;
    if (!strcmp(name, "ccws_vta_probes")) c->probes = value;
    if (!strcmp(name, "ccws_vta_hits")) c->hits = value;
    if (!strcmp(name, "ccws_vta_inserts")) c->inserts = value;
    if (!strcmp(name, "ccws_vta_write_invalidations")) c->write_inv = value;
}

static ccws_counts counts(const fixture *f) {
    ccws_counts c = {0};
    sched_ccws.report(f->st, take, &c);
    return c;
}

/* Warps denied loads at cycle now (live warps only). */
static warp_mask denied(const fixture *f, uint64_t now) {
    warp_mask live = f->nwarps >= 64 ? ~(warp_mask)0 : (((warp_mask)1 << f->nwarps) - 1);
    return ~sched_ccws.load_permitted(f->st, now) & live;
}

/* -ccws_vta_probe_victims 1 (authors' code): tags come from the L1D's probe
 * victims (l1_miss_victim), an eviction report inserts nothing; 0: the reverse. */
static void test_vta_insert_rule_picks_one_hook(void **state) {
    (void)state;
    for (int rule = 0; rule <= 1; rule++) {
        static sim_config c;
        config_defaults(&c);
        c.ccws_vta_probe_victims = rule;
        fixture f;
        make_cfg(&f, 2, &c);
        sched_ccws.l1_evict(f.st, 0, 0x40, 1);
        assert_true(counts(&f).inserts == (rule ? 0 : 1));
        sched_ccws.l1_miss_victim(f.st, 0, 0x41, 2);
        assert_true(counts(&f).inserts == 1);
        /* the tag that went in is the one the owner's miss finds */
        sched_ccws.l1_miss(f.st, 0, rule ? 0x41 : 0x40, false, 3);
        assert_true(counts(&f).hits == 1);
        sched_ccws.destroy(f.st);
    }
}

/* An evicted line's tag goes to the partition of the warp that reserved it, and
 * only that warp's miss finds it there; a hit invalidates the entry. */
static void test_vta_insert_on_evict_probe_by_owner_only(void **state) {
    (void)state;
    fixture f;
    make_old(&f, 4);
    vta_put(f.st, 1, 0x40, 10);   /* warp 1 had reserved line 0x40 */
    sched_ccws.l1_miss(f.st, 2, 0x40, false, 11);    /* warp 2 misses on it: warp 2's partition is empty */
    ccws_counts c = counts(&f);
    assert_true(c.inserts == 1 && c.probes == 1 && c.hits == 0);
    sched_ccws.l1_miss(f.st, 1, 0x40, false, 12);    /* the owner misses on it: VTA hit */
    c = counts(&f);
    assert_true(c.probes == 2 && c.hits == 1);
    sched_ccws.l1_miss(f.st, 1, 0x40, false, 13);    /* the hit invalidated the entry */
    c = counts(&f);
    assert_true(c.probes == 3 && c.hits == 1);
    sched_ccws.destroy(f.st);
}

/* 16 entries, 8 ways: 2 sets per warp, set = line mod 2.  Nine even lines fill
 * set 0 and push out the oldest (line 0); the others are still there. */
static void test_vta_partition_is_8_way_lru(void **state) {
    (void)state;
    fixture f;
    make_old(&f, 2);
    for (uint64_t i = 0; i < 9; i++) vta_put(f.st, 0, 2 * i, i);
    vta_put(f.st, 0, 1, 9);       /* set 1 is separate */
    sched_ccws.l1_miss(f.st, 0, 0, false, 20);       /* evicted from the VTA: no hit */
    assert_true(counts(&f).hits == 0);
    sched_ccws.l1_miss(f.st, 0, 2, false, 21);
    sched_ccws.l1_miss(f.st, 0, 16, false, 22);
    sched_ccws.l1_miss(f.st, 0, 1, false, 23);
    assert_true(counts(&f).hits == 3);
    sched_ccws.destroy(f.st);
}

/* 8 live warps: cutoff = 8 x 100 = 800.  After 100 warp instructions:
 *  - first VTA hit (warp 0): LLDS = 100 + 1/100 x 8 x 800 = 164.  Sorted scores
 *    164,100,...: running sums 164, 264, ..., 864 at the 8th warp (warp 7, the
 *    youngest) > 800: warp 7 alone is denied loads.
 *  - second hit of warp 0 in the same cycle: LLDS = 100 + 2/100 x 8 x 800 = 228
 *    (the score rises TO the LLDS, it does not add: 164 + 228 would deny three);
 *    sums 228 + 100k exceed 800 from k = 6: warps 6 and 7 are denied.
 *  - decay of 1 per cycle: 28 cycles later the score is 200, sum at warp 6 =
 *    800 (not above): only warp 7 denied; 64 cycles later 164 (warp 7 still
 *    denied, 864); 127 cycles later 101 (801 > 800: warp 7 denied); 128 cycles
 *    later it is back at the base 100 and every warp may load. */
static void test_scores_jump_to_llds_and_decay_to_base(void **state) {
    (void)state;
    fixture f;
    make_old(&f, 8);
    issue_n(&f, 100);
    const uint64_t t0 = 1000;
    assert_true(denied(&f, t0) == 0);                       /* all at the base */
    vta_put(f.st, 0, 0x80, t0);
    sched_ccws.l1_miss(f.st, 0, 0x80, false, t0);
    assert_true(denied(&f, t0) == (warp_mask)1 << 7);
    vta_put(f.st, 0, 0x81, t0);
    sched_ccws.l1_miss(f.st, 0, 0x81, false, t0);
    assert_true(denied(&f, t0) == ((warp_mask)1 << 6 | (warp_mask)1 << 7));
    assert_true(denied(&f, t0 + 27) == ((warp_mask)1 << 6 | (warp_mask)1 << 7)); /* 201 + 600 > 800 */
    assert_true(denied(&f, t0 + 28) == (warp_mask)1 << 7);
    assert_true(denied(&f, t0 + 64) == (warp_mask)1 << 7);
    assert_true(denied(&f, t0 + 127) == (warp_mask)1 << 7);
    assert_true(denied(&f, t0 + 128) == 0);
    assert_true(denied(&f, t0 + 100000) == 0);             /* never below the base */
    sched_ccws.destroy(f.st);
}

/* The throttled warps are the ones with the lowest scores: here the youngest,
 * because ties go to the older warp.  A hit by the youngest warp moves it to the
 * front, and the next youngest is pushed past the cutoff instead.  When warps
 * exit the cutoff shrinks with them (live warps x base). */
static void test_cutoff_follows_scores_and_live_warps(void **state) {
    (void)state;
    fixture f;
    make_old(&f, 4);                                  /* cutoff 400 */
    issue_n(&f, 100);
    vta_put(f.st, 3, 7, 50);
    sched_ccws.l1_miss(f.st, 3, 7, false, 50);           /* LLDS = 100 + 1/100 x 8 x 400 = 132 */
    /* order 3 (132), 0, 1, 2: sums 132, 232, 332, 432 > 400: warp 2 denied */
    assert_true(denied(&f, 50) == (warp_mask)1 << 2);
    /* warp 0 exits: cutoff 300; order 3 (132), 1, 2: 132, 232, 332 > 300: warp 2 */
    sched_ccws.warp_exit(f.st, 0, 51);
    f.nwarps = 4;
    assert_true((denied(&f, 51) & ~(warp_mask)1) == (warp_mask)1 << 2);
    sched_ccws.destroy(f.st);
}

/* A single warp whose score alone exceeds the cutoff is still allowed to load
 * (otherwise no warp could): with one live warp the cutoff is 100. */
static void test_top_warp_always_loads(void **state) {
    (void)state;
    fixture f;
    make_old(&f, 1);
    issue_n(&f, 10);
    vta_put(f.st, 0, 5, 0);
    sched_ccws.l1_miss(f.st, 0, 5, false, 0);   /* LLDS = 100 + 1/10 x 8 x 100 = 180 > cutoff 100 */
    assert_true(denied(&f, 0) == 0);
    sched_ccws.destroy(f.st);
}

/* Priority among the warps that may issue is greedy-then-oldest, and the policy
 * picks a throttled warp whose next instruction is not a load (the pipeline
 * removes only throttled loads from `ready`). */
static void test_gto_priority_and_alu_of_throttled_warp(void **state) {
    (void)state;
    fixture f;
    make_old(&f, 4);
    uint8_t age[4] = {0, 1, 2, 3};
    issue_n(&f, 100);
    vta_put(f.st, 3, 7, 50);
    sched_ccws.l1_miss(f.st, 3, 7, false, 50);  /* warp 2 denied loads (previous test) */
    assert_true(denied(&f, 50) == (warp_mask)1 << 2);
    sched_view v = {.now = 50, .sched_id = 0, .ready = (warp_mask)1 << 2 | (warp_mask)1 << 3, .owned = 0xf,
                    .live = 0xf, .next_is_load = 0, .age_order = age, .nlive = 4};
    assert_int_equal(sched_ccws.pick(f.st, &v), 2);   /* oldest ready; its ALU work may issue */
    v.ready = 0xf;
    assert_int_equal(sched_ccws.pick(f.st, &v), 2);   /* greedy: keeps warp 2 */
    v.ready = 0xb;
    assert_int_equal(sched_ccws.pick(f.st, &v), 0);   /* 2 stalled: the oldest ready */
    sched_ccws.destroy(f.st);
}

/* ---- the authors' rules (the defaults) ---- */

/* 8 live warps, cutoff 800, warp 0 issued 10 instructions.  A VTA hit of warp 0:
 * X = 1/10 x 8 x 800 = 640, the score.  Order 640 (warp 0), then warps 1..7 at
 * 100 (ties: lower slot).  Sums ahead: warp 1 640, warp 2 740 (< 800: may load),
 * warp 3 840: warps 3..7 denied (0xf8).  Decay 1 point per 4 cycles: after c
 * cycles the score is 640 - c/4.  Warp 3 is let in when score + 200 < 800, score
 * 599 at c = 164 (c = 163: 600 + 200 = 800, still denied); warp 7 when score +
 * 600 < 800, score 199 at c = 1764 (c = 1763: 200, denied). */
static void test_authors_score_is_x_and_decays_every_4_cycles(void **state) {
    (void)state;
    fixture f;
    make(&f, 8);
    issue_n(&f, 10);
    const uint64_t t0 = 1000;
    vta_hit(&f, 0, 0x80, t0);
    assert_true(denied(&f, t0) == 0xf8);
    assert_true(denied(&f, t0 + 163) == 0xf8);
    assert_true(denied(&f, t0 + 164) == 0xf0);
    assert_true(denied(&f, t0 + 1763) == 0x80);
    assert_true(denied(&f, t0 + 1764) == 0);
    sched_ccws.destroy(f.st);
}

/* The score becomes X even when that is lower.  As above, a hit at 640 (0xf8
 * denied); 30 more instructions (40 in all), a second hit in the same cycle:
 * X = 2/40 x 8 x 800 = 320.  Order 320, 100 x 7: sums ahead of the 6th and 7th
 * warps in the order (warps 6, 7) are 820 and 920: 0xc0 denied.  With
 * -ccws_llds_add_base 1 (every other option the authors') the first hit gives
 * 100 + 640 = 740 (sums ahead: 740 for warp 1, 840 for warp 2: 0xfc denied) and
 * the second asks 100 + 320 = 420, below 740, and changes nothing: 0xfc. */
static void test_authors_hit_may_lower_score(void **state) {
    (void)state;
    for (int add_base = 0; add_base <= 1; add_base++) {
        sim_config c;
        config_defaults(&c);
        c.ccws_llds_add_base = add_base;
        c.ccws_recap = !add_base;   /* a re-cap would take 740 back to X = 640 */
        fixture f;
        make_cfg(&f, 8, &c);
        issue_n(&f, 10);
        vta_hit(&f, 0, 0x80, 1000);
        assert_true(denied(&f, 1000) == (add_base ? 0xfc : 0xf8));
        issue_n(&f, 30);
        vta_hit(&f, 0, 0x81, 1000);
        assert_true(denied(&f, 1000) == (add_base ? 0xfc : 0xc0));
        sched_ccws.destroy(f.st);
    }
}

/* Resident counts.  4 warps (cutoff 400); warp 0 issues 10, warp 3 issues 30.
 * Warp 3's VTA hit: X = 1/40 x 8 x 400 = 80, below the base: score 100.  Warp 3
 * exits: its hit and 30 instructions leave the counts; 3 live warps, cutoff 300.
 * Warp 0's hit: resident X = 1/10 x 8 x 300 = 240; order 240, 100, 100: the sum
 * ahead of warp 2 is 340: warp 2 denied.  Counting since creation
 * (-ccws_resident_counts 0): X = 2/40 x 8 x 300 = 120 (score 120), sums ahead
 * 120 and 220: nobody denied. */
static void test_authors_counts_of_resident_warps(void **state) {
    (void)state;
    for (int resident = 0; resident <= 1; resident++) {
        sim_config c;
        config_defaults(&c);
        c.ccws_resident_counts = resident;
        fixture f;
        make_cfg(&f, 4, &c);
        issue_by(&f, 0, 10);
        issue_by(&f, 3, 30);
        vta_hit(&f, 3, 0x10, 50);
        assert_true(denied(&f, 50) == 0);
        sched_ccws.warp_exit(f.st, 3, 51);
        f.nwarps = 3;
        vta_hit(&f, 0, 0x20, 52);
        assert_true(denied(&f, 52) == (resident ? (warp_mask)1 << 2 : 0));
        sched_ccws.destroy(f.st);
    }
}

/* Admission and ties.  4 warps started youngest slot first (slot 3 is the
 * oldest); slot 0 issues 10 instructions and has a VTA hit: X = 1/10 x 8 x 400
 * = 320.  Authors': ties to the lower slot, order 0 (320), 1, 2, 3; sums ahead
 * 320 (slot 1 may load), 420, 520: slots 2 and 3 denied (0xc).
 * -ccws_admit_before 0 -ccws_ties_by_slot 0: ties to the older warp, order 0, 3,
 * 2, 1; sums with the warp's own score 420, 520, 620, all above 400: slots 1,
 * 2, 3 denied (0xe).  The two rules apart: sum ahead with ties to the older warp
 * (order 0, 3, 2, 1; sums ahead 320, 420, 520): slots 2 and 1 denied (0x6); the
 * sum with its own with ties to the lower slot (order 0, 1, 2, 3; 420, 520,
 * 620): 0xe. */
static uint64_t admission(int before, int by_slot) {
    sim_config c;
    config_defaults(&c);
    c.ccws_admit_before = before;
    c.ccws_ties_by_slot = by_slot;
    char err[256] = "";
    sched_params p = {.sm_id = 0, .num_sched = 1, .max_warps = 32, .args = "", .cfg = &c};
    fixture f = {sched_ccws.create(&p, err, sizeof err), 4};
    assert_non_null(f.st);
    for (int w = 3; w >= 0; w--) sched_ccws.warp_start(f.st, (uint32_t)w, 0);
    for (int w = 3; w >= 0; w--) sched_ccws.l1_access(f.st, (uint32_t)w, false, 0);
    issue_by(&f, 0, 10);
    vta_hit(&f, 0, 0x30, 10);
    uint64_t d = denied(&f, 10);
    sched_ccws.destroy(f.st);
    return d;
}

static void test_authors_admission_sum_ahead_ties_to_lower_slot(void **state) {
    (void)state;
    assert_true(admission(1, 1) == 0xc);
    assert_true(admission(0, 0) == 0xe);
    assert_true(admission(1, 0) == 0x6);
    assert_true(admission(0, 1) == 0xe);
}

/* A new warp's score (authors' code: 0 when a warp exits, the base at the new
 * warp's first L1D hit or miss).  4 warps (cutoff 400) before any access; warp
 * 0 issues 10 and has a VTA hit: X = 1/10 x 8 x 400 = 320.  Scores 320, 0, 0,
 * 0: every sum ahead is 320, nobody denied.  Warps 1-3 access the L1D: 100
 * each, sums ahead 320, 420, 520: slots 2 and 3 denied (0xc).  Warp 1 exits and
 * a new warp starts in its slot: 0 again, so it sorts last: order 0, 2, 3, 1,
 * sums ahead 320, 420, 520: slots 3 and 1 denied (0xa).
 * -ccws_score_from_first_access 0: the base from the start: 0xc at once, and
 * after the new warp (100, ties to the lower slot: order 0, 1, 2, 3) 0xc. */
static void test_authors_new_warp_scores_from_first_access(void **state) {
    (void)state;
    for (int first = 0; first <= 1; first++) {
        sim_config c;
        config_defaults(&c);
        c.ccws_score_from_first_access = first;
        char err[256] = "";
        sched_params p = {.sm_id = 0, .num_sched = 1, .max_warps = 32, .args = "", .cfg = &c};
        fixture f = {sched_ccws.create(&p, err, sizeof err), 4};
        assert_non_null(f.st);
        for (uint32_t w = 0; w < 4; w++) sched_ccws.warp_start(f.st, w, 0);
        issue_by(&f, 0, 10);
        vta_hit(&f, 0, 0x40, 10);
        assert_true(denied(&f, 10) == (first ? 0 : 0xc));
        for (uint32_t w = 1; w < 4; w++) sched_ccws.l1_access(f.st, w, w == 2, 11);
        assert_true(denied(&f, 11) == 0xc);
        sched_ccws.warp_exit(f.st, 1, 12);
        sched_ccws.warp_start(f.st, 1, 12);
        assert_true(denied(&f, 12) == (first ? 0xa : 0xc));
        sched_ccws.destroy(f.st);
    }
}

/* Re-capping (authors' code: every cycle and at each L1D hit or miss, a score
 * above the base is capped to the current X).  4 warps at the base (cutoff
 * 400); warp 0 issues 10, VTA hit at cycle 10: X = 320, score 320, slots 2 and
 * 3 denied (0xc).  Warp 0 issues 30 more: X = 1/40 x 8 x 400 = 80, so at cycle
 * 11 its score is capped to 80, below the base, and held there: order 100, 100,
 * 100, 80, sums ahead 100, 200, 300: nobody denied.  Its next L1D access makes
 * it 100.  A second VTA hit then (2 hits, 40 insns: X = 160) gives 160; sums
 * ahead 160, 260, 360: nobody denied.  -ccws_recap 0: the score stays 320
 * (decaying 1 per 4 cycles: 320 at cycle 11): 0xc, and the second hit sets 160. */
static void test_authors_recap_to_current_llds(void **state) {
    (void)state;
    for (int re = 0; re <= 1; re++) {
        sim_config c;
        config_defaults(&c);
        c.ccws_recap = re;
        fixture f;
        make_cfg(&f, 4, &c);
        issue_by(&f, 0, 10);
        vta_hit(&f, 0, 0x50, 10);
        assert_true(denied(&f, 10) == 0xc);
        issue_by(&f, 0, 30);
        assert_true(denied(&f, 11) == (re ? 0 : 0xc));
        sched_ccws.l1_access(f.st, 0, true, 12);
        vta_hit(&f, 0, 0x60, 13);
        assert_true(denied(&f, 13) == 0);
        sched_ccws.destroy(f.st);
    }
}

/* VTA, authors': FIFO by allocation, no refresh, entries kept on a hit.  Set 0
 * of warp 0 (even lines) gets 0, 2, ..., 14 (full), line 0 again (no change),
 * then 16: the first allocated, line 0, goes.  Probes: 0 misses, 2 hits, 2 hits
 * again (kept): 2 hits.  The old rules (LRU, refresh, invalidate on a hit): the
 * re-inserted 0 is the newest, 16 pushes out 2; probes: 0 hits (and is
 * invalidated), 2 misses, 2 misses: 1 hit. */
static void test_authors_vta_fifo_keeps_entries(void **state) {
    (void)state;
    for (int old = 0; old <= 1; old++) {
        fixture f;
        if (old) make_old(&f, 1);
        else make(&f, 1);
        for (uint64_t i = 0; i < 8; i++) vta_put(f.st, 0, 2 * i, i);
        vta_put(f.st, 0, 0, 8);
        vta_put(f.st, 0, 16, 9);
        sched_ccws.l1_miss(f.st, 0, 0, false, 10);
        sched_ccws.l1_miss(f.st, 0, 2, false, 11);
        sched_ccws.l1_miss(f.st, 0, 2, false, 12);
        assert_true(counts(&f).hits == (old ? 1 : 2));
        sched_ccws.destroy(f.st);
    }
}

/* Global writes, authors': warps 0 and 1 both hold line 0x10 in their VTA and
 * warp 1 also 0x11.  Warp 2 writes line 0x10: both 0x10 tags go (2
 * invalidations; warp 2's own partition held nothing).  Then warp 0 misses on
 * 0x10 (no hit: gone), warp 1 on 0x10 (no hit) and on 0x11 (hit: the write was
 * to another line).  -ccws_vta_write_invalidate 0: the write removes nothing,
 * all three probes hit. */
static void test_authors_global_write_invalidates_every_vta(void **state) {
    (void)state;
    for (int inval = 0; inval <= 1; inval++) {
        sim_config c;
        config_defaults(&c);
        c.ccws_vta_write_invalidate = inval;
        fixture f;
        make_cfg(&f, 3, &c);
        vta_put(f.st, 0, 0x10, 1);
        vta_put(f.st, 1, 0x10, 2);
        vta_put(f.st, 1, 0x11, 3);
        sched_ccws.l1_global_write(f.st, 2, 0x10, 4);
        sched_ccws.l1_miss(f.st, 0, 0x10, false, 5);
        sched_ccws.l1_miss(f.st, 1, 0x10, false, 6);
        sched_ccws.l1_miss(f.st, 1, 0x11, false, 7);
        ccws_counts n = counts(&f);
        assert_true(n.write_inv == (inval ? 2 : 0));
        assert_true(n.hits == (inval ? 1 : 3));
        assert_true(n.probes == 3);
        sched_ccws.destroy(f.st);
    }
}

/* Pending hits, authors': warp 0's tag 0x20 is in its VTA; a read that merges
 * into the MSHR of a line in flight (merged = true) probes and hits: 1 probe, 1
 * hit.  -ccws_vta_probe_pending 0: the merged read is not probed at all (0
 * probes, 0 hits).  A miss that allocates is probed either way and hits (the
 * entry is kept): one more probe and hit in both. */
static void test_authors_pending_hits_probe_the_vta(void **state) {
    (void)state;
    for (int pending = 0; pending <= 1; pending++) {
        sim_config c;
        config_defaults(&c);
        c.ccws_vta_probe_pending = pending;
        fixture f;
        make_cfg(&f, 2, &c);
        issue_n(&f, 10);
        vta_put(f.st, 0, 0x20, 1);
        sched_ccws.l1_miss(f.st, 0, 0x20, true, 2);
        ccws_counts n = counts(&f);
        assert_true(n.probes == (pending ? 1 : 0));
        assert_true(n.hits == (pending ? 1 : 0));
        sched_ccws.l1_miss(f.st, 0, 0x20, false, 3); /* allocating miss: probed either way (entry kept) */
        n = counts(&f);
        assert_true(n.probes == (pending ? 2 : 1));
        assert_true(n.hits == (pending ? 2 : 1));
        sched_ccws.destroy(f.st);
    }
}

/* Atomics: the plug-in tells the pipeline (once per SM) whether its throttle
 * covers atom; the authors' code does (atom is a load there). */
static void test_authors_throttle_covers_atomics(void **state) {
    (void)state;
    fixture f;
    make(&f, 1);
    assert_true(sched_ccws.throttles_atomics(f.st));
    sched_ccws.destroy(f.st);
    sim_config c;
    config_defaults(&c);
    c.ccws_throttle_atomics = false;
    make_cfg(&f, 1, &c);
    assert_false(sched_ccws.throttles_atomics(f.st));
    sched_ccws.destroy(f.st);
}

/* ---- end to end: the pipeline obeys the throttle ---- */

/* Two warps of one CTA on one SM whose L1D has one set of two ways.
 * Warp 0 loads lines A, B, C, A, each address depending on the previous value:
 * C's miss evicts A (LRU) into warp 0's VTA partition, so the second A misses
 * with a VTA hit.  It then records the cycle (t_hit), spins for spin0
 * iterations and records its end.  Warp 1 spins for spin1 iterations (ALU work
 * only), records the cycle (t_alu), loads line D and records the cycle after
 * the data arrived (t_load).
 * With K_throttle 1000000 the LLDS of warp 0 is far above the cutoff 200 for
 * longer than the kernel: warp 1 is past the cutoff until warp 0 exits. */
#define PROBE_PTX(W1MEM) \
    ".version 8.0\n.target sm_75\n.address_size 64\n" \
    ".visible .entry probe(.param .u64 buf, .param .u64 out, .param .u32 spin0, .param .u32 spin1)\n{\n" \
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<24>;\n" \
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u64 %rd2, [out];\n" \
    "  ld.param.u32 %r1, [spin0];\n  ld.param.u32 %r2, [spin1];\n" \
    "  mov.u32 %r3, %tid.x;\n  setp.ge.u32 %p1, %r3, 32;\n  @%p1 bra $Lwarp1;\n" \
    "  ld.global.u32 %r4, [%rd1];\n  cvt.u64.u32 %rd3, %r4;\n  add.s64 %rd4, %rd1, %rd3;\n" \
    "  ld.global.u32 %r5, [%rd4+128];\n  cvt.u64.u32 %rd5, %r5;\n  add.s64 %rd6, %rd1, %rd5;\n" \
    "  ld.global.u32 %r6, [%rd6+256];\n  cvt.u64.u32 %rd7, %r6;\n  add.s64 %rd8, %rd1, %rd7;\n" \
    "  ld.global.u32 %r7, [%rd8];\n  cvt.u64.u32 %rd9, %r7;\n" \
    "  mov.u64 %rd10, %clock64;\n  add.s64 %rd10, %rd10, %rd9;\n" \
    "  mov.u32 %r8, 0;\n" \
    "$Lspin0:\n  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p2, %r8, %r1;\n  @%p2 bra $Lspin0;\n" \
    "  mov.u64 %rd11, %clock64;\n" \
    "  setp.ne.u32 %p3, %r3, 0;\n  @%p3 bra $Ldone;\n" \
    "  st.global.u64 [%rd2], %rd10;\n  st.global.u64 [%rd2+8], %rd11;\n  bra.uni $Ldone;\n" \
    "$Lwarp1:\n  mov.u32 %r9, 0;\n" \
    "$Lspin1:\n  add.u32 %r9, %r9, 1;\n  setp.lt.u32 %p2, %r9, %r2;\n  @%p2 bra $Lspin1;\n" \
    "  mov.u64 %rd12, %clock64;\n" \
    "  " W1MEM "\n  cvt.u64.u32 %rd13, %r10;\n" \
    "  mov.u64 %rd14, %clock64;\n  add.s64 %rd14, %rd14, %rd13;\n" \
    "  setp.ne.u32 %p3, %r3, 32;\n  @%p3 bra $Ldone;\n" \
    "  st.global.u64 [%rd2+16], %rd12;\n  st.global.u64 [%rd2+24], %rd14;\n" \
    "$Ldone:\n  ret;\n}\n"

static const char *const probe_ptx = PROBE_PTX("ld.global.u32 %r10, [%rd1+384];");
/* the same with warp 1's load an atomic add of 0 (same line, returns the value) */
static const char *const probe_atom_ptx = PROBE_PTX("atom.global.add.u32 %r10, [%rd1+384], 0;");

typedef struct {
    uint64_t t_hit, end0, t_alu, t_load;
    double vta_hits, throttled;
} probe_times;

static probe_times run_probe_ptx(const char *sched, const char *ptx, const char *throttle_atomics) {
    const char *ov[] = {"-gpgpu_scheduler", sched, "-ccws_k_throttle", "1000000",
                        "-gpgpu_cache:dl1", "N:1:128:2,L:L:m:N:L,A:32:8,8",
                        "-ccws_throttle_atomics", throttle_atomics, NULL};
    tdev t;
    tdev_open(&t, "ccws_gtx285", ov);
    locsim_dptr buf = tdev_alloc(&t, NULL, 1024), out = tdev_alloc(&t, NULL, 32);
    uint32_t spin0 = 5000, spin1 = 1000;
    void *args[] = {&buf, &out, &spin0, &spin1};
    tdev_launch(&t, tdev_kernel(&t, ptx, "probe"), 1, 64, args, 4);
    uint64_t v[4];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, v, out, sizeof v), LOCSIM_OK);
    probe_times p = {.t_hit = v[0], .end0 = v[1], .t_alu = v[2], .t_load = v[3]};
    if (!strcmp(sched, "ccws")) {
        p.vta_hits = tdev_stat(&t, "ccws_vta_hits", 1);
        p.throttled = tdev_stat(&t, "ccws_throttled_cycles", 1);
    }
    print_message("%s: warp 0 VTA hit by %llu, ends %llu; warp 1 ALU at %llu, load data at %llu\n", sched,
                  (unsigned long long)p.t_hit, (unsigned long long)p.end0, (unsigned long long)p.t_alu,
                  (unsigned long long)p.t_load);
    tdev_close(&t);
    return p;
}

static probe_times run_probe(const char *sched) { return run_probe_ptx(sched, probe_ptx, "1"); }

static void test_throttled_warp_issues_alu_but_not_loads(void **state) {
    (void)state;
    probe_times c = run_probe("ccws");
    assert_true(c.vta_hits == 1);                 /* only the second A */
    assert_true(c.throttled > 0);
    assert_true(c.t_hit < c.t_alu);               /* warp 1 ran ALU work after the hit... */
    assert_true(c.t_alu < c.end0);                /* ...while warp 0 was still running... */
    assert_true(c.t_load > c.end0);               /* ...but its load waited until warp 0 exited */
    /* control: GTO does not throttle, the same load completes long before warp 0 ends */
    probe_times g = run_probe("gto");
    assert_true(g.t_alu < g.end0 && g.t_load < g.end0);
}

/* The same with warp 1's load an atom.global: with the authors' rule the atomic
 * waits, like the load, until warp 0 exits; with -ccws_throttle_atomics 0 it
 * goes at once (atomics bypass the L1D, so the VTA events are the same: 1 hit). */
static void test_throttled_warp_may_not_issue_atomics(void **state) {
    (void)state;
    probe_times a = run_probe_ptx("ccws", probe_atom_ptx, "1");
    assert_true(a.vta_hits == 1);
    assert_true(a.t_hit < a.t_alu && a.t_alu < a.end0);
    assert_true(a.t_load > a.end0);
    probe_times n = run_probe_ptx("ccws", probe_atom_ptx, "0");
    assert_true(n.vta_hits == 1);
    assert_true(n.t_hit < n.t_alu && n.t_alu < n.end0);
    assert_true(n.t_load < n.end0);
}

/* One warp, L1D of one set x 2 ways (LRU).  It reads lines A, B, C, each
 * address from the previous value (all 0): C's miss evicts A into the warp's
 * VTA.  mode 1 then writes A's line (st.global: a write miss, no allocation).
 * Then two independent reads of A: a miss (it evicts B) and, issued before the
 * fill, a pending hit merged into its MSHR.  Finally one store to line 4.
 *   authors' rules, mode 0: probes A B C (no hit), A miss (hit), A pending (hit):
 *     5 probes, 2 VTA hits, no invalidation;
 *   -ccws_vta_probe_pending 0, mode 0: 4 probes, 1 hit;
 *   mode 1: the write takes A out of the VTA: 1 invalidation, 0 hits;
 *   -ccws_vta_write_invalidate 0, mode 1: 0 invalidations, 2 hits.
 * Tags put into the VTA, mode 0: authors' rule (-ccws_vta_probe_victims 1), the
 * probe victim of every miss on an absent line: C's miss names A (LRU), the
 * second A's names B, the final store's (a write miss) names C: 3 inserts; with
 * genuine evictions only (0), C evicts A and A evicts B: 2. */
static const char *const wr_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry wr(.param .u64 buf, .param .u32 mode)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r1, [mode];\n"
    "  ld.global.u32 %r4, [%rd1];\n  cvt.u64.u32 %rd3, %r4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r5, [%rd4+128];\n  cvt.u64.u32 %rd5, %r5;\n  add.s64 %rd6, %rd1, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6+256];\n  cvt.u64.u32 %rd7, %r6;\n  add.s64 %rd8, %rd1, %rd7;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra $Lread;\n"
    "  st.global.u32 [%rd8+4], %r6;\n"
    "$Lread:\n  ld.global.u32 %r7, [%rd8];\n  ld.global.u32 %r8, [%rd8+8];\n"
    "  add.u32 %r9, %r7, %r8;\n  st.global.u32 [%rd1+512], %r9;\n  ret;\n}\n";

static ccws_counts run_wr(uint32_t mode, const char *opt, const char *val) {
    const char *ov[] = {"-gpgpu_scheduler", "ccws", "-gpgpu_cache:dl1", "N:1:128:2,L:L:m:N:L,A:32:8,8", opt, val, NULL};
    tdev t;
    tdev_open(&t, "ccws_gtx285", ov);
    locsim_dptr buf = tdev_alloc(&t, NULL, 1024);
    void *args[] = {&buf, &mode};
    tdev_launch(&t, tdev_kernel(&t, wr_ptx, "wr"), 1, 32, args, 2);
    ccws_counts n = {tdev_stat(&t, "ccws_vta_probes", 1), tdev_stat(&t, "ccws_vta_hits", 1),
                     tdev_stat(&t, "ccws_vta_inserts", 1), tdev_stat(&t, "ccws_vta_write_invalidations", 1)};
    print_message("mode %u %s %s: %g probes, %g hits, %g inserts, %g write invalidations\n", mode, opt, val,
                  n.probes, n.hits, n.inserts, n.write_inv);
    tdev_close(&t);
    return n;
}

static void test_pipeline_pending_hits_and_global_writes(void **state) {
    (void)state;
    ccws_counts n = run_wr(0, "-ccws_vta_probe_pending", "1");
    assert_true(n.probes == 5 && n.hits == 2 && n.write_inv == 0);
    n = run_wr(0, "-ccws_vta_probe_pending", "0");
    assert_true(n.probes == 4 && n.hits == 1);
    n = run_wr(1, "-ccws_vta_write_invalidate", "1");
    assert_true(n.write_inv == 1 && n.hits == 0);
    n = run_wr(1, "-ccws_vta_write_invalidate", "0");
    assert_true(n.write_inv == 0 && n.hits == 2);
    n = run_wr(0, "-ccws_vta_probe_victims", "1");
    assert_true(n.inserts == 3 && n.hits == 2);
    n = run_wr(0, "-ccws_vta_probe_victims", "0");
    assert_true(n.inserts == 2 && n.hits == 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vta_insert_on_evict_probe_by_owner_only),
        cmocka_unit_test(test_vta_insert_rule_picks_one_hook),
        cmocka_unit_test(test_vta_partition_is_8_way_lru),
        cmocka_unit_test(test_scores_jump_to_llds_and_decay_to_base),
        cmocka_unit_test(test_cutoff_follows_scores_and_live_warps),
        cmocka_unit_test(test_top_warp_always_loads),
        cmocka_unit_test(test_gto_priority_and_alu_of_throttled_warp),
        cmocka_unit_test(test_authors_score_is_x_and_decays_every_4_cycles),
        cmocka_unit_test(test_authors_hit_may_lower_score),
        cmocka_unit_test(test_authors_counts_of_resident_warps),
        cmocka_unit_test(test_authors_admission_sum_ahead_ties_to_lower_slot),
        cmocka_unit_test(test_authors_new_warp_scores_from_first_access),
        cmocka_unit_test(test_authors_recap_to_current_llds),
        cmocka_unit_test(test_authors_vta_fifo_keeps_entries),
        cmocka_unit_test(test_authors_global_write_invalidates_every_vta),
        cmocka_unit_test(test_authors_pending_hits_probe_the_vta),
        cmocka_unit_test(test_authors_throttle_covers_atomics),
        cmocka_unit_test(test_throttled_warp_issues_alu_but_not_loads),
        cmocka_unit_test(test_throttled_warp_may_not_issue_atomics),
        cmocka_unit_test(test_pipeline_pending_hits_and_global_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
