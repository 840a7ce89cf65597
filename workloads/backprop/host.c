/* backprop on locsim: the same training steps as kernel.cu's main(); every step's
 * partial sums and the final input->hidden weights are compared with the CPU run
 * (bp_close in ref.h explains the tolerance).
 *
 * Measured at the default size 128, seed 1: 95.1 M thread instructions
 * (gpu_sim_insn).  Working set: 32776 x 16 weights + momentum = 4 MB. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr input, w, oldw, partial, delta;
} bp_device;

/* Trains net on the device; partials receives every step's partial sums and
 * net->w the final weights. */
static wl_result bp_simulate(wl_ctx *ctx, locsim_module *mod, bp_net *net, float *partials, bp_device *d) {
    locsim_device *dev = ctx->dev;
    int32_t n = net->n_in, tiles = bp_num_tiles(n);
    size_t per_step = (size_t)tiles * BP_HIDDEN, nw = (size_t)n * BP_HIDDEN;
    WL_CHECK(ctx, locsim_malloc(dev, &d->input, (size_t)n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->w, nw * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->oldw, nw * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->partial, per_step * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->delta, BP_HIDDEN * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->w, net->w, nw * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->oldw, net->oldw, nw * sizeof(float)));

    locsim_kernel *forward, *adjust;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "bp_layer_forward", &forward));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "bp_adjust_weights", &adjust));
    locsim_dim3 grid = { (uint32_t)tiles, 1, 1 };
    locsim_dim3 block = { BP_HIDDEN, BP_TILE, 1 };
    float eta = bp_input_eta(n), momentum = BP_MOMENTUM;
    void *forward_args[] = { &d->input, &d->w, &d->partial, &n };
    void *adjust_args[] = { &d->input, &d->delta, &d->w, &d->oldw, &n, &eta, &momentum };
    for (int s = 0; s < BP_STEPS; s++) {
        float *partial = partials + s * per_step;
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->input, net->inputs + (size_t)s * n, (size_t)n * sizeof(float)));
        WL_CHECK(ctx, locsim_launch(forward, grid, block, 0, forward_args, 4));
        WL_CHECK(ctx, locsim_memcpy_dtoh(dev, partial, d->partial, per_step * sizeof(float)));
        bp_host_step(net, partial, net->targets[s]);
        WL_CHECK(ctx, locsim_memcpy_htod(dev, d->delta, net->hidden_delta, BP_HIDDEN * sizeof(float)));
        WL_CHECK(ctx, locsim_launch(adjust, grid, block, 0, adjust_args, 7));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, net->w, d->w, nw * sizeof(float)));
    return WL_PASS;
}

static wl_result bp_check(wl_ctx *ctx, const bp_net *net, const bp_net *ref, const float *partials,
                          const float *expected_partials) {
    size_t n_partials = (size_t)BP_STEPS * bp_num_tiles(net->n_in) * BP_HIDDEN;
    size_t nw = (size_t)net->n_in * BP_HIDDEN;
    for (size_t k = 0; k < n_partials; k++)
        if (!bp_close(partials[k], expected_partials[k]))
            return wl_fail(ctx, "partial[%zu]: got %.9g, expected %.9g", k, (double)partials[k],
                           (double)expected_partials[k]);
    for (size_t k = 0; k < nw; k++)
        if (!bp_close(net->w[k], ref->w[k]))
            return wl_fail(ctx, "w[%zu] (input %zu, hidden %zu): got %.9g, expected %.9g", k, k / BP_HIDDEN,
                           k % BP_HIDDEN, (double)net->w[k], (double)ref->w[k]);
    return WL_PASS;
}

static wl_result bp_run(wl_ctx *ctx) {
    bp_net net, ref;
    int gen_net = bp_generate(&net, ctx->size, ctx->seed);
    int gen_ref = bp_generate(&ref, ctx->size, ctx->seed);
    size_t n_partials = (size_t)BP_STEPS * bp_num_tiles(bp_num_inputs(ctx->size)) * BP_HIDDEN;
    float *partials = (float *)malloc(n_partials * sizeof(float));
    float *expected_partials = (float *)malloc(n_partials * sizeof(float));
    wl_result r = WL_ERROR;
    if (gen_net != 0 || gen_ref != 0 || !partials || !expected_partials) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            bp_device d;
            memset(&d, 0, sizeof d);
            r = bp_simulate(ctx, mod, &net, partials, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.input, &d.w, &d.oldw, &d.partial, &d.delta);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) {
            bp_reference(&ref, expected_partials);
            r = bp_check(ctx, &net, &ref, partials, expected_partials);
        }
    }
    free(partials); free(expected_partials);
    bp_free(&net); bp_free(&ref);
    return r;
}

const workload wl_backprop = {
    "backprop",
    "perceptron training, 16 hidden units: shared-tree forward sums + momentum weight update, 2 steps; size S = 256*S+8 inputs",
    128,
    { 1, 2 },
    bp_run,
    0,   /* max_size: no fixed limit */
};
