/* gemm on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "run.h"

wl_result gemm_run_kernel(wl_ctx *ctx, const char *kernel_name) {
    if (!wl_size_ok(ctx, GEMM_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    gemm_dims d = gemm_dims_for(ctx->size);
    size_t a_count = (size_t)d.m * d.k, b_count = (size_t)d.k * d.n, c_count = (size_t)d.m * d.n;
    locsim_module *mod = NULL;
    locsim_dptr da = 0, db = 0, dc = 0;
    float *a = (float *)malloc(a_count * sizeof(float)), *b = (float *)malloc(b_count * sizeof(float));
    float *c = (float *)malloc(c_count * sizeof(float));
    double *want = (double *)malloc(c_count * sizeof(double)), *tol = (double *)malloc(c_count * sizeof(double));
    if (!a || !b || !c || !want || !tol) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    gemm_gen(d, ctx->seed, a, b, c);
    gemm_ref(d, a, b, c, want, tol);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    WL_TRY(ctx, locsim_module_get_kernel(mod, kernel_name, &k));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &da, a_count * sizeof(float)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &db, b_count * sizeof(float)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &dc, c_count * sizeof(float)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, da, a, a_count * sizeof(float)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, db, b, b_count * sizeof(float)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, dc, c, c_count * sizeof(float)));

    int m_arg = (int)d.m, n_arg = (int)d.n, k_arg = (int)d.k;
    float alpha = GEMM_ALPHA, beta = GEMM_BETA;
    void *args[] = {&m_arg, &n_arg, &k_arg, &alpha, &da, &db, &beta, &dc};
    locsim_dim3 grid = {(d.n + GEMM_TILE - 1) / GEMM_TILE, (d.m + GEMM_TILE - 1) / GEMM_TILE, 1};
    locsim_dim3 block = {GEMM_TILE, GEMM_TILE, 1};
    WL_TRY(ctx, locsim_launch(k, grid, block, 0, args, 8));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, c, dc, c_count * sizeof(float)));

    uint64_t bad = gemm_first_mismatch(c_count, c, want, tol);
    if (bad < c_count)
        result = wl_fail(ctx, "C[%u][%u] = %.9g, expected %.9g (tolerance %.3g)", (unsigned)(bad / d.n),
                         (unsigned)(bad % d.n), (double)c[bad], want[bad], tol[bad]);
    else
        result = WL_PASS;

out:
    WL_FREE_BUFFERS(ctx->dev, &dc, &db, &da);
    if (mod) locsim_module_unload(mod);
    free(a);
    free(b);
    free(c);
    free(want);
    free(tol);
    return result;
}

static wl_result run(wl_ctx *ctx) { return gemm_run_kernel(ctx, "sgemm_tiled"); }

const workload wl_gemm = {
    "gemm",
    "tiled SGEMM C = alpha*A*B + beta*C, 16x16 shared-memory tiles + barriers; "
    "--size S: M=32S+19, N=32S+13, K=16S+5",
    GEMM_DEFAULT_SIZE,
    {1, 2},
    run,
    GEMM_MAX_SIZE,
};
