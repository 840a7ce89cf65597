/* WSMP's mechanisms (docs/wsmp.md): the MFQ DRAM scheduler (level choice,
 * timeout promotion, order inside a level, one queue per bank), the warp-level
 * wsmp scheduler, and the latency tolerance sigma the SMs keep.  Expected
 * values are worked by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"
#include "sched/sched.h"
#include "timing_util.h"

/* ---- a hand-built DRAM queue, as the channel keeps it ---- */

#define QCAP 16
#define NBANK 2

typedef struct {
    dram_queue q;
    dram_request slots[QCAP];
    int32_t oldest[NBANK], newest[NBANK];
    uint32_t n;
    const dram_sched_ops *ops;
    void *st;
    char stat_name[32];
    double stat_value;
} fake_channel;

static bool fc_row_hit_first;   /* -mfq_row_hit_first of the next fc_init */

static void fc_init(fake_channel *f, uint32_t t1, uint32_t t2, uint32_t t3, uint32_t to1, uint32_t to2, uint32_t to3) {
    memset(f, 0, sizeof *f);
    f->q.slots = f->slots;
    f->q.capacity = QCAP;
    f->q.bank_oldest = f->oldest;
    f->q.bank_newest = f->newest;
    f->q.nbanks = NBANK;
    f->q.oldest = f->q.newest = DRAM_NONE;
    for (int b = 0; b < NBANK; b++) f->oldest[b] = f->newest[b] = DRAM_NONE;
    dram_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.t.nbk = NBANK;
    cfg.queue_size = QCAP;
    cfg.mfq_thresholds[0] = t1, cfg.mfq_thresholds[1] = t2, cfg.mfq_thresholds[2] = t3;
    cfg.mfq_timeouts[0] = to1, cfg.mfq_timeouts[1] = to2, cfg.mfq_timeouts[2] = to3;
    cfg.mfq_row_hit_first = fc_row_hit_first;
    f->ops = dram_sched_find("mfq");
    assert_non_null(f->ops);
    assert_true(f->ops->uses_sigma);
    f->st = f->ops->create(&cfg);
    assert_non_null(f->st);
}

/* Request `id` (kept in addr) from warp (sm 0, warp) with sigma, to bank, at now. */
static int32_t fc_push(fake_channel *f, uint32_t id, uint32_t bank, uint8_t sigma, uint16_t warp, int write,
                       uint64_t now) {
    int32_t s = (int32_t)f->n++;
    dram_request *e = &f->slots[s];
    memset(e, 0, sizeof *e);
    e->req.addr = id;
    e->req.sigma = sigma;
    e->req.warp = warp;
    e->req.type = write ? MEM_GLOBAL_ACC_W : MEM_GLOBAL_ACC_R;
    e->seq = (uint64_t)s;
    e->bank = bank;
    e->used = 1;
    e->bank_prev = f->newest[bank];
    e->bank_next = DRAM_NONE;
    if (f->newest[bank] != DRAM_NONE) f->slots[f->newest[bank]].bank_next = s;
    else f->oldest[bank] = s;
    f->newest[bank] = s;
    f->ops->on_arrival(f->st, &f->q, s, now);
    return s;
}

/* The id of the request bank takes at now with open_row open (-1: none),
 * removed from the bank's list. */
static uint32_t fc_pick_row(fake_channel *f, uint32_t bank, int64_t open_row, uint64_t now) {
    int32_t s = f->ops->pick(f->st, &f->q, bank, open_row, now);
    assert_true(s != DRAM_NONE);
    dram_request *e = &f->slots[s];
    assert_int_equal(e->bank, bank);
    if (e->bank_prev != DRAM_NONE) f->slots[e->bank_prev].bank_next = e->bank_next;
    else f->oldest[bank] = e->bank_next;
    if (e->bank_next != DRAM_NONE) f->slots[e->bank_next].bank_prev = e->bank_prev;
    else f->newest[bank] = e->bank_prev;
    e->in_service = 1;
    return (uint32_t)e->req.addr;
}

static uint32_t fc_pick(fake_channel *f, uint32_t bank, uint64_t now) { return fc_pick_row(f, bank, -1, now); }

static void grab(void *ctx, const char *name, double value) {
    fake_channel *f = ctx;
    if (!strcmp(name, f->stat_name)) f->stat_value = value;
}

