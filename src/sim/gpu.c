/* The GPU top: clock domains, CTA dispatch, the wiring between SMs, networks and
 * memory partitions (see gpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <omp.h>
#include <sched.h>
#include <stdatomic.h>

#include "analysis/sharers.h"
#include "sim/config.h"
#include "sim/gpu.h"
#include "sim/spin_barrier.h"

#define NEVER UINT64_MAX
#define PROGRESS_INTERVAL (1ull << 14)
#define NO_SM 0xffffu                  /* cta_sm: not dispatched */

/* What one SM did in a parallel core cycle that touches state shared with the
 * other SMs, held until the cycle's ordered exchange (docs/timing-core.md,
 * "Parallel simulation (-sim_threads)"). */
typedef struct {
    mem_req *reqs;                 /* requests it sent, in order: pushed at the exchange */
    uint32_t nreqs, reqs_cap;
    uint32_t flits;                /* their flits, for the room check of its input port */
    uint64_t *ctas;                /* CTAs that finished, in order */
    uint32_t nctas, ctas_cap;
    uint64_t send_fails;           /* sends refused (the port was full) */
    int oom;                       /* a request or CTA could not be held: out of host memory */
} sm_stage;

#define HELD_MAX 16u
#define LEAD_EVEN 1024u

struct gpu {
    gpu_params p;
    sm **sms;
    uint64_t *wake;                /* sm_wake_at of each SM, kept here so that a
                                      sleeping SM costs one compare per cycle */
    icnt *req_net, *rep_net;
    numa *numa;                    /* NULL with one module (docs/numa.md) */
    addrmap am;
    partition **parts;
    uint32_t nparts, slices_per_part, nslices;
    uint64_t ticks[CLK_COUNT];     /* cycles done per domain */
    /* The next edge of each domain on a common integer time scale (speed only):
     * with L the least common multiple of the frequencies, edge n of a domain of
     * frequency f is at (n+1) * (L/f) units, so comparing edges is comparing
     * integers instead of cross-multiplying.  Kept modulo 2^64 and compared by
     * signed difference, which is exact while the true edges lie within 2^63
     * units of each other (they lie within one period).  exact_edges is 0 when L
     * would not fit; edge_before() then cross-multiplies. */
    uint64_t period[CLK_COUNT], edge[CLK_COUNT];
    int exact_edges;
    gpu_counters st;

    /* the running kernel */
    const exec_launch *L;
    const cta_sched_ops *cta_ops;
    void *cta_state;
    uint64_t ctas_total, ctas_dispatched, ctas_done;
    int room_maybe;                /* an SM may have room for a CTA */
    int fault_maybe;               /* an SM has faulted (faults arise only in the SM
                                      calls of core_tick, which check for them) */
    uint64_t min_wake;             /* smallest of wake[], as core_tick left it */
    int wake_changed;              /* wake[] changed outside core_tick's SM loop */
    uint32_t rr_sm;
    /* the CTA-to-SM map of the running kernel (statistics only) */
    uint16_t *cta_sm;              /* SM of each CTA, NULL when the grid is too large to keep */
    uint64_t *sm_ctas, *sm_insn0;  /* per SM: CTAs dispatched; thread instructions at kernel start */
    sharers *sharers;              /* SMs reading each L2 line */
    sm_occupancy_info occ;
    uint32_t max_resident;
    locsim_status kernel_status;
    char *kernel_err;
    size_t kernel_errlen;

    gpu_progress_fn progress;
    void *progress_ctx;
    gpu_cap_fn on_cap;
    void *cap_ctx;
    uint64_t next_progress;
    uint64_t kernel_start;          /* core cycle the running kernel started at */
    int needs_reset;                /* an interrupted kernel left state behind */

    /* Caps and the per-kernel timing window (docs/timing-core.md, "Caps and
     * timing windows").  None of it is touched per cycle unless an option is set. */
    gpu_cap_info cap;               /* .option set once a cap stopped the timing simulation */
    uint64_t launches;              /* kernels launched on this GPU (launch index of the next) */
    uint64_t ctas_limit;            /* CTAs of the running kernel that may run in timing mode */
    uint64_t insn_watch;            /* timed thread instructions (all SMs, cumulative) at which
                                       -gpgpu_max_insn or the kernel's window stops it; 0 = none */
    int draining;                   /* the window closed: issue stopped, memory drains */
    uint64_t warmup_left;           /* warm-up thread instructions still to run in this kernel */
    uint8_t *dispatched;            /* a bit per CTA: handed out (timed or warm-up); kept only
                                       when a window, warm-up or cap may leave CTAs to finish */
    /* The stuck-simulation check (-gpgpu_deadlock_detect): every STUCK_CHECK core
     * cycles, has anything issued or reached an SM since the last progress? */
    uint64_t next_stuck_check, progress_at, progress_mark;

    /* Parallel simulation (-sim_threads; docs/timing-core.md, "Parallel
     * simulation").  par: the running kernel steps its SMs on several threads;
     * staging: the SMs' ports stage into stage[] (set only around the parallel
     * loop, read-only inside it). */
    int par, staging;
    /* The L2 and DRAM ticks held back since the last core cycle, in order (CLK_L2
     * or CLK_DRAM): with par, the main thread runs them during the next parallel
     * SM cycle (run_held_memory says why that is the serial order's result). */
    uint8_t held[HELD_MAX];
    uint32_t nheld;
    uint32_t lead_share;           /* SMs the main thread steps beside the held ticks,
                                      in 1/1024 of an even share (speed only) */
    _Atomic uint32_t arrivals;     /* threads done with a parallel cycle */
    /* The kernel's threads (run_parallel): they meet at par_bar before and
     * after each parallel cycle; par_quit tells them the kernel is over. */
    spin_barrier par_bar;
    uint32_t par_threads, par_lead, par_lead_rank;
    uint64_t par_now;
    int par_quit;
    _Atomic int par_faulted;
    exec_memlog *memlogs;          /* per SM: its cycle's deferred global memory */
    int cycle_written;             /* the exchange has replayed a store or atomic this cycle */
    sm_stage *stage;               /* per SM */
    uint32_t *awake;               /* the SMs stepped this cycle, in SM order */
    uint8_t *staged;               /* per SM: its parallel cycle left something for the exchange */
    mem_req *mail;                 /* per SM: a reply its own thread delivers (has_mail) */
    uint8_t *has_mail;
};

#define STUCK_CHECK (1ull << 16)

/* ---- ports between SMs and the networks ---- */

static int stage_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap) return 0;
    uint32_t n = *cap ? *cap * 2 : 16;
    void *a = realloc(*arr, (size_t)n * elem);
    if (!a) return -1;
    *arr = a;
    *cap = n;
    return 0;
}

/* A send during a parallel cycle: the push waits for the exchange, but the SM
 * must know now whether it is taken.  That depends only on the SM's own input
 * port (its room after the requests staged before) and, on one module, on the
 * address mapping: the same answer the immediate send would give. */
static int stage_send(gpu *g, uint32_t sm_id, const mem_req *r) {
    sm_stage *st = &g->stage[sm_id];
    uint32_t bytes = mem_packet_bytes(r);
    if (!g->numa) {
        addr_loc loc;
        addrmap_decode(&g->am, r->addr, &loc);
        if (loc.slice >= g->nslices) {
            st->send_fails++;
            return 0;
        }
    }
    if (!icnt_can_push_after(g->req_net, sm_id, st->nreqs, st->flits, bytes)) {
        st->send_fails++;
        return 0;
    }
    if (stage_grow((void **)&st->reqs, &st->reqs_cap, st->nreqs + 1, sizeof *st->reqs)) {
        st->oom = 1;
        return 0;
    }
    st->reqs[st->nreqs++] = *r;
    st->flits += icnt_flits(g->req_net, bytes);
    return 1;
}

/* A request of a multi-module GPU: to the slice the placement names.  A remote
 * one crosses the sender's own crossbar to one of its module's egress ports
 * (the request network's outputs past the slices), whence numa_icnt_tick moves
 * it onto the module's link; it enters the far module's crossbar at an ingress
 * port (inputs past the SMs).  So it takes the SM's port as a local request
 * does, and the slice's port at the far end (docs/numa.md, "Crossing modules").
 * (The SMs' port: a single-module GPU's gpu_send never looks for a fabric.) */
static int numa_send(void *ctx, uint32_t sm_id, const mem_req *r) {
    gpu *g = ctx;
    if (g->staging) return stage_send(g, sm_id, r);
    numa *n = g->numa;
    uint32_t slice, zone = numa_route(n, r->addr, sm_id, &slice), from = numa_zone_of_sm(n, sm_id);
    uint32_t dst = zone == from || n->c.flat ? slice : g->nslices + numa_egress_port(n, from, sm_id);
    if (icnt_try_push(g->req_net, sm_id, dst, r, mem_packet_bytes(r)) != 0) {
        g->st.send_fails++;
        return 0;
    }
    if (zone == from) n->st.local++;
    else n->st.remote++;
    n->st.zone_accesses[zone]++;
    return 1;
}

/* A packet arriving over a link enters the destination module's crossbar at
 * the ingress port of its source (requests: their SM; replies: their slice),
 * as it left its own module through its source's egress port: each ingress
 * queue holds packets for any output in arrival order, as the source's own
 * port does, so the ports add no queue per destination that a monolithic
 * crossbar lacks (a packet for a busy output blocks those behind it). */
