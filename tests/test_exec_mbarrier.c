/* mbarrier phase, pending-count and tx-count semantics (issue 33; src/exec/mbarrier.c),
 * on sequences worked by hand from the PTX ISA's rules: a phase completes when its
 * pending arrivals and its tx-count are both zero; then the parity flips and the
 * pending count is reloaded from the expected count (which arrive_drop lowers).
 *
 * `seq`, one thread, barrier b (r[i] is the i-th value stored):
 *   init 3                                  phase 0: pending 3, expected 3, tx 0
 *   arrive.noComplete 1 -> s1               pending 2:  r0 = pending_count(s1) = 2
 *   test_wait s1, test_wait.parity 0        r1 = 0, r2 = 0 (phase 0 is current)
 *   expect_tx 64; arrive 2                  pending 0, tx 64: not complete, r3 = 0
 *   complete_tx 48                          tx 16: r4 = 0
 *   complete_tx 16                          tx 0: phase 1.  r5 = test_wait s1 = 1,
 *                                           r6 = parity 0 done = 1, r7 = parity 1 done = 0
 *   arrive_drop.noComplete 1 -> s3          pending 2, expected 2: r8 = 2
 *   arrive.expect_tx 8                      tx 8, pending 1
 *   complete_tx 8                           tx 0, pending 1: r9 = try_wait.parity 1 = 0
 *   arrive                                  phase 2, pending = expected = 2:
 *                                           r10 = try_wait.parity 1 (with a hint) = 1
 *   arrive.noComplete 1 -> s5               r11 = pending_count(s5) = 1 (2 - 1: the drop held)
 *   inval; init 1; arrive -> s6             r12 = test_wait s6 = 1 (a new object, complete)
 *   b2 init 1; cp.async s[0] <- g[0];       the arrive raised pending first: still 1,
 *     cp.async.mbarrier.arrive b2           r13 = test_wait.parity 0 = 0
 *   arrive b2                               r14 = parity 0 done = 1, r15 = s[0] = g[0] = 70
 *   b3 init 2; cp.async s[1] <- g[1];       .noinc: the copy's arrive is one of the 2,
 *     cp.async.mbarrier.arrive.noinc b3     pending 1; r16 = parity 0 done = 0
 *   arrive b3                               r17 = 1, r18 = s[1] = 71
 *
 * `lanes`, one warp, barrier of 40: lanes arrive .noComplete one after another in
 * lane order, so lane l's state holds 40 - (l + 1) pending: r[l] = 39 - l; then
 * lanes 0..7 arrive once more, completing phase 0: r[32 + l] = 1 for every lane. */
