/* The per-event energy model's names (energy.h); the statistics are defined
 * and collected in timing_energy.c. */
#include "sim/energy.h"

static const struct {
    const char *name;
    energy_component comp;
} events[ENERGY_EVENT_COUNT] = {
    [EN_L1D_READ] = {"l1d_read", EN_C_L1D},
    [EN_L1D_READ_MISS] = {"l1d_read_miss", EN_C_L1D},
    [EN_L1D_WRITE] = {"l1d_write", EN_C_L1D},
    [EN_L1D_WRITE_MISS] = {"l1d_write_miss", EN_C_L1D},
    [EN_L1D_FILL] = {"l1d_fill", EN_C_L1D},
    [EN_L1C_READ] = {"l1c_read", EN_C_L1C},
    [EN_L1C_READ_MISS] = {"l1c_read_miss", EN_C_L1C},
    [EN_L1C_FILL] = {"l1c_fill", EN_C_L1C},
    [EN_L1T_READ] = {"l1t_read", EN_C_L1T},
    [EN_L1T_READ_MISS] = {"l1t_read_miss", EN_C_L1T},
    [EN_L1T_FILL] = {"l1t_fill", EN_C_L1T},
    [EN_SHMEM_READ] = {"shmem_read", EN_C_SHMEM},
    [EN_SHMEM_WRITE] = {"shmem_write", EN_C_SHMEM},
    [EN_RF_READ] = {"rf_read", EN_C_RF},
    [EN_RF_WRITE] = {"rf_write", EN_C_RF},
    [EN_ALU_OP] = {"alu_op", EN_C_EXEC},
    [EN_SFU_OP] = {"sfu_op", EN_C_EXEC},
    [EN_DP_OP] = {"dp_op", EN_C_EXEC},
    [EN_WARP_INST] = {"warp_inst", EN_C_PIPE},
    [EN_L2_READ] = {"l2_read", EN_C_L2},
    [EN_L2_READ_MISS] = {"l2_read_miss", EN_C_L2},
    [EN_L2_WRITE] = {"l2_write", EN_C_L2},
    [EN_L2_WRITE_MISS] = {"l2_write_miss", EN_C_L2},
    [EN_L2_FILL] = {"l2_fill", EN_C_L2},
    [EN_NOC_FLIT] = {"noc_flit", EN_C_NOC},
    [EN_DRAM_ACT] = {"dram_act", EN_C_DRAM},
    [EN_DRAM_PRE] = {"dram_pre", EN_C_DRAM},
    [EN_DRAM_RD] = {"dram_rd", EN_C_DRAM},
    [EN_DRAM_WR] = {"dram_wr", EN_C_DRAM},
};

static const char *const components[ENERGY_COMPONENT_COUNT] = {"l1d", "l1c", "l1t", "shmem", "rf",
                                                               "exec", "pipe", "l2", "noc", "dram"};
static const char *const statics[ENERGY_STATIC_COUNT] = {"sm", "l2", "noc", "dram", "idle_sm"};

const char *energy_event_name(energy_event e) { return (unsigned)e < ENERGY_EVENT_COUNT ? events[e].name : "?"; }
energy_component energy_event_component(energy_event e) { return events[e].comp; }
const char *energy_component_name(energy_component c) {
    return (unsigned)c < ENERGY_COMPONENT_COUNT ? components[c] : "?";
}
const char *energy_static_name(energy_static s) { return (unsigned)s < ENERGY_STATIC_COUNT ? statics[s] : "?"; }
