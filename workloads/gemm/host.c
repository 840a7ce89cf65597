/* gemm on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

/* Record a failed locsim call and jump to the cleanup code. */
#define TRY(call)                                        \
    do {                                                 \
        locsim_status st_ = (call);                      \
        if (st_ != LOCSIM_OK) {                          \
            result = wl_error(ctx, st_, #call);          \
            goto out;                                    \
        }                                                \
    } while (0)

static wl_result run(wl_ctx *ctx) {
    if (ctx->size > GEMM_MAX_SIZE) {
        snprintf(ctx->detail, sizeof ctx->detail, "gemm: --size %u is too large (max %u)", ctx->size,
                 GEMM_MAX_SIZE);
        return WL_ERROR;
    }
    wl_result result = WL_ERROR;
    gemm_dims d = gemm_dims_for(ctx->size);
    size_t a_count = (size_t)d.m * d.k, b_count = (size_t)d.k * d.n, c_count = (size_t)d.m * d.n;
    locsim_module *mod = NULL;
    locsim_dptr da = 0, db = 0, dc = 0;
    float *a = (float *)malloc(a_count * sizeof(float)), *b = (float *)malloc(b_count * sizeof(float));
    float *c = (float *)malloc(c_count * sizeof(float));
    double *want = (double *)malloc(c_count * sizeof(double)), *tol = (double *)malloc(c_count * sizeof(double));
    if (!a || !b || !c || !want || !tol) {
        snprintf(ctx->detail, sizeof ctx->detail, "gemm: out of host memory");
        goto out;
    }
    gemm_gen(d, ctx->seed, a, b, c);
    gemm_ref(d, a, b, c, want, tol);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    TRY(locsim_module_get_kernel(mod, "sgemm_tiled", &k));
    TRY(locsim_malloc(ctx->dev, &da, a_count * sizeof(float)));
    TRY(locsim_malloc(ctx->dev, &db, b_count * sizeof(float)));
    TRY(locsim_malloc(ctx->dev, &dc, c_count * sizeof(float)));
    TRY(locsim_memcpy_htod(ctx->dev, da, a, a_count * sizeof(float)));
    TRY(locsim_memcpy_htod(ctx->dev, db, b, b_count * sizeof(float)));
    TRY(locsim_memcpy_htod(ctx->dev, dc, c, c_count * sizeof(float)));

    int m_arg = (int)d.m, n_arg = (int)d.n, k_arg = (int)d.k;
    float alpha = GEMM_ALPHA, beta = GEMM_BETA;
    void *args[] = {&m_arg, &n_arg, &k_arg, &alpha, &da, &db, &beta, &dc};
    locsim_dim3 grid = {(d.n + GEMM_TILE - 1) / GEMM_TILE, (d.m + GEMM_TILE - 1) / GEMM_TILE, 1};
    locsim_dim3 block = {GEMM_TILE, GEMM_TILE, 1};
    TRY(locsim_launch(k, grid, block, 0, args, 8));
    TRY(locsim_memcpy_dtoh(ctx->dev, c, dc, c_count * sizeof(float)));

    uint64_t bad = gemm_first_mismatch(c_count, c, want, tol);
    if (bad < c_count)
        result = wl_fail(ctx, "C[%u][%u] = %.9g, expected %.9g (tolerance %.3g)", (unsigned)(bad / d.n),
                         (unsigned)(bad % d.n), (double)c[bad], want[bad], tol[bad]);
    else
        result = WL_PASS;

out:
    if (dc) locsim_free(ctx->dev, dc);
    if (db) locsim_free(ctx->dev, db);
    if (da) locsim_free(ctx->dev, da);
    if (mod) locsim_module_unload(mod);
    free(a);
    free(b);
    free(c);
    free(want);
    free(tol);
    return result;
}

const workload wl_gemm = {
    "gemm",
    "tiled SGEMM C = alpha*A*B + beta*C, 16x16 shared-memory tiles + barriers; "
    "--size S: M=32S+19, N=32S+13, K=16S+5",
    GEMM_DEFAULT_SIZE,
    {1, 2},
    run,
};
