/* The LD/ST unit of an SM: coalescing, shared-memory banks, the L1 data and
 * constant caches, memory slots (in-flight memory instructions) and the queue of
 * requests that bypass the L1.
 *
 * One warp memory instruction at a time occupies the unit (as in GPGPU-Sim):
 *  - shared memory: the unit is busy for the bank-conflict degree (cycles = the
 *    most distinct 4-byte words any of the 32 banks must deliver; lanes reading
 *    the same word are served by one broadcast; atomics serialise every lane of a
 *    bank); data visible smem_latency + degree - 1 cycles after issue.
 *  - ld.param of the kernel's own parameters: a constant-cache load of the
 *    parameter's offset + SM_PARAM_BASE (GPGPU-Sim sends param_space_kernel
 *    accesses through its constant cache too, so the first kernel on an SM waits
 *    for an L2/DRAM round trip); with -gpgpu_perfect_inst_const_cache they, and
 *    constant loads, take const_latency / param_latency and touch no cache.
 *    ld.param of a call sequence (registers on a GPU): param_latency.
 *  - global / local / const: the lanes' addresses are coalesced into one request
 *    per cache line touched (first-touch order of the lanes; sector mask of the
 *    32 B sectors used, so a sectored L1 fetches only those); the unit sends one
 *    request per cycle to the L1D / constant cache.  A reservation fail (no line,
 *    MSHR or miss-queue room) stalls the unit and the same request is retried the
 *    next cycle: nothing is dropped.  Loads complete when the last line's data is
 *    back (L1D hits after l1_latency; constant-cache hits after const_latency;
 *    misses one cycle after the fill).  An L1D miss leaves for the L2 no sooner
 *    than l1_latency cycles after its access (GPGPU-Sim's L1 latency queue
 *    delays hits and misses alike).
 *  - texture fetches (tex, tld4): one address per lane (its first texel, as
 *    GPGPU-Sim's tex_impl reports), coalesced per texture-cache line and sent to
 *    the per-SM texture cache (L1T: read-only, allocate on miss, never
 *    invalidated -- GPGPU-Sim's ldst_unit::invalidate flushes only the L1D), whose
 *    misses go through the interconnect to the L2 like any read.  Its F-type
 *    MSHR fields map onto the generic cache as texture_geometry() says.
 *    Surface loads and stores (suld / sust) are global accesses.
 *  - atomics, and global accesses when the L1D does not cache global data, bypass
 *    the L1: they wait in the bypass queue and go to the L2 (atomics execute there).
 *    Global stores through the L1 follow its write policy (write-evict /
 *    write-through); local ones are written back.
 *
 * Local memory: GPGPU-Sim interleaves local memory word by word across hardware
 * threads so that a warp's accesses to one local variable coalesce.  Here byte
 * `off` of the thread in hardware slot t (= warp slot x 32 + lane) of SM s maps to
 *   SM_LOCAL_BASE + (off / 4) x (4 x total_sms x max_threads)
 *                 + (s x max_threads + t) x 4 + off % 4
 * (an 8- or 16-byte local access is split into its words).  The same slot reuses
 * the same addresses across CTAs, like a hardware thread context.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sm_internal.h"

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

uint64_t sm_local_address(const sm_config *c, uint32_t sm_id, uint32_t slot, uint64_t offset) {
    uint64_t threads = (uint64_t)c->total_sms * c->max_threads;
    uint64_t thread = (uint64_t)sm_id * c->max_threads + slot;
    return SM_LOCAL_BASE + (offset / 4) * 4 * threads + thread * 4 + offset % 4;
}

/* ---- setup ---- */

static void on_l1_evict(void *ctx, const cache_line *line, const mem_req *cause) {
    (void)cause;
    sm *s = ctx;
    s->c.sched->l1_evict(s->sched_state, line->warp, line->line_addr, s->last_cycle);
}

static void on_l1_miss_victim(void *ctx, uint64_t line_addr, uint32_t owner, const mem_req *cause) {
    (void)cause;
    sm *s = ctx;
    s->c.sched->l1_miss_victim(s->sched_state, owner, line_addr, s->last_cycle);
}

/* GPGPU-Sim's texture cache string reuses the MSHR fields: "F:<fragment fifo>:
 * <request fifo>,<rob>[:<result fifo>]".  Its texture cache allocates a line at
 * the miss and lets later accesses to it wait in the in-order fragment FIFO; the
 * generic cache's equivalent is an MSHR entry per line in flight (the reorder
 * buffer's entries) that merges the later accesses (up to the fragment FIFO's
 * size), with the request FIFO as the miss queue.  What this leaves out: results
 * return when their own line arrives, not in FIFO order behind older misses
 * (docs/fidelity.md). */
static cache_geometry texture_geometry(const cache_geometry *t) {
    cache_geometry g = *t;
    if (g.mshr_kind == 'F' || g.mshr_kind == 'T') {
        g.mshr_kind = 'A';
        g.mshr_entries = t->miss_queue_size;    /* reorder buffer */
        g.mshr_max_merge = t->mshr_entries;     /* fragment FIFO */
        g.miss_queue_size = t->mshr_max_merge;  /* request FIFO */
    }
    g.write_global = g.write_local = CACHE_WRITE_READ_ONLY;
    return g;
}