static double fc_stat(fake_channel *f, const char *name) {
    snprintf(f->stat_name, sizeof f->stat_name, "%s", name);
    f->stat_value = -1;
    f->ops->report(f->st, grab, f);
    assert_true(f->stat_value >= 0);
    return f->stat_value;
}

/* Thresholds 25/50/75: sigma 0 and 24 -> L0, 25 and 49 -> L1, 50 and 74 -> L2,
 * 75 and 100 -> L3.  Pushed worst first, one bank, no timeouts in reach (1000
 * cycles): the bank serves L0's two (FIFO), then L1's, L2's, L3's. */
static void mfq_level_choice(void **state) {
    (void)state;
    fake_channel f;
    fc_init(&f, 25, 50, 75, 1000, 1000, 1000);
    static const uint8_t sigma[8] = {100, 75, 74, 50, 49, 25, 24, 0};
    for (uint32_t i = 0; i < 8; i++) fc_push(&f, i, 0, sigma[i], (uint16_t)i, 0, 0);
    assert_int_equal(fc_stat(&f, "mfq_arrivals_L0"), 2);
    assert_int_equal(fc_stat(&f, "mfq_arrivals_L1"), 2);
    assert_int_equal(fc_stat(&f, "mfq_arrivals_L2"), 2);
    assert_int_equal(fc_stat(&f, "mfq_arrivals_L3"), 2);
    static const uint32_t want[8] = {6, 7, 4, 5, 2, 3, 0, 1};
    for (uint32_t i = 0; i < 8; i++) assert_int_equal(fc_pick(&f, 0, 1), want[i]);
    assert_int_equal(fc_stat(&f, "mfq_served_L0"), 2);
    assert_int_equal(fc_stat(&f, "mfq_served"), 8);
    f.ops->destroy(f.st);
}

/* Timeouts L1 10, L2 20, L3 40 cycles.
 *  A (sigma 80, L3) arrives at 0, B (sigma 60, L2) at 5.  At 30: A has waited
 *  30 < 40 in L3; B 25 >= 20 in L2, so B moved to L1 at 25: the bank takes B.
 *  C (sigma 55, L2) arrives at 35.  At 45: A moved to the back of L2 at 40 (one
 *  timeout), after C (entered L2 at 35) by time, but a request that arrived by a
 *  timeout goes first inside its level: A.
 *  D (sigma 90, L3) arrives at 50; at 150 it has climbed L3 -> L2 at 90, L2 -> L1
 *  at 110, L1 -> L0 at 120: three transfers; C (L2 since 35) climbed L2 -> L1 at
 *  55, L1 -> L0 at 65, so both are in L0, both promoted: C entered L0 first (65).
 *  Counters: timeouts out of L3: A, D = 2; out of L2: B, A? no -- A was served
 *  from L2 -- B, C, D = 3; out of L1: C, D = 2; served after 3+ transfers: D. */
static void mfq_timeouts(void **state) {
    (void)state;
    fake_channel f;
    fc_init(&f, 25, 50, 75, 10, 20, 40);
    fc_push(&f, 'A', 0, 80, 1, 0, 0);
    fc_push(&f, 'B', 0, 60, 2, 0, 5);
    assert_int_equal(fc_pick(&f, 0, 30), 'B');
    fc_push(&f, 'C', 0, 55, 3, 0, 35);
    assert_int_equal(fc_pick(&f, 0, 45), 'A');
    fc_push(&f, 'D', 0, 90, 4, 0, 50);
    assert_int_equal(fc_pick(&f, 0, 150), 'C');
    assert_int_equal(fc_pick(&f, 0, 151), 'D');
    assert_int_equal(fc_stat(&f, "mfq_timeouts_L3"), 2);
    assert_int_equal(fc_stat(&f, "mfq_timeouts_L2"), 3);
    assert_int_equal(fc_stat(&f, "mfq_timeouts_L1"), 2);
    assert_int_equal(fc_stat(&f, "mfq_transfers"), 7);
    assert_int_equal(fc_stat(&f, "mfq_served_moved_3plus"), 1);   /* D */
    assert_int_equal(fc_stat(&f, "mfq_served_moved_1_2"), 3);     /* B (1), A (1), C (2) */
    assert_int_equal(fc_stat(&f, "mfq_served_L0"), 2);            /* C, D */
    assert_int_equal(fc_stat(&f, "mfq_served_L1"), 1);            /* B */
    assert_int_equal(fc_stat(&f, "mfq_served_L2"), 1);            /* A */
    /* entered L1: B, C, D by promotion; L0: C, D */
    assert_int_equal(fc_stat(&f, "mfq_in_L1"), 3);
    assert_int_equal(fc_stat(&f, "mfq_in_L0"), 2);
    f.ops->destroy(f.st);
}

