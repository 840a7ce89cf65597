/* histogram on locsim: the same two launches as kernel.cu's main(), both results
 * compared bin by bin with the CPU count.
 *
 * Measured at the default size 128, seed 1: 52.1 M thread instructions
 * (gpu_sim_insn).  Working set: 4 MB of samples streamed twice. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr data, hist_global, hist_shared;
} hist_device;

static wl_result hist_simulate(wl_ctx *ctx, locsim_module *mod, const uint32_t *data, uint32_t words,
                               hist_device *d, uint32_t *got_global, uint32_t *got_shared) {
    locsim_device *dev = ctx->dev;
    const size_t hist_bytes = HIST_BINS * sizeof(uint32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->data, (size_t)words * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->hist_global, hist_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->hist_shared, hist_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->data, data, (size_t)words * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memset(dev, d->hist_global, 0, hist_bytes));
    WL_CHECK(ctx, locsim_memset(dev, d->hist_shared, 0, hist_bytes));
    /* Locality Descriptor (docs/ldesc.md): the samples are streamed, each word read
     * once per launch (NO_REUSE).  (The paper's histo is Parboil's, whose
     * sm_mappings table is INTER_THREAD COACCESSED REGULAR; ours has no such table:
     * the bins are updated by atomics, which do not use the L1.) */
    locsim_ldesc dd = wl_ldesc(d->data, (size_t)words * sizeof(uint32_t), LOCSIM_LDESC_NO_REUSE, sizeof(uint32_t));
    /* CTA c reads words [c x HIST_BLOCK, (c + 1) x HIST_BLOCK) of every grid-wide
     * sweep: D-Tile = HIST_BLOCK words, C-Tile = one CTA (NUMA placement) */
    dd.data_tile.x = HIST_BLOCK;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dd, NULL));

    locsim_kernel *k_global, *k_shared;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hist_global", &k_global));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hist_shared", &k_shared));
    locsim_dim3 grid = { hist_num_blocks(words), 1, 1 };
    locsim_dim3 block = { HIST_BLOCK, 1, 1 };
    void *args_global[] = { &d->data, &words, &d->hist_global };
    void *args_shared[] = { &d->data, &words, &d->hist_shared };
    WL_CHECK(ctx, locsim_launch(k_global, grid, block, 0, args_global, 3));
    WL_CHECK(ctx, locsim_launch(k_shared, grid, block, 0, args_shared, 3));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_global, d->hist_global, hist_bytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_shared, d->hist_shared, hist_bytes));
    return WL_PASS;
}

static wl_result hist_compare(wl_ctx *ctx, const char *what, const uint32_t *got, const uint32_t *expected) {
    for (int b = 0; b < HIST_BINS; b++)
        if (got[b] != expected[b])
            return wl_fail(ctx, "%s: bin %d: got %u, expected %u", what, b, got[b], expected[b]);
    return WL_PASS;
}

static wl_result hist_run(wl_ctx *ctx) {
    uint32_t words = hist_num_words(ctx->size);
    uint32_t *data = hist_generate(words, ctx->seed);
    if (!data) return wl_out_of_memory(ctx);
    uint32_t expected[HIST_BINS], got_global[HIST_BINS], got_shared[HIST_BINS];
    hist_reference(data, words, expected);
    wl_result r = WL_ERROR;
    locsim_module *mod = wl_load_module(ctx);
    if (mod) {
        hist_device d;
        memset(&d, 0, sizeof d);
        r = hist_simulate(ctx, mod, data, words, &d, got_global, got_shared);
        WL_FREE_BUFFERS(ctx->dev, &d.data, &d.hist_global, &d.hist_shared);
        locsim_module_unload(mod);
    }
    if (r == WL_PASS) r = hist_compare(ctx, "hist_global", got_global, expected);
    if (r == WL_PASS) r = hist_compare(ctx, "hist_shared", got_shared, expected);
    free(data);
    return r;
}

const workload wl_histogram = {
    "histogram",
    "256-bin histogram, global atomics vs shared-memory privatised; size S = 8192*S+7 words of 4 samples",
    128,
    { 1, 2 },
    hist_run,
    0,   /* max_size: no fixed limit */
};
