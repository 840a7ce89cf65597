/* The SM side of the timing model: shared-memory bank conflicts, occupancy
 * limits, scoreboard latencies, and determinism of the whole statistics output.
 * Expected values are worked out by hand from configs/fermi_gtx480.cfg. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/sm.h"
#include "core/sm_internal.h"
#include "sim/gpu.h"
#include "timing_util.h"
#include "workload.h"

/* One warp: thread t stores t at word t*stride of a shared array, then loads it
 * back `iters` times, one load at a time (the next address depends on the data).
 * stride 1: 32 lanes in 32 banks; stride 32: all lanes in bank 0, 32 words. */
static const char *const banks_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry banks(.param .u32 stride, .param .u32 iters, .param .u64 dst)\n{\n"
    "  .shared .align 4 .b32 buf[1024];\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u32 %r1, [stride];\n  ld.param.u32 %r2, [iters];\n  ld.param.u64 %rd1, [dst];\n"
    "  mov.u32 %r3, %tid.x;\n  mul.lo.u32 %r4, %r3, %r1;\n  shl.b32 %r5, %r4, 2;\n"
    "  mov.u32 %r6, buf;\n  add.u32 %r7, %r6, %r5;\n"
    "  st.shared.u32 [%r7], %r3;\n  bar.sync 0;\n"
    "  mov.u32 %r8, 0;\n  mov.u32 %r9, 0;\n"
    "$Lloop:\n  ld.shared.u32 %r10, [%r7];\n  add.s32 %r9, %r9, %r10;\n"
    "  and.b32 %r11, %r10, 0;\n  add.u32 %r7, %r7, %r11;\n"
    "  add.s32 %r8, %r8, 1;\n  setp.lt.u32 %p1, %r8, %r2;\n  @%p1 bra $Lloop;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r9;\n  ret;\n}\n";

static uint64_t run_banks(uint32_t stride, uint32_t iters, double *conflict_cycles) {
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    locsim_dptr dst = tdev_alloc(&t, NULL, 128);
    void *args[] = {&stride, &iters, &dst};
    tdev_launch(&t, tdev_kernel(&t, banks_ptx, "banks"), 1, 32, args, 3);
    uint32_t out[32];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, dst, sizeof out), LOCSIM_OK);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(out[l], l * iters);
    *conflict_cycles = tdev_stat(&t, "smem_bank_conflict_cycles", 0);
    uint64_t cycles = (uint64_t)tdev_stat(&t, "gpu_sim_cycle", 0);
    tdev_close(&t);
    return cycles;
}

/* 32 banks of 4 bytes.  Stride 32 puts the 32 words of a warp access in one
 * bank: the access holds the LD/ST unit 32 cycles instead of 1, i.e. 31 extra
 * cycles for the store and for each of the `iters` loads (the statistic counts
 * (iters + 1) x 31).  Each load waits for the previous one (data dependence), so
 * every load's 31 cycles add to the run time.  How much of the store's 31 cycles
 * the instructions after it hide depends on the fetch and issue pipeline, so the
 * test compares 16 with 8 iterations: the 8 extra loads cost 8 x 31 cycles more
 * with conflicts than without; everything else is identical. */
static void test_bank_conflicts_cost_31_cycles(void **state) {
    (void)state;
    enum { ITERS = 16 };
    double free_conf, bad_conf, c;
    uint64_t free_cycles = run_banks(1, ITERS, &free_conf);
    uint64_t bad_cycles = run_banks(32, ITERS, &bad_conf);
    uint64_t free_half = run_banks(1, ITERS / 2, &c);
    uint64_t bad_half = run_banks(32, ITERS / 2, &c);
    print_message("conflict-free %llu cycles, 32-way %llu cycles\n", (unsigned long long)free_cycles,
                  (unsigned long long)bad_cycles);
    assert_true(free_conf == 0);
    assert_true(bad_conf == (ITERS + 1) * 31);
    assert_int_equal((bad_cycles - bad_half) - (free_cycles - free_half), ITERS / 2 * 31);
}

