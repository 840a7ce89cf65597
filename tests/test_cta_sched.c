/* The CTA schedulers of src/cta/ (docs/sharing.md): the CTA-to-SM assignment of
 * each for small grids, worked out by hand from the rules in the file comments.
 *
 * The driver below does what the GPU top does (src/sim/gpu.c dispatch_ctas):
 * every cycle it visits the SMs round-robin from the one after the SM served
 * last, and each SM with a free slot asks the policy once (at most one CTA per SM
 * per cycle).  A CTA dispatched at cycle t frees its slot at cycle t + d. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cta/cta_sched.h"

#define MAXC 64
#define MAXS 8

typedef struct {
    int sm[MAXC];          /* SM of each CTA (-1: never dispatched) */
    uint64_t at[MAXC];     /* cycle of its dispatch */
} cta_map;

/* dur[c]: cycles CTA c runs (NULL: 10 each). */
static void drive(const char *name, uint32_t sms, uint32_t max, uint32_t gx, uint32_t gy, const uint32_t *dur,
                  cta_map *m) {
    const char *args;
    char err[256];
    const cta_sched_ops *ops = cta_sched_find(name, &args);
    assert_non_null(ops);
    uint64_t n = (uint64_t)gx * gy;
    assert_true(n <= MAXC && sms <= MAXS && max <= 4);
    cta_sched_params p = {.num_sms = sms, .max_ctas_per_sm = max, .nctas = n, .grid = {gx, gy, 1}, .args = args};
    void *st = ops->create(&p, err, sizeof err);
    assert_non_null(st);
    uint64_t end[MAXS][4];
    uint64_t who[MAXS][4];
    uint32_t res[MAXS] = {0};
    uint32_t rr = 0;
    uint64_t done = 0, dispatched = 0;
    for (uint64_t c = 0; c < MAXC; c++) m->sm[c] = -1;
    for (uint64_t t = 0; t < 10000 && done < n; t++) {
        for (uint32_t s = 0; s < sms; s++)
            for (uint32_t k = 0; k < res[s];) {
                if (end[s][k] > t) { k++; continue; }
                if (ops->done) ops->done(st, s, who[s][k], t);
                done++;
                end[s][k] = end[s][res[s] - 1];
                who[s][k] = who[s][res[s] - 1];
                res[s]--;
            }
        int last = -1;
        for (uint32_t i = 0; i < sms && dispatched < n; i++) {
            uint32_t s = (rr + i) % sms;
            if (res[s] >= max) continue;
            uint64_t c;
            if (!ops->next(st, s, max - res[s], t, &c)) continue;
            assert_true(c < n);
            assert_int_equal(m->sm[c], -1);   /* each CTA once */
            m->sm[c] = (int)s;
            m->at[c] = t;
            end[s][res[s]] = t + (dur ? dur[c] : 10);
            who[s][res[s]++] = c;
            dispatched++;
            last = (int)s;
        }
        if (last >= 0) rr = ((uint32_t)last + 1) % sms;
    }
    assert_int_equal(done, n);   /* every CTA ran: no policy starves the grid */
    ops->destroy(st);
}

static void expect_map(const cta_map *m, const int *sm, uint64_t n) {
    for (uint64_t c = 0; c < n; c++) {
        if (m->sm[c] != sm[c]) print_error("CTA %llu: SM %d, expected %d\n", (unsigned long long)c, m->sm[c], sm[c]);
        assert_int_equal(m->sm[c], sm[c]);
    }
}

/* 2 SMs, 1 CTA per SM, a 3x3 grid (9 CTAs), 10 cycles each.
 * qx: groups = rows {0,1,2} {3,4,5} {6,7,8}.  Cycle 0: SM0 takes row 0 (CTA 0),
 * SM1 row 1 (CTA 3); cycles 10, 20: 1 and 4, 2 and 5; cycle 30: SM0's row is
 * done, it takes row 2 (6), SM1 finds no group left and idles; 7, 8 follow on SM0. */
static void test_qx_rows(void **state) {
    (void)state;
    cta_map m;
    drive("qx", 2, 1, 3, 3, NULL, &m);
    static const int want[] = {0, 0, 0, 1, 1, 1, 0, 0, 0};
    expect_map(&m, want, 9);
    assert_int_equal(m.at[6], 30);
    assert_int_equal(m.at[8], 50);
}

/* qx_adpt, same grid: at cycle 0 three groups are unassigned (>= 2 SMs): SM0
 * takes row 0, then two remain (>= 2): SM1 takes row 1.  At cycle 30 SM0 needs a
 * group and one remains (< 2 SMs): round-robin from CTA 6: SM0 gets 6, SM1
 * (its row done too) 7; at cycle 40 SM0 gets 8. */
static void test_qx_adpt_switch_point(void **state) {
    (void)state;
    cta_map m;
    drive("qx_adpt", 2, 1, 3, 3, NULL, &m);
    static const int want[] = {0, 0, 0, 1, 1, 1, 0, 1, 0};
    expect_map(&m, want, 9);
    assert_int_equal(m.at[6], 30);
    assert_int_equal(m.at[7], 30);
    assert_int_equal(m.at[8], 40);
}

/* q8 / q16 and their _adpt forms on the 3x3 grid with 2 SMs.
 * q8: groups {0..7} {8}: SM0 runs 0..7, SM1 runs 8 alone.
 * q8_adpt: at cycle 0 two groups remain (not < 2): SM0 takes {0..7}; then one
 * remains (< 2): round-robin, SM1 gets 8; the rest of {0..7} stays on SM0.
 * q16: one group {0..8}, all on SM0.  q16_adpt: one group < 2 SMs from the
 * start: plain round-robin, CTA c on SM c mod 2. */
