/* Executor: SIMT control flow.  Nested divergence and reconvergence, loops with
 * divergent trip counts, early exit of some lanes, .func calls with divergent
 * returns, guarded calls, recursion.  Every expected value is worked out by hand in
 * the comment next to it; `activemask` after a join proves the lanes reconverged. */
#include "test_exec_util.h"

/* ---- nested if/else ------------------------------------------------------ */
static const char *nested_ptx = XT_HEADER
    ".visible .entry nested(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 0;\n"
    "  and.b32 %r3, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r3, 0;\n"
    "  @%p1 bra EVEN;\n"
    "  add.s32 %r2, %r2, 1;\n"
    "  and.b32 %r4, %r1, 2;\n"
    "  setp.eq.u32 %p2, %r4, 0;\n"
    "  @%p2 bra ODD_NO2;\n"
    "  add.s32 %r2, %r2, 10;\n"
    "  activemask.b32 %r5;\n"
    "  bra.uni ODD_JOIN;\n"
    "ODD_NO2:\n"
    "  add.s32 %r2, %r2, 20;\n"
    "  activemask.b32 %r5;\n"
    "ODD_JOIN:\n"
    "  shl.b32 %r2, %r2, 1;\n"
    "  activemask.b32 %r6;\n"
    "  bra.uni JOIN;\n"
    "EVEN:\n"
    "  setp.lt.u32 %p3, %r1, 8;\n"
    "  @!%p3 bra BIG;\n"
    "  mov.u32 %r2, 100;\n"
    "  activemask.b32 %r5;\n"
    "  activemask.b32 %r6;\n"
    "  bra.uni JOIN;\n"
    "BIG:\n"
    "  mov.u32 %r2, 200;\n"
    "  activemask.b32 %r5;\n"
    "  mov.u32 %r6, %r5;\n"
    "JOIN:\n"
    "  activemask.b32 %r7;\n"
    "  add.s32 %r2, %r2, %r1;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r2, %r5, %r6, %r7};\n"
    "  ret;\n"
    "}\n";