static int numa_deliver(void *ctx, uint32_t net, uint32_t port, const mem_req *r, uint32_t bytes) {
    gpu *g = ctx;
    numa *n = g->numa;
    icnt *x = net ? g->rep_net : g->req_net;
    uint32_t from = net ? numa_route_peek(n, r->addr) : r->sm;
    if (from == UINT32_MAX) from = 0;   /* defensive: a reply's line was placed when its request was sent */
    uint32_t src = (net ? g->nslices : g->p.num_sms) + numa_ingress_port(n, net, numa_zone_of_dst(n, net, port), from);
    return icnt_try_push(x, src, port, r, bytes);
}

static int gpu_send(void *ctx, uint32_t sm_id, const mem_req *r) {
    gpu *g = ctx;
    if (g->staging) return stage_send(g, sm_id, r);
    addr_loc loc;
    addrmap_decode(&g->am, r->addr, &loc);
    uint32_t bytes = mem_packet_bytes(r);
    if (loc.slice >= g->nslices || icnt_try_push(g->req_net, sm_id, loc.slice, r, bytes) != 0) {
        g->st.send_fails++;
        return 0;
    }
    return 1;
}

/* An L2 prefetch candidate of another slice (-l2_prefetch_forward): queued at
 * the slice that holds it, to be fetched there the configured number of L2
 * cycles later (one module: the mapping names the slice). */
static bool gpu_forward_prefetch(void *ctx, uint64_t addr, const mem_req *cause, uint64_t now) {
    gpu *g = ctx;
    addr_loc loc;
    addrmap_decode(&g->am, addr, &loc);
    if (loc.slice >= g->nslices) return false;
    return partition_forward_prefetch(g->parts[loc.slice / g->slices_per_part], loc.slice % g->slices_per_part, cause,
                                      addr, now + g->p.part.prefetch_forward);
}

static void gpu_cta_done(void *ctx, uint32_t sm_id, uint64_t cta_linear) {
    gpu *g = ctx;
    if (g->staging) {   /* the CTA scheduler hears of it at the exchange, in SM order */
        sm_stage *st = &g->stage[sm_id];
        if (stage_grow((void **)&st->ctas, &st->ctas_cap, st->nctas + 1, sizeof *st->ctas)) st->oom = 1;
        else st->ctas[st->nctas++] = cta_linear;
        return;
    }
    g->ctas_done++;
    g->room_maybe = 1;
    if (g->cta_ops && g->cta_ops->done) g->cta_ops->done(g->cta_state, sm_id, cta_linear, g->ticks[CLK_CORE]);
}

/* ---- creation ---- */

static int build_memory(gpu *g, char *err, size_t errlen) {
    char why[256];
    if (addrmap_init(&g->am, &g->p.amap, why, sizeof why)) {
        snprintf(err, errlen, "-gpgpu_mem_addr_mapping: %s", why);
        return -1;
    }
    g->nparts = g->p.amap.n_channels;
    g->slices_per_part = g->p.amap.n_sub_per_channel;
    g->nslices = addrmap_slices(&g->am);
    g->parts = calloc(g->nparts, sizeof *g->parts);
    if (!g->parts) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < g->nparts; i++) {
        g->parts[i] = partition_create(&g->p.part, &g->am, i, why, sizeof why);
        if (!g->parts[i]) {
            snprintf(err, errlen, "memory partition %u: %s", i, why);
            return -1;
        }
    }
    if (g->p.part.prefetch_forward)
        for (uint32_t i = 0; i < g->nparts; i++)
            for (uint32_t s = 0; s < g->slices_per_part; s++)
                if (partition_l2(g->parts[i], s)) cache_set_prefetch_forward(partition_l2(g->parts[i], s), gpu_forward_prefetch, g);
    uint32_t extra_req = 0, extra_rep = 0;   /* the links' inputs (multi-module only) */
    if (g->p.numa.n_modules > 1) {
        g->numa = numa_create(&g->p.numa, &g->am, why, sizeof why);
        if (!g->numa) {
            snprintf(err, errlen, "multi-module GPU: %s", why);
            return -1;
        }
        /* each module's ingress (inputs) and egress (outputs) ports, both networks */
        extra_req = extra_rep = g->p.numa.n_modules * numa_xbar_ports(g->numa);
        for (uint32_t i = 0; i < g->nparts; i++) {
            partition_set_decode(g->parts[i], numa_decode, g->numa);
            for (uint32_t s = 0; s < g->slices_per_part; s++)
                if (partition_l2(g->parts[i], s))
                    cache_set_index_addr(partition_l2(g->parts[i], s), numa_l2_index_addr, g->numa);
        }
    }
    g->req_net = icnt_create(&g->p.icnt, g->p.num_sms + extra_req, g->nslices + extra_req, "request network", why,
                             sizeof why);
    if (g->req_net)
        g->rep_net = icnt_create(&g->p.icnt, g->nslices + extra_rep, g->p.num_sms + extra_rep, "reply network", why,
                                 sizeof why);
    if (!g->req_net || !g->rep_net) {
        snprintf(err, errlen, "interconnect: %s", why);
        return -1;
    }
    return 0;
}

static void edges_init(gpu *g);

gpu *gpu_create(const gpu_params *p, char *err, size_t errlen) {
    for (int d = 0; d < CLK_COUNT; d++)
        if (p->clock_khz[d] == 0 || p->clock_khz[d] > 100000000ull) {
            snprintf(err, errlen, "-gpgpu_clock_domains: every clock must be between 0.001 and 100000 MHz");
            return NULL;
        }
    if (p->num_sms == 0 || p->num_sms > 4096) {
        snprintf(err, errlen, "the GPU needs 1..4096 SMs (got %u)", p->num_sms);
        return NULL;
    }
    gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->p = *p;
    g->p.sm.total_sms = p->num_sms;
    edges_init(g);
    g->sms = calloc(p->num_sms, sizeof *g->sms);
    g->wake = calloc(p->num_sms, sizeof *g->wake);
    g->sm_ctas = calloc(p->num_sms, sizeof *g->sm_ctas);
    g->sm_insn0 = calloc(p->num_sms, sizeof *g->sm_insn0);
    g->sharers = sharers_create(p->num_sms, p->part.l2.line_size ? (uint32_t)__builtin_ctz(p->part.l2.line_size) : 7);
    if (p->sim_threads > 1) {
        g->memlogs = calloc(p->num_sms, sizeof *g->memlogs);
        g->stage = calloc(p->num_sms, sizeof *g->stage);
        g->awake = calloc(p->num_sms, sizeof *g->awake);
        g->staged = calloc(p->num_sms, sizeof *g->staged);
        g->mail = calloc(p->num_sms, sizeof *g->mail);
        g->has_mail = calloc(p->num_sms, sizeof *g->has_mail);
    }
    if (!g->sms || !g->wake || !g->sm_ctas || !g->sm_insn0 || !g->sharers ||
        (p->sim_threads > 1 && (!g->memlogs || !g->stage || !g->awake || !g->staged || !g->mail || !g->has_mail))) {
        snprintf(err, errlen, "out of memory");
        gpu_destroy(g);
        return NULL;
    }
    for (uint32_t i = 0; i < p->num_sms; i++) {
        g->sms[i] = sm_create(&g->p.sm, i, err, errlen);
        if (!g->sms[i]) {
            gpu_destroy(g);
            return NULL;
        }
        sm_set_ports(g->sms[i], g->p.numa.n_modules > 1 ? numa_send : gpu_send, gpu_cta_done, g);
        /* a shared decode cache is filled as SMs decode: not from several threads */
        if (i && p->sim_threads <= 1) sm_share_decode(g->sms[i], g->sms[0]);
    }
    if (build_memory(g, err, errlen)) {
        gpu_destroy(g);
        return NULL;
    }
    return g;
}

void gpu_destroy(gpu *g) {
    if (!g) return;
    if (g->sms)
        for (uint32_t i = 0; i < g->p.num_sms; i++) sm_destroy(g->sms[i]);
    free(g->sms);
    free(g->wake);
    free(g->sm_ctas);
    free(g->sm_insn0);
    free(g->cta_sm);
    free(g->dispatched);
    if (g->memlogs)
        for (uint32_t i = 0; i < g->p.num_sms; i++) exec_memlog_free(&g->memlogs[i]);
    free(g->memlogs);
    if (g->stage)
        for (uint32_t i = 0; i < g->p.num_sms; i++) {
            free(g->stage[i].reqs);
            free(g->stage[i].ctas);
        }
    free(g->stage);
    free(g->awake);
    free(g->staged);
    free(g->mail);
    free(g->has_mail);
    sharers_destroy(g->sharers);
    if (g->parts)
        for (uint32_t i = 0; i < g->nparts; i++) partition_destroy(g->parts[i]);
    free(g->parts);
    icnt_destroy(g->req_net);
    icnt_destroy(g->rep_net);
    numa_destroy(g->numa);
    free(g);
}

/* ---- clock domain ticks ---- */

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Each domain's next edge from its tick count (after a jump of the clocks). */
static void edges_sync(gpu *g) {
    for (int d = 0; d < CLK_COUNT; d++) g->edge[d] = (g->ticks[d] + 1) * g->period[d]; /* modulo 2^64 */
}

