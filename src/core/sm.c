/* The SM: CTA slots, warps, scoreboard, warp schedulers and issue.
 * The LD/ST unit and the L1 caches are in ldst.c; pipeline latencies in opclass.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sm_internal.h"

static const char *const stall_names[STALL_COUNT] = {"idle", "scoreboard", "pipeline", "memory", "barrier"};

const char *sm_stall_name(sm_stall_reason r) { return r < STALL_COUNT ? stall_names[r] : "?"; }

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ---- creation ---- */

/* With sub-cores every scheduler needs an equal share of the register banks,
 * the collector units and each pipeline's units (config.c's check_sub_cores
 * says so by option name; this guards a hand-made sm_config).  The LD/ST unit
 * stays one per SM, shared by the sub-cores. */
static int sub_core_check(const sm_config *c, char *err, size_t errlen) {
    if (!c->sub_core) return 0;
    uint32_t n = c->num_sched;
    int ok = c->num_reg_banks % n == 0 && c->oc_units[0] % n == 0 && c->oc_units[1] % n == 0 && c->oc_units[0] &&
             c->oc_units[1];
    for (int u = 0; u < UNIT_COUNT; u++)
        if (u != UNIT_LDST && c->num_units[u] % n) ok = 0;
    if (!ok)
        snprintf(err, errlen, "SM: %u sub-cores need register banks, collector units and the units of each "
                 "pipeline in multiples of %u", n, n);
    return ok ? 0 : -1;
}

sm *sm_create(const sm_config *c, uint32_t id, char *err, size_t errlen) {
    uint32_t max_warps = c->max_threads / c->warp_size;
    if (c->warp_size != EXEC_WARP_SIZE || max_warps == 0 || max_warps > SCHED_MAX_WARPS) {
        snprintf(err, errlen, "SM: %u threads of warp size %u: need warp size 32 and 1..%d warps per SM", c->max_threads,
                 c->warp_size, SCHED_MAX_WARPS);
        return NULL;
    }
    if (c->num_sched == 0 || c->num_sched > SM_MAX_SCHED || c->max_ctas == 0 || c->max_ctas > SM_MAX_CTAS) {
        snprintf(err, errlen, "SM: need 1..%d schedulers and 1..%d CTAs per SM (got %u, %u)", SM_MAX_SCHED,
                 SM_MAX_CTAS, c->num_sched, c->max_ctas);
        return NULL;
    }
    if (c->load_slots_per_warp > SM_MAX_CPA) {
        snprintf(err, errlen, "SM: %u memory slots per warp: at most %d are supported", c->load_slots_per_warp, SM_MAX_CPA);
        return NULL;
    }
    for (int u = 0; u < UNIT_COUNT; u++)
        if (c->num_units[u] > SM_MAX_UNITS ||
            (u != UNIT_DP && u != UNIT_TENSOR && u != UNIT_INT && c->num_units[u] == 0)) {
            snprintf(err, errlen, "SM: pipeline %d needs 1..%d units (got %u)", u, SM_MAX_UNITS, c->num_units[u]);
            return NULL;
        }
    if (sub_core_check(c, err, errlen)) return NULL;
    sm *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->dec = &s->own_dec;
    s->sb_span = SB_REL_SPAN;
    s->c = *c;
    s->id = id;
    uint32_t subs = c->sub_core ? c->num_sched : 1;
    s->bank_mod = c->num_reg_banks / subs;
    for (int u = 0; u < UNIT_COUNT; u++) s->sub_units[u] = u == UNIT_LDST ? 1 : c->num_units[u] / subs;
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) {
        s->warp_sched[w] = (uint8_t)(w % c->num_sched);
        s->warp_sub[w] = (uint8_t)(c->sub_core ? s->warp_sched[w] : 0);
        uint32_t base = c->sub_core ? s->warp_sched[w] * s->bank_mod : 0;
        s->warp_bank[w] = (uint8_t)(base + w % s->bank_mod);
        s->warp_bank_wrap[w] = (uint8_t)(base + s->bank_mod);
    }
    for (uint32_t w = 0; w < max_warps; w++) s->sched_mask[w % c->num_sched] |= (warp_mask)1 << w;
    sched_params sp = {.sm_id = id, .num_sched = c->num_sched, .max_warps = max_warps, .args = c->sched_args,
                       .cfg = c->cfg};
    s->sched_state = c->sched->create(&sp, err, errlen);
    if (!s->sched_state || ldst_init(s, err, errlen)) {
        sm_destroy(s);
        return NULL;
    }
    s->throttle_atomics = c->sched->throttles_atomics && c->sched->throttles_atomics(s->sched_state);
    return s;
}

void sm_destroy(sm *s) {
    if (!s) return;
    sm_kernel_end(s);
    ldst_free(s);
    if (s->sched_state) s->c.sched->destroy(s->sched_state);
    free(s->own_dec.slot);
    free(s);
}

void sm_share_decode(sm *s, sm *owner) { s->dec = owner->dec; }

void sm_set_memlog(sm *s, exec_memlog *log) { s->memlog = log; }

void sm_set_ports(sm *s, sm_send_fn send, sm_cta_done_fn done, void *ctx) {
    s->send = send;
    s->cta_done = done;
    s->port_ctx = ctx;
}

/* ---- kernels ---- */

static void tw_reset(sm *s);

/* Size and empty the decode cache for kernel k (sm_internal.h says why its size
 * follows the kernel's instruction count).  -1 when out of memory. */
static int decode_cache_begin(sm *s, const sm_kernel *k) {
    uint32_t need = k->L && k->L->kernel ? k->L->kernel->ninsn : 0, n = DEC_SLOTS_MIN;
    while (n < need && n < DEC_SLOTS_MAX) n <<= 1;
    sm_decode_cache *dc = s->dec;
    if (n > dc->cap) {
        insn_decode *d = realloc(dc->slot, n * sizeof *d);
        if (!d) return -1;
        dc->slot = d;
        dc->cap = n;
    }
    /* (A shared cache is emptied by every SM's kernel start: all of them
     * start the kernel before any issues.) */
    dc->mask = n - 1;
    for (uint32_t i = 0; i < n; i++) dc->slot[i].in = NULL;
    return 0;
}

