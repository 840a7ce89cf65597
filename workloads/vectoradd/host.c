/* vectoradd on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, VECTORADD_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    uint32_t n = vectoradd_n(ctx->size);
    size_t bytes = (size_t)n * sizeof(float);
    locsim_module *mod = NULL;
    locsim_dptr da = 0, db = 0, dc = 0;
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    float *c = (float *)malloc(bytes), *want = (float *)malloc(bytes);
    if (!a || !b || !c || !want) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    vectoradd_gen(n, ctx->seed, a, b);
    vectoradd_ref(n, a, b, want);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "vectoradd", &k));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &da, bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &db, bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &dc, bytes));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, da, a, bytes));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, db, b, bytes));

    int n_arg = (int)n;
    void *args[] = {&da, &db, &dc, &n_arg};
    locsim_dim3 grid = {vectoradd_grid(n), 1, 1}, block = {VECTORADD_BLOCK, 1, 1};
    WL_TRY(ctx, locsim_launch(k, grid, block, 0, args, 4));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, c, dc, bytes));

    uint32_t bad = vectoradd_first_mismatch(n, c, want);
    if (bad < n)
        result = wl_fail(ctx, "c[%u] = %.9g, expected %.9g", bad, (double)c[bad], (double)want[bad]);
    else
        result = WL_PASS;

out:
    WL_FREE_BUFFERS(ctx->dev, &dc, &db, &da);
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
    VECTORADD_MAX_SIZE,
};
