/* Which pipeline an instruction uses and how long its result takes, as
 * GPGPU-Sim 4.x's ptx_instruction::set_opcode_and_latency() classifies PTX
 * (the model its SM2_GTX480 configuration runs; GPGPU-Sim 3.x differs only in
 * sending f64 mul and int mul/mad to the SFU and transcendentals to the dp MUL
 * column, see docs/fidelity.md).
 *
 *   opcodes                 column of -ptx_opcode_latency_* / _initiation_*   pipeline
 *   add sub (addc subc)     ADD  by type: f32 -> fp, f64 -> dp, else int       f64: DP, else SP
 *   min max                 MAX  (same)                                        (same)
 *   mul                     MUL  (same)                                        (same)
 *   mad fma (madc)          MAD  (same)                                        (same)
 *   mul24 / mad24           int MUL / MAD, + 1 cycle of latency and interval   SP
 *   div rem                 DIV  by type (int, fp, dp)                         SFU
 *   rcp sqrt rsqrt sin cos  -ptx_opcode_latency_sfu / _initiation_sfu          SFU
 *   lg2 ex2 (tanh)          (any type, f64 included)
 *   shfl                    int SHFL (6th column)                              SP
 *   everything else         latency 1, interval 1 (mov, cvt, setp, selp,       SP
 *                           neg, abs, logic, bra, bar, ...; f64 ones too)
 *   memory                  the LD/ST unit decides                             LD/ST
 *   (wmma.load/store, ldmatrix included)
 *   wmma.mma mma            -ptx_opcode_latency_tesnor / _initiation_tensor    tensor
 * "Else int" includes f16 and the 64-bit integer types, as in GPGPU-Sim.  The DP
 * pipeline falls back to the SFU when the SM has none (-gpgpu_num_dp_units 0,
 * Fermi).  tanh is newer than GPGPU-Sim's PTX; it goes with the other
 * transcendentals.
 *
 * With -gpgpu_num_int_units above 0 (Volta and later), every instruction the
 * table sends to SP except the f32 ADD/MAX/MUL/MAD ones runs on the INT pipeline
 * instead, as GPGPU-Sim 4.x's issue does: its set_opcode_and_latency marks
 * those f32 operations SP_OP and everything else on SP (INTP_OP, ALU_OP: int
 * arithmetic, mov, setp, logic, cvt, shfl, ...) goes to an INT unit when the
 * SM has one.  The latency columns do not change.
 *
 * A pipeline of simd_width lanes needs warp_size / simd_width cycles per warp
 * instruction: that multiplies the initiation interval and adds to the latency. */
#include "core/sm_internal.h"

/* Column and pipeline chosen by the instruction's type; 1 when it is the fp
 * (single-precision) column, which keeps the instruction on SP. */
static int by_type(const sm_config *c, const ptx_insn *in, sm_lat_group g, insn_timing *t) {
    if (in->type == PTX_T_F64) {
        t->unit = UNIT_DP;
        t->latency = c->lat_dp[g];
        t->initiation = c->init_dp[g];
    } else if (in->type == PTX_T_F32) {
        t->latency = c->lat_fp[g];
        t->initiation = c->init_fp[g];
        return 1;
    } else {
        t->latency = c->lat_int[g];
        t->initiation = c->init_int[g];
    }
    return 0;
}

/* The collector-unit set (or the LD/ST unit) pipeline u's instructions need. */
static uint8_t iclass_of(uint8_t u) {
    if (u == UNIT_LDST) return ICLASS_LDST;
    return u == UNIT_SP || u == UNIT_INT ? ICLASS_SP : ICLASS_SFU;
}

void sm_insn_timing(const sm_config *c, const ptx_insn *in, insn_timing *t) {
    uint32_t lanes_factor = c->simd_width && c->simd_width < c->warp_size ? c->warp_size / c->simd_width : 1;
    int fp32 = 0;   /* an f32 ADD/MAX/MUL/MAD: stays on SP when there are INT units */
    t->unit = UNIT_SP;
    t->latency = 1;
    t->initiation = 1;
    if (ptx_opcode_class((ptx_opcode)in->op) == PTX_CLASS_MEM) {
        t->unit = UNIT_LDST;
        t->iclass = ICLASS_LDST;
        t->latency = 1; /* the LD/ST unit decides when the data is visible */
        return;
    }
    if (ptx_opcode_class((ptx_opcode)in->op) == PTX_CLASS_TENSOR) {
        /* a warp-wide matrix operation: the SIMD width does not apply (GPGPU-Sim
         * issues its tensor ops to the tensor unit with their own latency and
         * initiation interval); a config without tensor cores never gets here
         * (the launch is refused, runtime/launch.c) */
        t->unit = UNIT_TENSOR;
        t->latency = c->lat_tensor ? c->lat_tensor : 1;
        t->initiation = c->init_tensor ? c->init_tensor : 1;
        t->iclass = ICLASS_SFU;
        return;
    }
    switch ((ptx_opcode)in->op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB: fp32 = by_type(c, in, SM_LAT_ADD, t); break;
    case PTX_OP_MIN:
    case PTX_OP_MAX: fp32 = by_type(c, in, SM_LAT_MAX, t); break;
    case PTX_OP_MUL: fp32 = by_type(c, in, SM_LAT_MUL, t); break;
    case PTX_OP_MAD:
    case PTX_OP_FMA: fp32 = by_type(c, in, SM_LAT_MAD, t); break;
    case PTX_OP_MUL24:
        t->latency = c->lat_int[SM_LAT_MUL] + 1;
        t->initiation = c->init_int[SM_LAT_MUL] + 1;
        break;
    case PTX_OP_MAD24:
        t->latency = c->lat_int[SM_LAT_MAD] + 1;
        t->initiation = c->init_int[SM_LAT_MAD] + 1;
        break;
    case PTX_OP_DIV:
    case PTX_OP_REM:
        by_type(c, in, SM_LAT_DIV, t);
        t->unit = UNIT_SFU;
        break;
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
    case PTX_OP_RSQRT:
    case PTX_OP_SIN:
    case PTX_OP_COS:
    case PTX_OP_LG2:
    case PTX_OP_EX2:
    case PTX_OP_TANH:
        t->unit = UNIT_SFU;
        t->latency = c->lat_sfu;
        t->initiation = c->init_sfu;
        break;
    case PTX_OP_SHFL:
        t->latency = c->lat_int[SM_LAT_SHFL];
        t->initiation = c->init_int[SM_LAT_SHFL];
        break;
    default: break;
    }
    if (t->unit == UNIT_DP && c->num_units[UNIT_DP] == 0) t->unit = UNIT_SFU; /* as GPGPU-Sim for Fermi */
    if (t->unit == UNIT_SP && !fp32 && c->num_units[UNIT_INT]) t->unit = UNIT_INT;
    t->latency += lanes_factor - 1;
    t->initiation *= lanes_factor;
    if (!t->latency) t->latency = 1;
    if (!t->initiation) t->initiation = 1;
    t->iclass = iclass_of(t->unit);
}
