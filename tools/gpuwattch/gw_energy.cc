/* gw_energy: what GPUWattch charges for one event, structure by structure.
 *
 * Built by tools/gpuwattch/run.sh against GPGPU-Sim's own McPAT (its
 * src/gpuwattch/, kept outside this repository).  It drives GPUWattch the way
 * GPGPU-Sim does (src/gpgpu-sim/power_interface.cc, mcpat_cycle): it builds a
 * gpgpu_sim_wrapper on the XML, opens a power report, and for every sample
 * hands the wrapper the activity counts through its public set_*_power calls,
 * which apply the XML's scaling factors, then runs compute() and
 * update_components_power() and has the wrapper print its power report.
 *
 * A probe is one GPGPU-Sim event (an L1D read hit, a DRAM read command, ...)
 * with every counter power_interface.cc would move for it.  Each probe sample
 * holds N such events in one 500-cycle sample (-gpgpu_runtime_stat 500 in the
 * GTX480 config); a baseline sample holds none.  The energy of one event is
 * (component power with the probe - without) x sample time / N, read from the
 * wrapper's own report, so every scaling, clock ratio and coalescing term
 * GPUWattch adds is in it.
 *
 * It also builds McPAT's Processor on the same XML and prints each part's
 * leakage (subthreshold + gate), which McPAT computes but the wrapper does not
 * add to GPUWattch's reported power.
 *
 * Output: "constant <component> <W>" (power with no activity), "probe
 * <counter> <component> <nJ>" per component one event moves and its total,
 * "watts" for the per-sample quantities (idle SMs, pipeline duty cycle), the
 * locsim options derived from them, and "leakage <part> <W>". */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gpgpu_sim_wrapper.h"

static const int SAMPLE_CYCLES = 500; /* GTX480 config: -gpgpu_runtime_stat 500 */
static const double CORE_HZ = 700e6;  /* XML: target_core_clockrate 700 MHz */
static const double N = 1e6;          /* events per probe sample */

/* Activity counts of one sample, as power_interface.cc gathers them. */
struct counts {
    double tot_inst, int_inst, fp_inst, load_inst, store_inst;
    double rf_rd, rf_wr, non_rf;
    double ic_h, ic_m, cc_h, cc_m, tc_h, tc_m, shrd;
    double dc_rh, dc_rm, dc_wh, dc_wm;
    double l2_rh, l2_rm, l2_wh, l2_wm;
    double idle_sms, duty;
    double mem_rd, mem_wr, mem_pre;
    double fpu, ialu, sfu;
    double sp_lanes, sfu_lanes;
    double noc;
};

typedef std::map<std::string, double> power_map;

static const char *report_path;

/* One sample through the wrapper, in mcpat_cycle's order; returns the power
 * of each component as the wrapper reports it. */
static power_map sample(gpgpu_sim_wrapper *w, const counts &c, const char *name) {
    w->reset_counters();
    w->set_inst_power(false, SAMPLE_CYCLES, SAMPLE_CYCLES, c.tot_inst, c.int_inst, c.fp_inst, c.load_inst,
                      c.store_inst, c.tot_inst);
    w->set_regfile_power(c.rf_rd, c.rf_wr, c.non_rf);
    w->set_icache_power(c.ic_h, c.ic_m);
    w->set_ccache_power(c.cc_h, c.cc_m);
    w->set_tcache_power(c.tc_h, c.tc_m);
    w->set_shrd_mem_power(c.shrd);
    w->set_l1cache_power(c.dc_rh, c.dc_rm, c.dc_wh, c.dc_wm);
    w->set_l2cache_power(c.l2_rh, c.l2_rm, c.l2_wh, c.l2_wm);
    w->set_idle_core_power(c.idle_sms);
    w->set_duty_cycle_power(c.duty);
    w->set_mem_ctrl_power(c.mem_rd, c.mem_wr, c.mem_pre);
    w->set_exec_unit_power(c.fpu, c.ialu, c.sfu);
    w->set_active_lanes_power(c.sp_lanes, c.sfu_lanes);
    w->set_NoC_power(c.noc, 0);
    w->compute();
    w->update_components_power();
    w->power_metrics_calculations();
    std::string tag = std::string("probe ") + name;
    w->print_power_kernel_stats(0, 0, 0, tag, false);

    /* The report is appended to; read back the block this sample wrote. */
    std::ifstream in(report_path);
    std::string line, last_block;
    power_map p;
    bool in_block = false, in_avg = false;
    while (std::getline(in, line)) {
        if (line == tag) { in_block = true; p.clear(); continue; }
        if (!in_block) continue;
        if (line.rfind("Kernel Average Power Data:", 0) == 0) { in_avg = true; continue; }
        if (line.rfind("Kernel Maximum", 0) == 0) { in_avg = false; in_block = false; continue; }
        if (!in_avg) continue;
        /* "gpu_avg_DCP, = 1.23" or "kernel_avg_power = 4.5" */
        size_t eq = line.find(" = ");
        if (eq == std::string::npos) continue;
        std::string key = line.substr(0, eq);
        if (key.rfind("gpu_avg_", 0) == 0) key = key.substr(8);
        if (!key.empty() && key[key.size() - 1] == ',') key.erase(key.size() - 1);
        p[key] = atof(line.c_str() + eq + 3);
    }
    return p;
}

