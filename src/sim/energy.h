/* The per-event energy model (docs/energy.md).
 *
 * Energy = sum over events of (event count x energy per event, nJ) + sum over
 * components of (static power, W x simulated time, ns), computed from the
 * counters the timing model keeps anyway, once at the end of every kernel:
 * nothing here runs in the cycle loop.  Energies are in nJ (W x ns = nJ). */
#ifndef LOCSIM_SIM_ENERGY_H
#define LOCSIM_SIM_ENERGY_H

#include <stdint.h>

/* Counted events, each with an option -energy_<name>_nj and the statistics
 * energy_<name>_events (the count) and energy_<name> (nJ).  Cache reads and
 * writes are split into hits (pending hits included) and misses, as
 * GPUWattch charges them (docs/energy.md). */
typedef enum {
    EN_L1D_READ, EN_L1D_READ_MISS, EN_L1D_WRITE, EN_L1D_WRITE_MISS, EN_L1D_FILL,
    EN_L1C_READ, EN_L1C_READ_MISS, EN_L1C_FILL,
    EN_L1T_READ, EN_L1T_READ_MISS, EN_L1T_FILL,
    EN_SHMEM_READ, EN_SHMEM_WRITE,
    EN_RF_READ, EN_RF_WRITE,
    EN_ALU_OP, EN_SFU_OP, EN_DP_OP,
    EN_WARP_INST,
    EN_L2_READ, EN_L2_READ_MISS, EN_L2_WRITE, EN_L2_WRITE_MISS, EN_L2_FILL,
    EN_NOC_FLIT,
    EN_DRAM_ACT, EN_DRAM_PRE, EN_DRAM_RD, EN_DRAM_WR,
    ENERGY_EVENT_COUNT
} energy_event;

/* Components with static (activity-independent) power, option
 * -energy_static_<name>_w, statistic energy_static_<name>: power x simulated
 * time, except idle_sm, which is power per SM x the time SMs spent with no
 * CTA resident (GPUWattch's idle-core power). */
typedef enum {
    EN_STATIC_SM, EN_STATIC_L2, EN_STATIC_NOC, EN_STATIC_DRAM, EN_STATIC_IDLE_SM, ENERGY_STATIC_COUNT
} energy_static;

/* Dynamic components: each the sum of its events' energies. */
typedef enum {
    EN_C_L1D, EN_C_L1C, EN_C_L1T, EN_C_SHMEM, EN_C_RF, EN_C_EXEC, EN_C_PIPE, EN_C_L2, EN_C_NOC, EN_C_DRAM,
    ENERGY_COMPONENT_COUNT
} energy_component;

const char *energy_event_name(energy_event e);        /* "l1d_read", ... */
energy_component energy_event_component(energy_event e);
const char *energy_component_name(energy_component c); /* "l1d", ... */
const char *energy_static_name(energy_static s);       /* "sm", "l2", "noc", "dram", "idle_sm" */

#endif