int sm_kernel_begin(sm *s, const sm_kernel *k, char *err, size_t errlen) {
    sm_kernel_end(s);
    s->k = *k;
    uint32_t max_warps = s->c.max_threads / s->c.warp_size;
    size_t per_warp = (size_t)k->max_regs + k->max_preds + 1;
    /* Not calloc: sm_add_cta clears a warp's registers and predicates before
     * it runs, so only the spare entry after them is cleared here. */
    s->sb_entries = per_warp * max_warps;
    s->sb_base = 0;
    s->sb_store = malloc(s->sb_entries * sizeof *s->sb_store);
    if (!s->sb_store) {
        snprintf(err, errlen, "out of memory for the scoreboard");
        return -1;
    }
    memset(s->unit_mask, 0, sizeof s->unit_mask);
    memset(s->hot_unit, 0, sizeof s->hot_unit);
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) s->hot_ready[w] = NEVER;
    tw_reset(s);
    s->mem_full = 0;
    for (uint32_t w = 0; w < max_warps; w++) {
        memset(&s->warps[w], 0, sizeof s->warps[w]);
        s->warps[w].reg_ready = s->sb_store + per_warp * w;
        s->warps[w].pred_ready = s->warps[w].reg_ready + k->max_regs;
        s->warps[w].reg_ready[per_warp - 1] = 0;
    }
    memset(s->ctas, 0, sizeof s->ctas);
    memset(s->unit_free, 0, sizeof s->unit_free);
    oc_kernel_begin(s);
    if (decode_cache_begin(s, k)) {
        snprintf(err, errlen, "out of memory for the decode cache");
        return -1;
    }
    s->fetch_free = 0;
    memset(s->sub_fetch_free, 0, sizeof s->sub_fetch_free);
    s->iretry = 0;
    s->resident = s->nlive = s->ngroups = s->ctas_exited = 0;
    s->live_since = 0;
    sm_kernel_levels_reset(s);
    s->live_mask = 0;
    s->wake_at = 0;
    memset(s->sched_next, 0, sizeof s->sched_next);
    s->have_last = 0;
    s->faulted = 0;
    memset(s->stall_reason, 0, sizeof s->stall_reason);
    ldst_kernel_begin(s);
    cache_kernel_begin(s->l1d, k->L ? k->L->ldesc : NULL);
    s->kernel_active = 1;
    return 0;
}

void sm_kernel_levels_reset(sm *s) { s->st.live_warps_max = 0; }

void sm_kernel_end(sm *s) {
    for (uint32_t i = 0; i < SM_MAX_CTAS; i++)
        if (s->ctas[i].cta) {
            exec_cta_destroy(s->ctas[i].cta);
            s->ctas[i].cta = NULL;
        }
    free(s->sb_store);
    s->sb_store = NULL;
    s->kernel_active = 0;
}

uint32_t sm_free_cta_slots(const sm *s) {
    if (!s->kernel_active || s->faulted) return 0;
    return s->k.occ.ctas_per_sm > s->resident ? s->k.occ.ctas_per_sm - s->resident : 0;
}

uint32_t sm_resident_ctas(const sm *s) { return s->resident; }
bool sm_reply_may_retire(const sm *s) { return s->ctas_exited != 0; }
const exec_fault *sm_fault(const sm *s) { return s->faulted ? &s->fault : NULL; }
const sm_counters *sm_stats(const sm *s) { return &s->st; }
void *sm_sched_state(const sm *s) { return s->sched_state; }
uint32_t sm_id(const sm *s) { return s->id; }
uint64_t sm_wake_at(const sm *s) { return s->wake_at; }

bool sm_idle(const sm *s) { return s->resident == 0 && !ldst_has_work(s); }

/* Live warps integrated over time up to `now` (before nlive changes). */
static void live_account(sm *s, uint64_t now) {
    if (now > s->live_since) s->st.live_warp_cycles += (uint64_t)s->nlive * (now - s->live_since);
    s->live_since = now;
}

void sm_stop_issue(sm *s, uint64_t now) {
    /* With no live warp the schedulers issue nothing (and count idle slots), and
     * the SM wakes only for its LD/ST unit and replies; no CTA is added after. */
    live_account(s, now);
    s->nlive = 0;
    s->live_mask = 0;
    s->iretry = 0;   /* fetches for warps that will not issue again */
    sm_poke(s, now);
}

bool sm_quiet(const sm *s) { return !ldst_has_work(s); }

locsim_status sm_finish_functionally(sm *s, uint64_t *thread_insns, uint64_t *warp_insns, uint64_t *ctas,
                                     exec_fault *fault) {
    for (uint32_t i = 0; i < SM_MAX_CTAS; i++) {
        exec_cta *cta = s->ctas[i].cta;
        if (!cta) continue;
        locsim_status st = exec_cta_run(cta, thread_insns, warp_insns);
        (*ctas)++;
        if (st != LOCSIM_OK) {
            const exec_fault *f = exec_cta_fault(cta);
            if (f) {
                *fault = *f;
            } else {
                fault->status = st;
                snprintf(fault->msg, sizeof fault->msg, "kernel fault on SM %u", s->id);
            }
            return st;
        }
    }
    return LOCSIM_OK;
}

int sm_describe_waits(const sm *s, char *out, size_t n) {
    if (!s->resident) return 0;
    uint32_t live = 0, mem = 0, bar = 0;
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) {
        const sm_warp *W = &s->warps[w];
        if (!W->cta || !W->live) continue;
        live++;
        mem += W->mem_pending > 0;
        bar += W->at_barrier;
    }
    return snprintf(out, n, "SM %u: %u CTAs, %u live warps (%u wait on memory, %u at a barrier)%s, L1D miss queue %u",
                    s->id, s->resident, live, mem, bar,
                    s->ldst.busy && s->ldst.blocked ? ", its LD/ST unit refused by a cache" : "",
                    s->l1d ? cache_miss_queue_length(s->l1d) : 0);
}

uint32_t sm_warps_at_barrier(const sm *s) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) n += s->warps[w].cta && s->warps[w].live && s->warps[w].at_barrier;
    return n;
}

/* ---- the scoreboard ---- */

/* Move sb_base up to now (sm_internal.h says why that is exact): one pass over
 * every warp's entries, once in 2^32 cycles. */
void sb_rebase(sm *s, uint64_t now) {
    if (now <= s->sb_base) return;
    uint64_t delta = now - s->sb_base;
    for (size_t i = 0; i < s->sb_entries; i++) {
        uint32_t r = s->sb_store[i];
        if (r != SB_REL_PENDING) s->sb_store[i] = r > delta ? (uint32_t)(r - delta) : 0;
    }
    s->sb_base = now;
    s->sb_rebases++;
}

/* The latest ready time of the registers instruction `in` reads or writes;
 * SB_PENDING if one waits for a load. */
static uint64_t operands_ready(const sm *s, const sm_warp *W, const ptx_insn *in) {
    uint32_t t = 0;
    if (in->guard != PTX_NO_GUARD) t = W->pred_ready[in->guard];
    for (uint32_t i = 0; i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        uint32_t v = 0;
        switch (o->kind) {
        case PTX_OPND_REG: v = W->reg_ready[o->reg]; break;
        case PTX_OPND_PRED: v = W->pred_ready[o->reg]; break;
        case PTX_OPND_VEC:
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e) && W->reg_ready[o->vec[e]] > v) v = W->reg_ready[o->vec[e]];
            break;
        case PTX_OPND_ADDR:
        case PTX_OPND_SYMADDR:
            if (o->addr_base == PTX_ABASE_REG) v = W->reg_ready[o->reg];
            break;
        default: break;
        }
        if (v > t) t = v;
    }
    return sb_abs(s, t); /* SB_REL_PENDING is the largest relative time */
}

