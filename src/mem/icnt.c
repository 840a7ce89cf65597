/* Crossbar interconnect (see icnt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/icnt.h"

typedef struct {
    mem_req req;
    uint64_t pushed, ready;
    uint32_t dst, flits;
} packet;

/* A ring of packets with a flit budget. */
typedef struct {
    packet *ring;
    uint32_t cap, head, len;
    uint32_t flits, flit_limit;
    uint64_t busy_until;        /* the port is serialising a packet until then */
    uint32_t grant_next;        /* outputs: input to try first */
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
    icnt_counters ctr;
};

static packet *port_head(const port *p) { return p->len ? &p->ring[p->head] : NULL; }

static void port_push(port *p, const packet *k) {
    p->ring[(p->head + p->len) % p->cap] = *k;
    p->len++;
    p->flits += k->flits;
}

static void port_pop(port *p) {
    p->flits -= p->ring[p->head].flits;
    p->head = (p->head + 1) % p->cap;
    p->len--;
}

uint32_t icnt_flits(const icnt *n, uint32_t bytes) {
    uint32_t f = (bytes + n->cfg.flit_size - 1) / n->cfg.flit_size;
    return f ? f : 1;
}

bool icnt_can_push(const icnt *n, uint32_t src, uint32_t bytes) {
    if (src >= n->n_src) return false;
    const port *p = &n->in[src];
    return p->len < p->cap && p->flits + icnt_flits(n, bytes) <= p->flit_limit;
}

int icnt_push(icnt *n, uint32_t src, uint32_t dst, const mem_req *r, uint32_t bytes) {
    if (dst >= n->n_dst || !icnt_can_push(n, src, bytes)) {
        n->ctr.push_fails++;
        return -1;
    }
    packet k = {.req = *r, .pushed = n->now, .dst = dst, .flits = icnt_flits(n, bytes)};
    if (!n->in[src].len) n->head_wants[dst]++;
    port_push(&n->in[src], &k);
    n->in_flight++;
    n->queued_in++;
    n->ctr.packets_in++;
    n->ctr.flits_in += k.flits;
    return 0;
}

/* Output d grants one input whose head packet goes to d and fits. */
static void arbitrate_output(icnt *n, uint32_t d) {
    port *o = &n->out[d];
    if (!n->head_wants[d] || n->now < o->busy_until) return;
    uint32_t s = o->grant_next;
    for (uint32_t k = 0; k < n->n_src; k++, s = s + 1 == n->n_src ? 0 : s + 1) {
        port *i = &n->in[s];
        packet *h = port_head(i);
        if (!h || h->dst != d || n->now < i->busy_until) continue;
        if (o->len == o->cap || o->flits + h->flits > o->flit_limit) {
            n->ctr.output_full_stalls++;
            return;
        }
        uint32_t ser = (h->flits + n->cfg.flits_per_cycle - 1) / n->cfg.flits_per_cycle;
        packet moved = *h;
        moved.ready = n->now + ser + n->cfg.latency;
        port_pop(i);
        n->queued_in--;
        n->head_wants[d]--;
        if (i->len) n->head_wants[port_head(i)->dst]++;
        port_push(o, &moved);
        i->busy_until = o->busy_until = n->now + ser;
        o->grant_next = (s + 1) % n->n_src;
        return;
    }
}

void icnt_cycle(icnt *n) {
    if (n->queued_in) {
        uint32_t d = (uint32_t)(n->now % n->n_dst);   /* rotate which output picks first */
        for (uint32_t k = 0; k < n->n_dst; k++, d = d + 1 == n->n_dst ? 0 : d + 1) arbitrate_output(n, d);
    }
    n->now++;
    n->ctr.cycles++;
}

const mem_req *icnt_peek(const icnt *n, uint32_t dst) {
    if (dst >= n->n_dst) return NULL;
    const packet *h = port_head(&n->out[dst]);
    return h && h->ready <= n->now ? &h->req : NULL;
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
    n->in_flight--;
    return 0;
}

bool icnt_idle(const icnt *n) { return n->in_flight == 0; }

void icnt_skip_idle(icnt *n, uint64_t cycles) {
    n->now += cycles;
    n->ctr.cycles += cycles;
}

uint64_t icnt_now(const icnt *n) { return n->now; }
const icnt_counters *icnt_stats(const icnt *n) { return &n->ctr; }

static int port_init(port *p, uint32_t flit_limit) {
    p->cap = flit_limit;   /* every packet is at least one flit */
    p->flit_limit = flit_limit;
    p->ring = calloc(p->cap, sizeof *p->ring);
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
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->in = calloc(n_src, sizeof *n->in);
    n->out = calloc(n_dst, sizeof *n->out);
    n->head_wants = calloc(n_dst, sizeof *n->head_wants);
    if (!n->in || !n->out || !n->head_wants) goto oom;
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
    free(n);
}
