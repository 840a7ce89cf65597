/* The energy model (docs/energy.md): every energy_<event> statistic is its
 * count times its configured energy, counts agree with the counters they come
 * from, components add up to the total exactly, static energy is power times
 * simulated time, an energy option changes its component only, and runs repeat
 * bit for bit.  Per-event energies are set to distinct values so that a
 * mix-up of two events (or of an event and its component) shows. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sim/config.h"
#include "sim/energy.h"
#include "timing_util.h"

/* One CTA of 32 threads (one full warp, no divergence):
 *   x = src[tid]; y = sin(x); sh[tid] = y; z = sh[31 - tid]; dst[tid] = z + 1
 * so: one L1D read (one 128 B line, filled by 4 sector replies), one SFU warp instruction (32 thread ops),
 * one shared-memory write and one read (each lane its own bank: no conflict),
 * one global write. */
static const char *const ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b8 sh[128];\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f1, [%rd4];\n"
    "  sin.approx.f32 %f2, %f1;\n"
    "  mov.u64 %rd5, sh;\n  add.s64 %rd6, %rd5, %rd3;\n  st.shared.f32 [%rd6], %f2;\n"
    "  bar.sync 0;\n"
    "  sub.s32 %r2, 31, %r1;\n  mul.wide.u32 %rd7, %r2, 4;\n  add.s64 %rd7, %rd5, %rd7;\n"
    "  ld.shared.f32 %f3, [%rd7];\n  add.f32 %f4, %f3, 0f3F800000;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n  st.global.f32 [%rd7], %f4;\n  ret;\n}\n";

/* Distinct per-event energies (nJ) and static powers (W), as options. */
static const char *const distinct[] = {
    "-energy_l1d_read_nj", "1.01",  "-energy_l1d_write_nj", "1.02", "-energy_l1d_fill_nj", "1.03",
    "-energy_l1c_read_nj", "1.04",  "-energy_l1c_fill_nj", "1.05",  "-energy_l1t_read_nj", "1.06",
    "-energy_l1t_fill_nj", "1.07",  "-energy_shmem_read_nj", "1.08", "-energy_shmem_write_nj", "1.09",
    "-energy_rf_read_nj", "1.10",   "-energy_rf_write_nj", "1.11",  "-energy_alu_op_nj", "1.12",
    "-energy_sfu_op_nj", "1.13",    "-energy_dp_op_nj", "1.14",     "-energy_l2_read_nj", "1.15",
    "-energy_l2_write_nj", "1.16",  "-energy_l2_fill_nj", "1.17",   "-energy_noc_flit_nj", "1.18",
    "-energy_dram_act_nj", "1.19",  "-energy_dram_pre_nj", "1.20",  "-energy_dram_rd_nj", "1.21",
    "-energy_dram_wr_nj", "1.22",   "-energy_static_sm_w", "31.5",  "-energy_static_l2_w", "3.25",
    "-energy_static_noc_w", "2.75", "-energy_static_dram_w", "11.5",
    /* 500 MHz core clock: 2 ns per core cycle, so time = 2 x cycles exactly */
    "-gpgpu_clock_domains", "500.0:700.0:700.0:924.0", "-gpgpu_perf_sim_memcpy", "0", NULL};

static double option_nj(energy_event e) { return 1.01 + 0.01 * (double)e; }

/* Runs the kernel twice (two kernels in the statistics) with `over` options. */
static void run(tdev *t, const char *const *over) {
    tdev_open(t, "fermi_gtx480", over);
    locsim_kernel *k = tdev_kernel(t, ptx, "k");
    float in[32];
    for (int i = 0; i < 32; i++) in[i] = (float)i * 0.25f;
    locsim_dptr src = tdev_alloc(t, in, sizeof in), dst = tdev_alloc(t, NULL, sizeof in);
    void *args[2] = {&src, &dst};
    tdev_launch(t, k, 1, 32, args, 2);
    tdev_launch(t, k, 1, 32, args, 2);
}

static double stat_at(const tdev *t, uint32_t k, const char *fmt, const char *arg) {
    char name[96];
    snprintf(name, sizeof name, fmt, arg);
    timing_state *ts = timing_of(t->dev);
    int id = stats_find(ts->stats, name);
    if (id < 0) print_error("no statistic %s\n", name);
    assert_true(id >= 0);
    return stats_value(ts->stats, k, id);
}

