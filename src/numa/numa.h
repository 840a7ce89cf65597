/* A multi-module (NUMA) GPU: modules, their inter-module links, and the
 * placement of data and CTAs across the modules' memory zones (docs/numa.md).
 *
 * With -numa_n_modules N > 1 the GPU is cut into N modules (GPMs, NUMA zones):
 * module m owns SMs [m*S/N, (m+1)*S/N) and memory channels [m*C/N, (m+1)*C/N)
 * with their L2 slices.  A placement policy (one file each, behind
 * numa_place_ops, chosen by -numa_placement) says which zone holds each address
 * and, optionally, which zone runs each CTA.  A request from an SM to another
 * module's slice crosses the sender's egress link; its reply crosses the
 * owner's egress link back.  Each module has one egress link
 * (-numa_link_bandwidth GB/s, -numa_link_latency ns, both converted to
 * interconnect cycles), shared by the requests and replies it sends.
 *
 * With one module nothing here is created and the GPU top runs its old paths.
 */
#ifndef LOCSIM_NUMA_H
#define LOCSIM_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "locsim/locsim.h"
#include "mem/addrmap.h"
#include "mem/mem_req.h"

#define NUMA_MAX_MODULES 16

struct ldesc_set;

/* What a placement policy is built from. */
typedef struct {
    uint32_t nzones;            /* a power of two, 2..NUMA_MAX_MODULES */
    uint32_t zone_bits;         /* log2(nzones) */
    uint32_t sms_per_zone;
    uint64_t page_size;         /* -numa_page_size (first_touch) */
} numa_geom;

/* A launch, as a placement sees it. */
typedef struct {
    locsim_dim3 grid;
    uint64_t nctas;
    const struct ldesc_set *ldesc;   /* NULL: no descriptors attached */
} numa_launch;

typedef struct numa_place_ops {
    const char *name, *help;
    void *(*create)(const numa_geom *g, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* Optional: a launch begins.  A policy that partitions the grid writes the
     * zone of every CTA into cta_zone[0..nctas) and returns 1; 0 leaves the CTAs
     * to the configured CTA scheduler.  cls[z] (z < nzones) gets the CTA cluster
     * shape zone z's SMs take its CTAs in ((1,1,1), the value it holds on entry:
     * one CTA at a time). */
    int (*kernel_begin)(void *st, const numa_launch *L, uint8_t *cta_zone, locsim_dim3 *cls);
    /* The zone of addr, as an SM of zone `from` accesses it (touch = 1) or as
     * the host's copies look at it (touch = 0: first_touch places nothing then;
     * it returns nzones for a page nobody has touched).  *local gets the address
     * with the zone-index bits taken out, which picks the channel in the zone. */
    uint32_t (*zone_of)(void *st, uint64_t addr, uint32_t from, int touch, uint64_t *local);
} numa_place_ops;

const numa_place_ops *numa_place_find(const char *name);
const numa_place_ops *numa_place_at(uint32_t i);

/* Helpers the policies share (numa_place.c). */
/* XOR-fold of the line address (addr >> 7) into zone_bits bits. */
uint32_t numa_xor_zone(uint64_t addr, uint32_t zone_bits);
/* addr with bits [bit, bit + n) removed (the higher bits shifted down). */
uint64_t numa_squeeze(uint64_t addr, uint32_t bit, uint32_t n);
/* Bytes of [lo, hi) (offsets) whose bits [b, b + zone_bits) equal z. */
uint64_t numa_bytes_in_zone(uint64_t lo, uint64_t hi, uint32_t b, uint32_t zone_bits, uint32_t z);

/* ---- Algorithm 2 (numa_place_ldesc.c), exposed for its unit test ---- */
#define NUMA_LDESC_PAGE_MAP 0xff   /* plan.bit: placed page by page through the page table (footnote 3) */
typedef struct {
    uint8_t bit[LOCSIM_LDESC_MAX];   /* lowest zone-index bit per descriptor (7..16), or NUMA_LDESC_PAGE_MAP */
    double util;                     /* the chosen partition's utility */
    uint8_t *page[LOCSIM_LDESC_MAX];   /* NUMA_LDESC_PAGE_MAP: the zone of each 64 KB page of the structure */
    uint32_t *rank[LOCSIM_LDESC_MAX];  /* and the page's index among the structure's pages in that zone */
} numa_ldesc_plan;
/* Run Algorithm 2 for the launch: cta_zone[nctas] gets the CTA partition.  The
 * plan's page tables are allocated here (numa_ldesc_plan_free; plan is
 * overwritten, so free the previous one first). */