/* 20 KB of static shared memory per CTA, 64 threads per CTA. */
static const char *const bigsmem_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry bigsmem(.param .u64 dst)\n{\n"
    "  .shared .align 4 .b8 buf[20480];\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, buf;\n  shl.b32 %r4, %r1, 2;\n  add.u32 %r5, %r3, %r4;\n  st.shared.u32 [%r5], %r1;\n"
    "  bar.sync 0;\n  add.u32 %r6, %r1, 1;\n  and.b32 %r7, %r6, 63;\n  shl.b32 %r8, %r7, 2;\n"
    "  add.u32 %r9, %r3, %r8;\n  ld.shared.u32 %r10, [%r9];\n"
    "  mad.lo.s32 %r11, %r2, 64, %r1;\n  mul.wide.u32 %rd2, %r11, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r10;\n  ret;\n}\n";

/* fermi_gtx480: 48 KB shared, 1536 threads, 8 CTAs, 32768 registers per SM.
 *   shared:    49152 / 20480 = 2.4   -> 2 CTAs
 *   threads:   1536 / 64     = 24
 *   CTAs:      8
 *   registers: the register pressure of bigsmem (regs.c), in 32-bit slots (%rd = 2):
 *              most live at once is 7, e.g. around "add %r5, %r3, %r4":
 *              %rd1 (2) + %r1 %r2 %r3 %r4 %r5 (5); around "add %rd3": %rd1 %rd2 %rd3 (6) + %r10.
 *              7 x 32 = 224 -> 256 per warp (units of 64), x 2 warps = 512 per CTA;
 *              32768 / 512 = 64 CTAs
 * so 2 CTAs per SM, limited by shared memory, and with 60 CTAs on 15 SMs no SM
 * ever holds more than 2. */
static void test_occupancy_large_shared_memory(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    enum { CTAS = 60 };
    locsim_dptr dst = tdev_alloc(&t, NULL, CTAS * 64 * 4);
    void *args[] = {&dst};
    tdev_launch(&t, tdev_kernel(&t, bigsmem_ptx, "bigsmem"), CTAS, 64, args, 1);
    uint32_t *out = malloc(CTAS * 64 * 4);
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, dst, CTAS * 64 * 4), LOCSIM_OK);
    for (uint32_t i = 0; i < CTAS * 64; i++) assert_int_equal(out[i], (i % 64 + 1) % 64);
    free(out);
    const gpu *g = timing_of(t.dev)->g;
    const sm_occupancy_info *o = gpu_last_occupancy(g);
    assert_int_equal(o->limit_smem, 2);
    assert_int_equal(o->limit_threads, 24);
    assert_int_equal(o->limit_ctas, 8);
    assert_int_equal(o->regs_per_thread, 7);
    assert_int_equal(o->regs_per_cta, 512);
    assert_int_equal(o->limit_regs, 64);
    assert_int_equal(o->ctas_per_sm, 2);
    assert_string_equal(o->limiter, "shared memory");
    assert_int_equal(gpu_last_max_resident(g), 2);
    assert_int_equal((int)tdev_stat(&t, "gpu_ctas", 0), CTAS);
    tdev_close(&t);
}

/* Register limit and rounding on their own (sm_occupancy), fermi-like SM. */
static void test_occupancy_registers(void **state) {
    (void)state;
    sm_config c = {.warp_size = 32, .max_threads = 1536, .max_ctas = 8, .num_regs = 32768,
                   .max_regs_per_thread = 63, .reg_alloc_unit = 64, .smem_size = 49152, .smem_alloc_unit = 128};
    sm_occupancy_info o;
    char err[256];
    /* 256 threads x 90 PTX registers: capped at 63; 63 x 32 = 2016 -> 2048 per warp,
     * x 8 warps = 16384 per CTA: 2 CTAs (threads would allow 6) */
    assert_int_equal(sm_occupancy(&c, 256, 90, 0, &o, err, sizeof err), 0);
    assert_int_equal(o.regs_per_thread, 63);
    assert_int_equal(o.regs_per_cta, 16384);
    assert_int_equal(o.ctas_per_sm, 2);
    assert_string_equal(o.limiter, "registers");
    /* 100 threads (4 warps, the last partial) x 10 registers: 320 per warp, 1280 per CTA;
     * threads: 1536 / 128 = 12; CTAs: 8 wins.  1000 B of shared -> 1024 (units of 128). */
    assert_int_equal(sm_occupancy(&c, 100, 10, 1000, &o, err, sizeof err), 0);
    assert_int_equal(o.warps, 4);
    assert_int_equal(o.smem_per_cta, 1024);
    assert_int_equal(o.ctas_per_sm, 8);
    assert_string_equal(o.limiter, "ctas");
    /* 1024 threads x 63 registers would need 65536: lowered to 32 per thread (32 x 32 x 32 = 32768) */
    assert_int_equal(sm_occupancy(&c, 1024, 63, 0, &o, err, sizeof err), 0);
    assert_int_equal(o.regs_per_thread, 32);
    assert_int_equal(o.ctas_per_sm, 1);
    /* too much shared memory: an error naming it */
    assert_int_equal(sm_occupancy(&c, 64, 10, 50000, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "shared memory"));
}

