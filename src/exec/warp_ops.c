/* Warp-level operations: shfl, vote, match, redux, activemask, bar.warp.sync.
 *
 * The warp executes converged (the SIMT stack keeps diverged paths apart), so the
 * .sync forms do not wait for anyone.  membermask is read per lane: lanes of one
 * warp may name different masks at the same instruction (cooperative groups'
 * tiled_partition(block, 16) gives lanes 0-15 0x0000ffff and lanes 16-31
 * 0xffff0000).  The lanes naming one mask form a group; a vote, match or redux is
 * computed over the executing lanes of that mask and given to the group.  An
 * executing lane outside its own mask is undefined behaviour in CUDA but works on
 * hardware, so it is tolerated (and gets its mask's result).  Only bar.warp.sync,
 * whose whole job is to check the mask, faults on it.  A shfl reading a lane that is
 * not executing it (inactive on this path, exited, or past the CTA's last thread)
 * is undefined in PTX; GPUs return 0 there, and so do we (docs/functional.md,
 * "shfl from lanes that do not execute it"). */
#include "exec/exec_internal.h"

/* Each executing lane's membermask (operand i; all ones when the operand is absent). */
static void member_masks(exec_ctx *x, unsigned i, uint32_t masks[LANES]) {
    const ptx_insn *in = x->in;
    if (i >= in->nopnd) {
        FOR_EACH_LANE(l, x->active) masks[l] = FULL_MASK;
        return;
    }
    const uint64_t *m = exec_src(x, i);
    FOR_EACH_LANE(l, x->active) masks[l] = (uint32_t)m[l];
}

/* The next group of executing lanes still to do (*todo): those naming the same
 * membermask as the lowest one; *members is that mask. */
static uint32_t next_group(const uint32_t masks[LANES], uint32_t *todo, uint32_t *members) {
    uint32_t m = masks[__builtin_ctz(*todo)], lanes = 0;
    FOR_EACH_LANE(l, *todo) {
        if (masks[l] == m) lanes |= 1u << l;
    }
    *todo &= ~lanes;
    *members = m;
    return lanes;
}

/* bar.warp.sync membermask: the warp is converged here by construction; an executing
 * lane missing from its own mask is a programming error. */
static int warp_sync(exec_ctx *x) {
    uint32_t masks[LANES];
    member_masks(x, 0, masks);
    FOR_EACH_LANE(l, x->active) {
        if (masks[l] >> l & 1) continue;
        char what[160];
        snprintf(what, sizeof what, "bar.warp.sync executed by lane %u, which is not in its membermask 0x%08x", l,
                 masks[l]);
        return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
    }
    return 0;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA pseudo-code):
 * c packs the clamp value (bits 4..0) and the segment mask (bits 12..8).
 * SHFL_LANE is one lane's step for the source lane j and the in-range test
 * ok of one mode (the mode is chosen once per instruction, not per lane). */
#define SHFL_LANE(l, J, OK)                                                                                    \
    do {                                                                                                     \
        uint32_t bval = (uint32_t)b[l] & 0x1f, cval = (uint32_t)c[l] & 0x1f, seg = ((uint32_t)c[l] >> 8) & 0x1f; \
        uint32_t max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg;                                     \
        int32_t j = (J);                                                                                      \
        int ok = (OK);                                                                                        \
        (void)min_lane;                                                                                       \
        if (!ok) j = (int32_t)l;                                                                              \
        val[l] = (src_lanes >> (j & 31) & 1) ? a[j & 31] & 0xffffffffu : 0;                                   \
        inrange |= (uint32_t)ok << l;                                                                         \
    } while (0)
/* every lane in a counted loop when all are active (the common case) */
#define SHFL_LOOP(J, OK)                                                   \
    do {                                                                   \
        if (full)                                                          \
            for (uint32_t l = 0; l < LANES; l++) SHFL_LANE(l, J, OK);      \
        else                                                               \
            FOR_EACH_LANE(l, x->active) SHFL_LANE(l, J, OK);               \
    } while (0)

static int shfl(exec_ctx *x) {
    const ptx_insn *in = x->in;
    unsigned nd = in->ndst ? in->ndst : 1;
    if (in->nopnd < nd + 3) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, nd), *b = exec_src(x, nd + 1), *c = exec_src(x, nd + 2);
    uint64_t val[LANES]; /* membermask (operand nd + 3) does not change what shfl reads */
    uint32_t inrange = 0;
    int full = x->active == FULL_MASK;
    uint32_t src_lanes = x->active; /* the lanes a value can come from; the others give 0 */
    switch ((ptx_shflmode)in->mode) {
    case PTX_SHFL_UP: SHFL_LOOP((int32_t)l - (int32_t)bval, j >= (int32_t)max_lane); break;
    case PTX_SHFL_DOWN: SHFL_LOOP((int32_t)(l + bval), j <= (int32_t)max_lane); break;
    case PTX_SHFL_BFLY: SHFL_LOOP((int32_t)(l ^ bval), j <= (int32_t)max_lane); break;
    case PTX_SHFL_IDX: SHFL_LOOP((int32_t)(min_lane | (bval & ~seg)), j <= (int32_t)max_lane); break;
    default: return exec_unsupported(x); /* the executor never runs an instruction with no lane active */
    }
    uint64_t *d = exec_dst(x, 0);
    if (d) {
        if (full) memcpy(d, val, sizeof val);
        else FOR_EACH_LANE(l, x->active) d[l] = val[l];
    }
    if (nd > 1) exec_pred_write(x, &in->opnd[1], inrange);
    return 0;
}
#undef SHFL_LOOP
#undef SHFL_LANE