int ldst_init(sm *s, char *err, size_t errlen) {
    char name[32], why[256];
    uint32_t max_warps = s->c.max_threads / s->c.warp_size;
    if (s->c.has_l1d) {
        snprintf(name, sizeof name, "L1D[%u]", s->id);
        cache_geometry dg = s->c.l1d;
        dg.local_base = SM_LOCAL_BASE;   /* sm_local_address's interleave, for local descriptors */
        dg.local_word_stride = sm_local_address(&s->c, 0, 0, 4) - SM_LOCAL_BASE;
        s->l1d = cache_create(&dg, name, why, sizeof why);
        if (!s->l1d) {
            snprintf(err, errlen, "-gpgpu_cache:dl1: %s", why);
            return -1;
        }
        if (s->c.sched->l1_evict) cache_set_evict_hook(s->l1d, on_l1_evict, s);
        if (s->c.sched->l1_miss_victim && cache_set_victim_hook(s->l1d, on_l1_miss_victim, s)) {
            snprintf(err, errlen, "%s: out of memory for the victim records", name);
            return -1;
        }
        if (s->c.l1d_access_analysis) {
            if (!(s->l1_trace = l1_trace_create(&s->c.l1d, why, sizeof why))) {
                snprintf(err, errlen, "-l1d_access_analysis: %s", why);
                return -1;
            }
            l1_trace_set_flushed(s->l1_trace, s->c.flush_l1);
        }
    }
    snprintf(name, sizeof name, "L1C[%u]", s->id);
    s->l1c = cache_create(&s->c.l1c, name, why, sizeof why);
    if (!s->l1c) {
        snprintf(err, errlen, "-gpgpu_const_cache:l1: %s", why);
        return -1;
    }
    snprintf(name, sizeof name, "L1T[%u]", s->id);
    cache_geometry tg = texture_geometry(&s->c.l1t);
    s->l1t = cache_create(&tg, name, why, sizeof why);
    if (!s->l1t) {
        snprintf(err, errlen, "-gpgpu_tex_cache:l1: %s", why);
        return -1;
    }
    if (!s->c.perfect_inst_const) {
        snprintf(name, sizeof name, "L1I[%u]", s->id);
        cache_geometry ig = s->c.l1i;
        ig.write_global = ig.write_local = CACHE_WRITE_READ_ONLY;
        s->l1i = cache_create(&ig, name, why, sizeof why);
        if (!s->l1i) {
            snprintf(err, errlen, "-gpgpu_cache:il1: %s", why);
            return -1;
        }
    }
    if (l0i_init(s, err, errlen)) return -1;
    s->woken_cap = cache_max_waiters(s->l1c);
    if (s->l1i && cache_max_waiters(s->l1i) > s->woken_cap) s->woken_cap = cache_max_waiters(s->l1i);
    if (s->l1d && cache_max_waiters(s->l1d) > s->woken_cap) s->woken_cap = cache_max_waiters(s->l1d);
    if (cache_max_waiters(s->l1t) > s->woken_cap) s->woken_cap = cache_max_waiters(s->l1t);
    s->woken = calloc(s->woken_cap, sizeof *s->woken);
    s->bypass.cap = s->c.bypass_queue ? s->c.bypass_queue : 8;
    s->bypass.q = calloc(s->bypass.cap, sizeof *s->bypass.q);
    s->nslots = max_warps * (s->c.load_slots_per_warp ? s->c.load_slots_per_warp : 1);
    s->slots = calloc(s->nslots, sizeof *s->slots);
    if (!s->woken || !s->bypass.q || !s->slots) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

void ldst_free(sm *s) {
    l1_trace_destroy(s->l1_trace);
    cache_destroy(s->l1d);
    cache_destroy(s->l1c);
    cache_destroy(s->l1t);
    cache_destroy(s->l1i);
    l0i_free(s);
    free(s->woken);
    free(s->bypass.q);
    free(s->slots);
}

void ldst_kernel_begin(sm *s) {
    if (s->l1d && s->c.flush_l1) cache_invalidate_all(s->l1d);
    memset(&s->ldst, 0, sizeof s->ldst);
    /* A free slot is read only for `used` (a stray reply); ldst_slot_alloc
     * clears the rest, so clearing every slot whole here would be wasted. */
    for (uint32_t i = 0; i < s->nslots; i++) {
        s->slots[i].used = 0;
        s->slots[i].next_free = i + 1 < s->nslots ? (int32_t)(i + 1) : -1;
    }
    s->free_slot = 0;
}

int32_t ldst_slot_alloc(sm *s, uint32_t w) {
    int32_t i = s->free_slot;
    if (i < 0) return -1;
    mem_slot *m = &s->slots[i];
    s->free_slot = m->next_free;
    memset(m, 0, sizeof *m);
    m->used = 1;
    m->warp = w;
    return i;
}

int ldst_can_accept(const sm *s, uint32_t w, uint64_t now) {
    return !s->ldst.busy && s->ldst.free_at <= now && s->free_slot >= 0 &&
           s->warps[w].mem_pending < s->c.load_slots_per_warp;
}

uint64_t ldst_next_work(const sm *s, uint64_t now) {
    if ((s->ldst.busy && !s->ldst.blocked) || s->bypass.len || cache_miss_queue_length(s->l1c) ||
        cache_miss_queue_length(s->l1t) || l0i_has_work(s))
        return now + 1;
    uint64_t t = UINT64_MAX;
    const mem_req *r = s->l1d ? cache_miss_queue_peek(s->l1d) : NULL;
    if (r) t = r->issue_cycle + s->c.l1_latency;
    const mem_req *i = s->l1i ? cache_miss_queue_peek(s->l1i) : NULL;
    if (i && i->issue_cycle < t) t = i->issue_cycle; /* a fetch miss leaves at its fetch cycle */
    if (t == UINT64_MAX) return t;
    return t > now + 1 ? t : now + 1;
}

int ldst_has_work(const sm *s) {
    return (s->ldst.busy && !s->ldst.blocked) || s->bypass.len || (s->l1d && cache_miss_queue_length(s->l1d)) ||
           cache_miss_queue_length(s->l1c) || cache_miss_queue_length(s->l1t) ||
           (s->l1i && cache_miss_queue_length(s->l1i)) || l0i_has_work(s);
}

/* ---- completion ---- */

/* A cp.async's copies have all returned: its slot leaves the warp's list. */
static void cpa_done(sm_warp *W, uint32_t slot) {
    for (uint32_t k = 0; k < W->ncpa; k++)
        if (W->cpa_slot[k] == slot) {
            W->cpa_slot[k] = W->cpa_slot[--W->ncpa];
            return;
        }
}

/* ---- latency tolerance (sigma, docs/wsmp.md) ---- */

static void sigma_update(sm *s, uint32_t w) {
    uint32_t waiting = (uint32_t)__builtin_popcount(s->wait_lanes[w]);
    s->sigma[w] = (uint8_t)((32 - waiting) * 100 / 32);
}

/* Lanes of slot m's access missed: they wait until the slot's data is back. */
static void sigma_wait(sm *s, mem_slot *m, uint32_t lanes) {
    uint32_t fresh = lanes & ~m->miss_lanes;
    if (!fresh) return;
    m->miss_lanes |= fresh;
    for (uint32_t b = fresh; b; b &= b - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(b);
        if (s->lane_wait[m->warp][lane]++ == 0) s->wait_lanes[m->warp] |= 1u << lane;
    }
    sigma_update(s, m->warp);
}

static void sigma_release(sm *s, mem_slot *m) {
    for (uint32_t b = m->miss_lanes; b; b &= b - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(b);
        if (--s->lane_wait[m->warp][lane] == 0) s->wait_lanes[m->warp] &= ~(1u << lane);
    }
    m->miss_lanes = 0;
    sigma_update(s, m->warp);
}

/* An instruction's requests carry one sigma, taken once (paper 3.4 and 3.5:
 * a warp's tolerance is sensed from the threads that failed to find their
 * data in the cache, and the warp enters one MFQ queue; docs/wsmp.md).  It is
 * taken when the L1 has looked up the instruction's last access, so that all
 * its missing lanes count, or earlier if one of its requests must leave
 * before then (the L1 latency is shorter than its lookups, or refusals
 * stretched them): then the lanes not looked up yet count as waiting too,
 * which they are.  Its requests made so far carry SIGMA_PENDING and are
 * amended where they wait; the later ones are stamped at creation. */
#define SIGMA_PENDING 0xFF

static int pending_mine(const mem_req *r, uint64_t tag) { return r->tag == tag && r->sigma == SIGMA_PENDING; }

static void sigma_fix(sm *s) {
    ldst_unit *u = &s->ldst;
    uint32_t lanes = s->wait_lanes[u->warp];
    for (uint32_t i = u->next; i < u->naccess; i++) lanes |= u->acc[i].lanes;
    u->sigma = (uint8_t)((32 - (uint32_t)__builtin_popcount(lanes)) * 100 / 32);
    u->sigma_fixed = 1;
    uint64_t tag = ((uint64_t)u->target << TAG_TARGET_SHIFT) | u->slot;
    if (u->target == TARGET_BYPASS) {
        for (uint32_t i = 0; i < s->bypass.len; i++) {
            mem_req *r = &s->bypass.q[(s->bypass.head + i) % s->bypass.cap];
            if (pending_mine(r, tag)) r->sigma = u->sigma;
        }
        return;
    }
    cache *c = u->target == TARGET_L1D ? s->l1d : u->target == TARGET_L1C ? s->l1c : s->l1t;
    mem_req *r;
    for (uint32_t i = 0; (r = cache_miss_queue_at(c, i)); i++)
        if (pending_mine(r, tag)) r->sigma = u->sigma;
}

static void slot_maybe_done(sm *s, uint32_t i, uint64_t now) {
    mem_slot *m = &s->slots[i];
    if (!m->all_sent || m->outstanding) return;
    if (m->miss_lanes) sigma_release(s, m);
    sm_warp *W = &s->warps[m->warp];
    uint64_t t = max_u64(m->data_ready, now + 1);
    uint32_t rel = sb_rel(s, t, now);
    for (uint32_t d = 0; d < m->ndst; d++) W->reg_ready[m->dst[d]] = rel;
    W->sb_max = max_u64(W->sb_max, t);
    sm_mem_pending_set(s, m->warp, W->mem_pending - 1);
    if (m->cpa) {
        cpa_done(W, i);
        if (W->nmbar) sm_mbar_progress(s, m->warp, now);
    }
    uint32_t cta_slot = W->cta_slot;
    s->ctas[cta_slot].inflight--;
    m->used = 0;
    m->next_free = s->free_slot;
    s->free_slot = (int32_t)i;
    if (W->next && (W->wait_mem || W->drain)) sm_warp_recheck(s, m->warp);
    sm_poke(s, now);
    sm_cta_check_retire(s, cta_slot, now);
}

/* n answers for slot `tag`: 1 per woken cache request; a bypass request is
 * counted in sectors, since a sectored L2 answers each sector apart. */
static void slot_answered(sm *s, uint64_t tag, uint32_t n, uint64_t now) {
    uint64_t i = tag & TAG_SLOT_MASK;
    if (i >= s->nslots || !s->slots[i].used || s->slots[i].outstanding < n) return; /* not ours: ignore */
    s->slots[i].outstanding -= n;
    slot_maybe_done(s, (uint32_t)i, now);
}

static cache *target_cache(sm *s, uint32_t target) {
    switch (target) {
    case TARGET_L1D: return s->l1d;
    case TARGET_L1C: return s->l1c;
    case TARGET_L1T: return s->l1t;
    case TARGET_L1I:
    case TARGET_L0I: return s->l1i; /* an L1I miss an L0's miss made carries the L0's tag */
    default: return NULL;
    }
}

/* A sector of a normal L1 line whose other sectors are still on their way
 * (a sectored L2 answers per sector): the fill only notes it, and is made here.
 * Nothing an access or a warp waits for has changed, so the SM is neither woken
 * nor its refused access retried (the retry would fail for the same reason). */
static bool partial_fill(sm *s, const mem_req *reply) {
    if (mem_access_is_write(reply->type) && !(reply->flags & MEM_REQ_ATOMIC)) return false;
    cache *c = target_cache(s, (uint32_t)(reply->tag >> TAG_TARGET_SHIFT));
    return c && cache_fill_partial(c, reply);
}

static void note_latency(sm *s, const mem_req *reply, uint64_t now) {
    uint64_t lat = now > reply->issue_cycle ? now - reply->issue_cycle : 0;
    s->st.mem_latency_sum += lat;
    s->st.mem_latency_n++;
    if (lat > s->st.mem_latency_max) s->st.mem_latency_max = lat;
}

void sm_receive(sm *s, const mem_req *reply, uint64_t now) {
    s->st.replies_in++;
    bool demand = !(reply->flags & MEM_REQ_PREFETCH);   /* a prefetch's fill: nobody waited for it */
    if (partial_fill(s, reply)) {   /* the fill is made */
        if (demand) note_latency(s, reply, now);
        return;
    }
    sm_poke(s, now);
    if (s->ldst.blocked && s->have_last && now > s->last_cycle + 1)
        s->st.ldst_fail_cycles += now - s->last_cycle - 1; /* the cycles it slept blocked */
    s->ldst.blocked = 0; /* a fill may free what the refused access needed */
    if (mem_access_is_write(reply->type) && !(reply->flags & MEM_REQ_ATOMIC)) return; /* write ack */
    if (demand) note_latency(s, reply, now);
    uint32_t target = (uint32_t)(reply->tag >> TAG_TARGET_SHIFT);
    if (target == TARGET_BYPASS) {
        slot_answered(s, reply->tag, mem_sector_count(reply->sector_mask), now);
        return;
    }
    cache *c = target_cache(s, target);
    if (!c) return;
    int n = cache_fill(c, reply, now, s->woken, s->woken_cap);
    if (target == TARGET_L1I || target == TARGET_L0I) {
        for (int i = 0; i < n; i++) {
            const mem_req *r = &s->woken[i];
            if (r->tag >> TAG_TARGET_SHIFT == TARGET_L0I) l0i_filled(s, r, now); /* an L0's miss */
            else sm_ifetch_filled(s, (uint32_t)(r->tag & TAG_SLOT_MASK), now);
        }
        if (s->iretry) sm_ifetch_retry(s, now); /* the fill freed an MSHR entry */
        return;
    }
    for (int i = 0; i < n; i++)
        if (!mem_access_is_write(s->woken[i].type)) slot_answered(s, s->woken[i].tag, 1, now);
}

/* ---- issue ---- */

/* The common case first, for one word per lane with a power-of-two width and
 * bank count (every shipped config): no bank is asked for two distinct words
 * (each lane its own bank, or lanes sharing a word by broadcast), so the
 * degree is 1.  0 when some bank sees a second word: bank_degree then counts
 * exactly. */
static uint32_t bank_degree_if_free(const exec_step_info *info, uint32_t banks, uint32_t wsh) {
    uint32_t first[64], bmask = banks - 1;
    uint64_t seen = 0;
    if (banks >= EXEC_WARP_SIZE && info->mem_mask) {
        /* lane l at word w0 + l (a[threadIdx.x]): 32 consecutive words
         * fall in distinct banks when there are at least 32 */
        uint32_t lane0 = (uint32_t)__builtin_ctz(info->mem_mask), odd = 0;
        uint64_t w0 = (info->mem_addr[lane0] >> wsh) - lane0;
        for (uint32_t m = info->mem_mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            odd |= (info->mem_addr[lane] >> wsh) != w0 + lane;
        }
        if (!odd) return 1;
    }
    for (uint32_t m = info->mem_mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint32_t word = (uint32_t)(info->mem_addr[lane] >> wsh), b = word & bmask;
        if (!(seen & (1ull << b))) {
            seen |= 1ull << b;
            first[b] = word;
        } else if (first[b] != word) {
            return 0;
        }
    }
    return 1;
}

/* Bank-conflict degree of a shared-memory warp access (smem_banks banks of
 * bank_width bytes; 0 means the defaults, 32 and 4): the most words any one
 * bank is asked for, counting each distinct word once (a broadcast), or every
 * word for an atomic.  The words are each active lane's nw consecutive words,
 * lanes in ascending order, the first LDST_MAX_ACCESS of them.  Each bank keeps
 * a chain of the distinct words it was asked for, so a word is compared only
 * with its own bank's (speed only: this used to sort all the words). */
uint32_t ldst_bank_degree(uint32_t smem_banks, uint32_t bank_width, const exec_step_info *info) {
    uint32_t banks = smem_banks && smem_banks <= 64 ? smem_banks : 32;
    uint32_t width = bank_width ? bank_width : 4;
    uint32_t nw = info->mem_size > width ? info->mem_size / width : 1;
    int pow2 = !(width & (width - 1)) && !(banks & (banks - 1));
    uint32_t wsh = (uint32_t)__builtin_ctz(width), bmask = banks - 1;
    int atomic = info->mem_is_atomic;
    if (!atomic && nw == 1 && pow2 && bank_degree_if_free(info, banks, wsh)) return 1;
    uint32_t lw[EXEC_WARP_SIZE], nl = 0; /* each active lane's first word */
    if (pow2)
        for (uint32_t m = info->mem_mask; m; m &= m - 1) lw[nl++] = (uint32_t)(info->mem_addr[__builtin_ctz(m)] >> wsh);
    else
        for (uint32_t m = info->mem_mask; m; m &= m - 1) lw[nl++] = (uint32_t)(info->mem_addr[__builtin_ctz(m)] / width);
    uint32_t words[LDST_MAX_ACCESS], n = 0, degree = 1;
    uint8_t head[64], next[LDST_MAX_ACCESS], count[64] = {0};
    memset(head, 0xff, sizeof head);
    for (uint32_t l = 0; l < nl && n < LDST_MAX_ACCESS; l++) {
        uint32_t kmax = nw < LDST_MAX_ACCESS - n ? nw : LDST_MAX_ACCESS - n;
        if (!atomic && l && lw[l] == lw[l - 1]) { /* the previous lane's words again: all served already */
            n += kmax;
            continue;
        }
        for (uint32_t k = 0; k < kmax; k++, n++) {
            uint32_t word = lw[l] + k, b = word & bmask;
            if (!pow2) b = word % banks;
            if (!atomic) {
                uint32_t i = head[b];
                while (i != 0xff && words[i] != word) i = next[i];
                if (i != 0xff) continue; /* this bank already serves the word */
            }
            words[n] = word;
            next[n] = head[b];
            head[b] = (uint8_t)n;
            if (++count[b] > degree) degree = count[b];
        }
    }
    return degree;
}

/* The accesses of one instruction by line address: an open-addressed table of
 * access index + 1 (0: empty), so that a scattered warp does not compare every
 * lane with every line found before it.  The accesses keep the order in which
 * their lines first appear. */
#define ACCESS_INDEX_SIZE (2 * LDST_MAX_ACCESS)
typedef struct {
    uint8_t slot[ACCESS_INDEX_SIZE];
} access_index;

_Static_assert(LDST_MAX_ACCESS < 256 && (ACCESS_INDEX_SIZE & (ACCESS_INDEX_SIZE - 1)) == 0,
               "access_index holds index + 1 in a byte and wraps with a mask");

static uint32_t access_hash(uint64_t base) {
    return (uint32_t)((base * 0x9E3779B97F4A7C15ull) >> 32) & (ACCESS_INDEX_SIZE - 1);
}

/* Returns the access that holds the line of addr. */
static ldst_access *add_access(ldst_unit *u, access_index *x, uint64_t addr, uint32_t bytes, uint32_t line,
                               uint32_t lane) {
    uint64_t base = addr & ~(uint64_t)(line - 1);
    uint8_t sectors = mem_sector_mask(addr, bytes, line);
    uint32_t h = access_hash(base);
    for (; x->slot[h]; h = (h + 1) & (ACCESS_INDEX_SIZE - 1)) {
        ldst_access *a = &u->acc[x->slot[h] - 1];
        if (a->addr == base) {
            a->sectors |= sectors;
            a->bytes = (uint16_t)(a->bytes + bytes);
            a->lanes |= 1u << lane;
            return a;
        }
    }
    if (u->naccess >= LDST_MAX_ACCESS) return NULL; /* cannot happen: 32 lanes x 4 words */
    x->slot[h] = (uint8_t)(u->naccess + 1);
    ldst_access *a = &u->acc[u->naccess++];
    a->addr = base;
    a->bytes = (uint16_t)bytes;
    a->sectors = sectors;
    a->lanes = 1u << lane;
    return a;
}

/* Global, constant, parameter and texture accesses: one address per lane.
 * Neighbouring lanes nearly always fall in the same line (a kernel
 * parameter's 32 lanes even at the same address), so a run of lanes in one
 * line is gathered in locals and added to that line's access once, which is
 * what add_access would do lane by lane (speed only). */
static void coalesce_lanes(ldst_unit *u, access_index *x, const exec_step_info *info, uint64_t base, uint32_t line) {
    uint64_t lmask = ~(uint64_t)(line - 1), prev = 0, run_base = 0;
    uint32_t size = info->mem_size, run_bytes = 0, run_lanes = 0;
    uint8_t run_sectors = 0;
    ldst_access *run = NULL; /* the access of the current run's line */
    for (uint32_t m = info->mem_mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint64_t addr = base + info->mem_addr[lane];
        if (run && (addr & lmask) == run_base) {
            if (addr != prev) run_sectors |= mem_sector_mask(addr, size, line);
            run_bytes += size;
            run_lanes |= 1u << lane;
        } else {
            if (run) {
                run->sectors |= run_sectors;
                run->bytes = (uint16_t)(run->bytes + run_bytes);
                run->lanes |= run_lanes;
            }
            run = add_access(u, x, addr, size, line, lane);
            run_base = addr & lmask;
            run_sectors = 0;
            run_bytes = run_lanes = 0;
        }
        prev = addr;
    }
    if (run) {
        run->sectors |= run_sectors;
        run->bytes = (uint16_t)(run->bytes + run_bytes);
        run->lanes |= run_lanes;
    }
}

static void coalesce(sm *s, uint32_t w, const exec_step_info *info, int local, uint64_t base, uint32_t line) {
    ldst_unit *u = &s->ldst;
    access_index x = {{0}};
    u->naccess = 0;
    if (!local) {
        coalesce_lanes(u, &x, info, base, line);
        return;
    }
    for (uint32_t m = info->mem_mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint32_t words = info->mem_size > 4 ? info->mem_size / 4 : 1;
        for (uint32_t k = 0; k < words; k++) {
            uint64_t a = sm_local_address(&s->c, s->id, w * EXEC_WARP_SIZE + lane, info->mem_addr[lane] + 4 * k);
            add_access(u, &x, a, info->mem_size < 4 ? info->mem_size : 4, line, lane);
        }
    }
}

/* Destination registers of a load into the slot; they wait for the data. */
static void pend_dests(sm_warp *W, mem_slot *m, const ptx_insn *in) {
    for (uint32_t i = 0; i < in->ndst && i < in->nopnd; i++) {
        const ptx_operand *o = &in->opnd[i];
        if (o->kind == PTX_OPND_REG && m->ndst < SLOT_MAX_DST) {
            m->dst[m->ndst++] = o->reg;
        } else if (o->kind == PTX_OPND_VEC) {
            for (uint32_t e = 0; e < o->comp && e < PTX_VEC_MAX; e++)
                if (ptx_vec_elem_is_reg(o, e) && m->ndst < SLOT_MAX_DST) m->dst[m->ndst++] = o->vec[e];
        }
    }
    for (uint32_t d = 0; d < m->ndst; d++) W->reg_ready[m->dst[d]] = SB_REL_PENDING;
}

static void dests_ready_at(sm *s, sm_warp *W, const ptx_insn *in, uint64_t t, uint64_t now) {
    mem_slot tmp = {0};
    pend_dests(W, &tmp, in);
    uint32_t rel = sb_rel(s, t, now);
    for (uint32_t d = 0; d < tmp.ndst; d++) W->reg_ready[tmp.dst[d]] = rel;
    if (t > W->sb_max) W->sb_max = t;
}

void ldst_issue(sm *s, uint32_t w, const exec_step_info *info, uint64_t now) {
    sm_warp *W = &s->warps[w];
    const ptx_insn *in = info->insn;
    ldst_unit *u = &s->ldst;
    uint32_t space = info->mem_space;
    if (space == PTX_SPACE_NONE || !info->mem_mask) {
        dests_ready_at(s, W, in, now + 1, now);  /* guarded off, or a prefetch: nothing to wait for */
        return;
    }
    if (space == PTX_SPACE_SHARED) {
        uint32_t degree = ldst_bank_degree(s->c.smem_banks, s->c.smem_bank_width, info);
        s->st.smem_insns++;
        s->st.smem_conflict_cycles += degree - 1;
        if (info->mem_is_store) s->st.smem_write_passes += degree;
        else s->st.smem_read_passes += degree;
        u->free_at = now + degree;
        dests_ready_at(s, W, in, now + s->c.smem_latency + degree - 1, now);
        return;
    }
    int kparam = space == PTX_SPACE_PARAM && info->mem_is_kparam && !info->mem_is_store && !s->c.perfect_inst_const;
    if (space == PTX_SPACE_PARAM && !kparam) {
        dests_ready_at(s, W, in, now + s->c.param_latency, now);
        return;
    }
    if (space == PTX_SPACE_CONST && s->c.perfect_inst_const && !info->mem_is_store) {
        s->st.const_insns++;
        dests_ready_at(s, W, in, now + s->c.const_latency, now);
        return;
    }
    int32_t slot = ldst_slot_alloc(s, w);
    if (slot < 0) { /* ldst_can_accept guarantees a slot; be safe anyway */
        dests_ready_at(s, W, in, now + 1, now);
        return;
    }
    mem_slot *m = &s->slots[slot];
    if (in->op == PTX_OP_CP_ASYNC) { /* its group's waits wait for this slot (sm.c) */
        m->cpa = 1;
        m->cpa_group = W->cpa_committed;
        m->cpa_seq = W->cpa_issued++;
        W->cpa_slot[W->ncpa++] = (uint16_t)slot;
    }
    int is_write = info->mem_is_store && !info->mem_is_atomic;
    if (!is_write) pend_dests(W, m, in);
    int local = space == PTX_SPACE_LOCAL;
    u->atomic = info->mem_is_atomic;
    if (info->mem_is_texture) {
        u->target = TARGET_L1T;
        u->type = MEM_TEXTURE_ACC_R;
        s->st.tex_insns++;
    } else if (space == PTX_SPACE_CONST) {
        u->target = TARGET_L1C;
        u->type = MEM_CONST_ACC_R;
        s->st.const_insns++;
    } else if (kparam) {
        u->target = TARGET_L1C;
        u->type = MEM_CONST_ACC_R;
        s->st.param_insns++;
    } else {
        u->type = local ? (is_write ? MEM_LOCAL_ACC_W : MEM_LOCAL_ACC_R) : (is_write ? MEM_GLOBAL_ACC_W : MEM_GLOBAL_ACC_R);
        u->target = s->l1d && !u->atomic && (local || s->c.l1d_global) ? TARGET_L1D : TARGET_BYPASS;
        s->st.gmem_insns++;
    }
    uint32_t line = u->target == TARGET_L1D ? s->c.l1d.line_size
                  : u->target == TARGET_L1C ? s->c.l1c.line_size
                  : u->target == TARGET_L1T ? s->c.l1t.line_size
                                            : s->c.coalesce_line;
    coalesce(s, w, info, local, kparam ? SM_PARAM_BASE : 0, line);
    u->busy = u->naccess > 0;
    u->warp = w;
    u->slot = (uint32_t)slot;
    u->pc = info->pc;
    u->next = 0;
    u->sigma_fixed = 0;
    sm_mem_pending_set(s, w, W->mem_pending + 1);
    s->ctas[W->cta_slot].inflight++;
    if (!u->busy) {
        m->all_sent = 1;
        slot_maybe_done(s, (uint32_t)slot, now);
    }
}

/* ---- per cycle ---- */

static const mem_req *bypass_peek(const req_ring *r) { return r->len ? &r->q[r->head] : NULL; }

static void bypass_pop(req_ring *r) {
    r->head = (r->head + 1) % r->cap;
    r->len--;
}

/* The L1D's oldest request for below, once its L1 latency has passed: as in
 * GPGPU-Sim's L1 latency queue, a miss reaches the miss queue l1_latency cycles
 * after the access, as a hit's data does. */
static const mem_req *l1d_out_peek(const sm *s, uint64_t now) {
    const mem_req *r = s->l1d ? cache_miss_queue_peek(s->l1d) : NULL;
    return r && r->issue_cycle + s->c.l1_latency <= now ? r : NULL;
}

/* The instruction cache's oldest miss, once its fetch cycle has come: it goes
 * to the interconnect beside the LD/ST unit's request (GPGPU-Sim's fetch stage
 * sends its misses itself). */
static void send_inst(sm *s, uint64_t now) {
    const mem_req *r = cache_miss_queue_peek(s->l1i);
    if (!r || r->issue_cycle > now || !s->send(s->port_ctx, s->id, r)) return;
    cache_miss_queue_pop(s->l1i);
    s->st.requests_out++;
    if (s->iretry) sm_ifetch_retry(s, now); /* miss-queue room */
}

/* Move at most one request towards the interconnect, round-robin over the L1D,
 * the constant cache, the bypass queue and the texture cache. */
static void send_one(sm *s, uint64_t now) {
    if (!s->send) return;
    if (s->l1i) send_inst(s, now);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t src = (s->out_rr + i) % 4;
        const mem_req *r = src == 0 ? l1d_out_peek(s, now)
                         : src == 1 ? cache_miss_queue_peek(s->l1c)
                         : src == 2 ? bypass_peek(&s->bypass)
                                    : cache_miss_queue_peek(s->l1t);
        if (!r) continue;
        mem_req stamped;
        if (s->c.track_sigma && r->sigma == SIGMA_PENDING) {
            const ldst_unit *u = &s->ldst;
            if (u->busy && !u->sigma_fixed && r->tag == (((uint64_t)u->target << TAG_TARGET_SHIFT) | u->slot)) {
                sigma_fix(s);      /* its instruction's first request to leave: amends r too */
            } else {               /* not from the unit's instruction (a copy a cache made): the warp's now */
                stamped = *r;
                stamped.sigma = s->sigma[stamped.warp < SCHED_MAX_WARPS ? stamped.warp : 0];
                r = &stamped;
            }
        }
        if (!s->send(s->port_ctx, s->id, r)) return;  /* interconnect full: retry next cycle */
        if (src == 0) cache_miss_queue_pop(s->l1d);
        else if (src == 1) cache_miss_queue_pop(s->l1c);
        else if (src == 2) bypass_pop(&s->bypass);
        else cache_miss_queue_pop(s->l1t);
        s->ldst.blocked = 0; /* queue room may be what the refused access needed */
        s->st.requests_out++;
        s->out_rr = src + 1;
        return;
    }
}