static void test_event_is_count_times_energy(void **state) {
    (void)state;
    tdev t;
    run(&t, distinct);
    timing_state *ts = timing_of(t.dev);
    for (uint32_t k = 0; k < 2; k++) {
        for (int e = 0; e < ENERGY_EVENT_COUNT; e++) {
            const char *n = energy_event_name((energy_event)e);
            double count = stat_at(&t, k, "energy_%s_events", n);
            /* one multiplication, as the model does: exact equality */
            assert_true(stat_at(&t, k, "energy_%s", n) == count * option_nj((energy_event)e));
        }
        /* Hand-counted events of one launch (see the kernel's comment). */
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_read") == 1.0);
        /* the L2 is sectored: the line comes back as 4 replies of 32 B, each a fill */
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_fill") == 4.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "sfu_op") == 32.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "shmem_read") == 1.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "shmem_write") == 1.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "dp_op") == 0.0);
        /* Counts agree with the statistics of the counters they come from. */
        assert_true(stat_at(&t, k, "energy_%s_events", "alu_op") == 32.0 * stat_at(&t, k, "%s", "warp_insn_sp"));
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_read") + stat_at(&t, k, "energy_%s_events", "l1d_write") ==
                    stat_at(&t, k, "%s", "L1D_total_cache_accesses"));
        assert_true(stat_at(&t, k, "energy_%s_events", "l2_read") + stat_at(&t, k, "energy_%s_events", "l2_write") ==
                    stat_at(&t, k, "%s", "L2_total_cache_accesses"));
        assert_true(stat_at(&t, k, "energy_%s_events", "noc_flit") ==
                    stat_at(&t, k, "%s", "icnt_req_flits") + stat_at(&t, k, "%s", "icnt_rep_flits"));
        assert_true(stat_at(&t, k, "energy_%s_events", "dram_act") == stat_at(&t, k, "%s", "dram_activates"));
        assert_true(stat_at(&t, k, "energy_%s_events", "dram_pre") == stat_at(&t, k, "%s", "dram_precharges"));
        /* Events this kernel must cause (with -gpgpu_perf_sim_memcpy 0 the first
         * launch reads src from DRAM; the second finds it in the L2). */
        const char *const some[] = {"l2_read", "noc_flit", "rf_read", "rf_write", "alu_op", "l1d_write"};
        for (size_t i = 0; i < sizeof some / sizeof *some; i++)
            if (!(stat_at(&t, k, "energy_%s_events", some[i]) > 0.0)) fail_msg("kernel %u: no %s", k, some[i]);
        /* src is one 128 B line in one DRAM row: one activation, and each of its
         * 4 sectors is a column command (test_timing_memory.c works this out) */
        assert_true(stat_at(&t, k, "energy_%s_events", "dram_rd") == (k == 0 ? 4.0 : 0.0));
        assert_true(stat_at(&t, k, "energy_%s_events", "dram_act") == (k == 0 ? 1.0 : 0.0));
    }
    (void)ts;
    tdev_close(&t);
}

static double sum_events_of(const tdev *t, uint32_t k, energy_component c) {
    double s = 0.0;
    for (int e = 0; e < ENERGY_EVENT_COUNT; e++)
        if (energy_event_component((energy_event)e) == c) s += stat_at(t, k, "energy_%s", energy_event_name((energy_event)e));
    return s;
}

static void test_parts_add_up_exactly(void **state) {
    (void)state;
    tdev t;
    run(&t, distinct);
    const uint32_t ks[3] = {0, 1, STATS_TOTAL};
    for (int i = 0; i < 3; i++) {
        uint32_t k = ks[i];
        double dyn = 0.0, stat = 0.0;
        for (int c = 0; c < ENERGY_COMPONENT_COUNT; c++) {
            double v = stat_at(&t, k, "energy_%s", energy_component_name((energy_component)c));
            assert_true(v == sum_events_of(&t, k, (energy_component)c));
            dyn += v;
        }
        for (int s = 0; s < ENERGY_STATIC_COUNT; s++) stat += stat_at(&t, k, "energy_static_%s", energy_static_name(s));
        assert_true(stat_at(&t, k, "%s", "energy_dynamic") == dyn);
        assert_true(stat_at(&t, k, "%s", "energy_static") == stat);
        assert_true(stat_at(&t, k, "%s", "energy_total") == dyn + stat);
        assert_true(stat_at(&t, k, "%s", "energy_l2_noc_dram") ==
                    stat_at(&t, k, "energy_%s", "l2") + stat_at(&t, k, "energy_%s", "noc") +
                        stat_at(&t, k, "energy_%s", "dram"));
        assert_true(dyn > 0.0 && stat > 0.0);
    }
    tdev_close(&t);
}

