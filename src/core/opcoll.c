/* The path of an ALU instruction from issue to writeback, as GPGPU-Sim's Fermi
 * core has it (shader.cc: issue -> ID_OC register -> operand collector unit ->
 * register-file banks -> OC_EX register -> function unit -> result bus ->
 * writeback), computed once at issue instead of being stepped every cycle.
 *
 * For an instruction issued at cycle t, uncontended (GPGPU-Sim's order within a
 * cycle is writeback, execute, read operands, issue, fetch):
 *   t+1  a collector unit of its class takes it and queues its source reads
 *   t+2  each register bank delivers one operand (every source in its own bank)
 *   t+3  the unit dispatches it to the OC_EX register (t+2 without register sources)
 *   t+4  the function unit takes it (its dispatch register must be free: the
 *        previous instruction's initiation interval) and reserves a result bus
 *        for cycle t+4+L
 *   t+6+L  writeback: the result is visible and the scoreboard released
 * so a chain of dependent instructions of latency L takes L + 6 cycles a link,
 * as in GPGPU-Sim.  Contention, each from the resource that causes it:
 *   collector units   -gpgpu_operand_collector_num_units_sp (SP), _sfu (SFU, and
 *                     DP on Fermi); a unit is held from t+1 until its instruction
 *                     moves on to the function unit; a scheduler cannot issue to a
 *                     class with no unit free at t+1 (issue_stall_pipeline)
 *   register banks    -gpgpu_num_reg_banks; register r of warp w is in bank
 *                     (r + w) mod banks (GPGPU-Sim always adds the warp id); a bank
 *                     serves one read or write per cycle, writes first; sources in
 *                     one bank are read in successive cycles
 *   function units    -gpgpu_num_{sp,sfu,dp}_units, busy for the initiation interval
 *   result buses      the EX_WB width of -gpgpu_pipeline_widths: at most that many
 *                     results may be written back in one cycle; an instruction
 *                     whose writeback cycle is full waits a cycle before executing
 * The bank and result-bus reservations live in rings of OC_RING cycles; a
 * writeback more than OC_RING cycles ahead (latencies above ~1000) is not
 * checked against the buses or banks.
 *
 * Simplifications: memory instructions do not pass through the collector units
 * (the LD/ST unit's latencies cover their path); the ID_OC and OC_EX registers
 * are not modelled as queues (a collector unit is held instead); a unit is
 * picked as the one free soonest. */
#include <string.h>

#include "core/sm_internal.h"

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

void oc_kernel_begin(sm *s) {
    uint32_t subs = s->c.sub_core ? s->c.num_sched : 1;
    for (uint32_t k = 0; k < subs; k++)
        for (uint32_t set = 0; set < OC_SETS; set++) oc_units_reset(&s->oc.cu[k][set], s->c.oc_units[set] / subs);
    /* every tag UINT64_MAX, a cycle never asked for (the other fields of a slot
     * whose tag does not match are never read: slot_take clears them) */
    for (uint32_t i = 0; i < OC_RING; i++) s->oc.ring[i].tag = UINT64_MAX;
}

/* The ring slot of cycle c, emptied first if it still describes an earlier cycle.
 * Banks and result buses share a slot: every query and reservation is for a
 * cycle in [now, now + OC_RING) and now never goes back, so once a slot is used
 * for a later cycle, the cycle it described before is never looked at again. */
static oc_slot *slot_take(sm *s, uint64_t c) {
    oc_slot *sl = &s->oc.ring[c % OC_RING];
    if (sl->tag != c) *sl = (oc_slot){.tag = c};
    return sl;
}

/* Banks busy in cycle c (0 if the ring slot belongs to another cycle). */
static uint64_t banks_at(const sm *s, uint64_t c) {
    const oc_slot *sl = &s->oc.ring[c % OC_RING];
    return sl->tag == c ? sl->banks : 0;
}

static void bank_take(sm *s, uint64_t c, uint32_t bank) { slot_take(s, c)->banks |= 1ull << bank; }

static uint32_t wb_at(const sm *s, uint64_t c) {
    const oc_slot *sl = &s->oc.ring[c % OC_RING];
    return sl->tag == c ? sl->wb : 0;
}

static void wb_take(sm *s, uint64_t c) { slot_take(s, c)->wb++; }

static uint32_t bank_of(const sm *s, uint32_t w, uint32_t reg) {
    return s->warp_bank_wrap[w] - s->bank_mod + (reg + w) % s->bank_mod;
}