static mem_req make_request(const sm *s, const ldst_unit *u, const ldst_access *a, uint64_t now) {
    mem_req r;
    memset(&r, 0, sizeof r);
    int is_write = mem_access_is_write(u->type);
    r.addr = a->addr;
    r.tag = ((uint64_t)u->target << TAG_TARGET_SHIFT) | u->slot;
    r.issue_cycle = now;
    r.pc = u->pc;
    r.sector_mask = a->sectors;
    r.size = (uint16_t)(is_write ? a->bytes : mem_sector_count(a->sectors) * MEM_SECTOR_SIZE);
    r.sm = (uint16_t)s->id;
    r.warp = (uint16_t)u->warp;
    r.sigma = !s->c.track_sigma ? s->sigma[u->warp] : u->sigma_fixed ? u->sigma : SIGMA_PENDING;
    r.type = u->type;
    r.flags = u->atomic ? MEM_REQ_ATOMIC : 0;
    return r;
}

/* L1D access-stream analysis: the warp is named by its CTA and index in the CTA,
 * so a new CTA in the same warp slot counts as another warp. */
static void record_l1_access(sm *s, const ldst_unit *u, uint64_t line, cache_outcome o) {
    const sm_warp *W = &s->warps[u->warp];
    uint32_t warp = (uint32_t)(s->ctas[W->cta_slot].linear * s->k.occ.warps + W->index);
    unsigned flags = (mem_access_is_write(u->type) ? L1T_WRITE : 0) | (mem_access_is_local(u->type) ? L1T_LOCAL : 0);
    l1_trace_record(s->l1_trace, line, warp, u->acc[u->next].lanes, flags, o);
}

