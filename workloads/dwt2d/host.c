/* dwt2d on locsim: the same launches as kernel.cu's main() (DW_LEVELS levels, a row
 * pass and a column pass each); the transformed image is compared exactly with the
 * reference (integer lifting, ref.h).
 *
 * 128*S x 128*S int32 pixels (ref.h says why). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Attach the Locality Descriptor of one pass's source (Table 2: D2D INTER_THREAD
 * NEARBY REGULAR): every thread reads the five samples around its pair, so
 * neighbouring threads and CTAs read overlapping lines -- along a row in the row
 * pass (CTAs of one grid row share their edge samples: C-Tile = a grid row, D-Tile =
 * DW_BY image rows), down a column in the column pass (C-Tile = a grid column,
 * D-Tile = a DW_BX-wide strip).  Re-specified at each launch as the use changes
 * (the paper's section 4.1); the destination is only written and stays undescribed. */
static locsim_status dw_describe(locsim_device *dev, locsim_dptr src, uint32_t W, uint32_t H, int rows, int *id) {
    locsim_ldesc d = wl_ldesc(src, (uint64_t)W * H * sizeof(int32_t), LOCSIM_LDESC_INTER_THREAD, sizeof(int32_t));
    d.sharing = LOCSIM_LDESC_NEARBY;
    d.pattern = LOCSIM_LDESC_REGULAR;
    d.priority = 1;
    if (rows) {
        d.data_tile = (locsim_dim3){ W, DW_BY, 1 };
        d.compute_tile = (locsim_dim3){ UINT32_MAX, 1, 1 };
        d.map = (locsim_dim3){ 0, 1, 0 };
    } else {
        d.data_tile = (locsim_dim3){ DW_BX, H, 1 };
        d.compute_tile = (locsim_dim3){ 1, UINT32_MAX, 1 };
        d.stride = W;   /* the strip's rows are W samples apart (NUMA placement; NEARBY: no stride prefetch) */
    }
    return locsim_ldesc_attach(dev, &d, id);
}

static wl_result dw_simulate(wl_ctx *ctx, locsim_module *mod, const int32_t *img, uint32_t W, uint32_t H,
                             locsim_dptr *d_img, locsim_dptr *d_tmp, int32_t *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)W * H * sizeof(int32_t);
    WL_CHECK(ctx, locsim_malloc(dev, d_img, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, d_tmp, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_img, img, bytes));
    locsim_kernel *krows, *kcols;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "dw_rows", &krows));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "dw_cols", &kcols));
    int32_t pitch = (int32_t)W;
    locsim_dim3 block = { DW_BX, DW_BY, 1 };
    for (uint32_t l = 0; l < DW_LEVELS; l++) {
        int32_t w = (int32_t)(W >> l), h = (int32_t)(H >> l);
        locsim_dim3 rgrid = { ((uint32_t)w / 2 + DW_BX - 1) / DW_BX, ((uint32_t)h + DW_BY - 1) / DW_BY, 1 };
        locsim_dim3 cgrid = { ((uint32_t)w + DW_BX - 1) / DW_BX, ((uint32_t)h / 2 + DW_BY - 1) / DW_BY, 1 };
        void *rargs[] = { d_tmp, d_img, &pitch, &w, &h };
        void *cargs[] = { d_img, d_tmp, &pitch, &w, &h };
        int id;
        WL_CHECK(ctx, dw_describe(dev, *d_img, W, H, 1, &id));
        WL_CHECK(ctx, locsim_launch(krows, rgrid, block, 0, rargs, 5));
        WL_CHECK(ctx, locsim_ldesc_detach(dev, id));
        WL_CHECK(ctx, dw_describe(dev, *d_tmp, W, H, 0, &id));
        WL_CHECK(ctx, locsim_launch(kcols, cgrid, block, 0, cargs, 5));
        WL_CHECK(ctx, locsim_ldesc_detach(dev, id));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_img, bytes));
    return WL_PASS;
}

static wl_result dw_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, DW_MAX_SIZE)) return WL_ERROR;
    uint32_t W = dw_side(ctx->size), H = dw_side(ctx->size);
    size_t bytes = (size_t)W * H * sizeof(int32_t);
    int32_t *img = dw_generate(W, H, ctx->seed), *want = malloc(bytes), *tmp = malloc(bytes), *got = malloc(bytes);
    wl_result r = WL_ERROR;
    if (!img || !want || !tmp || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        memcpy(want, img, bytes);
        dw_reference(want, tmp, W, H);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_img = 0, d_tmp = 0;
            r = dw_simulate(ctx, mod, img, W, H, &d_img, &d_tmp, got);
            WL_FREE_BUFFERS(ctx->dev, &d_img, &d_tmp);
            locsim_module_unload(mod);
        }
        /* exact: integer lifting */
        for (size_t i = 0; r == WL_PASS && i < (size_t)W * H; i++)
            if (got[i] != want[i])
                r = wl_fail(ctx, "coefficient (%zu, %zu): got %d, expected %d", i % W, i / W, got[i], want[i]);
    }
    free(img); free(want); free(tmp); free(got);
    return r;
}

const workload wl_dwt2d = {
    "dwt2d",
    "Rodinia dwt2d's reversible CDF 5/3 forward transform, 3 levels of a row and a column pass; size S = 128*S x 128*S",
    4,
    { 1, 2 },
    dw_run,
    DW_MAX_SIZE,
};