static void edges_init(gpu *g) {
    uint64_t l = 1;
    g->exact_edges = 0;
    for (int d = 0; d < CLK_COUNT; d++) {
        uint64_t f = g->p.clock_khz[d], m = l / gcd_u64(l, f);
        if (m > (UINT64_C(1) << 62) / f) return; /* the common scale would overflow */
        l = m * f;
    }
    for (int d = 0; d < CLK_COUNT; d++) g->period[d] = l / g->p.clock_khz[d];
    g->exact_edges = 1;
    edges_sync(g);
}

/* ---- functional fast-forward (warm-up, past a window, after a cap) ---- */

static void mark_dispatched(gpu *g, uint64_t id) {
    if (g->dispatched) g->dispatched[id >> 3] |= (uint8_t)(1u << (id & 7));
}

static void kernel_fault(gpu *g, locsim_status st, const char *msg) {
    g->kernel_status = st;
    snprintf(g->kernel_err, g->kernel_errlen, "%s", msg && msg[0] ? msg : locsim_status_name(st));
}

/* Run CTA `id` of the running kernel functionally on SM `smid`, untimed; its
 * instructions count as fast-forwarded (*thread_insns gets them too).  0, or -1
 * with the kernel's status set. */
static int run_cta_functionally(gpu *g, uint64_t id, uint32_t smid, uint64_t *thread_insns) {
    exec_cta *cta = exec_cta_create(g->L, id, smid);
    if (!cta) {
        g->kernel_status = LOCSIM_ERR_OUT_OF_MEMORY;
        snprintf(g->kernel_err, g->kernel_errlen, "kernel '%s': out of host memory creating CTA %llu",
                 g->L->kernel->name, (unsigned long long)id);
        return -1;
    }
    uint64_t t = 0;
    locsim_status st = exec_cta_run(cta, &t, &g->st.ff_warp_insns);
    g->st.ff_thread_insns += t;
    if (thread_insns) *thread_insns = t;
    if (st != LOCSIM_OK) {
        const exec_fault *f = exec_cta_fault(cta);
        kernel_fault(g, st, f ? f->msg : NULL);
    }
    exec_cta_destroy(cta);
    return st == LOCSIM_OK ? 0 : -1;
}

/* -timing_warmup_insn: the first CTAs the CTA scheduler hands out, SM by SM as
 * it would in timing mode, run functionally at once and are done, until the
 * budget of thread instructions is spent.  The scheduler sees each as dispatched
 * and done, so its own state moves on as if they had run. */
static void warm_up(gpu *g, uint64_t now) {
    int any = 1;
    while (any && g->warmup_left && g->ctas_dispatched < g->ctas_limit && g->kernel_status == LOCSIM_OK) {
        any = 0;
        for (uint32_t s = 0; s < g->p.num_sms && g->warmup_left && g->ctas_dispatched < g->ctas_limit; s++) {
            uint32_t free_slots = sm_free_cta_slots(g->sms[s]);
            uint64_t id, t;
            if (!free_slots || !g->cta_ops->next(g->cta_state, s, free_slots, now, &id)) continue;
            any = 1;
            if (id >= g->ctas_total) {
                kernel_fault(g, LOCSIM_ERR_LAUNCH, "the CTA scheduler chose a CTA outside the grid");
                return;
            }
            if (run_cta_functionally(g, id, s, &t)) return;
            mark_dispatched(g, id);
            g->ctas_dispatched++;
            g->st.ctas_warmup++;
            if (g->ctas_limit < g->ctas_total) g->ctas_limit++;   /* -gpgpu_max_cta counts timed CTAs */
            g->warmup_left = t >= g->warmup_left ? 0 : g->warmup_left - t;
            gpu_cta_done(g, s, id);
        }
    }
}

static void dispatch_ctas(gpu *g, uint64_t now) {
    if (g->warmup_left) {
        warm_up(g, now);
        if (g->warmup_left && g->ctas_dispatched < g->ctas_limit) return;   /* the scheduler held CTAs back */
    }
    if (!g->room_maybe || g->ctas_dispatched >= g->ctas_limit) return;
    int any = 0, last = -1;
    for (uint32_t i = 0; i < g->p.num_sms && g->ctas_dispatched < g->ctas_limit; i++) {
        uint32_t s = (g->rr_sm + i) % g->p.num_sms;
        uint32_t free_slots = sm_free_cta_slots(g->sms[s]);
        if (!free_slots) continue;
        any = 1;
        uint64_t id;
        if (!g->cta_ops->next(g->cta_state, s, free_slots, now, &id)) continue;
        exec_cta *cta = id < g->ctas_total ? exec_cta_create(g->L, id, s) : NULL;
        if (!cta || sm_add_cta(g->sms[s], cta, id, now)) {
            if (cta) exec_cta_destroy(cta);
            g->kernel_status = id < g->ctas_total ? LOCSIM_ERR_OUT_OF_MEMORY : LOCSIM_ERR_LAUNCH;
            snprintf(g->kernel_err, g->kernel_errlen,
                     id < g->ctas_total ? "kernel '%s': out of host memory creating CTA %llu"
                                        : "kernel '%s': the CTA scheduler chose CTA %llu, outside the grid",
                     g->L->kernel->name, (unsigned long long)id);
            return;
        }
        g->wake[s] = sm_wake_at(g->sms[s]);
        if (sm_fault(g->sms[s])) g->fault_maybe = 1;
        g->wake_changed = 1;
        g->ctas_dispatched++;
        g->st.ctas_launched++;
        g->sm_ctas[s]++;
        mark_dispatched(g, id);
        if (g->cta_sm) g->cta_sm[id] = (uint16_t)s;
        uint32_t r = sm_resident_ctas(g->sms[s]);
        if (r > g->max_resident) g->max_resident = r;
        last = (int)s;
    }
    if (last >= 0) g->rr_sm = ((uint32_t)last + 1) % g->p.num_sms;
    g->room_maybe = any;
}

/* ---- parallel SM stepping (docs/timing-core.md, "Parallel simulation") ---- */

/* The exchange of SM s after its parallel cycle: its global memory moves, its
 * requests enter the network, its finished CTAs reach the CTA scheduler; done
 * SM by SM in SM order, this is what the serial loop did in between the SMs'
 * cycles. */
