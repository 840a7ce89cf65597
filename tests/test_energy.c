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

/* Distinct per-event energies (nJ, 1.01 + 0.01 x the event's index) and
 * static powers (W), as options. */
static const char *const distinct[] = {
    "-energy_l1d_read_nj", "1.01",       "-energy_l1d_read_miss_nj", "1.02", "-energy_l1d_write_nj", "1.03",
    "-energy_l1d_write_miss_nj", "1.04", "-energy_l1d_fill_nj", "1.05",      "-energy_l1c_read_nj", "1.06",
    "-energy_l1c_read_miss_nj", "1.07",  "-energy_l1c_fill_nj", "1.08",      "-energy_l1t_read_nj", "1.09",
    "-energy_l1t_read_miss_nj", "1.10",  "-energy_l1t_fill_nj", "1.11",      "-energy_shmem_read_nj", "1.12",
    "-energy_shmem_write_nj", "1.13",    "-energy_rf_read_nj", "1.14",       "-energy_rf_write_nj", "1.15",
    "-energy_alu_op_nj", "1.16",         "-energy_sfu_op_nj", "1.17",        "-energy_dp_op_nj", "1.18",
    "-energy_warp_inst_nj", "1.19",      "-energy_l2_read_nj", "1.20",       "-energy_l2_read_miss_nj", "1.21",
    "-energy_l2_write_nj", "1.22",       "-energy_l2_write_miss_nj", "1.23", "-energy_l2_fill_nj", "1.24",
    "-energy_noc_flit_nj", "1.25",       "-energy_dram_act_nj", "1.26",      "-energy_dram_pre_nj", "1.27",
    "-energy_dram_rd_nj", "1.28",        "-energy_dram_wr_nj", "1.29",
    "-energy_static_sm_w", "31.5",       "-energy_static_l2_w", "3.25",      "-energy_static_noc_w", "2.75",
    "-energy_static_dram_w", "11.5",     "-energy_static_idle_sm_w", "1.75",
    /* 500 MHz core clock: 2 ns per core cycle, so time = 2 x cycles exactly */
    "-gpgpu_clock_domains", "500.0:700.0:700.0:924.0", "-gpgpu_perf_sim_memcpy", "0", NULL};

