/* kmeans_rd on locsim: the same run as kernel.cu's main(), through the locsim API.
 * The feature-major copy is checked bit for bit, and every round's memberships
 * exactly against the reference computed from the same centres. */
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
} kmeans_rd_host;

typedef struct {
    locsim_dptr points, features, membership;
    uint64_t tex;                                    /* texture object over features */
} kmeans_rd_device;

static wl_result check_round(wl_ctx *ctx, const kmeans_rd_host *h, int round) {
    kmeans_assign_reference(h->points, h->n, h->centres, h->expected);
    for (uint32_t p = 0; p < h->n; p++)
        if (h->membership[p] != h->expected[p])
            return wl_fail(ctx, "round %d: membership[%u]: got %d, expected %d", round, p, h->membership[p],
                           h->expected[p]);
    return WL_PASS;
}

/* The invert kernel (1-D, side^2 CTAs as Rodinia launches it), its result checked. */
static wl_result invert(wl_ctx *ctx, locsim_module *mod, kmeans_rd_host *h, kmeans_rd_device *d, uint32_t side) {
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "kmeans_rd_invert", &k));
    int32_t n = (int32_t)h->n, nf = KMEANS_FEATURES;
    void *args[] = { &d->points, &d->features, &n, &nf };
    locsim_dim3 grid = { side * side, 1, 1 }, block = { KMEANS_RD_BLOCK, 1, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));
    size_t bytes = (size_t)h->n * KMEANS_FEATURES * sizeof(float);
    WL_CHECK(ctx, locsim_memcpy_dtoh(ctx->dev, h->features, d->features, bytes));
    kmeans_gm_transpose_reference(h->points, h->n, h->want_features);
    return wl_check_floats_exact(ctx, "feature-major features", h->features, h->want_features,
                                 (size_t)h->n * KMEANS_FEATURES);
}

/* A point-sampled, element-type linear texture over the feature-major floats. */
static wl_result bind_texture(wl_ctx *ctx, kmeans_rd_host *h, kmeans_rd_device *d) {
    locsim_resource_desc res;
    memset(&res, 0, sizeof res);
    res.type = LOCSIM_RES_LINEAR;
    res.ptr = d->features;
    res.format = (locsim_channel_format){ 32, 0, 0, 0, LOCSIM_CHANNEL_FLOAT };
    res.size_bytes = (size_t)h->n * KMEANS_FEATURES * sizeof(float);
    locsim_texture_desc td;
    memset(&td, 0, sizeof td);
    td.filter_mode = LOCSIM_FILTER_POINT;
    td.read_mode = LOCSIM_READ_ELEMENT;
    WL_CHECK(ctx, locsim_texture_create(ctx->dev, &res, &td, &d->tex));
    return WL_PASS;
}

static wl_result simulate(wl_ctx *ctx, locsim_module *mod, kmeans_rd_host *h, kmeans_rd_device *d) {
    locsim_device *dev = ctx->dev;
    size_t feature_bytes = (size_t)h->n * KMEANS_FEATURES * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->points, feature_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->features, feature_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->membership, h->n * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->points, h->points, feature_bytes));

    uint32_t side = kmeans_rd_grid_side(h->n);
    wl_result r = invert(ctx, mod, h, d, side);
    if (r == WL_PASS) r = bind_texture(ctx, h, d);
    if (r != WL_PASS) return r;

    locsim_kernel *point;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "kmeans_rd_point", &point));
    int32_t n = (int32_t)h->n, nf = KMEANS_FEATURES, k = KMEANS_CLUSTERS;
    void *args[] = { &d->tex, &nf, &n, &k, &d->membership };
    locsim_dim3 grid = { side, side, 1 }, block = { KMEANS_RD_BLOCK, 1, 1 };
    for (int round = 0; round < KMEANS_ITERATIONS; round++) {
        WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_centres", h->centres, sizeof h->centres, 0));
        WL_CHECK(ctx, locsim_launch(point, grid, block, 0, args, 5));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->membership, d->membership, h->n * sizeof(int32_t)));
        /* check before the host trusts the memberships as cluster indices */
        r = check_round(ctx, h, round);
        if (r != WL_PASS) return r;
        kmeans_update_centres(h->points, h->n, h->membership, h->centres);
    }
    return WL_PASS;
}

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, KMEANS_RD_MAX_SIZE)) return WL_ERROR;
    kmeans_rd_host h;
    memset(&h, 0, sizeof h);
    h.n = kmeans_num_points(ctx->size);
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
            kmeans_rd_device d;
            memset(&d, 0, sizeof d);
            r = simulate(ctx, mod, &h, &d);
            if (d.tex) locsim_texture_destroy(ctx->dev, d.tex);
            WL_FREE_BUFFERS(ctx->dev, &d.points, &d.features, &d.membership);
            locsim_module_unload(mod);
        }
    }
    free(h.points); free(h.features); free(h.want_features); free(h.membership); free(h.expected);
    return r;
}

const workload wl_kmeans_rd = {
    "kmeans_rd",
    "Rodinia 3.1's kmeans (k=5, 34 features inverted to feature-major on the GPU, read through a texture; centres "
    "in constant memory; 3 rounds) on Rodinia's square 2-D grid of 256-thread CTAs; size S = 300*S+13 points "
    "(1647: 494,113, kdd_cup's size)",
    KMEANS_RD_DEFAULT_SIZE,
    { 1, 2 },
    run,
    KMEANS_RD_MAX_SIZE,
};
