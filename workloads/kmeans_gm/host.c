/* kmeans_gm and kmeans_gm_nounroll on locsim (the second is listed in ./variants): the
 * same run as one cluster() of kernel.cu's main(), with the assignment kernel the
 * workload names.  The transposed features are checked bit for bit, and every round's
 * memberships exactly against the reference computed from the same centres.
 *
 * Measured at the default size 56 (19,040 points), seed 1, in docs/workloads.md. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    uint32_t n;
    float *points;                                   /* n * F, point-major (the input) */
    float *features;                                 /* the device's feature-major copy */
    float *want_features;                            /* its reference */
    float centres[KMEANS_CLUSTERS * KMEANS_FEATURES];
    int32_t *membership;                             /* device result of a round */
    int32_t *expected;                               /* reference for the same round */
} kmeans_gm_host;

typedef struct {
    locsim_dptr points, features, centres, membership;
} kmeans_gm_device;

static wl_result check_round(wl_ctx *ctx, const kmeans_gm_host *h, int round) {
    kmeans_assign_reference(h->points, h->n, h->centres, h->expected);
    for (uint32_t p = 0; p < h->n; p++)
        if (h->membership[p] != h->expected[p])
            return wl_fail(ctx, "round %d: membership[%u]: got %d, expected %d", round, p, h->membership[p],
                           h->expected[p]);
    return WL_PASS;
}

/* The transpose kernel's feature-major copy, read back and checked. */
static wl_result transpose(wl_ctx *ctx, locsim_module *mod, kmeans_gm_host *h, kmeans_gm_device *d,
                           locsim_dim3 grid, locsim_dim3 block) {
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "kmeans_gm_transpose", &k));
    int32_t n = (int32_t)h->n, nf = KMEANS_FEATURES;
    void *args[] = { &d->points, &d->features, &n, &nf };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));
    size_t bytes = (size_t)h->n * KMEANS_FEATURES * sizeof(float);
    WL_CHECK(ctx, locsim_memcpy_dtoh(ctx->dev, h->features, d->features, bytes));
    kmeans_gm_transpose_reference(h->points, h->n, h->want_features);
    return wl_check_floats_exact(ctx, "feature-major features", h->features, h->want_features,
                                 (size_t)h->n * KMEANS_FEATURES);
}

static wl_result simulate(wl_ctx *ctx, locsim_module *mod, const char *kernel, kmeans_gm_host *h,
                          kmeans_gm_device *d) {
    locsim_device *dev = ctx->dev;
    size_t feature_bytes = (size_t)h->n * KMEANS_FEATURES * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->points, feature_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->features, feature_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->centres, sizeof h->centres));
    WL_CHECK(ctx, locsim_malloc(dev, &d->membership, h->n * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->points, h->points, feature_bytes));

    locsim_dim3 grid = { (h->n + KMEANS_GM_BLOCK - 1) / KMEANS_GM_BLOCK, 1, 1 };
    locsim_dim3 block = { KMEANS_GM_BLOCK, 1, 1 };
    wl_result r = transpose(ctx, mod, h, d, grid, block);
    if (r != WL_PASS) return r;

    locsim_kernel *assign;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, kernel, &assign));
    int32_t n = (int32_t)h->n, nf = KMEANS_FEATURES, k = KMEANS_CLUSTERS;
    void *args[] = { &d->features, &d->centres, &d->membership, &n, &nf, &k };
    for (int round = 0; round < KMEANS_ITERATIONS; round++) {
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->centres, h->centres, sizeof h->centres));
        WL_CHECK(ctx, locsim_launch(assign, grid, block, 0, args, 6));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->membership, d->membership, h->n * sizeof(int32_t)));
        /* check before the host trusts the memberships as cluster indices */
        r = check_round(ctx, h, round);
        if (r != WL_PASS) return r;
        kmeans_update_centres(h->points, h->n, h->membership, h->centres);
    }
    return WL_PASS;
}

static wl_result run_with(wl_ctx *ctx, const char *kernel) {
    if (!wl_size_ok(ctx, KMEANS_GM_MAX_SIZE)) return WL_ERROR;
    kmeans_gm_host h;
    memset(&h, 0, sizeof h);
    h.n = kmeans_gm_num_points(ctx->size);
    size_t feature_bytes = (size_t)h.n * KMEANS_FEATURES * sizeof(float);
    h.points = kmeans_generate(h.n, ctx->seed, h.centres);
    h.features = (float *)malloc(feature_bytes);
    h.want_features = (float *)malloc(feature_bytes);
    h.membership = (int32_t *)malloc(h.n * sizeof(int32_t));
    h.expected = (int32_t *)malloc(h.n * sizeof(int32_t));
    wl_result r = WL_ERROR;
    if (!h.points || !h.features || !h.want_features || !h.membership || !h.expected) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            kmeans_gm_device d;
            memset(&d, 0, sizeof d);
            r = simulate(ctx, mod, kernel, &h, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.points, &d.features, &d.centres, &d.membership);
            locsim_module_unload(mod);
        }
    }
    free(h.points); free(h.features); free(h.want_features); free(h.membership); free(h.expected);
    return r;
}

static wl_result run_unrolled(wl_ctx *ctx) { return run_with(ctx, "kmeans_gm_assign"); }
static wl_result run_nounroll(wl_ctx *ctx) { return run_with(ctx, "kmeans_gm_assign_nounroll"); }

const workload wl_kmeans_gm = {
    "kmeans_gm",
    "KMN as in the CCWS paper: Rodinia's kmeans (k=5, 34 features transposed to feature-major, 3 rounds) "
    "with features and centres in global memory; size S = 340*S points (1453 = kdd_cup's 494,020)",
    KMEANS_GM_DEFAULT_SIZE,
    { 1, 2 },
    run_unrolled,
    KMEANS_GM_MAX_SIZE,
};

const workload wl_kmeans_gm_nounroll = {
    "kmeans_gm_nounroll",
    "kmeans_gm with its feature loop not unrolled (#pragma unroll 1, as older nvcc emitted: one load PC "
    "per feature); size S = 340*S points",
    KMEANS_GM_DEFAULT_SIZE,
    { 1, 2 },
    run_nounroll,
    KMEANS_GM_MAX_SIZE,
};
