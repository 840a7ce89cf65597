/* knn on locsim: the same launch as kernel.cu's main(); every distance is compared
 * bit for bit with the reference, and the k nearest records picked from the GPU's
 * distances must be those picked from the reference's.
 *
 * 65536*S records (ref.h).  Measured at the default size 16, seed 1: see
 * docs/workloads.md.  Working set: 8 MB of records read once, 4 MB written. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

static wl_result knn_simulate(wl_ctx *ctx, locsim_module *mod, const float *rec, uint32_t n, float qlat, float qlng,
                              locsim_dptr *d_rec, locsim_dptr *d_dist, float *got) {
    locsim_device *dev = ctx->dev;
    WL_CHECK(ctx, locsim_malloc(dev, d_rec, (size_t)n * 2 * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, d_dist, (size_t)n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_rec, rec, (size_t)n * 2 * sizeof(float)));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "knn_distances", &k));
    int32_t ni = (int32_t)n;
    void *args[] = { d_rec, d_dist, &ni, &qlat, &qlng };
    locsim_dim3 grid = { (n + KNN_BLOCK - 1) / KNN_BLOCK, 1, 1 }, block = { KNN_BLOCK, 1, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 5));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_dist, (size_t)n * sizeof(float)));
    return WL_PASS;
}

static wl_result knn_check(wl_ctx *ctx, const float *rec, uint32_t n, float qlat, float qlng, const float *got,
                           float *want) {
    for (uint32_t i = 0; i < n; i++) {
        want[i] = knn_distance(rec[2 * i], rec[2 * i + 1], qlat, qlng);
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0)
            return wl_fail(ctx, "record %u: got %.9g, expected %.9g", i, got[i], want[i]);
    }
    uint32_t best_got[KNN_K], best_want[KNN_K];
    knn_select(got, n, best_got);
    knn_select(want, n, best_want);
    for (int k = 0; k < KNN_K; k++)
        if (best_got[k] != best_want[k])
            return wl_fail(ctx, "neighbour %d: record %u, expected %u", k, best_got[k], best_want[k]);
    return WL_PASS;
}

static wl_result knn_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, KNN_MAX_SIZE)) return WL_ERROR;
    uint32_t n = knn_records(ctx->size);
    float qlat, qlng;
    float *rec = knn_generate(n, ctx->seed, &qlat, &qlng);
    float *got = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
    wl_result r = WL_ERROR;
    if (!rec || !got || !want) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_rec = 0, d_dist = 0;
            r = knn_simulate(ctx, mod, rec, n, qlat, qlng, &d_rec, &d_dist, got);
            WL_FREE_BUFFERS(ctx->dev, &d_rec, &d_dist);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = knn_check(ctx, rec, n, qlat, qlng, got, want);
    }
    free(rec); free(got); free(want);
    return r;
}

const workload wl_knn = {
    "knn",
    "nearest neighbour (Rodinia nn, WSMP's NN): distance of every record to a query, host picks the 10 nearest; "
    "S = 65536*S records",
    16,
    { 1, 2 },
    knn_run,
    KNN_MAX_SIZE,
};
