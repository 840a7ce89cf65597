/* The multi-module fabric: address routing through the placement policy, the
 * inter-module links, and the dispatch of a partitioned grid (numa.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cta/cta_sched.h"
#include "numa/numa.h"

#define LINK_QUEUE 256   /* packets a link's class holds, waiting and in flight */

#define MAX_HOPS (NUMA_MAX_MODULES / 2)   /* the longest shortest path of a ring */
#define LINK_CLASSES (2 * MAX_HOPS)

typedef struct {
    mem_req r;
    uint32_t bytes, net, port;
    uint32_t zone, hop;  /* destination module; links crossed before this one */
    uint64_t ready;      /* interconnect cycle it may leave the link */
} link_pkt;

/* Requests and replies queue apart (as GPGPU-Sim's two subnets): a reply never
 * waits behind a request, so a request stuck at a full slice cannot block the
 * replies that would free it (no protocol deadlock).  On a ring each also
 * queues by the hop it is on (class 2 x hop + net): a packet waiting for room
 * on its next link waits only for a higher class, so no cycle of links can
 * wait on itself (no routing deadlock). */
typedef struct {
    link_pkt q[LINK_QUEUE];
    uint32_t head, count, sent;   /* the first `sent` packets from head are on the wire */
} link_class;

struct numa_link {
    link_class cls[LINK_CLASSES];
    uint32_t rr;                  /* the class that transmits first next time */
    uint32_t from, to;            /* modules at its ends; ring only (to = UINT32_MAX: any) */
    int dir;                      /* ring: +1 clockwise (m -> m+1), -1 counter-clockwise */
    int64_t credit;               /* token bucket, in units of 1/(icnt_khz) bytes */
    uint64_t now;
};

/* ---- creation ---- */

/* The mapping of one zone: that of a single-module GPU with the zone's channels
 * (docs/numa.md).  With dramid@ the string is the same (the channel is taken by
 * division by the zone's channel count); with D bits the highest log2(N) of them
 * are removed from the mask (the zone-local address is log2(N) bits shorter).
 * Ours is the same string, since the placement has already taken the zone's
 * bits out of the address. */
static int zone_map_init(numa *n, char *err, size_t errlen) {
    addrmap_config zc = n->am->cfg;
    zc.n_channels = n->chans_per_zone;
    const char *text = zc.mapping[0] ? zc.mapping : ADDRMAP_GTX480_DEFAULT;
    if (n->am->dramid_bit < 0) {
        char out[sizeof zc.mapping];
        size_t len = strlen(text), k = 0;
        uint32_t drop = n->zone_bits;
        for (size_t i = 0; i < len && k + 1 < sizeof out; i++) {   /* most significant letter first */
            if (text[i] == 'D' && drop) {
                drop--;
                continue;
            }
            out[k++] = text[i];
        }
        out[k] = 0;
        memcpy(zc.mapping, out, k + 1);
    } else {
        snprintf(zc.mapping, sizeof zc.mapping, "%s", text);
    }
    char why[256];
    if (addrmap_init(&n->zam, &zc, why, sizeof why)) {
        snprintf(err, errlen, "the mapping within a module (%u channels): %s", zc.n_channels, why);
        return -1;
    }
    return 0;
}