static int is_global_or_local(const ptx_insn *in) {
    return in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_NONE;
}

static int is_global_or_local_load(const ptx_insn *in) {
    /* wmma.load of a global (or generic) tile reads global memory too */
    return (in->op == PTX_OP_LD || in->op == PTX_OP_LDU || in->op == PTX_OP_WMMA_LOAD) && is_global_or_local(in);
}

/* atom (not red: GPGPU-Sim 3.0 makes atom a load and red an ALU operation) */
static int is_global_or_local_atom(const ptx_insn *in) {
    return in->op == PTX_OP_ATOM && is_global_or_local(in);
}

/* Append scoreboard index i to a decode list; 0 when it does not fit. */
static int dec_push(uint16_t *list, uint8_t *n, uint32_t max, uint64_t i) {
    if (*n >= max || i > UINT16_MAX) return 0;
    list[(*n)++] = (uint16_t)i;
    return 1;
}

/* Fill d for instruction in: the same registers operands_ready, reserve_dests
 * and oc_issue's operand walks visit, in the same order. */
void sm_decode_fill(sm *s, insn_decode *d, const ptx_insn *in) {
    uint64_t pred0 = s->k.max_regs; /* pred_ready = reg_ready + max_regs */
    uint32_t banks = s->bank_mod;
    int ok = 1;
    d->in = in;
    sm_insn_timing(&s->c, in, &d->nt);
    d->flags = (uint8_t)((is_global_or_local_load(in) ? DEC_LOAD : 0) | (is_global_or_local_atom(in) ? DEC_ATOM : 0) |
                         (in->op == PTX_OP_CALL || in->op == PTX_OP_RET ? DEC_DRAIN : 0) |
                         (in->op == PTX_OP_CP_ASYNC_WAIT || in->op == PTX_OP_CP_ASYNC_WAIT_ALL ? DEC_CPA_WAIT : 0) |
                         (in->op == PTX_OP_MBARRIER && in->mode == PTX_MBAR_TRY_WAIT ? DEC_MBAR_WAIT : 0));
    d->nsb = d->nres = d->nsrc = d->nwr = 0;
    /* read by operands_ready */
    if (in->guard != PTX_NO_GUARD) ok &= dec_push(d->sb, &d->nsb, DEC_MAX_SB, pred0 + in->guard);
    for (uint32_t i = 0; i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        switch (o->kind) {
        case PTX_OPND_REG: ok &= dec_push(d->sb, &d->nsb, DEC_MAX_SB, o->reg); break;
        case PTX_OPND_PRED: ok &= dec_push(d->sb, &d->nsb, DEC_MAX_SB, pred0 + o->reg); break;
        case PTX_OPND_VEC:
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e)) ok &= dec_push(d->sb, &d->nsb, DEC_MAX_SB, o->vec[e]);
            break;
        case PTX_OPND_ADDR:
        case PTX_OPND_SYMADDR:
            if (o->addr_base == PTX_ABASE_REG) ok &= dec_push(d->sb, &d->nsb, DEC_MAX_SB, o->reg);
            break;
        default: break;
        }
    }
    /* written by reserve_dests; destination banks of oc_issue's writeback */
    for (uint32_t i = 0; i < in->ndst && i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        if (o->kind == PTX_OPND_REG) {
            ok &= dec_push(d->res, &d->nres, DEC_MAX_RES, o->reg);
            if (d->nwr < DEC_MAX_WR) d->wr_bank[d->nwr++] = (uint8_t)(o->reg % banks);
            else ok = 0;
        } else if (o->kind == PTX_OPND_PRED) {
            ok &= dec_push(d->res, &d->nres, DEC_MAX_RES, pred0 + o->reg);
        } else if (o->kind == PTX_OPND_VEC) {
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e)) ok &= dec_push(d->res, &d->nres, DEC_MAX_RES, o->vec[e]);
        }
    }
    /* source reads of oc_issue, in order (the bank reservations depend on it) */
    for (uint32_t i = in->ndst; i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        if (o->kind == PTX_OPND_REG) {
            if (d->nsrc < DEC_MAX_SRC) d->src_bank[d->nsrc++] = (uint8_t)(o->reg % banks);
            else ok = 0;
        } else if (o->kind == PTX_OPND_VEC) {
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e)) {
                    if (d->nsrc < DEC_MAX_SRC) d->src_bank[d->nsrc++] = (uint8_t)(o->vec[e] % banks);
                    else ok = 0;
                }
        }
    }
    if (!ok) d->nsb = DEC_SLOW;
}

/* The decode of warp w's next instruction (re-made if its slot was reused). */
static const insn_decode *warp_decode(sm *s, sm_warp *W) {
    if (W->dec->in != W->next) W->dec = sm_decode(s, W->next);
    return W->dec;
}

/* operands_ready from the decoded list. */
static uint64_t operands_ready_dec(const sm *s, const sm_warp *W, const insn_decode *d) {
    uint32_t t = 0;
    for (uint32_t i = 0; i < d->nsb; i++)
        if (W->reg_ready[d->sb[i]] > t) t = W->reg_ready[d->sb[i]];
    return sb_abs(s, t); /* SB_REL_PENDING is the largest relative time */
}

#define TW_SLOTS 64

/* File warp w (bit) by its ready cycle r relative to wheel_now. */
static void tw_file(sm *s, warp_mask bit, uint64_t r) {
    if (r <= s->wheel_now) {
        s->time_ok |= bit;
        return;
    }
    s->time_ok &= ~bit;
    if (r == NEVER) return; /* waits for an event: synced again when it comes */
    if (r - s->wheel_now < TW_SLOTS) {
        s->tw[r % TW_SLOTS] |= bit;
        s->tw_busy |= 1ull << (r % TW_SLOTS);
    } else {
        s->far |= bit;
        if (r < s->far_min) s->far_min = r;
    }
}

/* Bring time_ok up to cycle now. */
static void tw_advance(sm *s, uint64_t now) {
    if (now <= s->wheel_now) return;
    /* the slots of cycles wheel_now+1 .. now (all of them after a long sleep),
     * only those holding warps */
    uint64_t steps = now - s->wheel_now, first = (s->wheel_now + 1) % TW_SLOTS;
    uint64_t run = steps >= TW_SLOTS ? ~0ull : (1ull << steps) - 1;
    uint64_t win = first == 0 ? run : (run << first) | (run >> (TW_SLOTS - first));
    for (uint64_t due = s->tw_busy & win; due; due &= due - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(due);
        warp_mask m = s->tw[b];
        s->tw[b] = 0;
        s->tw_busy &= ~(1ull << b);
        for (; m; m &= m - 1) {
            uint32_t w = (uint32_t)__builtin_ctzll(m);
            if (s->hot_ready[w] <= now) s->time_ok |= (warp_mask)1 << w;
        }
    }
    s->wheel_now = now;
    if (s->far_min - now < TW_SLOTS || s->far_min <= now) { /* some far warp is due or near: file them again */
        warp_mask m = s->far;
        s->far = 0;
        s->far_min = NEVER;
        for (; m; m &= m - 1) {
            uint32_t w = (uint32_t)__builtin_ctzll(m);
            tw_file(s, (warp_mask)1 << w, s->hot_ready[w]);
        }
    }
}

