/* Memory partition: L2 slices + one DRAM channel (see partition.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/lineset.h"
#include "mem/partition.h"

/* A bounded FIFO of requests, each with the cycle from which it may leave
 * (kept beside the request: the head's time is read every cycle, its request
 * right after). */
typedef struct {
    mem_req req;
    uint64_t ready;
} timed_req;

/* The icnt->L2 queue holds a request for k > 1 sectors of a sectored L2 ONCE,
 * not as the k per-sector accesses it is (partition_push): those k accesses
 * have the same ready time and follow each other in the queue, so one entry
 * with `left[i]`, the sectors still to access (taken lowest first, one per
 * access, as the split took them), stands for them.  Slots are counted in
 * `used` (one per sector still queued), entries in `len`; the queue's room, its
 * order and its timing are those of the k entries.  The entry is the first
 * sector's access (sector_part); each later access changes only its address.
 * The line's request is then copied once instead of k times.  left[i] = 0: an
 * ordinary entry.  Other queues have no `left` and used = len. */
typedef struct {
    timed_req *e;
    uint8_t *left;                /* icnt->L2 queue only, per ring slot; else NULL */
    uint32_t cap, head, len;
    uint32_t used;                /* slots taken */
    /* The head's ready cycle, UINT64_MAX when empty: the checks made every L2
     * cycle (is a head ready, when is the earliest) read it here instead of in
     * the ring, a host cache line per queue further. */
    uint64_t head_ready;
} timed_queue;

typedef struct slice_id {
    const struct partition *p;
    uint32_t global;              /* channel x slices + slice */
} slice_id;

typedef struct {
    cache *l2;
    slice_id id;                  /* for the L2 prefetcher: which lines are this slice's */
    timed_queue q[PART_Q_COUNT];
    /* Requests from the other L2 half (cfg.far_latency > 0; never used, with
     * head_ready UINT64_MAX, otherwise): an icnt->L2 queue of their own, so that
     * a near request is not held behind a far one's longer delay. */
    timed_queue far;
    /* Prefetch candidates other slices handed over (cfg.prefetch_forward; else
     * empty, with head_ready UINT64_MAX): each request is the candidate's cause
     * with the candidate's address. */
    timed_queue fwd;
    bool miss_queued;             /* the L2's miss queue held something after its last cycle */
    mem_req *woken;               /* scratch for cache_fill (max_merge entries) */
    uint64_t seen_last;           /* line + 1 this slice last recorded in `seen` (0: none) */
    /* The L2 refused the head of the icnt->L2 queue and nothing has changed the
     * L2 since (no fill, no miss-queue pop: nothing else reaches it while the
     * head waits), with a pure policy (cache_fail_repeats): the retry is refused
     * for refused_why and only counted.  Cleared by a fill or a pop. */
    bool refused;
    uint8_t refused_why;          /* cache_fail_reason */
    const timed_queue *refused_in; /* the input queue whose head was refused */
} slice;

struct partition {
    partition_config cfg;
    const addrmap *am;
    partition_decode_fn decode;   /* NULL: addrmap_decode(am) (partition_set_decode) */
    const void *decode_ctx;
    uint32_t channel, nslices;
    slice *slices;
    dram *dram;
    uint32_t dram_rr;             /* slice to offer the DRAM first; advances every L2 cycle */
    uint64_t now;                 /* L2 cycles */
    /* Requests in the queues an L2 cycle works on (icnt->L2, L2->DRAM, DRAM->L2)
     * and whether a miss queue held anything after the last L2 cycle.  When both
     * are zero an L2 cycle has nothing to do but advance now and dram_rr. */
    uint32_t l2_work;
    bool miss_queued;
    /* No head of those three queues may leave before this L2 cycle (a lower
     * bound: pushes lower it, a full cycle recomputes it).  Until then a cycle
     * with no miss queued finds every head not ready, so it, too, only moves
     * now and dram_rr. */
    uint64_t next_work;
    uint32_t replies_queued;      /* requests in the L2->icnt queues of all slices */
    lineset *seen;                /* every line the L2 slices have been asked for */
    uint32_t line_shift;          /* log2 of the L2 line size: `seen` counts lines */
    partition_counters ctr;
};