/* Send the unit's next access; 0 if it could not be accepted (retry later). */
static int send_access(sm *s, ldst_unit *u, uint64_t now) {
    mem_req r = make_request(s, u, &u->acc[u->next], now);
    mem_slot *m = &s->slots[u->slot];
    int expects_data = !mem_access_is_write(r.type) || u->atomic;
    if (u->target == TARGET_BYPASS) {
        if (s->bypass.len == s->bypass.cap) return 0;
        s->bypass.q[(s->bypass.head + s->bypass.len) % s->bypass.cap] = r;
        s->bypass.len++;
        s->st.bypass_requests++;
        if (expects_data) m->outstanding += mem_sector_count(r.sector_mask);
        if (expects_data && s->c.track_sigma) sigma_wait(s, m, u->acc[u->next].lanes);
        return 1;
    }
    cache *c = u->target == TARGET_L1D ? s->l1d : u->target == TARGET_L1C ? s->l1c : s->l1t;
    cache_fail_reason why;
    cache_outcome o = cache_access(c, &r, now, &why);
    /* CCWS (authors' code): a global write takes its line out of every warp's
     * victim tags, whatever the cache answered, a refused attempt included */
    if (u->target == TARGET_L1D && r.type == MEM_GLOBAL_ACC_W && s->c.sched->l1_global_write)
        s->c.sched->l1_global_write(s->sched_state, u->warp, r.addr / cache_geom(c)->line_size, now);
    if (o == CACHE_RESERVATION_FAIL) return 0;
    if (expects_data) {
        if (o == CACHE_HIT)
            m->data_ready = max_u64(m->data_ready, now + (c == s->l1d ? s->c.l1_latency : s->c.const_latency));
        else m->outstanding++;
        if (o != CACHE_HIT && s->c.track_sigma) sigma_wait(s, m, u->acc[u->next].lanes);
    }
    if (u->target == TARGET_L1D) {
        uint64_t line = r.addr / cache_geom(c)->line_size;
        if (s->l1_trace) record_l1_access(s, u, line, o);
        /* Lost-locality probes (CCWS) are for reads (a write needs no data back):
         * misses and pending hits, which the policy may ignore */
        if ((o == CACHE_MISS || o == CACHE_HIT_RESERVED) && !mem_access_is_write(r.type) && s->c.sched->l1_miss)
            s->c.sched->l1_miss(s->sched_state, u->warp, line, o == CACHE_HIT_RESERVED, now);
        if ((o == CACHE_HIT || o == CACHE_MISS) && s->c.sched->l1_access)
            s->c.sched->l1_access(s->sched_state, u->warp, o == CACHE_HIT, now);
    }
    return 1;
}