#include "test_exec_util.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static const char *mb_ptx = HDR
    ".shared .align 8 .b64 b;\n.shared .align 8 .b64 b2;\n.shared .align 8 .b64 b3;\n"
    ".shared .align 16 .b32 s[4];\n"
    ".visible .entry seq(.param .u64 gp, .param .u64 outp)\n"
    "{\n"
    "  .reg .pred %p<20>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd8, [gp];\n"
    "  ld.param.u64 %rd9, [outp];\n"
    "  mbarrier.init.shared.b64 [b], 3;\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd1, [b], 1;\n"
    "  mbarrier.pending_count.b64 %r0, %rd1;\n"
    "  mbarrier.test_wait.shared.b64 %p1, [b], %rd1;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p2, [b], 0;\n"
    "  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [b], 64;\n"
    "  mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [b], 2;\n"
    "  mbarrier.test_wait.shared.b64 %p3, [b], %rd1;\n"
    "  mbarrier.complete_tx.shared::cta.b64 [b], 48;\n"
    "  mbarrier.test_wait.shared.b64 %p4, [b], %rd1;\n"
    "  mov.u32 %r30, 16;\n"
    "  mbarrier.complete_tx.shared::cta.b64 [b], %r30;\n"
    "  mbarrier.test_wait.acquire.cta.shared::cta.b64 %p5, [b], %rd1;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p6, [b], 0;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p7, [b], 1;\n"
    "  mbarrier.arrive_drop.noComplete.shared.b64 %rd3, [b], 1;\n"
    "  mbarrier.pending_count.b64 %r8, %rd3;\n"
    "  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd4, [b], 8;\n"
    "  mbarrier.complete_tx.shared::cta.b64 [b], 8;\n"
    "  mbarrier.try_wait.parity.shared.b64 %p9, [b], 1;\n"
    "  mbarrier.arrive.shared.b64 %rd5, [b];\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p10, [b], 1, 1000;\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd6, [b], 1;\n"
    "  mbarrier.pending_count.b64 %r11, %rd6;\n"
    "  mbarrier.inval.shared.b64 [b];\n"
    "  mbarrier.init.shared.b64 [b], 1;\n"
    "  mbarrier.arrive.shared.b64 %rd7, [b];\n"
    "  mbarrier.test_wait.shared.b64 %p12, [b], %rd7;\n"
    "  mbarrier.init.shared.b64 [b2], 1;\n"
    "  cp.async.ca.shared.global [s], [%rd8], 4;\n"
    "  cp.async.mbarrier.arrive.shared.b64 [b2];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p13, [b2], 0;\n"
    "  mbarrier.arrive.shared.b64 _, [b2];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p14, [b2], 0;\n"
    "  ld.shared.u32 %r15, [s];\n"
    "  mov.u32 %r31, b3;\n"
    "  mbarrier.init.shared.b64 [%r31], 2;\n"
    "  cp.async.ca.shared.global [s+4], [%rd8+4], 4;\n"
    "  cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r31];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p16, [%r31], 0;\n"
    "  mbarrier.arrive.shared.b64 %rd7, [%r31];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p17, [%r31], 0;\n"
    "  ld.shared.u32 %r18, [s+4];\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  selp.u32 %r2, 1, 0, %p2;\n  selp.u32 %r3, 1, 0, %p3;\n"
    "  selp.u32 %r4, 1, 0, %p4;\n  selp.u32 %r5, 1, 0, %p5;\n  selp.u32 %r6, 1, 0, %p6;\n"
    "  selp.u32 %r7, 1, 0, %p7;\n  selp.u32 %r9, 1, 0, %p9;\n  selp.u32 %r10, 1, 0, %p10;\n"
    "  selp.u32 %r12, 1, 0, %p12;\n  selp.u32 %r13, 1, 0, %p13;\n  selp.u32 %r14, 1, 0, %p14;\n"
    "  selp.u32 %r16, 1, 0, %p16;\n  selp.u32 %r17, 1, 0, %p17;\n"
    "  st.global.v4.u32 [%rd9], {%r0, %r1, %r2, %r3};\n"
    "  st.global.v4.u32 [%rd9+16], {%r4, %r5, %r6, %r7};\n"
    "  st.global.v4.u32 [%rd9+32], {%r8, %r9, %r10, %r11};\n"
    "  st.global.v4.u32 [%rd9+48], {%r12, %r13, %r14, %r15};\n"
    "  st.global.v4.u32 [%rd9+64], {%r16, %r17, %r18, %r18};\n"
    "  ret;\n"
    "}\n"
    ".visible .entry lanes(.param .u64 outp)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [outp];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [b], 40;\n"
    "  bar.warp.sync -1;\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd2, [b], 1;\n"
    "  mbarrier.pending_count.b64 %r2, %rd2;\n"
    "  setp.lt.u32 %p2, %r1, 8;\n"
    "  @%p2 mbarrier.arrive.shared.b64 %rd3, [b];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p3, [b], 0;\n"
    "  selp.u32 %r3, 1, 0, %p3;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.u64 %rd5, %rd1, %rd4;\n"
    "  st.global.u32 [%rd5], %r2;\n"
    "  st.global.u32 [%rd5+128], %r3;\n"
    "  ret;\n"
    "}\n";

static void test_mbarrier_sequence(void **state) {
    (void)state;
    xt t = xt_open(mb_ptx, "mb.ptx");
    uint32_t g[2] = {70, 71};
    locsim_dptr dg = xt_buf(&t, g, sizeof g), dout = xt_buf(&t, NULL, 80);
    void *args[] = {&dg, &dout};
    xt_run(&t, "seq", 1, 1, args, 2);
    uint32_t r[20];
    xt_get(&t, r, dout, sizeof r);
    const uint32_t want[19] = {2, 0, 0, 0,   /* noComplete arrive; nothing complete; tx pending */
                               0, 1, 1, 0,   /* tx 16 left; the last complete_tx ends phase 0 */
                               2, 0, 1, 1,   /* drop; tx done but one arrival left; phase 1 over; expected 2 */
                               1, 0, 1, 70,  /* re-init; cp.async arrive (+1 -1); then complete, data there */
                               0, 1, 71};    /* .noinc counts as one of the 2 */
    for (int i = 0; i < 19; i++) {
        if (r[i] != want[i]) fprintf(stderr, "r%d: got %u, want %u\n", i, r[i], want[i]);
        assert_int_equal(r[i], want[i]);
    }
    xt_close(&t);
}

