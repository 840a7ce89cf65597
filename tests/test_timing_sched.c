/* Warp-scheduler plug-ins on hand-made situations: the pipeline's view (which
 * warps can issue, their ages) is built by hand and each policy's choice is
 * checked against the rule in DESIGN.md section 5.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cta/cta_sched.h"
#include "sched/sched.h"

typedef struct {
    const warp_sched_ops *ops;
    void *st;
    uint8_t age[SCHED_MAX_WARPS];
    uint32_t nlive;
    warp_mask live;
} fixture;

static void make(fixture *f, const char *spec, uint32_t num_sched, uint32_t max_warps) {
    const char *args;
    char err[256] = "";
    memset(f, 0, sizeof *f);
    f->ops = sched_find(spec, &args);
    assert_non_null(f->ops);
    sched_params p = {.sm_id = 0, .num_sched = num_sched, .max_warps = max_warps, .args = args};
    f->st = f->ops->create(&p, err, sizeof err);
    if (!f->st) print_error("%s\n", err);
    assert_non_null(f->st);
}

/* Live warps, oldest first. */
static void set_ages(fixture *f, const uint8_t *order, uint32_t n) {
    memcpy(f->age, order, n);
    f->nlive = n;
    f->live = 0;
    for (uint32_t i = 0; i < n; i++) f->live |= (warp_mask)1 << order[i];
}

static int pick(fixture *f, uint32_t sched_id, warp_mask ready) {
    sched_view v = {.now = 0, .sched_id = sched_id, .ready = ready, .owned = f->live, .live = f->live,
                    .age_order = f->age, .nlive = f->nlive};
    int w = f->ops->pick(f->st, &v);
    if (w >= 0) assert_true((ready >> w) & 1);  /* never a warp that cannot issue */
    return w;
}

#define M(...) mask_of((const int[]){__VA_ARGS__, -1})
static warp_mask mask_of(const int *w) {
    warp_mask m = 0;
    for (; *w >= 0; w++) m |= (warp_mask)1 << *w;
    return m;
}

static void test_lrr_rotates_and_skips(void **state) {
    (void)state;
    fixture f;
    make(&f, "lrr", 1, 8);
    set_ages(&f, (const uint8_t[]){0, 1, 2, 3}, 4);
    warp_mask all = M(0, 1, 2, 3);
    /* round-robin from the warp after the last issued */
    assert_int_equal(pick(&f, 0, all), 0);
    assert_int_equal(pick(&f, 0, all), 1);
    assert_int_equal(pick(&f, 0, all), 2);
    assert_int_equal(pick(&f, 0, all), 3);
    assert_int_equal(pick(&f, 0, all), 0);
    /* warp 1 cannot issue: skipped, the turn goes to 2 */
    assert_int_equal(pick(&f, 0, M(0, 2, 3)), 2);
    /* after 3 it wraps to the lowest ready */
    assert_int_equal(pick(&f, 0, M(3)), 3);
    assert_int_equal(pick(&f, 0, M(1, 2)), 1);
    f.ops->destroy(f.st);
}

static void test_gto_sticks_then_oldest(void **state) {
    (void)state;
    fixture f;
    make(&f, "gto", 1, 8);
    /* arrival order: 3 first, then 1, 0, 2 */
    set_ages(&f, (const uint8_t[]){3, 1, 0, 2}, 4);
    warp_mask all = M(0, 1, 2, 3);
    assert_int_equal(pick(&f, 0, all), 3);        /* oldest */
    assert_int_equal(pick(&f, 0, all), 3);        /* greedy: keeps it */
    assert_int_equal(pick(&f, 0, M(0, 1, 2)), 1); /* 3 stalls: the oldest ready is 1 */
    assert_int_equal(pick(&f, 0, all), 1);        /* greedy on 1 even though 3 is ready again */
    assert_int_equal(pick(&f, 0, M(0, 2)), 0);    /* 1 stalls: 0 is older than 2 */
    f.ops->destroy(f.st);
}

