/* Crossbar interconnect (see icnt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/icnt.h"

#define ICNT_FLIT_TABLE 272u   /* > MEM_PACKET_HEADER_BYTES + 256 */

/* 64 bytes: the rings start on a host cache line (alloc_lines), so a packet
 * is one host line, not two. */
typedef struct {
    mem_req req;
    uint64_t pushed, ready;
    uint32_t dst, flits;
} packet;
_Static_assert(sizeof(packet) == 64, "a packet is one host cache line");

/* A ring of packets with a flit budget.  One host cache line per port (the
 * arrays are aligned): the arbiter reads a port's fields together. */
typedef struct {
    _Alignas(64) packet *ring;
    uint32_t cap, head, len;
    uint32_t flits, flit_limit;
    uint64_t busy_until;        /* the port is serialising a packet until then */
    uint32_t grant_next;        /* outputs: input to try first */
    /* outputs: the head packet's ready cycle, UINT64_MAX when empty (what the
     * receivers poll every cycle, read here rather than in the ring) */
    uint64_t head_ready;
} port;

struct icnt {
    icnt_config cfg;
    char name[32];
    uint32_t n_src, n_dst;
    port *in, *out;
    uint64_t now;
    uint32_t in_flight;         /* packets anywhere inside */
    uint32_t queued_in;         /* packets in input buffers */
    uint32_t *head_wants;       /* per output: input queues whose head packet goes there */
    /* The same as bit sets, so that arbitration visits only those inputs, and
     * only outputs somebody wants: wanted_by[d] has words_src words, bit s set
     * when input s's head packet goes to d; wanted_outputs has bit d set when
     * head_wants[d] > 0. */
    uint64_t *wanted_by;
    uint64_t *wanted_outputs;
    uint64_t *occupied_outputs; /* bit d set when output d's buffer holds a packet,
                                   so the receiving side visits only those */
    uint32_t words_src, words_dst;
    /* Flits of a packet of b bytes for b < ICNT_FLIT_TABLE (every packet of
     * lines up to 256 B): the sizes are looked up, not divided, twice per push. */
    uint16_t flits_of[ICNT_FLIT_TABLE];
    icnt_counters ctr;
};

/* Zeroed memory starting on a host cache line, in whole lines. */
static void *alloc_lines(size_t bytes) {
    bytes = (bytes + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p) memset(p, 0, bytes);
    return p;
}

/* ---- bit sets ---- */

static void bit_set(uint64_t *w, uint32_t i) { w[i >> 6] |= 1ull << (i & 63); }
static void bit_clear(uint64_t *w, uint32_t i) { w[i >> 6] &= ~(1ull << (i & 63)); }

/* The first set bit at or after `from` and before `end`, or `end`. */
static uint32_t bit_next(const uint64_t *w, uint32_t from, uint32_t end) {
    if (from >= end) return end;
    uint32_t k = from >> 6;
    uint64_t word = w[k] & (~0ull << (from & 63));
    for (;;) {
        if (word) {
            uint32_t i = (k << 6) + (uint32_t)__builtin_ctzll(word);
            return i < end ? i : end;
        }
        if (((++k) << 6) >= end) return end;
        word = w[k];
    }
}

/* Input s's head packet now goes to d / no longer goes to d. */
static void head_gained(icnt *n, uint32_t s, uint32_t d) {
    if (n->head_wants[d]++ == 0) bit_set(n->wanted_outputs, d);
    bit_set(&n->wanted_by[(size_t)d * n->words_src], s);
}

static void head_lost(icnt *n, uint32_t s, uint32_t d) {
    if (--n->head_wants[d] == 0) bit_clear(n->wanted_outputs, d);
    bit_clear(&n->wanted_by[(size_t)d * n->words_src], s);
}

static packet *port_head(const port *p) { return p->len ? &p->ring[p->head] : NULL; }

/* i + 1 (or i + len, < 2 * cap) wrapped into a ring of cap entries, without a division. */
static uint32_t ring_wrap(uint32_t i, uint32_t cap) { return i >= cap ? i - cap : i; }

/* The free slot at the tail of a port's ring, filled in place by the caller
 * (a packet is 72 bytes: building it on the stack and copying it in doubled the
 * copying on every push), then counted with port_commit. */
static packet *port_tail(port *p) {
    if (p->len >= p->cap) {   /* callers test the room first (icnt_can_push, the output check): a bug */
        fprintf(stderr, "locsim: internal error: an interconnect port of %u packets was pushed one more\n", p->cap);
        abort();
    }
    return &p->ring[ring_wrap(p->head + p->len, p->cap)];
}

static void port_commit(port *p, uint32_t flits) {
    p->len++;
    p->flits += flits;
}

/* An emptied port starts again at slot 0 (speed only, as the partition's
 * queues): a port that is often empty reuses one host line of its ring. */
static void port_pop(port *p) {
    p->flits -= p->ring[p->head].flits;
    p->head = --p->len ? ring_wrap(p->head + 1, p->cap) : 0;
}

