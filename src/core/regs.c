/* How many registers a kernel needs per thread, estimated from its PTX.
 *
 * nvcc's PTX gives every value a fresh virtual register (%r<200> is common), so
 * the declared count (value + predicate registers) is far above what ptxas
 * allocates: charging it would make almost every kernel register-limited.  The
 * estimate is instead the register pressure: the most 32-bit register slots
 * live at any instruction, from a backward liveness analysis over the kernel's
 * control-flow graph (64-bit registers take 2 slots, 128-bit 4; predicates live
 * in their own file and are not counted).  At a call site the callee's own
 * pressure is added to what is live across the call (recursion: the hardware
 * limit).  occupancy.c then caps the result at the per-thread limit and never
 * uses more than the declared count.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sm.h"

#define MAX_CALL_DEPTH 4

static uint32_t reg_slots(const ptx_function *f, uint32_t r) {
    unsigned bytes = f->reg_types ? ptx_type_size((ptx_type)f->reg_types[r]) : 4;
    return bytes > 8 ? 4 : bytes > 4 ? 2 : 1;
}

typedef struct {
    const ptx_function *f;
    uint32_t words;          /* 64-bit words per register set */
    uint64_t *in, *out;      /* live-in / live-out per instruction */
} liveness;

static void set_bit(uint64_t *s, uint32_t r) { s[r >> 6] |= 1ull << (r & 63); }

/* Registers instruction in reads (uses) and writes (defs). */
static void uses_defs(const ptx_insn *in, uint64_t *use, uint64_t *def, uint32_t nregs) {
    for (uint32_t i = 0; i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        int is_dst = i < in->ndst;
        if (o->kind == PTX_OPND_REG && o->reg < nregs) set_bit(is_dst ? def : use, o->reg);
        else if (o->kind == PTX_OPND_VEC)
            for (uint32_t e = 0; e < o->comp && e < 4; e++)
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

static int analyse(const ptx_function *f, liveness *L) {
    L->f = f;
    L->words = (f->nregs + 63) / 64;
    size_t n = (size_t)f->ninsn * L->words;
    if (L->words == 0 || f->ninsn == 0) return 0;
    L->in = calloc(n, sizeof *L->in);
    L->out = calloc(n, sizeof *L->out);
    uint64_t *use = calloc(L->words, sizeof *use), *def = calloc(L->words, sizeof *def);
    if (!L->in || !L->out || !use || !def) {
        free(use);
        free(def);
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
            uses_defs(&f->insns[i], use, def, f->nregs);
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

static uint32_t weight(const ptx_function *f, const uint64_t *set, uint32_t words) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < words; w++)
        for (uint64_t m = set[w]; m; m &= m - 1) n += reg_slots(f, w * 64 + (uint32_t)__builtin_ctzll(m));
    return n;
}

static uint32_t pressure(const ptx_module *m, const ptx_function *f, uint32_t depth, uint32_t limit) {
    if (depth > MAX_CALL_DEPTH) return limit;
    liveness L = {0};
    if (f->is_extern || f->ninsn == 0) return 0;
    if (analyse(f, &L)) return limit;
    uint32_t most = 0;
    uint64_t *both = calloc(L.words ? L.words : 1, sizeof *both);
    for (uint32_t i = 0; both && i < f->ninsn; i++) {
        const uint64_t *in = L.in + (size_t)i * L.words, *out = L.out + (size_t)i * L.words;
        for (uint32_t w = 0; w < L.words; w++) both[w] = in[w] | out[w];
        uint32_t p = weight(f, both, L.words);
        const ptx_insn *ins = &f->insns[i];
        if (ins->op == PTX_OP_CALL && ins->call < f->ncalls && f->calls[ins->call].func < m->nfuncs)
            p = weight(f, out, L.words) + pressure(m, &m->funcs[f->calls[ins->call].func], depth + 1, limit);
        if (p > most) most = p;
    }
    if (!both) most = limit;
    free(both);
    free(L.in);
    free(L.out);
    return most;
}

uint32_t sm_kernel_registers(const ptx_module *m, const ptx_function *kernel, uint32_t limit) {
    uint32_t p = pressure(m, kernel, 0, limit);
    return p ? p : 1;
}
