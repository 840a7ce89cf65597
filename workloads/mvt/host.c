/* mvt on locsim: the same two launches as kernel.cu's main(); x1 and x2 are
 * compared bit for bit with the reference.
 *
 * A is N x N, N = 256*S (ref.h says why). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr a, x1, x2, y1, y2;
} mv_device;

static wl_result mv_simulate(wl_ctx *ctx, locsim_module *mod, const mv_data *h, mv_device *d, float *got_x1,
                             float *got_x2) {
    locsim_device *dev = ctx->dev;
    uint32_t n = h->n;
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->a, mbytes));
    locsim_dptr *dv[4] = { &d->x1, &d->x2, &d->y1, &d->y2 };
    const float *hv[4] = { h->x1, h->x2, h->y1, h->y2 };
    for (int k = 0; k < 4; k++) {
        WL_CHECK(ctx, locsim_malloc(dev, dv[k], vbytes));
        WL_CHECK(ctx, locsim_memcpy_htod(dev, *dv[k], hv[k], vbytes));
    }
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a, h->a, mbytes));
    locsim_kernel *k1, *k2;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "mv_kernel1", &k1));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "mv_kernel2", &k2));
    int32_t ni = (int32_t)n;
    locsim_dim3 grid = { (n + MV_THREADS - 1) / MV_THREADS, 1, 1 }, block = { MV_THREADS, 1, 1 };
    void *args1[] = { &d->a, &d->y1, &d->x1, &ni };
    void *args2[] = { &d->a, &d->y2, &d->x2, &ni };
    /* Locality Descriptors (docs/ldesc.md; Table 2: MVT NO_REUSE, INTER_THREAD
     * COACCESSED REGULAR), re-specified between the launches as §4.1 of the paper
     * says, since A's use changes.  Both kernels: every thread reads y[j] at the same
     * j (the whole grid shares y1, then y2, walked one element per iteration: D-Tile =
     * the vector as rows of one 128 B line, stride one line), and reads its x[i] once
     * before writing it (NO_REUSE).  mv_kernel1: each thread walks its own row of A
     * (INTRA_THREAD reuse of its line over 32 iterations, which Table 2 does not
     * describe, so A stays undescribed: bypassing it would refetch each line 32
     * times).  mv_kernel2: a warp reads 32 consecutive elements of a row of A, each
     * line once: NO_REUSE. */
    locsim_ldesc dy = wl_ldesc(d->y1, vbytes, LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    dy.data_tile = (locsim_dim3){ 32, n / 32, 1 };
    dy.compute_tile = (locsim_dim3){ UINT32_MAX, 1, 1 };   /* the whole grid */
    dy.stride = 32;
    dy.priority = 1;
    locsim_ldesc dx1 = wl_ldesc(d->x1, vbytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    locsim_ldesc dx2 = wl_ldesc(d->x2, vbytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    dx1.data_tile.x = dx2.data_tile.x = MV_THREADS;   /* CTA c's x[i] (NUMA placement) */
    int idy;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dx1, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dx2, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dy, &idy));
    WL_CHECK(ctx, locsim_launch(k1, grid, block, 0, args1, 4));
    WL_CHECK(ctx, locsim_ldesc_detach(dev, idy));
    dy.base = d->y2;
    locsim_ldesc da = wl_ldesc(d->a, mbytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    /* mv_kernel2's CTA c reads columns [c x MV_THREADS, (c + 1) x MV_THREADS) of every
     * row: D-Tile = that strip, n rows of a matrix n elements wide (stride n), C-Tile =
     * one CTA (NUMA placement, docs/numa.md) */
    da.data_tile = (locsim_dim3){ MV_THREADS, n, 1 };
    da.stride = n;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dy, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &da, NULL));
    WL_CHECK(ctx, locsim_launch(k2, grid, block, 0, args2, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_x1, d->x1, vbytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_x2, d->x2, vbytes));
    return WL_PASS;
}

/* bit-for-bit: the kernels perform the reference's float operations */

static wl_result mv_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, MV_MAX_SIZE)) return WL_ERROR;
    uint32_t n = mv_order(ctx->size);
    size_t vbytes = n * sizeof(float);
    mv_data h;
    if (!mv_generate(n, ctx->seed, &h)) return wl_out_of_memory(ctx);
    float *x1 = malloc(vbytes), *x2 = malloc(vbytes), *got_x1 = malloc(vbytes), *got_x2 = malloc(vbytes);
    wl_result r = WL_ERROR;
    if (!x1 || !x2 || !got_x1 || !got_x2) {
        r = wl_out_of_memory(ctx);
    } else {
        mv_reference(&h, x1, x2);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            mv_device d;
            memset(&d, 0, sizeof d);
            r = mv_simulate(ctx, mod, &h, &d, got_x1, got_x2);
            WL_FREE_BUFFERS(ctx->dev, &d.a, &d.x1, &d.x2, &d.y1, &d.y2);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = wl_check_floats_exact(ctx, "x1 + A y1", got_x1, x1, n);
        if (r == WL_PASS) r = wl_check_floats_exact(ctx, "x2 + A^T y2", got_x2, x2, n);
    }
    mv_free(&h);
    free(x1); free(x2); free(got_x1); free(got_x2);
    return r;
}

const workload wl_mvt = {
    "mvt",
    "PolyBench MVT, x1 += A y1 (row per thread), x2 += A^T y2 (column per thread); size S = N x N, N = 256*S",
    8,
    { 1, 2 },
    mv_run,
    MV_MAX_SIZE,
};
