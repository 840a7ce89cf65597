/* Which pipeline an instruction uses and how long its result takes: the
 * GPGPU-Sim grouping of -ptx_opcode_latency_{int,fp,dp,sfu} and
 * -ptx_opcode_initiation_{...}.
 *
 *   group   opcodes
 *   ADD     everything not listed below (add, sub, logic, shifts, mov, setp, cvt, ...)
 *   MAX     min, max
 *   MUL     mul, mul24
 *   MAD     mad, mad24, fma, sad, dp4a, dp2a
 *   DIV     div, rem
 * The type picks the table: f64 (or a cvt from/to f64) -> dp, other floats -> fp,
 * the rest -> int.  Transcendentals (rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh)
 * use the SFU with lat_sfu (f64 ones use dp DIV on the DP unit).  Double
 * precision goes to the DP unit, or to the SFU when the SM has no DP unit
 * (GPGPU-Sim 3.x).  Control (bra, call, ret,
 * exit, membar) and barriers use SP with the branch latency.
 *
 * A pipeline of simd_width lanes needs warp_size / simd_width cycles per warp
 * instruction: that multiplies the initiation interval and adds to the latency. */
#include "core/sm_internal.h"

static sm_lat_group latency_group(ptx_opcode op) {
    switch (op) {
    case PTX_OP_MIN:
    case PTX_OP_MAX: return SM_LAT_MAX;
    case PTX_OP_MUL:
    case PTX_OP_MUL24: return SM_LAT_MUL;
    case PTX_OP_MAD:
    case PTX_OP_MAD24:
    case PTX_OP_FMA:
    case PTX_OP_SAD:
    case PTX_OP_DP4A:
    case PTX_OP_DP2A: return SM_LAT_MAD;
    case PTX_OP_DIV:
    case PTX_OP_REM: return SM_LAT_DIV;
    default: return SM_LAT_ADD;
    }
}

static int is_f64(const ptx_insn *in) {
    return in->type == PTX_T_F64 || (in->op == PTX_OP_CVT && in->type2 == PTX_T_F64);
}

static int is_float(const ptx_insn *in) {
    return ptx_type_is_float((ptx_type)in->type) || (in->op == PTX_OP_CVT && ptx_type_is_float((ptx_type)in->type2));
}

void sm_insn_timing(const sm_config *c, const ptx_insn *in, insn_timing *t) {
    uint32_t lanes_factor = c->simd_width && c->simd_width < c->warp_size ? c->warp_size / c->simd_width : 1;
    uint32_t lat = c->branch_latency, init = 1;
    uint8_t unit = UNIT_SP;
    switch (ptx_opcode_class((ptx_opcode)in->op)) {
    case PTX_CLASS_MEM:
        unit = UNIT_LDST;
        lat = 0; /* the LD/ST unit decides when the data is visible */
        break;
    case PTX_CLASS_CTRL:
    case PTX_CLASS_BAR: break;
    case PTX_CLASS_SFU:
        if (in->type == PTX_T_F64) {
            unit = UNIT_DP;
            lat = c->lat_dp[SM_LAT_DIV];
            init = c->init_dp[SM_LAT_DIV];
        } else {
            unit = UNIT_SFU;
            lat = c->lat_sfu;
            init = c->init_sfu;
        }
        break;
    case PTX_CLASS_ALU: {
        sm_lat_group g = latency_group((ptx_opcode)in->op);
        if (is_f64(in)) {
            unit = UNIT_DP;
            lat = c->lat_dp[g];
            init = c->init_dp[g];
        } else if (is_float(in)) {
            lat = c->lat_fp[g];
            init = c->init_fp[g];
        } else {
            lat = c->lat_int[g];
            init = c->init_int[g];
        }
        break;
    }
    }
    if (unit == UNIT_DP && c->num_units[UNIT_DP] == 0) unit = UNIT_SFU; /* as GPGPU-Sim 3.x */
    if (unit != UNIT_LDST) {
        lat += lanes_factor - 1;
        init *= lanes_factor;
    }
    t->unit = unit;
    t->latency = lat ? lat : 1;
    t->initiation = init ? init : 1;
}