static void test_mbarrier_lanes_in_order(void **state) {
    (void)state;
    xt t = xt_open(mb_ptx, "mb.ptx");
    locsim_dptr dout = xt_buf(&t, NULL, 256);
    void *args[] = {&dout};
    xt_run(&t, "lanes", 1, 32, args, 1);
    uint32_t r[64];
    xt_get(&t, r, dout, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(r[l], 39 - l);
        assert_int_equal(r[32 + l], 1);
    }
    xt_close(&t);
}

/* Misuse the PTX ISA calls undefined stops the kernel with a message naming it. */
static void test_mbarrier_misuse(void **state) {
    (void)state;
    static const struct { const char *body, *want; } bad[] = {
        {"mbarrier.arrive.shared.b64 %rd1, [b];", "has not initialised"},
        {"mbarrier.init.shared.b64 [b], 1;\n  mbarrier.arrive.noComplete.shared.b64 %rd1, [b], 1;",
         "would complete the phase"},
        {"mbarrier.init.shared.b64 [b], 2;\n  mbarrier.arrive.shared.b64 %rd1, [b], 3;", "more arrivals than are pending"},
        {"mbarrier.init.shared.b64 [b], 0;", "count outside 1 .. 2^20-1"},
        {"mbarrier.init.b64 [%rd2], 1;", "must be in shared memory"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 HDR ".shared .align 8 .b64 b;\n"
                 ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %%rd<4>;\n  ld.param.u64 %%rd2, [p];\n  %s\n  ret;\n}\n",
                 bad[i].body);
        xt t = xt_open(src, "bad.ptx");
        locsim_dptr d = xt_buf(&t, NULL, 16);
        void *args[] = {&d};
        assert_int_not_equal(xt_launch3(&t, "k", (locsim_dim3){1, 1, 1}, (locsim_dim3){1, 1, 1}, args, 1), LOCSIM_OK);
        xt_assert_contains(locsim_last_error(t.dev), bad[i].want);
        xt_close(&t);
    }
}

/* Forms the front end refuses, with file:line. */
static void test_mbarrier_parse_errors(void **state) {
    (void)state;
    static const struct { const char *body, *want; } bad[] = {
        {"mbarrier.arrive.shared::cluster.b64 %rd1, [b];", "returns no state: write '_'"},
        {"mbarrier.arrive.shared.b32 %rd1, [b];", "unsupported modifier '.b32'"},
        {"mbarrier.arrive.shared %rd1, [b];", "needs .b64"},
        {"mbarrier.test_wait.shared.b64 %p1, [b], %rd1, 5;", "takes 3 operands"},
        {"mbarrier.arrive.noComplete.shared.b64 %rd1, [b];", "takes 3 operands"},
        {"mbarrier.wait.shared.b64 %p1, [b], %rd1;", "unknown mbarrier operation '.wait'"},
        {"cp.async.mbarrier.arrive.shared [b];", "expected 'cp.async.mbarrier.arrive"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 HDR ".shared .align 8 .b64 b;\n"
                 ".visible .entry k()\n{\n  .reg .pred %%p<2>;\n  .reg .b64 %%rd<4>;\n  .reg .b32 %%r<2>;\n  %s\n  ret;\n}\n",
                 bad[i].body);
        locsim_device *dev;
        assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
        locsim_module *mod;
        assert_int_not_equal(locsim_module_load_ptx(dev, src, strlen(src), "bad.ptx", &mod), LOCSIM_OK);
        xt_assert_contains(locsim_last_error(dev), "bad.ptx:10:");
        xt_assert_contains(locsim_last_error(dev), bad[i].want);
        locsim_device_destroy(dev);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mbarrier_sequence),
        cmocka_unit_test(test_mbarrier_lanes_in_order),
        cmocka_unit_test(test_mbarrier_misuse),
        cmocka_unit_test(test_mbarrier_parse_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
