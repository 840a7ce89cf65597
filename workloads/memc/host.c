/* memc on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result compare(wl_ctx *ctx, uint32_t nreq, const uint64_t *values, const uint32_t *hits,
                         const uint64_t *want_values, const uint32_t *want_hits) {
    for (uint32_t q = 0; q < nreq; q++) {
        if (hits[q] != want_hits[q] || values[q] != want_values[q])
            return wl_fail(ctx, "request %u: hit %u value 0x%llx, expected hit %u value 0x%llx", q, hits[q],
                           (unsigned long long)values[q], want_hits[q], (unsigned long long)want_values[q]);
    }
    return WL_PASS;
}

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, MEMC_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    memc_input in;
    in.nkeys = memc_nkeys(ctx->size);
    in.nreq = memc_nreq(ctx->size);
    in.nsets = memc_nsets(in.nkeys);
    size_t items_bytes = (size_t)in.nkeys * sizeof(memc_item);
    size_t table_bytes = (size_t)in.nsets * MEMC_WAYS * sizeof(memc_slot);
    size_t reqs_bytes = (size_t)in.nreq * sizeof(memc_request);
    locsim_module *mod = NULL;
    locsim_dptr d_items = 0, d_table = 0, d_reqs = 0, d_values = 0, d_hits = 0;
    in.items = (memc_item *)malloc(items_bytes);
    in.table = (memc_slot *)malloc(table_bytes);
    in.reqs = (memc_request *)malloc(reqs_bytes);
    uint64_t *values = (uint64_t *)malloc(in.nreq * sizeof(uint64_t));
    uint64_t *want_values = (uint64_t *)malloc(in.nreq * sizeof(uint64_t));
    uint32_t *hits = (uint32_t *)malloc(in.nreq * sizeof(uint32_t));
    uint32_t *want_hits = (uint32_t *)malloc(in.nreq * sizeof(uint32_t));
    if (!in.items || !in.table || !in.reqs || !values || !want_values || !hits || !want_hits) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    memc_build(&in, ctx->seed);
    memc_gen_requests(&in, ctx->seed);
    memc_ref(&in, want_values, want_hits);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "memc_get", &k));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_items, items_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_table, table_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_reqs, reqs_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_values, in.nreq * sizeof(uint64_t)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_hits, in.nreq * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_items, in.items, items_bytes));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_table, in.table, table_bytes));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_reqs, in.reqs, reqs_bytes));

    int nreq_arg = (int)in.nreq;
    uint32_t set_mask = in.nsets - 1;
    void *args[] = {&d_reqs, &nreq_arg, &d_table, &set_mask, &d_items, &d_values, &d_hits};
    locsim_dim3 grid = {(in.nreq + MEMC_BLOCK - 1) / MEMC_BLOCK, 1, 1}, block = {MEMC_BLOCK, 1, 1};
    WL_TRY(ctx, locsim_launch(k, grid, block, 0, args, 7));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, values, d_values, in.nreq * sizeof(uint64_t)));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, hits, d_hits, in.nreq * sizeof(uint32_t)));
    result = compare(ctx, in.nreq, values, hits, want_values, want_hits);

out:
    WL_FREE_BUFFERS(ctx->dev, &d_hits, &d_values, &d_reqs, &d_table, &d_items);
    if (mod) locsim_module_unload(mod);
    free(in.items);
    free(in.table);
    free(in.reqs);
    free(values);
    free(want_values);
    free(hits);
    free(want_hits);
    return result;
}

const workload wl_memc = {
    "memc",
    "memcached-style GET: Jenkins hash, 8-way set-associative table, key compare, skewed keys, ~88% hits; "
    "--size S: S*2048 keys, S*2048+77 requests",
    MEMC_DEFAULT_SIZE,
    {1, 2},
    run,
    MEMC_MAX_SIZE,
};