static inline void part_decode(const partition *p, uint64_t addr, addr_loc *l) {
    if (p->decode) p->decode(p->decode_ctx, addr, l);
    else addrmap_decode(p->am, addr, l);
}

static int tq_init(timed_queue *q, uint32_t cap, bool split) {
    q->cap = cap;
    q->head_ready = UINT64_MAX;
    q->e = calloc(cap, sizeof *q->e);
    q->left = split ? calloc(cap, 1) : NULL;
    return q->e && (!split || q->left) ? 0 : -1;
}

static void tq_free(timed_queue *q) {
    free(q->e);
    free(q->left);
}

/* i + 1 (or i + len, < 2 * cap) wrapped into a ring of cap entries, without a division. */
static uint32_t ring_wrap(uint32_t i, uint32_t cap) { return i >= cap ? i - cap : i; }

static bool tq_full(const timed_queue *q) { return q->used == q->cap; }
static uint32_t tq_room(const timed_queue *q) { return q->cap - q->used; }

/* Every push checks its queue's room: the callers test it first (tq_full,
 * tq_room, partition_can_accept), so a full queue here is a simulator bug, and
 * it stops the run with a message rather than writing past the ring. */
static void tq_check_room(const timed_queue *q, uint32_t k) {
    if (q->used + k <= q->cap) return;
    fprintf(stderr, "locsim: internal error: a memory partition queue of %u slots (%u used) was pushed %u more\n",
            q->cap, q->used, k);
    abort();
}

/* Queue r as the k accesses of sectors `left` (see timed_queue; left = 0: an
 * ordinary entry, k = 1).  Every push to the icnt->L2 queue comes here, so that
 * its `left` is set; tq_push serves the other queues. */
static void tq_push_split(timed_queue *q, const mem_req *r, uint64_t ready, uint8_t left, uint32_t k) {
    tq_check_room(q, k);
    uint32_t i = ring_wrap(q->head + q->len, q->cap);
    q->e[i].req = *r;
    q->e[i].ready = ready;
    q->left[i] = left;
    if (!q->len) q->head_ready = ready;
    q->len++;
    q->used += k;
}

static inline void tq_push(timed_queue *q, const mem_req *r, uint64_t ready) {
    tq_check_room(q, 1);
    uint32_t i = ring_wrap(q->head + q->len, q->cap);
    q->e[i].req = *r;
    q->e[i].ready = ready;
    if (!q->len) q->head_ready = ready;
    q->len++;
    q->used++;
}

/* The head if it may leave at `now`, else NULL. */
static mem_req *tq_ready(const timed_queue *q, uint64_t now) {
    return q->head_ready <= now ? &q->e[q->head].req : NULL;   /* (now < UINT64_MAX) */
}

/* The head entry leaves with its last slot.  An emptied queue starts again at
 * slot 0 (speed only: where the entries sit changes nothing else), so a queue
 * that is often empty or short reuses a few host cache lines of its ring
 * instead of walking all of it (the rings also hold the requests inside a
 * fixed delay: 184 slots, 10 KB, for GTX480's icnt->L2 queue). */
static void tq_pop(timed_queue *q) {
    q->len--;
    q->used--;
    if (!q->len) {
        q->head = 0;
        q->head_ready = UINT64_MAX;
        return;
    }
    q->head = ring_wrap(q->head + 1, q->cap);
    q->head_ready = q->e[q->head].ready;
}

/* Push to / pop from queue q of slice s, counting the requests an L2 cycle works
 * on (the L2->icnt queue is drained by the interconnect side, not by it). */
static void part_push(partition *p, slice *s, int q, const mem_req *r, uint64_t ready) {
    tq_push(&s->q[q], r, ready);
    if (q != PART_Q_L2_ICNT) {
        p->l2_work++;
        if (ready < p->next_work) p->next_work = ready;
    } else {
        p->replies_queued++;
    }
}