/* The energy `distinct` gives event e, parsed as the option parser does. */
static double option_nj(energy_event e) {
    char name[64];
    snprintf(name, sizeof name, "-energy_%s_nj", energy_event_name(e));
    for (size_t i = 0; distinct[i]; i += 2)
        if (strcmp(distinct[i], name) == 0) return strtod(distinct[i + 1], NULL);
    fail_msg("no %s in distinct[]", name);
    return 0.0;
}

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
        /* Hand-counted events of one launch (see the kernel's comment): src's
         * line is not in the L1D at either launch (the L1 starts each kernel
         * empty), dst is written through without allocating. */
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_read") == 0.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_read_miss") == 1.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_write") == 0.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_write_miss") == 1.0);
        /* the L2 is sectored: the line comes back as 4 replies of 32 B, each a fill */
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_fill") == 4.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "sfu_op") == 32.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "shmem_read") == 1.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "shmem_write") == 1.0);
        assert_true(stat_at(&t, k, "energy_%s_events", "dp_op") == 0.0);
        /* Counts agree with the statistics of the counters they come from. */
        assert_true(stat_at(&t, k, "energy_%s_events", "alu_op") == 32.0 * stat_at(&t, k, "%s", "warp_insn_sp"));
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_read") + stat_at(&t, k, "energy_%s_events", "l1d_read_miss") +
                        stat_at(&t, k, "energy_%s_events", "l1d_write") +
                        stat_at(&t, k, "energy_%s_events", "l1d_write_miss") ==
                    stat_at(&t, k, "%s", "L1D_total_cache_accesses"));
        assert_true(stat_at(&t, k, "energy_%s_events", "l1d_read_miss") + stat_at(&t, k, "energy_%s_events", "l1d_write_miss") ==
                    stat_at(&t, k, "%s", "L1D_total_cache_misses"));
        assert_true(stat_at(&t, k, "energy_%s_events", "l2_read") + stat_at(&t, k, "energy_%s_events", "l2_read_miss") +
                        stat_at(&t, k, "energy_%s_events", "l2_write") +
                        stat_at(&t, k, "energy_%s_events", "l2_write_miss") ==
                    stat_at(&t, k, "%s", "L2_total_cache_accesses"));
        assert_true(stat_at(&t, k, "energy_%s_events", "warp_inst") == stat_at(&t, k, "%s", "gpu_sim_warp_insn"));
        assert_true(stat_at(&t, k, "energy_%s_events", "noc_flit") ==
                    stat_at(&t, k, "%s", "icnt_req_flits") + stat_at(&t, k, "%s", "icnt_rep_flits"));
        assert_true(stat_at(&t, k, "energy_%s_events", "dram_act") == stat_at(&t, k, "%s", "dram_activates"));
        assert_true(stat_at(&t, k, "energy_%s_events", "dram_pre") == stat_at(&t, k, "%s", "dram_precharges"));
        /* Events this kernel must cause (with -gpgpu_perf_sim_memcpy 0 the first
         * launch reads src from DRAM; the second finds it in the L2). */
        const char *const some[] = {"noc_flit", "rf_read", "rf_write", "alu_op", "warp_inst"};
        for (size_t i = 0; i < sizeof some / sizeof *some; i++)
            if (!(stat_at(&t, k, "energy_%s_events", some[i]) > 0.0)) fail_msg("kernel %u: no %s", k, some[i]);
        /* src is one 128 B line in one DRAM row: one activation, and each of its
         * 4 sectors is a column command (test_timing_memory.c works this out);
         * the first launch misses the L2 on src, the second hits */
        assert_true(stat_at(&t, k, "energy_%s_events", "l2_read_miss") == (k == 0 ? 4.0 : 0.0));
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
    const double watts[ENERGY_STATIC_COUNT] = {31.5, 3.25, 2.75, 11.5, 1.75};
    const uint32_t ks[3] = {0, 1, STATS_TOTAL};
    for (int i = 0; i < 3; i++) {
        double cycles = stat_at(&t, ks[i], "%s", "gpu_sim_cycle");
        double ns = stat_at(&t, ks[i], "%s", "gpu_sim_time_ns");
        assert_true(cycles > 0.0);
        assert_true(ns == 2.0 * cycles); /* 500 MHz: 1000 / 500 = 2 ns per cycle, exact in binary */
        /* one CTA: 14 of the 15 SMs idle all along, the 15th once its CTA is done */
        double idle = stat_at(&t, ks[i], "%s", "energy_sm_idle_cycles");
        assert_true(idle == 15.0 * cycles - stat_at(&t, ks[i], "%s", "gpu_active_sm_cycle"));
        assert_true(idle >= 14.0 * cycles && idle < 15.0 * cycles);
        double idle_ns = stat_at(&t, ks[i], "%s", "energy_sm_idle_time_ns");
        assert_true(idle_ns == 2.0 * idle);
        for (int s = 0; s < ENERGY_STATIC_COUNT; s++)
            assert_true(stat_at(&t, ks[i], "energy_static_%s", energy_static_name(s)) ==
                        watts[s] * (s == EN_STATIC_IDLE_SM ? idle_ns : ns));
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
    const char *changed[128];
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

/* GPUWattch's GTX480 figures (docs/energy.md; tools/gpuwattch/gtx480.out):
 * the energy one count adds to GPUWattch's power report (McPAT's energy per
 * access of the structure, already times the XML's scaling factor, summed
 * over the components it moves), times what GPGPU-Sim counts for one locsim
 * event.  Written from the driver's output, not from the configs. */
static double gpuwattch_nj(energy_event e) {
    switch (e) {
    case EN_L1D_READ: return 2.58325 + 0.351352;        /* DC_RH: L1D + coalescing (MC) */
    case EN_L1D_READ_MISS: return 1.83373 + 0.391343;   /* DC_RM */
    case EN_L1D_WRITE: return 0.188449 + 0.0316752;     /* DC_WH */
    case EN_L1D_WRITE_MISS: return 1.77991 + 0.82376;   /* DC_WM */
    case EN_L1C_READ: return 1.29162 + 0.175676;        /* CC_H */
    case EN_L1C_READ_MISS: return 0.916864 + 0.195671;  /* CC_M */
    case EN_L1T_READ: return 1.19128 + 0.162028;        /* TC_H */
    case EN_L1T_READ_MISS: return 1.83373 + 0.391343;   /* TC_M */
    case EN_SHMEM_READ: return 2.11946;                 /* SHRD_ACC, per pass */
    case EN_SHMEM_WRITE: return 2.11946;
    case EN_RF_READ: return 32 * 0.00726686;            /* 32 per warp operand x REG_RD */
    case EN_RF_WRITE: return 32 * 0.00598604;           /* x REG_WR */
    case EN_ALU_OP: return 32 * 0.00269477;             /* INT__OP weight 32 x SP_ACC */
    case EN_SFU_OP: return 25 * 0.0483518;              /* FP_SQRT_OP weight 25 x SFU_ACC */
    case EN_DP_OP: return 0.0295799;                    /* FP__OP weight 1 x FPU_ACC */
    /* 32 x TOT_INST + FP_INT + PIPE_A: 25.4618 W at duty 1, duty = warp
     * instructions / (2 per cycle x 15 SMs), one cycle = 1 / 0.7 ns */
    case EN_WARP_INST: return 32 * 0.00361411 + 0.0548896 + 25.4618 / (2 * 15) / 0.7;
    case EN_L2_READ: return 2.80504;                    /* L2_RH */
    case EN_L2_READ_MISS: return 0.102042;              /* L2_RM */
    case EN_L2_WRITE: return 13.8512;                   /* L2_WH */
    case EN_L2_WRITE_MISS: return 15.0243;              /* L2_WM */
    case EN_NOC_FLIT: return 1.93858;                   /* NOC_A */
    case EN_DRAM_PRE: return 0.11 * 38.475;             /* MEM_PRE x dram_pre_coeff */
    case EN_DRAM_RD: return 0.33 * 77.4707143 + 1.3831; /* MEM_RD x dram_rd_coeff + controller */
    case EN_DRAM_WR: return 0.40 * 35.4664286 + 1.67829;
    default: return 0.0; /* fills (in the miss) and activations: none of their own */
    }
}

static double gpuwattch_w(energy_static s) {
    switch (s) {
    case EN_STATIC_SM: return 11.0 - 1.17634; /* CONST_DYNAMICN less McPAT's constant MC part */
    case EN_STATIC_DRAM: return 1.17634;
    case EN_STATIC_IDLE_SM: return 1.59;      /* idle_core_power per idle SM */
    default: return 0.0;                      /* L2 and NoC: GPUWattch charges none */
    }
}

/* The configs write each figure to 6 significant digits. */
static int close_to(double a, double b) { return fabs(a - b) <= 1e-5 * fabs(b) + 1e-12; }

static void check_figures(const sim_config *c, const char *what) {
    for (int e = 0; e < ENERGY_EVENT_COUNT; e++)
        if (!close_to(c->energy_nj[e], gpuwattch_nj((energy_event)e)))
            fail_msg("%s: -energy_%s_nj %.9g, GPUWattch %.9g", what, energy_event_name((energy_event)e),
                     c->energy_nj[e], gpuwattch_nj((energy_event)e));
    for (int s = 0; s < ENERGY_STATIC_COUNT; s++)
        if (!close_to(c->static_w[s], gpuwattch_w((energy_static)s)))
            fail_msg("%s: -energy_static_%s_w %.9g, GPUWattch %.9g", what, energy_static_name((energy_static)s),
                     c->static_w[s], gpuwattch_w((energy_static)s));
}

/* The built-in defaults, fermi_gtx480 and sharing_fermi carry GPUWattch's
 * figures; and the breakdown of the kernel above under fermi_gtx480's own
 * figures, worked by hand from its event counts (launch 1: src misses the
 * L1D and the L2, 4 DRAM read commands; one SFU warp instruction, one
 * shared-memory write and read pass, dst written through) comes out of the
 * statistics: components, the static parts, the total and the L2+NoC+DRAM
 * share. */
static void test_breakdown_is_gpuwattch(void **state) {
    (void)state;
    sim_config def;
    config_defaults(&def);
    check_figures(&def, "built-in defaults");
    const char *const names[] = {"fermi_gtx480", "sharing_fermi"};
    for (int i = 0; i < 2; i++) {
        locsim_config *cfg = NULL;
        char err[256];
        assert_int_equal(locsim_config_load(names[i], 0, NULL, &cfg, err, sizeof err), LOCSIM_OK);
        check_figures(cfg, names[i]);
        locsim_config_free(cfg);
    }

    const char *over[] = {"-gpgpu_perf_sim_memcpy", "0", NULL};
    tdev t;
    run(&t, over);
    const uint32_t k = 0;
#define EV(n) stat_at(&t, k, "energy_%s_events", n)
#define NJ(e) gpuwattch_nj(e)
    double l1d = 1 * NJ(EN_L1D_READ_MISS) + 1 * NJ(EN_L1D_WRITE_MISS);
    double shmem = 1 * NJ(EN_SHMEM_READ) + 1 * NJ(EN_SHMEM_WRITE);
    double rf = EV("rf_read") * NJ(EN_RF_READ) + EV("rf_write") * NJ(EN_RF_WRITE);
    double exec = 32 * stat_at(&t, k, "%s", "warp_insn_sp") * NJ(EN_ALU_OP) + 32 * NJ(EN_SFU_OP);
    double pipe = stat_at(&t, k, "%s", "gpu_sim_warp_insn") * NJ(EN_WARP_INST);
    double l2 = 4 * NJ(EN_L2_READ_MISS) + EV("l2_write") * NJ(EN_L2_WRITE) + EV("l2_write_miss") * NJ(EN_L2_WRITE_MISS);
    double noc = (stat_at(&t, k, "%s", "icnt_req_flits") + stat_at(&t, k, "%s", "icnt_rep_flits")) * NJ(EN_NOC_FLIT);
    double dram = 4 * NJ(EN_DRAM_RD); /* one activation: 0 nJ */
    assert_true(EV("l1d_read_miss") == 1.0 && EV("l1d_write_miss") == 1.0 && EV("sfu_op") == 32.0);
    assert_true(EV("shmem_read") == 1.0 && EV("shmem_write") == 1.0 && EV("l2_read_miss") == 4.0);
    assert_true(EV("dram_rd") == 4.0 && EV("dram_wr") == 0.0 && EV("dram_pre") == 0.0);
    assert_true(EV("l1c_read") + EV("l1c_read_miss") + EV("l1t_read") + EV("l1t_read_miss") + EV("dp_op") == 0.0);
    const char *const comp[] = {"l1d", "shmem", "rf", "exec", "pipe", "l2", "noc", "dram"};
    const double want[] = {l1d, shmem, rf, exec, pipe, l2, noc, dram};
    double dyn = 0.0;
    for (int i = 0; i < 8; i++) {
        double got = stat_at(&t, k, "energy_%s", comp[i]);
        if (!close_to(got, want[i])) fail_msg("energy_%s %.9g, by hand %.9g", comp[i], got, want[i]);
        dyn += want[i];
    }
    /* 700 MHz: 1/0.7 ns per cycle; the idle SMs' power runs for their idle cycles */
    double ns = stat_at(&t, k, "%s", "gpu_sim_cycle") / 0.7;
    double idle_ns = (15 * stat_at(&t, k, "%s", "gpu_sim_cycle") - stat_at(&t, k, "%s", "gpu_active_sm_cycle")) / 0.7;
    double stat = gpuwattch_w(EN_STATIC_SM) * ns + gpuwattch_w(EN_STATIC_DRAM) * ns + 1.59 * idle_ns;
    assert_true(close_to(stat_at(&t, k, "%s", "energy_static"), stat));
    assert_true(close_to(stat_at(&t, k, "%s", "energy_total"), dyn + stat));
    assert_true(close_to(stat_at(&t, k, "%s", "energy_l2_noc_dram") / stat_at(&t, k, "%s", "energy_total"),
                         (l2 + noc + dram) / (dyn + stat)));
    assert_true(stat_at(&t, 1, "%s", "energy_dram") == 0.0); /* launch 2 finds src in the L2 */
#undef EV
#undef NJ
    tdev_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_is_count_times_energy),
        cmocka_unit_test(test_parts_add_up_exactly),
        cmocka_unit_test(test_static_is_power_times_time),
        cmocka_unit_test(test_option_changes_only_its_component),
        cmocka_unit_test(test_dp_energy_follows_the_dp_units),
        cmocka_unit_test(test_bad_energy_option),
        cmocka_unit_test(test_breakdown_is_gpuwattch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