static void test_nested_divergence(void **state) {
    (void)state;
    xt t = xt_open(nested_ptx, "nested.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 16);
    void *args[] = {&out};
    xt_run(&t, "nested", 1, 32, args, 1);
    uint32_t r[32][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t v, m5, m6;
        if (l & 1) {
            /* odd lanes: v = (1 + (t&2 ? 10 : 20)) * 2; the inner paths see lanes
             * t%4==3 (0x88888888) and t%4==1 (0x22222222); the odd join sees all odd
             * lanes (0xaaaaaaaa) */
            v = (l & 2) ? 22 : 42;
            m5 = (l & 2) ? 0x88888888u : 0x22222222u;
            m6 = 0xaaaaaaaau;
        } else if (l < 8) {
            v = 100; /* even lanes 0,2,4,6: mask 0x55 */
            m5 = m6 = 0x55u;
        } else {
            v = 200; /* even lanes 8..30: 0x55555500 */
            m5 = m6 = 0x55555500u;
        }
        assert_int_equal(r[l][0], v + l);
        assert_int_equal(r[l][1], m5);
        assert_int_equal(r[l][2], m6);
        assert_int_equal(r[l][3], 0xffffffffu); /* reconverged at JOIN */
    }
    xt_close(&t);
}

/* ---- loop with a per-lane trip count and a break ---------------------------
 * for (i = 0; i < t; i++) { s += i; iters++; if (s > 100) break; } */
static const char *loop_ptx = XT_HEADER
    ".visible .entry loops(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 0;\n"
    "  mov.u32 %r3, 0;\n"
    "  mov.u32 %r4, 0;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "LOOP:\n"
    "  add.s32 %r2, %r2, %r3;\n"
    "  add.s32 %r4, %r4, 1;\n"
    "  setp.gt.s32 %p2, %r2, 100;\n"
    "  @%p2 bra DONE;\n"
    "  add.s32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p3, %r3, %r1;\n"
    "  @%p3 bra LOOP;\n"
    "DONE:\n"
    "  activemask.b32 %r5;\n"
    "  mul.wide.u32 %rd2, %r1, 12;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  st.global.u32 [%rd3+4], %r4;\n"
    "  st.global.u32 [%rd3+8], %r5;\n"
    "  ret;\n"
    "}\n";

static void test_loop_divergent_trip_counts(void **state) {
    (void)state;
    xt t = xt_open(loop_ptx, "loop.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 64 * 12);
    void *args[] = {&out};
    xt_run(&t, "loops", 1, 64, args, 1); /* two warps, same behaviour per lane */
    uint32_t r[64][3];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 64; l++) {
        /* after k iterations s = 0+1+..+(k-1) = k(k-1)/2; the break fires first at
         * k = 15 (105 > 100; k = 14 gives 91).  So lanes t <= 14 run t iterations,
         * lanes t >= 15 stop after 15 with s = 105. */
        uint32_t k = l <= 14 ? l : 15;
        assert_int_equal(r[l][0], k * (k - (k ? 1 : 0)) / 2);
        assert_int_equal(r[l][1], k);
        assert_int_equal(r[l][2], 0xffffffffu);
    }
    xt_close(&t);
}

/* ---- early exit: a guarded exit, then ret from the kernel inside a branch ----
 * Lanes t%3 == 0 exit first; the survivors diverge on parity and must meet again at
 * JOIN.  In the second if/else the even lanes > 20 return.  Edges that only leave
 * the function are not paths to wait for (src/ptx/cfg.c), so the if/else still
 * reconverges at JOIN2 and every remaining lane meets there -- unlike GPGPU-Sim,
 * whose post-dominator would be the function exit, running JOIN2 once per path. */
static const char *early_ptx = XT_HEADER
    ".visible .entry early(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 3;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    "  @%p1 exit;\n"
    "  and.b32 %r3, %r1, 1;\n"
    "  setp.eq.u32 %p2, %r3, 0;\n"
    "  @%p2 bra EVEN;\n"
    "  mov.u32 %r5, 1;\n"
    "  bra.uni JOIN;\n"
    "EVEN:\n"
    "  mov.u32 %r5, 2;\n"
    "JOIN:\n"
    "  activemask.b32 %r4;\n"
    "  @%p2 bra EVEN2;\n"
    "  mov.u32 %r6, 1;\n"
    "  bra.uni JOIN2;\n"
    "EVEN2:\n"
    "  setp.gt.u32 %p3, %r1, 20;\n"
    "  @%p3 ret;\n"
    "  mov.u32 %r6, 2;\n"
    "JOIN2:\n"
    "  activemask.b32 %r7;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};\n"
    "  ret;\n"
    "}\n";

static void test_early_exit(void **state) {
    (void)state;
    xt t = xt_open(early_ptx, "early.ptx");
    uint32_t init[32][4];
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 4; j++) init[i][j] = 0xdeadbeefu;
    locsim_dptr out = xt_buf(&t, init, sizeof init);
    void *args[] = {&out};
    xt_run(&t, "early", 1, 32, args, 1);
    uint32_t r[32][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        if (l % 3 == 0 || ((l & 1) == 0 && l > 20)) { /* exited, or returned: wrote nothing */
            for (int j = 0; j < 4; j++) assert_int_equal(r[l][j], 0xdeadbeefu);
            continue;
        }
        /* survivors t%3 != 0: bits 1,2,4,5,7,8,... = 0xb6db6db6, all at JOIN */
        assert_int_equal(r[l][0], 0xb6db6db6u);
        assert_int_equal(r[l][1], (l & 1) ? 1u : 2u);
        assert_int_equal(r[l][2], (l & 1) ? 1u : 2u);
        /* The even path's guarded ret only takes lanes away, so the second if
         * reconverges at JOIN2 with every lane still there: odd survivors
         * 1,5,7,11,13,17,19,23,25,29,31 (0xa28a28a2) and even survivors <= 20:
         * 2,4,8,10,14,16,20 (0x00114514) together = 0xa29b6db6. */
        assert_int_equal(r[l][3], 0xa29b6db6u);
    }
    xt_close(&t);
}