/* Into the icnt->L2 queue: the k > 1 accesses of sectors `left` of a sectored
 * L2's line as one entry, r the first one's access (see timed_queue); or, with
 * left = 0 and k = 1, the ordinary request r. */
static void part_push_split(partition *p, timed_queue *in, const mem_req *r, uint64_t ready, uint8_t left,
                            uint32_t k) {
    tq_push_split(in, r, ready, left, k);
    p->l2_work += k;
    if (ready < p->next_work) p->next_work = ready;
}

static void part_pop(partition *p, slice *s, int q) {
    tq_pop(&s->q[q]);
    if (q != PART_Q_L2_ICNT) p->l2_work--;
    else p->replies_queued--;
}

/* ---- L2 side ---- */

static bool wants_ack(const mem_req *r) {
    return r->type == MEM_GLOBAL_ACC_W || r->type == MEM_LOCAL_ACC_W;
}

static void reply(partition *p, slice *s, const mem_req *r, uint8_t hint) {
    mem_req a = *r;
    a.flags |= MEM_REQ_REPLY;
    a.hint = hint;
    part_push(p, s, PART_Q_L2_ICNT, &a, p->now);
    p->ctr.replies++;
}

static void do_fill(partition *p, slice *s) {
    mem_req *f = tq_ready(&s->q[PART_Q_DRAM_L2], p->now);
    if (!f) return;
    uint32_t max = cache_fill_max_woken(s->l2, f->sector_mask);
    if (tq_room(&s->q[PART_Q_L2_ICNT]) < max) {
        p->ctr.fill_stalls++;
        return;
    }
    int n = cache_fill(s->l2, f, p->now, s->woken, cache_max_waiters(s->l2));
    s->refused = false;
    for (int i = 0; i < n; i++)
        if (!mem_access_is_write(s->woken[i].type) || wants_ack(&s->woken[i])) reply(p, s, &s->woken[i], s->woken[i].hint);
    part_pop(p, s, PART_Q_DRAM_L2);
}

static void send_miss(partition *p, slice *s) {
    const mem_req *m = cache_miss_queue_peek(s->l2);
    if (!m || tq_full(&s->q[PART_Q_L2_DRAM])) return;
    part_push(p, s, PART_Q_L2_DRAM, m, p->now + p->cfg.dram_latency);
    cache_miss_queue_pop(s->l2);
    s->refused = false;
}

/* The input queue whose head accesses the L2 this cycle: the near one's or the
 * far one's, whichever may leave (both: the earlier ready, near on a tie); NULL
 * when neither may. */
static timed_queue *ready_input(const partition *p, slice *s) {
    timed_queue *near = &s->q[PART_Q_ICNT_L2], *far = &s->far;
    bool n = near->head_ready <= p->now, f = far->head_ready <= p->now;
    if (n && f) return far->head_ready < near->head_ready ? far : near;
    return n ? near : f ? far : NULL;
}