static void exchange(gpu *g, uint32_t s) {
    sm_stage *st = &g->stage[s];
    exec_memlog_replay(&g->memlogs[s], &g->cycle_written);
    g->st.send_fails += st->send_fails;
    for (uint32_t i = 0; i < st->nreqs; i++) {
        int ok = g->numa ? numa_send(g, s, &st->reqs[i]) : gpu_send(g, s, &st->reqs[i]);
        if (!ok && g->kernel_status == LOCSIM_OK)   /* stage_send checked the same room: a bug */
            kernel_fault(g, LOCSIM_ERR_KERNEL_FAULT, "internal error: a request staged in a parallel cycle was refused");
    }
    for (uint32_t i = 0; i < st->nctas; i++) gpu_cta_done(g, s, st->ctas[i]);
    if (st->oom && g->kernel_status == LOCSIM_OK)
        kernel_fault(g, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory staging a parallel cycle");
    st->nreqs = st->nctas = st->flits = 0;
    st->send_fails = 0;
    st->oom = 0;
}

static void l2_tick(gpu *g);
static void dram_tick(gpu *g);

/* A reply into SM s, on the main thread. */
static void deliver(gpu *g, uint32_t s, const mem_req *r, uint64_t now) {
    sm_receive(g->sms[s], r, now);
    g->wake[s] = sm_wake_at(g->sms[s]);
    if (sm_fault(g->sms[s])) g->fault_maybe = 1;
    g->wake_changed = 1;
}

/* ---- memory ticks held back for the next parallel cycle ---- */

/* An L2 or DRAM tick reads and writes only the memory side: the request
 * network's outputs (L2), the partitions, their DRAM channels, the sharers
 * table.  What comes after it in the serial order up to the next interconnect
 * tick -- the next core cycle's reply delivery (the reply network's outputs),
 * CTA dispatch, the SMs' cycles (which stage their sends; stage_send reads only
 * the SM's own input port) -- touches none of that, so running the tick later,
 * while the SMs step, gives the serial result.  Whatever reads the memory side
 * (the interconnect tick, the idle test, the stop checks, the kernel's end)
 * runs the held ticks first. */
static void run_memory_tick(gpu *g, int d) {
    if (d == CLK_L2) l2_tick(g);
    else dram_tick(g);
}

static void run_held_memory(gpu *g) {
    for (uint32_t i = 0; i < g->nheld; i++) run_memory_tick(g, g->held[i]);
    g->nheld = 0;
}

static void memory_tick(gpu *g, int d) {
    if (!g->par) {
        run_memory_tick(g, d);
        return;
    }
    if (g->nheld == HELD_MAX) run_held_memory(g);
    g->held[g->nheld++] = (uint8_t)d;
}

/* Thread t of nt steps the awake SMs among SMs [*lo, *hi): the main thread
 * (t = 0) the first `lead`, the others equal parts of the rest.  An SM stays
 * with its thread while lead does not move, so its state stays in that core's
 * cache (parts of the awake list instead moved SMs between threads whenever the
 * set of awake SMs changed: kmeans at 2 threads ran at half the 1-thread speed;
 * dynamic scheduling did the same and took an atomic per SM). */
static void thread_part(uint32_t n, uint32_t lead, uint32_t t, uint32_t nt, uint32_t *lo, uint32_t *hi) {
    if (nt == 1) {
        *lo = 0, *hi = n;
        return;
    }
    if (t == 0) {
        *lo = 0, *hi = lead;
        return;
    }
    uint32_t rest = n - lead, k = nt - 1, i = t - 1, base = rest / k, extra = rest % k;
    *lo = lead + i * base + (i < extra ? i : extra);
    *hi = *lo + base + (i < extra);
}

/* The main thread's SMs: an even share scaled by lead_share, which moves
 * towards whatever lets the threads finish together (the main thread also runs
 * the held memory ticks).  Which thread steps which SM changes no result. */
static uint32_t lead_part(const gpu *g, uint32_t n, uint32_t nt) {
    uint64_t m = ((uint64_t)n * g->lead_share + (uint64_t)nt * LEAD_EVEN / 2) / ((uint64_t)nt * LEAD_EVEN);
    return m > n ? n : (uint32_t)m;
}

/* Thread t's share of a parallel cycle (g->par_now): the held memory ticks
 * (the main thread), then its awake SMs.  It also reads its SMs' wake-up cycles
 * and whether they left anything for the exchange while their state is in its
 * core's cache (the main thread reading them after the meeting moved every SM's
 * lines across cores: backprop at 2 threads 3.97 s -> 2.24 s). */
static void step_part(gpu *g, uint32_t t) {
    uint32_t nt = g->par_threads, lo, hi;
    uint64_t now = g->par_now;
    thread_part(g->p.num_sms, g->par_lead, t, nt, &lo, &hi);
    if (t == 0) run_held_memory(g);
    int faulted = 0;
    for (uint32_t s = lo; s < hi; s++) {
        /* (only this thread writes its SMs' wake[] and has_mail[] here) */
        if (g->has_mail[s]) {
            sm_receive(g->sms[s], &g->mail[s], now);
            g->has_mail[s] = 0;
        } else if (g->wake[s] > now) {
            continue;
        }
        sm_cycle(g->sms[s], now);   /* (nothing when the SM sleeps past now) */
        g->wake[s] = sm_wake_at(g->sms[s]);
        faulted |= sm_fault(g->sms[s]) != NULL;
        const sm_stage *st = &g->stage[s];
        const exec_memlog *log = &g->memlogs[s];
        g->staged[s] = log->n || log->oom || st->nreqs || st->nctas || st->send_fails || st->oom;
    }
    if (faulted) atomic_store_explicit(&g->par_faulted, 1, memory_order_relaxed);
    uint32_t rank = atomic_fetch_add_explicit(&g->arrivals, 1, memory_order_relaxed);
    if (t == 0) g->par_lead_rank = rank;
}

/* The awake SMs step cycle `now`: on the kernel's threads, which meet before
 * and after it (run_parallel), or, when only one of the main thread's SMs is
 * awake and no memory tick is held, on the main thread alone (its deferred
 * memory replayed at once).  Either way the result is the serial loop's. */
static void step_sms_parallel(gpu *g, uint64_t now) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (g->wake[s] <= now || g->has_mail[s]) g->awake[n++] = s;
    if (n == 0) return;
    if (n == 1 && (g->awake[0] < g->par_lead || g->par_threads == 1) && !g->nheld) {
        uint32_t s = g->awake[0];
        if (g->has_mail[s]) deliver(g, s, &g->mail[s], now);
        g->has_mail[s] = 0;
        if (g->wake[s] <= now) sm_cycle(g->sms[s], now);
        int written = 0;   /* the only SM stepping this cycle */
        exec_memlog_replay(&g->memlogs[s], &written);
        return;
    }
    g->staging = 1;
    g->par_now = now;
    atomic_store_explicit(&g->arrivals, 0, memory_order_relaxed);
    atomic_store_explicit(&g->par_faulted, 0, memory_order_relaxed);
    spin_barrier_wait(&g->par_bar);   /* the others start their parts */
    step_part(g, 0);
    spin_barrier_wait(&g->par_bar);   /* every part is done */
    if (atomic_load_explicit(&g->par_faulted, memory_order_relaxed)) g->fault_maybe = 1;
    /* first done: take more SMs next time; last: fewer */
    uint32_t nt = g->par_threads;
    if (nt > 1 && g->par_lead_rank == 0 && g->lead_share < nt * LEAD_EVEN) g->lead_share += 16;
    else if (nt > 1 && g->par_lead_rank == nt - 1 && g->lead_share >= 16) g->lead_share -= 16;
    g->par_lead = nt > 1 ? lead_part(g, g->p.num_sms, nt) : g->p.num_sms;
    g->staging = 0;
    g->cycle_written = 0;
    for (uint32_t i = 0; i < n; i++)
        if (g->staged[g->awake[i]]) exchange(g, g->awake[i]);
}

/* Would dispatch_ctas hand out a CTA if an SM had room? */
static int dispatch_may_act(const gpu *g) {
    return g->warmup_left || (g->room_maybe && g->ctas_dispatched < g->ctas_limit);
}

static void core_tick(gpu *g, uint64_t now) {
    /* A parallel kernel leaves a reply for the SM's own thread to deliver
     * before its cycle (the SM's state stays in that thread's core's cache)
     * when the serial order allows it: the reply cannot retire a CTA (a retired
     * CTA reaches the CTA scheduler, and dispatch must see it), and no CTA is
     * dispatched this cycle (an SM takes a new CTA after its reply). */
    int mail_ok = g->par && !dispatch_may_act(g), mailed = 0;
    /* only SMs with a reply ready at their output, in SM order (taken once:
     * a reply delivered changes no other output) */
    for (uint32_t w = 0; (w << 6) < g->p.num_sms; w++) {
        for (uint64_t m = icnt_ready_word(g->rep_net, w); m; m &= m - 1) {
            uint32_t s = (w << 6) + (uint32_t)__builtin_ctzll(m);
            if (s >= g->p.num_sms) break;   /* the links' egress ports (multi-module) come after the SMs */
            mem_req r;
            if (icnt_pop(g->rep_net, s, &r) != 0) continue;
            if (mail_ok && !sm_reply_may_retire(g->sms[s])) {
                g->mail[s] = r;
                g->has_mail[s] = 1;
                g->wake_changed = mailed = 1;
            } else {
                deliver(g, s, &r, now);
            }
        }
    }
    if (mailed && dispatch_may_act(g))   /* a reply retired a CTA: the SMs take their replies first */
        for (uint32_t s = 0; s < g->p.num_sms; s++)
            if (g->has_mail[s]) {
                deliver(g, s, &g->mail[s], now);
                g->has_mail[s] = 0;
            }
    dispatch_ctas(g, now);
    if (!g->wake_changed && now < g->min_wake) return;   /* every SM sleeps: min_wake stands */
    g->wake_changed = 0;
    if (g->par) step_sms_parallel(g, now);   /* then wake[] as below, from the same test */
    uint64_t min_wake = NEVER;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        if (g->wake[s] <= now) {
            if (!g->par) sm_cycle(g->sms[s], now);
            g->wake[s] = sm_wake_at(g->sms[s]);
            if (sm_fault(g->sms[s])) g->fault_maybe = 1;
        }
        if (g->wake[s] < min_wake) min_wake = g->wake[s];
    }
    g->min_wake = min_wake;
}

static void numa_icnt_tick(gpu *g);

static void icnt_tick(gpu *g) {
    run_held_memory(g);   /* it takes the partitions' replies */
    if (g->numa) {
        numa_icnt_tick(g);
        return;
    }
    for (uint32_t i = 0; i < g->nparts; i++) {
        partition *p = g->parts[i];
        if (!partition_replies_queued(p)) continue;
        for (uint32_t local = 0; local < g->slices_per_part; local++) {
            const mem_req *r = partition_reply_peek(p, local);
            if (!r) continue;
            uint32_t sl = i * g->slices_per_part + local;
            uint32_t bytes = mem_packet_bytes(r);
            if (r->sm < g->p.num_sms && icnt_try_push(g->rep_net, sl, r->sm, r, bytes) == 0)
                partition_reply_pop(p, local);
        }
    }
    icnt_cycle(g->req_net);
    icnt_cycle(g->rep_net);
}

/* Packets at the egress ports of network net (outputs from `first` on) move onto
 * their module's link, in port order, while the link takes them; a full link
 * leaves them there (the crossbar backs up behind them).  A request's slice is
 * the placement's (numa_send placed it; numa_route_peek only looks). */
static void egress_to_links(gpu *g, icnt *x, uint32_t net, uint32_t first) {
    numa *n = g->numa;
    uint32_t k = numa_xbar_ports(n);
    for (uint32_t m = 0; m < numa_modules(n); m++)
        for (uint32_t j = 0; j < k; j++) {
            uint32_t out = first + m * k + j;
            const mem_req *r;
            while ((r = icnt_peek(x, out))) {
                uint32_t dst = net ? r->sm : numa_route_peek(n, r->addr);
                if (dst == UINT32_MAX) dst = 0;   /* defensive: numa_send placed every request it sent */
                if (numa_link_push(n, m, r, mem_packet_bytes(r), net, dst)) break;
                mem_req gone;
                icnt_pop(x, out, &gone);
            }
        }
}