static void tw_reset(sm *s) {
    s->time_ok = s->far = s->tw_busy = 0;
    memset(s->tw, 0, sizeof s->tw);
    s->far_min = NEVER;
    s->wheel_now = 0;
}

/* sm_warp_sync's body, inline in this file's issue path (speed only: it runs
 * after every issue, once or twice). */
static inline void warp_sync(sm *s, uint32_t w) {
    const sm_warp *W = &s->warps[w];
    warp_mask bit = (warp_mask)1 << w;
    uint8_t wait = W->at_barrier ? STALL_BARRIER : !W->next ? STALL_IDLE : W->wait_mem ? STALL_MEMORY : STALL_COUNT;
    warp_mask has_next = W->next != NULL;
    s->hot_wait[w] = wait;
    s->event_mask = (s->event_mask & ~bit) | ((warp_mask)(wait != STALL_COUNT) << w);
    s->mem_wait_mask = (s->mem_wait_mask & ~bit) | ((warp_mask)(wait == STALL_MEMORY) << w);
    s->barrier_mask = (s->barrier_mask & ~bit) | ((warp_mask)(wait == STALL_BARRIER) << w);
    s->load_mask = (s->load_mask & ~bit) | ((has_next & (W->is_load != 0)) << w);
    s->throttle_mask = (s->throttle_mask & ~bit) | ((has_next & (W->throttled != 0)) << w);
    if (s->hot_ready[w] != W->ready_at || W->ready_at <= s->wheel_now) tw_file(s, bit, W->ready_at);
    s->hot_ready[w] = W->ready_at;
    s->hot_ibuf[w] = W->ibuf_at;
    uint8_t k = W->nt.iclass;
    if (s->hot_unit[w] != k) {
        s->unit_mask[s->hot_unit[w]] &= ~bit;
        s->hot_unit[w] = k;
    }
    s->unit_mask[k] |= bit; /* also when unchanged: a new kernel's first sync (all masks 0) */
}

void sm_warp_sync(sm *s, uint32_t w) { warp_sync(s, w); }

/* Is a cp.async copy of a group the warp's next wait waits for still in flight? */
static int cpa_in_flight_below(const sm *s, const sm_warp *W) {
    for (uint32_t i = 0; i < W->ncpa; i++)
        if (s->slots[W->cpa_slot[i]].cpa_group < W->cpa_limit) return 1;
    return 0;
}

static inline void warp_recheck(sm *s, uint32_t w) {
    sm_warp *W = &s->warps[w];
    if (!W->next) {
        warp_sync(s, w);
        return;
    }
    uint64_t t;
    if (W->drain) t = W->mem_pending ? SB_PENDING : W->sb_max;
    else if (W->cpa_wait && cpa_in_flight_below(s, W)) t = SB_PENDING;
    else {
        const insn_decode *d = warp_decode(s, W);
        t = d->nsb != DEC_SLOW ? operands_ready_dec(s, W, d) : operands_ready(s, W, W->next);
        /* a try_wait that cannot succeed yet suspends the warp (mbar_wake ends it early) */
        if (W->mbar_wait && t != SB_PENDING && t < W->mbar_deadline && exec_warp_mbar_suspended(W->cta, W->index))
            t = W->mbar_deadline;
    }
    W->wait_mem = t == SB_PENDING;
    W->ready_at = W->wait_mem ? NEVER : max_u64(t, W->ibuf_at);
    uint32_t sid = s->warp_sched[w];
    if (W->ready_at < s->sched_next[sid]) s->sched_next[sid] = W->ready_at;
    warp_sync(s, w);
}

void sm_warp_recheck(sm *s, uint32_t w) { warp_recheck(s, w); }

/* sm_warp_refresh with the next instruction already read (nx). */
static void warp_set_next(sm *s, uint32_t w, const ptx_insn *nx, uint64_t ibuf_at) {
    sm_warp *W = &s->warps[w];
    W->next = nx;
    W->ibuf_at = ibuf_at;
    if (!W->next) {
        W->ready_at = NEVER;
        warp_sync(s, w);
        return;
    }
    const insn_decode *d = W->dec = sm_decode(s, W->next);
    W->nt = d->nt;
    W->is_load = (d->flags & DEC_LOAD) != 0;
    W->throttled = (uint8_t)(W->is_load || (s->throttle_atomics && (d->flags & DEC_ATOM)));
    /* A call or return switches register frames: the scoreboard is indexed by
     * the frame's register numbers, so let it drain first. */
    W->drain = (d->flags & DEC_DRAIN) != 0;
    /* cp.async.wait_group N waits until the copies of every committed group but
     * the N most recent have returned; wait_all commits the open group first and
     * waits for everything (docs/cp-async.md). */
    W->mbar_wait = (d->flags & DEC_MBAR_WAIT) != 0;
    if (W->mbar_wait) W->mbar_deadline = ibuf_at >= NEVER - SM_MBAR_SUSPEND_CYCLES ? NEVER : ibuf_at + SM_MBAR_SUSPEND_CYCLES;
    W->cpa_wait = (d->flags & DEC_CPA_WAIT) != 0;
    if (W->cpa_wait) {
        uint64_t n = W->next->op == PTX_OP_CP_ASYNC_WAIT ? (uint64_t)W->next->opnd[0].imm : 0;
        uint32_t committed = W->cpa_committed + (W->next->op == PTX_OP_CP_ASYNC_WAIT_ALL);
        W->cpa_limit = committed > n ? committed - (uint32_t)n : 0;
    }
    warp_recheck(s, w);
}

void sm_warp_refresh(sm *s, uint32_t w, uint64_t ibuf_at) {
    sm_warp *W = &s->warps[w];
    warp_set_next(s, w, exec_warp_next_insn(W->cta, W->index), ibuf_at);
}

/* Warp w's fetch at cycle f in the instruction cache (-gpgpu_cache:il1), as
 * GPGPU-Sim's fetch does it: one access for the 16 bytes (2 instructions, fewer
 * at the end of a line) at the warp's PC + PROGRAM_MEM_START.  A hit hands them
 * to the I-buffer at f; a miss (its line goes to the L2, and DRAM, like any
 * read: GPGPU-Sim never copies code into the L2) or a pending hit leaves the
 * warp waiting for the fill; a reservation fail (no MSHR or miss-queue room)
 * until a fill or a sent miss frees room.  1 on a hit. */
