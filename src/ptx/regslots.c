/* Register slots: where the executor keeps each value register.
 *
 * nvcc names a fresh virtual register for nearly every value (%r<45>, %f<30>,
 * %rd<26>), and the executor gave each its own row of 32 lanes x 8 bytes: a
 * warp of conv2d carried 66 rows (17 KB) although far fewer hold a live value
 * at any one time.  With every resident warp of every SM, those rows are a host
 * working set well past the host's caches, and each instruction's operands miss
 * in them.  So registers that are never live at the same time share a row (a
 * slot), as a register allocator would.  Only the executor's storage changes:
 * the timing model (scoreboard, register banks), types and names keep the PTX
 * register numbers, so no simulated result depends on the slots.
 *
 * Why it is exact.  A thread sees a slot only through its own registers, and
 * two registers share one only if neither is ever written while the other is
 * live (the liveness analysis is per thread and conservative: a guarded write
 * does not kill, a path's every read is a use).  So between a register's write
 * and each read of it nothing else writes its slot, and a register read before
 * any write (live at entry) meets only writes of registers that interfere with
 * it.  Also kept apart, for what the handlers do inside one instruction: its
 * destinations from each other and from its sources (a handler may write a
 * destination lane before it reads another lane of a source); registers live
 * at the entry from each other.  And every source of an instruction that reads
 * other lanes' values (shfl, match, redux) gets a slot of its own: those lanes
 * may not be executing, so their liveness says nothing about the row.
 *
 * Only kernels without calls or indirect branches are packed (the functions
 * whose zero_regs are known): call sites move values between frames by register
 * number (exec/call.c), and liveness does not follow brx.idx.  Every other
 * function keeps the identity (slot r for register r).
 */
#include "ptx/parse.h"

#include <stdlib.h>
#include <string.h>

/* Above this many registers the interference matrix (nregs^2 bits) is not
 * worth building, nor, above this many instructions x registers, the pass
 * (each write meets up to every live register): keep the identity.  nvcc's
 * largest kernels here (ray_render: 834 registers) are far below both. */
#define SLOTS_MAX_REGS 4096u
#define SLOTS_MAX_WORK (1ull << 26)

static void set_bit(uint64_t *s, uint32_t r) { s[r >> 6] |= 1ull << (r & 63); }
static int has_bit(const uint64_t *s, uint32_t r) { return (int)((s[r >> 6] >> (r & 63)) & 1); }

static int identity_slots(ptx_function *f) {
    free(f->reg_slot);
    f->reg_slot = NULL;
    f->nslots = f->nregs;
    if (!f->nregs) return 0;
    f->reg_slot = malloc(f->nregs * sizeof *f->reg_slot);
    if (!f->reg_slot) return -1;
    for (uint32_t r = 0; r < f->nregs; r++) f->reg_slot[r] = r;
    return 0;
}

/* Does instruction in read other lanes' copies of its sources? */
static int reads_other_lanes(const ptx_insn *in) {
    return in->op == PTX_OP_SHFL || in->op == PTX_OP_MATCH || in->op == PTX_OP_REDUX;
}

/* Row d of the matrix gains the registers of set s (made symmetric later). */
static void interfere_set(uint64_t *m, uint32_t words, uint32_t d, const uint64_t *s) {
    uint64_t *row = m + (size_t)d * words;
    for (uint32_t w = 0; w < words; w++) row[w] |= s[w];
}

/* Every edge both ways, and no register against itself. */
static void symmetrise(uint64_t *m, uint32_t words, uint32_t nregs) {
    for (uint32_t r = 0; r < nregs; r++) {
        uint64_t *row = m + (size_t)r * words;
        row[r >> 6] &= ~(1ull << (r & 63));
        for (uint32_t w = 0; w < words; w++)
            for (uint64_t bits = row[w]; bits; bits &= bits - 1) set_bit(m + (size_t)(w * 64 + (uint32_t)__builtin_ctzll(bits)) * words, r);
    }
}

/* The interference matrix, the registers any instruction names (`named`) and
 * those that need a slot of their own (`own`). */
