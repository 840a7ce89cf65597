/* backprop: input generation, host-side network steps and CPU reference (shared by
 * host.c and kernel.cu's main).
 *
 * A two-layer perceptron: n_in inputs -> BP_HIDDEN sigmoid hidden units -> one
 * sigmoid output, trained by back-propagation with momentum for BP_STEPS steps (one
 * training pattern each).  The two big phases run on the GPU: the input->hidden
 * weighted sums (bp_layer_forward: per-CTA partial sums over 16 inputs by a
 * shared-memory tree) and the input->hidden weight update (bp_adjust_weights).
 * The host finishes the sums, applies the sigmoids, evaluates the output layer and
 * the error deltas (bp_host_step), as the classic GPU port does.
 *
 * Layout: w[i * BP_HIDDEN + j] is the weight from input i to hidden unit j. */
#ifndef WL_BACKPROP_REF_H
#define WL_BACKPROP_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define BP_HIDDEN 16        /* hidden units = CTA width */
#define BP_TILE 16          /* inputs per CTA = CTA height */
#define BP_STEPS 2          /* training steps (the second one exercises momentum) */
#define BP_ETA 0.3f         /* learning rate */
#define BP_MOMENTUM 0.3f

typedef struct {
    int32_t n_in;
    float *inputs;       /* BP_STEPS patterns of n_in values */
    float targets[BP_STEPS];
    float *w;            /* n_in * BP_HIDDEN input->hidden weights */
    float *oldw;         /* n_in * BP_HIDDEN previous weight changes (momentum) */
    float hidden_bias[BP_HIDDEN];
    float w_out[BP_HIDDEN];  /* hidden->output weights */
    float out_bias;
    float out_oldw[BP_HIDDEN];
    float hidden_delta[BP_HIDDEN];  /* of the last step */
} bp_net;

/* inputs = 256 * size + 8 (the last CTA gets a partial tile) */
static inline int32_t bp_num_inputs(uint32_t size) { return (int32_t)(256u * size + 8u); }
static inline int32_t bp_num_tiles(int32_t n_in) { return (n_in + BP_TILE - 1) / BP_TILE; }

static inline void bp_free(bp_net *net) {
    free(net->inputs); free(net->w); free(net->oldw);
    memset(net, 0, sizeof *net);
}

/* Returns 0, or -1 on out-of-memory (net is then empty). */
static inline int bp_generate(bp_net *net, uint32_t size, uint64_t seed) {
    wl_rng r;
    int32_t n = bp_num_inputs(size);
    size_t nw = (size_t)n * BP_HIDDEN;
    memset(net, 0, sizeof *net);
    wl_rng_seed(&r, seed);
    net->n_in = n;
    net->inputs = (float *)malloc((size_t)BP_STEPS * n * sizeof(float));
    net->w = (float *)malloc(nw * sizeof(float));
    net->oldw = (float *)calloc(nw, sizeof(float));
    if (!net->inputs || !net->w || !net->oldw) { bp_free(net); return -1; }
    for (size_t k = 0; k < (size_t)BP_STEPS * n; k++) net->inputs[k] = wl_rng_float(&r);
    for (int s = 0; s < BP_STEPS; s++) net->targets[s] = wl_rng_below(&r, 2) ? 0.9f : 0.1f;
    /* weights in [-a, a) with a = 2/sqrt(n_in): hidden sums of order 1, so the
     * sigmoids do not saturate and the updates are not lost in rounding */
    float a = (float)(2.0 / sqrt((double)n));
    for (size_t k = 0; k < nw; k++) net->w[k] = a * (2.0f * wl_rng_float(&r) - 1.0f);
    for (int j = 0; j < BP_HIDDEN; j++) {
        net->hidden_bias[j] = 0.1f * wl_rng_float(&r) - 0.05f;
        net->w_out[j] = 2.0f * wl_rng_float(&r) - 1.0f;
        net->out_oldw[j] = 0.0f;
    }
    net->out_bias = 0.2f * wl_rng_float(&r) - 0.1f;
    return 0;
}

/* Learning rate of the input->hidden weights: BP_ETA scaled by 1/sqrt(fan-in), so
 * that one step moves a hidden sum by O(0.1) whatever n_in (with the bare BP_ETA,
 * tens of thousands of inputs would saturate every sigmoid after one step). */
static inline float bp_input_eta(int32_t n_in) { return (float)(BP_ETA / sqrt((double)n_in)); }

