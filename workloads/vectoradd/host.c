/* vectoradd on locsim: the same run as kernel.cu's main(), through the locsim API. */
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
    if (ctx->size > VECTORADD_MAX_SIZE) {
        snprintf(ctx->detail, sizeof ctx->detail, "vectoradd: --size %u is too large (max %u)",
                 ctx->size, VECTORADD_MAX_SIZE);
        return WL_ERROR;
    }
    wl_result result = WL_ERROR;
    uint32_t n = vectoradd_n(ctx->size);
    size_t bytes = (size_t)n * sizeof(float);
    locsim_module *mod = NULL;
    locsim_dptr da = 0, db = 0, dc = 0;
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    float *c = (float *)malloc(bytes), *want = (float *)malloc(bytes);
    if (!a || !b || !c || !want) {
        snprintf(ctx->detail, sizeof ctx->detail, "vectoradd: out of host memory");
        goto out;
    }
    vectoradd_gen(n, ctx->seed, a, b);
    vectoradd_ref(n, a, b, want);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    TRY(locsim_module_get_kernel(mod, "vectoradd", &k));
    TRY(locsim_malloc(ctx->dev, &da, bytes));
    TRY(locsim_malloc(ctx->dev, &db, bytes));
    TRY(locsim_malloc(ctx->dev, &dc, bytes));
    TRY(locsim_memcpy_htod(ctx->dev, da, a, bytes));
    TRY(locsim_memcpy_htod(ctx->dev, db, b, bytes));

    int n_arg = (int)n;
    void *args[] = {&da, &db, &dc, &n_arg};
    locsim_dim3 grid = {vectoradd_grid(n), 1, 1}, block = {VECTORADD_BLOCK, 1, 1};
    TRY(locsim_launch(k, grid, block, 0, args, 4));
    TRY(locsim_memcpy_dtoh(ctx->dev, c, dc, bytes));

    uint32_t bad = vectoradd_first_mismatch(n, c, want);
    if (bad < n)
        result = wl_fail(ctx, "c[%u] = %.9g, expected %.9g", bad, (double)c[bad], (double)want[bad]);
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
    return result;
}

const workload wl_vectoradd = {
    "vectoradd",
    "c = a + b (float), grid-stride loop; --size S: vectors of S*50000+123 elements",
    VECTORADD_DEFAULT_SIZE,
    {1, 2},
    run,
};
