/* lud on locsim: the same launches as kernel.cu's main(); the factors are checked by
 * reconstructing L*U against the input with the error bound given in ref.h. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Runs the tile loop on the matrix at d_a. */
static wl_result lud_simulate(wl_ctx *ctx, locsim_module *mod, int32_t n, locsim_dptr d_a) {
    locsim_kernel *diagonal, *perimeter, *internal;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "lud_diagonal", &diagonal));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "lud_perimeter", &perimeter));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "lud_internal", &internal));
    int32_t tiles = lud_tiles(n), k;
    void *args[] = { &d_a, &n, &k };
    for (k = 0; k < tiles; k++) {
        locsim_dim3 one = { 1, 1, 1 }, diag_block = { LUD_BS, 1, 1 };
        WL_CHECK(ctx, locsim_launch(diagonal, one, diag_block, 0, args, 3));
        uint32_t rest = (uint32_t)(tiles - k - 1);
        if (rest == 0) break;
        locsim_dim3 strip = { rest, 1, 1 }, warp = { 2 * LUD_BS, 1, 1 };
        WL_CHECK(ctx, locsim_launch(perimeter, strip, warp, 0, args, 3));
        locsim_dim3 square = { rest, rest, 1 }, tile = { LUD_BS, LUD_BS, 1 };
        WL_CHECK(ctx, locsim_launch(internal, square, tile, 0, args, 3));
    }
    return WL_PASS;
}

static wl_result lud_device_run(wl_ctx *ctx, locsim_module *mod, int32_t n, const float *a, float *lu) {
    size_t bytes = (size_t)n * (size_t)n * sizeof(float);
    locsim_dptr d_a = 0;
    WL_CHECK(ctx, locsim_malloc(ctx->dev, &d_a, bytes));
    locsim_status st = locsim_memcpy_htod(ctx->dev, d_a, a, bytes);
    wl_result r = st == LOCSIM_OK ? lud_simulate(ctx, mod, n, d_a) : wl_error(ctx, st, "copying the matrix");
    if (r == WL_PASS) {
        st = locsim_memcpy_dtoh(ctx->dev, lu, d_a, bytes);
        if (st != LOCSIM_OK) r = wl_error(ctx, st, "copying the factors back");
    }
    locsim_free(ctx->dev, d_a);
    return r;
}

static wl_result lud_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, LUD_MAX_SIZE)) return WL_ERROR;
    int32_t n;
    float *a = lud_generate(ctx->size, ctx->seed, &n);
    if (!a) return wl_out_of_memory(ctx);
    float *lu = (float *)malloc((size_t)n * (size_t)n * sizeof(float));
    locsim_module *mod = lu ? wl_load_module(ctx) : NULL;
    wl_result r = WL_ERROR;
    if (!lu) r = wl_out_of_memory(ctx);
    if (mod) {
        r = lud_device_run(ctx, mod, n, a, lu);
        locsim_module_unload(mod);
    }
    if (r == WL_PASS) {
        int32_t bi = 0, bj = 0;
        double got = 0.0, want = 0.0;
        if (!lud_check(n, a, lu, &bi, &bj, &got, &want))
            r = wl_fail(ctx, "(L*U)[%d][%d]: got %.9g, expected %.9g (beyond 2 gamma_n |L||U|)", bi, bj, got, want);
    }
    free(lu);
    free(a);
    return r;
}

const workload wl_lud = {
    "lud",
    "blocked LU decomposition (diagonal / perimeter / internal kernels, 16x16 shared tiles, ragged last tile); "
    "size S = (40S+8) x (40S+8) matrix",
    LUD_DEFAULT_SIZE,
    { 1, 2 },
    lud_run,
    LUD_MAX_SIZE,
};
