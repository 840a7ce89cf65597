/* kmeans on locsim: the same rounds as kernel.cu's main(); each round's memberships
 * are checked exactly against the reference computed from the same centres.
 *
 * Measured at the default size 64, seed 1: 63.8 M thread instructions
 * (gpu_sim_insn).  Working set: 19213 points x 34 features = 2.6 MB. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    uint32_t n;
    float *features;                                 /* n * F, point-major */
    float centres[KMEANS_CLUSTERS * KMEANS_FEATURES];
    int32_t *membership;                             /* device result of a round */
    int32_t *expected;                               /* reference for the same round */
} kmeans_host;

typedef struct {
    locsim_dptr features, membership;
} kmeans_device;

static wl_result kmeans_check_round(wl_ctx *ctx, const kmeans_host *h, int round) {
    kmeans_assign_reference(h->features, h->n, h->centres, h->expected);
    for (uint32_t p = 0; p < h->n; p++)
        if (h->membership[p] != h->expected[p])
            return wl_fail(ctx, "round %d: membership[%u]: got %d, expected %d", round, p, h->membership[p],
                           h->expected[p]);
    return WL_PASS;
}

static wl_result kmeans_simulate(wl_ctx *ctx, locsim_module *mod, kmeans_host *h, kmeans_device *d) {
    locsim_device *dev = ctx->dev;
    size_t feature_bytes = (size_t)h->n * KMEANS_FEATURES * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->features, feature_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->membership, h->n * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->features, h->features, feature_bytes));

    locsim_kernel *assign;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "kmeans_assign", &assign));
    locsim_dim3 grid = { (h->n + KMEANS_BLOCK - 1) / KMEANS_BLOCK, 1, 1 };
    locsim_dim3 block = { KMEANS_BLOCK, 1, 1 };
    int32_t num_points = (int32_t)h->n, num_features = KMEANS_FEATURES, num_clusters = KMEANS_CLUSTERS;
    void *args[] = { &d->features, &d->membership, &num_points, &num_features, &num_clusters };
    for (int round = 0; round < KMEANS_ITERATIONS; round++) {
        WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_centres", h->centres, sizeof h->centres, 0));
        WL_CHECK(ctx, locsim_launch(assign, grid, block, 0, args, 5));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->membership, d->membership, h->n * sizeof(int32_t)));
        /* check before the host trusts the memberships as cluster indices */
        wl_result r = kmeans_check_round(ctx, h, round);
        if (r != WL_PASS) return r;
        kmeans_update_centres(h->features, h->n, h->membership, h->centres);
    }
    return WL_PASS;
}

static wl_result kmeans_run(wl_ctx *ctx) {
    kmeans_host h;
    memset(&h, 0, sizeof h);
    h.n = kmeans_num_points(ctx->size);
    h.features = kmeans_generate(h.n, ctx->seed, h.centres);
    h.membership = (int32_t *)malloc(h.n * sizeof(int32_t));
    h.expected = (int32_t *)malloc(h.n * sizeof(int32_t));
    wl_result r = WL_ERROR;
    if (!h.features || !h.membership || !h.expected) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            kmeans_device d;
            memset(&d, 0, sizeof d);
            r = kmeans_simulate(ctx, mod, &h, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.features, &d.membership);
            locsim_module_unload(mod);
        }
    }
    free(h.features); free(h.membership); free(h.expected);
    return r;
}

const workload wl_kmeans = {
    "kmeans",
    "k-means (k=5, 34 point-major features, 3 rounds, centres in constant memory); size S = 300*S+13 points",
    64,
    { 1, 2 },
    kmeans_run,
    0,   /* max_size: no fixed limit */
};
