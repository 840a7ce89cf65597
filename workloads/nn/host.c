/* nn on locsim: the same four launches as kernel.cu's main(); every layer's output is
 * read back and checked against the layer computed in double from the GPU's own
 * input to it, within the error bound ref.h derives.
 *
 * A batch of 2*S synthetic digits (ref.h).  Measured at the default size 16, seed 1:
 * see docs/workloads.md.  Working set: 532 KB of layer-3 weights read by every image,
 * 4 KB of neurons per image. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr img, w1, w2, w3, w4, l1, l2, l3, l4;
} nn_device;

typedef struct {
    float *l1, *l2, *l3, *l4;
    size_t n1, n2, n3, n4;
} nn_layers;

static wl_result nn_upload(wl_ctx *ctx, locsim_dptr *d, const float *h, size_t n) {
    WL_CHECK(ctx, locsim_malloc(ctx->dev, d, n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(ctx->dev, *d, h, n * sizeof(float)));
    return WL_PASS;
}

static wl_result nn_launch(wl_ctx *ctx, locsim_module *mod, const char *name, locsim_dim3 grid, locsim_dim3 block,
                           locsim_dptr *in, locsim_dptr *w, locsim_dptr *out) {
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, name, &k));
    void *args[] = { in, w, out };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 3));
    return WL_PASS;
}

static wl_result nn_simulate(wl_ctx *ctx, locsim_module *mod, const nn_input *in, uint32_t images, nn_device *d,
                             nn_layers *got) {
    locsim_device *dev = ctx->dev;
    wl_result r;
    if ((r = nn_upload(ctx, &d->img, in->img, (size_t)images * NN_IN * NN_IN)) != WL_PASS ||
        (r = nn_upload(ctx, &d->w1, in->w1, NN_M1 * NN_W1)) != WL_PASS ||
        (r = nn_upload(ctx, &d->w2, in->w2, NN_M2 * NN_W2)) != WL_PASS ||
        (r = nn_upload(ctx, &d->w3, in->w3, (size_t)NN_H * NN_W3)) != WL_PASS ||
        (r = nn_upload(ctx, &d->w4, in->w4, NN_OUT * NN_W4)) != WL_PASS)
        return r;
    WL_CHECK(ctx, locsim_malloc(dev, &d->l1, got->n1 * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->l2, got->n2 * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->l3, got->n3 * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->l4, got->n4 * sizeof(float)));
    locsim_dim3 g1 = { images, NN_M1, 1 }, b1 = { NN_S1, NN_S1, 1 };
    locsim_dim3 g2 = { images, NN_M2, 1 }, b2 = { NN_S2, NN_S2, 1 };
    locsim_dim3 g3 = { images, NN_H / NN_HGROUP, 1 }, b3 = { NN_HGROUP, 1, 1 };
    locsim_dim3 g4 = { images, 1, 1 }, b4 = { NN_OUT, 1, 1 };
    if ((r = nn_launch(ctx, mod, "nn_layer1", g1, b1, &d->img, &d->w1, &d->l1)) != WL_PASS ||
        (r = nn_launch(ctx, mod, "nn_layer2", g2, b2, &d->l1, &d->w2, &d->l2)) != WL_PASS ||
        (r = nn_launch(ctx, mod, "nn_layer3", g3, b3, &d->l2, &d->w3, &d->l3)) != WL_PASS ||
        (r = nn_launch(ctx, mod, "nn_layer4", g4, b4, &d->l3, &d->w4, &d->l4)) != WL_PASS)
        return r;
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got->l1, d->l1, got->n1 * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got->l2, d->l2, got->n2 * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got->l3, d->l3, got->n3 * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got->l4, d->l4, got->n4 * sizeof(float)));
    return WL_PASS;
}

static wl_result nn_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, NN_MAX_SIZE)) return WL_ERROR;
    uint32_t images = nn_images(ctx->size);
    nn_input in;
    memset(&in, 0, sizeof in);
    nn_layers got;
    got.n1 = (size_t)images * NN_M1 * NN_S1 * NN_S1;
    got.n2 = (size_t)images * NN_L2;
    got.n3 = (size_t)images * NN_H;
    got.n4 = (size_t)images * NN_OUT;
    got.l1 = malloc(got.n1 * sizeof(float));
    got.l2 = malloc(got.n2 * sizeof(float));
    got.l3 = malloc(got.n3 * sizeof(float));
    got.l4 = malloc(got.n4 * sizeof(float));
    wl_result r = WL_ERROR;
    if (!nn_generate(images, ctx->seed, &in) || !got.l1 || !got.l2 || !got.l3 || !got.l4) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            nn_device d;
            memset(&d, 0, sizeof d);
            r = nn_simulate(ctx, mod, &in, images, &d, &got);
            WL_FREE_BUFFERS(ctx->dev, &d.img, &d.w1, &d.w2, &d.w3, &d.w4, &d.l1, &d.l2, &d.l3, &d.l4);
            locsim_module_unload(mod);
        }
        nn_bad bad;
        if (r == WL_PASS && !nn_check(&in, images, got.l1, got.l2, got.l3, got.l4, &bad))
            r = wl_fail(ctx, "layer %d, image %u, unit %d: got %.9g, expected %.9g (tolerance %.3g)", bad.layer,
                        bad.image, bad.unit, bad.got, bad.want, bad.tol);
    }
    nn_free_input(&in);
    free(got.l1); free(got.l2); free(got.l3); free(got.l4);
    return r;
}

const workload wl_nn = {
    "nn",
    "convolutional neural network forward pass (ISPASS NN), 4 layers, weights indexed by blockIdx.y; "
    "S = 2*S images",
    16,
    { 1, 2 },
    nn_run,
    NN_MAX_SIZE,
};