uint32_t icnt_flits(const icnt *n, uint32_t bytes) {
    if (bytes < ICNT_FLIT_TABLE) return n->flits_of[bytes];
    return (bytes + n->cfg.flit_size - 1) / n->cfg.flit_size;
}

/* Cycles a packet of `flits` flits occupies its ports. */
static uint32_t serialise_cycles(const icnt *n, uint32_t flits) {
    if (n->cfg.flits_per_cycle == 1) return flits;
    return (flits + n->cfg.flits_per_cycle - 1) / n->cfg.flits_per_cycle;
}

bool icnt_can_push(const icnt *n, uint32_t src, uint32_t bytes) {
    if (src >= n->n_src) return false;
    const port *p = &n->in[src];
    return p->len < p->cap && p->flits + icnt_flits(n, bytes) <= p->flit_limit;
}

bool icnt_can_push_after(const icnt *n, uint32_t src, uint32_t pkts, uint32_t flits, uint32_t bytes) {
    if (src >= n->n_src) return false;
    const port *p = &n->in[src];
    return p->len + pkts < p->cap && p->flits + flits + icnt_flits(n, bytes) <= p->flit_limit;
}

/* Queue a packet of `flits` flits that fits into input src. */
static void push_packet(icnt *n, uint32_t src, uint32_t dst, const mem_req *r, uint32_t flits) {
    port *in = &n->in[src];
    packet *k = port_tail(in);
    k->req = *r;
    k->pushed = n->now;
    k->ready = 0;
    k->dst = dst;
    k->flits = flits;
    if (!in->len) head_gained(n, src, dst);
    port_commit(in, flits);
    n->in_flight++;
    n->queued_in++;
    n->ctr.packets_in++;
    n->ctr.flits_in += flits;
}

int icnt_push(icnt *n, uint32_t src, uint32_t dst, const mem_req *r, uint32_t bytes) {
    if (dst >= n->n_dst || !icnt_can_push(n, src, bytes)) {
        n->ctr.push_fails++;
        return -1;
    }
    push_packet(n, src, dst, r, icnt_flits(n, bytes));
    return 0;
}

int icnt_try_push(icnt *n, uint32_t src, uint32_t dst, const mem_req *r, uint32_t bytes) {
    if (src >= n->n_src || dst >= n->n_dst) return -1;
    const port *p = &n->in[src];
    uint32_t flits = icnt_flits(n, bytes);
    if (p->len >= p->cap || p->flits + flits > p->flit_limit) return -1;
    push_packet(n, src, dst, r, flits);
    return 0;
}

/* The next input after `s` in round-robin order (from grant_next, wrapping)
 * whose head packet goes to output d; n_src when none is left.  `first` is
 * grant_next; `wrapped` says the scan has passed the end. */
static uint32_t next_wanting(const icnt *n, uint32_t d, uint32_t s, uint32_t first, bool *wrapped) {
    const uint64_t *w = &n->wanted_by[(size_t)d * n->words_src];
    if (!*wrapped) {
        uint32_t i = bit_next(w, s, n->n_src);
        if (i < n->n_src) return i;
        *wrapped = true;
        s = 0;
    }
    uint32_t i = bit_next(w, s, first);
    return i < first ? i : n->n_src;
}

/* Output d grants one input whose head packet goes to d and fits: the first
 * such input from grant_next on that is not busy serialising. */
static void arbitrate_output(icnt *n, uint32_t d) {
    port *o = &n->out[d];
    if (n->now < o->busy_until) return;
    uint32_t first = o->grant_next;
    bool wrapped = false;
    for (uint32_t s = next_wanting(n, d, first, first, &wrapped); s < n->n_src;
         s = next_wanting(n, d, s + 1, first, &wrapped)) {
        port *i = &n->in[s];
        packet *h = port_head(i);
        if (n->now < i->busy_until) continue;
        if (o->len == o->cap || o->flits + h->flits > o->flit_limit) {
            n->ctr.output_full_stalls++;
            return;
        }
        uint32_t ser = serialise_cycles(n, h->flits);
        packet *moved = port_tail(o);   /* straight from the input's ring into the output's */
        *moved = *h;
        moved->ready = n->now + ser + n->cfg.latency;
        if (!o->len) o->head_ready = moved->ready;
        port_commit(o, moved->flits);
        port_pop(i);
        n->queued_in--;
        head_lost(n, s, d);
        if (i->len) head_gained(n, s, port_head(i)->dst);
        bit_set(n->occupied_outputs, d);
        i->busy_until = o->busy_until = n->now + ser;
        o->grant_next = ring_wrap(s + 1, n->n_src);
        return;
    }
}

