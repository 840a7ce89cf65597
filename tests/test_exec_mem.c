/* Executor: memory spaces and atomics.  Generic <-> local and generic <-> shared
 * round trips, static and dynamic shared memory, narrow loads into wide registers,
 * kernel parameters, and atomics under contention (each lane gets its own old
 * value, lanes applied in lane order). */
#include "test_exec_util.h"

/* ---- local memory through generic addresses -------------------------------- */
static const char *local_ptx = XT_HEADER
    ".visible .entry genlocal(.param .u64 out)\n"
    "{\n"
    "  .local .align 8 .b8 depot[32];\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd2, depot;\n"          /* local address of this frame's depot */
    "  cvta.local.u64 %rd3, %rd2;\n"    /* ... as a generic address */
    "  add.s32 %r2, %r1, 100;\n"
    "  st.u32 [%rd3+4], %r2;\n"         /* generic store into the thread's local memory */
    "  ld.local.u32 %r3, [%rd2+4];\n"   /* read back as local: t + 100 */
    "  cvta.to.local.u64 %rd4, %rd3;\n" /* generic -> local: the original address */
    "  sub.s64 %rd5, %rd4, %rd2;\n"     /* 0 */
    "  cvt.u32.u64 %r4, %rd5;\n"
    "  st.local.u32 [depot+8], %r1;\n"  /* direct store to the variable */
    "  ld.u32 %r5, [%rd3+8];\n"         /* generic load: t */
    "  isspacep.local %p1, %rd3;\n"
    "  isspacep.global %p2, %rd3;\n"
    "  isspacep.shared %p3, %rd3;\n"
    "  selp.u32 %r6, 1, 0, %p1;\n"
    "  selp.u32 %r7, 1, 0, %p2;\n"
    "  selp.u32 %r8, 1, 0, %p3;\n"
    "  mul.lo.s32 %r9, %r1, 2;\n"
    "  st.local.v2.u32 [depot+16], {%r1, %r9};\n"
    "  ld.v2.u32 {%r10, %r11}, [%rd3+16];\n" /* generic vector load: t, 2t */
    "  mul.wide.u32 %rd6, %r1, 32;\n"
    "  add.s64 %rd7, %rd1, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r3, %r4, %r5, %r6};\n"
    "  st.global.v4.u32 [%rd7+16], {%r7, %r8, %r10, %r11};\n"
    "  ret;\n"
    "}\n";

static void test_generic_local_round_trip(void **state) {
    (void)state;
    xt t = xt_open(local_ptx, "local.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 64 * 32);
    void *args[] = {&out};
    xt_run(&t, "genlocal", 1, 64, args, 1);
    uint32_t r[64][8];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 64; l++) {
        assert_int_equal(r[l][0], l + 100); /* each thread reads its own local memory back */
        assert_int_equal(r[l][1], 0);       /* cvta.local then cvta.to.local is the identity */
        assert_int_equal(r[l][2], l);
        assert_int_equal(r[l][3], 1);       /* isspacep.local */
        assert_int_equal(r[l][4], 0);       /* not global */
        assert_int_equal(r[l][5], 0);       /* not shared */
        assert_int_equal(r[l][6], l);
        assert_int_equal(r[l][7], 2 * l);
    }
    xt_close(&t);
}

/* ---- shared memory: static, dynamic (.extern), generic ---------------------- */
static const char *shared_ptx = XT_HEADER
    ".shared .align 4 .b8 sm[128];\n"
    ".extern .shared .align 4 .b8 dyn[];\n"
    ".visible .entry shmem(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, sm;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  mul.lo.s32 %r5, %r1, 3;\n"
    "  st.shared.u32 [%r4], %r5;\n"      /* sm[t] = 3t */
    "  mov.u32 %r6, dyn;\n"
    "  add.s32 %r7, %r6, %r2;\n"
    "  add.s32 %r8, %r1, 1000;\n"
    "  st.shared.u32 [%r7], %r8;\n"      /* dyn[t] = t + 1000 */
    "  bar.sync 0;\n"
    "  mov.u32 %r16, 31;\n"
    "  sub.s32 %r9, %r16, %r1;\n"
    "  shl.b32 %r10, %r9, 2;\n"
    "  cvt.u64.u32 %rd2, %r3;\n"
    "  cvta.shared.u64 %rd3, %rd2;\n"
    "  cvt.u64.u32 %rd4, %r10;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  ld.u32 %r11, [%rd5];\n"           /* generic read of sm[31-t] */
    "  add.s32 %r12, %r6, %r10;\n"
    "  ld.shared.u32 %r13, [%r12];\n"    /* dyn[31-t] */
    "  isspacep.shared %p1, %rd5;\n"
    "  selp.u32 %r14, 1, 0, %p1;\n"
    "  mov.u32 %r15, %dynamic_smem_size;\n"
    "  mul.wide.u32 %rd6, %r1, 16;\n"
    "  add.s64 %rd7, %rd1, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r11, %r13, %r14, %r15};\n"
    "  ret;\n"
    "}\n";

