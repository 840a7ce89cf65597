/* Source operands as 32 lane values, and the special registers. */
#include "exec/exec_internal.h"

void exec_thread_xyz(const exec_cta *cta, uint32_t warp, uint32_t lane, uint32_t xyz[3]) {
    const locsim_dim3 b = cta->L->block;
    uint32_t t = warp * LANES + lane;
    xyz[0] = t % b.x;
    xyz[1] = (t / b.x) % b.y;
    xyz[2] = t / (b.x * b.y);
}

static uint64_t dim_component(locsim_dim3 d, unsigned comp) { return comp == 0 ? d.x : comp == 1 ? d.y : d.z; }

/* %clock64: in functional mode the number of warp instructions the CTA has executed
 * so far (deterministic and monotonic); in timing mode the SM cycle. */
static uint64_t cta_clock(const exec_cta *cta) { return cta->clock_external ? cta->clock : cta->warp_insns; }

uint64_t exec_sreg_value(const exec_ctx *x, uint32_t sreg, unsigned comp, uint32_t lane) {
    const exec_cta *cta = x->cta;
    const exec_launch *L = cta->L;
    switch ((ptx_sreg)sreg) {
    case PTX_SREG_TID: return x->w->tid[comp > 2 ? 0 : comp][lane];
    case PTX_SREG_NTID: return dim_component(L->block, comp);
    case PTX_SREG_CTAID: return cta->ctaid[comp > 2 ? 0 : comp];
    case PTX_SREG_NCTAID: return dim_component(L->grid, comp);
    case PTX_SREG_LANEID: return lane;
    case PTX_SREG_WARPID: return x->w->index;
    case PTX_SREG_NWARPID: return cta->nwarps;
    case PTX_SREG_SMID: return cta->smid;
    case PTX_SREG_NSMID: return L->smid_count ? L->smid_count : 1;
    case PTX_SREG_GRIDID: return 1;
    case PTX_SREG_CLOCK: return (uint32_t)cta_clock(cta);
    case PTX_SREG_CLOCK_HI: return (uint32_t)(cta_clock(cta) >> 32);
    case PTX_SREG_CLOCK64: return cta_clock(cta);
    case PTX_SREG_GLOBALTIMER: return cta_clock(cta); /* deterministic stand-in: one "ns" per clock */
    case PTX_SREG_LANEMASK_EQ: return 1u << lane;
    case PTX_SREG_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
    case PTX_SREG_LANEMASK_LT: return (1u << lane) - 1;
    case PTX_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case PTX_SREG_LANEMASK_GT: return (uint32_t) ~((2ull << lane) - 1);
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return L->smem_dynamic;
    case PTX_SREG_TOTAL_SMEM_SIZE: return (uint64_t)L->smem_static + L->smem_dynamic;
    /* cooperative groups' grid.sync() finds its barrier word through these (0 outside
     * a cooperative launch: grid.sync() then traps, as on a GPU) */
    case PTX_SREG_ENVREG1: return (uint32_t)(L->grid_workspace >> 32);
    case PTX_SREG_ENVREG2: return (uint32_t)L->grid_workspace;
    default: return 0;
    }
}

/* The value an address-of-symbol operand yields: an address in the symbol's own
 * space (global/const address, shared offset, local offset of the frame slot,
 * kernel parameter offset). */
static uint64_t symaddr_value(const exec_ctx *x, const ptx_operand *o) {
    switch ((ptx_addr_base)o->addr_base) {
    case PTX_ABASE_FRAME: return (uint64_t)x->fr->local_base + (uint64_t)o->imm;
    case PTX_ABASE_SYM: return x->cta->L->mod->vars[o->reg].addr + (uint64_t)o->imm;
    default: return (uint64_t)o->imm; /* NONE (resolved symbol) and KPARAM (buffer offset) */
    }
}

static void fill(uint64_t *dst, uint64_t v) {
    for (unsigned l = 0; l < LANES; l++) dst[l] = v;
}

const uint64_t *exec_src_slow(exec_ctx *x, unsigned i) {
    const ptx_operand *o = &x->in->opnd[i];
    uint64_t *tmp = x->scratch[i];
    switch ((ptx_opnd_kind)o->kind) {
    case PTX_OPND_REG: return exec_row(x, o->reg);
    case PTX_OPND_IMM: fill(tmp, (uint64_t)o->imm); return tmp;
    case PTX_OPND_SYMADDR: fill(tmp, symaddr_value(x, o)); return tmp;
    case PTX_OPND_FUNC: fill(tmp, PTX_FUNC_ADDR_BASE + (uint64_t)PTX_FUNC_ADDR_STRIDE * (uint64_t)o->imm); return tmp;
    case PTX_OPND_SREG:
        if (o->reg == PTX_SREG_TID) {
            const uint16_t *t = x->w->tid[o->comp > 2 ? 0 : o->comp];
            for (uint32_t l = 0; l < LANES; l++) tmp[l] = t[l];
        } else if (o->reg == PTX_SREG_LANEID || o->reg >= PTX_SREG_LANEMASK_EQ) {
            for (uint32_t l = 0; l < LANES; l++) tmp[l] = exec_sreg_value(x, o->reg, o->comp, l);
        } else {
            fill(tmp, exec_sreg_value(x, o->reg, o->comp, 0));
        }
        return tmp;
    case PTX_OPND_PRED: {
        uint32_t m = exec_pred_src(x, o);
        for (uint32_t l = 0; l < LANES; l++) tmp[l] = (m >> l) & 1;
        return tmp;
    }
    default: fill(tmp, 0); return tmp;
    }
}

uint32_t exec_pred_src(const exec_ctx *x, const ptx_operand *o) {
    uint32_t m;
    if (o->kind == PTX_OPND_PRED) m = x->preds[o->reg];
    else if (o->kind == PTX_OPND_IMM) m = o->imm ? FULL_MASK : 0;
    else if (o->kind == PTX_OPND_REG) { /* a value register used as a condition: nonzero = true */
        const uint64_t *r = exec_row(x, o->reg);
        m = 0;
        for (uint32_t l = 0; l < LANES; l++) m |= (uint32_t)(r[l] != 0) << l;
    } else m = 0;
    return o->neg ? ~m : m;
}