static void test_static_is_power_times_time(void **state) {
    (void)state;
    tdev t;
    run(&t, distinct);
    const double watts[ENERGY_STATIC_COUNT] = {31.5, 3.25, 2.75, 11.5};
    const uint32_t ks[3] = {0, 1, STATS_TOTAL};
    for (int i = 0; i < 3; i++) {
        double cycles = stat_at(&t, ks[i], "%s", "gpu_sim_cycle");
        double ns = stat_at(&t, ks[i], "%s", "gpu_sim_time_ns");
        assert_true(cycles > 0.0);
        assert_true(ns == 2.0 * cycles); /* 500 MHz: 1000 / 500 = 2 ns per cycle, exact in binary */
        for (int s = 0; s < ENERGY_STATIC_COUNT; s++)
            assert_true(stat_at(&t, ks[i], "energy_static_%s", energy_static_name(s)) == watts[s] * ns);
        /* W = nJ / ns */
        double p = stat_at(&t, ks[i], "%s", "energy_avg_power_w");
        assert_true(p == stat_at(&t, ks[i], "%s", "energy_total") / ns);
    }
    tdev_close(&t);
}

/* Changing one option changes its event and component (and the sums) only;
 * counts, cycles and the other components stay bit-identical (the energy model
 * does not touch timing).  Running the same configuration twice repeats every
 * energy statistic exactly. */
static void test_option_changes_only_its_component(void **state) {
    (void)state;
    const char *changed[64];
    size_t n = 0;
    for (; distinct[n]; n++) changed[n] = distinct[n];
    changed[n] = NULL;
    for (size_t i = 0; changed[i]; i += 2)
        if (strcmp(changed[i], "-energy_l2_read_nj") == 0) changed[i + 1] = "7.5";
    tdev a, b, c;
    run(&a, distinct);
    run(&b, changed);
    run(&c, distinct);
    timing_state *ta = timing_of(a.dev), *tb = timing_of(b.dev), *tc = timing_of(c.dev);
    for (uint32_t id = 0; id < stats_count(ta->stats); id++) {
        const char *name = stats_name(ta->stats, (int)id);
        if (strncmp(name, "energy_", 7) != 0 && strcmp(name, "gpu_sim_time_ns") != 0) continue;
        double va = stats_value(ta->stats, STATS_TOTAL, (int)id);
        double vb = stats_value(tb->stats, STATS_TOTAL, (int)id);
        double vc = stats_value(tc->stats, STATS_TOTAL, (int)id);
        assert_true(va == vc); /* determinism */
        int affected = !strcmp(name, "energy_l2_read") || !strcmp(name, "energy_l2") ||
                       !strcmp(name, "energy_dynamic") || !strcmp(name, "energy_total") ||
                       !strcmp(name, "energy_l2_noc_dram") || !strcmp(name, "energy_avg_power_w");
        if (affected) assert_true(va != vb);
        else if (va != vb) fail_msg("%s changed with -energy_l2_read_nj: %.17g vs %.17g", name, va, vb);
    }
    assert_true(tdev_stat(&b, "energy_l2_read", 1) == 7.5 * tdev_stat(&b, "energy_l2_read_events", 1));
    tdev_close(&a);
    tdev_close(&b);
    tdev_close(&c);
}

/* -energy_dp_op_nj charges DP work only where the SM has DP pipelines.  One warp,
 * one add.f64 per thread, once:
 *   -gpgpu_num_dp_units 1: 32 dp_op events, and no sfu_op from the add;
 *   -gpgpu_num_dp_units 0 (Fermi): the add runs on the SFU: 32 sfu_op events, 0 dp_op. */
static const char *const dp_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry kd(.param .u64 dst)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .f64 %fd<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n  cvt.rn.f64.u32 %fd1, %r1;\n"
    "  add.f64 %fd2, %fd1, 0d3FF0000000000000;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.f64 [%rd3], %fd2;\n  ret;\n}\n";

static void run_dp(tdev *t, const char *dp_units) {
    const char *over[] = {"-gpgpu_num_dp_units", dp_units, "-energy_dp_op_nj", "1.14", "-energy_sfu_op_nj", "1.13",
                          "-gpgpu_perf_sim_memcpy", "0", NULL};
    tdev_open(t, "fermi_gtx480", over);
    locsim_kernel *k = tdev_kernel(t, dp_ptx, "kd");
    locsim_dptr dst = tdev_alloc(t, NULL, 32 * sizeof(double));
    void *args[1] = {&dst};
    tdev_launch(t, k, 1, 32, args, 1);
}