/* ---- L1D banks (-gpgpu_l1_banks) ----
 *
 * GPGPU-Sim 4.x (ldst_unit::process_memory_access_queue_l1cache) moves up to
 * -gpgpu_l1_banks accesses a cycle from the instruction's access queue into
 * per-bank latency queues, one per bank per cycle, and stops at the first
 * access whose bank is already taken (a bank conflict, counted in
 * gpgpu_n_l1cache_bkconflict).  On a sectored L1 its accesses are single 32 B
 * sectors (coalescing with 32 B segments, Maxwell and later); ours are lines
 * with a sector mask, so a line access takes the bank of each sector it
 * touches, a bank a cycle per sector, and goes only when all are free (a line
 * whose sectors share a bank holds it one cycle per sector).  On a normal L1
 * its access is one (possibly reduced: 64 or 32 B) segment, so a line access
 * takes one bank, that of the segment's first byte.  With one bank this is one
 * access a cycle on a normal L1, as before banks existed.
 */
typedef struct {
    uint32_t n;
    uint8_t bank[4], cycles[4];
} bank_need;

static uint32_t l1_bank_of(const sm_config *c, uint64_t addr) {
    uint64_t i = addr >> c->l1_bank_shift;
    uint32_t mask = c->l1_banks - 1, b = (uint32_t)i & mask;
    if (c->l1_bank_xor) b ^= (uint32_t)(i >> __builtin_ctz(c->l1_banks)) & mask; /* GPGPU-Sim's bitwise hash */
    return b;
}