static void test_two_level_stays_in_group(void **state) {
    (void)state;
    fixture f;
    /* one scheduler, 8 warps, fetch groups of 2: {0,1} {2,3} {4,5} {6,7}; lrr inside, lrr across */
    make(&f, "two_level_active:2:lrr:lrr", 1, 8);
    set_ages(&f, (const uint8_t[]){0, 1, 2, 3, 4, 5, 6, 7}, 8);
    warp_mask all = M(0, 1, 2, 3, 4, 5, 6, 7);
    assert_int_equal(pick(&f, 0, all), 0);
    assert_int_equal(pick(&f, 0, all), 1);
    assert_int_equal(pick(&f, 0, all), 0);  /* stays in group 0 while it can issue */
    assert_int_equal(pick(&f, 0, all), 1);
    /* group 0 stalls: the next group with a ready warp in round-robin order is {4,5} */
    assert_int_equal(pick(&f, 0, M(4, 5, 6)), 4);
    assert_int_equal(pick(&f, 0, all), 5);  /* group {4,5} is now the active one */
    assert_int_equal(pick(&f, 0, all), 4);
    f.ops->destroy(f.st);

    /* gto:gto: the new group is the one holding the oldest ready warp */
    make(&f, "two_level_active:2:gto:gto", 1, 8);
    set_ages(&f, (const uint8_t[]){6, 7, 2, 3, 0, 1, 4, 5}, 8);
    assert_int_equal(pick(&f, 0, all), 6);          /* oldest ready: 6, group {6,7} */
    assert_int_equal(pick(&f, 0, M(2, 3, 7)), 7);   /* 6 stalls, its group still has 7 */
    assert_int_equal(pick(&f, 0, M(0, 2, 3)), 2);   /* group {6,7} stalled: oldest ready 2 -> {2,3} */
    assert_int_equal(pick(&f, 0, M(0, 3, 6)), 3);   /* 2 stalls, 3 in the active group */
    f.ops->destroy(f.st);
}

static void test_two_level_groups_per_scheduler(void **state) {
    (void)state;
    fixture f;
    /* two schedulers: scheduler 1 owns 1,3,5,7; its groups of 2 are {1,3} {5,7} */
    make(&f, "two_level_active:2:lrr:lrr", 2, 8);
    set_ages(&f, (const uint8_t[]){0, 1, 2, 3, 4, 5, 6, 7}, 8);
    assert_int_equal(pick(&f, 1, M(1, 3, 5, 7)), 1);
    assert_int_equal(pick(&f, 1, M(3, 5, 7)), 3);
    assert_int_equal(pick(&f, 1, M(5, 7)), 5);
    assert_int_equal(pick(&f, 1, M(1, 3, 5, 7)), 7); /* active group is {5,7} now */
    f.ops->destroy(f.st);
}

static void test_swl_never_past_n(void **state) {
    (void)state;
    fixture f;
    make(&f, "warp_limiting:gto:2", 1, 8);
    set_ages(&f, (const uint8_t[]){5, 2, 7, 0}, 4);
    /* only 5 and 2 (the two oldest) may issue */
    assert_int_equal(pick(&f, 0, M(7, 0)), -1);
    assert_int_equal(pick(&f, 0, M(2, 7, 0)), 2);
    assert_int_equal(pick(&f, 0, M(5, 2, 7, 0)), 2);  /* greedy on 2 */
    assert_int_equal(pick(&f, 0, M(5, 7, 0)), 5);
    /* warp 5 exits: 2 and 7 are now the two oldest */
    set_ages(&f, (const uint8_t[]){2, 7, 0}, 3);
    f.ops->warp_exit(f.st, 5, 0);
    assert_int_equal(pick(&f, 0, M(7, 0)), 7);
    for (int i = 0; i < 100; i++) assert_true(pick(&f, 0, M(0, 7)) != 0);
    f.ops->destroy(f.st);
}