static void test_shared_static_dynamic_generic(void **state) {
    (void)state;
    xt t = xt_open(shared_ptx, "shared.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 16);
    void *args[] = {&out};
    locsim_status st = xt_launch_dyn(&t, "shmem", (locsim_dim3){2, 1, 1}, (locsim_dim3){32, 1, 1}, 128, args, 1);
    if (st != LOCSIM_OK) fprintf(stderr, "%s\n", locsim_last_error(t.dev));
    assert_int_equal(st, LOCSIM_OK);
    uint32_t r[32][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(r[l][0], 3 * (31 - l));   /* another lane's store, after the barrier */
        assert_int_equal(r[l][1], 31 - l + 1000);  /* dynamic shared is distinct from sm */
        assert_int_equal(r[l][2], 1);
        assert_int_equal(r[l][3], 128);            /* %dynamic_smem_size */
    }
    xt_close(&t);
}

/* ---- narrow loads into wide registers, kernel parameters -------------------- */
static void test_narrow_loads_and_params(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry narrow(.param .u64 in, .param .u64 out, .param .s8 small, .param .align 8 .b8 blob[16])\n"
        "{\n"
        "  .reg .b16 %rs<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
        "  ld.param.u64 %rd1, [in];\n"
        "  ld.param.u64 %rd2, [out];\n"
        "  ld.global.s8 %r1, [%rd1];\n"      /* byte 0x80 sign-extended: 0xffffff80 */
        "  ld.global.u8 %r2, [%rd1];\n"      /* zero-extended: 0x80 */
        "  ld.global.u8 %rs1, [%rd1+1];\n"   /* 0xfe into a 16-bit register */
        "  cvt.u32.u16 %r3, %rs1;\n"
        "  ld.global.s32 %rd3, [%rd1+4];\n"  /* -2 into a 64-bit register */
        "  ld.global.s16 %r4, [%rd1+2];\n"   /* 0x8001 -> 0xffff8001 */
        "  ld.param.s8 %r5, [small];\n"      /* -3 */
        "  ld.param.u64 %rd4, [blob+8];\n"   /* second half of the byte array */
        "  ld.param.u32 %r6, [blob+4];\n"    /* bytes 4..7 of the array */
        "  mov.b64 %rd5, blob;\n"            /* the parameter's address (__grid_constant__) */
        "  ld.param.u32 %r7, [%rd5+12];\n"   /* read through it: bytes 12..15 */
        "  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n"
        "  st.global.u64 [%rd2+16], %rd3;\n"
        "  st.global.u32 [%rd2+24], %r5;\n"
        "  st.global.u32 [%rd2+28], %r6;\n"
        "  st.global.u64 [%rd2+32], %rd4;\n"
        "  st.global.u32 [%rd2+40], %r7;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "narrow.ptx");
    uint8_t in[8] = {0x80, 0xfe, 0x01, 0x80, 0xfe, 0xff, 0xff, 0xff};
    locsim_dptr din = xt_buf(&t, in, sizeof in), dout = xt_buf(&t, NULL, 44);
    int8_t small = -3;
    uint64_t blob[2] = {0x1111111122222222ull, 0x3333333344444444ull};
    void *args[] = {&din, &dout, &small, blob};
    xt_run(&t, "narrow", 1, 1, args, 4);
    uint32_t r[11];
    xt_get(&t, r, dout, sizeof r);
    assert_int_equal(r[0], 0xffffff80u);
    assert_int_equal(r[1], 0x80);
    assert_int_equal(r[2], 0xfe);
    assert_int_equal(r[3], 0xffff8001u);
    assert_int_equal(r[4], 0xfffffffeu); /* the s64 -2: both halves */
    assert_int_equal(r[5], 0xffffffffu);
    assert_int_equal(r[6], 0xfffffffdu);
    assert_int_equal(r[7], 0x11111111u); /* bytes 4..7 of blob */
    assert_int_equal(r[8], 0x44444444u);
    assert_int_equal(r[9], 0x33333333u);
    assert_int_equal(r[10], 0x33333333u);
    xt_close(&t);
}

/* ---- atomics under contention ----------------------------------------------- */
static const char *atom_ptx = XT_HEADER
    ".shared .align 4 .u32 scount;\n"
    ".visible .entry atoms(.param .u64 ctr, .param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [ctr];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  mov.u32 %r16, 0;\n"
    "  @%p1 st.shared.u32 [scount], %r16;\n"
    "  bar.sync 0;\n"
    "  add.s32 %r2, %r1, 1;\n"
    "  atom.global.add.u32 %r3, [%rd1], %r2;\n"
    "  atom.global.inc.u32 %r4, [%rd1+4], 4;\n"
    "  atom.global.cas.b32 %r5, [%rd1+8], %r16, %r2;\n"
    "  atom.global.exch.b32 %r6, [%rd1+12], %r1;\n"
    "  mul.lo.s32 %r7, %r1, 7;\n"
    "  rem.u32 %r7, %r7, 11;\n"
    "  sub.s32 %r7, %r7, 5;\n"
    "  atom.global.max.s32 %r8, [%rd1+16], %r7;\n"
    "  red.global.add.u32 [%rd1+20], 1;\n"
    "  mov.f32 %f1, 0f3F000000;\n"
    "  atom.global.add.f32 %f2, [%rd1+24], %f1;\n"
    "  mov.b32 %r9, %f2;\n"
    "  mov.u32 %r10, scount;\n"
    "  cvt.u64.u32 %rd3, %r10;\n"
    "  cvta.shared.u64 %rd4, %rd3;\n"
    "  atom.add.u32 %r11, [%rd4], 2;\n"  /* generic address into shared memory */
    "  cvt.u64.u32 %rd5, %r2;\n"
    "  atom.global.add.u64 %rd6, [%rd1+32], %rd5;\n"
    "  cvt.u32.u64 %r12, %rd6;\n"
    "  mul.wide.u32 %rd7, %r1, 32;\n"
    "  add.s64 %rd8, %rd2, %rd7;\n"
    "  st.global.v4.u32 [%rd8], {%r3, %r4, %r5, %r6};\n"
    "  st.global.v4.u32 [%rd8+16], {%r8, %r9, %r11, %r12};\n"
    "  ret;\n"
    "}\n";

static void test_atomic_contention_distinct_olds(void **state) {
    (void)state;
    xt t = xt_open(atom_ptx, "atom.ptx");
    uint32_t init[10] = {0, 0, 0, 0xffffffffu, 0x80000000u, 0, 0, 0, 0, 0};
    locsim_dptr ctr = xt_buf(&t, init, sizeof init), out = xt_buf(&t, NULL, 32 * 32);
    void *args[] = {&ctr, &out};
    xt_run(&t, "atoms", 1, 32, args, 2);
    uint32_t r[32][8], c[10];
    xt_get(&t, r, out, sizeof r);
    xt_get(&t, c, ctr, sizeof c);
    /* max.s32 of v = (7t % 11) - 5: v = -5, 2, -2, 5, 1, ... so the olds are
     * INT_MIN, -5, 2, 2, then 5 for every later lane (5 is the largest v) */
    static const int32_t max_old[5] = {INT32_MIN, -5, 2, 2, 5};
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(r[l][0], l * (l + 1) / 2);             /* add t+1: prefix sums in lane order */
        assert_int_equal(r[l][1], l % 5);                       /* inc with limit 4 wraps 4 -> 0 */
        assert_int_equal(r[l][2], l == 0 ? 0u : 1u);            /* lane 0's cas(0 -> 1) wins */
        assert_int_equal(r[l][3], l == 0 ? 0xffffffffu : l - 1); /* exch: the previous lane's value */
        assert_int_equal((int32_t)r[l][4], max_old[l < 4 ? l : 4]);
        float f;
        memcpy(&f, &r[l][5], 4);
        assert_true(f == 0.5f * (float)l);                      /* f32 add of 0.5: exact */
        assert_int_equal(r[l][6], 2 * l);                       /* shared counter via generic atom */
        assert_int_equal(r[l][7], l * (l + 1) / 2);             /* u64 add */
    }
    assert_int_equal(c[0], 528); /* 1 + 2 + ... + 32 */
    assert_int_equal(c[1], 2);   /* 32 increments mod 5 */
    assert_int_equal(c[2], 1);
    assert_int_equal(c[3], 31);
    assert_int_equal((int32_t)c[4], 5);
    assert_int_equal(c[5], 32);  /* red */
    float f;
    memcpy(&f, &c[6], 4);
    assert_true(f == 16.0f);
    assert_int_equal(c[8], 528);
    assert_int_equal(c[9], 0);
    xt_close(&t);
}