static int icache_fetch(sm *s, uint32_t w, uint64_t f, uint64_t code_addr, uint32_t pc) {
    sm_warp *W = &s->warps[w];
    /* its sub-core's L0 (l0i.c), else the L1I */
    cache *ic = s->l0i[0] ? s->l0i[s->warp_sched[w]] : s->l1i;
    uint32_t line = s->l0i[0] ? s->c.l0i.line_size : s->c.l1i.line_size;
    uint64_t a = SM_CODE_BASE + code_addr;
    uint32_t off = (uint32_t)(a & (line - 1)), bytes = off + 16 > line ? line - off : 16;
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = a & ~(uint64_t)(line - 1);
    r.tag = ((uint64_t)TARGET_L1I << TAG_TARGET_SHIFT) | w;
    r.issue_cycle = f;
    r.pc = pc;
    r.sector_mask = mem_sector_mask(a, bytes, line);
    r.size = (uint16_t)(mem_sector_count(r.sector_mask) * MEM_SECTOR_SIZE);
    r.sm = (uint16_t)s->id;
    r.warp = (uint16_t)w;
    r.type = MEM_INST_ACC_R;
    if (cache_read_hit(ic, &r, f)) return 1;
    cache_fail_reason why;
    cache_outcome o = cache_access(ic, &r, f, &why);
    if (o == CACHE_HIT) return 1;
    W->imiss = o == CACHE_RESERVATION_FAIL ? IMISS_RETRY : IMISS_FILL;
    s->iretry += W->imiss == IMISS_RETRY;
    return 0;
}

/* The first free fetch slot from `from` for warp w, taken: the SM's one fetch
 * a cycle, or with L0 caches its sub-core's (l0i.c). */
static uint64_t fetch_slot(sm *s, uint32_t w, uint64_t from) {
    uint64_t *free_at = s->l0i[0] ? &s->sub_fetch_free[s->warp_sched[w]] : &s->fetch_free;
    uint64_t f = max_u64(from, *free_at);
    *free_at = f + 1;
    return f;
}

/* A fetch for warp w at the first free fetch slot from `from`; nx is its next
 * instruction (exec_warp_fetch_point: code_addr and pc are set when it is not NULL). */
static void fetch_at(sm *s, uint32_t w, const ptx_insn *nx, uint64_t code_addr, uint32_t pc, uint64_t from) {
    sm_warp *W = &s->warps[w];
    uint64_t f = fetch_slot(s, w, from);
    W->ibuf_spare = nx && (code_addr / 8 + 1) % s->c.insns_per_iline != 0;
    if (nx && s->l1i && !icache_fetch(s, w, f, code_addr, pc)) {
        warp_set_next(s, w, nx, NEVER); /* no issue before the fill (sm_ifetch_filled) */
        return;
    }
    warp_set_next(s, w, nx, f + 2);
}

/* Fetch, as GPGPU-Sim's Fermi core: a warp's I-buffer holds 2 instructions; when
 * it is empty the fetch unit (one warp per SM per cycle) reads the next 2 (16
 * bytes of 8-byte PTX instructions; 1 at the end of an instruction-cache line),
 * they are decoded the next cycle and can issue the cycle after: 2 cycles from
 * fetch to issue.  A taken branch or a reconvergence leaves a wrong second
 * entry, which the scheduler flushes one cycle after the branch issued.  Fetch
 * slots are granted in request order (GPGPU-Sim scans warps round-robin).
 * Each fetch looks up the instruction cache (icache_fetch) unless
 * -gpgpu_perfect_inst_const_cache is set.  The instruction after a barrier is
 * taken as fetched while the warp waited there (GPGPU-Sim keeps fetching for a
 * warp at a barrier). */
void sm_warp_fetch(sm *s, uint32_t w, const ptx_insn *cur, int spare, uint64_t now) {
    sm_warp *W = &s->warps[w];
    uint64_t code_addr = 0;
    uint32_t pc = 0;
    const ptx_insn *nx = exec_warp_fetch_point(W->cta, W->index, &code_addr, &pc);
    if (nx && spare && nx == cur + 1) {
        W->ibuf_spare = 0;
        warp_set_next(s, w, nx, now + 1);
        return;
    }
    fetch_at(s, w, nx, code_addr, pc, now + (spare ? 1 : 0));
}

/* The fill of warp w's instruction-cache miss arrived at `now`: GPGPU-Sim's
 * fetch hands the waiting warp its instructions at its next free fetch slot
 * (the fill is not looked up again), decode and issue follow as for a hit. */
void sm_ifetch_filled(sm *s, uint32_t w, uint64_t now) {
    sm_warp *W = &s->warps[w];
    if (!W->cta || !W->live || W->imiss != IMISS_FILL) return;
    W->imiss = IMISS_NONE;
    uint64_t f = fetch_slot(s, w, now);
    sm_warp_refresh(s, w, f + 2);
    sm_poke(s, now);
}

/* Room in the instruction cache again: the warps it refused fetch again, in
 * warp order. */
void sm_ifetch_retry(sm *s, uint64_t now) {
    uint32_t max_warps = s->c.max_threads / s->c.warp_size;
    for (uint32_t w = 0; w < max_warps && s->iretry; w++) {
        sm_warp *W = &s->warps[w];
        if (W->imiss != IMISS_RETRY) continue;
        W->imiss = IMISS_NONE;
        s->iretry--;
        if (W->cta && W->live) {
            uint64_t code_addr = 0;
            uint32_t pc = 0;
            const ptx_insn *nx = exec_warp_fetch_point(W->cta, W->index, &code_addr, &pc);
            fetch_at(s, w, nx, code_addr, pc, now);
        }
    }
    sm_poke(s, now);
}

/* Reserve the destination registers of an ALU/control instruction. */
static void reserve_dests(sm *s, sm_warp *W, const ptx_insn *in, const insn_decode *d, uint64_t ready,
                          uint64_t now) {
    uint32_t r = sb_rel(s, ready, now);
    W->sb_max = max_u64(W->sb_max, ready);
    if (d->nsb != DEC_SLOW) {
        for (uint32_t i = 0; i < d->nres; i++) W->reg_ready[d->res[i]] = r;
        return;
    }
    for (uint32_t i = 0; i < in->ndst && i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        if (o->kind == PTX_OPND_REG) W->reg_ready[o->reg] = r;
        else if (o->kind == PTX_OPND_PRED) W->pred_ready[o->reg] = r;
        else if (o->kind == PTX_OPND_VEC)
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e)) W->reg_ready[o->vec[e]] = r;
    }
}

/* ---- CTAs ---- */

static void age_remove(sm *s, uint32_t w) {
    for (uint32_t i = 0; i < s->nlive; i++)
        if (s->age_order[i] == w) {
            memmove(&s->age_order[i], &s->age_order[i + 1], s->nlive - i - 1);
            s->nlive--;
            return;
        }
}

