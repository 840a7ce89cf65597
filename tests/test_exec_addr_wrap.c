/* Executor: address arithmetic width (issue 9, item 1).
 *
 * PTX computes [reg+imm] in the width of the address register: a 32-bit register
 * wraps modulo 2^32 and the result is zero-extended.  The shared, local and
 * parameter spaces have 32-bit addresses, so an offset in them is always taken
 * modulo 2^32, whatever the form (a 64-bit register holding a space offset, a
 * variable plus an offset).  Global, const and generic addresses are 64 bits.
 *
 * Every case below is one thread; the expected value of each slot is worked out
 * by hand in the comment beside the instruction that produces it.  The constants
 * are chosen so that the old 64-bit sum would land somewhere else (or fault), so
 * each check fails if the wrap is missing. */
#include "test_exec_util.h"

/* ---- shared: 32-bit register, 64-bit register, var+imm, atom, red ----------- */
static const char *shared_ptx = XT_HEADER
    ".shared .align 4 .b32 sm[8];\n"
    ".visible .entry wrap_shared(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.shared.u32 [sm], 100;\n"
    "  st.shared.u32 [sm+4], 101;\n"
    "  st.shared.u32 [sm+8], 102;\n"
    "  st.shared.u32 [sm+12], 103;\n"
    "  mov.u32 %r1, sm;\n"
    /* %r2 = sm + 0xF0000000 (no wrap yet: sm < 48 KB) */
    "  add.u32 %r2, %r1, -268435456;\n"
    /* [%r2 + 0x10000008] = sm + 2^32 + 8 -> wraps to sm + 8: 102 */
    "  ld.shared.u32 %r3, [%r2+268435464];\n"
    /* the pattern: base - 64*t + 4*t for t = 1 is sm - 60 (wraps below
     * zero), then [+64] gives sm + 4: 101 */
    "  sub.u32 %r4, %r1, 60;\n"
    "  ld.shared.u32 %r5, [%r4+64];\n"
    /* store through a wrapping address: [%r2 + 0x1000000c] = sm + 12 := 7 */
    "  st.shared.u32 [%r2+268435468], 7;\n"
    "  ld.shared.u32 %r6, [sm+12];\n"
    /* a 64-bit register holding 2^32 + sm: shared addresses are 32 bits, so
     * [%rd2+0] is sm + 0: 100 */
    "  cvt.u64.u32 %rd2, %r1;\n"
    "  add.u64 %rd2, %rd2, 4294967296;\n"
    "  ld.shared.u32 %r7, [%rd2];\n"
    /* atom through a wrapping address: sm[1] = 101 + 5, returns 101 */
    "  atom.shared.add.u32 %r8, [%r2+268435460], 5;\n"
    "  ld.shared.u32 %r9, [sm+4];\n"
    /* red: sm[0] = 100 + 3 */
    "  red.shared.add.u32 [%r2+268435456], 3;\n"
    "  ld.shared.u32 %r10, [sm];\n"
    "  st.global.v4.u32 [%rd1], {%r3, %r5, %r6, %r7};\n"
    "  st.global.v2.u32 [%rd1+16], {%r8, %r9};\n"
    "  st.global.u32 [%rd1+24], %r10;\n"
    "  ret;\n"
    "}\n";