void numa_ldesc_plan_run(const struct ldesc_set *s, locsim_dim3 grid, uint64_t nctas, uint32_t zone_bits,
                         uint8_t *cta_zone, uint8_t *scratch, numa_ldesc_plan *plan);
void numa_ldesc_plan_free(numa_ldesc_plan *plan);

/* ---- the fabric (numa.c) ---- */

typedef struct {
    uint32_t n_modules;
    uint32_t num_sms, n_channels, slices_per_channel;
    double link_gbps, link_ns;
    uint64_t icnt_khz;
    uint32_t port_bytes;             /* bytes one crossbar port moves per interconnect cycle
                                        (-icnt_flit_size x -icnt_flits_per_cycle) */
    uint64_t page_size;
    const numa_place_ops *place;
    int cta_partition;               /* -numa_cta_partition */
    int cta_steal;                   /* -numa_cta_steal: an SM whose zone has no CTA left takes another zone's */
    int flat;                        /* -numa_flat_fabric: no module boundary (every access crosses one crossbar) */
    int ring;                        /* -numa_link_topology ring: links only between neighbours of a ring */
} numa_config;

typedef struct {
    uint64_t local, remote;                    /* requests by where their slice is */
    uint64_t zone_accesses[NUMA_MAX_MODULES];  /* requests arriving at each zone's slices */
    uint64_t link_packets, link_bytes;         /* crossing any link (requests + replies) */
    uint64_t link_send_stalls;                 /* a link's queue was full */
    uint64_t link_cycles;                      /* interconnect cycles the links existed, per link */
    uint64_t partitioned_kernels;              /* launches whose CTAs the placement partitioned */
    uint64_t stolen_ctas;                      /* CTAs of a partitioned grid run outside their zone */
} numa_counters;

typedef struct numa numa;

numa *numa_create(const numa_config *c, const addrmap *am, char *err, size_t errlen);
void numa_destroy(numa *n);
uint32_t numa_modules(const numa *n);
static inline uint32_t numa_zone_of_sm(const numa *n, uint32_t sm);
/* Route one request of SM sm: its zone and global L2 slice (counts it). */
uint32_t numa_route(numa *n, uint64_t addr, uint32_t sm, uint32_t *slice);
/* The slice the host's copy of addr goes to; UINT32_MAX: not placed yet. */
uint32_t numa_route_peek(numa *n, uint64_t addr);
uint32_t numa_zone_of_slice(const numa *n, uint32_t slice);
/* The L2 set-index address of addr (a cache_index_addr_fn; ctx: the numa). */
uint64_t numa_l2_index_addr(const void *ctx, uint64_t addr);
/* Where addr lives in the memory system (a partition_decode_fn; ctx: the numa):
 * its global channel and L2 slice (those numa_route picks), and the DRAM bank,
 * row and column, all decoded from the zone-local address by the zone's mapping
 * (the single-module mapping of a GPU with the zone's channels): each zone's
 * channels see its data as a dense address space, whatever the placement. */
void numa_decode(const void *ctx, uint64_t addr, addr_loc *out);

/* The crossbar ports of the links.  A remote packet crosses its own module's
 * crossbar to one of the module's egress ports (extra outputs of the network),
 * the link, then the far module's crossbar from one of that module's ingress
 * ports (extra inputs) to its destination: it uses the source port and the
 * destination port a monolithic GPU's packet would, plus the link and its two
 * ports.  A module has numa_xbar_ports() of each per network, enough ports that
 * together they move the link's bytes per cycle (at most one per SM or slice
 * of the module, which is all that can feed them).  Indices are relative to
 * the first extra port of the network: a source (SM or slice) of module m
 * sends through egress port numa_egress_port(n, m, src); its packet enters
 * module m' through ingress port numa_ingress_port(n, net, m', src). */
