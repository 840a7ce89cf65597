/* cp.async in the timing model (docs/cp-async.md): the copy is a global read the
 * warp does not wait for; cp.async.wait_all stalls the warp until it returns.
 *
 * One warp, one 16-byte copy per lane (512 B, one DRAM access pattern), and a
 * chain of 64 dependent integer adds (each waits for the previous: 64 x the ALU
 * latency, hundreds of cycles).
 *   late:  cp.async; adds; wait_all   -> the copy's latency hides behind the adds
 *   early: cp.async; wait_all; adds   -> the adds start only when the data is back
 * so early takes longer by about min(memory latency, add chain); on fermi_gtx480
 * the memory round trip alone is well over 100 core cycles (L2 + DRAM latency of
 * the config), so early >= late + 100.  Both copy the same data (checked).
 *
 * Groups (test_wait_group_waits_for_older_groups_only): one warp copies 16 bytes
 * per lane in group 0 (copy A, g[4l..4l+3] -> s[16l]), runs a chain of 256
 * dependent adds (thousands of cycles: A's round trip ends during it), copies
 * g[128+4l..] -> s[512+16l] in group 1 (copy B) and reads %clock64 around
 * wait_group 1 and wait_group 0:
 *   wait_group 1 waits for group 0 only; A is back already, so it passes within
 *     a few issue cycles: t1 - tB < 50 (fetch + issue of two instructions);
 *   wait_group 0 waits for B, issued just before: a full memory round trip,
 *     t2 - t1 >= 100.
 * A model that drains every copy at wait_group 1 (as this one did) gives
 * t1 - tB >= 100 and fails.  Data (locsim lands a copy when its group is waited
 * for, docs/cp-async.md): after wait_group 1, s[16l] = 1000 + 4l (A) and
 * s[512+16l] = 0 (B not landed); after wait_group 0, s[512+16l] = 1128 + 4l; the
 * add chain sums 0..255 = 32640. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing_util.h"

#define BODY(name, first, second)                                                   \
    ".visible .entry " name "(.param .u64 g, .param .u64 out)\n"                    \
    "{\n"                                                                           \
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"               \
    "  ld.param.u64 %rd1, [g];\n  ld.param.u64 %rd2, [out];\n"                      \
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 4;\n"                              \
    "  mov.u32 %r3, s;\n  add.u32 %r4, %r3, %r2;\n"                                 \
    "  cvt.u64.u32 %rd3, %r2;\n  add.u64 %rd4, %rd1, %rd3;\n"                       \
    "  cp.async.cg.shared.global [%r4], [%rd4], 16;\n"                              \
    first                                                                           \
    second                                                                          \
    "  ld.shared.u32 %r8, [%r4];\n  add.u32 %r8, %r8, %r6;\n"                       \
    "  add.u64 %rd5, %rd2, %rd3;\n  st.global.u32 [%rd5], %r8;\n"                   \
    "  ret;\n"                                                                      \
    "}\n"
#define WAIT "  cp.async.wait_all;\n"
static const char *ptx = ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 16 .b8 s[512];\n"
    BODY("early", WAIT, "  mov.u32 %r6, 0;\n  mov.u32 %r7, 0;\nA1:\n  add.u32 %r6, %r6, %r7;\n"
                        "  add.u32 %r7, %r7, 1;\n  setp.lt.u32 %p1, %r7, 64;\n  @%p1 bra A1;\n")
    BODY("late", "  mov.u32 %r6, 0;\n  mov.u32 %r7, 0;\nB1:\n  add.u32 %r6, %r6, %r7;\n"
                 "  add.u32 %r7, %r7, 1;\n  setp.lt.u32 %p1, %r7, 64;\n  @%p1 bra B1;\n", WAIT);

static const char *groups_ptx = ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 16 .b8 s[1024];\n"
    ".visible .entry groups(.param .u64 g, .param .u64 out, .param .u64 clk)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [g];\n  ld.param.u64 %rd2, [out];\n  ld.param.u64 %rd9, [clk];\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 4;\n"
    "  mov.u32 %r3, s;\n  add.u32 %r4, %r3, %r2;\n  add.u32 %r5, %r4, 512;\n"
    "  cvt.u64.u32 %rd3, %r2;\n  add.u64 %rd4, %rd1, %rd3;\n"
    "  cp.async.cg.shared.global [%r4], [%rd4], 16;\n"
    "  cp.async.commit_group;\n"
    "  mov.u32 %r6, 0;\n  mov.u32 %r7, 0;\n"
    "C1:\n  add.u32 %r6, %r6, %r7;\n  add.u32 %r7, %r7, 1;\n  setp.lt.u32 %p1, %r7, 256;\n  @%p1 bra C1;\n"
    "  cp.async.cg.shared.global [%r5], [%rd4+512], 16;\n"
    "  cp.async.commit_group;\n"
    "  mov.u64 %rd5, %clock64;\n"
    "  cp.async.wait_group 1;\n"
    "  mov.u64 %rd6, %clock64;\n"
    "  ld.shared.u32 %r8, [%r4];\n  ld.shared.u32 %r9, [%r5];\n"
    "  cp.async.wait_group 0;\n"
    "  mov.u64 %rd7, %clock64;\n"
    "  ld.shared.u32 %r10, [%r5];\n"
    "  add.u64 %rd8, %rd2, %rd3;\n"
    "  st.global.v4.u32 [%rd8], {%r8, %r9, %r10, %r6};\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 ret;\n"
    "  st.global.v2.u64 [%rd9], {%rd5, %rd6};\n"
    "  st.global.u64 [%rd9+16], %rd7;\n"
    "  ret;\n"
    "}\n";

static void test_wait_group_waits_for_older_groups_only(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    uint32_t g[256];
    for (int i = 0; i < 256; i++) g[i] = 1000 + (uint32_t)i;
    locsim_dptr dg = tdev_alloc(&t, g, sizeof g), dout = tdev_alloc(&t, NULL, 32 * 16), dclk = tdev_alloc(&t, NULL, 24);
    void *args[] = {&dg, &dout, &dclk};
    tdev_launch(&t, tdev_kernel(&t, groups_ptx, "groups"), 1, 32, args, 3);
    uint32_t out[128];
    uint64_t clk[3];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, dout, sizeof out), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_dtoh(t.dev, clk, dclk, sizeof clk), LOCSIM_OK);
    tdev_close(&t);
    uint64_t wait1 = clk[1] - clk[0], wait0 = clk[2] - clk[1];
    printf("wait_group 1 passed after %llu cycles, wait_group 0 after %llu more\n", (unsigned long long)wait1,
           (unsigned long long)wait0);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(out[4 * l], 1000 + 4 * l);      /* A landed at wait_group 1 */
        assert_int_equal(out[4 * l + 1], 0);             /* B had not */
        assert_int_equal(out[4 * l + 2], 1128 + 4 * l);  /* B landed at wait_group 0 */
        assert_int_equal(out[4 * l + 3], 32640);
    }
    assert_true(wait1 < 50);
    assert_true(wait0 >= 100);
}