struct probe {
    const char *name;
    void (*set)(counts &);
};

/* Each probe: N of one GPGPU-Sim event and the counters power_interface.cc
 * moves for it (an L1D access is also a load or store instruction there). */
static void p_dc_rh(counts &c) { c.dc_rh = N; c.load_inst = N; }
static void p_dc_rm(counts &c) { c.dc_rm = N; c.load_inst = N; }
static void p_dc_wh(counts &c) { c.dc_wh = N; c.store_inst = N; }
static void p_dc_wm(counts &c) { c.dc_wm = N; c.store_inst = N; }
static void p_cc_h(counts &c) { c.cc_h = N; }
static void p_cc_m(counts &c) { c.cc_m = N; }
static void p_tc_h(counts &c) { c.tc_h = N; }
static void p_tc_m(counts &c) { c.tc_m = N; }
static void p_shrd(counts &c) { c.shrd = N; }
static void p_rf_rd(counts &c) { c.rf_rd = N; }
static void p_rf_wr(counts &c) { c.rf_wr = N; }
static void p_non_rf(counts &c) { c.non_rf = N; }
static void p_ialu(counts &c) { c.ialu = N; }
static void p_fpu(counts &c) { c.fpu = N; }
static void p_sfu(counts &c) { c.sfu = N; }
static void p_l2_rh(counts &c) { c.l2_rh = N; }
static void p_l2_rm(counts &c) { c.l2_rm = N; }
static void p_l2_wh(counts &c) { c.l2_wh = N; }
static void p_l2_wm(counts &c) { c.l2_wm = N; }
static void p_noc(counts &c) { c.noc = N; }
static void p_mem_rd(counts &c) { c.mem_rd = N; }
static void p_mem_wr(counts &c) { c.mem_wr = N; }
static void p_mem_pre(counts &c) { c.mem_pre = N; }
static void p_tot_inst(counts &c) { c.tot_inst = N; }
static void p_int_inst(counts &c) { c.int_inst = N; }
static void p_ic_h(counts &c) { c.ic_h = N; }
/* Per-sample quantities, not event counts: "N" of them would be meaningless,
 * so these probes set one unit and are reported in W per unit. */
static void p_idle_sm(counts &c) { c.idle_sms = 1; }
static void p_duty(counts &c) { c.duty = 0.5; }

static const probe probes[] = {
    {"DC_RH", p_dc_rh},   {"DC_RM", p_dc_rm},       {"DC_WH", p_dc_wh},       {"DC_WM", p_dc_wm},
    {"CC_H", p_cc_h},     {"CC_M", p_cc_m},         {"TC_H", p_tc_h},         {"TC_M", p_tc_m},
    {"SHRD_ACC", p_shrd}, {"REG_RD", p_rf_rd},      {"REG_WR", p_rf_wr},      {"NON_REG_OPs", p_non_rf},
    {"SP_ACC", p_ialu},   {"FPU_ACC", p_fpu},       {"SFU_ACC", p_sfu},       {"L2_RH", p_l2_rh},
    {"L2_RM", p_l2_rm},   {"L2_WH", p_l2_wh},       {"L2_WM", p_l2_wm},       {"NOC_A", p_noc},
    {"MEM_RD", p_mem_rd}, {"MEM_WR", p_mem_wr},     {"MEM_PRE", p_mem_pre},   {"TOT_INST", p_tot_inst},
    {"FP_INT", p_int_inst}, {"IC_H", p_ic_h},
};


