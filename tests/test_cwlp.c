/* CWLP (DESIGN.md 5.3): the lpc L1D policy's victims on a constructed access
 * sequence through a real cache, its LIS window (latched every 10 accesses,
 * then cleared) and time accounting on the plug-in alone, and the cwlp warp
 * scheduler's picks under both LIS states.  Expected values are worked out by
 * hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mem/cache.h"
#include "sched/sched.h"

extern const warp_sched_ops sched_cwlp;

/* ---- lpc through a cache: one set of 4 ways, lines A..G ---- */

#define LA 0x000u
#define LB 0x080u
#define LC 0x100u
#define LD 0x180u
#define LE 0x200u
#define LF 0x280u
#define LG 0x300u

static cache *make_lpc(void) {
    cache_geometry g;
    char err[256];
    /* 1 set x 4 ways x 128 B, global write-through, allocate on miss */
    assert_int_equal(cache_geometry_parse("N:1:128:4,L:L:m:N:L,A:8:8,8", &g, err, sizeof err), 0);
    snprintf(g.policy, sizeof g.policy, "lpc");
    cache *c = cache_create(&g, "test", err, sizeof err);
    if (!c) print_error("%s\n", err);
    assert_non_null(c);
    return c;
}

static cache_outcome rd(cache *c, uint64_t addr, uint32_t pc) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.type = MEM_GLOBAL_ACC_R;
    r.sector_mask = 0xF;
    r.size = 128;
    r.pc = pc;
    return cache_access(c, &r, 0, NULL);
}

/* A read miss, then its fill answered at once (the line becomes valid). */
static void miss_fill(cache *c, uint64_t addr, uint32_t pc) {
    assert_int_equal(rd(c, addr, pc), CACHE_MISS);
    mem_req woken[8];
    const mem_req *out = cache_miss_queue_peek(c);
    assert_non_null(out);
    mem_req reply = *out;
    cache_miss_queue_pop(c);
    assert_int_equal(cache_fill(c, &reply, 0, woken, 8), 1);
}

static void hit(cache *c, uint64_t addr, uint32_t pc) { assert_int_equal(rd(c, addr, pc), CACHE_HIT); }

typedef struct {
    double lis_cycles, lis_loc_cycles, predicted, protected_, clears;
} lpc_counts;

static void take_lpc(void *ctx, const char *name, double v) {
    lpc_counts *k = ctx;
    if (!strcmp(name, "L1D_LIS_cycles")) k->lis_cycles = v;
    if (!strcmp(name, "L1D_LIS_locality_cycles")) k->lis_loc_cycles = v;
    if (!strcmp(name, "L1D_LPC_predicted_hits")) k->predicted = v;
    if (!strcmp(name, "L1D_LPC_protected_victims")) k->protected_ = v;
    if (!strcmp(name, "L1D_LPC_set_clears")) k->clears = v;
}

static lpc_counts lpc_report(const cache *c, uint64_t now) {
    lpc_counts k = {0};
    cache_policy(c)->report(cache_policy_state(c), now, take_lpc, &k);
    return k;
}

static void test_lpc_protects_predicted_lru_line(void **state) {
    (void)state;
    cache *c = make_lpc();
    /* Fill A(pc 10) B(20) C(30) D(40): every line W_PC = its pc, LPL = pred = 0. */
    miss_fill(c, LA, 10);
    miss_fill(c, LB, 20);
    miss_fill(c, LC, 30);
    miss_fill(c, LD, 40);
    /* A hit by pc 10 twice: 1st reuse 1, pred = LPL 0 & 1 = 0, LPL = 1;
     * 2nd reuse 1, pred = 1 & 1 = 1.  A is predicted to have locality. */
    hit(c, LA, 10);
    hit(c, LA, 10);
    /* B, C, D hit by other PCs: reuse 0, pred 0, W_PC = 21/31/41.
     * Recency, oldest first: A, B, C, D. */
    hit(c, LB, 21);
    hit(c, LC, 31);
    hit(c, LD, 41);
    assert_int_equal(lpc_report(c, 0).predicted, 1);
    /* Miss E: LRU would take A, but A is predicted: the LRU unpredicted line is B. */
    miss_fill(c, LE, 50);
    assert_non_null(cache_probe(c, LA));
    assert_null(cache_probe(c, LB));
    lpc_counts k = lpc_report(c, 0);
    assert_int_equal(k.protected_, 1);
    assert_int_equal(k.clears, 0);
    cache_destroy(c);
}

