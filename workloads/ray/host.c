/* ray on locsim: the same launch as kernel.cu's main(); the image is compared bit
 * for bit with the CPU reference (ref.h says why that is exact).
 *
 * A 32*S x 16*S image of a 12-sphere scene (ref.h).  Measured at the default size 8,
 * seed 1: see docs/workloads.md.  Working set: the 384 KB image written once; the
 * scene in constant memory. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result ray_simulate(wl_ctx *ctx, locsim_module *mod, const ray_scene *sc, uint32_t w, uint32_t h,
                              locsim_dptr *rgb, float *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)w * h * 3 * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, rgb, bytes));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_scene", sc, sizeof *sc, 0));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ray_render", &k));
    int32_t wi = (int32_t)w, hi = (int32_t)h;
    void *args[] = { rgb, &wi, &hi };
    locsim_dim3 grid = { w / RAY_BX, h / RAY_BY, 1 }, block = { RAY_BX, RAY_BY, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 3));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *rgb, bytes));
    return WL_PASS;
}

static wl_result ray_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, RAY_MAX_SIZE)) return WL_ERROR;
    uint32_t w = ray_width(ctx->size), h = ray_height(ctx->size);
    size_t n = (size_t)w * h * 3;
    ray_scene sc;
    ray_make_scene(ctx->seed, &sc);
    float *want = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
    wl_result r = WL_ERROR;
    if (!want || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        ray_reference(&sc, w, h, want);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr rgb = 0;
            r = ray_simulate(ctx, mod, &sc, w, h, &rgb, got);
            WL_FREE_BUFFERS(ctx->dev, &rgb);
            locsim_module_unload(mod);
        }
        size_t i = wl_first_float_diff(got, want, n);
        if (r == WL_PASS && i < n)
            r = wl_fail(ctx, "pixel (%zu, %zu) channel %zu: got %.9g, expected %.9g", i / 3 % w, i / 3 / w,
                        i % 3, got[i], want[i]);
    }
    free(want); free(got);
    return r;
}

const workload wl_ray = {
    "ray",
    "ray tracing (ISPASS RAY): 12 spheres + ground, shadow rays, 2 reflections, one pixel per thread; "
    "S = 32*S x 16*S image",
    8,
    { 1, 2 },
    ray_run,
    RAY_MAX_SIZE,
};
