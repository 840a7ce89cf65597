/* Caps (-gpgpu_max_insn, -gpgpu_max_cycle, -gpgpu_max_cta) and the per-kernel
 * timing window with its functional warm-up and fast-forward
 * (-timing_window_insn, -timing_warmup_insn): the program's results stay exact,
 * the timed part is what the statistics cover, and a window longer than the
 * kernel changes nothing.  Instruction counts are worked by hand from the PTX. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/gpu.h"
#include "timing_util.h"

/* Thread i: x = src[i]; `iters` times x = 3x + 1; dst[i] = x.
 * Warp instructions: 11 before the loop, 4 per iteration (mad, add, setp, bra),
 * 3 after it (add, st, ret): 11 + 4 iters + 3 = 54 for iters = 10.  Thread
 * instructions count the lanes whose guard holds, so the last, untaken
 * `@%p1 bra` counts none: 53 per thread. */
static const char *const chain_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry chain(.param .u64 src, .param .u64 dst, .param .u32 iters)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n  ld.param.u32 %r1, [iters];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  mul.wide.u32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r6, [%rd4];\n  mov.u32 %r7, 0;\n"
    "$L:\n  mad.lo.u32 %r6, %r6, 3, 1;\n  add.s32 %r7, %r7, 1;\n  setp.lt.u32 %p1, %r7, %r1;\n  @%p1 bra $L;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.u32 [%rd5], %r6;\n  ret;\n}\n";

#define ITERS 10u
#define INSNS_PER_THREAD (11u + 4u * ITERS + 3u - 1u)

typedef struct {
    double insn, ff, exec, cycles, warp_insn, gmem, windows, warm_ctas, ff_ctas, ctas_done;
} chain_stats;

/* Run `launches` launches of chain over grid x block threads with the given
 * overrides; check every output against the CPU; return the statistics of
 * launch `k` (or the totals with k < 0). */
static void run_chain(const char *const *overrides, uint32_t grid, uint32_t block, int launches, int k,
                      chain_stats *out, tdev *keep) {
    tdev t;
    tdev_open(&t, "fermi_gtx480", overrides);
    uint32_t n = grid * block;
    uint32_t *in = malloc(n * sizeof *in), *res = malloc(n * sizeof *res);
    assert_non_null(in);
    assert_non_null(res);
    for (uint32_t i = 0; i < n; i++) in[i] = i * 2654435761u;
    locsim_dptr src = tdev_alloc(&t, in, n * 4), dst = tdev_alloc(&t, NULL, n * 4);
    uint32_t iters = ITERS;
    void *args[] = {&src, &dst, &iters};
    locsim_kernel *kern = tdev_kernel(&t, chain_ptx, "chain");
    for (int l = 0; l < launches; l++) tdev_launch(&t, kern, grid, block, args, 3);
    assert_int_equal(locsim_memcpy_dtoh(t.dev, res, dst, n * 4), LOCSIM_OK);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = in[i];
        for (uint32_t j = 0; j < ITERS; j++) x = 3 * x + 1;
        assert_int_equal(res[i], x);
    }
    free(in);
    free(res);
    timing_state *ts = timing_of(t.dev);
    uint32_t kk = k < 0 ? STATS_TOTAL : (uint32_t)k;
#define V(name) stats_value(ts->stats, kk, stats_find(ts->stats, name))
    *out = (chain_stats){V("gpu_sim_insn"), V("gpu_ff_insn"), V("gpu_exec_insn"), V("gpu_sim_cycle"),
                         V("gpu_sim_warp_insn"), V("gmem_warp_accesses"), V("gpu_timing_windows_closed"),
                         V("gpu_warmup_ctas"), V("gpu_ff_ctas"), V("gpu_ctas")};
#undef V
    if (keep) *keep = t;
    else tdev_close(&t);
}