int sm_add_cta(sm *s, exec_cta *cta, uint64_t cta_linear, uint64_t now) {
    uint32_t slot = 0;
    while (slot < SM_MAX_CTAS && s->ctas[slot].cta) slot++;
    uint32_t nw = exec_cta_num_warps(cta);
    if (slot >= s->k.occ.ctas_per_sm || nw != s->k.occ.warps) return -1;
    sm_cta *C = &s->ctas[slot];
    C->cta = cta;
    C->linear = cta_linear;
    C->first_warp = slot * nw;
    C->live_warps = nw;
    C->inflight = 0;
    C->mbar_seen = 0;
    live_account(s, now);
    s->resident++;
    s->age_group[s->ngroups++] = (nw >= 64 ? ~(warp_mask)0 : (((warp_mask)1 << nw) - 1)) << C->first_warp;
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t w = C->first_warp + i;
        sm_warp *W = &s->warps[w];
        size_t per_warp = (size_t)s->k.max_regs + s->k.max_preds;
        memset(W->reg_ready, 0, per_warp * sizeof *W->reg_ready);
        W->cta = cta;
        W->cta_slot = (uint16_t)slot;
        W->index = (uint16_t)i;
        W->live = 1;
        W->at_barrier = 0;
        W->sb_max = 0;
        sm_mem_pending_set(s, w, 0);
        W->ncpa = 0;
        W->cpa_committed = 0;
        W->cpa_issued = 0;
        W->nmbar = 0;
        W->mbar_wait = 0;
        s->age_order[s->nlive++] = (uint8_t)w;
        s->live_mask |= (warp_mask)1 << w;
        s->sigma[w] = 100;   /* no lane waits */
        if (s->c.track_sigma) {
            s->wait_lanes[w] = 0;
            memset(s->lane_wait[w], 0, sizeof s->lane_wait[w]);
        }
        if (s->c.sched->warp_start) s->c.sched->warp_start(s->sched_state, w, now);
        sm_warp_fetch(s, w, NULL, 0, now);
    }
    if (s->nlive > s->st.live_warps_max) s->st.live_warps_max = s->nlive;
    sm_poke(s, now);
    return 0;
}

void sm_cta_check_retire(sm *s, uint32_t cta_slot, uint64_t now) {
    sm_cta *C = &s->ctas[cta_slot];
    if (!C->cta || C->live_warps || C->inflight) return;
    for (uint32_t i = 0; i < s->k.occ.warps; i++) s->warps[C->first_warp + i].cta = NULL;
    for (uint32_t g = 0; g < s->ngroups; g++) /* drop this CTA's age group: the one holding its first warp */
        if (sched_mask_has(s->age_group[g], C->first_warp)) {
            memmove(&s->age_group[g], &s->age_group[g + 1], (s->ngroups - g - 1) * sizeof *s->age_group);
            s->ngroups--;
            break;
        }
    exec_cta_destroy(C->cta);
    C->cta = NULL;
    s->resident--;
    s->ctas_exited--;
    s->st.ctas_done++;
    if (s->cta_done) s->cta_done(s->port_ctx, s->id, C->linear);
    (void)now;
}

static void warp_exited(sm *s, uint32_t w, uint64_t now) {
    sm_warp *W = &s->warps[w];
    W->live = 0;
    W->next = NULL;
    W->ready_at = NEVER;
    sm_warp_sync(s, w);
    s->live_mask &= ~((warp_mask)1 << w);
    live_account(s, now + 1);   /* it was live through cycle now */
    age_remove(s, w);
    if (s->c.sched->warp_exit) s->c.sched->warp_exit(s->sched_state, w, now);
    sm_cta *C = &s->ctas[W->cta_slot];
    if (--C->live_warps == 0) s->ctas_exited++;
}

/* After a warp arrived at a barrier or exited: release the barrier if every
 * live warp of the CTA is there. */
static void try_release_barrier(sm *s, uint32_t cta_slot, uint64_t now) {
    sm_cta *C = &s->ctas[cta_slot];
    if (!exec_cta_try_release_barrier(C->cta)) return;
    for (uint32_t i = 0; i < s->k.occ.warps; i++) {
        uint32_t w = C->first_warp + i;
        sm_warp *W = &s->warps[w];
        if (W->live && W->at_barrier && !exec_warp_waiting(C->cta, W->index)) {
            W->at_barrier = 0;
            sm_warp_refresh(s, w, now + 1);
        }
    }
}

/* ---- issue ---- */

static void record_fault(sm *s, const exec_cta *cta) {
    const exec_fault *f = exec_cta_fault(cta);
    s->faulted = 1;
    if (f) s->fault = *f;
    else {
        s->fault.status = LOCSIM_ERR_KERNEL_FAULT;
        snprintf(s->fault.msg, sizeof s->fault.msg, "kernel fault on SM %u", s->id);
    }
}

/* ---- mbarrier (docs/cp-async.md) ---- */

/* A phase of one of the CTA's mbarriers completed since its try_wait warps were
 * last checked: check them again (a suspended one can issue now). */
static void mbar_wake(sm *s, uint32_t cta_slot, uint64_t now) {
    sm_cta *C = &s->ctas[cta_slot];
    if (!C->cta) return;
    uint64_t n = exec_cta_mbar_completions(C->cta);
    if (n == C->mbar_seen) return;
    C->mbar_seen = n;
    for (uint32_t i = 0; i < s->k.occ.warps; i++) {
        uint32_t w = C->first_warp + i;
        sm_warp *W = &s->warps[w];
        if (W->live && W->next && W->mbar_wait) warp_recheck(s, w);
    }
    sm_poke(s, now);
}

/* Is a cp.async the warp issued before its seq-th still in flight? */
static int cpa_in_flight_before(const sm *s, const sm_warp *W, uint32_t seq) {
    for (uint32_t i = 0; i < W->ncpa; i++)
        if ((int32_t)(s->slots[W->cpa_slot[i]].cpa_seq - seq) < 0) return 1;
    return 0;
}

void sm_mbar_progress(sm *s, uint32_t w, uint64_t now) {
    sm_warp *W = &s->warps[w];
    while (W->nmbar && !cpa_in_flight_before(s, W, W->mbar_q[0].seq)) {
        uint32_t n = W->mbar_q[0].n;
        W->nmbar--;
        memmove(W->mbar_q, W->mbar_q + 1, W->nmbar * sizeof W->mbar_q[0]);
        while (n--)
            if (exec_cta_mbar_async_arrive(W->cta, W->index)) {
                record_fault(s, W->cta);
                return;
            }
    }
    mbar_wake(s, W->cta_slot, now);
}

/* A cp.async.mbarrier.arrive issued: its arrive waits for every cp.async the warp
 * sent before it.  Arrives waiting for the same copies share an entry; when the
 * queue is full the newest entry takes the new threshold (its arrives then wait
 * for a few more copies: late, never early). */
static void mbar_queue(sm *s, uint32_t w, uint64_t now) {
    sm_warp *W = &s->warps[w];
    uint32_t seq = W->cpa_issued;
    if (W->nmbar && (W->mbar_q[W->nmbar - 1].seq == seq || W->nmbar == SM_MAX_MBAR)) {
        W->mbar_q[W->nmbar - 1].seq = seq;
        W->mbar_q[W->nmbar - 1].n++;
    } else {
        W->mbar_q[W->nmbar].seq = seq;
        W->mbar_q[W->nmbar].n = 1;
        W->nmbar++;
    }
    sm_mbar_progress(s, w, now);
}