/* cp.async.mbarrier.arrive in the timing model: warp 0's lanes each copy 16
 * bytes (g[4l..] -> s[16l]) and arrive on barrier b (init 32) with .noinc, so the
 * phase completes only when the 32 copies have returned from memory; warp 1 waits
 * in a try_wait.parity loop.  Expected:
 *   the consumer reads s[16l] = g[4l] = 1000 + 4l after the wait;
 *   its wait ends a memory round trip after the producer issued the arrive
 *   (t1 - tP >= 100 on fermi_gtx480); a model that arrived at issue gives a few cycles;
 *   try_wait suspends the waiting warp and the completion wakes it: it issues
 *   the try_wait once (a model without suspension spins it tens of times). */
static const char *mbar_ptx = ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 16 .b8 s[512];\n"
    ".shared .align 8 .b64 b;\n"
    ".visible .entry mbar(.param .u64 g, .param .u64 out, .param .u64 clk)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [g];\n  ld.param.u64 %rd2, [out];\n  ld.param.u64 %rd9, [clk];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r10, %r1, 31;\n  shl.b32 %r2, %r10, 4;\n"
    "  mov.u32 %r3, s;\n  add.u32 %r4, %r3, %r2;\n"
    "  cvt.u64.u32 %rd3, %r2;\n  add.u64 %rd4, %rd1, %rd3;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [b], 32;\n"
    "  bar.sync 0;\n"
    "  setp.ge.u32 %p2, %r1, 32;\n"
    "  @%p2 bra CONSUMER;\n"
    "  cp.async.cg.shared.global [%r4], [%rd4], 16;\n"
    "  cp.async.mbarrier.arrive.noinc.shared.b64 [b];\n"
    "  mov.u64 %rd5, %clock64;\n"
    "  @%p1 st.global.u64 [%rd9], %rd5;\n"
    "  bra.uni DONE;\n"
    "CONSUMER:\n"
    "  mov.u32 %r6, 0;\n"
    "W:\n"
    "  add.u32 %r6, %r6, 1;\n"
    "  mbarrier.try_wait.parity.shared.b64 %p3, [b], 0;\n"
    "  @!%p3 bra W;\n"
    "  mov.u64 %rd6, %clock64;\n"
    "  ld.shared.u32 %r8, [%r4];\n"
    "  shr.u32 %r9, %r2, 1;\n"
    "  cvt.u64.u32 %rd7, %r9;\n  add.u64 %rd8, %rd2, %rd7;\n"
    "  st.global.v2.u32 [%rd8], {%r8, %r6};\n"
    "  setp.eq.u32 %p1, %r1, 32;\n"
    "  @%p1 st.global.u64 [%rd9+8], %rd6;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

