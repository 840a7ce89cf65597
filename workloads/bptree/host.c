/* bptree on locsim: the same launch as kernel.cu's main(); every query's record
 * (or "absent") is compared with a binary search of the sorted keys.
 *
 * 16384*S keys, 64*S queries (ref.h).  Measured at the default size 64, seed 1: 49.4 M
 * thread instructions, 90.3 K cycles on fermi_gtx480 (timing mode). Working set: 12 MB
 * of nodes, 4 MB of records. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr key, child, records, queries, out;
} bt_device;

static wl_result bt_simulate(wl_ctx *ctx, locsim_module *mod, const bt_data *data, const bt_tree *tree,
                             const uint32_t *queries, uint32_t nq, bt_device *d, uint32_t *got) {
    locsim_device *dev = ctx->dev;
    size_t key_bytes = (size_t)tree->nodes * (BT_ORDER + 1) * sizeof(uint32_t);
    size_t child_bytes = (size_t)tree->nodes * BT_ORDER * sizeof(uint32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->key, key_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->child, child_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->records, data->n * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->queries, nq * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->out, nq * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->key, tree->key, key_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->child, tree->child, child_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->records, data->records, data->n * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->queries, queries, nq * sizeof(uint32_t)));
    locsim_kernel *find;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "bt_find", &find));
    uint32_t root = tree->root, levels = tree->levels;
    void *args[] = { &d->key, &d->child, &d->records, &root, &levels, &d->queries, &d->out };
    locsim_dim3 grid = { nq, 1, 1 }, block = { BT_ORDER, 1, 1 };
    WL_CHECK(ctx, locsim_launch(find, grid, block, 0, args, 7));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, d->out, nq * sizeof(uint32_t)));
    return WL_PASS;
}

static wl_result bt_check(wl_ctx *ctx, const bt_data *data, const uint32_t *queries, uint32_t nq,
                          const uint32_t *got) {
    for (uint32_t q = 0; q < nq; q++) {
        uint32_t want = bt_lookup(data, queries[q]);
        if (got[q] != want)
            return wl_fail(ctx, "query %u (key %u): got record %u, expected %u", q, queries[q], got[q], want);
    }
    return WL_PASS;
}

static wl_result bt_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, BT_MAX_SIZE)) return WL_ERROR;
    bt_data data;
    bt_tree tree;
    uint32_t *queries = NULL, nq = bt_num_queries(ctx->size);
    if (!bt_generate(bt_num_keys(ctx->size), nq, ctx->seed, &data, &queries)) return wl_out_of_memory(ctx);
    uint32_t *got = malloc(nq * sizeof(uint32_t));
    wl_result r = WL_ERROR;
    if (!got || !bt_build(&data, &tree)) {
        free(got);
        bt_data_free(&data);
        free(queries);
        return wl_out_of_memory(ctx);
    }
    locsim_module *mod = wl_load_module(ctx);
    if (mod) {
        bt_device d;
        memset(&d, 0, sizeof d);
        r = bt_simulate(ctx, mod, &data, &tree, queries, nq, &d, got);
        WL_FREE_BUFFERS(ctx->dev, &d.key, &d.child, &d.records, &d.queries, &d.out);
        locsim_module_unload(mod);
    }
    if (r == WL_PASS) r = bt_check(ctx, &data, queries, nq, got);
    bt_data_free(&data);
    bt_tree_free(&tree);
    free(queries); free(got);
    return r;
}

const workload wl_bptree = {
    "bptree",
    "B+tree search (Rodinia findK style): one CTA per query, a thread per key slot, order 128; 16384*S keys, 64*S queries",
    64,
    { 1, 2 },
    bt_run,
    BT_MAX_SIZE,
};