uint32_t numa_xbar_ports(const numa *n);
static inline uint32_t numa_egress_port(const numa *n, uint32_t m, uint32_t src);
static inline uint32_t numa_ingress_port(const numa *n, uint32_t net, uint32_t m, uint32_t src);
/* The zone of a network destination: an L2 slice (requests, net 0) or an SM (replies). */
uint32_t numa_zone_of_dst(const numa *n, uint32_t net, uint32_t dst);

/* Links: push a packet into module m's egress link (-1: full), to be delivered
 * at output port `port` of the network `net` (0 requests, 1 replies). */
int numa_link_push(numa *n, uint32_t m, const mem_req *r, uint32_t bytes, uint32_t net, uint32_t port);
/* One interconnect cycle of every link: transmit at the link's rate; then
 * deliver arrived packets through deliver(), which returns 0 when the network
 * took it (else it stays at the head of its link and is offered again). */
typedef int (*numa_deliver_fn)(void *ctx, uint32_t net, uint32_t port, const mem_req *r, uint32_t bytes);
void numa_links_cycle(numa *n, numa_deliver_fn deliver, void *ctx);
int numa_links_idle(const numa *n);
void numa_links_skip(numa *n, uint64_t cycles);

/* A launch begins: 1 if the placement partitioned the grid (then
 * numa_cta_ops/numa_cta_state dispatch it), 0 otherwise. */
struct cta_sched_ops;
int numa_kernel_begin(numa *n, const numa_launch *L, char *err, size_t errlen);
extern const struct cta_sched_ops numa_cta_ops;
void *numa_cta_state(numa *n);

const numa_counters *numa_stats(const numa *n);
uint32_t numa_n_links(const numa *n);             /* links of the fabric (each one way) */
double numa_link_bytes_per_cycle(const numa *n);   /* one link's rate, bytes per interconnect cycle */

struct numa {
    numa_config c;
    uint32_t sms_per_zone, chans_per_zone, zone_bits;
    const addrmap *am;
    addrmap zam;                     /* the mapping within a zone: chans_per_zone channels */
    void *place;
    numa_counters st;
    struct numa_link *links;
    int64_t rate, cost_per_byte;     /* token bucket: credit per cycle, cost per byte */
    uint64_t lat_cycles;
    uint32_t xbar_ports;             /* egress (and ingress) crossbar ports per module per network */
    uint32_t nlinks;                 /* modules (one egress link each), or 2 x modules on a ring */
    struct numa_cta *cta;            /* the running kernel's zone dispatch */
};

static inline uint32_t numa_zone_of_sm(const numa *n, uint32_t sm) { return sm / n->sms_per_zone; }
/* Sources are spread over the module's ports by index: a fixed choice keeps
 * each source's packets in order and is deterministic.  Egress: a source of
 * module m by its own index.  Ingress: module m's remote sources of network net
 * (SMs for requests, L2 slices for replies; `per` in each module) ranked local
 * index x (N - 1) + (distance of their module from m) - 1, so that the sources
 * of one local index in the other modules enter through different ports.
 * Before (src mod ports, issue 31) a module with as many ports as sources
 * (ports = per, e.g. with unbounded links) took every remote slice of local
 * index j through port j: the XOR placement puts neighbouring lines in the
 * same slice of each zone, so a hot line group's replies from three modules
 * queued behind one ingress port. */
static inline uint32_t numa_remote_rank(const numa *n, uint32_t net, uint32_t m, uint32_t src) {
    uint32_t N = n->c.n_modules, per = net ? n->chans_per_zone * n->c.slices_per_channel : n->sms_per_zone;
    return (src % per) * (N - 1) + (src / per + N - m - 1) % N;
}
static inline uint32_t numa_egress_port(const numa *n, uint32_t m, uint32_t src) {
    return m * n->xbar_ports + src % n->xbar_ports;
}
static inline uint32_t numa_ingress_port(const numa *n, uint32_t net, uint32_t m, uint32_t src) {
    return m * n->xbar_ports + numa_remote_rank(n, net, m, src) % n->xbar_ports;
}

#endif