/* Four CTAs of 64 threads bump one counter: in functional mode CTAs run in order,
 * warps in order and lanes in lane order, so thread g (global id) sees old == g. */
static void test_atomic_order_across_ctas(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry bump(.param .u64 ctr, .param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [ctr];\n"
        "  ld.param.u64 %rd2, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  mov.u32 %r2, %ctaid.x;\n"
        "  mov.u32 %r3, %ntid.x;\n"
        "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
        "  atom.global.add.u32 %r5, [%rd1], 1;\n"
        "  mul.wide.u32 %rd3, %r4, 4;\n"
        "  add.s64 %rd4, %rd2, %rd3;\n"
        "  st.global.u32 [%rd4], %r5;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "bump.ptx");
    locsim_dptr ctr = xt_buf(&t, NULL, 4), out = xt_buf(&t, NULL, 256 * 4);
    void *args[] = {&ctr, &out};
    xt_run(&t, "bump", 4, 64, args, 2);
    uint32_t r[256], c;
    xt_get(&t, r, out, sizeof r);
    xt_get(&t, &c, ctr, 4);
    assert_int_equal(c, 256);
    for (uint32_t g = 0; g < 256; g++) assert_int_equal(r[g], g);
    xt_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_local_round_trip),
        cmocka_unit_test(test_shared_static_dynamic_generic),
        cmocka_unit_test(test_narrow_loads_and_params),
        cmocka_unit_test(test_atomic_contention_distinct_olds),
        cmocka_unit_test(test_atomic_order_across_ctas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
