/* strmatch on locsim: the same launch as kernel.cu's main(); every key's count and
 * first occurrence are compared with the CPU scan.
 *
 * 16 KB * S of text (ref.h).  Measured at the default size 32, seed 1: 61.0 M thread
 * instructions, 0.75 M cycles on fermi_gtx480 (timing mode). Working set: 512 KB of
 * text. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr text, count, first;
} sm_device;

static wl_result sm_simulate(wl_ctx *ctx, locsim_module *mod, const uint8_t *text, uint32_t n,
                             const sm_patterns *pat, sm_device *d, uint32_t *count, uint32_t *first) {
    locsim_device *dev = ctx->dev;
    const size_t result_bytes = SM_PATTERNS * sizeof(uint32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->text, n));
    WL_CHECK(ctx, locsim_malloc(dev, &d->count, result_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->first, result_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->text, text, n));
    WL_CHECK(ctx, locsim_memset(dev, d->count, 0, result_bytes));
    WL_CHECK(ctx, locsim_memset(dev, d->first, 0xff, result_bytes));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_keys", pat->key, sizeof pat->key, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_lens", pat->len, sizeof pat->len, 0));
    locsim_kernel *scan;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sm_scan", &scan));
    uint32_t threads = (n + SM_SEG - 1) / SM_SEG;
    locsim_dim3 grid = { (threads + SM_BLOCK - 1) / SM_BLOCK, 1, 1 }, block = { SM_BLOCK, 1, 1 };
    void *args[] = { &d->text, &n, &d->count, &d->first };
    WL_CHECK(ctx, locsim_launch(scan, grid, block, 0, args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, count, d->count, result_bytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, first, d->first, result_bytes));
    return WL_PASS;
}

static wl_result sm_check(wl_ctx *ctx, const uint8_t *text, uint32_t n, const sm_patterns *pat,
                          const uint32_t *count, const uint32_t *first) {
    uint32_t want_count[SM_PATTERNS], want_first[SM_PATTERNS];
    sm_reference(text, n, pat, want_count, want_first);
    for (int k = 0; k < SM_PATTERNS; k++)
        if (count[k] != want_count[k] || first[k] != want_first[k])
            return wl_fail(ctx, "key %d (\"%.*s\"): got %u occurrences, first at %u; expected %u, first at %u", k,
                           (int)pat->len[k], (const char *)pat->key[k], count[k], first[k], want_count[k],
                           want_first[k]);
    return WL_PASS;
}

static wl_result sm_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, SM_MAX_SIZE)) return WL_ERROR;
    uint32_t n = sm_text_len(ctx->size);
    sm_patterns pat;
    uint8_t *text = sm_generate(n, ctx->seed, &pat);
    if (!text) return wl_out_of_memory(ctx);
    uint32_t count[SM_PATTERNS], first[SM_PATTERNS];
    wl_result r = WL_ERROR;
    locsim_module *mod = wl_load_module(ctx);
    if (mod) {
        sm_device d;
        memset(&d, 0, sizeof d);
        r = sm_simulate(ctx, mod, text, n, &pat, &d, count, first);
        WL_FREE_BUFFERS(ctx->dev, &d.text, &d.count, &d.first);
        locsim_module_unload(mod);
    }
    if (r == WL_PASS) r = sm_check(ctx, text, n, &pat, count, first);
    free(text);
    return r;
}

const workload wl_strmatch = {
    "strmatch",
    "string match: 16 keys (count + first occurrence) over Zipf-worded text, 128 B per thread; 16 KB*S of text",
    32,
    { 1, 2 },
    sm_run,
    SM_MAX_SIZE,
};
