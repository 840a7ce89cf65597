/* transpose on locsim: the same launch as kernel.cu's main(); the transposed
 * matrix is compared bit for bit with the reference.
 *
 * 512*S x 256*S floats (ref.h says why). */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result tr_simulate(wl_ctx *ctx, locsim_module *mod, const float *in, uint32_t w, uint32_t h,
                             locsim_dptr *d_in, locsim_dptr *d_out, float *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)w * h * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, d_in, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, d_out, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_in, in, bytes));
    /* Locality Descriptors (docs/ldesc.md; Table 2: TRA NO_REUSE): every element of
     * in is read once (a warp reads one whole line of a tile row) and every element of
     * out written once; the reuse is in the shared-memory tile, which no descriptor
     * covers. */
    locsim_ldesc din = wl_ldesc(*d_in, bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    locsim_ldesc dout = wl_ldesc(*d_out, bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    /* Tiles (for NUMA placement, docs/numa.md): CTA (bx, by) reads the 32 x 32 tile
     * (bx, by) of in (w elements a row: stride w) and writes tile (by, bx) of out
     * (h a row), so out's D-Tiles go with the C-Tiles in y-fastest order. */
    din.data_tile = (locsim_dim3){ TR_TILE, TR_TILE, 1 };
    din.map = (locsim_dim3){ 1, 2, 0 };
    din.stride = w;
    dout.data_tile = din.data_tile;
    dout.map = (locsim_dim3){ 2, 1, 0 };
    dout.stride = h;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &din, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dout, NULL));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "tr_kernel", &k));
    int32_t wi = (int32_t)w, hi = (int32_t)h;
    void *args[] = { d_out, d_in, &wi, &hi };
    locsim_dim3 grid = { w / TR_TILE, h / TR_TILE, 1 }, block = { TR_TILE, TR_ROWS, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_out, bytes));
    return WL_PASS;
}

static wl_result tr_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, TR_MAX_SIZE)) return WL_ERROR;
    uint32_t w = tr_width(ctx->size), h = tr_height(ctx->size);
    size_t bytes = (size_t)w * h * sizeof(float);
    float *in = tr_generate(w, h, ctx->seed), *want = malloc(bytes), *got = malloc(bytes);
    wl_result r = WL_ERROR;
    if (!in || !want || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        tr_reference(in, w, h, want);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_in = 0, d_out = 0;
            r = tr_simulate(ctx, mod, in, w, h, &d_in, &d_out, got);
            WL_FREE_BUFFERS(ctx->dev, &d_in, &d_out);
            locsim_module_unload(mod);
        }
        size_t i = wl_first_float_diff(got, want, (size_t)w * h);
        if (r == WL_PASS && i < (size_t)w * h)
            r = wl_fail(ctx, "out[%zu][%zu]: got %.9g, expected %.9g", i / h, i % h, got[i], want[i]);
    }
    free(in); free(want); free(got);
    return r;
}

const workload wl_transpose = {
    "transpose",
    "SDK matrix transpose, 32 x 32 shared tiles with a padding column; size S = 512*S x 256*S floats",
    4,
    { 1, 2 },
    tr_run,
    TR_MAX_SIZE,
};