/* The paper's SWL at a barrier (section 3.2): while one of the N allowed warps
 * waits at a barrier, the rest of its CTA may run to the barrier; other CTAs'
 * warps stay limited.  Two CTAs of four warps: slots 0-3 (older), 4-7. */
static void test_swl_barrier_lets_the_cta_arrive(void **state) {
    (void)state;
    fixture f;
    make(&f, "warp_limiting:gto:2", 1, 8);
    set_ages(&f, (const uint8_t[]){0, 1, 2, 3, 4, 5, 6, 7}, 8);
    const warp_mask groups[2] = {M(0, 1, 2, 3), M(4, 5, 6, 7)};
    sched_view v = {.sched_id = 0, .owned = f.live, .live = f.live, .age_order = f.age, .nlive = 8,
                    .age_groups = groups, .ngroups = 2};
    /* no barrier: 2..7 are beyond the limit */
    v.ready = M(2, 3, 4, 5);
    assert_int_equal(f.ops->pick(f.st, &v), -1);
    /* warp 1 waits at its CTA's barrier: 2 and 3 may come to it, 4..7 may not */
    v.at_barrier = M(1);
    v.ready = M(0, 3, 4, 5);
    assert_int_equal(f.ops->pick(f.st, &v), 0);
    v.ready = M(3, 4, 5);
    assert_int_equal(f.ops->pick(f.st, &v), 3);
    v.ready = M(4, 5, 6, 7);
    assert_int_equal(f.ops->pick(f.st, &v), -1);
    /* both allowed warps wait: still only their CTA */
    v.at_barrier = M(0, 1);
    v.ready = M(2, 4);
    assert_int_equal(f.ops->pick(f.st, &v), 2);
    /* a barrier in a CTA beyond the limit frees nothing */
    v.at_barrier = M(4);
    v.ready = M(5, 6);
    assert_int_equal(f.ops->pick(f.st, &v), -1);
    f.ops->destroy(f.st);
}

static void test_bad_specs(void **state) {
    (void)state;
    const char *args;
    char err[256];
    assert_null(sched_find("fastest", &args));
    const char *bad[] = {"two_level_active:0:gto:gto", "two_level_active:2:gto", "two_level_active:2:gto:xyz",
                         "warp_limiting:gto", "warp_limiting:gto:0", "warp_limiting:fifo:4", "lrr:3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const warp_sched_ops *ops = sched_find(bad[i], &args);
        assert_non_null(ops);
        sched_params p = {.num_sched = 2, .max_warps = 48, .args = args};
        err[0] = 0;
        assert_null(ops->create(&p, err, sizeof err));
        assert_true(err[0] != 0);
    }
    /* aliases */
    assert_string_equal(sched_find("two_level", &args)->name, "two_level_active");
    assert_string_equal(sched_find("swl:gto:4", &args)->name, "warp_limiting");
    assert_string_equal(args, "gto:4");
}

static void test_cta_rr_hands_out_each_cta_once(void **state) {
    (void)state;
    const char *args;
    char err[256];
    const cta_sched_ops *ops = cta_sched_find("rr", &args);
    assert_non_null(ops);
    cta_sched_params p = {.num_sms = 3, .max_ctas_per_sm = 2, .nctas = 5, .args = args};
    void *st = ops->create(&p, err, sizeof err);
    assert_non_null(st);
    uint64_t cta;
    for (uint64_t i = 0; i < 5; i++) {
        assert_int_equal(ops->next(st, (uint32_t)(i % 3), 1, 0, &cta), 1);
        assert_int_equal(cta, i);
    }
    assert_int_equal(ops->next(st, 0, 2, 0, &cta), 0);
    ops->destroy(st);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr_rotates_and_skips),
        cmocka_unit_test(test_gto_sticks_then_oldest),
        cmocka_unit_test(test_two_level_stays_in_group),
        cmocka_unit_test(test_two_level_groups_per_scheduler),
        cmocka_unit_test(test_swl_never_past_n),
        cmocka_unit_test(test_swl_barrier_lets_the_cta_arrive),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_cta_rr_hands_out_each_cta_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