static void do_access(partition *p, slice *s) {
    timed_queue *in = ready_input(p, s);
    if (!in) return;
    mem_req *r = &in->e[in->head].req;
    uint8_t *left = &in->left[in->head];
    if (*left)   /* a split entry: the access to its lowest sector not yet accessed */
        r->addr = (r->addr & ~(uint64_t)(p->cfg.l2.line_size - 1)) + (uint64_t)__builtin_ctz(*left) * MEM_SECTOR_SIZE;
    bool needs_reply = !mem_access_is_write(r->type) || wants_ack(r);
    if (needs_reply && tq_full(&s->q[PART_Q_L2_ICNT])) {
        p->ctr.l2_access_stalls++;
        return;
    }
    if (s->refused && s->refused_in == in) {   /* as the access would: refused again, counted */
        cache_count_fail(s->l2, r->type, (cache_fail_reason)s->refused_why);
        p->ctr.l2_access_stalls++;
        return;
    }
    cache_fail_reason why;
    cache_outcome o = cache_access(s->l2, r, p->now, &why);
    if (o == CACHE_RESERVATION_FAIL) {
        s->refused = cache_fail_repeats(s->l2);
        s->refused_why = (uint8_t)why;
        s->refused_in = in;
        p->ctr.l2_access_stalls++;
        return;
    }
    s->refused = false;   /* the access changed the L2 (with one input queue, refused was already false) */
    /* Compulsory misses: the first reference to a line.  (Out of memory for
     * the set: the line is left uncounted.)  `seen` is never emptied, so a line
     * this slice recorded last is in it: recording it again would answer 0 and
     * change nothing, and the sectors of one line come one after another. */
    uint64_t line = (r->addr >> p->line_shift) + 1;
    if (line != s->seen_last) {
        int first = lineset_add(p->seen, r->addr);
        if (first >= 0) s->seen_last = line;
        p->ctr.distinct_lines += first == 1;
        if (first == 1 && o == CACHE_MISS) p->ctr.compulsory_misses++;
    }
    /* Requests waiting in the MSHR are answered at the fill.  (The reply, not
     * the queued access, takes the hint: a split entry's later accesses must
     * carry the request's own.) */
    if (needs_reply && !cache_request_waits(s->l2, r, o)) reply(p, s, r, cache_reply_hint(s->l2, r));
    if (*left) {
        *left &= (uint8_t)(*left - 1);
        if (*left) {   /* more sectors of the line: the entry stays at the head, one slot less */
            in->used--;
            p->l2_work--;
            return;
        }
    }
    tq_pop(in);
    p->l2_work--;
}

/* The oldest forwarded prefetch candidate whose time has come, fetched as the
 * slice's own (after the demand access: demand goes first). */
static void do_forwarded(partition *p, slice *s) {
    mem_req *r = tq_ready(&s->fwd, p->now);
    if (!r) return;
    cache_prefetch(s->l2, r, r->addr, p->now);
    tq_pop(&s->fwd);
    p->l2_work--;
}

bool partition_forward_prefetch(partition *p, uint32_t i, const mem_req *cause, uint64_t addr, uint64_t ready) {
    slice *s = &p->slices[i];
    if (!s->fwd.cap || tq_full(&s->fwd)) return false;
    mem_req r = *cause;
    r.addr = addr;
    tq_push(&s->fwd, &r, ready);
    p->l2_work++;
    if (ready < p->next_work) p->next_work = ready;
    return true;
}

/* Offer each slice's oldest DRAM-bound request to the channel, slices in turn. */
static void feed_dram(partition *p) {
    for (uint32_t k = 0; k < p->nslices; k++) {
        slice *s = &p->slices[ring_wrap(p->dram_rr + k, p->nslices)];
        mem_req *r = tq_ready(&s->q[PART_Q_L2_DRAM], p->now);
        if (!r) continue;
        if (!dram_can_accept(p->dram)) {   /* full: refused whatever the address */
            dram_refuse(p->dram);
            p->ctr.dram_push_stalls++;
            break;
        }
        addr_loc l;
        part_decode(p, r->addr, &l);
        if (dram_push(p->dram, r, l.bank, l.row, l.col) != 0) {
            p->ctr.dram_push_stalls++;
            break;
        }
        part_pop(p, s, PART_Q_L2_DRAM);
    }
    p->dram_rr = ring_wrap(p->dram_rr + 1, p->nslices);
}

/* The earliest cycle at which a head of the queues an L2 cycle works on may
 * leave (heads leave first: each queue's ready times grow from head to tail). */
static uint64_t earliest_head(const partition *p) {
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < p->nslices; i++) {
        const timed_queue *q = p->slices[i].q;
        uint64_t a = q[PART_Q_ICNT_L2].head_ready, b = q[PART_Q_L2_DRAM].head_ready, c = q[PART_Q_DRAM_L2].head_ready;
        uint64_t f = p->slices[i].far.head_ready, w = p->slices[i].fwd.head_ready;
        if (a < t) t = a;
        if (f < t) t = f;
        if (w < t) t = w;
        if (b < t) t = b;
        if (c < t) t = c;
    }
    return t;
}

