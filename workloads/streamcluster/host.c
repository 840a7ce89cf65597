/* streamcluster on locsim: the same launches and host decisions as kernel.cu's main(),
 * checked exactly against the CPU reference. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Device buffers; zero means "not allocated", so cleanup works from any point. */
typedef struct {
    locsim_dptr coord, weight, cost, x_cost, partials, assign, center_table, switched, closed;
} sc_device;

/* Host-side state of the device run. */
typedef struct {
    sc_centers cs;
    int32_t *assign;
    float *cost;
    float *partials;   /* blocks * (SC_MAX_CENTERS + 1) */
    uint32_t blocks;
} sc_host;

static wl_result sc_upload(wl_ctx *ctx, const sc_input *in, const sc_host *h, sc_device *d) {
    locsim_device *dev = ctx->dev;
    size_t nf = (size_t)in->n * sizeof(float), ni = (size_t)in->n * sizeof(int32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->coord, nf * SC_DIM));
    WL_CHECK(ctx, locsim_malloc(dev, &d->weight, nf));
    WL_CHECK(ctx, locsim_malloc(dev, &d->cost, nf));
    WL_CHECK(ctx, locsim_malloc(dev, &d->x_cost, nf));
    WL_CHECK(ctx, locsim_malloc(dev, &d->partials, (size_t)h->blocks * (SC_MAX_CENTERS + 1) * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->assign, ni));
    WL_CHECK(ctx, locsim_malloc(dev, &d->center_table, ni));
    WL_CHECK(ctx, locsim_malloc(dev, &d->switched, (size_t)in->n));
    WL_CHECK(ctx, locsim_malloc(dev, &d->closed, SC_MAX_CENTERS));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->coord, in->coord, nf * SC_DIM));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->weight, in->weight, nf));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->cost, h->cost, nf));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->assign, h->assign, ni));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->center_table, h->cs.center_table, ni));
    /* Locality Descriptors (docs/ldesc.md; Table 2: SC NO_REUSE and INTER_THREAD
     * NEARBY): per launch each point's coordinates, weight and cost are read once by
     * its thread; center_table is looked up through assign[i], nearby points mostly
     * hitting the same few entries. */
    locsim_ldesc dc = wl_ldesc(d->coord, nf * SC_DIM, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    locsim_ldesc dw = wl_ldesc(d->weight, nf, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    locsim_ldesc dt = wl_ldesc(d->center_table, ni, LOCSIM_LDESC_INTER_THREAD, sizeof(int32_t));
    /* CTA c's points are [c x SC_BLOCK, (c + 1) x SC_BLOCK): their weights, and their
     * coordinates, stored feature-major (coord[d x n + i]: a strip SC_BLOCK wide, SC_DIM
     * rows, stride n) (NUMA placement, docs/numa.md) */
    dc.data_tile = (locsim_dim3){ SC_BLOCK, SC_DIM, 1 };
    dc.stride = (int64_t)in->n;
    dw.data_tile.x = SC_BLOCK;
    dt.sharing = LOCSIM_LDESC_NEARBY;
    dt.pattern = LOCSIM_LDESC_IRREGULAR;
    dt.data_tile.x = (uint32_t)in->n;
    dt.compute_tile.x = UINT32_MAX;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dc, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dw, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dt, NULL));
    return WL_PASS;
}

/* The candidate loop: one sc_pgain per candidate, sc_apply when it opens. */
static wl_result sc_simulate(wl_ctx *ctx, locsim_module *mod, const sc_input *in, sc_host *h, sc_device *d) {
    locsim_device *dev = ctx->dev;
    wl_result r = sc_upload(ctx, in, h, d);
    if (r != WL_PASS) return r;
    locsim_kernel *pgain, *apply;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sc_pgain", &pgain));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sc_apply", &apply));
    locsim_dim3 grid = { h->blocks, 1, 1 }, block = { SC_BLOCK, 1, 1 };
    int32_t n = in->n, dim = SC_DIM;
    for (int t = 0; t < SC_CANDIDATES; t++) {
        int32_t x = in->candidates[t], k = h->cs.num_centers;
        uint32_t smem = (uint32_t)(SC_DIM + k + 1) * sizeof(float);
        void *pgain_args[] = { &d->coord, &d->weight, &d->cost, &d->assign, &d->center_table, &n, &dim, &k,
                               &x, &d->x_cost, &d->switched, &d->partials };
        WL_CHECK(ctx, locsim_launch(pgain, grid, block, smem, pgain_args, 12));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->partials, d->partials,
                                         (size_t)h->blocks * (size_t)(k + 1) * sizeof(float)));
        double totals[SC_MAX_CENTERS + 1];
        uint8_t closed[SC_MAX_CENTERS];
        for (int32_t c = 0; c <= k; c++) totals[c] = 0.0;
        for (uint32_t b = 0; b < h->blocks; b++)
            for (int32_t c = 0; c <= k; c++) totals[c] += h->partials[(size_t)b * (size_t)(k + 1) + (size_t)c];
        if (!sc_decide(totals, k, in->z, closed)) continue;
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->closed, closed, (size_t)k));
        void *apply_args[] = { &d->switched, &d->x_cost, &d->closed, &d->center_table, &d->assign, &d->cost,
                               &n, &x };
        WL_CHECK(ctx, locsim_launch(apply, grid, block, 0, apply_args, 8));
        sc_open(&h->cs, x, closed);
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->center_table, h->cs.center_table, (size_t)n * sizeof(int32_t)));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->assign, d->assign, (size_t)n * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->cost, d->cost, (size_t)n * sizeof(float)));
    return WL_PASS;
}