static void build_interference(const ptx_function *f, const ptx_live *L, uint64_t *m, uint64_t *named, uint64_t *own,
                               uint64_t *use, uint64_t *def) {
    uint32_t words = L->words;
    for (uint32_t i = 0; i < f->ninsn; i++) {
        const ptx_insn *in = &f->insns[i];
        memset(use, 0, words * sizeof *use);
        memset(def, 0, words * sizeof *def);
        ptx_uses_defs(in, use, def, f->nregs);
        const uint64_t *out = L->out + (size_t)i * words;
        for (uint32_t w = 0; w < words; w++) {
            named[w] |= use[w] | def[w];
            if (reads_other_lanes(in)) own[w] |= use[w];
            for (uint64_t bits = def[w]; bits; bits &= bits - 1) {
                uint32_t d = w * 64 + (uint32_t)__builtin_ctzll(bits);
                interfere_set(m, words, d, out); /* written while these are live */
                interfere_set(m, words, d, def);
                interfere_set(m, words, d, use);
            }
        }
    }
    const uint64_t *entry = L->in; /* live-in of instruction 0: read before written */
    for (uint32_t w = 0; w < words; w++)
        for (uint64_t bits = entry[w]; bits; bits &= bits - 1) interfere_set(m, words, w * 64 + (uint32_t)__builtin_ctzll(bits), entry);
    symmetrise(m, words, f->nregs);
}

/* Greedy colouring in register order: each register takes the lowest slot that
 * no interfering register already holds and that is not someone's own slot.
 * Registers no instruction names are never read or written: slot 0. */
static uint32_t colour(const ptx_function *f, const uint64_t *m, uint32_t words, const uint64_t *named,
                       const uint64_t *own, uint32_t *slot, uint64_t *busy, uint64_t *reserved) {
    uint32_t nslots = 0;
    memset(reserved, 0, words * sizeof *reserved);
    for (uint32_t r = 0; r < f->nregs; r++) {
        slot[r] = 0;
        if (!has_bit(named, r)) continue;
        if (has_bit(own, r)) {
            slot[r] = nslots;
            set_bit(reserved, nslots++);
            continue;
        }
        memcpy(busy, reserved, words * sizeof *busy);
        const uint64_t *row = m + (size_t)r * words;
        for (uint32_t w = 0; w <= r >> 6; w++) { /* coloured neighbours: named, below r */
            uint64_t bits = row[w] & named[w];
            if (w == r >> 6) bits &= (1ull << (r & 63)) - 1;
            for (; bits; bits &= bits - 1) set_bit(busy, slot[w * 64 + (uint32_t)__builtin_ctzll(bits)]);
        }
        uint32_t s = 0;
        while (has_bit(busy, s)) s++; /* ends: at most r of r + 1 slots are busy */
        slot[r] = s;
        if (s == nslots) nslots++;
    }
    return nslots ? nslots : 1;
}

int ptx_assign_reg_slots(ptx_function *f, const ptx_live *L) {
    if (!f->is_entry || !f->zero_regs_known || !L->in || f->nregs == 0 || f->nregs > SLOTS_MAX_REGS ||
        (uint64_t)f->ninsn * f->nregs > SLOTS_MAX_WORK)
        return identity_slots(f);
    uint32_t words = L->words;
    uint64_t *m = calloc((size_t)f->nregs * words, sizeof *m);
    uint64_t *scratch = calloc((size_t)words * 6, sizeof *scratch);
    uint32_t *slot = malloc(f->nregs * sizeof *slot);
    if (!m || !scratch || !slot) {
        free(m);
        free(scratch);
        free(slot);
        return -1;
    }
    uint64_t *named = scratch, *own = scratch + words, *use = scratch + 2 * words, *def = scratch + 3 * words;
    build_interference(f, L, m, named, own, use, def);
    uint32_t n = colour(f, m, words, named, own, slot, scratch + 4 * words, scratch + 5 * words);
    free(m);
    free(scratch);
    free(f->reg_slot);
    f->reg_slot = slot;
    f->nslots = n;
    return 0;
}