static void test_lpc_all_predicted_set(void **state) {
    (void)state;
    cache *c = make_lpc();
    /* As above: A predicted; B C D unpredicted; E replaces B. */
    miss_fill(c, LA, 10);
    miss_fill(c, LB, 20);
    miss_fill(c, LC, 30);
    miss_fill(c, LD, 40);
    hit(c, LA, 10);
    hit(c, LA, 10);
    hit(c, LB, 21);
    hit(c, LC, 31);
    hit(c, LD, 41);
    miss_fill(c, LE, 50);
    /* Make C, D, E predicted: each hit twice by its W_PC (C 31, D 41, E 50):
     * 1st pred 0 (LPL 0) LPL 1, 2nd pred 1.  Now all four lines are predicted;
     * recency, oldest first: A (touched before E's miss), C, D, E. */
    hit(c, LC, 31);
    hit(c, LC, 31);
    hit(c, LD, 41);
    hit(c, LD, 41);
    hit(c, LE, 50);
    hit(c, LE, 50);
    assert_int_equal(lpc_report(c, 0).predicted, 4);
    /* Miss F: no unpredicted line -> the LRU one, A; the set's predictions are
     * cleared. */
    miss_fill(c, LF, 60);
    assert_null(cache_probe(c, LA));
    assert_int_equal(lpc_report(c, 0).clears, 1);
    /* Miss G: C, D, E are no longer predicted and F is new, so plain LRU: C.
     * (Had the predictions stayed, F, the only unpredicted line, would go.) */
    miss_fill(c, LG, 70);
    assert_null(cache_probe(c, LC));
    assert_non_null(cache_probe(c, LF));
    assert_non_null(cache_probe(c, LD));
    assert_non_null(cache_probe(c, LE));
    lpc_counts k = lpc_report(c, 0);
    assert_int_equal(k.clears, 1);
    assert_int_equal(k.protected_, 1);   /* only E's miss passed over a predicted LRU line */
    cache_destroy(c);
}

/* A hit on a pending line (HIT_RESERVED) refreshes recency but is not a hit
 * for the detector (Algorithm 1 works under STATUS=HIT). */
static void test_lpc_pending_hit_is_not_reuse(void **state) {
    (void)state;
    cache *c = make_lpc();
    assert_int_equal(rd(c, LA, 10), CACHE_MISS);
    assert_int_equal(rd(c, LA, 10), CACHE_HIT_RESERVED);
    mem_req woken[8];
    mem_req reply = *cache_miss_queue_peek(c);
    cache_miss_queue_pop(c);
    assert_int_equal(cache_fill(c, &reply, 0, woken, 8), 2);
    /* Had the pending hit counted, this hit would be the 2nd reuse: pred 1. */
    hit(c, LA, 10);
    assert_int_equal(lpc_report(c, 0).predicted, 0);
    hit(c, LA, 10);
    assert_int_equal(lpc_report(c, 0).predicted, 1);
    cache_destroy(c);
}

/* ---- LIS on the plug-in alone ---- */

typedef struct {
    const cache_policy_ops *ops;
    void *st;
    uint64_t now;
} lis_fixture;

static void lis_make(lis_fixture *f) {
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:1:128:4,L:L:m:N:L,A:8:8,8", &g, err, sizeof err), 0);
    f->ops = cache_policy_find("lpc");
    assert_non_null(f->ops);
    f->st = f->ops->create(&g);
    assert_non_null(f->st);
    f->now = 0;
    /* way 0 holds a line allocated by pc 7 */
    mem_req r = {.pc = 7};
    f->ops->on_insert(f->st, 0, 0, &r, 0);
}

/* One access at the next cycle: a hit on way 0 by pc 7, or a miss. */
static void lis_hit(lis_fixture *f) {
    mem_req r = {.pc = 7};
    f->now++;
    f->ops->on_hit(f->st, 0, 0, &r, f->now);
    f->ops->on_access(f->st, 0, 0, &r, CACHE_HIT, f->now);
}