static void issue(sm *s, uint32_t w, uint64_t now) {
    sm_warp *W = &s->warps[w];
    uint32_t cta_slot = W->cta_slot;
    insn_timing t = W->nt;
    const ptx_insn *cur = W->next;
    int spare = W->ibuf_spare;
    exec_step_info info;
    exec_cta_set_clock(W->cta, now);
    /* the log is set only while this SM issues: functional runs move data at once */
    if (s->memlog) exec_cta_set_memlog(W->cta, s->memlog);
    exec_step_result r = exec_warp_step(W->cta, W->index, &info);
    if (s->memlog) exec_cta_set_memlog(W->cta, NULL);
    if (r == EXEC_STEP_FAULT) {
        record_fault(s, W->cta);
        return;
    }
    s->st.warp_insns++;
    s->st.thread_insns += info.thread_insns;
    s->st.unit_insns[t.unit]++;
    s->st.unit_threads[t.unit] += info.thread_insns;
    if (s->c.sched->issued && info.insn) s->c.sched->issued(s->sched_state, w, info.insn, now);
    if (info.insn) {
        if (t.unit == UNIT_LDST) ldst_issue(s, w, &info, now);
        else {
            const insn_decode *d = W->dec->in == info.insn ? W->dec : sm_decode(s, info.insn);
            reserve_dests(s, W, info.insn, d, oc_issue(s, w, info.insn, d, &t, now), now);
        }
        /* commit_group and wait_all close the warp's open cp.async group */
        if ((info.insn->op == PTX_OP_CP_ASYNC_COMMIT || info.insn->op == PTX_OP_CP_ASYNC_WAIT_ALL) && info.active_mask)
            W->cpa_committed++;
        if (info.insn->op == PTX_OP_CP_ASYNC_MBAR && info.active_mask) mbar_queue(s, w, now);
        else if (info.insn->op == PTX_OP_MBARRIER) mbar_wake(s, cta_slot, now);
        if (s->faulted) return;
    }
    if (r == EXEC_STEP_EXITED) {
        warp_exited(s, w, now);
        if (s->ctas[cta_slot].live_warps) try_release_barrier(s, cta_slot, now);
        sm_cta_check_retire(s, cta_slot, now);
        return;
    }
    if (r == EXEC_STEP_BARRIER) {
        W->at_barrier = 1;
        W->ready_at = NEVER;
        W->next = NULL;
        sm_warp_sync(s, w);
        try_release_barrier(s, cta_slot, now);
        return;
    }
    sm_warp_fetch(s, w, cur, spare, now);
}

/* Stall reasons ordered by how much they explain: a structural hazard first. */
static int stall_rank(int reason) {
    static const int rank[STALL_COUNT] = {[STALL_IDLE] = 0, [STALL_BARRIER] = 1, [STALL_SCOREBOARD] = 2,
                                          [STALL_MEMORY] = 3, [STALL_PIPELINE] = 4};
    return rank[reason];
}

/* Why none of the warps of `cand` (none waiting for an event, none able to
 * issue now: ready_warps found none) can issue, as the highest-ranked reason
 * over them, and the first cycle at which one might issue without an outside
 * event (lowering *next).  Warp by warp (as it was) for the warps whose ready
 * cycle has not come; by mask for the others, whose blocking condition depends
 * only on their pipeline and the shared LD/ST unit and collector units:
 *   ALU      its collector-unit set frees a unit at cu (> now + 1): pipeline;
 *   LD/ST    a busy unit, a full slot table or the warp's own full slots free
 *            up on a reply or when the unit finishes (both poke the SM); a
 *            shared-memory access frees the unit at free_at; throttling may
 *            lift any cycle: memory. */
/* Can warp w (not waiting for an event) issue now?  Returns -1 if yes, else the
 * stall reason, and lowers *next to the first cycle at which it might issue
 * without an outside event (blocked_reason's answer for one warp, cheaper when
 * a scheduler has only a warp or two to ask about). */
static int warp_blocked(const sm *s, uint32_t w, uint64_t now, warp_mask load_ok, uint64_t *next) {
    if (s->hot_ready[w] > now) {
        *next = min_u64(*next, s->hot_ready[w]);
        return s->hot_ibuf[w] > now ? STALL_IDLE : STALL_SCOREBOARD;
    }
    uint8_t u = s->hot_unit[w];
    if (u == ICLASS_LDST) {
        if (s->ldst.busy || s->free_slot < 0 || s->warps[w].mem_pending >= s->c.load_slots_per_warp)
            return STALL_MEMORY;
        if (s->ldst.free_at > now) {
            *next = min_u64(*next, s->ldst.free_at);
            return STALL_MEMORY;
        }
        if (sched_mask_has(s->throttle_mask, w) && !sched_mask_has(load_ok, w)) {
            *next = now + 1;
            return STALL_MEMORY;
        }
        return -1;
    }
    uint64_t cu = oc_cu_free_at(s, s->warp_sub[w], u);
    if (cu <= now + 1) return -1;
    *next = min_u64(*next, cu - 1);
    return STALL_PIPELINE;
}

/* Out of line: the path taken when no warp can issue, kept out of the issue
 * path's code (inlined, it cost nw 1% more instructions in the release build). */
__attribute__((noinline)) static int blocked_reason(const sm *s, uint32_t sub, warp_mask cand, uint64_t now,
                                                    warp_mask load_ok, uint64_t *next) {
    int reason = STALL_IDLE;
    for (warp_mask m = cand & ~s->time_ok; m; m &= m - 1) { /* hot_ready > now */
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        *next = min_u64(*next, s->hot_ready[w]);
        int b = s->hot_ibuf[w] > now ? STALL_IDLE : STALL_SCOREBOARD;
        if (stall_rank(b) > stall_rank(reason)) reason = b;
    }
    warp_mask on_time = cand & s->time_ok, mem = on_time & s->unit_mask[ICLASS_LDST];
    if (mem) {
        warp_mask room = mem & ~s->mem_full; /* the others wait for a reply */
        if (room && !s->ldst.busy && s->free_slot >= 0) {
            if (s->ldst.free_at > now) *next = min_u64(*next, s->ldst.free_at);
            else if (room & s->throttle_mask & ~load_ok) *next = now + 1;
        }
        if (stall_rank(STALL_MEMORY) > stall_rank(reason)) reason = STALL_MEMORY;
    }
    warp_mask sp = on_time & s->unit_mask[ICLASS_SP], sfu = on_time & s->unit_mask[ICLASS_SFU];
    if (sp) *next = min_u64(*next, oc_cu_free_at(s, sub, ICLASS_SP) - 1);
    if (sfu) *next = min_u64(*next, oc_cu_free_at(s, sub, ICLASS_SFU) - 1);
    if (sp | sfu) reason = STALL_PIPELINE; /* the highest rank */
    return reason;
}