void partition_l2_cycle(partition *p) {
    if (!p->miss_queued && (!p->l2_work || p->now < p->next_work)) {
        /* Nothing to fill, send or access: the cycle only moves the clock and the
         * DRAM round-robin pointer (feed_dram advances it every cycle). */
        p->dram_rr = ring_wrap(p->dram_rr + 1, p->nslices);
        p->now++;
        return;
    }
    bool miss_queued = false;
    for (uint32_t i = 0; i < p->nslices; i++) {
        slice *s = &p->slices[i];
        /* A slice with nothing to fill, send or access is passed over: the three
         * steps would each find their queue empty. */
        if (!s->q[PART_Q_DRAM_L2].len && !s->miss_queued && !s->q[PART_Q_ICNT_L2].len && !s->far.len && !s->fwd.len)
            continue;
        do_fill(p, s);
        send_miss(p, s);
        do_access(p, s);
        do_forwarded(p, s);
        s->miss_queued = cache_miss_queue_length(s->l2) != 0;
        miss_queued |= s->miss_queued;
    }
    p->miss_queued = miss_queued;
    feed_dram(p);
    p->next_work = earliest_head(p);
    p->now++;
}

/* ---- DRAM side ---- */

void partition_dram_cycle(partition *p) {
    dram_cycle(p->dram);
    const mem_req *done;
    while ((done = dram_peek(p->dram))) {
        if (mem_access_is_write(done->type)) {   /* write-backs need no answer */
            mem_req drop;
            dram_pop(p->dram, &drop);
            continue;
        }
        addr_loc l;
        part_decode(p, done->addr, &l);
        /* the slice the request came from: the decode is the one that routed it
         * (numa_route and numa_decode agree); a power of two */
        slice *s = &p->slices[l.slice & (p->nslices - 1)];
        if (tq_full(&s->q[PART_Q_DRAM_L2])) break;   /* back-pressure into the DRAM return queue */
        mem_req f;
        dram_pop(p->dram, &f);
        part_push(p, s, PART_Q_DRAM_L2, &f, p->now);
    }
}

/* An L2 slice may prefetch only its own lines. */
static bool slice_owns(void *ctx, uint64_t addr) {
    const slice_id *id = ctx;
    addr_loc l;
    part_decode(id->p, addr, &l);
    return l.slice == id->global;
}

/* The slice's own address space for a prefetcher that learns there (the
 * partition address, as the L2 indexes its sets), and back.  With a decode of
 * its own (NUMA placement) the partition keeps device addresses. */
static uint64_t slice_to_local(void *ctx, uint64_t addr) {
    const slice_id *id = ctx;
    return id->p->decode ? addr : addrmap_partition_addr(id->p->am, addr);
}

static uint64_t slice_to_global(void *ctx, uint64_t addr) {
    const slice_id *id = ctx;
    return id->p->decode ? addr : addrmap_global_addr(id->p->am, id->global, addr);
}

/* ---- public ---- */

uint32_t partition_slices(const partition *p) { return p->nslices; }

/* A sectored L2 is accessed one sector at a time (GPGPU-Sim's sub-partition
 * breaks each request into 32 B sector requests on arrival): a request
 * arriving for it takes as many input slots as sectors it touches, so the
 * partition accepts only when a whole line's worth is free. */
static uint32_t slots_needed(const partition *p) {
    return p->cfg.l2.sectored ? p->cfg.l2.line_size / MEM_SECTOR_SIZE : 1;
}

/* With two halves the caller does not say where its request comes from: both
 * input queues must have room (the far one is as large, plus its delay). */
bool partition_can_accept(const partition *p, uint32_t s) {
    if (s >= p->nslices || tq_room(&p->slices[s].q[PART_Q_ICNT_L2]) < slots_needed(p)) return false;
    return !p->cfg.far_latency || tq_room(&p->slices[s].far) >= slots_needed(p);
}

bool partition_is_far(const partition_config *cfg, uint32_t n_channels, uint32_t sm, uint32_t ch) {
    return cfg->far_latency && l2_half_of(sm, cfg->num_sms) != l2_half_of(ch, n_channels);
}

