/* reduction on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, REDUCTION_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    uint32_t n = reduction_n(ctx->size), grid_blocks = reduction_grid(n);
    locsim_module *mod = NULL;
    locsim_dptr d_in = 0, d_sums = 0, d_nonzero = 0, d_result = 0;
    int *in = (int *)malloc((size_t)n * sizeof(int));
    if (!in) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    reduction_gen(n, ctx->seed, in);
    int want_sum, want_nonzero;
    reduction_ref(n, in, &want_sum, &want_nonzero);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k_partial, *k_final;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "reduce_partial", &k_partial));
    WL_TRY(ctx, locsim_module_get_kernel(mod, "reduce_final", &k_final));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_in, (size_t)n * sizeof(int)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_sums, grid_blocks * sizeof(int)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_nonzero, grid_blocks * sizeof(int)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_result, 2 * sizeof(int)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_in, in, (size_t)n * sizeof(int)));

    int n_arg = (int)n, nblocks_arg = (int)grid_blocks;
    void *partial_args[] = {&d_in, &n_arg, &d_sums, &d_nonzero};
    void *final_args[] = {&d_sums, &d_nonzero, &nblocks_arg, &d_result};
    locsim_dim3 grid = {grid_blocks, 1, 1}, one = {1, 1, 1}, block = {REDUCTION_BLOCK, 1, 1};
    WL_TRY(ctx, locsim_launch(k_partial, grid, block, 0, partial_args, 4));
    WL_TRY(ctx, locsim_launch(k_final, one, block, 0, final_args, 4));
    int got[2];
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, got, d_result, sizeof got));

    if (got[0] != want_sum)
        result = wl_fail(ctx, "sum = %d, expected %d", got[0], want_sum);
    else if (got[1] != want_nonzero)
        result = wl_fail(ctx, "non-zero count = %d, expected %d", got[1], want_nonzero);
    else
        result = WL_PASS;

out:
    WL_FREE_BUFFERS(ctx->dev, &d_result, &d_nonzero, &d_sums, &d_in);
    if (mod) locsim_module_unload(mod);
    free(in);
    return result;
}

const workload wl_reduction = {
    "reduction",
    "int sum + non-zero count (shfl.down/xor, ballot, shared memory, two passes); --size S: S*32768+1234 ints",
    REDUCTION_DEFAULT_SIZE,
    {1, 2},
    run,
    REDUCTION_MAX_SIZE,
};