static void lis_miss(lis_fixture *f) {
    mem_req r = {.pc = 9};
    f->now++;
    f->ops->on_access(f->st, 0, -1, &r, CACHE_MISS, f->now);
}

static void test_lis_window_and_clear(void **state) {
    (void)state;
    lis_fixture f;
    lis_make(&f);
    assert_int_equal(f.ops->locality(f.st), 0);   /* starts without locality */
    /* Window 1 (cycles 1-10): hit #1 by pc 7 has reuse 1 but LPL 0 -> bit 0;
     * hits #2..#9 -> bit 1 each (LPL 1 & reuse 1); then a miss -> bit 0.
     * After 9 accesses nothing is latched yet: still 0. */
    for (int i = 0; i < 9; i++) lis_hit(&f);
    assert_int_equal(f.ops->locality(f.st), 0);
    lis_miss(&f);                                   /* 10th: sum 8 > 5 */
    assert_int_equal(f.ops->locality(f.st), 1);
    /* Window 2 (cycles 11-20): 5 hits (bits 1) and 5 misses: sum 5, not > 5.
     * A sliding window over the last 10 would hold more; the cleared one
     * holds exactly 5.  The verdict holds until the 10th access. */
    for (int i = 0; i < 5; i++) lis_hit(&f);
    for (int i = 0; i < 4; i++) lis_miss(&f);
    assert_int_equal(f.ops->locality(f.st), 1);
    lis_miss(&f);
    assert_int_equal(f.ops->locality(f.st), 0);
    /* Window 3 (cycles 21-30): 6 hits, 4 misses: sum 6 > 5. */
    for (int i = 0; i < 6; i++) lis_hit(&f);
    for (int i = 0; i < 4; i++) lis_miss(&f);
    assert_int_equal(f.ops->locality(f.st), 1);
    /* Time: accounting starts at cycle 1 (first access).  Verdict 0 over
     * cycles 1-10 (9 cycles), 1 over 10-20 (10), 0 over 20-30 (10), 1 from 30
     * to the report at 35 (5): 34 cycles, 15 with locality. */
    lpc_counts k = {0};
    f.ops->report(f.st, 35, take_lpc, &k);
    assert_int_equal(k.lis_cycles, 34);
    assert_int_equal(k.lis_loc_cycles, 15);
    assert_int_equal(k.predicted, 8 + 5 + 6);
    /* reporting changes nothing: the same answer again */
    lpc_counts k2 = {0};
    f.ops->report(f.st, 35, take_lpc, &k2);
    assert_int_equal(k2.lis_cycles, 34);
    f.ops->destroy(f.st);
}

/* ---- the cwlp scheduler on hand-made views ---- */

static int fake_signal(const void *ctx) { return *(const int *)ctx; }

typedef struct {
    void *st;
    int signal;
    uint8_t age[8];
    sched_view v;
} sched_fixture;

/* 6 warps in one scheduler; age order (oldest first) 3, 1, 0, 2, 5, 4. */
static void sched_make(sched_fixture *f, int signal) {
    char err[256] = "";
    sched_params p = {.sm_id = 0, .num_sched = 1, .max_warps = 8, .args = ""};
    f->st = sched_cwlp.create(&p, err, sizeof err);
    if (!f->st) print_error("%s\n", err);
    assert_non_null(f->st);
    f->signal = signal;
    const uint8_t age[6] = {3, 1, 0, 2, 5, 4};
    memcpy(f->age, age, sizeof age);
    memset(&f->v, 0, sizeof f->v);
    f->v.owned = f->v.live = 0x3F;
    f->v.age_order = f->age;
    f->v.nlive = 6;
    f->v.l1d_locality = fake_signal;
    f->v.l1d = &f->signal;
}

static int pick(sched_fixture *f, warp_mask ready, warp_mask loads) {
    f->v.ready = ready;
    f->v.next_is_load = loads & ready;
    f->v.now++;
    return sched_cwlp.pick(f->st, &f->v);
}

#define M(w) ((warp_mask)1 << (w))