static void need_bank(bank_need *nd, uint32_t b) {
    for (uint32_t k = 0; k < nd->n; k++)
        if (nd->bank[k] == b) {
            nd->cycles[k]++;
            return;
        }
    nd->bank[nd->n] = (uint8_t)b;
    nd->cycles[nd->n++] = 1;
}

static bank_need l1_banks_needed(const sm *s, const ldst_access *a) {
    bank_need nd = {0};
    uint32_t m = a->sectors ? a->sectors : 1;
    if (s->c.l1d.sectored) {
        for (; m; m &= m - 1) need_bank(&nd, l1_bank_of(&s->c, a->addr + MEM_SECTOR_SIZE * (uint32_t)__builtin_ctz(m)));
        return nd;
    }
    /* GPGPU-Sim's reduced segment: the whole line when both halves are used, else the used half, else the one sector */
    uint32_t first = (uint32_t)__builtin_ctz(m), last = 31u - (uint32_t)__builtin_clz(m);
    uint32_t sector = first < 2 && last >= 2 ? 0 : first == last ? first : first & ~1u;
    need_bank(&nd, l1_bank_of(&s->c, a->addr + MEM_SECTOR_SIZE * sector));
    return nd;
}

static int l1_banks_free(const ldst_unit *u, const bank_need *nd, uint64_t now) {
    for (uint32_t k = 0; k < nd->n; k++)
        if (u->bank_free_at[nd->bank[k]] > now) return 0;
    return 1;
}