/* icnt_tick of a multi-module GPU: a reply for an SM of another module crosses
 * the slice module's crossbar to an egress port; then the egress ports feed the
 * links, the links deliver into the ingress ports, and the networks advance. */
static void numa_icnt_tick(gpu *g) {
    numa *n = g->numa;
    for (uint32_t i = 0; i < g->nparts; i++) {
        partition *p = g->parts[i];
        if (!partition_replies_queued(p)) continue;
        for (uint32_t local = 0; local < g->slices_per_part; local++) {
            const mem_req *r = partition_reply_peek(p, local);
            if (!r || r->sm >= g->p.num_sms) continue;
            uint32_t sl = i * g->slices_per_part + local, zone = numa_zone_of_slice(n, sl);
            uint32_t dst = zone == numa_zone_of_sm(n, r->sm) || n->c.flat ? r->sm
                                                                          : g->p.num_sms + numa_egress_port(n, zone, sl);
            if (icnt_try_push(g->rep_net, sl, dst, r, mem_packet_bytes(r)) == 0) partition_reply_pop(p, local);
        }
    }
    egress_to_links(g, g->req_net, 0, g->nslices);
    egress_to_links(g, g->rep_net, 1, g->p.num_sms);
    numa_links_cycle(n, numa_deliver, g);
    icnt_cycle(g->req_net);
    icnt_cycle(g->rep_net);
}

static void l2_tick(gpu *g) {
    /* only slices with a request ready at their output, in slice order (taken
     * once: a request accepted changes no other output) */
    for (uint32_t w = 0; (w << 6) < g->nslices; w++) {
        for (uint64_t m = icnt_ready_word(g->req_net, w); m; m &= m - 1) {
            uint32_t sl = (w << 6) + (uint32_t)__builtin_ctzll(m);
            if (sl >= g->nslices) break;   /* the links' egress ports (multi-module) come after the slices */
            partition *p = g->parts[sl / g->slices_per_part];
            uint32_t local = sl % g->slices_per_part;
            mem_req r;
            if (partition_can_accept(p, local) && icnt_pop(g->req_net, sl, &r) == 0) {
                if ((r.type == MEM_GLOBAL_ACC_R || r.type == MEM_LOCAL_ACC_R) && !(r.flags & MEM_REQ_ATOMIC))
                    sharers_note(g->sharers, r.addr, r.sm);   /* out of memory: that line goes uncounted */
                partition_push(p, local, &r);
            }
        }
    }
    for (uint32_t i = 0; i < g->nparts; i++)
        partition_l2_cycle(g->parts[i]);
}

static void dram_tick(gpu *g) {
    for (uint32_t i = 0; i < g->nparts; i++) {
        dram *d = partition_dram(g->parts[i]);
        if (dram_idle(d)) dram_skip_idle(d, 1); /* nothing queued: only its clock moves */
        else partition_dram_cycle(g->parts[i]);
    }
}

/* Is domain a's next edge strictly before domain b's? */
static int edge_before(const gpu *g, int a, int b) {
    return (g->ticks[a] + 1) * g->p.clock_khz[b] < (g->ticks[b] + 1) * g->p.clock_khz[a];
}

static int memory_idle(const gpu *g) {
    if (!icnt_idle(g->req_net) || !icnt_idle(g->rep_net)) return 0;
    for (uint32_t i = 0; i < g->nparts; i++)
        if (!partition_idle(g->parts[i])) return 0;
    return !g->numa || numa_links_idle(g->numa);
}

/* Jump every clock so that the next core tick is core cycle t. */
static void skip_to(gpu *g, uint64_t t) {
    uint64_t fc = g->p.clock_khz[CLK_CORE];
    g->progress_at = t;   /* a known wake-up (a timed wait), not a stuck simulation */
    g->st.skipped_core_cycles += t - g->ticks[CLK_CORE];
    g->ticks[CLK_CORE] = t;
    for (int d = CLK_ICNT; d < CLK_COUNT; d++) {
        /* ticks of d strictly before core tick t (at time (t+1)/fc) */
        uint64_t target = ((t + 1) * g->p.clock_khz[d] + fc - 1) / fc - 1;
        if (target <= g->ticks[d]) continue;
        uint64_t n = target - g->ticks[d];
        if (d == CLK_ICNT) {
            icnt_skip_idle(g->req_net, n);
            icnt_skip_idle(g->rep_net, n);
            if (g->numa) numa_links_skip(g->numa, n);
        } else if (d == CLK_DRAM) {
            for (uint32_t i = 0; i < g->nparts; i++) dram_skip_idle(partition_dram(g->parts[i]), n);
        }
        g->ticks[d] = target;
    }
    edges_sync(g);
}

/* ---- running a kernel ---- */

static uint64_t kernel_insns(const gpu *g) {
    uint64_t n = 0;
    for (uint32_t s = 0; s < g->p.num_sms; s++) n += sm_stats(g->sms[s])->thread_insns;
    return n;
}

static const exec_fault *find_fault(const gpu *g) {
    if (!g->fault_maybe) return NULL;
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (sm_fault(g->sms[s])) return sm_fault(g->sms[s]);
    return NULL;
}

static int all_sms_idle(const gpu *g) {
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (!sm_idle(g->sms[s])) return 0;
    return 1;
}

/* A cap stopped the timing simulation at core cycle `cycle` (GPGPU-Sim's
 * -gpgpu_max_*: the statistics cover what ran; the rest runs functionally). */
static void cap_reached(gpu *g, const char *option, uint64_t cycle) {
    gpu_cap_info *c = &g->cap;
    c->option = option;
    c->cycle = cycle;
    c->thread_insns = kernel_insns(g);
    c->ctas = g->st.ctas_launched;
    c->kernel = g->launches - 1;
    snprintf(c->kernel_name, sizeof c->kernel_name, "%s", g->L->kernel->name);
    if (g->on_cap) g->on_cap(g->cap_ctx, c);
}

/* The kernel's timing window closed after core cycle `now`: no SM issues again
 * and no CTA is dispatched; the loop goes on until what is in flight is back. */
static void close_window(gpu *g, uint64_t now) {
    g->draining = 1;
    g->ctas_limit = g->ctas_dispatched;
    g->st.windows_closed++;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        sm_stop_issue(g->sms[s], now + 1);
        g->wake[s] = sm_wake_at(g->sms[s]);
    }
    g->wake_changed = 1;
}

/* A cap or the window reached after core cycle `now`?  2: a cap stopped the
 * timing simulation; 0: go on (the window may have closed).  Instructions are
 * summed every cycle while a limit on them is set, so a stop comes within one
 * cycle's issue of it. */
static int check_stops(gpu *g, uint64_t now) {
    if (g->p.max_cycle && now + 1 >= g->p.max_cycle) {
        cap_reached(g, "-gpgpu_max_cycle", now + 1);
        return 2;
    }
    if (!g->insn_watch) return 0;
    uint64_t n = kernel_insns(g);
    if (n < g->insn_watch) return 0;
    if (g->p.max_insn && n >= g->p.max_insn) {
        cap_reached(g, "-gpgpu_max_insn", now + 1);
        return 2;
    }
    g->insn_watch = 0;   /* the window: nothing issues from here on */
    close_window(g, now);
    return 0;
}

static int all_sms_quiet(const gpu *g) {
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (!sm_quiet(g->sms[s])) return 0;
    return 1;
}

/* Nothing can ever happen again.  Warps waiting at a barrier mean the program's
 * barrier is not reached by every thread; none means the simulated hardware itself
 * is stuck (a queue or MSHR configuration the memory system cannot drain): the
 * message must not blame the program for that. */
static void report_deadlock(gpu *g, uint64_t now) {
    uint32_t at_barrier = 0;
    for (uint32_t s = 0; s < g->p.num_sms; s++) at_barrier += sm_warps_at_barrier(g->sms[s]);
    g->kernel_status = LOCSIM_ERR_DEADLOCK;
    int k = snprintf(g->kernel_err, g->kernel_errlen,
                     "kernel '%s': deadlock at cycle %llu: %llu of %llu CTAs finished and no warp can make progress",
                     g->L->kernel->name, (unsigned long long)now, (unsigned long long)g->ctas_done,
                     (unsigned long long)g->ctas_total);
    if (k < 0 || (size_t)k >= g->kernel_errlen) return;
    if (at_barrier)
        snprintf(g->kernel_err + k, g->kernel_errlen - (size_t)k,
                 ": %u warps wait at a barrier that not every thread of their CTA reaches (a program error)",
                 at_barrier);
    else
        snprintf(g->kernel_err + k, g->kernel_errlen - (size_t)k,
                 ": no warp waits at a barrier, so this is a simulator resource deadlock (requests the configured "
                 "queues and MSHRs cannot drain: enlarge the miss queues / MSHRs of -gpgpu_cache:dl1 and "
                 "-gpgpu_cache:dl2), not a program error");
}

/* Instructions issued plus replies delivered, all SMs: what moves when the
 * simulation makes progress. */