/* Bank of a register whose residue mod banks is r, for warp w (= bank_of). */
static uint32_t bank_of_res(const sm *s, uint32_t w, uint32_t r) {
    uint32_t b = r + s->warp_bank[w]; /* r < bank_mod: below wrap + bank_mod */
    return b >= s->warp_bank_wrap[w] ? b - s->bank_mod : b;
}

/* read_bank when the bank is busy at `from`: the first free cycle after it. */
static uint64_t read_bank_later(sm *s, uint32_t bank, uint64_t from, uint64_t now) {
    uint64_t c = from;
    while (c - now < OC_RING && (banks_at(s, c) >> bank & 1)) c++;
    if (c - now < OC_RING) bank_take(s, c, bank);
    return c;
}

/* Read one source register (in bank `bank`) no earlier than cycle `from`; returns the cycle. */
static inline uint64_t read_bank(sm *s, uint32_t bank, uint64_t from, uint64_t now) {
    s->st.rf_reads++;
    if (from - now < OC_RING && !(banks_at(s, from) >> bank & 1)) { /* free at once: the common case */
        bank_take(s, from, bank);
        return from;
    }
    return read_bank_later(s, bank, from, now);
}

/* The cycle the last source operand is in the collector unit (alloc if none). */
static uint64_t read_sources(sm *s, uint32_t w, const ptx_insn *in, const insn_decode *d, uint64_t alloc,
                             uint64_t now) {
    uint64_t done = alloc;
    if (d->nsb != DEC_SLOW) {
        for (uint32_t i = 0; i < d->nsrc; i++)
            done = max_u64(done, read_bank(s, bank_of_res(s, w, d->src_bank[i]), alloc + 1, now));
    } else {
        for (uint32_t i = in->ndst; i < in->nopnd; i++) {
            const ptx_operand *o = &in->opnd[i];
            if (o->kind == PTX_OPND_REG) done = max_u64(done, read_bank(s, bank_of(s, w, o->reg), alloc + 1, now));
            else if (o->kind == PTX_OPND_VEC)
                for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                    if (ptx_vec_elem_is_reg(o, e))
                        done = max_u64(done, read_bank(s, bank_of(s, w, o->vec[e]), alloc + 1, now));
        }
    }
    s->st.oc_bank_conflict_cycles += done > alloc + 1 ? done - alloc - 1 : 0;
    return done;
}


uint64_t oc_issue(sm *s, uint32_t w, const ptx_insn *in, const insn_decode *d, const insn_timing *t, uint64_t now) {
    uint32_t sub = s->warp_sub[w];
    oc_unit_set *cus = &s->oc.cu[sub][t->iclass];
    uint64_t alloc = max_u64(now + 1, oc_units_min(cus)); /* a collector unit free soonest */
    uint64_t dispatch = read_sources(s, w, in, d, alloc, now) + 1;
    /* the function unit instance free soonest among the sub-core's own (units
     * sub * n .. sub * n + n - 1; all of them without sub-cores) */
    uint32_t nu = s->sub_units[t->unit], first = sub * nu, u = first;
    for (uint32_t i = first + 1; i < first + nu; i++)
        if (s->unit_free[t->unit][i] < s->unit_free[t->unit][u]) u = i;
    uint64_t exec = max_u64(dispatch + 1, s->unit_free[t->unit][u]);
    while (exec + t->latency - now < OC_RING && wb_at(s, exec + t->latency) >= s->c.result_buses) {
        exec++;
        s->st.result_bus_stall_cycles++;
    }
    if (exec + t->latency - now < OC_RING) wb_take(s, exec + t->latency);
    s->unit_free[t->unit][u] = exec + t->initiation;
    oc_units_replace_min(cus, max_u64(dispatch, exec - 1));
    /* writeback: the destination banks take the write in that cycle */
    uint64_t wb = exec + t->latency + 2;
    if (d->nsb != DEC_SLOW) {
        s->st.rf_writes += d->nwr;
        if (wb - now < OC_RING)
            for (uint32_t i = 0; i < d->nwr; i++) bank_take(s, wb, bank_of_res(s, w, d->wr_bank[i]));
        return wb;
    }
    for (uint32_t i = 0; i < in->ndst && i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        if (o->kind != PTX_OPND_REG) continue;
        s->st.rf_writes++;
        if (wb - now < OC_RING) bank_take(s, wb, bank_of(s, w, o->reg));
    }
    return wb;
}
