/* pagewalk on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, PAGEWALK_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    uint32_t warps = pagewalk_warps(ctx->size), nout = warps * 32u;
    size_t n = pagewalk_words(ctx->size);
    locsim_module *mod = NULL;
    locsim_dptr din = 0, dout = 0;
    uint32_t *in = (uint32_t *)malloc(n * sizeof *in);
    uint32_t *got = (uint32_t *)malloc(nout * sizeof *got), *want = (uint32_t *)malloc(nout * sizeof *want);
    if (!in || !got || !want) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    pagewalk_gen(n, ctx->seed, in);
    pagewalk_ref(warps, in, want);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "pagewalk", &k));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &din, n * sizeof *in));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &dout, nout * sizeof *got));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, din, in, n * sizeof *in));

    void *args[] = {&din, &dout};
    locsim_dim3 grid = {nout / PAGEWALK_BLOCK, 1, 1}, block = {PAGEWALK_BLOCK, 1, 1};
    WL_TRY(ctx, locsim_launch(k, grid, block, 0, args, 2));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, got, dout, nout * sizeof *got));

    uint32_t bad = pagewalk_first_mismatch(nout, got, want);
    if (bad < nout)
        result = wl_fail(ctx, "out[%u] = %u, expected %u", bad, got[bad], want[bad]);
    else
        result = WL_PASS;

out:
    WL_FREE_BUFFERS(ctx->dev, &dout, &din);
    if (mod) locsim_module_unload(mod);
    free(in);
    free(got);
    free(want);
    return result;
}

const workload wl_pagewalk = {
    "pagewalk",
    "each warp reads its own 32 KB in 128 B lines, in order (an SPP microbenchmark); --size S: S*64 warps",
    PAGEWALK_DEFAULT_SIZE,
    {1, 2},
    run,
    PAGEWALK_MAX_SIZE,
};
