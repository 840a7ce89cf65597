/* heapsort on locsim: the same launch as kernel.cu's main(); every segment is
 * compared with the CPU's sort of it.
 *
 * 512*S segments of 64 keys, one thread each (ref.h).  Measured at the default size
 * 12, seed 1: see docs/workloads.md.  Working set: 1.5 MB of keys, 8 KB per warp. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

static wl_result hs_simulate(wl_ctx *ctx, locsim_module *mod, const uint32_t *keys, uint32_t segments,
                             locsim_dptr *d_keys, uint32_t *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)segments * HS_SEG * sizeof(uint32_t);
    WL_CHECK(ctx, locsim_malloc(dev, d_keys, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_keys, keys, bytes));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hs_sort", &k));
    int32_t n = (int32_t)segments;
    void *args[] = { d_keys, &n };
    locsim_dim3 grid = { (segments + HS_BLOCK - 1) / HS_BLOCK, 1, 1 }, block = { HS_BLOCK, 1, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 2));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_keys, bytes));
    return WL_PASS;
}

static wl_result hs_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, HS_MAX_SIZE)) return WL_ERROR;
    uint32_t segments = hs_segments(ctx->size);
    size_t n = (size_t)segments * HS_SEG;
    uint32_t *keys = hs_generate(segments, ctx->seed), *got = malloc(n * sizeof(uint32_t));
    wl_result r = WL_ERROR;
    if (!keys || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_keys = 0;
            r = hs_simulate(ctx, mod, keys, segments, &d_keys, got);
            WL_FREE_BUFFERS(ctx->dev, &d_keys);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) {
            hs_reference(keys, segments);
            for (size_t i = 0; i < n; i++)
                if (got[i] != keys[i]) {
                    r = wl_fail(ctx, "segment %zu, position %zu: got %u, expected %u", i / HS_SEG, i % HS_SEG,
                                got[i], keys[i]);
                    break;
                }
        }
    }
    free(keys); free(got);
    return r;
}

const workload wl_heapsort = {
    "heapsort",
    "heap sort (WSMP's own benchmark): each thread heap-sorts a 64-key segment in global memory; "
    "S = 512*S segments",
    12,
    { 1, 2 },
    hs_run,
    HS_MAX_SIZE,
};