/* Everything is an integer-valued float, so the comparison is exact. */
static wl_result sc_compare(wl_ctx *ctx, const sc_input *in, const sc_host *h, const sc_centers *want_cs,
                            const int32_t *want_assign, const float *want_cost) {
    if (h->cs.num_centers != want_cs->num_centers)
        return wl_fail(ctx, "open centres: got %d, expected %d", h->cs.num_centers, want_cs->num_centers);
    for (int32_t i = 0; i < in->n; i++)
        if (h->assign[i] != want_assign[i] || h->cost[i] != want_cost[i])
            return wl_fail(ctx, "point %d: got centre %d cost %.1f, expected centre %d cost %.1f", i,
                           h->assign[i], h->cost[i], want_assign[i], want_cost[i]);
    return WL_PASS;
}

static wl_result sc_check(wl_ctx *ctx, const sc_input *in, const sc_host *h) {
    size_t n = (size_t)in->n;
    sc_centers want_cs;
    want_cs.center_table = (int32_t *)malloc(n * sizeof(int32_t));
    int32_t *want_assign = (int32_t *)malloc(n * sizeof(int32_t));
    float *want_cost = (float *)malloc(n * sizeof(float));
    wl_result r;
    if (!want_cs.center_table || !want_assign || !want_cost ||
        sc_reference(in, &want_cs, want_assign, want_cost) != 0) {
        r = wl_out_of_memory(ctx);
    } else {
        r = sc_compare(ctx, in, h, &want_cs, want_assign, want_cost);
    }
    free(want_cs.center_table);
    free(want_assign);
    free(want_cost);
    return r;
}

static void sc_host_free(sc_host *h) {
    free(h->cs.center_table);
    free(h->assign);
    free(h->cost);
    free(h->partials);
}

static wl_result sc_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, SC_MAX_SIZE)) return WL_ERROR;
    sc_input in;
    if (sc_generate(&in, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    size_t n = (size_t)in.n;
    sc_host h;
    memset(&h, 0, sizeof h);
    h.blocks = ((uint32_t)in.n + SC_BLOCK - 1) / SC_BLOCK;
    h.cs.center_table = (int32_t *)malloc(n * sizeof(int32_t));
    h.assign = (int32_t *)malloc(n * sizeof(int32_t));
    h.cost = (float *)malloc(n * sizeof(float));
    h.partials = (float *)malloc((size_t)h.blocks * (SC_MAX_CENTERS + 1) * sizeof(float));
    wl_result r = WL_ERROR;
    locsim_module *mod = NULL;
    if (!h.cs.center_table || !h.assign || !h.cost || !h.partials) {
        r = wl_out_of_memory(ctx);
    } else {
        sc_initial_state(&in, &h.cs, h.assign, h.cost);
        mod = wl_load_module(ctx);
    }
    if (mod) {
        sc_device d;
        memset(&d, 0, sizeof d);
        r = sc_simulate(ctx, mod, &in, &h, &d);
        WL_FREE_BUFFERS(ctx->dev, &d.coord, &d.weight, &d.cost, &d.x_cost, &d.partials, &d.assign,
                        &d.center_table, &d.switched, &d.closed);
        locsim_module_unload(mod);
        if (r == WL_PASS) r = sc_check(ctx, &in, &h);
    }
    sc_host_free(&h);
    sc_free(&in);
    return r;
}

const workload wl_streamcluster = {
    "streamcluster",
    "streamcluster pgain: distance of 32-feature points to 16 candidate centres, shared-memory atomic "
    "per-CTA gains, exact check; size S = 256S+37 points",
    SC_DEFAULT_SIZE,
    { 1, 2 },
    sc_run,
    SC_MAX_SIZE,
};