/* Register pressure through a loop: %r3 and %rd1 are read in every iteration,
 * so the back edge keeps them live to the loop's end.  Around
 * "mul.wide.u32 %rd2, %r2, 4": %r1 %r2 %r3 (3) + %rd1 (2) + %rd2 (2) = 7 slots
 * (predicates are not counted).  An analysis that missed the back edge would
 * see %r3 dead after its read and find 6.  Declared: 2 + 6 + 3 = 11. */
static const char *const loop_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry loopk(.param .u64 p)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r3, 5;\n  mov.u32 %r1, 0;\n"
    "$L:\n  add.s32 %r2, %r1, %r3;\n  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r1;\n  add.s32 %r1, %r1, 1;\n  setp.lt.u32 %p1, %r1, 10;\n  @%p1 bra $L;\n"
    "  ret;\n}\n";

static void test_register_pressure_follows_loops(void **state) {
    (void)state;
    ptx_error perr;
    ptx_module *m = ptx_parse(loop_ptx, strlen(loop_ptx), "loop.ptx", &perr);
    if (!m) print_error("%s\n", perr.msg);
    assert_non_null(m);
    int k = ptx_find_function(m, "loopk");
    assert_true(k >= 0);
    assert_int_equal(sm_kernel_registers(m, &m->funcs[k], 63), 7);
    ptx_module_free(m);
}

/* ---- determinism: the same run twice gives byte-identical JSON ---- */
/* span: the SMs' scoreboard span (sm.sb_span), 0 for the default; with a small
 * span the run must rebase (*rebases counts the rebases of all SMs). */
static char *run_workload_json_span(const char *name, const char *sched, uint64_t span, uint64_t *rebases,
                                    size_t *len) {
    const workload_entry *e = workload_find(name);
    assert_non_null(e);
    const char *const ov[] = {"-gpgpu_scheduler", sched, NULL};
    tdev t;
    tdev_open(&t, "fermi_gtx480", ov);
    gpu *g = timing_of(t.dev)->g;
    if (span)
        for (uint32_t i = 0; i < gpu_num_sms(g); i++) ((sm *)gpu_sm(g, i))->sb_span = span;
    char detail[512];
    assert_int_equal(workload_run(e, t.dev, e->wl->test_sizes[0], 7, detail, sizeof detail), WL_PASS);
    if (rebases) {
        *rebases = 0;
        for (uint32_t i = 0; i < gpu_num_sms(g); i++) {
            *rebases += gpu_sm(g, i)->sb_rebases;
            assert_int_equal(gpu_sm(g, i)->sb_clamped, 0); /* every time fitted the span */
        }
    }
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    assert_int_equal(timing_report_json(timing_of(t.dev), f), 0);
    fclose(f);
    tdev_close(&t);
    return buf;
}

static char *run_workload_json(const char *name, const char *sched, size_t *len) {
    return run_workload_json_span(name, sched, 0, NULL, len);
}