numa *numa_create(const numa_config *c, const addrmap *am, char *err, size_t errlen) {
    uint32_t m = c->n_modules;
    if (m < 2 || m > NUMA_MAX_MODULES || (m & (m - 1))) {
        snprintf(err, errlen, "-numa_n_modules: expected a power of two in [2, %d], got %u", NUMA_MAX_MODULES, m);
        return NULL;
    }
    if (c->num_sms % m || c->n_channels % m) {
        snprintf(err, errlen, "-numa_n_modules %u: the %u SMs and %u memory channels must divide evenly among the modules",
                 m, c->num_sms, c->n_channels);
        return NULL;
    }
    if (!c->place) {
        snprintf(err, errlen, "-numa_placement: no placement policy");
        return NULL;
    }
    if (!(c->link_gbps > 0)) {
        snprintf(err, errlen, "-numa_link_bandwidth: must be positive");
        return NULL;
    }
    numa *n = calloc(1, sizeof *n);
    /* one egress link per module, or on a ring two (one to each neighbour; a
     * ring of two modules has one link each way) */
    uint32_t nlinks = c->ring && m > 2 ? 2 * m : m;
    if (!n || !(n->links = calloc(nlinks, sizeof *n->links))) {
        free(n);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->c = *c;
    n->am = am;
    n->sms_per_zone = c->num_sms / m;
    n->chans_per_zone = c->n_channels / m;
    n->zone_bits = (uint32_t)__builtin_ctz(m);
    /* bytes per interconnect cycle = GB/s * 1e9 / (icnt_khz * 1e3): a byte costs
     * icnt_khz credit units and a cycle brings GB/s * 1e6 of them. */
    n->rate = (int64_t)llround(c->link_gbps * 1e6);
    n->cost_per_byte = (int64_t)c->icnt_khz;
    /* ns -> interconnect cycles, rounded up */
    n->lat_cycles = (uint64_t)ceil(c->link_ns * (double)c->icnt_khz / 1e6 - 1e-9);
    n->nlinks = nlinks;
    for (uint32_t i = 0; i < nlinks; i++) {
        struct numa_link *l = &n->links[i];
        l->credit = n->rate;
        l->from = nlinks == m ? i : i / 2;
        l->dir = nlinks == m || i % 2 == 0 ? 1 : -1;
        l->to = c->ring ? (l->from + m + (uint32_t)l->dir) % m : UINT32_MAX;
    }
    /* crossbar ports per module and network: ceil(link bytes per cycle / port
     * bytes per cycle), so the ports do not throttle the link; no more than the
     * SMs or slices of a module, which are all the sources that can use them
     * (a link of unbounded bandwidth gets one port per source) */
    uint32_t per_module = c->num_sms / m, slices = c->n_channels / m * c->slices_per_channel;
    if (slices > per_module) per_module = slices;
    double link_bpc = (double)n->rate / (double)n->cost_per_byte * (nlinks / m);   /* a module's links together */
    double want = ceil(link_bpc / (c->port_bytes ? c->port_bytes : 1) - 1e-9);
    n->xbar_ports = want < 1 ? 1 : want > per_module ? per_module : (uint32_t)want;
    if (zone_map_init(n, err, errlen)) {
        numa_destroy(n);
        return NULL;
    }
    numa_geom g = {.nzones = m, .zone_bits = n->zone_bits, .sms_per_zone = n->sms_per_zone, .page_size = c->page_size};
    n->place = c->place->create(&g, err, errlen);
    if (!n->place) {
        numa_destroy(n);
        return NULL;
    }
    return n;
}

static void cta_free(numa *n);

void numa_destroy(numa *n) {
    if (!n) return;
    cta_free(n);
    if (n->place) n->c.place->destroy(n->place);
    free(n->links);
    free(n);
}

uint32_t numa_modules(const numa *n) { return n->c.n_modules; }
uint32_t numa_xbar_ports(const numa *n) { return n->xbar_ports; }
const numa_counters *numa_stats(const numa *n) { return &n->st; }
double numa_link_bytes_per_cycle(const numa *n) { return (double)n->rate / (double)n->cost_per_byte; }

/* ---- routing ---- */

/* addr in zone `zone`, `local` its zone-local address: the zone's mapping picks
 * the channel within the zone, the slice within the channel (its bank bits) and
 * the DRAM bank, row and column. */
static void zone_decode(const numa *n, uint32_t zone, uint64_t local, addr_loc *out) {
    uint32_t spc = n->c.slices_per_channel;
    addrmap_decode(&n->zam, local, out);
    out->channel += zone * n->chans_per_zone;
    out->slice = out->channel * spc + (out->bank & (spc - 1));
}

uint32_t numa_route(numa *n, uint64_t addr, uint32_t sm, uint32_t *slice) {
    uint64_t local = addr;
    uint32_t zone = n->c.place->zone_of(n->place, addr, numa_zone_of_sm(n, sm), 1, &local);
    addr_loc l;
    zone_decode(n, zone, local, &l);
    *slice = l.slice;
    return zone;
}

/* The L2 set index of a multi-module GPU: GPGPU-Sim's partition address (the
 * channel and slice bits taken out) of the zone-local address under the zone's
 * mapping.  A slice holds the lines its zone's placement sends it, not those the
 * single-module mapping would: indexed by the whole address, the placement's zone
 * bits (constant within a zone under ldesc) would leave 3 of 4 sets unused. */
uint64_t numa_l2_index_addr(const void *ctx, uint64_t addr) {
    const numa *n = ctx;
    uint64_t local = addr;
    n->c.place->zone_of(n->place, addr, 0, 0, &local);
    return addrmap_partition_addr(&n->zam, local);
}

void numa_decode(const void *ctx, uint64_t addr, addr_loc *out) {
    const numa *n = ctx;
    uint64_t local = addr;
    uint32_t zone = n->c.place->zone_of(n->place, addr, 0, 0, &local);
    /* a first_touch page nobody has touched has no zone yet: no request of the
     * memory system can carry one (numa_route places it; copies skip it), so this
     * is defensive: the single-module decode */
    if (zone >= n->c.n_modules) addrmap_decode(n->am, addr, out);
    else zone_decode(n, zone, local, out);
}

uint32_t numa_route_peek(numa *n, uint64_t addr) {
    uint64_t local = addr;
    uint32_t zone = n->c.place->zone_of(n->place, addr, 0, 0, &local);
    if (zone >= n->c.n_modules) return UINT32_MAX;
    addr_loc l;
    zone_decode(n, zone, local, &l);
    return l.slice;
}

uint32_t numa_zone_of_slice(const numa *n, uint32_t slice) {
    return slice / (n->chans_per_zone * n->c.slices_per_channel);
}

uint32_t numa_zone_of_dst(const numa *n, uint32_t net, uint32_t dst) {
    return net ? numa_zone_of_sm(n, dst) : numa_zone_of_slice(n, dst);
}

/* ---- links ---- */

uint32_t numa_n_links(const numa *n) { return n->nlinks; }

/* The link module m sends a packet for module z on.  Ring: the shorter way
 * round; at half the ring, even modules go clockwise and odd ones the other
 * way, so that every link carries the same share of uniform traffic. */
static struct numa_link *link_towards(numa *n, uint32_t m, uint32_t z) {
    uint32_t N = n->c.n_modules;
    if (n->nlinks == N) return &n->links[m];
    uint32_t d = (z + N - m) % N;
    int cw = d < N / 2 || (d == N / 2 && m % 2 == 0);
    return &n->links[2 * m + (cw ? 0 : 1)];
}

/* Queue p's copy on link l, as its hop-th link; -1: that class is full. */
static int link_enqueue(numa *n, struct numa_link *l, const link_pkt *p, uint32_t hop) {
    link_class *c = &l->cls[2 * hop + (p->net ? 1 : 0)];
    if (c->count == LINK_QUEUE) {
        n->st.link_send_stalls++;
        return -1;
    }
    link_pkt *q = &c->q[(c->head + c->count) % LINK_QUEUE];
    *q = *p;
    q->hop = hop;
    q->ready = 0;
    c->count++;
    return 0;
}

int numa_link_push(numa *n, uint32_t m, const mem_req *r, uint32_t bytes, uint32_t net, uint32_t port) {
    link_pkt p = {.r = *r, .bytes = bytes, .net = net, .port = port, .zone = numa_zone_of_dst(n, net, port)};
    return link_enqueue(n, link_towards(n, m, p.zone), &p, 0);
}

/* The next class from rr on (wrapping) with a packet not yet sent, or NULL. */
static link_class *next_to_send(struct numa_link *l, uint32_t *k) {
    for (uint32_t i = 0; i < LINK_CLASSES; i++) {
        uint32_t j = (l->rr + i) % LINK_CLASSES;
        if (l->cls[j].sent < l->cls[j].count) {
            *k = j;
            return &l->cls[j];
        }
    }
    return NULL;
}

/* An arrived packet leaves link l: into its destination's network, or (ring)
 * onto the next link of its way round.  0 when it left. */
static int link_hand_over(numa *n, struct numa_link *l, link_pkt *p, numa_deliver_fn deliver, void *ctx) {
    if (l->to == UINT32_MAX || l->to == p->zone) return deliver(ctx, p->net, p->port, &p->r, p->bytes);
    struct numa_link *next = &n->links[2 * l->to + (l->dir > 0 ? 0 : 1)];
    return p->hop + 1 < MAX_HOPS ? link_enqueue(n, next, p, p->hop + 1) : -1;
}

/* Transmit while the bucket has credit (a packet may overdraw it: the average
 * rate is exact). */
static void link_send(numa *n, struct numa_link *l) {
    /* the classes take turns, one packet each, while credit lasts */
    uint32_t k;
    link_class *c;
    while (l->credit > 0 && (c = next_to_send(l, &k))) {
        link_pkt *p = &c->q[(c->head + c->sent) % LINK_QUEUE];
        int64_t cost = (int64_t)p->bytes * n->cost_per_byte;
        l->credit -= cost;
        /* on the wire for ceil(cost / rate) cycles, then the latency */
        p->ready = l->now + n->lat_cycles + (uint64_t)((cost + n->rate - 1) / n->rate);
        c->sent++;
        l->rr = (k + 1) % LINK_CLASSES;   /* the next class first next time */
        n->st.link_packets++;
        n->st.link_bytes += p->bytes;
    }
    l->credit += n->rate;
    if (l->credit > n->rate) l->credit = n->rate;
}

/* Hand over what has arrived, in order within each class.  After every link
 * has sent (numa_links_cycle), so a packet forwarded on a ring leaves its next
 * link in the next cycle whichever the two links' order. */
static void link_arrive(numa *n, struct numa_link *l, numa_deliver_fn deliver, void *ctx) {
    for (int j = 0; j < LINK_CLASSES; j++) {
        link_class *c = &l->cls[j];
        while (c->sent) {
            link_pkt *p = &c->q[c->head];
            if (p->ready > l->now || link_hand_over(n, l, p, deliver, ctx)) break;
            c->head = (c->head + 1) % LINK_QUEUE;
            c->count--;
            c->sent--;
        }
    }
    l->now++;
}

void numa_links_cycle(numa *n, numa_deliver_fn deliver, void *ctx) {
    for (uint32_t i = 0; i < n->nlinks; i++) link_send(n, &n->links[i]);
    for (uint32_t i = 0; i < n->nlinks; i++) link_arrive(n, &n->links[i], deliver, ctx);
    n->st.link_cycles++;
}

int numa_links_idle(const numa *n) {
    for (uint32_t i = 0; i < n->nlinks; i++)
        for (int j = 0; j < LINK_CLASSES; j++)
            if (n->links[i].cls[j].count) return 0;
    return 1;
}

void numa_links_skip(numa *n, uint64_t cycles) {
    for (uint32_t i = 0; i < n->nlinks; i++) {
        n->links[i].now += cycles;
        n->links[i].credit = n->rate;
    }
    n->st.link_cycles += cycles;
}

/* ---- the dispatch of a partitioned grid ----
 * CTAs are grouped by (zone, cluster); an SM takes the CTAs of one group in
 * linear order, then the zone's next group; when its zone has no group left to
 * start it takes the last CTA of the zone's group with the most left (as the
 * ldesc CTA scheduler spreads its last clusters).  When its zone has no CTA
 * left at all, with -numa_cta_steal 1 it does the same in the zone with the most
 * CTAs left (ties: the lowest) among the zones whose own SMs are all full,
 * taking that zone's *last* group not started (its own SMs take them from the
 * front, as a work-stealing deque), else spreading that zone's groups; with 0 it
 * idles (docs/numa.md, "Idle zones").  A zone with an SM that has room keeps its
 * CTAs: SMs with room ask every cycle, so its own SM takes them (a thief that went
 * first in SM order would otherwise empty it at the launch). */
typedef struct numa_cta {
    numa *n;
    uint64_t *order;             /* CTA ids sorted by (zone, cluster, id) */
    uint64_t *gbeg, *gend, *gnext;
    uint64_t ngroups;
    uint64_t zfirst[NUMA_MAX_MODULES + 1], znext[NUMA_MAX_MODULES];
    uint64_t zlast[NUMA_MAX_MODULES];   /* groups [znext, zlast) of the zone not started */
    uint64_t zleft[NUMA_MAX_MODULES];   /* CTAs of the zone not dispatched yet */
    uint64_t left;                      /* all zones' */
    int64_t *cur;                /* per SM: its group, -1 none */
    uint32_t *cur_zone;          /* per SM: the zone of its group */
    uint32_t *room;              /* per SM: CTA slots free after its last ask (1 before any) */
    uint32_t zopen[NUMA_MAX_MODULES];   /* SMs of the zone with room */
} numa_cta;

typedef struct {
    uint64_t key, cta;
} keyed;

static int keyed_cmp(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->cta < y->cta ? -1 : x->cta > y->cta;
}

static void cta_free(numa *n) {
    numa_cta *c = n->cta;
    if (!c) return;
    free(c->order);
    free(c->gbeg);
    free(c->gend);
    free(c->gnext);
    free(c->cur);
    free(c->cur_zone);
    free(c->room);
    free(c);
    n->cta = NULL;
}

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* Clusters of zone z's CTAs: cls[z] tiles of the grid, ncl[z] of them per dimension. */
static int cta_build(numa *n, const numa_launch *L, const uint8_t *zone, const locsim_dim3 *cls) {
    numa_cta *c = calloc(1, sizeof *c);
    keyed *k = malloc(L->nctas * sizeof *k);
    if (!c || !k) goto oom;
    n->cta = c;
    c->n = n;
    uint64_t ncx[NUMA_MAX_MODULES], ncy[NUMA_MAX_MODULES], nclusters = 1;   /* the most of any zone */
    for (uint32_t m = 0; m < n->c.n_modules; m++) {
        ncx[m] = ceil_div(L->grid.x, cls[m].x), ncy[m] = ceil_div(L->grid.y, cls[m].y);
        uint64_t all = ncx[m] * ncy[m] * ceil_div(L->grid.z, cls[m].z);
        if (all > nclusters) nclusters = all;
    }
    for (uint64_t id = 0; id < L->nctas; id++) {
        uint64_t x = id % L->grid.x, y = (id / L->grid.x) % L->grid.y, z = id / ((uint64_t)L->grid.x * L->grid.y);
        const locsim_dim3 *t = &cls[zone[id]];
        uint64_t cl = x / t->x + ncx[zone[id]] * (y / t->y + ncy[zone[id]] * (z / t->z));
        k[id].key = zone[id] * nclusters + cl;
        k[id].cta = id;
    }
    qsort(k, L->nctas, sizeof *k, keyed_cmp);
    c->order = malloc(L->nctas * sizeof *c->order);
    c->gbeg = malloc(L->nctas * sizeof *c->gbeg);
    c->gend = malloc(L->nctas * sizeof *c->gend);
    c->gnext = malloc(L->nctas * sizeof *c->gnext);
    c->cur = malloc(n->c.num_sms * sizeof *c->cur);
    c->cur_zone = calloc(n->c.num_sms, sizeof *c->cur_zone);
    c->room = malloc(n->c.num_sms * sizeof *c->room);
    if (!c->order || !c->gbeg || !c->gend || !c->gnext || !c->cur || !c->cur_zone || !c->room) goto oom;
    for (uint32_t s = 0; s < n->c.num_sms; s++) {
        c->cur[s] = -1;
        c->room[s] = 1;   /* unknown until it asks: presumed to have room */
        c->zopen[numa_zone_of_sm(n, s)]++;
    }
    uint32_t zprev = 0;
    c->zfirst[0] = 0;
    for (uint64_t i = 0; i < L->nctas; i++) {
        c->order[i] = k[i].cta;
        c->zleft[zone[k[i].cta]]++;
        if (i == 0 || k[i].key != k[i - 1].key) {
            uint32_t zi = (uint32_t)(k[i].key / nclusters);
            while (zprev < zi) c->zfirst[++zprev] = c->ngroups;
            if (c->ngroups) c->gend[c->ngroups - 1] = i;
            c->gbeg[c->ngroups] = c->gnext[c->ngroups] = i;
            c->ngroups++;
        }
    }
    if (c->ngroups) c->gend[c->ngroups - 1] = L->nctas;
    while (zprev < n->c.n_modules) c->zfirst[++zprev] = c->ngroups;
    for (uint32_t z = 0; z < n->c.n_modules; z++) {
        c->znext[z] = c->zfirst[z];
        c->zlast[z] = c->zfirst[z + 1];
    }
    c->left = L->nctas;
    free(k);
    return 0;
oom:
    free(k);
    cta_free(n);
    return -1;
}

int numa_kernel_begin(numa *n, const numa_launch *L, char *err, size_t errlen) {
    cta_free(n);
    if (!n->c.place->kernel_begin || L->nctas == 0) return 0;
    uint8_t *zone = malloc(L->nctas);
    if (!zone) {
        snprintf(err, errlen, "out of host memory partitioning %llu CTAs", (unsigned long long)L->nctas);
        return -1;
    }
    locsim_dim3 cls[NUMA_MAX_MODULES];
    for (uint32_t m = 0; m < NUMA_MAX_MODULES; m++) cls[m] = (locsim_dim3){1, 1, 1};
    /* the placement always plans (ldesc picks its bits here); with
     * -numa_cta_partition 0 its partition is dropped (the paper's LDesc-Placement) */
    int part = n->c.place->kernel_begin(n->place, L, zone, cls);
    int r = 0;
    if (part && n->c.cta_partition) {
        for (uint64_t i = 0; i < L->nctas; i++)
            if (zone[i] >= n->c.n_modules) zone[i] = 0;   /* defensive: a policy's bad zone */
        for (uint32_t m = 0; m < n->c.n_modules; m++) {
            if (cls[m].x == 0) cls[m].x = 1;
            if (cls[m].y == 0) cls[m].y = 1;
            if (cls[m].z == 0) cls[m].z = 1;
        }
        if (cta_build(n, L, zone, cls)) {
            snprintf(err, errlen, "out of host memory partitioning %llu CTAs", (unsigned long long)L->nctas);
            r = -1;
        } else {
            n->st.partitioned_kernels++;
            r = 1;
        }
    }
    free(zone);
    return r;
}

void *numa_cta_state(numa *n) { return n->cta; }

/* One CTA of zone z's group g (its next, or with `last` its last) for SM sm. */
static uint64_t take(numa_cta *c, uint64_t g, uint32_t z, int last) {
    c->zleft[z]--;
    c->left--;
    return last ? c->order[--c->gend[g]] : c->order[c->gnext[g]++];
}

/* A CTA of zone z for SM sm: a group not started (the zone's next one for its own
 * SMs, its last one for a thief), else the last CTA of the zone's group with the
 * most left.  0: the zone has none. */
static int take_from_zone(numa_cta *c, uint32_t sm, uint32_t z, int thief, uint64_t *id) {
    if (!c->zleft[z]) return 0;
    if (c->znext[z] < c->zlast[z]) {
        uint64_t g = thief ? --c->zlast[z] : c->znext[z]++;
        c->cur[sm] = (int64_t)g;
        c->cur_zone[sm] = z;
        *id = take(c, g, z, 0);
        return 1;
    }
    uint64_t best = 0, g = 0;   /* spread the zone's remaining groups */
    for (uint64_t i = c->zfirst[z]; i < c->zfirst[z + 1]; i++)
        if (c->gend[i] - c->gnext[i] > best) best = c->gend[i] - c->gnext[i], g = i;
    if (!best) return 0;
    *id = take(c, g, z, 1);
    return 1;
}

/* SM sm (of zone z) has `room` CTA slots free. */
static void note_room(numa_cta *c, uint32_t sm, uint32_t z, uint32_t room) {
    c->zopen[z] -= c->room[sm] > 0;
    c->zopen[z] += room > 0;
    c->room[sm] = room;
}

/* The zone a thief of zone z takes from: the most CTAs left (ties: the lowest)
 * among the other zones whose SMs are all full; -1 if none. */
static int steal_victim(const numa_cta *c, uint32_t z) {
    int v = -1;
    for (uint32_t k = 0; k < c->n->c.n_modules; k++)
        if (k != z && c->zleft[k] && !c->zopen[k] && (v < 0 || c->zleft[k] > c->zleft[v])) v = (int)k;
    return v;
}

static int cta_next(void *st, uint32_t sm, uint32_t free_slots, uint64_t now, uint64_t *id) {
    (void)now;
    numa_cta *c = st;
    if (!c->left) return 0;   /* the grid is done: no scan (SMs ask every cycle) */
    int64_t g = c->cur[sm];
    uint32_t z = numa_zone_of_sm(c->n, sm);
    note_room(c, sm, z, free_slots);
    if (g >= 0 && c->gnext[g] < c->gend[g]) {   /* the SM's group (its zone's, or one it stole) */
        *id = take(c, (uint64_t)g, c->cur_zone[sm], 0);
        c->n->st.stolen_ctas += c->cur_zone[sm] != z;
    } else if (!take_from_zone(c, sm, z, 0, id)) {
        int v = c->n->c.cta_steal ? steal_victim(c, z) : -1;
        if (v < 0 || !take_from_zone(c, sm, (uint32_t)v, 1, id)) return 0;
        c->n->st.stolen_ctas++;
    }
    note_room(c, sm, z, free_slots ? free_slots - 1 : 0);
    return 1;
}

static void cta_destroy(void *st) {
    numa_cta *c = st;
    cta_free(c->n);
}

static uint64_t cta_clusters(const void *st) { return ((const numa_cta *)st)->ngroups; }

const cta_sched_ops numa_cta_ops = {
    .name = "numa",
    .help = "the placement's CTA partition across NUMA zones (not selectable by -cta_scheduler)",
    .next = cta_next,
    .destroy = cta_destroy,
    .clusters = cta_clusters,
};
