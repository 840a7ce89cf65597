/* syrk on locsim: the same launch as kernel.cu's main(); C is compared bit for bit
 * with the reference.
 *
 * N = M = 32*S (ref.h says why).  Working set: A and C, N x N floats each. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

static wl_result sk_simulate(wl_ctx *ctx, locsim_module *mod, const float *a, const float *c, uint32_t n,
                             float alpha, float beta, locsim_dptr *d_a, locsim_dptr *d_c, float *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)n * n * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, d_a, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, d_c, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_a, a, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_c, c, bytes));
    /* Locality Descriptors (docs/ldesc.md; Table 2: SK INTER_THREAD COACCESSED REGULAR,
     * NO_REUSE).  A: a warp (32 consecutive j, one i) reads A[j][k] of 32 rows j at each
     * k, so the CTAs of one grid column (the same blockIdx.x, the same 32 rows j) all
     * read the same 32 rows of A: D-Tile = 32 rows of N elements, C-Tile = one grid
     * column, the k-th column reading the k-th D-Tile (map x = 1).  Every thread walks
     * its rows one element per loop iteration (stride 1; the stride prefetcher's
     * distance L1 / (active tiles x N x 4 B) elements then points one to two lines
     * ahead in the same rows at N = 192).  The broadcast A[i][k] reads fall in other
     * rows of the same structure; one descriptor per address, so the dominant reading
     * (32 rows per warp) describes it.  C is read once and written once: NO_REUSE. */
    locsim_ldesc da = wl_ldesc(*d_a, bytes, LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    da.data_tile = (locsim_dim3){ n, SK_BX, 1 };
    da.compute_tile = (locsim_dim3){ 1, UINT32_MAX, 1 };   /* a grid column (clamped to the grid) */
    da.stride = 1;
    da.priority = 1;
    locsim_ldesc dc = wl_ldesc(*d_c, bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    /* CTA (bx, by) updates the SK_BX x SK_BY block (bx, by) of C, n elements a row
     * (NUMA placement, docs/numa.md) */
    dc.data_tile = (locsim_dim3){ SK_BX, SK_BY, 1 };
    dc.map = (locsim_dim3){ 1, 2, 0 };
    dc.stride = n;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &da, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dc, NULL));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sk_kernel", &k));
    int32_t ni = (int32_t)n;
    void *args[] = { d_a, d_c, &ni, &alpha, &beta };
    locsim_dim3 grid = { (n + SK_BX - 1) / SK_BX, (n + SK_BY - 1) / SK_BY, 1 }, block = { SK_BX, SK_BY, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 5));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_c, bytes));
    return WL_PASS;
}

static wl_result sk_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, SK_MAX_SIZE)) return WL_ERROR;
    uint32_t n = sk_order(ctx->size);
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = NULL, *c = NULL, alpha = 0, beta = 0;
    int have = sk_generate(n, ctx->seed, &a, &c, &alpha, &beta);
    float *want = malloc(bytes), *got = malloc(bytes);
    wl_result r = WL_ERROR;
    if (!have || !want || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        memcpy(want, c, bytes);
        sk_reference(a, want, n, alpha, beta);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_a = 0, d_c = 0;
            r = sk_simulate(ctx, mod, a, c, n, alpha, beta, &d_a, &d_c, got);
            WL_FREE_BUFFERS(ctx->dev, &d_a, &d_c);
            locsim_module_unload(mod);
        }
        /* bit-for-bit: the kernel performs the reference's float operations */
        size_t i = wl_first_float_diff(got, want, (size_t)n * n);
        if (r == WL_PASS && i < (size_t)n * n)
            r = wl_fail(ctx, "C[%zu][%zu]: got %.9g, expected %.9g", i / n, i % n, got[i], want[i]);
    }
    free(a); free(c); free(want); free(got);
    return r;
}

const workload wl_syrk = {
    "syrk",
    "PolyBench SYRK, C = alpha A A^T + beta C, one thread per element of C; size S = N x N, N = 32*S",
    6,
    { 1, 2 },
    sk_run,
    SK_MAX_SIZE,
};
