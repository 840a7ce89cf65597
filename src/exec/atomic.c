/* atom / red on global, shared and generic addresses.
 *
 * The lanes of a warp are applied one after another in lane order, so contention
 * is deterministic and each lane gets the distinct old value it observed.
 * atom.add.f32 rounds to nearest and flushes subnormal inputs and results (as PTX
 * specifies); f64 add does not flush.  NaN results are canonical. */
#include "exec/float_util.h"

typedef struct {
    ptx_atomop op;
    ptx_type type;
    unsigned bits;
} atom_kind;

static uint64_t atom_int(const atom_kind *k, uint64_t old, uint64_t b, uint64_t c) {
    uint64_t wm = width_mask(k->bits);
    int sgn = type_signed(k->type);
    old &= wm;
    b &= wm;
    switch (k->op) {
    case PTX_ATOM_ADD: return (old + b) & wm;
    case PTX_ATOM_AND: return old & b;
    case PTX_ATOM_OR: return old | b;
    case PTX_ATOM_XOR: return old ^ b;
    case PTX_ATOM_EXCH: return b;
    case PTX_ATOM_CAS: return old == b ? (c & wm) : old;
    case PTX_ATOM_INC: return old >= b ? 0 : old + 1;                          /* u32 */
    case PTX_ATOM_DEC: return (old == 0 || old > b) ? b : old - 1;             /* u32 */
    case PTX_ATOM_MIN:
        if (sgn) return sign_extend(old, k->bits) < sign_extend(b, k->bits) ? old : b;
        return old < b ? old : b;
    case PTX_ATOM_MAX:
        if (sgn) return sign_extend(old, k->bits) > sign_extend(b, k->bits) ? old : b;
        return old > b ? old : b;
    default: return old;
    }
}

static uint64_t atom_float(const atom_kind *k, uint64_t old, uint64_t b) {
    if (k->type == PTX_T_F32) {
        float o = ftz32(f32_from_bits(old)), v = ftz32(f32_from_bits(b)), r;
        switch (k->op) {
        case PTX_ATOM_ADD: r = ftz32(o + v); break;
        case PTX_ATOM_MIN: r = isnan(o) ? v : isnan(v) ? o : (o < v || (o == v && signbit(o))) ? o : v; break;
        case PTX_ATOM_MAX: r = isnan(o) ? v : isnan(v) ? o : (o > v || (o == v && !signbit(o))) ? o : v; break;
        case PTX_ATOM_EXCH: return b & 0xffffffffu;
        default: return old;
        }
        return canon32(r);
    }
    double o = f64_from_bits(old), v = f64_from_bits(b), r;
    switch (k->op) {
    case PTX_ATOM_ADD: r = o + v; break;
    case PTX_ATOM_MIN: r = isnan(o) ? v : isnan(v) ? o : (o < v || (o == v && signbit(o))) ? o : v; break;
    case PTX_ATOM_MAX: r = isnan(o) ? v : isnan(v) ? o : (o > v || (o == v && !signbit(o))) ? o : v; break;
    case PTX_ATOM_EXCH: return b;
    default: return old;
    }
    return canon64(r);
}

/* add on f16x2 / bf16x2 pairs (and scalar f16 / bf16), round to nearest. */
static uint64_t atom_half(const atom_kind *k, uint64_t old, uint64_t b) {
    const small_fmt *f = (k->type == PTX_T_BF16 || k->type == PTX_T_BF16X2) ? &FMT_BF16 : &FMT_F16;
    int pairs = (k->type == PTX_T_F16X2 || k->type == PTX_T_BF16X2) ? 2 : 1;
    uint64_t r = 0;
    for (int p = 0; p < pairs; p++) {
        unsigned sh = 16u * (unsigned)p;
        double a = small_to_double((uint32_t)(old >> sh) & 0xffff, f);
        double v = small_to_double((uint32_t)(b >> sh) & 0xffff, f);
        r |= (uint64_t)double_to_small(a + v, PTX_RND_RN, f) << sh; /* exact sum in double */
    }
    return r;
}