/* ---- .func with two returns on divergent paths, and a guarded call ---------
 * pick(a) = a odd ? 3a : 0+1+..+(a-1) */
static const char *calls_ptx = XT_HEADER
    ".func (.param .b32 ret0) pick(.param .b32 a)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n"
    "  ld.param.b32 %r1, [a];\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 1;\n"
    "  @%p1 bra ODD;\n"
    "  mov.u32 %r3, 0;\n"
    "  mov.u32 %r4, 0;\n"
    "  setp.eq.u32 %p2, %r1, 0;\n"
    "  @%p2 bra EVEN_DONE;\n"
    "ELOOP:\n"
    "  add.s32 %r3, %r3, %r4;\n"
    "  add.s32 %r4, %r4, 1;\n"
    "  setp.lt.u32 %p2, %r4, %r1;\n"
    "  @%p2 bra ELOOP;\n"
    "EVEN_DONE:\n"
    "  st.param.b32 [ret0], %r3;\n"
    "  ret;\n"
    "ODD:\n"
    "  mul.lo.s32 %r6, %r1, 3;\n"
    "  st.param.b32 [ret0], %r6;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry calls(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r4, 77;\n"
    "  {\n"
    "  .reg .b32 %temp;\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0], %r1;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), pick, (param0);\n"
    "  ld.param.b32 %r2, [retval0];\n"
    "  }\n"
    "  activemask.b32 %r3;\n"
    "  setp.lt.u32 %p1, %r1, 10;\n"
    "  {\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0], %r1;\n"
    "  .param .b32 retval0;\n"
    "  @%p1 call (retval0), pick, (param0);\n"
    "  @%p1 ld.param.b32 %r4, [retval0];\n"
    "  }\n"
    "  activemask.b32 %r5;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};\n"
    "  ret;\n"
    "}\n";

static void test_calls_with_divergent_returns(void **state) {
    (void)state;
    xt t = xt_open(calls_ptx, "calls.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 16);
    void *args[] = {&out};
    xt_run(&t, "calls", 1, 32, args, 1);
    uint32_t r[32][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want = (l & 1) ? 3 * l : l * (l ? l - 1 : 0) / 2; /* e.g. pick(6) = 15, pick(7) = 21 */
        assert_int_equal(r[l][0], want);
        assert_int_equal(r[l][1], 0xffffffffu);            /* all lanes back after the call */
        assert_int_equal(r[l][2], l < 10 ? want : 77u);    /* only lanes < 10 called */
        assert_int_equal(r[l][3], 0xffffffffu);            /* and everyone reconverged */
    }
    xt_close(&t);
}

/* ---- recursion: factorial with a per-lane depth ----------------------------- */
static const char *fact_ptx = XT_HEADER
    ".func (.param .b32 r) fact(.param .b32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n"
    "  ld.param.b32 %r1, [n];\n"
    "  setp.le.s32 %p1, %r1, 1;\n"
    "  @%p1 bra BASE;\n"
    "  add.s32 %r2, %r1, -1;\n"
    "  {\n"
    "  .param .b32 p0;\n"
    "  st.param.b32 [p0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call.uni (r0), fact, (p0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  mul.lo.s32 %r4, %r3, %r1;\n"
    "  st.param.b32 [r], %r4;\n"
    "  ret;\n"
    "BASE:\n"
    "  mov.u32 %r5, 1;\n"
    "  st.param.b32 [r], %r5;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry facts(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 13;\n"
    "  {\n"
    "  .param .b32 p0;\n"
    "  st.param.b32 [p0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call.uni (r0), fact, (p0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static void test_recursive_factorial(void **state) {
    (void)state;
    xt t = xt_open(fact_ptx, "fact.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 64 * 4);
    void *args[] = {&out};
    xt_run(&t, "facts", 1, 64, args, 1);
    uint32_t r[64];
    xt_get(&t, r, out, sizeof r);
    /* n! for n = t % 13: 0! = 1! = 1, 5! = 120, 12! = 479001600 */
    static const uint32_t fact[13] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800, 479001600};
    for (uint32_t l = 0; l < 64; l++) assert_int_equal(r[l], fact[l % 13]);
    xt_close(&t);
}

