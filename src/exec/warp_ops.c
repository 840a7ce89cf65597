/* Warp-level operations: shfl, vote, match, redux, activemask, bar.warp.sync.
 *
 * The warp executes converged (the SIMT stack keeps diverged paths apart), so the
 * .sync forms do not wait for anyone.  membermask only selects the lanes a vote,
 * match or redux is computed over (the executing lanes of the mask); an executing
 * lane outside the mask is undefined behaviour in CUDA but works on hardware, so it
 * is tolerated (and gets the group's result).  Only bar.warp.sync, whose whole job
 * is to check the mask, faults on it.  Reading from a lane that is not executing
 * (shfl) is undefined in PTX: we return the source lane's current register
 * content, which is deterministic. */
#include "exec/exec_internal.h"

static uint32_t member_mask(exec_ctx *x, unsigned i) {
    const ptx_insn *in = x->in;
    if (i >= in->nopnd) return FULL_MASK;
    return (uint32_t)exec_src(x, i)[__builtin_ctz(x->active)];
}

/* bar.warp.sync membermask: the warp is converged here by construction; an executing
 * lane missing from the mask is a programming error. */
static int warp_sync(exec_ctx *x) {
    uint32_t members = member_mask(x, 0);
    if ((x->active & ~members) == 0) return 0;
    char what[160];
    snprintf(what, sizeof what, "bar.warp.sync executed by lanes 0x%08x, not all in its membermask 0x%08x",
             x->active, members);
    return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
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
        val[l] = a[j & 31] & 0xffffffffu;                                                                     \
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

/* vote.sync.mode d, {!}a, membermask over the executing lanes of membermask. */
static int vote(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    uint32_t members = member_mask(x, 2);
    uint32_t group = x->active & members;
    uint32_t p = exec_pred_src(x, &in->opnd[1]) & group;
    switch ((ptx_votemode)in->mode) {
    case PTX_VOTE_BALLOT: {
        uint64_t *d = exec_dst(x, 0);
        if (d) FOR_EACH_LANE(l, x->active) d[l] = p;
        return 0;
    }
    case PTX_VOTE_ALL: exec_pred_write(x, &in->opnd[0], p == group ? FULL_MASK : 0); return 0;
    case PTX_VOTE_ANY: exec_pred_write(x, &in->opnd[0], p ? FULL_MASK : 0); return 0;
    case PTX_VOTE_UNI: exec_pred_write(x, &in->opnd[0], (p == 0 || p == group) ? FULL_MASK : 0); return 0;
    default: return exec_unsupported(x);
    }
}

/* match.any.sync.bN d, a, membermask: lanes holding the same value;
 * match.all.sync.bN d[|p], a, membermask: the group if all are equal, else 0. */
static int match(exec_ctx *x) {
    const ptx_insn *in = x->in;
    unsigned nd = in->ndst ? in->ndst : 1;
    if (in->nopnd < nd + 1) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, nd);
    uint32_t members = member_mask(x, nd + 1);
    uint32_t group = x->active & members;
    uint64_t wm = width_mask(type_bits((ptx_type)in->type) ? type_bits((ptx_type)in->type) : 32);
    uint64_t *d = exec_dst(x, 0);
    uint32_t all_equal = 1;
    FOR_EACH_LANE(l, group) {
        if ((a[l] & wm) != (a[__builtin_ctz(group)] & wm)) all_equal = 0;
    }
    if (in->mode == PTX_MATCH_ALL) {
        if (d) FOR_EACH_LANE(l, x->active) d[l] = all_equal ? group : 0;
        if (nd > 1) exec_pred_write(x, &in->opnd[1], all_equal ? FULL_MASK : 0);
        return 0;
    }
    if (in->mode != PTX_MATCH_ANY) return exec_unsupported(x);
    if (!d) return 0;
    /* every executing lane, in the group or not (tolerated, see the top), gets the
     * group's lanes holding its value (a lane outside the group once read an unset
     * result); all are computed before any is written, since d may be a */
    uint32_t res[LANES];
    FOR_EACH_LANE(l, x->active) {
        uint32_t same = 0;
        FOR_EACH_LANE(j, group) same |= (uint32_t)((a[j] & wm) == (a[l] & wm)) << j;
        res[l] = same;
    }
    FOR_EACH_LANE(l, x->active) d[l] = res[l];
    return 0;
}

/* redux.sync.op.type d, a, membermask: one reduction over the group, given to all. */
static int redux(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->nopnd < 2) return exec_unsupported(x);
    const uint64_t *a = exec_src(x, 1);
    uint32_t members = member_mask(x, 2);
    uint32_t group = x->active & members;
    int sgn = type_signed((ptx_type)in->type);
    uint64_t acc = 0;
    int first = 1;
    FOR_EACH_LANE(l, group) {
        uint64_t v = a[l] & 0xffffffffu;
        if (first) { acc = v; first = 0; continue; }
        switch ((ptx_atomop)in->mode) {
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
        default: return exec_unsupported(x);
        }
    }
    uint64_t *d = exec_dst(x, 0);
    if (d) FOR_EACH_LANE(l, x->active) d[l] = acc;
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
