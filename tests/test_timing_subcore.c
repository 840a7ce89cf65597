/* The Volta-class SM (docs/timing-core.md): sub-cores (-gpgpu_sub_core_model)
 * and the INT pipeline (-gpgpu_num_int_units), on fermi_gtx480 with options.
 *
 * Method: f32 adds with a long initiation interval (20 cycles) make the SP
 * units the bottleneck, so which warps share a unit shows directly in the
 * kernel's cycle count.  fermi_gtx480 has 2 warp schedulers and 2 SP units:
 * with sub-cores, warp w is on sub-core w mod 2 and each sub-core owns one SP
 * unit; without them, the two units serve every warp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing_util.h"

enum { N = 24, INIT = 20 };

/* Every warp but warp `idle` (of its CTA) runs N dependent f32 adds, straight
 * line (a loop counter would share the SP units with them). */
static char *adds_ptx(void) {
    static const char head[] =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry adds(.param .u64 dst, .param .u32 idle)\n{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [dst];\n  ld.param.u32 %r2, [idle];\n"
        "  mov.u32 %r1, %tid.x;\n  shr.u32 %r3, %r1, 5;\n  mov.f32 %f1, 0f3F800000;\n"
        "  setp.eq.u32 %p1, %r3, %r2;\n  @%p1 bra DONE;\n";
    static const char add[] = "  add.f32 %f1, %f1, %f1;\n";
    static const char tail[] = "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
                               "  st.global.f32 [%rd3], %f1;\nDONE:\n  ret;\n}\n";
    char *p = malloc(sizeof head + N * sizeof add + sizeof tail);
    assert_non_null(p);
    strcpy(p, head);
    for (int i = 0; i < N; i++) strcat(p, add);
    strcat(p, tail);
    return p;
}

/* Cycles of one CTA of `warps` warps (warp `idle` does nothing). */
static uint64_t run_adds(uint32_t warps, uint32_t idle, int sub_core) {
    const char *over[] = {"-gpgpu_sub_core_model", sub_core ? "1" : "0",
                          /* an equal share for each sub-core: fermi_gtx480 has 1 SFU */
                          "-gpgpu_num_sfu_units", "2", "-ptx_opcode_initiation_fp", "20,2,1,1,4", NULL};
    tdev t;
    tdev_open(&t, "fermi_gtx480", over);
    locsim_dptr dst = tdev_alloc(&t, NULL, 4 * 32 * warps);
    void *args[] = {&dst, &idle};
    char *ptx = adds_ptx();
    tdev_launch(&t, tdev_kernel(&t, ptx, "adds"), 1, 32 * warps, args, 2);
    uint64_t c = (uint64_t)tdev_stat(&t, "gpu_sim_cycle", 0);
    tdev_close(&t);
    free(ptx);
    return c;
}

/* Warp w belongs to sub-core w mod 2 (Accel-Sim's assignment): warps 0 and 2
 * share sub-core 0's one SP unit, so their 2N adds go through it one after the
 * other, at least N x 20 cycles more than one warp's N.  Without sub-cores the
 * same two warps (both on scheduler 0) use both SP units and take about as
 * long as one. */
static void test_warps_of_one_sub_core_share_its_unit(void **state) {
    (void)state;
    uint64_t one = run_adds(1, 99, 1), packed = run_adds(3, 1, 1), shared = run_adds(3, 1, 0);
    print_message("one warp %llu, warps 0+2 with sub-cores %llu, without %llu cycles\n", (unsigned long long)one,
                  (unsigned long long)packed, (unsigned long long)shared);
    assert_true(packed >= one + (uint64_t)(N - 1) * INIT);
    assert_true(shared < one + INIT);
}

/* Warps 0 and 1 are on different sub-cores: sub-core 0's unit, busy with warp
 * 0's adds, does not hold up warp 1's, which run on sub-core 1's unit at the
 * same time: two warps take less than one initiation interval more than one. */
static void test_busy_unit_does_not_block_another_sub_core(void **state) {
    (void)state;
    uint64_t one = run_adds(1, 99, 1), spread = run_adds(2, 99, 1);
    print_message("one warp %llu, warps 0+1 with sub-cores %llu cycles\n", (unsigned long long)one,
                  (unsigned long long)spread);
    assert_true(spread >= one);
    assert_true(spread < one + INIT);
}

/* A chain kernel: n copies of `line` in one thread; warp instructions per pipeline. */
typedef struct {
    uint64_t cycles;
    double sp, in;
} chain_result;

static chain_result run_chain(const char *line, int n, const char *const *over) {
    static const char head[] =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry chain(.param .u64 dst)\n{\n"
        "  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, 3;\n  mov.u32 %r2, 5;\n  mov.f32 %f1, 0f40000000;\n";
    static const char tail[] = "  st.global.u32 [%rd1], %r1;\n  st.global.f32 [%rd1+4], %f1;\n  ret;\n}\n";
    size_t len = sizeof head + sizeof tail + (size_t)n * (strlen(line) + 4);
    char *ptx = malloc(len);
    assert_non_null(ptx);
    strcpy(ptx, head);
    for (int i = 0; i < n; i++) {
        strcat(ptx, "  ");
        strcat(ptx, line);
        strcat(ptx, "\n");
    }
    strcat(ptx, tail);
    tdev t;
    tdev_open(&t, "fermi_gtx480", over);
    locsim_dptr dst = tdev_alloc(&t, NULL, 64);
    void *args[] = {&dst};
    tdev_launch(&t, tdev_kernel(&t, ptx, "chain"), 1, 1, args, 1);
    chain_result r = {(uint64_t)tdev_stat(&t, "gpu_sim_cycle", 0), tdev_stat(&t, "warp_insn_sp", 0), -1};
    timing_state *ts = timing_of(t.dev);
    if (stats_find(ts->stats, "warp_insn_int") >= 0) r.in = tdev_stat(&t, "warp_insn_int", 0);
    tdev_close(&t);
    free(ptx);
    return r;
}

/* With INT units every SP-pipe instruction but the f32 ADD/MAX/MUL/MAD ones runs
 * on them (GPGPU-Sim 4.x: SP_OP vs INTP_OP / ALU_OP): an int add chain leaves
 * the SP units idle, the f32 add chain uses them for its N adds and nothing
 * else (the movs go to INT).  Without INT units there is no warp_insn_int
 * statistic at all (the Fermi reports are unchanged). */
static void test_int_pipeline_takes_all_but_f32_arithmetic(void **state) {
    (void)state;
    const char *int1[] = {"-gpgpu_num_int_units", "1", NULL};
    chain_result r = run_chain("add.u32 %r1, %r1, %r2;", N, int1);
    assert_true(r.sp == 0 && r.in >= N);
    r = run_chain("add.f32 %f1, %f1, %f1;", N, int1);
    assert_true(r.sp == N && r.in >= 3);
    r = run_chain("add.u32 %r1, %r1, %r2;", N, NULL);
    assert_true(r.in == -1 && r.sp >= N);
}

/* One SP unit, int and f32 add intervals of 20: interleaved independent int and
 * f32 adds share the SP unit without INT units (40 cycles per pair) and run
 * side by side with one (20 cycles per pair: each pipeline takes one add every
 * 20 cycles). */
static void test_int_unit_runs_beside_sp(void **state) {
    (void)state;
    const char *line = "add.u32 %r1, %r1, %r2; add.f32 %f1, %f1, %f1;";
    const char *shared[] = {"-gpgpu_num_sp_units", "1", "-ptx_opcode_initiation_int", "20,2,2,1,8,4",
                            "-ptx_opcode_initiation_fp", "20,2,1,1,4", NULL};
    const char *split[] = {"-gpgpu_num_sp_units", "1", "-ptx_opcode_initiation_int", "20,2,2,1,8,4",
                           "-ptx_opcode_initiation_fp", "20,2,1,1,4", "-gpgpu_num_int_units", "1", NULL};
    int64_t d_shared = (int64_t)(run_chain(line, 2 * N, shared).cycles - run_chain(line, N, shared).cycles);
    int64_t d_split = (int64_t)(run_chain(line, 2 * N, split).cycles - run_chain(line, N, split).cycles);
    print_message("%d more pairs: %lld cycles on SP alone, %lld with an INT unit\n", N, (long long)d_shared,
                  (long long)d_split);
    assert_int_equal(d_shared, 40 * N);
    assert_int_equal(d_split, 20 * N);
}

/* L0 instruction caches (tests/configs/volta_sm.cfg: four sub-cores, a 12 KB L0
 * each): every fetch looks up its sub-core's L0 and only the L0 misses reach the
 * L1I, one L1I access each (the L0's pending hits wait in its MSHRs). */
static void test_l1i_sees_only_l0_misses(void **state) {
    (void)state;
    const char *over[] = {"-gpgpu_perfect_inst_const_cache", "0", NULL};
    tdev t;
    tdev_open(&t, "tests/configs/volta_sm.cfg", over);
    uint32_t warps = 8, idle = 99;
    locsim_dptr dst = tdev_alloc(&t, NULL, 4 * 32 * warps);
    void *args[] = {&dst, &idle};
    char *ptx = adds_ptx();
    tdev_launch(&t, tdev_kernel(&t, ptx, "adds"), 1, 32 * warps, args, 2);
    double l0_acc = tdev_stat(&t, "L0I_total_cache_accesses", 0), l0_hit = tdev_stat(&t, "L0I_total_cache_hits", 0);
    double l0_miss = tdev_stat(&t, "L0I_total_cache_misses", 0);
    double l1_acc = tdev_stat(&t, "L1I_total_cache_accesses", 0);
    print_message("L0I accesses %.0f hits %.0f misses %.0f, L1I accesses %.0f\n", l0_acc, l0_hit, l0_miss, l1_acc);
    assert_true(l0_miss > 0 && l0_hit > 0);
    assert_true(l1_acc == l0_miss);
    tdev_close(&t);
    free(ptx);
}

/* Sub-cores need an equal share of every divided resource: the error names the option. */
static void test_sub_core_shares_must_divide(void **state) {
    (void)state;
    char err[1024] = "";
    locsim_config *cfg = NULL;
    const char *args[] = {"-gpgpu_sub_core_model", "1"};  /* fermi_gtx480: 1 SFU, 2 schedulers */
    assert_int_not_equal(locsim_config_load("fermi_gtx480", 2, (char **)args, &cfg, err, sizeof err), LOCSIM_OK);
    assert_non_null(strstr(err, "-gpgpu_num_sfu_units 1"));
    const char *ok[] = {"-gpgpu_sub_core_model", "1", "-gpgpu_num_sfu_units", "2"};
    assert_int_equal(locsim_config_load("fermi_gtx480", 4, (char **)ok, &cfg, err, sizeof err), LOCSIM_OK);
    locsim_config_free(cfg);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warps_of_one_sub_core_share_its_unit),
        cmocka_unit_test(test_busy_unit_does_not_block_another_sub_core),
        cmocka_unit_test(test_int_pipeline_takes_all_but_f32_arithmetic),
        cmocka_unit_test(test_int_unit_runs_beside_sp),
        cmocka_unit_test(test_l1i_sees_only_l0_misses),
        cmocka_unit_test(test_sub_core_shares_must_divide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