static uint64_t progress_mark(const gpu *g) {
    uint64_t n = 0;
    for (uint32_t s = 0; s < g->p.num_sms; s++) n += sm_stats(g->sms[s])->warp_insns + sm_stats(g->sms[s])->replies_in;
    return n;
}

/* Cycles keep passing (requests in flight, so no idle jump and no deadlock) but
 * nothing issues and no reply arrives: a simulated resource that never frees,
 * e.g. a queue every request is refused from.  Stop with what waits on what. */
static int stuck(gpu *g, uint64_t now) {
    g->next_stuck_check = now + STUCK_CHECK;
    uint64_t mark = progress_mark(g);
    if (mark != g->progress_mark) {
        g->progress_mark = mark;
        g->progress_at = now;
        return 0;
    }
    if (now - g->progress_at < g->p.deadlock_cycles) return 0;
    g->kernel_status = LOCSIM_ERR_DEADLOCK;
    int k = snprintf(g->kernel_err, g->kernel_errlen,
                     "kernel '%s': the simulation is stuck: no instruction issued and no reply reached an SM from "
                     "cycle %llu to %llu (-gpgpu_deadlock_cycles %llu); %llu of %llu CTAs finished; requests in "
                     "flight: request network %s, reply network %s",
                     g->L->kernel->name, (unsigned long long)g->progress_at, (unsigned long long)now,
                     (unsigned long long)g->p.deadlock_cycles, (unsigned long long)g->ctas_done,
                     (unsigned long long)g->ctas_total, icnt_idle(g->req_net) ? "empty" : "busy",
                     icnt_idle(g->rep_net) ? "empty" : "busy");
    uint32_t busy_parts = 0, shown = 0;
    for (uint32_t i = 0; i < g->nparts; i++) busy_parts += !partition_idle(g->parts[i]);
    if (k > 0 && (size_t)k < g->kernel_errlen)
        k += snprintf(g->kernel_err + k, g->kernel_errlen - (size_t)k, ", %u of %u memory partitions busy", busy_parts,
                      g->nparts);
    for (uint32_t s = 0; s < g->p.num_sms && shown < 4 && k > 0 && (size_t)k < g->kernel_errlen; s++) {
        if (!sm_resident_ctas(g->sms[s])) continue;
        k += snprintf(g->kernel_err + k, g->kernel_errlen - (size_t)k, "; ");
        if (k > 0 && (size_t)k < g->kernel_errlen) k += sm_describe_waits(g->sms[s], g->kernel_err + k, g->kernel_errlen - (size_t)k);
        shown++;
    }
    return 1;
}

/* After a core tick at `now`: 1 = kernel finished, 0 = go on, -1 = error. */
static int after_core_tick(gpu *g, uint64_t now) {
    const exec_fault *f = find_fault(g);
    if (f) {
        g->kernel_status = f->status ? f->status : LOCSIM_ERR_KERNEL_FAULT;
        snprintf(g->kernel_err, g->kernel_errlen, "%s", f->msg);
        return -1;
    }
    if (g->kernel_status != LOCSIM_OK) return -1;
    if (g->p.max_cycle || g->insn_watch) {
        run_held_memory(g);   /* a cap's hook may read the memory side */
        if (check_stops(g, now)) return 2;
    }
    if (now >= g->next_stuck_check && g->p.deadlock_cycles) {
        run_held_memory(g);
        if (stuck(g, now)) return -1;
    }
    if (g->room_maybe && g->ctas_dispatched < g->ctas_limit) return 0;
    uint64_t wake = g->min_wake;   /* nothing since core_tick has woken an SM */
    if (wake <= now + 1) return 0;
    run_held_memory(g);
    if (!memory_idle(g)) return 0;
    if (g->draining && all_sms_quiet(g)) return 2;   /* the window's requests are all back */
    if (!g->draining && g->ctas_done == g->ctas_limit && all_sms_idle(g)) {
        if (g->ctas_limit == g->ctas_total) return 1;
        cap_reached(g, "-gpgpu_max_cta", now + 1);   /* the issued CTAs have finished */
        return 2;
    }
    if (wake == NEVER) {
        report_deadlock(g, now);
        return -1;
    }
    if (g->p.max_cycle && wake > g->p.max_cycle - 1) wake = g->p.max_cycle - 1;   /* stop at the cap, not after */
    skip_to(g, wake);
    return 0;
}

/* The progress hook (every PROGRESS_INTERVAL cycles, never per cycle); 1 when it
 * asks to stop the kernel. */
static int progress_due(gpu *g) {
    g->next_progress = g->ticks[CLK_CORE] + PROGRESS_INTERVAL;
    if (!g->progress(g->progress_ctx, g->ticks[CLK_CORE] - g->kernel_start, kernel_insns(g))) return 0;
    g->kernel_status = LOCSIM_ERR_INTERRUPTED;
    snprintf(g->kernel_err, g->kernel_errlen, "kernel '%s': simulation interrupted at cycle %llu",
             g->L->kernel->name, (unsigned long long)g->ticks[CLK_CORE]);
    return 1;
}

/* The domains whose next edge comes first (all of those at the same time). */
static void due_domains(gpu *g, int due[CLK_COUNT]) {
    int first = CLK_CORE;
    if (g->exact_edges) {
        for (int d = CLK_ICNT; d < CLK_COUNT; d++)
            if ((int64_t)(g->edge[d] - g->edge[first]) < 0) first = d;
        for (int d = 0; d < CLK_COUNT; d++) due[d] = g->edge[d] == g->edge[first];
        return;
    }
    for (int d = CLK_ICNT; d < CLK_COUNT; d++)
        if (edge_before(g, d, first)) first = d;
    /* every domain whose edge is at the same time as `first`, in fixed order */
    for (int d = 0; d < CLK_COUNT; d++) due[d] = d == first || (!edge_before(g, first, d) && !edge_before(g, d, first));
}

/* Domain d has ticked. */
static void tick_done(gpu *g, int d) {
    g->ticks[d]++;
    g->edge[d] += g->period[d];
}

static int step_loop(gpu *g);

/* How long a thread waiting for the others spins before it sleeps (the
 * barrier's polls): OMP_WAIT_POLICY as libgomp reads it (passive: sleep at
 * once; active: keep spinning), else SPIN_BARRIER_SPINS while every thread has
 * a core of its own and none when they do not. */
static uint32_t wait_spins(uint32_t threads) {
    const char *policy = getenv("OMP_WAIT_POLICY");
    if (policy && strcasecmp(policy, "passive") == 0) return 0;
    if (policy && strcasecmp(policy, "active") == 0) return UINT32_MAX;
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && (uint32_t)CPU_COUNT(&cpus) < threads) return 0;
    return SPIN_BARRIER_SPINS;
}

/* A kernel with par: one OpenMP parallel region for the whole kernel.  The
 * main thread runs the loop; the others wait at par_bar for each parallel
 * cycle, step their parts and meet again (a fork and join per cycle cost 1 us
 * of host time on the development machine, two meetings 0.2 us). */
static int run_parallel(gpu *g) {
    int r = 0;
    g->par_quit = 0;
#pragma omp parallel num_threads(g->p.sim_threads)
    {
#pragma omp master
        {
            g->par_threads = (uint32_t)omp_get_num_threads();
            spin_barrier_init(&g->par_bar, g->par_threads, wait_spins(g->par_threads));
            g->par_lead = g->par_threads > 1 ? lead_part(g, g->p.num_sms, g->par_threads) : g->p.num_sms;
        }
#pragma omp barrier
        uint32_t t = (uint32_t)omp_get_thread_num();
        if (t == 0) {
            r = step_loop(g);
            g->par_quit = 1;
            spin_barrier_wait(&g->par_bar);
        } else {
            for (;;) {
                spin_barrier_wait(&g->par_bar);
                if (g->par_quit) break;
                step_part(g, t);
                spin_barrier_wait(&g->par_bar);
            }
        }
    }
    return r;
}

static int run_loop(gpu *g) {
    int r = g->par ? run_parallel(g) : step_loop(g);
    run_held_memory(g);   /* the kernel's end reads the memory side */
    return r;
}

static int step_loop(gpu *g) {
    for (;;) {
        int due[CLK_COUNT];
        due_domains(g, due);
        if (due[CLK_CORE]) {
            uint64_t now = g->ticks[CLK_CORE];
            tick_done(g, CLK_CORE);
            core_tick(g, now);
            if (due[CLK_ICNT]) icnt_tick(g), tick_done(g, CLK_ICNT);
            if (due[CLK_L2]) memory_tick(g, CLK_L2), tick_done(g, CLK_L2);
            if (due[CLK_DRAM]) memory_tick(g, CLK_DRAM), tick_done(g, CLK_DRAM);
            int r = after_core_tick(g, now);
            if (r) return r;
            if (g->progress && g->ticks[CLK_CORE] >= g->next_progress && progress_due(g)) return -1;
            continue;
        }
        if (due[CLK_ICNT]) icnt_tick(g), tick_done(g, CLK_ICNT);
        if (due[CLK_L2]) memory_tick(g, CLK_L2), tick_done(g, CLK_L2);
        if (due[CLK_DRAM]) memory_tick(g, CLK_DRAM), tick_done(g, CLK_DRAM);
    }
}

