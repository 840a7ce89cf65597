/* bfs on locsim: the same launches as kernel.cu's main(), checked against a CPU BFS.
 *
 * Measured at the default size 64, seed 1: 62.7 M thread instructions
 * (gpu_sim_insn).  Working set: 128 K nodes, ~1.1 M edges: ~5 MB of CSR + 0.5 MB of levels. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Device buffers; zero means "not allocated", so cleanup works from any point. */
typedef struct {
    locsim_dptr row_start, adj, level, changed, frontier, next, visited;
} bfs_device;

/* Host-side copies of the per-node state (the initial device state, then the result). */
typedef struct {
    int32_t *level;
    uint8_t *frontier, *next, *visited;
} bfs_host;

/* Uploads the graph and the initial state, runs the level loop (two kernels per
 * level until nothing changes) and downloads the levels into h->level. */
static wl_result bfs_simulate(wl_ctx *ctx, locsim_module *mod, const bfs_graph *g, bfs_device *d,
                              bfs_host *h) {
    locsim_device *dev = ctx->dev;
    size_t n = (size_t)g->num_nodes;
    bfs_init_state(g, h->level, h->frontier, h->next, h->visited);
    WL_CHECK(ctx, locsim_malloc(dev, &d->row_start, (n + 1) * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->adj, (size_t)g->num_edges * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->level, n * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->changed, sizeof(int32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->frontier, n));
    WL_CHECK(ctx, locsim_malloc(dev, &d->next, n));
    WL_CHECK(ctx, locsim_malloc(dev, &d->visited, n));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->row_start, g->row_start, (n + 1) * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->adj, g->adj, (size_t)g->num_edges * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->level, h->level, n * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->frontier, h->frontier, n));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->next, h->next, n));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->visited, h->visited, n));

    locsim_kernel *expand, *update;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "bfs_expand", &expand));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "bfs_update", &update));
    locsim_dim3 grid = { ((uint32_t)n + BFS_BLOCK - 1) / BFS_BLOCK, 1, 1 };
    locsim_dim3 block = { BFS_BLOCK, 1, 1 };
    int32_t num_nodes = g->num_nodes;
    void *expand_args[] = { &d->row_start, &d->adj, &d->frontier, &d->next, &d->visited, &d->level, &num_nodes };
    void *update_args[] = { &d->frontier, &d->next, &d->visited, &d->changed, &num_nodes };
    int32_t changed;
    do {
        changed = 0;
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->changed, &changed, sizeof changed));
        WL_CHECK(ctx, locsim_launch(expand, grid, block, 0, expand_args, 7));
        WL_CHECK(ctx, locsim_launch(update, grid, block, 0, update_args, 5));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, &changed, d->changed, sizeof changed));
    } while (changed);
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->level, d->level, n * sizeof(int32_t)));
    return WL_PASS;
}

static wl_result bfs_check(wl_ctx *ctx, const bfs_graph *g, const int32_t *level) {
    int32_t *expected = (int32_t *)malloc((size_t)g->num_nodes * sizeof(int32_t));
    if (!expected || bfs_reference(g, expected) != 0) {
        free(expected);
        return wl_out_of_memory(ctx);
    }
    wl_result r = WL_PASS;
    for (int32_t v = 0; v < g->num_nodes; v++) {
        if (level[v] != expected[v]) {
            r = wl_fail(ctx, "level[%d]: got %d, expected %d", v, level[v], expected[v]);
            break;
        }
    }
    free(expected);
    return r;
}

static wl_result bfs_run(wl_ctx *ctx) {
    bfs_graph g;
    if (bfs_generate(&g, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    size_t n = (size_t)g.num_nodes;
    bfs_host h;
    h.level = (int32_t *)malloc(n * sizeof(int32_t));
    h.frontier = (uint8_t *)malloc(n);
    h.next = (uint8_t *)malloc(n);
    h.visited = (uint8_t *)malloc(n);
    wl_result r = WL_ERROR;
    if (!h.level || !h.frontier || !h.next || !h.visited) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            bfs_device d;
            memset(&d, 0, sizeof d);
            r = bfs_simulate(ctx, mod, &g, &d, &h);
            WL_FREE_BUFFERS(ctx->dev, &d.row_start, &d.adj, &d.level, &d.changed, &d.frontier, &d.next, &d.visited);
            locsim_module_unload(mod);
            if (r == WL_PASS) r = bfs_check(ctx, &g, h.level);
        }
    }
    free(h.level); free(h.frontier); free(h.next); free(h.visited);
    bfs_free(&g);
    return r;
}

const workload wl_bfs = {
    "bfs",
    "breadth-first search, CSR graph + frontier masks, 2 kernels/level; size S = S*2000+11 nodes, ~7 edges/node",
    64,
    { 1, 2 },
    bfs_run,
    0,   /* max_size: no fixed limit */
};
