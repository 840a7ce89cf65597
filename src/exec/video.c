/* SIMD video instructions: vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4
 * (PTX ISA "SIMD video instructions"; the IR layout is in ptx/ir.h, PTX_VSEL_*).
 *
 * Per element i (two half-words or four bytes): Va[i] and Vb[i] are the elements of
 * the pair {b, a} (a's first) that asel and bsel pick, sign- or zero-extended by
 * a's and b's type; t[i] = Va op Vb in full precision, clamped to the element's
 * range of the destination type with .sat.  Then either
 *   SIMD merge: d's element i = t[i] where .mask enables i, else c's element i;
 *   accumulate (.add): d = c + the sum of the enabled t[i] (32-bit). */
#include "exec/exec_internal.h"

static int64_t video_element(uint32_t a, uint32_t b, uint32_t k, int bits, int sgn) {
    uint64_t pair = (uint64_t)b << 32 | a;
    uint64_t v = (pair >> (k * (uint32_t)bits)) & ((1ull << bits) - 1);
    if (sgn && (v >> (bits - 1)) & 1) return (int64_t)v - (1ll << bits);
    return (int64_t)v;
}

static int64_t video_op(ptx_opcode op, int64_t va, int64_t vb) {
    switch (op) {
    case PTX_OP_VADD2: case PTX_OP_VADD4: return va + vb;
    case PTX_OP_VSUB2: case PTX_OP_VSUB4: return va - vb;
    case PTX_OP_VAVRG2: case PTX_OP_VAVRG4: return va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
    case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4: return va > vb ? va - vb : vb - va;
    case PTX_OP_VMIN2: case PTX_OP_VMIN4: return va < vb ? va : vb;
    default: return va > vb ? va : vb; /* vmax */
    }
}

static uint32_t video_lane(const ptx_insn *in, uint32_t a, uint32_t b, uint32_t c) {
    ptx_opcode op = (ptx_opcode)in->op;
    int n = op >= PTX_OP_VADD4 ? 4 : 2, bits = 32 / n;
    int as = in->type2 == PTX_T_S32, bs = in->aux == PTX_T_S32, ds = in->type == PTX_T_S32;
    int64_t lo = ds ? -(1ll << (bits - 1)) : 0, hi = ds ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    uint32_t emask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    uint32_t merged = 0, acc = c;
    for (int i = 0; i < n; i++) {
        uint32_t ka = (in->vsel >> PTX_VSEL_A(i)) & 7, kb = (in->vsel >> PTX_VSEL_B(i)) & 7;
        int64_t t = video_op(op, video_element(a, b, ka, bits, as), video_element(a, b, kb, bits, bs));
        if (in->flags & PTX_F_SAT) t = t < lo ? lo : t > hi ? hi : t;
        int on = (in->vsel >> (PTX_VSEL_MASK + (uint32_t)i)) & 1;
        if (in->mode == 1) {
            if (on) acc += (uint32_t)t;
        } else {
            uint32_t e = on ? (uint32_t)t & emask : (c >> (i * bits)) & emask;
            merged |= e << (i * bits);
        }
    }
    return in->mode == 1 ? acc : merged;
}

int exec_video(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd != 4) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1), *b = exec_src(x, 2), *c = exec_src(x, 3);
    uint64_t *d = exec_dst(x, 0);
    if (!d) return 0;
    FOR_EACH_LANE(l, x->active) d[l] = video_lane(in, (uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l]);
    return 0;
}
