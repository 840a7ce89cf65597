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

/* A kernel whose body is `n` copies of `line`; a '#' in it becomes 2 + i mod 14
 * (so that "%q#" names 14 different registers %q2..%q15, all in banks 2..15). */
static char *chain_ptx(const char *line, int n) {
    static const char head[] =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry chain(.param .u64 dst)\n{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n  .reg .b64 %rd<8>;\n"
        "  .reg .b32 %q<20>;\n  .reg .b16 %rs<4>;\n"
        "  ld.param.u64 %rd1, [dst];\n"
        "  mov.f64 %fd1, 0d3FF8000000000000;\n  mov.f64 %fd2, 0d3FF0000000000000;\n"
        "  mov.u32 %r1, 1000000;\n  mov.u32 %r2, 3;\n  mov.f32 %f1, 0f40000000;\n"
        "  mov.u32 %q1, 7;\n  mov.u32 %q16, 7;\n  mov.b16 %rs1, 5;\n";
    static const char tail[] =
        "  st.global.f64 [%rd1], %fd1;\n  st.global.u32 [%rd1+8], %r1;\n  st.global.f32 [%rd1+12], %f1;\n"
        "  ret;\n}\n";
    size_t len = sizeof head + sizeof tail + (size_t)n * (strlen(line) + 4);
    char *p = malloc(len);
    assert_non_null(p);
    strcpy(p, head);
    for (int i = 0; i < n; i++) {
        char buf[160], num[8];
        snprintf(num, sizeof num, "%d", 2 + i % 14);
        size_t k = 0;
        for (const char *c = line; *c && k + 8 < sizeof buf; c++)
            if (*c == '#') k += (size_t)snprintf(buf + k, sizeof buf - k, "%s", num);
            else buf[k++] = *c;
        buf[k] = '\0';
        strcat(p, "  ");
        strcat(p, buf);
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

/* Register numbering: %r0..7 are registers 0..7, %f 8..15, %fd 16..23, %rd
 * 24..31, %q0..19 32..51; one warp (warp 0), so register r is in bank r mod 16.
 * The head has 8 instructions, so fetch pairs start at even instruction
 * indices and never straddle a 16-instruction (128 B) cache line. */

/* A dependent int add takes its latency (4) plus GPGPU-Sim's pipeline: issue ->
 * collector unit (+1) -> operands read (+2) -> dispatch (+3) -> function unit
 * (+4) -> result after 4 more -> writeback 2 later (opcoll.c): 4 + 6 = 10 cycles
 * a link.  N more links: 10 N more cycles. */
static void test_dependent_chain_takes_latency_plus_6(void **state) {
    (void)state;
    chain_result a = run_chain("add.u32 %r1, %r1, %r2;", N, NULL), b = run_chain("add.u32 %r1, %r1, %r2;", 2 * N, NULL);
    assert_int_equal(b.cycles - a.cycles, N * 10);
}

/* %q0 (register 32) and %q16 (48) share bank 0; %q1 (33) is in bank 1.  Reading
 * two operands from one bank takes two cycles: one cycle more per link. */
static int64_t per_n(const char *line, const char *const *over) {
    chain_result a = run_chain(line, N, over), b = run_chain(line, 2 * N, over);
    return (int64_t)b.cycles - (int64_t)a.cycles;
}

static void test_register_bank_conflict_costs_a_cycle(void **state) {
    (void)state;
    /* N more links: 10 N cycles without a conflict, 11 N with one */
    assert_int_equal(per_n("add.u32 %q0, %q0, %q1;", NULL), 10 * N);
    assert_int_equal(per_n("add.u32 %q0, %q0, %q16;", NULL), 11 * N);
    const char *banks32[] = {"-gpgpu_num_reg_banks", "32", NULL};  /* registers 32 and 48 now differ */
    assert_int_equal(per_n("add.u32 %q0, %q0, %q16;", banks32), 10 * N);
}

/* Independent instructions of one warp (sources %r1 in bank 1, results %q2..15
 * in banks 2..15, never re-written within 14 instructions): the I-buffer holds
 * 2; the second issues the cycle after the first, the fetch for the next two
 * happens that same cycle and they issue 2 cycles later: 3 cycles per pair, so
 * N = 24 more instructions take 12 x 3 = 36 more cycles.
 * With one SP collector unit, an instruction issued at t holds it from t+1
 * until it leaves for the function unit at t+3, so the next one issues at t+2
 * at the earliest: pair i, i+1 at t, t+2; fetch at t+2; the next pair at t+4:
 * 4 cycles per pair, 48 cycles for 24 instructions. */
static void test_fetch_and_collector_units(void **state) {
    (void)state;
    const char *line = "add.u32 %q#, %r1, 1;";
    chain_result a = run_chain(line, N, NULL), b = run_chain(line, 2 * N, NULL);
    assert_int_equal(b.cycles - a.cycles, 36);
    const char *one_cu[] = {"-gpgpu_operand_collector_num_units_sp", "1", NULL};
    a = run_chain(line, N, one_cu);
    b = run_chain(line, 2 * N, one_cu);
    assert_int_equal(b.cycles - a.cycles, 48);
}

/* An immediate element of a vector operand (nvcc packs bf16 constants as
 * `mov.b32 %f1, {0, %rs1};`) is not a register: the scoreboard, the register
 * banks and liveness skip it.  With 0x3F80 (bf16 1.0, 16256) read as a register
 * index the scoreboard read far past the warp's registers (the test build's
 * AddressSanitizer stops there).  Read correctly, each mov has one register
 * source (%rs1, bank 5) and results in %q2..15, so the independent movs issue
 * in pairs as test_fetch_and_collector_units' adds do: 36 cycles per 24 more. */
static void test_vector_immediate_is_not_a_register(void **state) {
    (void)state;
    const char *line = "mov.b32 %q#, {%rs1, 16256};";
    chain_result a = run_chain(line, N, NULL), b = run_chain(line, 2 * N, NULL);
    assert_int_equal(b.cycles - a.cycles, 36);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_columns),
        cmocka_unit_test(test_f64_moves_are_not_dp),
        cmocka_unit_test(test_dp_runs_on_sfu_without_dp_unit),
        cmocka_unit_test(test_dependent_chain_takes_latency_plus_6),
        cmocka_unit_test(test_register_bank_conflict_costs_a_cycle),
        cmocka_unit_test(test_fetch_and_collector_units),
        cmocka_unit_test(test_vector_immediate_is_not_a_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
