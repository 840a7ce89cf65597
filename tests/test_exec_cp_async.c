/* cp.async ordering (issue 9, item 5; src/exec/cp_async.c).
 *
 * One thread issues copies in three cp.async-groups and reads the destination
 * after each wait.  The expected values follow from PTX's rules plus locsim's
 * documented choice that a copy lands when its group is waited for:
 *   group 0 = {s[0] <- g[0]},  group 1 = {s[1] <- g[1]},  group 2 (never committed
 *   before wait_all) = {s[2] <- g[2]};  g[i] = 10 + i, shared starts zeroed.
 *   before any wait          s[0..2] = 0, 0, 0    (nothing has landed)
 *   wait_group 1 (2 groups)  10, 0, 0             (all but the newest 1 group: group 0)
 *   wait_group 0             10, 11, 0            (every committed group; group 2 is open)
 *   wait_all                 10, 11, 12
 * Then the size forms:
 *   [s+16] <- [g+16], 8 bytes, src-size 4: s[4] = g[4] = 14, s[5] zero-filled
 *     (s[5] was 77 before);
 *   [s+24] <- [g+24], 4 bytes, ignore-src true: s[6] = 0 (was 55), g not read;
 *   [s+32] <- [g], .cg 16 bytes: s[8..11] = 10, 11, 12, 13. */
#include "test_exec_util.h"

static const char *cp_ptx = ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 16 .b32 s[12];\n"
    ".visible .entry order(.param .u64 gp, .param .u64 outp)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [gp];\n"
    "  ld.param.u64 %rd2, [outp];\n"
    "  mov.u32 %r1, s;\n"
    "  cp.async.ca.shared.global [%r1], [%rd1], 4;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.ca.shared.global [%r1+4], [%rd1+4], 4, 4;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.ca.shared.global [s+8], [%rd1+8], 4;\n"
    "  ld.shared.u32 %r2, [s];\n  ld.shared.u32 %r3, [s+4];\n  ld.shared.u32 %r4, [s+8];\n"
    "  cp.async.wait_group 1;\n"
    "  ld.shared.u32 %r5, [s];\n  ld.shared.u32 %r6, [s+4];\n  ld.shared.u32 %r7, [s+8];\n"
    "  cp.async.wait_group 0;\n"
    "  ld.shared.u32 %r8, [s];\n  ld.shared.u32 %r9, [s+4];\n  ld.shared.u32 %r10, [s+8];\n"
    "  cp.async.wait_all;\n"
    "  ld.shared.u32 %r11, [s];\n  ld.shared.u32 %r12, [s+4];\n  ld.shared.u32 %r13, [s+8];\n"
    "  st.shared.u32 [s+20], 77;\n"
    "  st.shared.u32 [s+24], 55;\n"
    "  setp.eq.u32 %p1, %r1, %r1;\n"
    "  mov.u32 %r30, 4;\n"
    "  cp.async.ca.shared.global [s+16], [%rd1+16], 8, %r30;\n"
    "  cp.async.ca.shared.global.L2::128B [s+24], [%rd1+24], 4, %p1;\n"
    "  cp.async.cg.shared.global [s+32], [%rd1], 16;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.wait_group 0;\n"
    "  ld.shared.v2.u32 {%r14, %r15}, [s+16];\n"
    "  ld.shared.u32 %r16, [s+24];\n"
    "  ld.shared.v4.u32 {%r17, %r18, %r19, %r20}, [s+32];\n"
    "  st.global.v4.u32 [%rd2], {%r2, %r3, %r4, %r5};\n"
    "  st.global.v4.u32 [%rd2+16], {%r6, %r7, %r8, %r9};\n"
    "  st.global.v4.u32 [%rd2+32], {%r10, %r11, %r12, %r13};\n"
    "  st.global.v4.u32 [%rd2+48], {%r14, %r15, %r16, %r17};\n"
    "  st.global.v4.u32 [%rd2+64], {%r18, %r19, %r20, %r20};\n"
    "  ret;\n"
    "}\n"
    /* each thread copies its own word, waits, meets the others at a barrier and
     * reads another thread's word */
    ".visible .entry lanes(.param .u64 gp, .param .u64 outp)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [gp];\n"
    "  ld.param.u64 %rd2, [outp];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, s;\n"
    "  add.u32 %r4, %r3, %r2;\n"
    "  cvt.u64.u32 %rd3, %r2;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n"
    "  cp.async.ca.shared.global [%r4], [%rd4], 4;\n"
    "  cp.async.wait_all;\n"
    "  bar.sync 0;\n"
    "  xor.b32 %r5, %r2, 28;\n"            /* lane t reads s[7 - t] (t < 8) */
    "  add.u32 %r6, %r3, %r5;\n"
    "  ld.shared.u32 %r7, [%r6];\n"
    "  add.u64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r7;\n"
    "  ret;\n"
    "}\n";

