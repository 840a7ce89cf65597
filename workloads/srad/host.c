/* srad on locsim: the same launches as kernel.cu's main(), the output image checked
 * pixel by pixel against the CPU pipeline within srad_tolerance (ref.h).
 *
 * Measured at the default size 20, seed 1: 102.2 M thread instructions
 * (gpu_sim_insn).  Working set: 333 x 339 pixels x 6 arrays = 2.7 MB. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr J, dN, dS, dW, dE, c, part_sum, part_sq, q0sqr;
} srad_device;

typedef struct {
    locsim_kernel *extract, *reduce, *stats, *coeff, *update, *compress;
} srad_kernels;

static wl_result srad_get_kernels(wl_ctx *ctx, locsim_module *mod, srad_kernels *k) {
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad_extract", &k->extract));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad_reduce", &k->reduce));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad_stats", &k->stats));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad_coeff", &k->coeff));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad_update", &k->update));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad_compress", &k->compress));
    return WL_PASS;
}

/* Runs the pipeline on img (replaced by the device's output). */
static wl_result srad_simulate(wl_ctx *ctx, locsim_module *mod, const srad_dims *dims, float *img,
                               srad_device *d) {
    locsim_device *dev = ctx->dev;
    int32_t npix = dims->rows * dims->cols;
    int32_t parts = srad_reduce_blocks(dims);
    size_t bytes = (size_t)npix * sizeof(float);
    srad_kernels k;
    wl_result r = srad_get_kernels(ctx, mod, &k);
    if (r != WL_PASS) return r;
    WL_CHECK(ctx, locsim_malloc(dev, &d->J, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->dN, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->dS, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->dW, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->dE, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->c, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->part_sum, (size_t)parts * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->part_sq, (size_t)parts * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->q0sqr, sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->J, img, bytes));

    locsim_dim3 flat_grid = { ((uint32_t)npix + SRAD_BLOCK - 1) / SRAD_BLOCK, 1, 1 };
    locsim_dim3 flat_block = { SRAD_BLOCK, 1, 1 };
    locsim_dim3 reduce_grid = { (uint32_t)parts, 1, 1 };
    locsim_dim3 one = { 1, 1, 1 };
    locsim_dim3 tile = { SRAD_TILE, SRAD_TILE, 1 };
    locsim_dim3 tiles = { ((uint32_t)dims->cols + SRAD_TILE - 1) / SRAD_TILE,
                          ((uint32_t)dims->rows + SRAD_TILE - 1) / SRAD_TILE, 1 };
    int32_t rows = dims->rows, cols = dims->cols, roi_row = dims->roi_row, roi_col = dims->roi_col;
    int32_t roi_rows = dims->roi_rows, roi_cols = dims->roi_cols, roi_npix = roi_rows * roi_cols;
    float lambda = SRAD_LAMBDA;
    void *flat_args[] = { &d->J, &npix };
    void *reduce_args[] = { &d->J, &cols, &roi_row, &roi_col, &roi_rows, &roi_cols, &d->part_sum, &d->part_sq };
    void *stats_args[] = { &d->part_sum, &d->part_sq, &parts, &roi_npix, &d->q0sqr };
    void *coeff_args[] = { &d->J, &d->dN, &d->dS, &d->dW, &d->dE, &d->c, &rows, &cols, &d->q0sqr };
    void *update_args[] = { &d->J, &d->dN, &d->dS, &d->dW, &d->dE, &d->c, &rows, &cols, &lambda };

    WL_CHECK(ctx, locsim_launch(k.extract, flat_grid, flat_block, 0, flat_args, 2));
    for (int it = 0; it < SRAD_ITERATIONS; it++) {
        WL_CHECK(ctx, locsim_launch(k.reduce, reduce_grid, flat_block, 0, reduce_args, 8));
        WL_CHECK(ctx, locsim_launch(k.stats, one, flat_block, 0, stats_args, 5));
        WL_CHECK(ctx, locsim_launch(k.coeff, tiles, tile, 0, coeff_args, 9));
        WL_CHECK(ctx, locsim_launch(k.update, tiles, tile, 0, update_args, 9));
    }
    WL_CHECK(ctx, locsim_launch(k.compress, flat_grid, flat_block, 0, flat_args, 2));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, img, d->J, bytes));
    return WL_PASS;
}

static wl_result srad_run(wl_ctx *ctx) {
    srad_dims dims = srad_dimensions(ctx->size);
    size_t bytes = (size_t)dims.rows * dims.cols * sizeof(float);
    float *img = (float *)malloc(bytes), *expected = (float *)malloc(bytes);
    wl_result r = WL_ERROR;
    if (!img || !expected) {
        r = wl_out_of_memory(ctx);
    } else {
        srad_generate(&dims, ctx->seed, img);
        memcpy(expected, img, bytes);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            srad_device d;
            memset(&d, 0, sizeof d);
            r = srad_simulate(ctx, mod, &dims, img, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.J, &d.dN, &d.dS, &d.dW, &d.dE, &d.c, &d.part_sum, &d.part_sq,
                            &d.q0sqr);
            locsim_module_unload(mod);
        }
    }
    if (r == WL_PASS) {
        if (srad_reference(&dims, expected) != 0) {
            r = wl_out_of_memory(ctx);
        } else {
            int64_t bad = srad_first_mismatch(&dims, img, expected);
            if (bad >= 0)
                r = wl_fail(ctx, "img[%lld] (row %lld, col %lld): got %.9g, expected %.9g", (long long)bad,
                            (long long)(bad / dims.cols), (long long)(bad % dims.cols), (double)img[bad],
                            (double)expected[bad]);
        }
    }
    free(img); free(expected);
    return r;
}

const workload wl_srad = {
    "srad",
    "speckle-reducing anisotropic diffusion, 4 kernels/iteration x 4 (expf/logf, divisions); size S = (16S+13)x(16S+19) pixels",
    20,
    { 1, 2 },
    srad_run,
    0,   /* max_size: no fixed limit */
};