/* mfq_wait_over_<W>_L<k>: how long requests stayed in level k.  L1 timeout
 * 150, L2's out of reach.  X and Y (sigma 30: L1) arrive at 0 and 10; X is
 * served at 50 (waited 50: over no mark), Y times out at 160 (waited 150 in
 * L1: over 100, not 200) and is served from L0 at 400.  Z (sigma 60: L2)
 * arrives at 0 and is served at 401 (waited 401 in L2: over 100, 200, 400). */
static void mfq_wait_marks(void **state) {
    (void)state;
    fake_channel f;
    fc_init(&f, 25, 50, 75, 150, 100000, 100000);
    fc_push(&f, 'X', 0, 30, 1, 0, 0);
    fc_push(&f, 'Z', 0, 60, 3, 0, 0);
    fc_push(&f, 'Y', 0, 30, 2, 0, 10);
    assert_int_equal(fc_pick(&f, 0, 50), 'X');
    assert_int_equal(fc_pick(&f, 0, 400), 'Y');
    assert_int_equal(fc_pick(&f, 0, 401), 'Z');
    static const struct { const char *name; double want; } want[] = {
        {"mfq_wait_over_100_L1", 1}, {"mfq_wait_over_200_L1", 0}, {"mfq_wait_over_100_L2", 1},
        {"mfq_wait_over_200_L2", 1}, {"mfq_wait_over_400_L2", 1}, {"mfq_wait_over_800_L2", 0},
        {"mfq_timeouts_L1", 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) assert_true(fc_stat(&f, want[i].name) == want[i].want);
    f.ops->destroy(f.st);
}

/* Inside one level (all sigma 10: L0): arrivals W1 (write, warp 1), R2 (read,
 * warp 2), R3 (read, warp 3), R2b (read, warp 2).  Reads first, in arrival
 * order: R2; then the same warp as the last served: R2b; then R3; the write
 * last. */
static void mfq_order_in_level(void **state) {
    (void)state;
    fake_channel f;
    fc_init(&f, 25, 50, 75, 1000, 1000, 1000);
    fc_push(&f, 1, 0, 10, 1, 1, 0);
    fc_push(&f, 2, 0, 10, 2, 0, 0);
    fc_push(&f, 3, 0, 10, 3, 0, 0);
    fc_push(&f, 4, 0, 10, 2, 0, 0);
    assert_int_equal(fc_pick(&f, 0, 1), 2);
    assert_int_equal(fc_pick(&f, 0, 2), 4);
    assert_int_equal(fc_pick(&f, 0, 3), 3);
    assert_int_equal(fc_pick(&f, 0, 4), 1);
    f.ops->destroy(f.st);
}

/* -mfq_row_hit_first: bank 0 has row 7 open.  Arrivals: A (L0, row 3), B (L1,
 * row 7), C (L0, row 7), D (L0, row 3).  The literal MFQ serves L0 in arrival
 * order whatever the row: A, C, D, then B.  The variant takes L0's row hit C
 * first, then A, D (FIFO among L0's misses) -- but never L1's row hit B before
 * a request of L0. */
static void mfq_row_hit_first(void **state) {
    (void)state;
    static const uint32_t rows[] = {0, 3, 7, 7, 3};
    static const uint8_t sigmas[] = {0, 10, 30, 10, 10};
    static const uint32_t literal[] = {1, 3, 4, 2}, variant[] = {3, 1, 4, 2};
    for (int v = 0; v < 2; v++) {
        fc_row_hit_first = v;
        fake_channel f;
        fc_init(&f, 25, 50, 75, 1000, 1000, 1000);
        for (uint32_t id = 1; id <= 4; id++) f.slots[fc_push(&f, id, 0, sigmas[id], 1, 0, 0)].row = rows[id];
        for (uint32_t k = 0; k < 4; k++) assert_int_equal(fc_pick_row(&f, 0, 7, 1 + k), v ? variant[k] : literal[k]);
        f.ops->destroy(f.st);
    }
    fc_row_hit_first = false;
}

/* One MFQ per bank: bank 1's pick sees only bank 1's requests (its L3 request,
 * though bank 0 holds an L0 one), and the same-warp preference is per bank:
 * bank 0 served warp 5 last, bank 1 warp 6, so each keeps its own warp first. */
static void mfq_per_bank(void **state) {
    (void)state;
    fake_channel f;
    fc_init(&f, 25, 50, 75, 1000, 1000, 1000);
    fc_push(&f, 10, 0, 0, 5, 0, 0);
    fc_push(&f, 11, 1, 100, 6, 0, 0);
    assert_int_equal(fc_pick(&f, 1, 1), 11);
    assert_int_equal(fc_pick(&f, 0, 1), 10);
    fc_push(&f, 20, 0, 100, 6, 0, 2);
    fc_push(&f, 21, 0, 100, 5, 0, 2);
    fc_push(&f, 22, 1, 100, 5, 0, 2);
    fc_push(&f, 23, 1, 100, 6, 0, 2);
    assert_int_equal(fc_pick(&f, 0, 3), 21);   /* warp 5, served last by bank 0 */
    assert_int_equal(fc_pick(&f, 1, 3), 23);   /* warp 6, served last by bank 1 */
    assert_int_equal(fc_pick(&f, 0, 4), 20);
    assert_int_equal(fc_pick(&f, 1, 4), 22);
    f.ops->destroy(f.st);
}

/* ---- the warp scheduler ---- */

/* Thresholds 25/50/75, timeouts L1 16, L2 32, L3 64 (-wsmp_timeouts defaults).
 * Warps 0 (sigma 100, L3), 1 (sigma 30, L1), 2 (sigma 60, L2), all ready: warp 1.
 * Then A = warp 0 (sigma 90, L3) started at 0, B = warp 2 (sigma 60, L2) at 40:
 * at 70 A has moved to L2 at 64, B has been in L2 since 40: B.  B issues at 70
 * (back of L2); at 71 A (L2 since 64) goes first. */
static void wsmp_scheduler(void **state) {
    (void)state;
    const char *args = NULL;
    const warp_sched_ops *ops = sched_find("wsmp", &args);
    assert_non_null(ops);
    assert_true(ops->uses_sigma);
    sched_params p = {.sm_id = 0, .num_sched = 1, .max_warps = 8, .args = "", .cfg = NULL};
    char err[128];
    void *st = ops->create(&p, err, sizeof err);
    assert_non_null(st);
    uint8_t sigma[8] = {100, 30, 60};
    uint8_t age[3] = {0, 1, 2};
    for (uint32_t w = 0; w < 3; w++) ops->warp_start(st, w, 0);
    sched_view v = {.now = 1, .ready = 7, .owned = 7, .live = 7, .age_order = age, .nlive = 3, .sigma = sigma};
    assert_int_equal(ops->pick(st, &v), 1);
    sigma[0] = 90;
    ops->warp_start(st, 0, 0);
    ops->warp_start(st, 2, 40);
    v.ready = 5;
    v.now = 70;
    assert_int_equal(ops->pick(st, &v), 2);
    ops->issued(st, 2, NULL, 70);
    v.now = 71;
    assert_int_equal(ops->pick(st, &v), 0);
    ops->destroy(st);
    p.args = "x";
    assert_null(ops->create(&p, err, sizeof err));
}

/* ---- sigma, end to end ---- */

/* One warp; lanes tid < n each load their own 128 B line (in + 128 tid), the
 * other lanes are predicated off.  The L1D (miss queue raised to 64) takes one
 * access per cycle and a miss leaves the SM 35 cycles (the L1 latency) after its
 * access, so when the first request leaves all n lanes already wait: sigma =
 * floor(100 (32 - n) / 32) for every request.  The L2 is cold (copies do not
 * fill it).  Each lane's L1 miss fetches its whole 128 B line (the L1D is not
 * sectored), which the sectored L2 splits into 4 sector misses: 4 DRAM reads
 * per lane, 4n in all, every one in the MFQ level of that sigma:
 *   n = 8:  sigma 75 -> L3;   n = 9:  71 -> L2;   n = 16: 50 -> L2;
 *   n = 17: 46 -> L1;         n = 24: 25 -> L1;   n = 25: 21 -> L0;   n = 32: 0 -> L0. */
static const char sigma_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry lanes(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  setp.lt.u32 %p1, %r2, %r1;\n"
    "  mul.wide.u32 %rd2, %r2, 128;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  @%p1 ld.global.u32 %r3, [%rd3];\n"
    "  ret;\n"
    "}\n";

typedef struct { uint32_t n, level; } sigma_case;

/* Run the lanes kernel once per case and check that all 4 n reads of its n
 * missing lanes arrive in the case's MFQ level and none in the others. */
static void check_sigma_levels(const char *const *ov, const sigma_case *cases, size_t ncases, const char *tag) {
    for (size_t i = 0; i < ncases; i++) {
        tdev t;
        tdev_open(&t, "fermi_gtx480", ov);
        locsim_kernel *k = tdev_kernel(&t, sigma_ptx, "lanes");
        locsim_dptr in = tdev_alloc(&t, NULL, 32 * 128);
        uint32_t n = cases[i].n;
        void *args[] = {&in, &n};
        tdev_launch(&t, k, 1, 32, args, 2);
        for (uint32_t lv = 0; lv < 4; lv++) {
            char name[32];
            snprintf(name, sizeof name, "mfq_arrivals_L%u", lv);
            double got = tdev_stat(&t, name, 0);
            printf("%sn=%2u L%u: %.0f\n", tag, n, lv, got);
            assert_int_equal((uint32_t)got, lv == cases[i].level ? 4 * n : 0);
        }
        tdev_close(&t);
    }
}

static void sigma_levels(void **state) {
    (void)state;
    static const sigma_case cases[] = {{8, 3}, {9, 2}, {16, 2}, {17, 1}, {24, 1}, {25, 0}, {32, 0}};
    static const char *const ov[] = {"-gpgpu_dram_scheduler", "mfq", "-gpgpu_perf_sim_memcpy", "0",
                                     "-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,S:64:8,64", NULL};
    check_sigma_levels(ov, cases, sizeof cases / sizeof cases[0], "");
}

/* All requests of one memory instruction share one sigma, so one MFQ level
 * (docs/wsmp.md): the same kernel with a 1-cycle L1 latency, so that the first
 * lane's miss is ready to leave the SM while the L1 is still looking up the
 * other lanes (one access per cycle).  Stamped per request as it left, the
 * first requests counted only the lanes looked up so far (sigma 96, 93, ...:
 * L3, then L2, ...); taken once per instruction, every request of the n lanes
 * has sigma floor(100 (32 - n) / 32): n = 32 -> 0, all 128 in L0; n = 20 ->
 * 37, all 80 in L1. */
static void sigma_one_level_per_instruction(void **state) {
    (void)state;
    static const sigma_case cases[] = {{32, 0}, {20, 1}};
    static const char *const ov[] = {"-gpgpu_dram_scheduler", "mfq", "-gpgpu_perf_sim_memcpy", "0",
                                     "-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,S:64:8,64", "-gpgpu_l1_latency", "1",
                                     NULL};
    check_sigma_levels(ov, cases, sizeof cases / sizeof cases[0], "l1 latency 1, ");
}

/* The option set of the paper's three configurations loads, and MFQ's options
 * are checked. */
static void wsmp_options(void **state) {
    (void)state;
    locsim_config *cfg = NULL;
    char err[512];
    char *bad[] = {"-mfq_thresholds", "60:50:75"};
    assert_int_not_equal(locsim_config_load("fermi_gtx480", 2, bad, &cfg, err, sizeof err), LOCSIM_OK);
    assert_non_null(strstr(err, "non-decreasing"));
    char *full[] = {"-gpgpu_dram_scheduler", "mfq", "-gpgpu_scheduler", "wsmp", "-l2_prefetcher", "nextline"};
    assert_int_equal(locsim_config_load("fermi_gtx480", 6, full, &cfg, err, sizeof err), LOCSIM_OK);
    locsim_config_free(cfg);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mfq_level_choice), cmocka_unit_test(mfq_timeouts), cmocka_unit_test(mfq_order_in_level),
        cmocka_unit_test(mfq_per_bank),     cmocka_unit_test(wsmp_scheduler), cmocka_unit_test(sigma_levels),
        cmocka_unit_test(sigma_one_level_per_instruction), cmocka_unit_test(mfq_row_hit_first),
        cmocka_unit_test(mfq_wait_marks),
        cmocka_unit_test(wsmp_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
