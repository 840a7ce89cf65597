/* srad2 on locsim: the same copies and launches as kernel.cu's main(), the final J
 * checked bit for bit against the CPU pipeline (ref.h). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr J, dN, dS, dW, dE, C;
} srad2_device;

/* Runs the iterations on J (replaced by the device's result). */
static wl_result srad2_simulate(wl_ctx *ctx, locsim_module *mod, const srad_dims *dims, float *J,
                                srad2_device *d) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)dims->rows * dims->cols * sizeof(float);
    locsim_kernel *coeff, *update;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad2_coeff", &coeff));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "srad2_update", &update));
    locsim_dptr *bufs[] = { &d->J, &d->dN, &d->dS, &d->dW, &d->dE, &d->C };
    for (size_t b = 0; b < sizeof bufs / sizeof bufs[0]; b++) WL_CHECK(ctx, locsim_malloc(dev, bufs[b], bytes));

    locsim_dim3 tile = { SRAD2_TILE, SRAD2_TILE, 1 };
    locsim_dim3 tiles = { (uint32_t)dims->cols / SRAD2_TILE, (uint32_t)dims->rows / SRAD2_TILE, 1 };
    int32_t rows = dims->rows, cols = dims->cols;
    float q0sqr, lambda = SRAD_LAMBDA;
    void *coeff_args[] = { &d->J, &d->dN, &d->dS, &d->dW, &d->dE, &d->C, &rows, &cols, &q0sqr };
    void *update_args[] = { &d->J, &d->dN, &d->dS, &d->dW, &d->dE, &d->C, &rows, &cols, &lambda };
    for (int it = 0; it < SRAD2_ITERATIONS; it++) {
        q0sqr = srad2_q0sqr(dims, J);
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->J, J, bytes));
        WL_CHECK(ctx, locsim_launch(coeff, tiles, tile, 0, coeff_args, 9));
        WL_CHECK(ctx, locsim_launch(update, tiles, tile, 0, update_args, 9));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, J, d->J, bytes));
    }
    return WL_PASS;
}

static wl_result srad2_run(wl_ctx *ctx) {
    srad_dims dims = srad2_dimensions(ctx->size);
    size_t bytes = (size_t)dims.rows * dims.cols * sizeof(float);
    float *J = (float *)malloc(bytes), *expected = (float *)malloc(bytes);
    wl_result r = WL_ERROR;
    if (!J || !expected) {
        r = wl_out_of_memory(ctx);
    } else {
        srad2_input(&dims, ctx->seed, J);
        memcpy(expected, J, bytes);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            srad2_device d;
            memset(&d, 0, sizeof d);
            r = srad2_simulate(ctx, mod, &dims, J, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.J, &d.dN, &d.dS, &d.dW, &d.dE, &d.C);
            locsim_module_unload(mod);
        }
    }
    if (r == WL_PASS) {
        if (srad2_reference(&dims, expected) != 0) {
            r = wl_out_of_memory(ctx);
        } else {
            int64_t bad = srad2_first_mismatch(&dims, J, expected);
            if (bad >= 0)
                r = wl_fail(ctx, "J[%lld] (row %lld, col %lld): got %.9g, expected %.9g", (long long)bad,
                            (long long)(bad / dims.cols), (long long)(bad % dims.cols), (double)J[bad],
                            (double)expected[bad]);
        }
    }
    free(J); free(expected);
    return r;
}

const workload wl_srad2 = {
    "srad2",
    "speckle-reducing anisotropic diffusion, Rodinia srad_v2 structure: 16x16 shared tiles, 2 kernels x 2 "
    "iterations; size S = 16(2S+2) x 16(2S+3) pixels",
    12,
    { 1, 2 },
    srad2_run,
    0,   /* max_size: no fixed limit */
};