/* One SM with one scheduler and one warp: at most one warp instruction (32 thread
 * instructions) issues per cycle, so a window of 32 k closes right after the
 * k-th instruction, and the run stopped there by -gpgpu_max_insn has issued the
 * same instructions: everything decided at issue is equal, and the window's
 * cycles are the capped run's plus the drain of its memory requests. */
static void test_window_hand_worked_one_warp(void **state) {
    (void)state;
    const uint32_t k = 12;   /* through the ld.global (instruction 10) and two loop instructions */
    char n[32];
    snprintf(n, sizeof n, "%u", 32 * k);
    const char *win[] = {"-gpgpu_n_clusters", "1", "-gpgpu_num_sched_per_core", "1", "-timing_window_insn", n, NULL};
    const char *cap[] = {"-gpgpu_n_clusters", "1", "-gpgpu_num_sched_per_core", "1", "-gpgpu_max_insn", n, NULL};
    const char *full[] = {"-gpgpu_n_clusters", "1", "-gpgpu_num_sched_per_core", "1", NULL};
    chain_stats w, c, f;
    run_chain(win, 1, 32, 1, 0, &w, NULL);
    run_chain(cap, 1, 32, 1, 0, &c, NULL);
    run_chain(full, 1, 32, 1, 0, &f, NULL);
    assert_true(f.insn == 32.0 * INSNS_PER_THREAD && f.ff == 0 && f.exec == f.insn);
    assert_true(w.insn == 32.0 * k && w.warp_insn == k);
    assert_true(w.ff == 32.0 * (INSNS_PER_THREAD - k) && w.exec == f.insn);
    assert_true(w.windows == 1 && w.ff_ctas == 1 && w.warm_ctas == 0);
    assert_true(c.insn == w.insn && c.warp_insn == w.warp_insn && c.gmem == w.gmem && c.gmem == 1);
    assert_true(c.ff == w.ff);
    /* the load issued inside the window is drained before the kernel ends */
    assert_true(w.cycles > c.cycles && w.cycles < f.cycles);
}

/* A window longer than the kernel changes no statistic at all. */
static void test_window_longer_than_kernel_changes_nothing(void **state) {
    (void)state;
    const char *win[] = {"-timing_window_insn", "1000000000", NULL};
    tdev a, b;
    chain_stats sa, sb;
    run_chain(NULL, 40, 64, 2, -1, &sa, &a);
    run_chain(win, 40, 64, 2, -1, &sb, &b);
    stats *x = timing_of(a.dev)->stats, *y = timing_of(b.dev)->stats;
    assert_int_equal(stats_count(x), stats_count(y));
    assert_int_equal(stats_kernels(x), 2);
    for (uint32_t kk = 0; kk <= 2; kk++)
        for (uint32_t i = 0; i < stats_count(x); i++) {
            if (!strcmp(stats_name(x, (int)i), "gpgpu_simulation_time_sec") ||
                !strcmp(stats_name(x, (int)i), "gpgpu_simulation_rate"))
                continue;   /* host time */
            uint32_t which = kk == 2 ? STATS_TOTAL : kk;
            double u = stats_value(x, which, (int)i), v = stats_value(y, which, (int)i);
            if (u != v && !(u != u && v != v)) print_error("%s: %g vs %g\n", stats_name(x, (int)i), u, v);
            assert_true(u == v || (u != u && v != v));
        }
    assert_true(sb.ff == 0 && sb.windows == 0 && sb.insn == 2.0 * 40 * 64 * INSNS_PER_THREAD);
    tdev_close(&a);
    tdev_close(&b);
}

/* Forty CTAs of two warps on 15 SMs: the timed part is at most N and within one
 * cycle's issue of it (15 SMs x 2 schedulers x 32 threads), every kernel's
 * results are exact, and each of the two kernels gets its own window. */