/* Sector k's share of a split request: each sector is its own access, with the
 * sector's address (so its reply finds the requester's line, whatever that
 * line's size), read replies carry 32 B each, write data is shared out (a byte
 * mask is not kept). */
static mem_req sector_part(const mem_req *r, uint32_t sector, uint32_t nsect, uint32_t line_size) {
    mem_req q = *r;
    q.addr = (r->addr & ~(uint64_t)(line_size - 1)) + (uint64_t)sector * MEM_SECTOR_SIZE;
    q.sector_mask = 1;
    if (mem_access_is_write(r->type)) {
        uint32_t share = (r->size + nsect - 1) / nsect;
        q.size = (uint16_t)(share < MEM_SECTOR_SIZE ? share : MEM_SECTOR_SIZE);
    } else {
        q.size = MEM_SECTOR_SIZE;
    }
    return q;
}

int partition_push(partition *p, uint32_t s, const mem_req *r) {
    if (!partition_can_accept(p, s)) {
        p->ctr.push_fails++;
        return -1;
    }
    uint64_t ready = p->now + p->cfg.rop_latency;
    timed_queue *in = &p->slices[s].q[PART_Q_ICNT_L2];
    if (partition_is_far(&p->cfg, p->am->cfg.n_channels, r->sm, p->channel)) {
        ready += p->cfg.far_latency;
        in = &p->slices[s].far;
    }
    uint8_t mask = mem_line_mask(r, p->cfg.l2.line_size);
    uint32_t nsect = mem_sector_count(mask);
    if (!p->cfg.l2.sectored || nsect <= 1) {
        part_push_split(p, in, r, ready, 0, 1);
        return 0;
    }
    p->ctr.sector_splits++;
    /* Every sector's access is sector_part of r; they differ only in the
     * address (do_access sets it), so the first one is queued for all. */
    mem_req q = sector_part(r, (uint32_t)__builtin_ctz(mask), nsect, p->cfg.l2.line_size);
    part_push_split(p, in, &q, ready, mask, nsect);
    return 0;
}

const mem_req *partition_reply_peek(const partition *p, uint32_t s) {
    return s < p->nslices ? tq_ready(&p->slices[s].q[PART_Q_L2_ICNT], p->now) : NULL;
}

void partition_reply_pop(partition *p, uint32_t s) {
    if (partition_reply_peek(p, s)) part_pop(p, &p->slices[s], PART_Q_L2_ICNT);
}

uint32_t partition_replies_queued(const partition *p) { return p->replies_queued; }

bool partition_idle(const partition *p) {
    for (uint32_t i = 0; i < p->nslices; i++) {
        const slice *s = &p->slices[i];
        for (int q = 0; q < PART_Q_COUNT; q++)
            if (s->q[q].len) return false;
        if (s->far.len || s->fwd.len) return false;
        if (cache_miss_queue_length(s->l2) || cache_mshr_used(s->l2)) return false;
    }
    return dram_idle(p->dram);
}

uint64_t partition_l2_now(const partition *p) { return p->now; }
cache *partition_l2(partition *p, uint32_t s) { return s < p->nslices ? p->slices[s].l2 : NULL; }
dram *partition_dram(partition *p) { return p->dram; }
const partition_counters *partition_stats(const partition *p) { return &p->ctr; }

/* The two queues that carry a fixed delay also hold the requests inside that
 * delay, one per cycle of it: the delay is a pipeline and must not limit
 * throughput (GPGPU-Sim keeps such requests in separate unbounded delay queues,
 * fed at most one per cycle, in front of its bounded queues). */
static uint32_t queue_capacity(const partition_config *cfg, int q) {
    if (q == PART_Q_ICNT_L2) return cfg->queue_size[q] + cfg->rop_latency;
    if (q == PART_Q_L2_DRAM) return cfg->queue_size[q] + cfg->dram_latency;
    return cfg->queue_size[q];
}

/* GPGPU-Sim's l2_cache_config::set_index: the set from the address within the
 * partition, without the channel and slice bits (no set camping). */
