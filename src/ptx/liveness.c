/* Backward liveness of value registers over a function's instructions.
 *
 * live-in(i) = uses(i) | (live-out(i) & ~defs(i)), live-out(i) = the union of
 * its successors' live-in, iterated to a fixed point.  A guarded write may
 * leave the old value in some lanes, so it does not kill.  Successors follow
 * the branches' labels; ret, exit and trap end a path.  Used for the register
 * pressure estimate (core/regs.c) and for the rows of a new warp's register
 * file that must start at zero (ptx_find_zero_regs).
 */
#include "ptx/parse.h"

#include <stdlib.h>
#include <string.h>

static void set_bit(uint64_t *s, uint32_t r) { s[r >> 6] |= 1ull << (r & 63); }

/* Registers instruction in reads (uses) and writes (defs): bits set, not cleared. */
void ptx_uses_defs(const ptx_insn *in, uint64_t *use, uint64_t *def, uint32_t nregs) {
    for (uint32_t i = 0; i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        int is_dst = i < in->ndst;
        if (o->kind == PTX_OPND_REG && o->reg < nregs) set_bit(is_dst ? def : use, o->reg);
        else if (o->kind == PTX_OPND_VEC)
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e) && o->vec[e] < nregs) set_bit(is_dst ? def : use, o->vec[e]);
        if ((o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_SYMADDR) && o->addr_base == PTX_ABASE_REG && o->reg < nregs)
            set_bit(use, o->reg);
    }
}

/* Successors of instruction i: up to two. */
static int successors(const ptx_function *f, uint32_t i, uint32_t succ[2]) {
    const ptx_insn *in = &f->insns[i];
    int guarded = in->guard != PTX_NO_GUARD, n = 0;
    int falls = i + 1 < f->ninsn;
    if (in->op == PTX_OP_BRA && in->nopnd && in->opnd[0].kind == PTX_OPND_LABEL) {
        if (in->opnd[0].imm >= 0 && (uint64_t)in->opnd[0].imm < f->ninsn) succ[n++] = (uint32_t)in->opnd[0].imm;
        if (guarded && falls) succ[n++] = i + 1;
        return n;
    }
    if ((in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP) && !guarded) return 0;
    if (falls) succ[n++] = i + 1;
    return n;
}

int ptx_liveness(const ptx_function *f, ptx_live *L) {
    memset(L, 0, sizeof *L);
    L->words = (f->nregs + 63) / 64;
    size_t n = (size_t)f->ninsn * L->words;
    if (L->words == 0 || f->ninsn == 0) return 0;
    L->in = calloc(n, sizeof *L->in);
    L->out = calloc(n, sizeof *L->out);
    uint64_t *use = calloc(L->words, sizeof *use), *def = calloc(L->words, sizeof *def);
    if (!L->in || !L->out || !use || !def) {
        free(use);
        free(def);
        ptx_live_free(L);
        return -1;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = f->ninsn; i-- > 0;) {
            uint64_t *in = L->in + (size_t)i * L->words, *out = L->out + (size_t)i * L->words;
            uint32_t succ[2];
            int ns = successors(f, i, succ);
            for (int k = 0; k < ns; k++)
                for (uint32_t w = 0; w < L->words; w++) out[w] |= L->in[(size_t)succ[k] * L->words + w];
            memset(use, 0, L->words * sizeof *use);
            memset(def, 0, L->words * sizeof *def);
            ptx_uses_defs(&f->insns[i], use, def, f->nregs);
            /* a guarded write may leave the old value in some lanes: it does not kill */
            int kills = f->insns[i].guard == PTX_NO_GUARD;
            for (uint32_t w = 0; w < L->words; w++) {
                uint64_t v = use[w] | (out[w] & (kills ? ~def[w] : ~0ull));
                if (v & ~in[w]) {
                    in[w] |= v;
                    changed = 1;
                }
            }
        }
    }
    free(use);
    free(def);
    return 0;
}

void ptx_live_free(ptx_live *L) {
    free(L->in);
    free(L->out);
    L->in = L->out = NULL;
}

/* A warp's registers start at zero, and a thread may read one it has not
 * written (PTX leaves it undefined; the executor gives 0), but zeroing every
 * row of every new warp is most of a CTA's set-up (nvcc declares hundreds of
 * virtual registers).  A thread can observe the initial value of register r
 * only if some path from the entry reads r before an unguarded write of it
 * (r live at instruction 0), or through another lane: shfl reads its source
 * from a lane that may never have written it (inactive, exited, or past the
 * CTA's last thread).  Anything the analysis cannot follow -- calls (their
 * arguments and results pass through the call site, not operands) and
 * indirect branches (brx.idx) -- leaves the list unknown: every row is zeroed. */
void ptx_find_zero_regs(ptx_function *f, ptx_live *keep) {
    if (keep) memset(keep, 0, sizeof *keep);
    free(f->zero_regs);
    f->zero_regs = NULL;
    f->nzero_regs = 0;
    f->zero_regs_known = 0;
    if (f->is_extern || f->ninsn == 0 || f->nregs == 0) return;
    for (uint32_t i = 0; i < f->ninsn; i++)
        if (f->insns[i].op == PTX_OP_CALL || f->insns[i].op == PTX_OP_BRX) return;
    ptx_live L;
    if (ptx_liveness(f, &L)) return;
    uint64_t *need = calloc(L.words, sizeof *need); /* live-in of instruction 0, widened */
    if (!need) {
        ptx_live_free(&L);
        return;
    }
    memcpy(need, L.in, L.words * sizeof *need);
    for (uint32_t i = 0; i < f->ninsn; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->op != PTX_OP_SHFL) continue;
        for (uint32_t k = in->ndst; k < in->nopnd; k++) /* every source of a shfl */
            if (in->opnd[k].kind == PTX_OPND_REG && in->opnd[k].reg < f->nregs) set_bit(need, in->opnd[k].reg);
    }
    uint32_t n = 0;
    for (uint32_t w = 0; w < L.words; w++) n += (uint32_t)__builtin_popcountll(need[w]);
    f->zero_regs = malloc((n ? n : 1) * sizeof *f->zero_regs);
    if (f->zero_regs) {
        uint32_t k = 0;
        for (uint32_t w = 0; w < L.words; w++)
            for (uint64_t m = need[w]; m; m &= m - 1) f->zero_regs[k++] = w * 64 + (uint32_t)__builtin_ctzll(m);
        f->nzero_regs = n;
        f->zero_regs_known = 1;
    }
    free(need);
    if (keep && f->zero_regs_known) *keep = L; /* the caller's to free */
    else ptx_live_free(&L);
}
