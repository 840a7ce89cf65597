/* atax on locsim: the same two launches as kernel.cu's main(); A x and A^T (A x)
 * are compared bit for bit with the reference.
 *
 * A is N x N, N = 256*S (ref.h says why). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr a, x, tmp, y;
} ax_device;

static wl_result ax_simulate(wl_ctx *ctx, locsim_module *mod, const float *a, const float *x, uint32_t n,
                             ax_device *d, float *got_tmp, float *got_y) {
    locsim_device *dev = ctx->dev;
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->a, mbytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->x, vbytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->tmp, vbytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->y, vbytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a, a, mbytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->x, x, vbytes));
    locsim_kernel *k1, *k2;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ax_kernel1", &k1));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ax_kernel2", &k2));
    int32_t ni = (int32_t)n;
    locsim_dim3 grid = { (n + AX_THREADS - 1) / AX_THREADS, 1, 1 }, block = { AX_THREADS, 1, 1 };
    void *args1[] = { &d->a, &d->x, &d->tmp, &ni };
    void *args2[] = { &d->a, &d->tmp, &d->y, &ni };
    /* Locality Descriptors (docs/ldesc.md; Table 2: ATX NO_REUSE, INTER_THREAD
     * COACCESSED REGULAR), re-specified between the launches as §4.1 of the paper
     * says, since A's use changes.  ax_kernel1: every thread reads x[j] at the same j
     * (the whole grid shares x, walked one element per iteration: D-Tile = x as rows
     * of one 128 B line, stride one line), while each thread walks its own row of A
     * (INTRA_THREAD reuse of its line over 32 iterations, which Table 2 does not
     * describe, so A stays undescribed here: bypassing it would refetch each line 32
     * times).  ax_kernel2: a warp reads 32 consecutive elements of a row of A, each
     * line once (NO_REUSE), and every thread reads tmp[i] at the same i (as x above). */
    locsim_ldesc dx = wl_ldesc(d->x, vbytes, LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    dx.data_tile = (locsim_dim3){ 32, n / 32, 1 };
    dx.compute_tile = (locsim_dim3){ UINT32_MAX, 1, 1 };   /* the whole grid */
    dx.stride = 32;
    dx.priority = 1;
    int idx;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dx, &idx));
    WL_CHECK(ctx, locsim_launch(k1, grid, block, 0, args1, 4));
    WL_CHECK(ctx, locsim_ldesc_detach(dev, idx));
    locsim_ldesc dtmp = dx;
    dtmp.base = d->tmp;
    locsim_ldesc da = wl_ldesc(d->a, mbytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    /* ax_kernel2's CTA c reads columns [c x AX_THREADS, (c + 1) x AX_THREADS) of every
     * row: D-Tile = that strip, n rows of a matrix n elements wide (stride n), C-Tile =
     * one CTA (NUMA placement, docs/numa.md) */
    da.data_tile = (locsim_dim3){ AX_THREADS, n, 1 };
    da.stride = n;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dtmp, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &da, NULL));
    WL_CHECK(ctx, locsim_launch(k2, grid, block, 0, args2, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_tmp, d->tmp, vbytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_y, d->y, vbytes));
    return WL_PASS;
}

/* bit-for-bit: the kernels perform the reference's float operations */

static wl_result ax_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, AX_MAX_SIZE)) return WL_ERROR;
    uint32_t n = ax_order(ctx->size);
    size_t vbytes = n * sizeof(float);
    float *a = NULL, *x = NULL;
    int have = ax_generate(n, ctx->seed, &a, &x);
    float *tmp = malloc(vbytes), *y = malloc(vbytes), *got_tmp = malloc(vbytes), *got_y = malloc(vbytes);
    wl_result r = WL_ERROR;
    if (!have || !tmp || !y || !got_tmp || !got_y) {
        r = wl_out_of_memory(ctx);
    } else {
        ax_reference(a, x, n, tmp, y);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            ax_device d;
            memset(&d, 0, sizeof d);
            r = ax_simulate(ctx, mod, a, x, n, &d, got_tmp, got_y);
            WL_FREE_BUFFERS(ctx->dev, &d.a, &d.x, &d.tmp, &d.y);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = wl_check_floats_exact(ctx, "A x", got_tmp, tmp, n);
        if (r == WL_PASS) r = wl_check_floats_exact(ctx, "A^T (A x)", got_y, y, n);
    }
    free(a); free(x); free(tmp); free(y); free(got_tmp); free(got_y);
    return r;
}

const workload wl_atax = {
    "atax",
    "PolyBench ATAX, y = A^T (A x): a row-per-thread then a column-per-thread kernel; size S = N x N, N = 256*S",
    8,
    { 1, 2 },
    ax_run,
    AX_MAX_SIZE,
};
