/* How many registers a kernel needs per thread, estimated from its PTX.
 *
 * nvcc's PTX gives every value a fresh virtual register (%r<200> is common), so
 * the declared count (value + predicate registers) is far above what ptxas
 * allocates: charging it would make almost every kernel register-limited.  The
 * estimate is instead the register pressure: the most 32-bit register slots
 * live at any instruction, from a backward liveness analysis over the kernel's
 * control-flow graph (ptx_liveness; 64-bit registers take 2 slots, 128-bit 4; predicates live
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

static uint32_t weight(const ptx_function *f, const uint64_t *set, uint32_t words) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < words; w++)
        for (uint64_t m = set[w]; m; m &= m - 1) n += reg_slots(f, w * 64 + (uint32_t)__builtin_ctzll(m));
    return n;
}

static uint32_t pressure(const ptx_module *m, const ptx_function *f, uint32_t depth, uint32_t limit) {
    if (depth > MAX_CALL_DEPTH) return limit;
    ptx_live L = {0};
    if (f->is_extern || f->ninsn == 0) return 0;
    if (ptx_liveness(f, &L)) return limit;
    uint32_t most = 0;
    uint64_t *both = calloc(L.words ? L.words : 1, sizeof *both);
    for (uint32_t i = 0; both && i < f->ninsn; i++) {
        const uint64_t *in = L.in + (size_t)i * L.words, *out = L.out + (size_t)i * L.words;
        for (uint32_t w = 0; w < L.words; w++) both[w] = in[w] | out[w];
        uint32_t p = weight(f, both, L.words);
        const ptx_insn *ins = &f->insns[i];
        if (ins->op == PTX_OP_CALL && ins->call < f->ncalls && !f->calls[ins->call].indirect &&
            f->calls[ins->call].func < m->nfuncs)
            p = weight(f, out, L.words) + pressure(m, &m->funcs[f->calls[ins->call].func], depth + 1, limit);
        if (p > most) most = p;
    }
    if (!both) most = limit;
    free(both);
    ptx_live_free(&L);
    return most;
}

uint32_t sm_kernel_registers(const ptx_module *m, const ptx_function *kernel, uint32_t limit) {
    uint32_t p = pressure(m, kernel, 0, limit);
    return p ? p : 1;
}