/* The wrapper's report holds its 18 power components (labels ending in P:
 * IBP .. CONST_DYNAMICP) beside the activity counts (DC_RH ...); keep the
 * components. */
static bool is_component(const std::string &k) { return !k.empty() && k[k.size() - 1] == 'P'; }

/* Energy of one probe event, nJ: sum over the components it moved. */
static double probe_nj(const power_map &with, const power_map &base, double t, double n, const char *name,
                       bool print) {
    double total = 0;
    for (power_map::const_iterator it = with.begin(); it != with.end(); ++it) {
        if (!is_component(it->first)) continue;
        double d = (it->second - base.find(it->first)->second) * t / n * 1e9;
        if (d == 0) continue;
        if (print) printf("probe %-11s %-15s %.6g nJ\n", name, it->first.c_str(), d);
        total += d;
    }
    if (print) printf("probe %-11s %-15s %.6g nJ\n", name, "total", total);
    return total;
}

static void leak(const char *part, const Component &c, bool long_channel) {
    double sub = long_channel ? c.power.readOp.longer_channel_leakage : c.power.readOp.leakage;
    printf("leakage %-10s %.6g W (not in GPUWattch's reported power)\n", part, sub + c.power.readOp.gate_leakage);
}

/* GTX480 figures of GPGPU-Sim's config (configs/tested-cfgs/SM2_GTX480/
 * gpgpusim.config) that turn a per-count energy into a per-locsim-event one. */