static void test_mbarrier_arrive_waits_for_copies(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    uint32_t g[128];
    for (int i = 0; i < 128; i++) g[i] = 1000 + (uint32_t)i;
    locsim_dptr dg = tdev_alloc(&t, g, sizeof g), dout = tdev_alloc(&t, NULL, 32 * 8), dclk = tdev_alloc(&t, NULL, 16);
    void *args[] = {&dg, &dout, &dclk};
    tdev_launch(&t, tdev_kernel(&t, mbar_ptx, "mbar"), 1, 64, args, 3);
    uint32_t out[64];
    uint64_t clk[2];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, dout, sizeof out), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_dtoh(t.dev, clk, dclk, sizeof clk), LOCSIM_OK);
    tdev_close(&t);
    printf("consumer passed try_wait %llu cycles after the producer's arrive, after %u try_wait(s)\n",
           (unsigned long long)(clk[1] - clk[0]), out[1]);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(out[2 * l], 1000 + 4 * l);
        assert_int_equal(out[2 * l + 1], 1);
    }
    assert_true(clk[1] >= clk[0] + 100);
}

static uint64_t run(const char *kname, uint32_t got[32]) {
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    uint32_t g[128];
    for (int i = 0; i < 128; i++) g[i] = 1000 + (uint32_t)i;
    locsim_dptr dg = tdev_alloc(&t, g, sizeof g), dout = tdev_alloc(&t, NULL, 32 * 16);
    void *args[] = {&dg, &dout};
    tdev_launch(&t, tdev_kernel(&t, ptx, kname), 1, 32, args, 2);
    uint64_t cycles = (uint64_t)tdev_stat(&t, "gpu_sim_cycle", 0);
    uint32_t out[128];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, dout, sizeof out), LOCSIM_OK);
    for (int l = 0; l < 32; l++) got[l] = out[4 * l];
    tdev_close(&t);
    return cycles;
}

static void test_wait_stalls_the_warp(void **state) {
    (void)state;
    uint32_t a[32], b[32];
    uint64_t early = run("early", a), late = run("late", b);
    printf("early wait: %llu cycles, late wait: %llu cycles\n", (unsigned long long)early, (unsigned long long)late);
    /* lane l copied g[4l] = 1000 + 4l; the add chain sums 0..63 = 2016 */
    for (int l = 0; l < 32; l++) {
        assert_int_equal(a[l], 1000 + 4 * l + 2016);
        assert_int_equal(b[l], 1000 + 4 * l + 2016);
    }
    assert_true(early >= late + 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_wait_stalls_the_warp),
                                       cmocka_unit_test(test_wait_group_waits_for_older_groups_only),
                                       cmocka_unit_test(test_mbarrier_arrive_waits_for_copies)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