static void test_json_is_deterministic(void **state) {
    (void)state;
    const char *const cases[][2] = {{"kmeans", "gto"}, {"histogram", "lrr"}, {"bfs", "two_level_active:2:gto:gto"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!workload_find(cases[i][0])) continue;
        size_t la, lb;
        char *a = run_workload_json(cases[i][0], cases[i][1], &la);
        char *b = run_workload_json(cases[i][0], cases[i][1], &lb);
        assert_true(la > 1000);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        assert_non_null(strstr(a, "\"gpu_sim_cycle\""));
        assert_null(strstr(a, "gpgpu_simulation_time_sec")); /* host time stays out of JSON */
        free(a);
        free(b);
    }
}

/* The scoreboard keeps 32-bit times relative to a base that moves up when a
 * time would not fit (sb_rebase).  A constructed sequence on a bare SM
 * structure with a span of 100 cycles: entries written at various cycles keep
 * their absolute times through rebases, a pending entry stays pending, and an
 * entry older than the new base reads as the base (in the past either way). */
static void test_scoreboard_rebase_keeps_times(void **state) {
    (void)state;
    sm *s = calloc(1, sizeof *s);
    assert_non_null(s);
    uint32_t e[4] = {0, 0, 0, 0};
    s->sb_store = e;
    s->sb_entries = 4;
    s->sb_span = 100;
    e[0] = sb_rel(s, 40, 1);   /* base 0: no rebase */
    e[1] = SB_REL_PENDING;
    e[2] = sb_rel(s, 90, 50);
    assert_int_equal(s->sb_rebases, 0);
    assert_int_equal(sb_abs(s, e[0]), 40);
    /* 160 is 160 past base 0: the base moves to the write's cycle, 80 */
    e[3] = sb_rel(s, 160, 80);
    assert_int_equal(s->sb_rebases, 1);
    assert_int_equal(s->sb_base, 80);
    assert_int_equal(sb_abs(s, e[3]), 160);
    assert_int_equal(sb_abs(s, e[2]), 90);            /* after the base: exact */
    assert_true(sb_abs(s, e[1]) == SB_PENDING);       /* pending stays pending */
    assert_int_equal(sb_abs(s, e[0]), 80);            /* 40 < 80: reads as the base, still <= 80 */
    /* three more rebases, each time 99 cycles ahead: the entries ahead of
     * each new base keep their times */
    uint64_t now = 80;
    for (int i = 0; i < 3; i++) {
        now += 70;
        uint64_t t = now + 99;
        e[0] = sb_rel(s, t, now);
        assert_int_equal(s->sb_base, now);
        assert_int_equal(sb_abs(s, e[0]), t);
        assert_true(sb_abs(s, e[1]) == SB_PENDING);
    }
    assert_int_equal(s->sb_rebases, 4);
    assert_int_equal(s->sb_clamped, 0);
    free(s);
}

/* The rebase rule at its edges, worked by hand with a span of 100 cycles
 * (base 0).  A time exactly `span` past the base fits; one cycle more moves
 * the base to the write's cycle first.  A register written before that rebase
 * and read after it gives the instruction reading it the ready cycle 64-bit
 * entries would have given, or, where the 64-bit cycle was already past, a
 * cycle that is past as well (the base): the same "ready now".  An entry
 * exactly at the new base keeps its cycle; a rebase to a cycle at or before the
 * base changes nothing; and a time that does not fit even after a rebase is
 * clamped and counted (never at SB_REL_SPAN: no wait is 2^32 cycles). */
