/* conv2d on locsim: the same launch as kernel.cu's main(); the output image
 * (border included, which must stay 0) is compared bit for bit with the reference.
 *
 * 128*S x 128*S floats (ref.h says why). */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result c2_simulate(wl_ctx *ctx, locsim_module *mod, const float *in, uint32_t w, uint32_t h,
                             locsim_dptr *d_in, locsim_dptr *d_out, float *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)w * h * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, d_in, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, d_out, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_in, in, bytes));
    WL_CHECK(ctx, locsim_memset(dev, *d_out, 0, bytes));
    /* Locality Descriptor (docs/ldesc.md; Table 2: C2D INTER_THREAD NEARBY): each
     * thread reads its pixel's 3 x 3 neighbourhood, so neighbouring threads, warps and
     * CTAs read overlapping rows (a CTA's 8 rows plus one above and below, and lines
     * shared across its left and right edges).  The CTAs of one grid column read one
     * vertical strip of the image, each sharing its edge rows with the next: D-Tile =
     * a strip C2_BX wide and the image high, C-Tile = a grid column (map x = 1), so
     * Algorithm 1 clusters vertically adjacent CTAs; NEARBY selects the next-line
     * prefetcher.  out is only written: not described (Table 2 gives C2D no NO_REUSE). */
    locsim_ldesc din = wl_ldesc(*d_in, bytes, LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    din.data_tile = (locsim_dim3){ C2_BX, h, 1 };
    din.compute_tile = (locsim_dim3){ 1, UINT32_MAX, 1 };
    din.sharing = LOCSIM_LDESC_NEARBY;
    din.stride = w;   /* the strip's rows are w elements apart (NUMA placement; NEARBY: no stride prefetch) */
    din.priority = 1;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &din, NULL));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "c2_kernel", &k));
    int32_t wi = (int32_t)w, hi = (int32_t)h;
    void *args[] = { d_out, d_in, &wi, &hi };
    locsim_dim3 grid = { w / C2_BX, h / C2_BY, 1 }, block = { C2_BX, C2_BY, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_out, bytes));
    return WL_PASS;
}

static wl_result c2_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, C2_MAX_SIZE)) return WL_ERROR;
    uint32_t w = c2_side(ctx->size), h = c2_side(ctx->size);
    size_t bytes = (size_t)w * h * sizeof(float);
    float *in = c2_generate(w, h, ctx->seed), *want = malloc(bytes), *got = malloc(bytes);
    wl_result r = WL_ERROR;
    if (!in || !want || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        c2_reference(in, w, h, want);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_in = 0, d_out = 0;
            r = c2_simulate(ctx, mod, in, w, h, &d_in, &d_out, got);
            WL_FREE_BUFFERS(ctx->dev, &d_in, &d_out);
            locsim_module_unload(mod);
        }
        /* bit-for-bit: the kernel performs the reference's float operations */
        size_t i = wl_first_float_diff(got, want, (size_t)w * h);
        if (r == WL_PASS && i < (size_t)w * h)
            r = wl_fail(ctx, "pixel (%zu, %zu): got %.9g, expected %.9g", i % w, i / w, got[i], want[i]);
    }
    free(in); free(want); free(got);
    return r;
}

const workload wl_conv2d = {
    "conv2d",
    "PolyBench 2-D convolution, 3 x 3 fixed coefficients, one thread per pixel; size S = 128*S x 128*S image",
    6,
    { 1, 2 },
    c2_run,
    C2_MAX_SIZE,
};