/* vote.sync.mode d, {!}a, membermask: over the executing lanes of each lane's mask. */
static int vote(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    ptx_votemode mode = (ptx_votemode)in->mode;
    if (mode != PTX_VOTE_BALLOT && mode != PTX_VOTE_ALL && mode != PTX_VOTE_ANY && mode != PTX_VOTE_UNI)
        return exec_unsupported(x);
    uint32_t masks[LANES], members;
    member_masks(x, 2, masks);
    uint32_t pred = exec_pred_src(x, &in->opnd[1]), result = 0, todo = x->active;
    uint64_t *d = mode == PTX_VOTE_BALLOT ? exec_dst(x, 0) : NULL;
    while (todo) {
        uint32_t lanes = next_group(masks, &todo, &members);
        uint32_t group = x->active & members, p = pred & group;
        int yes = mode == PTX_VOTE_ALL ? p == group : mode == PTX_VOTE_ANY ? p != 0 : (p == 0 || p == group);
        if (mode != PTX_VOTE_BALLOT) {
            if (yes) result |= lanes;
        } else if (d) {
            FOR_EACH_LANE(l, lanes) d[l] = p;
        }
    }
    if (mode != PTX_VOTE_BALLOT) exec_pred_write(x, &in->opnd[0], result);
    return 0;
}

/* match.any.sync.bN d, a, membermask: lanes of the mask holding the same value;
 * match.all.sync.bN d[|p], a, membermask: the mask's lanes if all are equal, else 0.
 * (Over the executing lanes of each lane's mask.) */
static int match(exec_ctx *x) {
    const ptx_insn *in = x->in;
    unsigned nd = in->ndst ? in->ndst : 1;
    if (in->nopnd < nd + 1) return exec_unsupported(x);
    if (in->mode != PTX_MATCH_ALL && in->mode != PTX_MATCH_ANY) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, nd);
    uint32_t masks[LANES], members;
    member_masks(x, nd + 1, masks);
    uint64_t wm = width_mask(type_bits((ptx_type)in->type) ? type_bits((ptx_type)in->type) : 32);
    uint64_t *d = exec_dst(x, 0);
    /* every result is computed before any is written, since d may be a */
    uint32_t res[LANES], pred = 0, todo = x->active;
    while (todo) {
        uint32_t lanes = next_group(masks, &todo, &members);
        uint32_t group = x->active & members;
        if (in->mode == PTX_MATCH_ALL) {
            uint32_t all_equal = 1;
            FOR_EACH_LANE(l, group) {
                if ((a[l] & wm) != (a[__builtin_ctz(group)] & wm)) all_equal = 0;
            }
            FOR_EACH_LANE(l, lanes) res[l] = all_equal ? group : 0;
            if (all_equal) pred |= lanes;
            continue;
        }
        /* a lane outside its mask (tolerated, see the top) gets the mask's lanes
         * holding its value */
        FOR_EACH_LANE(l, lanes) {
            uint32_t same = 0;
            FOR_EACH_LANE(j, group) same |= (uint32_t)((a[j] & wm) == (a[l] & wm)) << j;
            res[l] = same;
        }
    }
    if (d) FOR_EACH_LANE(l, x->active) d[l] = res[l];
    if (in->mode == PTX_MATCH_ALL && nd > 1) exec_pred_write(x, &in->opnd[1], pred);
    return 0;
}

/* redux.sync.op.type d, a, membermask: one reduction over each mask's executing
 * lanes, given to the lanes naming that mask. */
static int redux_group(exec_ctx *x, const uint64_t *a, uint32_t group, uint64_t *out) {
    int sgn = type_signed((ptx_type)x->in->type);
    uint64_t acc = 0;
    int first = 1;
    FOR_EACH_LANE(l, group) {
        uint64_t v = a[l] & 0xffffffffu;
        if (first) { acc = v; first = 0; continue; }
        switch ((ptx_atomop)x->in->mode) {
        case PTX_ATOM_ADD: acc = (acc + v) & 0xffffffffu; break;
        case PTX_ATOM_AND: acc &= v; break;
        case PTX_ATOM_OR: acc |= v; break;
        case PTX_ATOM_XOR: acc ^= v; break;
        case PTX_ATOM_MIN:
            if (sgn ? (int32_t)(uint32_t)v < (int32_t)(uint32_t)acc : v < acc) acc = v;
            break;
        case PTX_ATOM_MAX:
            if (sgn ? (int32_t)(uint32_t)v > (int32_t)(uint32_t)acc : v > acc) acc = v;
            break;
        default: return -1;
        }
    }
    *out = acc;
    return 0;
}

static int redux(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1);
    uint32_t masks[LANES], members, todo = x->active;
    member_masks(x, 2, masks);
    uint64_t res[LANES];
    while (todo) {
        uint32_t lanes = next_group(masks, &todo, &members);
        uint64_t acc;
        if (redux_group(x, a, x->active & members, &acc) < 0) return exec_unsupported(x);
        FOR_EACH_LANE(l, lanes) res[l] = acc;
    }
    uint64_t *d = exec_dst(x, 0);
    if (d) FOR_EACH_LANE(l, x->active) d[l] = res[l];
    return 0;
}

static int activemask(exec_ctx *x) {
    uint64_t *d = exec_dst(x, 0);
    if (d) FOR_EACH_LANE(l, x->active) d[l] = x->active;
    return 0;
}

int exec_warp_op(exec_ctx *x) {
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_SHFL: return shfl(x);
    case PTX_OP_VOTE: return vote(x);
    case PTX_OP_MATCH: return match(x);
    case PTX_OP_REDUX: return redux(x);
    case PTX_OP_ACTIVEMASK: return activemask(x);
    case PTX_OP_BAR: case PTX_OP_BARRIER: return warp_sync(x);
    default: return exec_unsupported(x);
    }
}
