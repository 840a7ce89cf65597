/* stencil on locsim: the same launches as kernel.cu's main(), checked against the CPU. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Runs WP_STEPS steps on the device and copies the final field into result.
 * d[] holds q0, q1, u, v, w; the caller frees whatever was allocated. */
static wl_result wp_simulate(wl_ctx *ctx, locsim_module *mod, const wp_input *in, locsim_dptr d[5],
                             float *result) {
    locsim_device *dev = ctx->dev;
    size_t bytes = wp_points(in) * sizeof(float);
    for (int b = 0; b < 5; b++) WL_CHECK(ctx, locsim_malloc(dev, &d[b], bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d[0], in->q, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d[2], in->u, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d[3], in->v, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d[4], in->w, bytes));

    locsim_kernel *step;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "wp_transport_step", &step));
    locsim_dim3 grid = { ((uint32_t)in->nx + WP_TILE_X - 1) / WP_TILE_X,
                         ((uint32_t)in->ny + WP_TILE_Y - 1) / WP_TILE_Y, 1 };
    locsim_dim3 block = { WP_TILE_X, WP_TILE_Y, 1 };
    int32_t nx = in->nx, ny = in->ny, nz = in->nz;
    float cx = WP_CX, cy = WP_CY, cz = WP_CZ, kh = WP_KH, kv = WP_KV;
    for (int s = 0; s < WP_STEPS; s++) {
        void *args[] = { &d[s % 2], &d[(s + 1) % 2], &d[2], &d[3], &d[4], &nx, &ny, &nz,
                         &cx, &cy, &cz, &kh, &kv };
        WL_CHECK(ctx, locsim_launch(step, grid, block, 0, args, 13));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, result, d[WP_STEPS % 2], bytes));
    return WL_PASS;
}

static wl_result wp_check(wl_ctx *ctx, const wp_input *in, const float *result) {
    size_t n = wp_points(in);
    float *expected = (float *)malloc(n * sizeof(float));
    if (!expected || wp_reference(in, expected) != 0) {
        free(expected);
        return wl_out_of_memory(ctx);
    }
    wl_result r = WL_PASS;
    size_t bad = wp_first_mismatch(n, result, expected);
    if (bad < n) r = wl_fail(ctx, "q[%zu]: got %.9g, expected %.9g (tolerance %g)", bad, result[bad],
                             expected[bad], WP_TOLERANCE);
    free(expected);
    return r;
}

static wl_result wp_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, WP_MAX_SIZE)) return WL_ERROR;
    wp_input in;
    if (wp_generate(&in, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    float *result = (float *)malloc(wp_points(&in) * sizeof(float));
    locsim_module *mod = result ? wl_load_module(ctx) : NULL;
    wl_result r = result ? WL_ERROR : wl_out_of_memory(ctx);
    if (mod) {
        locsim_dptr d[5] = { 0, 0, 0, 0, 0 };
        r = wp_simulate(ctx, mod, &in, d, result);
        for (int b = 0; b < 5; b++)
            if (d[b]) locsim_free(ctx->dev, d[b]);
        locsim_module_unload(mod);
        if (r == WL_PASS) r = wp_check(ctx, &in, result);
    }
    free(result);
    wp_free(&in);
    return r;
}

const workload wl_stencil = {
    "stencil",
    "weather-prediction 3-D tracer transport (upwind advection + diffusion, shared-memory plane tiles, "
    "4 steps); size S = (16S+21) x (2S+3) x 16 grid",
    WP_DEFAULT_SIZE,
    { 1, 2 },
    wp_run,
    WP_MAX_SIZE,
};