static inline float bp_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* After the forward kernel: finish the hidden sums from the per-tile partial sums
 * (tiles * BP_HIDDEN, summed in tile order), run the output layer, compute the
 * deltas into net->hidden_delta and train the hidden->output weights. */
static inline void bp_host_step(bp_net *net, const float *partial, float target) {
    int32_t tiles = bp_num_tiles(net->n_in);
    float hidden[BP_HIDDEN];
    for (int j = 0; j < BP_HIDDEN; j++) {
        float sum = net->hidden_bias[j];
        for (int32_t t = 0; t < tiles; t++) sum += partial[(size_t)t * BP_HIDDEN + j];
        hidden[j] = bp_sigmoid(sum);
    }
    float out_sum = net->out_bias;
    for (int j = 0; j < BP_HIDDEN; j++) out_sum = fmaf(net->w_out[j], hidden[j], out_sum);
    float out = bp_sigmoid(out_sum);
    float out_delta = out * (1.0f - out) * (target - out);
    for (int j = 0; j < BP_HIDDEN; j++) {
        net->hidden_delta[j] = hidden[j] * (1.0f - hidden[j]) * net->w_out[j] * out_delta;
        float dw = fmaf(BP_ETA * out_delta, hidden[j], BP_MOMENTUM * net->out_oldw[j]);
        net->w_out[j] += dw;
        net->out_oldw[j] = dw;
    }
    net->out_bias = fmaf(BP_ETA, out_delta, net->out_bias);
}

/* bp_layer_forward's partial sums: per tile and hidden unit, the 16 products
 * w * x summed by the same shared-memory tree. */
static inline void bp_forward_reference(const bp_net *net, const float *input, float *partial) {
    int32_t tiles = bp_num_tiles(net->n_in);
    for (int32_t t = 0; t < tiles; t++) {
        for (int j = 0; j < BP_HIDDEN; j++) {
            float prod[BP_TILE];
            for (int y = 0; y < BP_TILE; y++) {
                int32_t i = t * BP_TILE + y;
                prod[y] = i < net->n_in ? net->w[(size_t)i * BP_HIDDEN + j] * input[i] : 0.0f;
            }
            for (int s = BP_TILE / 2; s > 0; s >>= 1)
                for (int y = 0; y < s; y++) prod[y] += prod[y + s];
            partial[(size_t)t * BP_HIDDEN + j] = prod[0];
        }
    }
}

/* bp_adjust_weights, in the kernel's operation order. */
static inline void bp_adjust_reference(bp_net *net, const float *input) {
    float eta = bp_input_eta(net->n_in);
    for (int32_t i = 0; i < net->n_in; i++) {
        for (int j = 0; j < BP_HIDDEN; j++) {
            size_t k = (size_t)i * BP_HIDDEN + j;
            float dw = fmaf(eta * net->hidden_delta[j], input[i], BP_MOMENTUM * net->oldw[k]);
            net->w[k] += dw;
            net->oldw[k] = dw;
        }
    }
}

/* Whole training run on the CPU; partials (BP_STEPS * tiles * BP_HIDDEN) receives
 * every step's partial sums.  net's weights end as the kernels should leave them. */
static inline void bp_reference(bp_net *net, float *partials) {
    size_t per_step = (size_t)bp_num_tiles(net->n_in) * BP_HIDDEN;
    for (int s = 0; s < BP_STEPS; s++) {
        const float *input = net->inputs + (size_t)s * net->n_in;
        bp_forward_reference(net, input, partials + s * per_step);
        bp_host_step(net, partials + s * per_step, net->targets[s]);
        bp_adjust_reference(net, input);
    }
}

/* Float comparison.  The kernels and the reference perform the same float
 * operations in the same order (explicit fmaf, the same reduction tree, the same
 * host code for the rest), so the results are normally bit-identical.  The
 * tolerance, 8 ulp of the larger magnitude (1e-30 absolute near zero), only
 * absorbs a host compiler contracting the reference's multiply-adds into fmas
 * (kernel.cu's main built for an FMA-capable host CPU): each such contraction
 * changes a result by at most one rounding, and at most a few chain up. */
static inline int bp_close(float got, float expected) {
    float scale = fabsf(expected) > fabsf(got) ? fabsf(expected) : fabsf(got);
    return fabsf(got - expected) <= 8.0f * (1.0f / 8388608.0f) * scale + 1e-30f;
}

#endif