static void test_shared_wraps(void **state) {
    (void)state;
    xt t = xt_open(shared_ptx, "wrap_shared.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 28);
    void *args[] = {&out};
    xt_run(&t, "wrap_shared", 1, 1, args, 1);
    uint32_t r[7];
    xt_get(&t, r, out, sizeof r);
    assert_int_equal(r[0], 102);
    assert_int_equal(r[1], 101);
    assert_int_equal(r[2], 7);
    assert_int_equal(r[3], 100);
    assert_int_equal(r[4], 101);
    assert_int_equal(r[5], 106);
    assert_int_equal(r[6], 103);
    xt_close(&t);
}

/* var+imm that goes below 0 in shared space is reported as the 32-bit shared
 * address: sm is at shared offset 0, so [sm+-4] is 0xfffffffc, not 2^64 - 4. */
static const char *shared_neg_ptx = XT_HEADER
    ".shared .align 4 .b32 sm[8];\n"
    ".visible .entry neg(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.shared.u32 %r1, [sm+-4];\n"
    "  ret;\n"
    "}\n";

static void test_shared_var_minus_reports_32bit(void **state) {
    (void)state;
    xt t = xt_open(shared_neg_ptx, "neg.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 4);
    void *args[] = {&out};
    const char *msg = xt_expect_error(&t, "neg", 1, 1, args, 1, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __shared__ read of size 4 bytes");
    xt_assert_contains(msg, "Address 0xfffffffc is out of bounds");
    xt_close(&t);
}

/* ---- local: 32-bit and 64-bit registers holding a local address -------------- */
static const char *local_ptx = XT_HEADER
    ".visible .entry wrap_local(.param .u64 out)\n"
    "{\n"
    "  .local .align 4 .b8 depot[16];\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.local.u32 [depot], 200;\n"
    "  st.local.u32 [depot+4], 201;\n"
    "  st.local.u32 [depot+8], 202;\n"
    "  mov.u32 %r1, depot;\n"
    "  add.u32 %r2, %r1, -268435456;\n"          /* depot + 0xF0000000 */
    "  ld.local.u32 %r3, [%r2+268435460];\n"     /* depot + 2^32 + 4 -> depot + 4: 201 */
    "  st.local.u32 [%r2+268435464], 9;\n"       /* depot + 8 := 9 */
    "  ld.local.u32 %r4, [depot+8];\n"           /* 9 */
    "  cvt.u64.u32 %rd2, %r1;\n"
    "  add.u64 %rd2, %rd2, 4294967296;\n"        /* 2^32 + depot */
    "  ld.local.u32 %r5, [%rd2];\n"              /* local addresses are 32 bits: depot: 200 */
    "  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r1};\n"
    "  ret;\n"
    "}\n";

static void test_local_wraps(void **state) {
    (void)state;
    xt t = xt_open(local_ptx, "wrap_local.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 16);
    void *args[] = {&out};
    xt_run(&t, "wrap_local", 1, 1, args, 1);
    uint32_t r[4];
    xt_get(&t, r, out, sizeof r);
    assert_int_equal(r[0], 201);
    assert_int_equal(r[1], 9);
    assert_int_equal(r[2], 200);
    xt_close(&t);
}

/* ---- param: a 32-bit register holding a kernel parameter offset -------------- */
static const char *param_ptx = XT_HEADER
    ".visible .entry wrap_param(.param .u64 out, .param .u32 v)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.b64 %rd2, v;\n"                     /* v is at parameter offset 8 */
    "  cvt.u32.u64 %r1, %rd2;\n"
    "  add.u32 %r2, %r1, -16;\n"               /* 8 - 16 = 0xfffffff8 */
    "  ld.param.u32 %r3, [%r2+16];\n"          /* 0xfffffff8 + 16 wraps to 8: v */
    "  st.global.u32 [%rd1], %r3;\n"
    "  ret;\n"
    "}\n";

static void test_param_wraps(void **state) {
    (void)state;
    xt t = xt_open(param_ptx, "wrap_param.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 4);
    uint32_t v = 0xC0FFEE;
    void *args[] = {&out, &v};
    xt_run(&t, "wrap_param", 1, 1, args, 2);
    uint32_t r;
    xt_get(&t, &r, out, 4);
    assert_int_equal(r, 0xC0FFEE);
    xt_close(&t);
}

/* ---- global and generic: a 32-bit register sum wraps, then zero-extends ------ */
/* Device memory starts at 0x100000000, so the first buffer is at exactly that
 * address.  0xfffffff0 + 0x20 is 0x10 after the 32-bit wrap: a fault at 0x10.
 * Without the wrap the sum is 0x100000010, inside the buffer, and the load would
 * wrongly succeed. */
static const char *global32_ptx = XT_HEADER
    ".visible .entry g32(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, -16;\n"
    "  ld.global.u32 %r2, [%r1+32];\n"
    "  ret;\n"
    "}\n"
    ".visible .entry gen32(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, -16;\n"
    "  ld.u32 %r2, [%r1+36];\n"
    "  ret;\n"
    "}\n"
    ".visible .entry atom32(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, -16;\n"
    "  atom.global.add.u32 %r2, [%r1+40], 1;\n"
    "  ret;\n"
    "}\n"
    /* 64-bit: out + 24 in a register, [reg + -16] = out + 8 (plain two's complement) */
    ".visible .entry g64(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  add.u64 %rd2, %rd1, 24;\n"
    "  st.global.u32 [%rd2+-16], 77;\n"
    "  ret;\n"
    "}\n";

static void test_global_and_generic_32bit_register(void **state) {
    (void)state;
    xt t = xt_open(global32_ptx, "g32.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 256);
    assert_int_equal(out, 0x100000000ull); /* the premise of the expected addresses */
    void *args[] = {&out};
    const char *msg = xt_expect_error(&t, "g32", 1, 1, args, 1, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __global__ read of size 4 bytes");
    xt_assert_contains(msg, "Address 0x10 is out of bounds");
    msg = xt_expect_error(&t, "gen32", 1, 1, args, 1, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Address 0x14 is out of bounds");   /* 0xfffffff0 + 36 */
    msg = xt_expect_error(&t, "atom32", 1, 1, args, 1, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __global__ atomic of size 4 bytes");
    xt_assert_contains(msg, "Address 0x18 is out of bounds");   /* 0xfffffff0 + 40 */
    xt_run(&t, "g64", 1, 1, args, 1);
    uint32_t r[4];
    xt_get(&t, r, out, sizeof r);
    assert_int_equal(r[2], 77); /* out + 24 - 16 = out + 8: word 2 */
    xt_close(&t);
}

/* ---- generic to shared through a 64-bit register wraps within the window ------ */
/* cvta.shared gives window + sm; the generic address is 64-bit, so a large
 * offset leaves the shared window (no wrap inside it): reported as global. */
static const char *generic_ptx = XT_HEADER
    ".shared .align 4 .b32 sm[4];\n"
    ".visible .entry gsh(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.shared.u32 [sm+8], 55;\n"
    "  mov.u64 %rd2, sm;\n"
    "  cvta.shared.u64 %rd3, %rd2;\n"
    "  add.u64 %rd4, %rd3, -8;\n"
    "  ld.u32 %r1, [%rd4+16];\n"     /* window + sm - 8 + 16 = sm + 8: 55 */
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n";

static void test_generic_shared_64bit(void **state) {
    (void)state;
    xt t = xt_open(generic_ptx, "gsh.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 4);
    void *args[] = {&out};
    xt_run(&t, "gsh", 1, 1, args, 1);
    uint32_t r;
    xt_get(&t, &r, out, 4);
    assert_int_equal(r, 55);
    xt_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_wraps),
        cmocka_unit_test(test_shared_var_minus_reports_32bit),
        cmocka_unit_test(test_local_wraps),
        cmocka_unit_test(test_param_wraps),
        cmocka_unit_test(test_global_and_generic_32bit_register),
        cmocka_unit_test(test_generic_shared_64bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
