/* sssp on locsim: the same launches as kernel.cu's main(), checked exactly against Dijkstra. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Device buffers; zero means "not allocated", so cleanup works from any point. */
typedef struct {
    locsim_dptr row_start, adj, weight, cost, updating, changed, mask;
} sssp_device;

static wl_result sssp_upload(wl_ctx *ctx, const sssp_graph *g, sssp_device *d, int32_t *cost) {
    locsim_device *dev = ctx->dev;
    size_t n = (size_t)g->num_nodes, ni = n * sizeof(int32_t), ne = (size_t)g->num_edges * sizeof(int32_t);
    wl_result result = WL_ERROR;
    int32_t *updating = (int32_t *)malloc(ni);
    uint8_t *mask = (uint8_t *)malloc(n);
    if (!updating || !mask) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    sssp_init_state(g, cost, updating, mask);
    WL_TRY(ctx, locsim_malloc(dev, &d->row_start, ni + sizeof(int32_t)));
    WL_TRY(ctx, locsim_malloc(dev, &d->adj, ne));
    WL_TRY(ctx, locsim_malloc(dev, &d->weight, ne));
    WL_TRY(ctx, locsim_malloc(dev, &d->cost, ni));
    WL_TRY(ctx, locsim_malloc(dev, &d->updating, ni));
    WL_TRY(ctx, locsim_malloc(dev, &d->changed, sizeof(int32_t)));
    WL_TRY(ctx, locsim_malloc(dev, &d->mask, n));
    WL_TRY(ctx, locsim_memcpy_htod(dev, d->row_start, g->row_start, ni + sizeof(int32_t)));
    WL_TRY(ctx, locsim_memcpy_htod(dev, d->adj, g->adj, ne));
    WL_TRY(ctx, locsim_memcpy_htod(dev, d->weight, g->weight, ne));
    WL_TRY(ctx, locsim_memcpy_htod(dev, d->cost, cost, ni));
    WL_TRY(ctx, locsim_memcpy_htod(dev, d->updating, updating, ni));
    WL_TRY(ctx, locsim_memcpy_htod(dev, d->mask, mask, n));
    result = WL_PASS;
out:
    free(updating);
    free(mask);
    return result;
}

/* Runs relax/update rounds until nothing changes; fills cost[] with the device result. */
static wl_result sssp_simulate(wl_ctx *ctx, locsim_module *mod, const sssp_graph *g, sssp_device *d,
                               int32_t *cost) {
    locsim_device *dev = ctx->dev;
    wl_result r = sssp_upload(ctx, g, d, cost);
    if (r != WL_PASS) return r;
    locsim_kernel *relax, *update;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sssp_relax", &relax));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sssp_update", &update));
    int32_t n = g->num_nodes;
    locsim_dim3 grid = { ((uint32_t)n + SSSP_BLOCK - 1) / SSSP_BLOCK, 1, 1 };
    locsim_dim3 block = { SSSP_BLOCK, 1, 1 };
    void *relax_args[] = { &d->row_start, &d->adj, &d->weight, &d->mask, &d->cost, &d->updating, &n };
    void *update_args[] = { &d->mask, &d->cost, &d->updating, &d->changed, &n };
    /* Each round fixes at least one more node for good (the one nearest the source
     * among those not yet final), so more rounds than nodes means a broken device. */
    int32_t changed, rounds = 0;
    do {
        if (rounds++ > n) return wl_fail(ctx, "no convergence after %d rounds", n);
        changed = 0;
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->changed, &changed, sizeof changed));
        WL_CHECK(ctx, locsim_launch(relax, grid, block, 0, relax_args, 7));
        WL_CHECK(ctx, locsim_launch(update, grid, block, 0, update_args, 5));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, &changed, d->changed, sizeof changed));
    } while (changed);
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, cost, d->cost, (size_t)n * sizeof(int32_t)));
    return WL_PASS;
}

static wl_result sssp_check(wl_ctx *ctx, const sssp_graph *g, const int32_t *cost) {
    int32_t *expected = (int32_t *)malloc((size_t)g->num_nodes * sizeof(int32_t));
    if (!expected || sssp_reference(g, expected) != 0) {
        free(expected);
        return wl_out_of_memory(ctx);
    }
    wl_result r = WL_PASS;
    for (int32_t v = 0; v < g->num_nodes; v++) {
        if (cost[v] != expected[v]) {
            r = wl_fail(ctx, "dist[%d]: got %d, expected %d", v, cost[v], expected[v]);
            break;
        }
    }
    free(expected);
    return r;
}

static wl_result sssp_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, SSSP_MAX_SIZE)) return WL_ERROR;
    sssp_graph g;
    if (sssp_generate(&g, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    int32_t *cost = (int32_t *)malloc((size_t)g.num_nodes * sizeof(int32_t));
    locsim_module *mod = cost ? wl_load_module(ctx) : NULL;
    wl_result r = WL_ERROR;
    if (!cost) r = wl_out_of_memory(ctx);
    if (mod) {
        sssp_device d;
        memset(&d, 0, sizeof d);
        r = sssp_simulate(ctx, mod, &g, &d, cost);
        WL_FREE_BUFFERS(ctx->dev, &d.row_start, &d.adj, &d.weight, &d.cost, &d.updating, &d.changed, &d.mask);
        locsim_module_unload(mod);
        if (r == WL_PASS) r = sssp_check(ctx, &g, cost);
    }
    free(cost);
    sssp_free(&g);
    return r;
}

const workload wl_sssp = {
    "sssp",
    "single-source shortest paths, Bellman-Ford frontier relaxation with atomicMin on a weighted CSR graph, "
    "2 kernels/round; size S = 1000S+13 nodes, ~4.5 edges/node",
    SSSP_DEFAULT_SIZE,
    { 1, 2 },
    sssp_run,
    SSSP_MAX_SIZE,
};