static void test_scoreboard_rebase_boundary(void **state) {
    (void)state;
    sm *s = calloc(1, sizeof *s);
    assert_non_null(s);
    uint32_t e[5] = {0, 0, 0, 0, 0};
    s->sb_store = e;
    s->sb_entries = 5;
    s->sb_span = 100;
    e[0] = sb_rel(s, 100, 10);   /* 100 - 0 = 100 = span: fits */
    e[1] = SB_REL_PENDING;
    e[2] = sb_rel(s, 5, 4);
    e[3] = sb_rel(s, 10, 9);
    assert_int_equal(s->sb_rebases, 0);
    assert_int_equal(e[0], 100);
    /* 101 - 0 = 101 > span: rebase to cycle 10 (delta 10), then 101 - 10 = 91.
     * e0 100 -> 90, e1 pending, e2 5 -> 0 (5 <= 10), e3 10 -> 0 (10 <= 10),
     * e4 0 -> 0 before the write. */
    e[4] = sb_rel(s, 101, 10);
    assert_int_equal(s->sb_rebases, 1);
    assert_int_equal(s->sb_base, 10);
    assert_int_equal(e[0], 90);
    assert_int_equal(e[2], 0);
    assert_int_equal(e[3], 0);
    assert_int_equal(e[4], 91);
    assert_int_equal(sb_abs(s, e[0]), 100);   /* written before the rebase: exact */
    assert_true(sb_abs(s, e[1]) == SB_PENDING);
    assert_int_equal(sb_abs(s, e[3]), 10);    /* at the new base: exact */
    assert_int_equal(sb_abs(s, e[4]), 101);
    /* An instruction reading e0 and e2 after the rebase: max(90, 0) -> 100,
     * as max(100, 5) with 64-bit entries.  Reading e2 and e3: max(0, 0) -> 10,
     * as max(5, 10).  Reading e2 alone: 10 where 64-bit entries said 5; both
     * are at or before the current cycle (>= 10), so the warp is ready now
     * either way. */
    assert_int_equal(sb_abs(s, e[0] > e[2] ? e[0] : e[2]), 100);
    assert_int_equal(sb_abs(s, e[2] > e[3] ? e[2] : e[3]), 10);
    assert_true(sb_abs(s, e[2]) <= 10);
    /* A rebase to the base or before it is a no-op. */
    sb_rebase(s, 10);
    sb_rebase(s, 3);
    assert_int_equal(s->sb_rebases, 1);
    assert_int_equal(s->sb_base, 10);
    assert_int_equal(e[0], 90);
    /* 300 at cycle 20: 290 past the base, rebase to 20 (e0 -> 80, e4 -> 81,
     * the same cycles), and 280 still does not fit: clamped to 20 + 100. */
    uint32_t r = sb_rel(s, 300, 20);
    assert_int_equal(s->sb_rebases, 2);
    assert_int_equal(s->sb_base, 20);
    assert_int_equal(s->sb_clamped, 1);
    assert_int_equal(sb_abs(s, r), 120);
    assert_int_equal(sb_abs(s, e[0]), 100);
    assert_int_equal(sb_abs(s, e[4]), 101);
    free(s);
}

/* The same workloads with a scoreboard span of 1024 cycles (a rebase every
 * thousand cycles or so, instead of every 2^32) give byte-identical JSON:
 * sm_internal.h's argument that a rebase changes no decision, on real runs. */
static void test_scoreboard_rebase_changes_no_statistic(void **state) {
    (void)state;
    const char *const cases[][2] = {{"kmeans", "gto"}, {"bfs", "lrr"}, {"backprop", "gto"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!workload_find(cases[i][0])) continue;
        size_t la, lb;
        uint64_t rebases = 0;
        char *a = run_workload_json(cases[i][0], cases[i][1], &la);
        char *b = run_workload_json_span(cases[i][0], cases[i][1], 1024, &rebases, &lb);
        assert_true(rebases > 0);
        assert_true(la > 1000);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        free(a);
        free(b);
    }
}

/* The collector units' free cycles as a sorted circular multiset (opcoll.c):
 * the minimum is taken and replaced by the cycle the unit is busy until.
 * Worked by hand for 3 units, all free at 0:
 *   replace 5  -> {0, 0, 5}   min 0   (O(1): 5 is the latest)
 *   replace 7  -> {0, 5, 7}   min 0
 *   replace 3  -> {3, 5, 7}   min 3   (3 moves ahead of 5 and 7)
 *   replace 6  -> {5, 6, 7}   min 5   (6 moves ahead of 7 only)
 *   replace 5  -> {5, 6, 7}   min 5   (a tie stays behind the equal entry)
 *   replace 9  -> {6, 7, 9}   min 6
 * and one unit: every replacement is the new minimum. */