/* ---- recursion from nvcc: tests/exec_cu/recursion.cu ----------------------- */
static void test_nvcc_recursion(void **state) {
    (void)state;
    char *ptx = xt_read_source("tests/exec_cu/recursion.ptx");
    xt t = xt_open(ptx, "recursion.ptx");
    free(ptx);
    int32_t in[32];
    for (int i = 0; i < 32; i++) in[i] = i % 16;
    locsim_dptr din = xt_buf(&t, in, sizeof in), dout = xt_buf(&t, NULL, 32 * 4 * 3);
    void *args[] = {&din, &dout};
    xt_run(&t, "fib_and_exit", 1, 32, args, 2);
    int32_t r[3][32];
    xt_get(&t, r, dout, sizeof r);
    /* fib(0..15) = 0 1 1 2 3 5 8 13 21 34 55 89 144 233 377 610 */
    static const int32_t fib[16] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610};
    for (int l = 0; l < 32; l++) {
        assert_int_equal(r[0][l], fib[l % 16]);
        /* sum_to(n) = n + (n-1) + ... + 1 = n(n+1)/2 */
        assert_int_equal(r[1][l], (l % 16) * ((l % 16) + 1) / 2);
        /* lanes with in % 5 == 4 exit inside maybe_exit(): their slot keeps 0 */
        assert_int_equal(r[2][l], (l % 16) % 5 == 4 ? 0 : 1000 + l);
    }
    xt_close(&t);
}

/* A callee fills its caller's local array through a generic pointer; a struct comes
 * back by value through a .param .b8 array (tests/exec_cu/recursion.cu). */
static void test_nvcc_locals_and_struct_return(void **state) {
    (void)state;
    char *ptx = xt_read_source("tests/exec_cu/recursion.ptx");
    xt t = xt_open(ptx, "recursion.ptx");
    free(ptx);
    int32_t in[32];
    for (int i = 0; i < 32; i++) in[i] = 3 * i;
    locsim_dptr din = xt_buf(&t, in, sizeof in), dout = xt_buf(&t, NULL, 32 * 4);
    locsim_dptr dfo = xt_buf(&t, NULL, 32 * 4), ddo = xt_buf(&t, NULL, 32 * 8);
    void *args[] = {&din, &dout, &dfo, &ddo};
    xt_run(&t, "locals_and_structs", 1, 32, args, 4);
    int32_t r[32];
    float fo[32];
    double dd[32];
    xt_get(&t, r, dout, sizeof r);
    xt_get(&t, fo, dfo, sizeof fo);
    xt_get(&t, dd, ddo, sizeof dd);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(r[l], ((3 * l) & 15) * (l + 1)); /* buf[i] = i * (t+1) */
        assert_true(fo[l] == 2.0f * (float)l);            /* make_pair: a * 2 */
        assert_true(dd[l] == (double)l + 0.25);           /* b + 0.25 */
    }
    xt_close(&t);
}

/* -functional_cta_order (locsim_set_cta_order): each CTA's thread 0 takes a ticket
 * (atom.add on a counter) and stores it at out[ctaid], so out is the order CTAs
 * ran in.  37 CTAs: linear gives out[c] = c, reverse 36 - c, a seed a permutation of
 * 0..36 that is neither; the same seed gives the same order. */
