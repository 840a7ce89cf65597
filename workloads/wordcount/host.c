/* wordcount on locsim: the same two launches as kernel.cu's main(); the number of
 * distinct words and every query word's count are compared with the CPU count.
 *
 * 64 KB * S of text (ref.h).  Measured at the default size 16, seed 1: 20.9 M thread
 * instructions, 0.87 M cycles on fermi_gtx480 (timing mode; the hash-table atomics
 * dominate).  Working set: 1 MB of text, a 192 KB table. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr text, keys, counts, distinct, queries, out;
} wc_device;

static wl_result wc_simulate(wl_ctx *ctx, locsim_module *mod, const uint8_t *text, uint32_t n, const wc_answer *want,
                             wc_device *d, uint32_t *got, uint32_t *got_distinct) {
    locsim_device *dev = ctx->dev;
    uint32_t nq = want->queries;
    WL_CHECK(ctx, locsim_malloc(dev, &d->text, n));
    WL_CHECK(ctx, locsim_malloc(dev, &d->keys, WC_TABLE * sizeof(uint64_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->counts, WC_TABLE * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->distinct, sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->queries, nq * sizeof(uint64_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->out, nq * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->text, text, n));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->queries, want->keys, nq * sizeof(uint64_t)));
    WL_CHECK(ctx, locsim_memset(dev, d->keys, 0, WC_TABLE * sizeof(uint64_t)));
    WL_CHECK(ctx, locsim_memset(dev, d->counts, 0, WC_TABLE * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memset(dev, d->distinct, 0, sizeof(uint32_t)));
    locsim_kernel *map, *lookup;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "wc_map", &map));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "wc_lookup", &lookup));
    uint32_t threads = (n + WC_SEG - 1) / WC_SEG;
    locsim_dim3 block = { WC_BLOCK, 1, 1 };
    locsim_dim3 map_grid = { (threads + WC_BLOCK - 1) / WC_BLOCK, 1, 1 };
    locsim_dim3 lookup_grid = { (nq + WC_BLOCK - 1) / WC_BLOCK, 1, 1 };
    void *map_args[] = { &d->text, &n, &d->keys, &d->counts, &d->distinct };
    void *lookup_args[] = { &d->keys, &d->counts, &d->queries, &nq, &d->out };
    WL_CHECK(ctx, locsim_launch(map, map_grid, block, 0, map_args, 5));
    WL_CHECK(ctx, locsim_launch(lookup, lookup_grid, block, 0, lookup_args, 5));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_distinct, d->distinct, sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, d->out, nq * sizeof(uint32_t)));
    return WL_PASS;
}

static wl_result wc_check(wl_ctx *ctx, const wc_answer *want, const uint32_t *got, uint32_t got_distinct) {
    if (got_distinct != want->distinct)
        return wl_fail(ctx, "distinct words: got %u, expected %u", got_distinct, want->distinct);
    for (uint32_t q = 0; q < want->queries; q++)
        if (got[q] != want->counts[q])
            return wl_fail(ctx, "query %u: got count %u, expected %u", q, got[q], want->counts[q]);
    return WL_PASS;
}

static wl_result wc_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, WC_MAX_SIZE)) return WL_ERROR;
    uint32_t n = wc_text_len(ctx->size);
    wl_vocab vocab;
    uint8_t *text = wc_generate(n, ctx->seed, &vocab);
    if (!text) return wl_out_of_memory(ctx);
    wc_answer want;
    memset(&want, 0, sizeof want);
    uint32_t *got = NULL, got_distinct = 0;
    wl_result r = WL_ERROR;
    if (!wc_reference(text, n, &vocab, &want) || !(got = malloc(want.queries * sizeof(uint32_t)))) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            wc_device d;
            memset(&d, 0, sizeof d);
            r = wc_simulate(ctx, mod, text, n, &want, &d, got, &got_distinct);
            WL_FREE_BUFFERS(ctx->dev, &d.text, &d.keys, &d.counts, &d.distinct, &d.queries, &d.out);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = wc_check(ctx, &want, got, got_distinct);
    }
    free(text); free(got);
    wc_answer_free(&want);
    wl_vocab_free(&vocab);
    return r;
}

const workload wl_wordcount = {
    "wordcount",
    "MapReduce word count: FNV keys into a global hash table by atomicCAS/atomicAdd, then lookups; 64 KB*S text",
    16,
    { 1, 2 },
    wc_run,
    WC_MAX_SIZE,
};