static const double WARP = 32;       /* warp size: GPGPU-Sim counts 32 per warp RF operand, per warp insn */
static const double SMS = 15;        /* -gpgpu_n_clusters 15 x 1 core */
static const double EX_WB = 2;       /* -gpgpu_pipeline_widths ...,2: duty = thread insns / (32 x 2) */
static const double INT_W = 32;      /* shader.cc incexecstat: INT__OP weighs 32 */
static const double SQRT_W = 25;     /* FP_SQRT_OP 25 (SIN 12, LG 35, EXP 35) */
static const double FP_W = 1;        /* FP__OP 1 */

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: gw_energy GPUWATTCH_XML REPORT_FILE\n");
        return 2;
    }
    report_path = argv[2];
    gpgpu_sim_wrapper *w = new gpgpu_sim_wrapper(true, argv[1]);
    char none[] = "";
    w->init_mcpat(argv[1], argv[2], none, none, none, true, false, false, false, 0, 0, 0, 0, SAMPLE_CYCLES);
    const double t = SAMPLE_CYCLES / CORE_HZ; /* seconds per sample */

    counts zero;
    memset(&zero, 0, sizeof zero);
    power_map base = sample(w, zero, "base");
    for (power_map::iterator it = base.begin(); it != base.end(); ++it)
        if (is_component(it->first) && it->second != 0) printf("constant %-15s %.6g W\n", it->first.c_str(), it->second);

    std::map<std::string, double> nj;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        counts c = zero;
        probes[i].set(c);
        nj[probes[i].name] = probe_nj(sample(w, c, probes[i].name), base, t, N, probes[i].name, true);
    }
    counts c = zero;
    p_idle_sm(c);
    double idle_w = probe_nj(sample(w, c, "IDLE_CORE_N"), base, 1e-9, 1, "IDLE_CORE_N", false);
    printf("watts IDLE_CORE_N %.6g W per idle SM\n", idle_w);
    c = zero;
    p_duty(c);
    double pipe_w = probe_nj(sample(w, c, "PIPE_A"), base, 1e-9, 1, "PIPE_A", false) / 0.5;
    printf("watts PIPE_A %.6g W at duty cycle 1 (capped at 0.8 by power_interface.cc)\n", pipe_w);

    /* locsim's figures: one locsim event = what GPUWattch charges for it. */
    const double cycle_ns = 1e9 / CORE_HZ;
    printf("\nlocsim defaults (nJ per event, W):\n");
    printf("-energy_l1d_read_nj %.6g       # DC_RH (read hit, pending hit)\n", nj["DC_RH"]);
    printf("-energy_l1d_read_miss_nj %.6g  # DC_RM\n", nj["DC_RM"]);
    printf("-energy_l1d_write_nj %.6g      # DC_WH\n", nj["DC_WH"]);
    printf("-energy_l1d_write_miss_nj %.6g # DC_WM\n", nj["DC_WM"]);
    printf("-energy_l1c_read_nj %.6g       # CC_H\n", nj["CC_H"]);
    printf("-energy_l1c_read_miss_nj %.6g  # CC_M\n", nj["CC_M"]);
    printf("-energy_l1t_read_nj %.6g       # TC_H\n", nj["TC_H"]);
    printf("-energy_l1t_read_miss_nj %.6g  # TC_M\n", nj["TC_M"]);
    printf("-energy_shmem_read_nj %.6g     # SHRD_ACC, per pass\n", nj["SHRD_ACC"]);
    printf("-energy_shmem_write_nj %.6g    # SHRD_ACC, per pass\n", nj["SHRD_ACC"]);
    printf("-energy_rf_read_nj %.6g        # 32 x REG_RD\n", WARP * nj["REG_RD"]);
    printf("-energy_rf_write_nj %.6g       # 32 x REG_WR\n", WARP * nj["REG_WR"]);
    printf("-energy_alu_op_nj %.6g         # 32 (INT__OP weight) x SP_ACC\n", INT_W * nj["SP_ACC"]);
    printf("-energy_sfu_op_nj %.6g         # 25 (FP_SQRT_OP weight) x SFU_ACC\n", SQRT_W * nj["SFU_ACC"]);
    printf("-energy_dp_op_nj %.6g          # 1 (FP__OP weight) x FPU_ACC\n", FP_W * nj["FPU_ACC"]);
    double pipe_nj = pipe_w * cycle_ns / (EX_WB * SMS);
    printf("-energy_warp_inst_nj %.6g      # 32 x TOT_INST %.6g + FP_INT %.6g + PIPE_A %.6g (P(duty 1) x cycle / (2 x 15))\n",
           WARP * nj["TOT_INST"] + nj["FP_INT"] + pipe_nj, WARP * nj["TOT_INST"], nj["FP_INT"], pipe_nj);
    printf("-energy_l2_read_nj %.6g        # L2_RH\n", nj["L2_RH"]);
    printf("-energy_l2_read_miss_nj %.6g   # L2_RM\n", nj["L2_RM"]);
    printf("-energy_l2_write_nj %.6g       # L2_WH\n", nj["L2_WH"]);
    printf("-energy_l2_write_miss_nj %.6g  # L2_WM\n", nj["L2_WM"]);
    printf("-energy_noc_flit_nj %.6g       # NOC_A\n", nj["NOC_A"]);
    printf("-energy_dram_pre_nj %.6g       # MEM_PRE\n", nj["MEM_PRE"]);
    printf("-energy_dram_rd_nj %.6g        # MEM_RD\n", nj["MEM_RD"]);
    printf("-energy_dram_wr_nj %.6g        # MEM_WR\n", nj["MEM_WR"]);
    printf("-energy_static_sm_w %.6g       # CONST_DYNAMICP with no activity\n", base["CONST_DYNAMICP"]);
    printf("-energy_static_l2_w %.6g       # L2CP with no activity\n", base["L2CP"]);
    printf("-energy_static_noc_w %.6g      # NOCP with no activity\n", base["NOCP"]);
    printf("-energy_static_dram_w %.6g     # MCP + DRAMP with no activity\n", base["MCP"] + base["DRAMP"]);
    printf("-energy_static_idle_sm_w %.6g  # IDLE_COREP per idle SM\n", idle_w);

    /* Leakage: McPAT's Processor on the same XML (the wrapper keeps its own
     * private).  Chip-level parts add the per-instance figures up. */
    printf("\n");
    ParseXML *x = new ParseXML();
    x->parse(argv[1]);
    Processor *proc = new Processor(x);
    bool lc = x->sys.longer_channel_device;
    leak("all_cores", proc->core, lc);
    leak("one_core", *proc->cores[0], lc);
    leak("l2", proc->l2, lc);
    leak("noc", proc->noc, lc);
    leak("mc", proc->mcs, lc);
    leak("chip", *proc, lc);
    return 0;
}
