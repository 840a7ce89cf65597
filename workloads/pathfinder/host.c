/* pathfinder on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, PATHFINDER_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    uint32_t rows = pathfinder_rows(ctx->size), cols = pathfinder_cols(ctx->size);
    size_t wall_bytes = (size_t)rows * cols * sizeof(int), row_bytes = (size_t)cols * sizeof(int);
    locsim_module *mod = NULL;
    locsim_dptr d_wall = 0, d_row[2] = {0, 0};
    int *wall = (int *)malloc(wall_bytes), *prev = (int *)malloc(row_bytes);
    int *cur = (int *)malloc(row_bytes), *got = (int *)malloc(row_bytes);
    if (!wall || !prev || !cur || !got) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    pathfinder_gen(rows, cols, ctx->seed, wall);
    int *want;
    pathfinder_ref(rows, cols, wall, prev, cur, &want);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "pathfinder_rows", &k));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_wall, wall_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_row[0], row_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_row[1], row_bytes));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_wall, wall, wall_bytes));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_row[0], wall, row_bytes));
    {   /* Locality Descriptor (docs/ldesc.md; Table 2: PT NO_REUSE): each wall row is
         * read once, by the launch that steps through it. */
        locsim_ldesc dw = wl_ldesc(d_wall, wall_bytes, LOCSIM_LDESC_NO_REUSE, sizeof(int));
        /* CTA c owns columns [c x PATHFINDER_OWNED, (c + 1) x PATHFINDER_OWNED) of every
         * row (it also reads PATHFINDER_PYRAMID ghost columns each side): D-Tile = that
         * strip, rows high, stride cols; C-Tile = one CTA (NUMA placement) */
        dw.data_tile = (locsim_dim3){PATHFINDER_OWNED, rows, 1};
        dw.stride = cols;
        WL_TRY(ctx, locsim_ldesc_attach(ctx->dev, &dw, NULL));
    }

    int src = 0, cols_arg = (int)cols;
    locsim_dim3 grid = {pathfinder_grid(cols), 1, 1}, block = {PATHFINDER_BLOCK, 1, 1};
    for (uint32_t r = 0; r + 1 < rows; r += PATHFINDER_PYRAMID) {
        int start_row = (int)r;
        int steps = (int)(rows - 1 - r < PATHFINDER_PYRAMID ? rows - 1 - r : PATHFINDER_PYRAMID);
        void *args[] = {&d_wall, &d_row[src], &d_row[1 - src], &cols_arg, &start_row, &steps};
        WL_TRY(ctx, locsim_launch(k, grid, block, 0, args, 6));
        src = 1 - src;
    }
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, got, d_row[src], row_bytes));

    result = WL_PASS;
    for (uint32_t c = 0; c < cols; c++) {
        if (got[c] != want[c]) {
            result = wl_fail(ctx, "cost[%u] = %d, expected %d", c, got[c], want[c]);
            break;
        }
    }

out:
    WL_FREE_BUFFERS(ctx->dev, &d_row[1], &d_row[0], &d_wall);
    if (mod) locsim_module_unload(mod);
    free(wall);
    free(prev);
    free(cur);
    free(got);
    return result;
}

const workload wl_pathfinder = {
    "pathfinder",
    "grid min-cost path DP, ghost-zone blocks of 8 rows per launch, shared memory + barriers; "
    "--size S: S*768+77 columns x S+20 rows",
    PATHFINDER_DEFAULT_SIZE,
    {1, 2},
    run,
    PATHFINDER_MAX_SIZE,
};