static void l1_banks_take(ldst_unit *u, const bank_need *nd, uint64_t now) {
    for (uint32_t k = 0; k < nd->n; k++) u->bank_free_at[nd->bank[k]] = now + nd->cycles[k];
}

/* A refused access is retried every cycle, as in GPGPU-Sim, but only tried
 * again in the cache once a fill or a miss-queue pop has changed its state:
 * before that the outcome cannot differ (the cache's answer depends only on its
 * lines, MSHRs and queue), so the timing is the same and the SM can sleep.  The
 * cache counts the attempts it saw (L1D_total_cache_reservation_fails);
 * ldst_reservation_fail_cycles counts every cycle the unit was held. */
void ldst_cycle(sm *s, uint64_t now) {
    if (s->l0i[0]) l0i_cycle(s, now);
    send_one(s, now);
    ldst_unit *u = &s->ldst;
    if (!u->busy) return;
    /* slots: bank accesses (sectors on a sectored L1) moved this cycle; GPGPU-Sim tries at most -gpgpu_l1_banks */
    for (uint32_t sent = 0, slots = 0;; sent++) {
        int banked = u->target == TARGET_L1D;
        bank_need nd = {0};
        if (banked) {
            if (slots >= s->c.l1_banks) return;
            nd = l1_banks_needed(s, &u->acc[u->next]);
            if (!l1_banks_free(u, &nd, now)) {
                s->st.l1_bank_conflict_cycles++;
                return;
            }
        } else if (sent) {
            return; /* the constant and texture caches and the bypass queue take one access a cycle */
        }
        if (u->blocked || !send_access(s, u, now)) {
            u->blocked = 1;
            s->st.ldst_fail_cycles++;
            return;
        }
        if (banked) {
            l1_banks_take(u, &nd, now);
            for (uint32_t k = 0; k < nd.n; k++) slots += nd.cycles[k];
        }
        s->st.gmem_requests++;
        if (++u->next == u->naccess) break;
    }
    u->busy = 0;
    if (s->c.track_sigma && !u->sigma_fixed) sigma_fix(s);  /* every missing lane known */
    sm_poke(s, now); /* the unit can take a new instruction this very cycle */
    s->slots[u->slot].all_sent = 1;
    slot_maybe_done(s, u->slot, now);
}

const cache *sm_l1d(const sm *s) { return s->l1d; }
int sm_set_l1d_ways(sm *s, uint32_t ways) { return s->l1d ? cache_set_active_ways(s->l1d, ways) : 0; }
const cache *sm_l1c(const sm *s) { return s->l1c; }
const cache *sm_l1i(const sm *s) { return s->l1i; }
const cache *sm_l1t(const sm *s) { return s->l1t; }
l1_trace *sm_l1_trace(const sm *s) { return s->l1_trace; }