/* sched_view.l1d_locality: the L1D policy's answer (-1 without an L1D). */
static int l1d_locality(const void *l1d) { return cache_locality_signal(l1d); }

/* The warps of `cand` (none waiting for an event) that can issue now: their
 * ready cycle has come and their pipeline can take them (blocked_reason says
 * what stops the others), computed with the pipelines' conditions evaluated
 * once per cycle instead of once per warp.  The stall reason and wake-up cycle
 * are only needed when no warp can issue: schedule() then asks blocked_reason. */
static warp_mask ready_warps(const sm *s, uint32_t sub, warp_mask cand, uint64_t now, warp_mask load_ok) {
    warp_mask t = cand & s->time_ok; /* hot_ready <= now: tw_advance(now) ran this cycle */
    if (!t) return 0;
    /* ALU pipelines: one test per collector-unit set (SP and INT; SFU, DP and
     * tensor share the other), of the scheduler's sub-core */
    warp_mask ready = 0, sp = t & s->unit_mask[ICLASS_SP], sfu = t & s->unit_mask[ICLASS_SFU];
    if (sp && oc_cu_free_at(s, sub, ICLASS_SP) <= now + 1) ready |= sp;
    if (sfu && oc_cu_free_at(s, sub, ICLASS_SFU) <= now + 1) ready |= sfu;
    warp_mask mem = t & s->unit_mask[ICLASS_LDST] & (~s->throttle_mask | load_ok);
    if (mem && !s->ldst.busy && s->free_slot >= 0 && s->ldst.free_at <= now) ready |= mem & ~s->mem_full;
    return ready;
}

/* One scheduler's issue slot.  Also sets sched_next: when it is worth looking
 * at this scheduler's warps again. */
static void schedule(sm *s, uint32_t sched_id, uint64_t now, warp_mask load_ok) {
    warp_mask owned = s->live_mask & s->sched_mask[sched_id], loads = 0;
    int reason = STALL_IDLE;
    uint64_t next = NEVER;
    uint32_t sub = s->warp_sub[sched_id]; /* = oc_sub(s, sched_id): warp slot sched_id is on that sub-core */
    warp_mask ready = ready_warps(s, sub, owned & ~s->event_mask, now, load_ok);
    if (!ready) {
        warp_mask cand = owned & ~s->event_mask, rest = cand & (cand - 1);
        if (rest & (rest - 1)) {
            reason = blocked_reason(s, sub, cand, now, load_ok, &next);
        } else { /* one or two warps: asking each is cheaper */
            for (warp_mask m = cand; m; m &= m - 1) {
                int b = warp_blocked(s, (uint32_t)__builtin_ctzll(m), now, load_ok, &next);
                if (b >= 0 && stall_rank(b) > stall_rank(reason)) reason = b;
            }
        }
    }
    loads = ready & s->load_mask;
    if (!ready && (owned & s->event_mask)) {
        /* the highest-ranked hot_wait among the waiting warps, from the masks:
         * memory, then barrier, then idle (no instruction) */
        int b = owned & s->mem_wait_mask ? STALL_MEMORY : owned & s->barrier_mask ? STALL_BARRIER : STALL_IDLE;
        if (stall_rank(b) > stall_rank(reason)) reason = b;
    }
    if (ready) {
        sched_view v = {.now = now, .sched_id = sched_id, .ready = ready, .owned = owned, .live = s->live_mask,
                        .next_is_load = loads, .at_barrier = s->barrier_mask, .age_order = s->age_order,
                        .nlive = s->nlive,
                        .age_groups = s->age_group, .ngroups = s->ngroups,
                        .l1d_locality = l1d_locality, .l1d = s->l1d,
                        .sigma = s->c.track_sigma ? s->sigma : NULL};
        int w = s->c.sched->pick(s->sched_state, &v);
        s->sched_next[sched_id] = now + 1; /* ready warps remain candidates next cycle */
        if (w >= 0 && sched_mask_has(ready, (uint32_t)w)) {
            issue(s, (uint32_t)w, now);
            s->stall_reason[sched_id] = STALL_IDLE;
            return;
        }
        reason = STALL_IDLE; /* the policy chose not to issue */
    } else {
        s->sched_next[sched_id] = next;
    }
    s->stall_reason[sched_id] = (uint8_t)reason;
    s->st.stall[reason]++;
}

/* The earliest cycle after now at which an issue could happen without an
 * outside event (a reply wakes the SM through sm_receive). */
static uint64_t next_wake(const sm *s, uint64_t now) {
    uint64_t t = ldst_next_work(s, now);
    if (t <= now + 1) return now + 1;
    for (uint32_t i = 0; i < s->c.num_sched; i++)
        if (s->live_mask & s->sched_mask[i]) t = min_u64(t, s->sched_next[i]);
    return t <= now ? now + 1 : t;
}

/* Charge the cycles the SM slept through to the reason each scheduler had. */
static void account_sleep(sm *s, uint64_t now) {
    if (!s->have_last || now <= s->last_cycle + 1) return;
    uint64_t slept = now - s->last_cycle - 1;
    for (uint32_t i = 0; i < s->c.num_sched; i++) s->st.stall[s->stall_reason[i]] += slept;
    s->st.issue_slots += slept * s->c.num_sched;
    if (s->ldst.busy && s->ldst.blocked) s->st.ldst_fail_cycles += slept;
    if (s->resident) s->st.active_cycles += slept;
}

void sm_flush_stats(sm *s, uint64_t now) {
    account_sleep(s, now + 1);
    live_account(s, now + 1);
    if (s->have_last && now > s->last_cycle) s->last_cycle = now;
}

void sm_cycle(sm *s, uint64_t now) {
    if (now < s->wake_at || !s->kernel_active || s->faulted) return;
    uint64_t skipped = s->have_last && now > s->last_cycle + 1 ? now - s->last_cycle - 1 : 0;
    account_sleep(s, now);
    s->have_last = 1;
    s->last_cycle = now;
    s->st.issue_slots += s->c.num_sched;
    if (s->resident) s->st.active_cycles++;
    if (s->c.sched->cycle) s->c.sched->cycle(s->sched_state, now, skipped);
    ldst_cycle(s, now);
    tw_advance(s, now);
    warp_mask load_ok = s->c.sched->load_permitted ? s->c.sched->load_permitted(s->sched_state, now) : ~(warp_mask)0;
    for (uint32_t i = 0; i < s->c.num_sched && !s->faulted; i++) {
        if (!(s->live_mask & s->sched_mask[i])) {
            s->stall_reason[i] = STALL_IDLE;
            s->st.stall[STALL_IDLE]++;
        } else if (now >= s->sched_next[i]) {
            schedule(s, i, now, load_ok);
        } else {
            s->st.stall[s->stall_reason[i]]++; /* nothing changed since the last look */
        }
    }
    s->wake_at = s->faulted ? NEVER : next_wake(s, now);
}