static int atom_supported(const atom_kind *k) {
    if (k->bits != 16 && k->bits != 32 && k->bits != 64) return 0;
    if (type_float(k->type)) {
        if (k->type == PTX_T_F32 || k->type == PTX_T_F64)
            return k->op == PTX_ATOM_ADD || k->op == PTX_ATOM_MIN || k->op == PTX_ATOM_MAX || k->op == PTX_ATOM_EXCH;
        return k->op == PTX_ATOM_ADD;
    }
    if (k->bits == 16) return k->op == PTX_ATOM_CAS || k->op == PTX_ATOM_EXCH;
    return k->op != PTX_ATOM_NONE;
}

/* The new value of an atomic on `old` (the op, type and width of k). */
static uint64_t atom_new(const atom_kind *k, uint64_t old, uint64_t b, uint64_t c) {
    int is_float = type_float(k->type), is_half = is_float && k->bits <= 32 && k->type != PTX_T_F32;
    return is_half ? atom_half(k, old, b) : is_float ? atom_float(k, old, b) : atom_int(k, old, b, c);
}

void exec_atom_apply(const exec_memop *op) {
    atom_kind k = {(ptx_atomop)op->aop, (ptx_type)op->atype, op->abits};
    uint64_t old = 0;
    memcpy(&old, op->host, op->size);
    uint64_t nv = atom_new(&k, old, op->v, op->c);
    memcpy(op->host, &nv, op->size);
    if (op->dst) *op->dst = old;
}

int exec_atomic(exec_ctx *x) {
    const ptx_insn *in = x->in;
    int is_red = in->op == PTX_OP_RED;
    unsigned first = is_red ? 0 : 1; /* atom d, [a], b[, c];  red [a], b */
    atom_kind k = {(ptx_atomop)in->mode, (ptx_type)in->type, type_bits((ptx_type)in->type)};
    if (in->nopnd < first + 2 || in->opnd[first].kind != PTX_OPND_ADDR || !atom_supported(&k))
        return exec_unsupported(x);
    if (k.op == PTX_ATOM_CAS && in->nopnd < first + 3) return exec_unsupported(x);
    const uint64_t *b = exec_src(x, first + 1);
    const uint64_t *c = k.op == PTX_ATOM_CAS ? exec_src(x, first + 2) : NULL;
    uint64_t *d = is_red ? NULL : exec_dst(x, 0);
    unsigned size = k.bits / 8;
    uint64_t olds[LANES];
    uint32_t deferred = 0;   /* lanes whose global atomic waits for the replay (exec.h) */
    if (x->info) {
        x->info->mem_space = PTX_SPACE_NONE;
        x->info->mem_is_store = (uint8_t)is_red;
        x->info->mem_is_atomic = 1;
        x->info->mem_size = (uint8_t)size;
        x->info->mem_mask = 0;
    }
    FOR_EACH_LANE(l, x->active) {
        ptx_space rs;
        uint64_t ra, addr = exec_addr_of(x, &in->opnd[first], l);
        uint8_t *p = exec_mem_ptr(x, (ptx_space)in->space, addr, size, ACC_ATOMIC, l, &rs, &ra);
        if (!p) return -1;
        if (rs == PTX_SPACE_CONST || rs == PTX_SPACE_PARAM || rs == PTX_SPACE_LOCAL)
            return exec_fault_memory(x, rs, ACC_ATOMIC, size, ra, l, "not in global or shared memory");
        if (x->info) {
            if (!x->info->mem_mask) x->info->mem_space = (uint8_t)rs;
            x->info->mem_mask |= 1u << l;
            x->info->mem_addr[l] = ra;
        }
        if (x->cta->memlog && rs == PTX_SPACE_GLOBAL) {
            exec_memop op = {.host = p, .dst = d ? &d[l] : NULL, .v = b[l], .c = c ? c[l] : 0,
                             .kind = EXEC_MEMOP_ATOMIC, .size = (uint8_t)size, .aop = (uint8_t)k.op,
                             .atype = (uint8_t)k.type, .abits = (uint8_t)k.bits};
            if (exec_memlog_defer(x, &op)) return -1;
            deferred |= 1u << l;
            continue;
        }
        uint64_t old = 0;
        memcpy(&old, p, size);
        uint64_t nv = atom_new(&k, old, b[l], c ? c[l] : 0);
        memcpy(p, &nv, size);
        olds[l] = old;
    }
    if (d) FOR_EACH_LANE(l, x->active & ~deferred) d[l] = olds[l];
    return 0;
}