static void test_window_per_kernel(void **state) {
    (void)state;
    const char *win[] = {"-timing_window_insn", "20000", NULL};
    chain_stats k0, k1, tot;
    run_chain(win, 40, 64, 2, 0, &k0, NULL);
    run_chain(win, 40, 64, 2, 1, &k1, NULL);
    run_chain(win, 40, 64, 2, -1, &tot, NULL);
    const double all = 40.0 * 64 * INSNS_PER_THREAD;
    assert_true(k0.insn <= 20000 && k0.insn > 20000 - 15 * 2 * 32);
    assert_true(k1.insn <= 20000 && k1.insn > 20000 - 15 * 2 * 32);
    assert_true(k0.exec == all && k1.exec == all && tot.exec == 2 * all);
    assert_true(k0.windows == 1 && k1.windows == 1 && tot.windows == 2);
    assert_true(tot.insn == k0.insn + k1.insn && tot.ff == 2 * all - tot.insn);
    /* every CTA not finished in the window (resident or never dispatched) finished functionally */
    assert_true(k0.ff_ctas + k0.ctas_done == 40 && k0.ff_ctas > 0);
    assert_true(k1.ff_ctas + k1.ctas_done == 40 && k1.ff_ctas > 0);
}

/* -timing_warmup_insn 1: exactly one whole CTA (2 warps x 32 threads x 54)
 * runs functionally first; the rest is timed. */
static void test_warmup_one_cta(void **state) {
    (void)state;
    const char *warm[] = {"-timing_warmup_insn", "1", NULL};
    chain_stats s;
    run_chain(warm, 40, 64, 1, 0, &s, NULL);
    assert_true(s.warm_ctas == 1 && s.ff == 64.0 * INSNS_PER_THREAD);
    assert_true(s.insn == 39.0 * 64 * INSNS_PER_THREAD && s.windows == 0 && s.ctas_done == 39);
}

/* -gpgpu_max_cta 7: seven CTAs run in timing mode (over the whole run), then the
 * timing simulation stops; kernel 0's other 33 CTAs and all of kernel 1 run
 * functionally, and the results are exact. */
static void test_cta_cap(void **state) {
    (void)state;
    const char *cap[] = {"-gpgpu_max_cta", "7", NULL};
    tdev t;
    chain_stats k1, k0;
    run_chain(cap, 40, 64, 2, 1, &k1, NULL);
    run_chain(cap, 40, 64, 2, 0, &k0, &t);
    const gpu_cap_info *c = gpu_cap(timing_of(t.dev)->g);
    assert_non_null(c);
    assert_string_equal(c->option, "-gpgpu_max_cta");
    assert_true(c->ctas == 7 && c->kernel == 0 && c->cycle == (uint64_t)k0.cycles);
    assert_true(k0.insn == 7.0 * 64 * INSNS_PER_THREAD && k0.ff_ctas == 33);
    assert_true(k1.insn == 0 && k1.cycles == 0 && k1.ff == 40.0 * 64 * INSNS_PER_THREAD && k1.ff_ctas == 40);
    tdev_close(&t);
}

/* -gpgpu_max_cycle: the timing simulation stops at that cycle exactly (the
 * kernel alone takes about 600), even when the loop could jump idle cycles past it. */
static void test_cycle_cap_exact(void **state) {
    (void)state;
    const char *cap[] = {"-gpgpu_max_cycle", "300", NULL};
    tdev t;
    chain_stats s;
    run_chain(cap, 40, 64, 1, 0, &s, &t);
    const gpu_cap_info *c = gpu_cap(timing_of(t.dev)->g);
    assert_non_null(c);
    assert_string_equal(c->option, "-gpgpu_max_cycle");
    assert_true(c->cycle == 300 && s.cycles == 300 && s.insn > 0 && s.exec == 40.0 * 64 * INSNS_PER_THREAD);
    tdev_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_hand_worked_one_warp),
        cmocka_unit_test(test_window_longer_than_kernel_changes_nothing),
        cmocka_unit_test(test_window_per_kernel),
        cmocka_unit_test(test_warmup_one_cta),
        cmocka_unit_test(test_cta_cap),
        cmocka_unit_test(test_cycle_cap_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