static void test_cta_order(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry order(.param .u64 ctr, .param .u64 out)\n"
        "{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.ne.u32 %p1, %r1, 0;\n"
        "  @%p1 bra DONE;\n"
        "  ld.param.u64 %rd1, [ctr];\n"
        "  ld.param.u64 %rd2, [out];\n"
        "  atom.global.add.u32 %r2, [%rd1], 1;\n"
        "  mov.u32 %r3, %ctaid.x;\n"
        "  mul.wide.u32 %rd3, %r3, 4;\n"
        "  add.s64 %rd4, %rd2, %rd3;\n"
        "  st.global.u32 [%rd4], %r2;\n"
        "DONE:\n"
        "  ret;\n"
        "}\n";
    const uint32_t orders[] = {0, 1, 7, 7};
    uint32_t got[4][37];
    for (int k = 0; k < 4; k++) {
        xt t = xt_open(ptx, "order.ptx");
        locsim_set_cta_order(t.dev, orders[k]);
        locsim_dptr ctr = xt_buf(&t, NULL, 4), out = xt_buf(&t, NULL, sizeof got[k]);
        void *args[] = {&ctr, &out};
        xt_run(&t, "order", 37, 32, args, 2);
        xt_get(&t, got[k], out, sizeof got[k]);
        xt_close(&t);
    }
    uint32_t seen = 0, same = 1;
    uint64_t bits = 0;
    for (uint32_t c = 0; c < 37; c++) {
        assert_int_equal(got[0][c], c);
        assert_int_equal(got[1][c], 36 - c);
        assert_true(got[2][c] < 37);
        bits |= 1ull << got[2][c];
        seen += got[2][c] == c || got[2][c] == 36 - c;
        same &= got[2][c] == got[3][c];
    }
    assert_true(bits == (1ull << 37) - 1); /* a permutation */
    assert_true(seen < 37);                /* neither order above */
    assert_true(same);                     /* deterministic */
}

/* Indirect calls: `mov.u64 %rd, f` takes a function's address, `call (r), %rd, (a),
 * proto` calls it.  Even lanes call inc (a + 1), odd lanes dbl (2a), at one call:
 * lane l gets l + 1 or 2l.  A call through an address that is no function's faults
 * with a message saying so. */
static void test_indirect_calls(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".func (.param .b32 r) inc(.param .b32 a)\n{\n  .reg .b32 %r<3>;\n"
        "  ld.param.b32 %r1, [a];\n  add.s32 %r2, %r1, 1;\n  st.param.b32 [r], %r2;\n  ret;\n}\n"
        ".func (.param .b32 r) dbl(.param .b32 a)\n{\n  .reg .b32 %r<3>;\n"
        "  ld.param.b32 %r1, [a];\n  shl.b32 %r2, %r1, 1;\n  st.param.b32 [r], %r2;\n  ret;\n}\n"
        ".visible .entry k(.param .u64 out, .param .u64 junk)\n"
        "{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  ld.param.u64 %rd6, [junk];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  and.b32 %r2, %r1, 1;\n"
        "  setp.eq.u32 %p1, %r2, 0;\n"
        "  mov.u64 %rd2, inc;\n"
        "  mov.u64 %rd3, dbl;\n"
        "  selp.b64 %rd4, %rd2, %rd3, %p1;\n"
        "  add.s64 %rd4, %rd4, %rd6;\n"
        "  {\n"
        "  .param .b32 a0;\n  .param .b32 r0;\n"
        "  st.param.b32 [a0], %r1;\n"
        "  proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "  call (r0), %rd4, (a0), proto;\n"
        "  ld.param.b32 %r3, [r0];\n"
        "  }\n"
        "  mul.wide.u32 %rd5, %r1, 4;\n"
        "  add.s64 %rd5, %rd1, %rd5;\n"
        "  st.global.u32 [%rd5], %r3;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "indirect.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 4);
    uint64_t junk = 0;
    void *args[] = {&out, &junk};
    xt_run(&t, "k", 1, 32, args, 2);
    uint32_t r[32];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(r[l], l % 2 == 0 ? l + 1 : 2 * l);
    junk = 8; /* no function's address */
    const char *msg = xt_expect_error(&t, "k", 1, 32, args, 2, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "not a function's address");
    xt_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_divergence),
        cmocka_unit_test(test_loop_divergent_trip_counts),
        cmocka_unit_test(test_early_exit),
        cmocka_unit_test(test_calls_with_divergent_returns),
        cmocka_unit_test(test_recursive_factorial),
        cmocka_unit_test(test_nvcc_recursion),
        cmocka_unit_test(test_nvcc_locals_and_struct_return),
        cmocka_unit_test(test_cta_order),
        cmocka_unit_test(test_indirect_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
