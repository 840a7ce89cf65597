/* The SM pipeline against GPGPU-Sim's model: which opcode takes which latency
 * column and pipeline (src/core/opclass.c).
 *
 * Method: one thread runs a chain of N copies of one instruction, each reading
 * the previous one's result.  Everything outside the chain is identical between
 * two runs, so when only a latency option changes by D cycles, the kernel's
 * cycle count changes by exactly N x D: every chain link waits for the previous
 * result, and nothing else in the kernel depends on that option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing_util.h"

enum { N = 24 };

/* A kernel whose body is `n` copies of `line`. */
static char *chain_ptx(const char *line, int n) {
    static const char head[] =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry chain(.param .u64 dst)\n{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [dst];\n"
        "  mov.f64 %fd1, 0d3FF8000000000000;\n  mov.f64 %fd2, 0d3FF0000000000000;\n"
        "  mov.u32 %r1, 1000000;\n  mov.u32 %r2, 3;\n  mov.f32 %f1, 0f40000000;\n";
    static const char tail[] =
        "  st.global.f64 [%rd1], %fd1;\n  st.global.u32 [%rd1+8], %r1;\n  st.global.f32 [%rd1+12], %f1;\n"
        "  ret;\n}\n";
    size_t len = sizeof head + sizeof tail + (size_t)n * (strlen(line) + 4);
    char *p = malloc(len);
    assert_non_null(p);
    strcpy(p, head);
    for (int i = 0; i < n; i++) {
        strcat(p, "  ");
        strcat(p, line);
        strcat(p, "\n");
    }
    strcat(p, tail);
    return p;
}

typedef struct {
    uint64_t cycles;
    double sp, sfu, dp;
} chain_result;

/* Run `line` x n on one thread of fermi_gtx480 with overrides. */
static chain_result run_chain(const char *line, int n, const char *const *overrides) {
    tdev t;
    tdev_open(&t, "fermi_gtx480", overrides);
    char *ptx = chain_ptx(line, n);
    locsim_dptr dst = tdev_alloc(&t, NULL, 64);
    void *args[] = {&dst};
    tdev_launch(&t, tdev_kernel(&t, ptx, "chain"), 1, 1, args, 1);
    chain_result r = {(uint64_t)tdev_stat(&t, "gpu_sim_cycle", 0), tdev_stat(&t, "warp_insn_sp", 0),
                      tdev_stat(&t, "warp_insn_sfu", 0), tdev_stat(&t, "warp_insn_dp", 0)};
    tdev_close(&t);
    free(ptx);
    return r;
}

/* Cycles with `over` minus cycles with the shipped config. */
static int64_t delta(const char *line, const char *const *over) {
    chain_result a = run_chain(line, N, NULL), b = run_chain(line, N, over);
    print_message("%-44s %llu -> %llu cycles\n", line, (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    return (int64_t)b.cycles - (int64_t)a.cycles;
}

/* Shipped columns (SM2_GTX480): dp 8,19,8,8,330; int 4,13,4,5,145,32; fp 4,13,4,5,39; sfu 8.
 * Each override below moves one column by a known amount D; the chain of N
 * then takes N x D cycles more. */
static void test_latency_columns(void **state) {
    (void)state;
    /* dp ADD 8 -> 20: +12 per f64 add */
    const char *dp_add[] = {"-ptx_opcode_latency_dp", "20,19,8,8,330", NULL};
    assert_int_equal(delta("add.f64 %fd1, %fd1, %fd2;", dp_add), N * 12);
    /* dp MAX 19 -> 29: +10 per f64 max */
    const char *dp_max[] = {"-ptx_opcode_latency_dp", "8,29,8,8,330", NULL};
    assert_int_equal(delta("max.f64 %fd1, %fd1, %fd2;", dp_max), N * 10);
    /* dp MAD 8 -> 15: fma.f64 takes the MAD column (+7) */
    const char *dp_mad[] = {"-ptx_opcode_latency_dp", "8,19,8,15,330", NULL};
    assert_int_equal(delta("fma.rn.f64 %fd1, %fd1, %fd2, %fd2;", dp_mad), N * 7);
    /* dp DIV 330 -> 400: div.f64 (+70) */
    const char *dp_div[] = {"-ptx_opcode_latency_dp", "8,19,8,8,400", NULL};
    assert_int_equal(delta("div.rn.f64 %fd1, %fd1, %fd2;", dp_div), N * 70);
    /* sfu 8 -> 30: rcp.f64 and sqrt.f32 take -ptx_opcode_latency_sfu (+22) */
    const char *sfu[] = {"-ptx_opcode_latency_sfu", "30", NULL};
    assert_int_equal(delta("rcp.rn.f64 %fd1, %fd1;", sfu), N * 22);
    assert_int_equal(delta("sqrt.approx.f32 %f1, %f1;", sfu), N * 22);
    /* int DIV 145 -> 150 (+5) for div.u32 and rem.u32 */
    const char *int_div[] = {"-ptx_opcode_latency_int", "4,13,4,5,150,32", NULL};
    assert_int_equal(delta("div.u32 %r1, %r1, %r2;", int_div), N * 5);
    assert_int_equal(delta("rem.u32 %r1, %r1, %r2;", int_div), N * 5);
    /* int SHFL 32 -> 40 (+8), the 6th column */
    const char *shfl[] = {"-ptx_opcode_latency_int", "4,13,4,5,145,40", NULL};
    assert_int_equal(delta("shfl.sync.idx.b32 %r1, %r1, 0, 31, -1;", shfl), N * 8);
    /* fp MUL 4 -> 6 (+2) */
    const char *fp_mul[] = {"-ptx_opcode_latency_fp", "4,13,6,5,39", NULL};
    assert_int_equal(delta("mul.f32 %f1, %f1, %f1;", fp_mul), N * 2);
}

/* f64 mov / neg / abs / setp / selp / cvt are not double-precision arithmetic
 * in GPGPU-Sim: latency 1 on the SP pipeline.  Raising every dp and int column
 * changes nothing for them, and they never touch the SFU (Fermi's DP unit). */
static void test_f64_moves_are_not_dp(void **state) {
    (void)state;
    const char *all_slow[] = {"-ptx_opcode_latency_dp", "50,50,50,50,500", "-ptx_opcode_latency_int",
                              "50,50,50,50,500,50", "-ptx_opcode_latency_fp", "50,50,50,50,500", NULL};
    const char *lines[] = {"neg.f64 %fd1, %fd1;", "abs.f64 %fd1, %fd1;", "mov.f64 %fd1, %fd1;",
                           "setp.gt.f64 %p1, %fd1, %fd2; selp.f64 %fd1, %fd1, %fd2, %p1;",
                           "cvt.rn.f32.f64 %f1, %fd1; cvt.f64.f32 %fd1, %f1;"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        assert_int_equal(delta(lines[i], all_slow), 0);
        chain_result r = run_chain(lines[i], N, NULL);
        assert_true(r.sfu == 0 && r.dp == 0);
    }
}

/* On fermi_gtx480 (-gpgpu_num_dp_units 0) f64 add runs on the SFU: the N
 * adds are N SFU warp instructions; with a DP unit they are DP ones. */
static void test_dp_runs_on_sfu_without_dp_unit(void **state) {
    (void)state;
    chain_result r = run_chain("add.f64 %fd1, %fd1, %fd2;", N, NULL);
    assert_true(r.sfu == N && r.dp == 0);
    const char *dp1[] = {"-gpgpu_num_dp_units", "1", NULL};
    r = run_chain("add.f64 %fd1, %fd1, %fd2;", N, dp1);
    assert_true(r.sfu == 0 && r.dp == N);
    /* int mul / f32 add stay on the SP pipeline */
    r = run_chain("mul.lo.u32 %r1, %r1, %r2;", N, NULL);
    assert_true(r.sfu == 0 && r.dp == 0 && r.sp >= N);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_columns),
        cmocka_unit_test(test_f64_moves_are_not_dp),
        cmocka_unit_test(test_dp_runs_on_sfu_without_dp_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