static void test_dp_energy_follows_the_dp_units(void **state) {
    (void)state;
    tdev with, without;
    run_dp(&with, "1");
    run_dp(&without, "0");
    assert_true(stat_at(&with, 0, "energy_%s_events", "dp_op") == 32.0);
    assert_true(stat_at(&with, 0, "energy_%s", "dp_op") == 32.0 * 1.14);
    assert_true(stat_at(&without, 0, "energy_%s_events", "dp_op") == 0.0);
    assert_true(stat_at(&without, 0, "energy_%s", "dp_op") == 0.0);
    assert_true(stat_at(&without, 0, "energy_%s_events", "sfu_op") ==
                stat_at(&with, 0, "energy_%s_events", "sfu_op") + 32.0);
    tdev_close(&with);
    tdev_close(&without);
}

static void test_bad_energy_option(void **state) {
    (void)state;
    char err[512];
    locsim_config *cfg = NULL;
    char *bad[] = {"-energy_dram_act_nj", "-1"};
    assert_int_not_equal(locsim_config_load("fermi_gtx480", 2, bad, &cfg, err, sizeof err), LOCSIM_OK);
    assert_non_null(strstr(err, "energy_dram_act_nj"));
    char *bad2[] = {"-energy_static_sm_w", "lots"};
    assert_int_not_equal(locsim_config_load("fermi_gtx480", 2, bad2, &cfg, err, sizeof err), LOCSIM_OK);
}

/* The DRAM energies of fermi_gtx480 (and sharing_fermi, and the built-in
 * defaults) are GPUWattch's GTX480 figures (docs/energy.md, [G]): per column
 * command read dram_rd_coeff x MEM_RD, write dram_wr_coeff x MEM_WR, precharge
 * dram_pre_coeff x MEM_PRE (joules x scaling), no activate energy.  Hand-worked
 * on the kernel above under the config's own energies: launch 1 reads src's
 * one 128 B line from DRAM -- one activation and 4 read commands, no write or
 * precharge (the L2 keeps dst) -- so its DRAM energy is 4 x the read figure;
 * launch 2 finds src in the L2: no DRAM energy. */
static void test_dram_energy_is_gpuwattch(void **state) {
    (void)state;
    const double rd_nj = 7.74707143e-8 * 0.33 * 1e9, wr_nj = 3.54664286e-8 * 0.40 * 1e9,
                 pre_nj = 3.8475e-8 * 0.11 * 1e9;
    const char *over[] = {"-gpgpu_perf_sim_memcpy", "0", NULL};
    tdev t;
    run(&t, over);
    /* the config writes each figure to 3 decimals */
    assert_true(fabs(stat_at(&t, 0, "%s", "energy_dram_rd") / 4.0 - rd_nj) < 1e-3);
    assert_true(stat_at(&t, 0, "energy_%s_events", "dram_rd") == 4.0);
    assert_true(stat_at(&t, 0, "energy_%s_events", "dram_act") == 1.0);
    assert_true(stat_at(&t, 0, "energy_%s_events", "dram_wr") == 0.0);
    assert_true(stat_at(&t, 0, "energy_%s_events", "dram_pre") == 0.0);
    assert_true(fabs(stat_at(&t, 0, "energy_%s", "dram") - 4.0 * rd_nj) < 4e-3);   /* act: 0 nJ */
    assert_true(stat_at(&t, 1, "energy_%s", "dram") == 0.0);
    tdev_close(&t);
    /* sharing_fermi (Tabbakh et al.'s GTX480) carries the same four figures */
    locsim_config *cfg = NULL;
    char err[256];
    assert_int_equal(locsim_config_load("sharing_fermi", 0, NULL, &cfg, err, sizeof err), LOCSIM_OK);
    const sim_config *c = cfg;
    assert_true(fabs(c->energy_nj[EN_DRAM_WR] - wr_nj) < 1e-3);
    assert_true(fabs(c->energy_nj[EN_DRAM_PRE] - pre_nj) < 1e-3);
    assert_true(fabs(c->energy_nj[EN_DRAM_RD] - rd_nj) < 1e-3);
    assert_true(c->energy_nj[EN_DRAM_ACT] == 0.0);
    locsim_config_free(cfg);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_is_count_times_energy),
        cmocka_unit_test(test_parts_add_up_exactly),
        cmocka_unit_test(test_static_is_power_times_time),
        cmocka_unit_test(test_option_changes_only_its_component),
        cmocka_unit_test(test_dp_energy_follows_the_dp_units),
        cmocka_unit_test(test_bad_energy_option),
        cmocka_unit_test(test_dram_energy_is_gpuwattch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
