/* convsep on locsim: the same two launches as kernel.cu's main(); both planes (the
 * row pass and the final output) are compared bit for bit with the reference.
 *
 * Image 128*S x 96*S floats (ref.h says why).  Measured at the default size 6, seed 1:
 * 51.9 M thread instructions, 85.9 K cycles on fermi_gtx480 (timing mode).  Working set:
 * three 1.7 MB float planes. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr in, tmp, out;
} conv_device;

static wl_result conv_simulate(wl_ctx *ctx, locsim_module *mod, const float *img, const float *taps, uint32_t w,
                               uint32_t h, conv_device *d, float *got_tmp, float *got_out) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)w * h * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->in, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->tmp, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->out, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->in, img, bytes));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_taps", taps, CONV_TAPS * sizeof(float), 0));

    locsim_kernel *rows, *cols;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "conv_rows", &rows));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "conv_cols", &cols));
    int32_t wi = (int32_t)w, hi = (int32_t)h;
    locsim_dim3 row_grid = { w / (CONV_ROW_BX * CONV_ROW_STEPS), h / CONV_ROW_BY, 1 };
    locsim_dim3 row_block = { CONV_ROW_BX, CONV_ROW_BY, 1 };
    locsim_dim3 col_grid = { w / CONV_COL_BX, h / (CONV_COL_BY * CONV_COL_STEPS), 1 };
    locsim_dim3 col_block = { CONV_COL_BX, CONV_COL_BY, 1 };
    void *row_args[] = { &d->tmp, &d->in, &wi };
    void *col_args[] = { &d->out, &d->tmp, &wi, &hi };
    WL_CHECK(ctx, locsim_launch(rows, row_grid, row_block, 0, row_args, 3));
    WL_CHECK(ctx, locsim_launch(cols, col_grid, col_block, 0, col_args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_tmp, d->tmp, bytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_out, d->out, bytes));
    return WL_PASS;
}

/* bit-for-bit: the kernels perform the reference's float operations */
static wl_result conv_compare(wl_ctx *ctx, const char *what, const float *got, const float *expected, uint32_t w,
                              uint32_t h) {
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (memcmp(&got[i], &expected[i], sizeof(float)) != 0)
            return wl_fail(ctx, "%s: pixel (%zu, %zu): got %.9g, expected %.9g", what, i % w, i / w, got[i],
                           expected[i]);
    return WL_PASS;
}

static wl_result conv_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, CONV_MAX_SIZE)) return WL_ERROR;
    uint32_t w = conv_width(ctx->size), h = conv_height(ctx->size);
    size_t bytes = (size_t)w * h * sizeof(float);
    float taps[CONV_TAPS];
    float *img = conv_generate(w, h, ctx->seed, taps);
    float *tmp = malloc(bytes), *expected = malloc(bytes), *got_tmp = malloc(bytes), *got_out = malloc(bytes);
    wl_result r = WL_ERROR;
    if (!img || !tmp || !expected || !got_tmp || !got_out) {
        r = wl_out_of_memory(ctx);
    } else {
        conv_reference(img, w, h, taps, tmp, expected);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            conv_device d;
            memset(&d, 0, sizeof d);
            r = conv_simulate(ctx, mod, img, taps, w, h, &d, got_tmp, got_out);
            WL_FREE_BUFFERS(ctx->dev, &d.in, &d.tmp, &d.out);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = conv_compare(ctx, "row pass", got_tmp, tmp, w, h);
        if (r == WL_PASS) r = conv_compare(ctx, "column pass", got_out, expected, w, h);
    }
    free(img); free(tmp); free(expected); free(got_tmp); free(got_out);
    return r;
}

const workload wl_convsep = {
    "convsep",
    "separable convolution, 17-tap row then column pass with shared tiles + apron; size S = 128*S x 96*S image",
    6,
    { 1, 2 },
    conv_run,
    CONV_MAX_SIZE,
};