/* Largest register counts of any function of the module (the scoreboard is
 * indexed by the executing frame's register numbers). */
static void module_reg_counts(const ptx_module *m, uint32_t *regs, uint32_t *preds) {
    *regs = *preds = 1;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i].nregs > *regs) *regs = m->funcs[i].nregs;
        if (m->funcs[i].npreds > *preds) *preds = m->funcs[i].npreds;
    }
}

/* The kernel's CTA-to-SM map and sharers into the counters (docs/sharing.md). */
static void map_stats(gpu *g) {
    uint64_t n = g->p.num_sms, cmax = 0, cmin = UINT64_MAX, imax = 0;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        uint64_t insn = sm_stats(g->sms[s])->thread_insns - g->sm_insn0[s];
        if (g->sm_ctas[s] > cmax) cmax = g->sm_ctas[s];
        if (g->sm_ctas[s] < cmin) cmin = g->sm_ctas[s];
        if (insn > imax) imax = insn;
        g->st.sm_ctas_sum += g->sm_ctas[s];
        g->st.sm_insn_sum += insn;
        g->sm_ctas[s] = 0;
    }
    g->st.sm_ctas_max_x_sms += n * cmax;
    g->st.sm_ctas_min_x_sms += n * cmin;
    g->st.sm_insn_max_x_sms += n * imax;
    if (g->cta_sm) {
        for (uint64_t c = 1; c < g->ctas_total; c++) {
            if (g->cta_sm[c] == NO_SM || g->cta_sm[c - 1] == NO_SM) continue;   /* not dispatched (a fault) */
            g->st.cta_neighbours++;
            g->st.cta_neighbours_same_sm += g->cta_sm[c] == g->cta_sm[c - 1];
        }
        free(g->cta_sm);
        g->cta_sm = NULL;
    }
    sharers_kernel_end(g->sharers, &g->st.sharer_lines, &g->st.sharer_sm_lines);
}

static void end_kernel(gpu *g) {
    if (g->par)
        for (uint32_t s = 0; s < g->p.num_sms; s++) sm_set_memlog(g->sms[s], NULL);
    g->par = 0;
    free(g->dispatched);
    g->dispatched = NULL;
    g->draining = 0;
    g->insn_watch = g->warmup_left = 0;
    if (g->L) map_stats(g);
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        sm_flush_stats(g->sms[s], g->ticks[CLK_CORE] ? g->ticks[CLK_CORE] - 1 : 0);
        sm_kernel_end(g->sms[s]);
    }
    if (g->p.flush_l2 && g->parts)
        for (uint32_t i = 0; i < g->nparts; i++)
            for (uint32_t k = 0; k < g->slices_per_part; k++) cache_flush_dirty(partition_l2(g->parts[i], k));
    if (g->cta_state && g->cta_ops->clusters) g->st.cta_clusters += g->cta_ops->clusters(g->cta_state);
    if (g->cta_state) g->cta_ops->destroy(g->cta_state);
    g->cta_state = NULL;
    g->L = NULL;
}

/* After a fault the SMs' slots and the memory system may hold requests of the
 * dead kernel: rebuild the memory side so the next kernel starts clean. */
static void reset_after_error(gpu *g) {
    char err[256];
    for (uint32_t i = 0; i < g->nparts; i++) partition_destroy(g->parts[i]);
    free(g->parts);
    g->parts = NULL;
    icnt_destroy(g->req_net);
    icnt_destroy(g->rep_net);
    g->req_net = g->rep_net = NULL;
    numa_destroy(g->numa);   /* its links may hold the dead kernel's packets */
    g->numa = NULL;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        sm_destroy(g->sms[s]);
        g->sms[s] = sm_create(&g->p.sm, s, err, sizeof err);
        if (g->sms[s]) sm_set_ports(g->sms[s], g->p.numa.n_modules > 1 ? numa_send : gpu_send, gpu_cta_done, g);
    }
    for (uint32_t s = 1; s < g->p.num_sms && g->p.sim_threads <= 1; s++)
        if (g->sms[s] && g->sms[0]) sm_share_decode(g->sms[s], g->sms[0]);
    if (build_memory(g, err, sizeof err)) fprintf(stderr, "locsim: cannot rebuild the GPU after an error: %s\n", err);
}

/* The running kernel's limits: CTAs it may run in timing mode (-gpgpu_max_cta),
 * the instruction count at which to look for a stop (-gpgpu_max_insn, the
 * window), the warm-up budget, and the dispatched-CTA map the functional
 * finish needs.  0, or -1 with the kernel's status set. */
static int begin_limits(gpu *g) {
    const gpu_params *p = &g->p;
    g->ctas_limit = g->ctas_total;
    if (p->max_cta && p->max_cta - g->st.ctas_launched < g->ctas_limit) g->ctas_limit = p->max_cta - g->st.ctas_launched;
    g->insn_watch = 0;
    if (p->window_insn) {
        /* The window closes while one more cycle's issue (every scheduler a full
         * warp) still fits in it, so the timed part is at most N and more than
         * N - that (a window below one cycle's issue closes after the first). */
        uint64_t per_cycle = (uint64_t)p->num_sms * p->sm.num_sched * p->sm.warp_size;
        g->insn_watch = kernel_insns(g) + (p->window_insn > per_cycle ? p->window_insn - per_cycle + 1 : 1);
    }
    if (p->max_insn && (!g->insn_watch || p->max_insn < g->insn_watch)) g->insn_watch = p->max_insn;
    g->warmup_left = p->warmup_insn;
    g->draining = 0;
    if (!(p->max_cta || p->max_insn || p->max_cycle || p->window_insn || p->warmup_insn)) return 0;
    free(g->dispatched);   /* a launch that failed after this point left its map */
    g->dispatched = calloc(g->ctas_total / 8 + 1, 1);
    if (g->dispatched) return 0;
    g->kernel_status = LOCSIM_ERR_OUT_OF_MEMORY;
    snprintf(g->kernel_err, g->kernel_errlen,
             "kernel '%s': out of host memory for the map of its %llu CTAs that the timing window, warm-up "
             "and caps need",
             g->L->kernel->name, (unsigned long long)g->ctas_total);
    return -1;
}

/* The timing part of the kernel has ended early (its window closed and drained,
 * or a cap stopped it): finish it functionally.  The CTAs on the SMs go on from
 * where they are (an instruction executes at issue, so their state is exact),
 * then every CTA never handed out runs, in linear order.  1, or -1 on a fault. */
static int finish_functionally(gpu *g) {
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        exec_fault f = {0};
        uint64_t t = 0;
        locsim_status st = sm_finish_functionally(g->sms[s], &t, &g->st.ff_warp_insns, &g->st.ctas_fast_forward, &f);
        g->st.ff_thread_insns += t;
        if (st != LOCSIM_OK) {
            kernel_fault(g, st, f.msg);
            return -1;
        }
    }
    for (uint64_t c = 0; c < g->ctas_total; c++) {
        if (g->dispatched[c >> 3] & (1u << (c & 7))) continue;
        g->st.ctas_fast_forward++;
        if (run_cta_functionally(g, c, (uint32_t)(c % g->p.num_sms), NULL)) return -1;
    }
    return 1;
}

/* After a cap: the whole kernel runs functionally, CTAs in linear order on the
 * SMs round-robin (as the functional mode does). */
static locsim_status run_kernel_functionally(gpu *g) {
    g->st.kernels++;
    for (uint32_t s = 0; s < g->p.num_sms; s++) sm_kernel_levels_reset(g->sms[s]);
    locsim_status st = LOCSIM_OK;
    for (uint64_t c = 0; c < g->ctas_total && st == LOCSIM_OK; c++) {
        g->st.ctas_fast_forward++;
        if (run_cta_functionally(g, c, (uint32_t)(c % g->p.num_sms), NULL)) st = g->kernel_status;
    }
    g->L = NULL;
    return st;
}

/* -gpgpu_adaptive_cache_config: the kernel gets the smallest carve-out that
 * holds the shared memory of the CTAs an SM keeps (GPGPU-Sim 4.x's rule), and
 * the L1Ds the ways left over.  The SMs emptied their L1Ds at sm_kernel_begin
 * (the option needs -gpgpu_flush_l1_cache 1).  Not under -l1d_unbounded,
 * whose L1D has a geometry of its own. */
static int set_carveout(gpu *g, const sm_occupancy_info *occ, char *err, size_t errlen) {
    const sim_config *c = g->p.cfg;
    if (!c->adaptive_cache_config || c->l1d_unbounded) return 0;
    uint32_t ways;
    uint32_t kb = config_l1d_carveout(c, (uint64_t)occ->smem_per_cta * occ->ctas_per_sm, &ways);
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (sm_set_l1d_ways(g->sms[s], ways)) {
            snprintf(err, errlen, "SM %u: cannot give %u KB of the L1D to shared memory: lines are still in flight",
                     s, kb);
            return -1;
        }
    return 0;
}