static void test_q8_q16(void **state) {
    (void)state;
    cta_map m;
    static const int q8[] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
    drive("q8", 2, 1, 3, 3, NULL, &m);
    expect_map(&m, q8, 9);
    drive("q8_adpt", 2, 1, 3, 3, NULL, &m);
    expect_map(&m, q8, 9);
    static const int q16[] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    drive("q16", 2, 1, 3, 3, NULL, &m);
    expect_map(&m, q16, 9);
    static const int rr[] = {0, 1, 0, 1, 0, 1, 0, 1, 0};
    drive("q16_adpt", 2, 1, 3, 3, NULL, &m);
    expect_map(&m, rr, 9);
    drive("rr", 2, 1, 3, 3, NULL, &m);
    expect_map(&m, rr, 9);
}

/* q8 on 4 SMs with 2 slots each, a 40x1 grid: five groups of 8.  Cycle 0 hands
 * groups 0..3 to SMs 0..3 (CTAs 0, 8, 16, 24), cycle 1 their second CTAs; each
 * SM works through its group two at a time (a slot frees every 10 cycles) and at
 * cycle 40 all groups are done: SM0, visited first, takes group 4 (32..39), the
 * others idle.
 * q8_adpt: cycle 0: SM0 takes group 0 (5 groups left >= 4 SMs), SM1 group 1 (4
 * left); now 3 groups are left (< 4 SMs): round-robin over CTAs 16..39 from
 * here.  SM2 gets 16, SM3 17; cycle 1: SM0 1, SM1 9, SM2 18, SM3 19; every 10
 * cycles SM2 and SM3 take the next two CTAs each (SM2 the even, SM3 the odd up
 * to 31) while SM0 and SM1 finish their groups at cycle 40, when 32..35 go to
 * SMs 0..3 and at cycle 41 36..39. */
static void test_q8_adpt_four_sms(void **state) {
    (void)state;
    cta_map m;
    int want[40];
    for (int c = 0; c < 32; c++) want[c] = c / 8;
    for (int c = 32; c < 40; c++) want[c] = 0;
    drive("q8", 4, 2, 40, 1, NULL, &m);
    expect_map(&m, want, 40);
    assert_int_equal(m.at[32], 40);
    for (int c = 16; c < 32; c++) want[c] = 2 + c % 2;
    for (int c = 32; c < 40; c++) want[c] = c % 4;
    drive("q8_adpt", 4, 2, 40, 1, NULL, &m);
    expect_map(&m, want, 40);
    assert_int_equal(m.at[16], 0);
    assert_int_equal(m.at[31], 31);
    assert_int_equal(m.at[32], 40);
    assert_int_equal(m.at[39], 41);
}

/* BCS: 2 SMs, 2 slots each, 9 CTAs (9x1), 10 cycles each except CTA 0 (5).
 * Cycle 0: SM0 gets its initial block {0,1} (CTA 0), SM1 {2,3} (CTA 2); cycle 1:
 * 1 and 3.  Cycle 5: CTA 0 ends, SM0 has one free slot: held (pairs only).
 * Cycle 10: CTA 2 ends, SM1 has one slot: held.  Cycle 11: CTAs 1 and 3 end:
 * SM0 gets the pair {4,5}, SM1 {6,7} (4 and 6 now, 5 and 7 at cycle 12).
 * Cycle 21: CTAs 4 and 6 end; only CTA 8 is left, so no pair can form and the
 * single CTA goes to SM0 (visited first) with its one free slot.
 * RR, same durations: 0,2,4,6,8 on SM0 and 1,3,5,7 on SM1, CTA 4 at cycle 5. */
static void test_bcs_pairs(void **state) {
    (void)state;
    uint32_t dur[9] = {5, 10, 10, 10, 10, 10, 10, 10, 10};
    cta_map m;
    drive("bcs", 2, 2, 9, 1, dur, &m);
    static const int bcs[] = {0, 0, 1, 1, 0, 0, 1, 1, 0};
    expect_map(&m, bcs, 9);
    assert_int_equal(m.at[4], 11);
    assert_int_equal(m.at[5], 12);
    assert_int_equal(m.at[6], 11);
    assert_int_equal(m.at[7], 12);
    assert_int_equal(m.at[8], 21);
    drive("rr", 2, 2, 9, 1, dur, &m);
    static const int rr[] = {0, 1, 0, 1, 0, 1, 0, 1, 0};
    expect_map(&m, rr, 9);
    assert_int_equal(m.at[4], 5);
}

/* With one CTA per SM a pair can never fit: BCS hands out single CTAs (it must
 * not deadlock) in consecutive blocks of one: round-robin. */
static void test_bcs_one_slot(void **state) {
    (void)state;
    cta_map m;
    drive("bcs", 3, 1, 7, 1, NULL, &m);
    static const int want[] = {0, 1, 2, 0, 1, 2, 0};
    expect_map(&m, want, 7);
}

static void test_bad_args(void **state) {
    (void)state;
    const char *args;
    char err[256];
    const char *names[] = {"bcs", "q8", "q16", "qx", "q8_adpt", "q16_adpt", "qx_adpt"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "%s:3", names[i]);
        const cta_sched_ops *ops = cta_sched_find(spec, &args);
        assert_non_null(ops);
        cta_sched_params p = {.num_sms = 2, .max_ctas_per_sm = 1, .nctas = 4, .grid = {4, 1, 1}, .args = args};
        assert_null(ops->create(&p, err, sizeof err));
        assert_non_null(strstr(err, "takes no arguments"));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qx_rows),          cmocka_unit_test(test_qx_adpt_switch_point),
        cmocka_unit_test(test_q8_q16),           cmocka_unit_test(test_q8_adpt_four_sms),
        cmocka_unit_test(test_bcs_pairs),        cmocka_unit_test(test_bcs_one_slot),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
