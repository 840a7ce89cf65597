/* gaussian on locsim: the same 2 (N-1) launches as kernel.cu's main(); the matrix,
 * the multipliers and the right-hand side are compared bit for bit with the
 * reference.
 *
 * N = 16*S (ref.h says why).  Working set: the N x N matrix and multipliers. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr a, b, m;
} ge_device;

static wl_result ge_simulate(wl_ctx *ctx, locsim_module *mod, const float *a, const float *b, uint32_t n,
                             ge_device *d, float *got_a, float *got_b, float *got_m) {
    locsim_device *dev = ctx->dev;
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->a, mbytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->b, vbytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->m, mbytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a, a, mbytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->b, b, vbytes));
    WL_CHECK(ctx, locsim_memset(dev, d->m, 0, mbytes));
    locsim_kernel *fan1, *fan2;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ge_fan1", &fan1));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ge_fan2", &fan2));
    locsim_dim3 grid1 = { (n + GE_FAN1_THREADS - 1) / GE_FAN1_THREADS, 1, 1 }, block1 = { GE_FAN1_THREADS, 1, 1 };
    locsim_dim3 grid2 = { n / GE_TILE, n / GE_TILE, 1 }, block2 = { GE_TILE, GE_TILE, 1 };
    int32_t ni = (int32_t)n;
    for (int32_t t = 0; t + 1 < ni; t++) {
        void *args1[] = { &d->m, &d->a, &ni, &t };
        void *args2[] = { &d->m, &d->a, &d->b, &ni, &t };
        WL_CHECK(ctx, locsim_launch(fan1, grid1, block1, 0, args1, 4));
        WL_CHECK(ctx, locsim_launch(fan2, grid2, block2, 0, args2, 5));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_a, d->a, mbytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_b, d->b, vbytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_m, d->m, mbytes));
    return WL_PASS;
}

/* bit-for-bit: the kernels perform the reference's float operations */
static wl_result ge_compare(wl_ctx *ctx, const char *what, const float *got, const float *expected, size_t count,
                            uint32_t n) {
    for (size_t i = 0; i < count; i++)
        if (memcmp(&got[i], &expected[i], sizeof(float)) != 0)
            return wl_fail(ctx, "%s: element %zu (row %zu, column %zu): got %.9g, expected %.9g", what, i, i / n,
                           i % n, got[i], expected[i]);
    return WL_PASS;
}

static wl_result ge_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, GE_MAX_SIZE)) return WL_ERROR;
    uint32_t n = ge_order(ctx->size);
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    float *a = NULL, *b = NULL;
    int have = ge_generate(n, ctx->seed, &a, &b);
    float *ra = malloc(mbytes), *rb = malloc(vbytes), *rm = calloc((size_t)n * n, sizeof(float));
    float *got_a = malloc(mbytes), *got_b = malloc(vbytes), *got_m = malloc(mbytes);
    wl_result r = WL_ERROR;
    if (!have || !ra || !rb || !rm || !got_a || !got_b || !got_m) {
        r = wl_out_of_memory(ctx);
    } else {
        memcpy(ra, a, mbytes);
        memcpy(rb, b, vbytes);
        ge_reference(ra, rb, rm, n);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            ge_device d;
            memset(&d, 0, sizeof d);
            r = ge_simulate(ctx, mod, a, b, n, &d, got_a, got_b, got_m);
            WL_FREE_BUFFERS(ctx->dev, &d.a, &d.b, &d.m);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = ge_compare(ctx, "multipliers", got_m, rm, (size_t)n * n, n);
        if (r == WL_PASS) r = ge_compare(ctx, "matrix", got_a, ra, (size_t)n * n, n);
        if (r == WL_PASS) r = ge_compare(ctx, "right-hand side", got_b, rb, n, n);
    }
    free(a); free(b); free(ra); free(rb); free(rm); free(got_a); free(got_b); free(got_m);
    return r;
}

const workload wl_gaussian = {
    "gaussian",
    "Gaussian elimination, a multiplier + a divergent full-grid update launch per pivot; size S = 16*S rows",
    7,
    { 2, 3 },
    ge_run,
    GE_MAX_SIZE,
};