static void test_collector_unit_multiset(void **state) {
    (void)state;
    oc_unit_set u;
    oc_units_reset(&u, 3);
    assert_int_equal(oc_units_min(&u), 0);
    static const uint64_t put[] = {5, 7, 3, 6, 5, 9};
    static const uint64_t want[][3] = {{0, 0, 5}, {0, 5, 7}, {3, 5, 7}, {5, 6, 7}, {5, 6, 7}, {6, 7, 9}};
    for (size_t i = 0; i < sizeof put / sizeof put[0]; i++) {
        oc_units_replace_min(&u, put[i]);
        for (uint32_t k = 0; k < 3; k++) assert_int_equal(u.t[(u.head + k) % 3], want[i][k]);
        assert_int_equal(oc_units_min(&u), want[i][0]);
    }
    oc_units_reset(&u, 1);
    oc_units_replace_min(&u, 4);
    assert_int_equal(oc_units_min(&u), 4);
    oc_units_replace_min(&u, 2);
    assert_int_equal(oc_units_min(&u), 2);
}

/* Shared-memory bank-conflict degrees (ldst_bank_degree: distinct words per
 * bank, kept in per-bank chains), worked by hand for 32 banks of 4 bytes
 * unless said otherwise. */
static uint32_t degree_of(uint32_t banks, uint32_t size, int atomic, uint64_t (*addr)(uint32_t lane)) {
    exec_step_info in;
    memset(&in, 0, sizeof in);
    in.mem_mask = 0xffffffffu;
    in.mem_size = (uint8_t)size;
    in.mem_is_atomic = (uint8_t)atomic;
    for (uint32_t l = 0; l < 32; l++) in.mem_addr[l] = addr(l);
    return ldst_bank_degree(banks, 4, &in);
}
static uint64_t a_stride1(uint32_t l) { return 4 * l; }
static uint64_t a_same(uint32_t l) { (void)l; return 256; }
static uint64_t a_stride32(uint32_t l) { return 128 * l; }
static uint64_t a_stride2(uint32_t l) { return 8 * l; }
static uint64_t a_stride4(uint32_t l) { return 16 * l; }
static uint64_t a_two(uint32_t l) { return 128 * (l / 16); } /* lanes 0-15 word 0, 16-31 word 32 */

static void test_bank_degree_counts(void **state) {
    (void)state;
    assert_int_equal(degree_of(32, 4, 0, a_stride1), 1);   /* lane l in bank l */
    assert_int_equal(degree_of(32, 4, 0, a_same), 1);      /* one word: a broadcast */
    assert_int_equal(degree_of(32, 4, 1, a_same), 32);     /* ... but an atomic counts every lane */
    assert_int_equal(degree_of(32, 4, 0, a_stride32), 32); /* 32 distinct words in bank 0 */
    assert_int_equal(degree_of(32, 4, 0, a_two), 2);       /* words 0 and 32, both in bank 0 */
    /* 8 bytes a lane at word 2l: words 2l and 2l+1, 64 words, 2 distinct per bank */
    assert_int_equal(degree_of(32, 8, 0, a_stride2), 2);
    /* 16 bytes a lane at word 4l: 128 words (the cap), 4 distinct per bank */
    assert_int_equal(degree_of(32, 16, 0, a_stride4), 4);
    /* 16 bytes, every lane the same 4 words (banks 0-3): a broadcast */
    assert_int_equal(degree_of(32, 16, 0, a_same), 1);
    /* 24 banks (not a power of two), lane l at word l: words 0-7 and 24-31
     * share banks 0-7 */
    assert_int_equal(degree_of(24, 4, 0, a_stride1), 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bank_conflicts_cost_31_cycles),
        cmocka_unit_test(test_collector_unit_multiset),
        cmocka_unit_test(test_bank_degree_counts),
        cmocka_unit_test(test_occupancy_large_shared_memory),
        cmocka_unit_test(test_occupancy_registers),
        cmocka_unit_test(test_register_pressure_follows_loops),
        cmocka_unit_test(test_json_is_deterministic),
        cmocka_unit_test(test_scoreboard_rebase_keeps_times),
        cmocka_unit_test(test_scoreboard_rebase_boundary),
        cmocka_unit_test(test_scoreboard_rebase_changes_no_statistic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