static uint64_t l2_index_addr(const void *ctx, uint64_t addr) { return addrmap_partition_addr(ctx, addr); }

partition *partition_create(const partition_config *cfg, const addrmap *am, uint32_t channel,
                            char *err, size_t errlen) {
    if (channel >= am->cfg.n_channels) {
        snprintf(err, errlen, "memory partition %u: only %u channels", channel, am->cfg.n_channels);
        return NULL;
    }
    for (int q = 0; q < PART_Q_COUNT; q++) {
        if (!cfg->queue_size[q]) {
            snprintf(err, errlen, "memory partition queues must hold at least one request");
            return NULL;
        }
    }
    if (cfg->queue_size[PART_Q_L2_ICNT] < cfg->l2.mshr_max_merge) {
        snprintf(err, errlen, "the L2->icnt queue (%u) must hold the %u requests one L2 fill can wake",
                 cfg->queue_size[PART_Q_L2_ICNT], cfg->l2.mshr_max_merge);
        return NULL;
    }
    partition *p = calloc(1, sizeof *p);
    if (!p) goto oom;
    p->cfg = *cfg;
    p->am = am;
    p->channel = channel;
    p->nslices = am->cfg.n_sub_per_channel;
    p->slices = calloc(p->nslices, sizeof *p->slices);
    p->line_shift = cfg->l2.line_size ? (uint32_t)__builtin_ctz(cfg->l2.line_size) : 7;
    p->seen = lineset_create(p->line_shift);
    if (!p->slices || !p->seen) goto oom;
    char name[32];
    snprintf(name, sizeof name, "DRAM[%u]", channel);
    p->dram = dram_create(&cfg->dram, name, err, errlen);
    if (!p->dram) goto fail;
    for (uint32_t i = 0; i < p->nslices; i++) {
        slice *s = &p->slices[i];
        snprintf(name, sizeof name, "L2[%u]", channel * p->nslices + i);
        s->l2 = cache_create(&cfg->l2, name, err, errlen);
        if (!s->l2) goto fail;
        cache_set_writeback_type(s->l2, MEM_L2_WRBK_ACC);
        s->id.p = p;
        s->id.global = channel * p->nslices + i;
        cache_set_prefetch_owner(s->l2, slice_owns, &s->id);
        cache_set_prefetch_space(s->l2, slice_to_local, slice_to_global, &s->id);
        cache_set_index_addr(s->l2, l2_index_addr, am);
        s->woken = calloc(cache_max_waiters(s->l2), sizeof *s->woken);
        if (!s->woken) goto oom;
        for (int q = 0; q < PART_Q_COUNT; q++)
            if (tq_init(&s->q[q], queue_capacity(cfg, q), q == PART_Q_ICNT_L2)) goto oom;
        s->far.head_ready = UINT64_MAX;
        s->fwd.head_ready = UINT64_MAX;
        if (cfg->prefetch_forward && tq_init(&s->fwd, PART_FORWARD_QUEUE, false)) goto oom;
        if (cfg->far_latency &&
            tq_init(&s->far, queue_capacity(cfg, PART_Q_ICNT_L2) + cfg->far_latency, true))
            goto oom;
    }
    return p;
oom:
    snprintf(err, errlen, "memory partition %u: out of memory", channel);
fail:
    partition_destroy(p);
    return NULL;
}

void partition_set_decode(partition *p, partition_decode_fn fn, const void *ctx) {
    p->decode = fn;
    p->decode_ctx = ctx;
}

void partition_destroy(partition *p) {
    if (!p) return;
    for (uint32_t i = 0; p->slices && i < p->nslices; i++) {
        slice *s = &p->slices[i];
        cache_destroy(s->l2);
        free(s->woken);
        for (int q = 0; q < PART_Q_COUNT; q++) tq_free(&s->q[q]);
        tq_free(&s->far);
        tq_free(&s->fwd);
    }
    free(p->slices);
    lineset_destroy(p->seen);
    dram_destroy(p->dram);
    free(p);
}