void icnt_cycle(icnt *n) {
    if (n->queued_in) {
        /* Outputs that some head packet wants, from now % n_dst on (rotating which
         * output picks first), wrapping.  A grant only changes the wants of the
         * granting output and of an input that is then busy for this cycle, so
         * the outputs skipped here would have granted nothing. */
        uint32_t start = (uint32_t)(n->now % n->n_dst);
        for (uint32_t d = bit_next(n->wanted_outputs, start, n->n_dst); d < n->n_dst;
             d = bit_next(n->wanted_outputs, d + 1, n->n_dst))
            arbitrate_output(n, d);
        for (uint32_t d = bit_next(n->wanted_outputs, 0, start); d < start; d = bit_next(n->wanted_outputs, d + 1, start))
            arbitrate_output(n, d);
    }
    n->now++;
    n->ctr.cycles++;
}

const mem_req *icnt_peek(const icnt *n, uint32_t dst) {
    if (dst >= n->n_dst) return NULL;
    const port *o = &n->out[dst];
    return o->head_ready <= n->now ? &o->ring[o->head].req : NULL;   /* (now < UINT64_MAX) */
}

int icnt_pop(icnt *n, uint32_t dst, mem_req *out) {
    if (!icnt_peek(n, dst)) return -1;
    port *o = &n->out[dst];
    const packet *h = port_head(o);
    *out = h->req;
    n->ctr.packets_out++;
    n->ctr.flits_out += h->flits;
    n->ctr.latency_sum += n->now - h->pushed;
    port_pop(o);
    if (!o->len) bit_clear(n->occupied_outputs, dst);
    o->head_ready = o->len ? o->ring[o->head].ready : UINT64_MAX;
    n->in_flight--;
    return 0;
}

bool icnt_idle(const icnt *n) { return n->in_flight == 0; }

uint64_t icnt_ready_word(const icnt *n, uint32_t w) {
    if (w >= n->words_dst) return 0;
    uint64_t ready = 0;
    for (uint64_t m = n->occupied_outputs[w]; m; m &= m - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(m);
        ready |= (uint64_t)(n->out[(w << 6) + b].head_ready <= n->now) << b;
    }
    return ready;
}

void icnt_skip_idle(icnt *n, uint64_t cycles) {
    n->now += cycles;
    n->ctr.cycles += cycles;
}

uint64_t icnt_now(const icnt *n) { return n->now; }
const icnt_counters *icnt_stats(const icnt *n) { return &n->ctr; }

static int port_init(port *p, uint32_t flit_limit) {
    p->cap = flit_limit;   /* every packet is at least one flit */
    p->flit_limit = flit_limit;
    p->head_ready = UINT64_MAX;
    p->ring = alloc_lines((size_t)p->cap * sizeof *p->ring);
    return p->ring ? 0 : -1;
}

icnt *icnt_create(const icnt_config *cfg, uint32_t n_src, uint32_t n_dst, const char *name,
                  char *err, size_t errlen) {
    if (!n_src || !n_dst || !cfg->flit_size || !cfg->flits_per_cycle || !cfg->in_buffer_flits ||
        !cfg->out_buffer_flits) {
        snprintf(err, errlen, "%s: invalid interconnect configuration", name);
        return NULL;
    }
    icnt *n = calloc(1, sizeof *n);
    if (!n) goto oom;
    n->cfg = *cfg;
    snprintf(n->name, sizeof n->name, "%s", name);
    for (uint32_t b = 0; b < ICNT_FLIT_TABLE; b++) {   /* a packet is at least one flit */
        uint32_t f = (b + cfg->flit_size - 1) / cfg->flit_size;
        n->flits_of[b] = (uint16_t)(f ? f : 1);
    }
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->in = alloc_lines(n_src * sizeof *n->in);
    n->out = alloc_lines(n_dst * sizeof *n->out);
    n->head_wants = calloc(n_dst, sizeof *n->head_wants);
    n->words_src = (n_src + 63) / 64;
    n->words_dst = (n_dst + 63) / 64;
    n->wanted_by = calloc((size_t)n_dst * n->words_src, sizeof *n->wanted_by);
    n->wanted_outputs = calloc(n->words_dst, sizeof *n->wanted_outputs);
    n->occupied_outputs = calloc(n->words_dst, sizeof *n->occupied_outputs);
    if (!n->in || !n->out || !n->head_wants || !n->wanted_by || !n->wanted_outputs || !n->occupied_outputs) goto oom;
    for (uint32_t s = 0; s < n_src; s++)
        if (port_init(&n->in[s], cfg->in_buffer_flits)) goto oom;
    for (uint32_t d = 0; d < n_dst; d++)
        if (port_init(&n->out[d], cfg->out_buffer_flits)) goto oom;
    return n;
oom:
    snprintf(err, errlen, "%s: out of memory", name);
    icnt_destroy(n);
    return NULL;
}

void icnt_destroy(icnt *n) {
    if (!n) return;
    for (uint32_t s = 0; n->in && s < n->n_src; s++) free(n->in[s].ring);
    for (uint32_t d = 0; n->out && d < n->n_dst; d++) free(n->out[d].ring);
    free(n->in);
    free(n->out);
    free(n->head_wants);
    free(n->wanted_by);
    free(n->wanted_outputs);
    free(n->occupied_outputs);
    free(n);
}