static void test_cwlp_locality_is_lrr(void **state) {
    (void)state;
    sched_fixture f;
    sched_make(&f, 1);
    /* LIS says locality: round-robin in slot order from the last issued,
     * whatever the ages and classes: 1, 2, 4, then wrap to 1. */
    warp_mask ready = M(1) | M(2) | M(4), loads = M(1) | M(2);
    assert_int_equal(pick(&f, ready, loads), 1);
    assert_int_equal(pick(&f, ready, loads), 2);
    assert_int_equal(pick(&f, ready, loads), 4);
    assert_int_equal(pick(&f, ready, loads), 1);
    /* a warp that cannot issue is skipped: after 1 comes 4 when 2 is not ready */
    assert_int_equal(pick(&f, M(1) | M(4), loads), 4);
    sched_cwlp.destroy(f.st);
}

static void test_cwlp_no_locality_interleaves(void **state) {
    (void)state;
    sched_fixture f;
    sched_make(&f, 0);
    /* Long-latency (next insn loads): 0 and 2; short: 1, 3, 4, 5. */
    warp_mask all = 0x3F, loads = M(0) | M(2);
    /* No last class yet: the oldest ready warp, 3 (short). */
    assert_int_equal(pick(&f, all, loads), 3);
    /* Last short.  Oldest ready 3 is short (same class) -> not step 1; step 2:
     * the lowest-slot long warp, 0 (oldest long would be 0 too: age 3,1,0,2). */
    assert_int_equal(pick(&f, all, loads), 0);
    /* Last long.  Oldest ready 3 is short: differs -> step 1: 3. */
    assert_int_equal(pick(&f, all, loads), 3);
    /* Last short; 3 not ready.  Oldest ready is 1 (short, same) -> step 2:
     * long warps 0, 2 -> lowest slot 0. */
    assert_int_equal(pick(&f, all & ~M(3), loads), 0);
    /* Last long; only long warps 0 and 2 ready -> step 3: the oldest, 0 (age
     * order 3, 1, 0, 2), not round-robin's 2. */
    assert_int_equal(pick(&f, M(0) | M(2), loads), 0);
    /* Step 2 by slot, not by age: last long; short warps ready 5 and 4, and the
     * oldest ready is long warp 2 (same class) -> the lowest short slot, 4,
     * though 5 is the older of the two. */
    assert_int_equal(pick(&f, M(2) | M(4) | M(5), loads), 4);
    sched_cwlp.destroy(f.st);
}

static void test_cwlp_switches_with_the_signal(void **state) {
    (void)state;
    sched_fixture f;
    sched_make(&f, 1);
    warp_mask all = 0x3F, loads = M(0) | M(2);
    /* LRR from -1: warp 0 (long). */
    assert_int_equal(pick(&f, all, loads), 0);
    /* LIS drops to "no locality": last issued was long (0), oldest ready 3 is
     * short -> 3. */
    f.signal = 0;
    assert_int_equal(pick(&f, all, loads), 3);
    /* Back to locality: round-robin goes on after the last issued, 3 -> 4. */
    f.signal = 1;
    assert_int_equal(pick(&f, all, loads), 4);
    /* A policy without a signal (-1) is read as no locality: last short (4),
     * oldest ready 3 short -> lowest long slot, 0. */
    f.signal = -1;
    assert_int_equal(pick(&f, all, loads), 0);
    sched_cwlp.destroy(f.st);
}

static void test_cwlp_rejects_arguments(void **state) {
    (void)state;
    char err[256] = "";
    sched_params p = {.sm_id = 0, .num_sched = 1, .max_warps = 8, .args = "3"};
    assert_null(sched_cwlp.create(&p, err, sizeof err));
    assert_non_null(strstr(err, "takes no arguments"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lpc_protects_predicted_lru_line),
        cmocka_unit_test(test_lpc_all_predicted_set),
        cmocka_unit_test(test_lpc_pending_hit_is_not_reuse),
        cmocka_unit_test(test_lis_window_and_clear),
        cmocka_unit_test(test_cwlp_locality_is_lrr),
        cmocka_unit_test(test_cwlp_no_locality_interleaves),
        cmocka_unit_test(test_cwlp_switches_with_the_signal),
        cmocka_unit_test(test_cwlp_rejects_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