locsim_status gpu_run_kernel(gpu *g, const exec_launch *L, char *err, size_t errlen) {
    const ptx_function *fn = L->kernel;
    if (g->needs_reset) {
        g->needs_reset = 0;
        reset_after_error(g);
    }
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (!g->sms[s] || !g->parts || !g->req_net || !g->rep_net) {
            snprintf(err, errlen, "the GPU could not be rebuilt after an earlier error");
            return LOCSIM_ERR_OUT_OF_MEMORY;
        }
    uint32_t threads = L->block.x * L->block.y * L->block.z;
    sm_kernel k = {.L = L};
    /* Registers per thread: ptxas's count when the module came with its listing
     * (GPGPU-Sim takes it from ptxas too), else the liveness estimate from the PTX,
     * never above the declared registers (always, with -gpgpu_ptxas_registers 0).
     * Occupancy caps either at the limit. */
    uint32_t regs = g->p.ptxas_regs ? fn->ptxas_regs : 0;
    if (!regs) {
        uint32_t declared = fn->nregs + fn->npreds;
        regs = sm_kernel_registers(L->mod, fn, g->p.sm.max_regs_per_thread);
        if (regs > declared) regs = declared;
        g->st.regs_estimated++;
    }
    if (sm_occupancy(&g->p.sm, threads, regs, L->smem_static + L->smem_dynamic, &k.occ, err, errlen)) {
        char why[512];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "launch of '%s': %s", fn->name, why);
        return LOCSIM_ERR_LAUNCH;
    }
    module_reg_counts(L->mod, &k.max_regs, &k.max_preds);
    g->occ = k.occ;
    g->st.regs_per_thread_sum += k.occ.regs_per_thread;
    g->ctas_total = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    g->st.grid_ctas += g->ctas_total;
    g->st.cta_slots += (uint64_t)g->p.num_sms * k.occ.ctas_per_sm;
    static const char *const limiters[4] = {"threads", "ctas", "registers", "shared memory"};
    for (int i = 0; i < 4; i++) g->st.occ_limited_by[i] += strcmp(k.occ.limiter, limiters[i]) == 0;
    g->launches++;
    g->L = L;
    g->kernel_status = LOCSIM_OK;
    g->kernel_err = err;
    g->kernel_errlen = errlen;
    if (!g->cap.option && g->p.max_cta && g->st.ctas_launched >= g->p.max_cta)
        cap_reached(g, "-gpgpu_max_cta", g->ticks[CLK_CORE]);   /* reached exactly at the last kernel's end */
    if (g->cap.option) return run_kernel_functionally(g);
    if (begin_limits(g)) return g->kernel_status;
    cta_sched_params cp = {.num_sms = g->p.num_sms, .max_ctas_per_sm = k.occ.ctas_per_sm, .nctas = g->ctas_total,
                           .grid = L->grid, .args = g->p.cta_args, .cfg = g->p.cfg,
                           .ldesc = L->ldesc};
    g->cta_ops = g->p.cta_sched;
    int zoned = 0;   /* the placement partitioned the grid across the modules */
    if (g->numa) {
        numa_launch nl = {.grid = L->grid, .nctas = g->ctas_total, .ldesc = L->ldesc};
        zoned = numa_kernel_begin(g->numa, &nl, err, errlen);
        if (zoned < 0) return LOCSIM_ERR_OUT_OF_MEMORY;
    }
    if (zoned) {
        g->cta_ops = &numa_cta_ops;
        g->cta_state = numa_cta_state(g->numa);
    } else {
        g->cta_state = g->cta_ops->create(&cp, err, errlen);
    }
    if (!g->cta_state) return LOCSIM_ERR_CONFIG;
    /* The map is kept for grids up to 2^26 CTAs (128 MiB); larger grids leave the
     * neighbour statistic out (a CTA is dispatched by id, so c - 1 may come later). */
    free(g->cta_sm);
    g->cta_sm = g->ctas_total <= (1ull << 26) ? malloc(g->ctas_total * sizeof *g->cta_sm) : NULL;
    if (g->cta_sm) memset(g->cta_sm, 0xff, g->ctas_total * sizeof *g->cta_sm);   /* NO_SM */
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        g->sm_ctas[s] = 0;
        g->sm_insn0[s] = sm_stats(g->sms[s])->thread_insns;
    }
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (sm_kernel_begin(g->sms[s], &k, err, errlen)) {
            end_kernel(g);
            return LOCSIM_ERR_OUT_OF_MEMORY;
        }
    if (set_carveout(g, &k.occ, err, errlen)) {
        end_kernel(g);
        return LOCSIM_ERR_CONFIG;
    }
    for (uint32_t s = 0; s < g->p.num_sms; s++) g->wake[s] = sm_wake_at(g->sms[s]);
    /* -sim_threads: kernels whose global data moves only through ld/st/atom/red
     * step their SMs in parallel (the others serially: exec.h says why) */
    g->par = g->p.sim_threads > 1 && g->p.num_sms > 1 && exec_module_parallel_safe(L->mod);
    g->lead_share = LEAD_EVEN;
    for (uint32_t s = 0; s < g->p.num_sms; s++) sm_set_memlog(g->sms[s], g->par ? &g->memlogs[s] : NULL);
    /* the L2 slices' policies and prefetchers see the launch's descriptors too
     * (the SMs hand them to their L1Ds in sm_kernel_begin) */
    for (uint32_t i = 0; i < g->nparts; i++)
        for (uint32_t k = 0; k < g->slices_per_part; k++) cache_kernel_begin(partition_l2(g->parts[i], k), L->ldesc);
    g->wake_changed = 1;
    g->ctas_dispatched = g->ctas_done = 0;
    g->room_maybe = 1;
    g->fault_maybe = 0;
    g->rr_sm = 0;
    g->max_resident = 0;
    g->next_progress = g->ticks[CLK_CORE] + PROGRESS_INTERVAL;
    g->kernel_start = g->ticks[CLK_CORE];
    g->next_stuck_check = g->ticks[CLK_CORE] + STUCK_CHECK;
    g->progress_at = g->ticks[CLK_CORE];
    g->progress_mark = progress_mark(g);
    g->st.kernels++;
    int r = run_loop(g);
    if (r == 2) r = finish_functionally(g);
    locsim_status st = r < 0 ? g->kernel_status : LOCSIM_OK;
    end_kernel(g);
    /* An interrupted kernel's SMs keep their counters until the statistics are
     * collected (partial statistics); the rebuild happens at the next launch. */
    if (st == LOCSIM_ERR_INTERRUPTED) g->needs_reset = 1;
    else if (st != LOCSIM_OK) reset_after_error(g);
    for (int d = 0; d < CLK_COUNT; d++) g->st.cycles[d] = g->ticks[d];
    return st;
}

void gpu_memcpy_touch(gpu *g, uint64_t addr, uint64_t bytes) {
    if (!g->p.perf_memcpy || !g->parts) return;
    /* GPGPU-Sim steps through the copy 32 bytes at a time from its first byte
     * and names the sector each step's address falls in.  Where the mapping
     * keeps a line in one slice, the steps that fall in one line are one fill
     * of their sectors (the same as filling them one by one: the first
     * installs the line, the others only add valid sectors), after one decode. */
    uint32_t line = cache_geom(partition_l2(g->parts[0], 0))->line_size;
    int by_line = !g->numa && addrmap_slice_per_line(&g->am, (uint32_t)__builtin_ctz(line));
    for (uint64_t off = 0; off < bytes;) {
        uint64_t a = addr + off, last = a | (line - 1);   /* the line's last byte */
        uint8_t sectors = mem_sector_mask(a, 1, line);
        for (off += MEM_SECTOR_SIZE; by_line && off < bytes && addr + off <= last; off += MEM_SECTOR_SIZE)
            sectors |= mem_sector_mask(addr + off, 1, line);
        addr_loc loc;
        addrmap_decode(&g->am, a, &loc);
        if (g->numa) loc.slice = numa_route_peek(g->numa, a);   /* UINT32_MAX: a page nobody placed */
        if (loc.slice >= g->nslices) continue;
        cache *l2 = partition_l2(g->parts[loc.slice / g->slices_per_part], loc.slice % g->slices_per_part);
        cache_force_fill(l2, a, sectors);
    }
}

/* ---- inspection ---- */

const gpu_params *gpu_get_params(const gpu *g) { return &g->p; }
const gpu_counters *gpu_stats(const gpu *g) { return &g->st; }
uint32_t gpu_num_sms(const gpu *g) { return g->p.num_sms; }
const sm *gpu_sm(const gpu *g, uint32_t i) { return i < g->p.num_sms ? g->sms[i] : NULL; }
uint32_t gpu_num_partitions(const gpu *g) { return g->nparts; }
partition *gpu_partition(const gpu *g, uint32_t i) { return i < g->nparts ? g->parts[i] : NULL; }
const icnt *gpu_icnt(const gpu *g, int replies) { return replies ? g->rep_net : g->req_net; }
const numa *gpu_numa(const gpu *g) { return g->numa; }
const sm_occupancy_info *gpu_last_occupancy(const gpu *g) { return &g->occ; }
const gpu_cap_info *gpu_cap(const gpu *g) { return g->cap.option ? &g->cap : NULL; }
uint32_t gpu_last_max_resident(const gpu *g) { return g->max_resident; }

void gpu_set_cap_hook(gpu *g, gpu_cap_fn fn, void *ctx) {
    g->on_cap = fn;
    g->cap_ctx = ctx;
}

void gpu_set_progress(gpu *g, gpu_progress_fn fn, void *ctx) {
    g->progress = fn;
    g->progress_ctx = ctx;
}
