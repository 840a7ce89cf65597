/* nw on locsim: the same launches as kernel.cu's main() (one per tile diagonal);
 * the whole score matrix is compared exactly with the CPU dynamic program.
 *
 * Measured at the default size 24, seed 1: 84.8 M thread instructions
 * (gpu_sim_insn).  Working set: 1537^2 scores + 1536^2 substitutions = 18.9 MB. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr score, ref;
} nw_device;

static wl_result nw_simulate(wl_ctx *ctx, locsim_module *mod, const nw_problem *p, int32_t *got, nw_device *d) {
    locsim_device *dev = ctx->dev;
    int32_t len = p->len, w = len + 1, tiles = len / NW_TILE, penalty = NW_PENALTY;
    size_t score_bytes = (size_t)w * w * sizeof(int32_t), ref_bytes = (size_t)len * len * sizeof(int32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->score, score_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->ref, ref_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->score, p->score, score_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->ref, p->ref, ref_bytes));

    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "nw_diagonal", &k));
    locsim_dim3 block = { NW_TILE, 1, 1 };
    for (int32_t diag = 0; diag < 2 * tiles - 1; diag++) {
        int32_t first_row = diag < tiles ? 0 : diag - tiles + 1, last_row = diag < tiles ? diag : tiles - 1;
        locsim_dim3 grid = { (uint32_t)(last_row - first_row + 1), 1, 1 };
        void *args[] = { &d->score, &d->ref, &len, &penalty, &diag };
        WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 5));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, d->score, score_bytes));
    return WL_PASS;
}

static wl_result nw_run(wl_ctx *ctx) {
    nw_problem p;
    if (nw_generate(&p, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    size_t w = (size_t)p.len + 1;
    int32_t *got = (int32_t *)malloc(w * w * sizeof(int32_t));
    int32_t *expected = (int32_t *)malloc(w * w * sizeof(int32_t));
    wl_result r = WL_ERROR;
    if (!got || !expected) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            nw_device d;
            memset(&d, 0, sizeof d);
            r = nw_simulate(ctx, mod, &p, got, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.score, &d.ref);
            locsim_module_unload(mod);
        }
    }
    if (r == WL_PASS) {
        nw_reference(&p, expected);
        for (size_t k = 0; k < w * w; k++) {
            if (got[k] != expected[k]) {
                r = wl_fail(ctx, "score[%zu][%zu]: got %d, expected %d", k / w, k % w, got[k], expected[k]);
                break;
            }
        }
    }
    free(got); free(expected);
    nw_free(&p);
    return r;
}

const workload wl_nw = {
    "nw",
    "Needleman-Wunsch scores, 16x16 shared tiles swept by anti-diagonals, one launch per tile diagonal; size S = 64*S residues",
    24,
    { 1, 2 },
    nw_run,
    0,   /* max_size: no fixed limit */
};