static void test_cp_async_groups(void **state) {
    (void)state;
    xt t = xt_open(cp_ptx, "cp.ptx");
    uint32_t g[12];
    for (int i = 0; i < 12; i++) g[i] = 10 + (uint32_t)i;
    locsim_dptr dg = xt_buf(&t, g, sizeof g), dout = xt_buf(&t, NULL, 80);
    void *args[] = {&dg, &dout};
    xt_run(&t, "order", 1, 1, args, 2);
    uint32_t r[20];
    xt_get(&t, r, dout, sizeof r);
    const uint32_t want[19] = {0, 0, 0,            /* before any wait */
                               10, 0, 0,           /* wait_group 1 */
                               10, 11, 0,          /* wait_group 0 */
                               10, 11, 12,         /* wait_all */
                               14, 0,              /* src-size 4 of 8: zero fill */
                               0,                  /* ignore-src */
                               10, 11, 12, 13};    /* .cg 16 bytes */
    for (int i = 0; i < 19; i++) {
        if (r[i] != want[i]) fprintf(stderr, "slot %d: got %u, want %u\n", i, r[i], want[i]);
        assert_int_equal(r[i], want[i]);
    }
    xt_close(&t);
}

/* 8 threads each copy one word, wait, meet at a barrier, read a neighbour's. */
static void test_cp_async_across_threads(void **state) {
    (void)state;
    xt t = xt_open(cp_ptx, "cp.ptx");
    uint32_t g[12];
    for (int i = 0; i < 12; i++) g[i] = 100 + (uint32_t)i;
    locsim_dptr dg = xt_buf(&t, g, sizeof g), dout = xt_buf(&t, NULL, 32);
    void *args[] = {&dg, &dout};
    xt_run(&t, "lanes", 1, 8, args, 2);
    uint32_t r[8];
    xt_get(&t, r, dout, sizeof r);
    for (int i = 0; i < 8; i++) assert_int_equal(r[i], 100 + 7 - i);
    xt_close(&t);
}

/* Forms the front end refuses, as ptxas does. */
static void test_cp_async_errors(void **state) {
    (void)state;
    static const struct { const char *body, *want; } bad[] = {
        {"cp.async.cg.shared.global [s], [%rd1], 4;", "'cp.async.cg' copies 16 bytes"},
        {"cp.async.ca.shared.global [s], [%rd1], 12;", "copy size must be 4, 8 or 16"},
        {"cp.async.ca.shared.global [s], [%rd1], 4, 8;", "source size 8 exceeds the copy size 4"},
        {"cp.async.ca.global [s], [%rd1], 4;", "needs .ca or .cg, .shared and .global"},
        {"cp.async.bulk.shared.global [s], [%rd1], 4;", "cp.async.bulk.shared.global is not supported"},
        {"cp.async.wait_group %r1;", "takes an integer constant"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 ".version 9.0\n.target sm_80\n.address_size 64\n.shared .align 16 .b32 s[4];\n"
                 ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n  %s\n  ret;\n}\n",
                 bad[i].body);
        locsim_device *dev;
        assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
        locsim_module *mod;
        assert_int_not_equal(locsim_module_load_ptx(dev, src, strlen(src), "bad.ptx", &mod), LOCSIM_OK);
        xt_assert_contains(locsim_last_error(dev), "bad.ptx:9:");
        xt_assert_contains(locsim_last_error(dev), bad[i].want);
        locsim_device_destroy(dev);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cp_async_groups),
        cmocka_unit_test(test_cp_async_across_threads),
        cmocka_unit_test(test_cp_async_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
