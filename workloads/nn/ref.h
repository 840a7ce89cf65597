/* nn: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The ISPASS-2009 NN benchmark: a LeNet-style convolutional network for handwritten
 * digits (Simard et al.'s layout: 29 x 29 input, 6 maps of 13 x 13, 50 maps of 5 x 5,
 * 100 hidden units, 10 outputs; 5 x 5 convolutions with stride 2, activation
 * 1.7159 tanh(2/3 x)), run forward on a batch of images, one launch per layer.
 * Every layer's CTAs are indexed (image, unit group): blockIdx.x is the image and
 * blockIdx.y picks the feature map or neuron group, so all CTAs of a grid row read the
 * same weights (the sharing between CTAs the sharing-aware paper relies on), while
 * each reads its own image's neurons.
 *
 * Input model: the original runs trained weights on MNIST digits; we have neither,
 * so the images are synthetic pen strokes (2-4 thick line segments on a 29 x 29 canvas,
 * ink -1, paper 1, as the original scales pixels) and the weights are uniform in
 * +-2.4 / fan_in (the initialisation such networks are trained from).  The work and
 * the access pattern do not depend on the values.  Size S: 2*S images; the default
 * S = 16 is a batch of 32.
 *
 * The check.  Every layer's output is read back and checked against the layer
 * computed in double from the GPU's own input to that layer, so errors do not
 * compound.  A neuron's float sum of a bias and n products (an fma chain) errs by at
 * most (n + 1) * 2^-24 * M, M = |bias| + sum |w x| (recursive summation); the
 * activation multiplies that by at most 1.7159 * 2/3 < 1.15 and adds a few ulps of
 * 1.7159 (tanhf within 2 ulps, two rounded multiplies).  NN_TOL allows twice that:
 * 2 * (n + 2) * 2^-24 * M + 16 * 2^-24.  A weight or input read from the wrong place
 * moves a neuron by a product |w x|, far more. */
#ifndef WL_NN_REF_H
#define WL_NN_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define NN_MAX_SIZE 512u
#define NN_IN 29            /* input image side */
#define NN_M1 6             /* layer 1: 6 maps of 13 x 13 */
#define NN_S1 13
#define NN_M2 50            /* layer 2: 50 maps of 5 x 5 */
#define NN_S2 5
#define NN_H 100            /* layer 3: fully connected hidden units */
#define NN_OUT 10           /* layer 4: outputs */
#define NN_K 5              /* convolution side, stride 2 */
#define NN_W1 (1 + NN_K * NN_K)               /* bias + 25 per layer-1 map */
#define NN_W2 (1 + NN_M1 * NN_K * NN_K)       /* bias + 6 x 25 per layer-2 map */
#define NN_L2 (NN_M2 * NN_S2 * NN_S2)         /* 1250 inputs to layer 3 */
#define NN_W3 (1 + NN_L2)
#define NN_W4 (1 + NN_H)
#define NN_HGROUP 20        /* layer-3 neurons per CTA: 5 CTAs per image */
#define NN_A 0.66666667f    /* activation: NN_B * tanh(NN_A * x) */
#define NN_B 1.7159f

static inline uint32_t nn_images(uint32_t size) { return 2u * size; }

typedef struct {
    float *w1, *w2, *w3, *w4; /* [NN_M1][NN_W1], [NN_M2][NN_W2], [NN_H][NN_W3], [NN_OUT][NN_W4] */
    float *img;               /* [images][29 * 29] */
} nn_input;

static inline void nn_fill_weights(wl_rng *r, float *w, size_t n, int fan_in) {
    float s = 2.4f / (float)fan_in;
    for (size_t i = 0; i < n; i++) w[i] = s * (2.0f * wl_rng_float(r) - 1.0f);
}

/* A synthetic digit: 2..4 thick strokes on a blank canvas. */
static inline void nn_draw(wl_rng *r, float *img) {
    for (int i = 0; i < NN_IN * NN_IN; i++) img[i] = 1.0f;
    int strokes = 2 + (int)wl_rng_below(r, 3);
    for (int s = 0; s < strokes; s++) {
        float x0 = 5.0f + 19.0f * wl_rng_float(r), y0 = 4.0f + 21.0f * wl_rng_float(r);
        float x1 = 5.0f + 19.0f * wl_rng_float(r), y1 = 4.0f + 21.0f * wl_rng_float(r);
        for (int t = 0; t <= 40; t++) {
            float x = x0 + (x1 - x0) * (float)t / 40.0f, y = y0 + (y1 - y0) * (float)t / 40.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int px = (int)x + dx, py = (int)y + dy;
                    if (px >= 0 && px < NN_IN && py >= 0 && py < NN_IN)
                        img[py * NN_IN + px] = dx == 0 && dy == 0 ? -1.0f : fminf(img[py * NN_IN + px], 0.0f);
                }
        }
    }
}

/* Fills in; returns 0 on out-of-memory (nn_free_input frees what was allocated). */
static inline int nn_generate(uint32_t images, uint64_t seed, nn_input *in) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    in->w1 = (float *)malloc(sizeof(float) * NN_M1 * NN_W1);
    in->w2 = (float *)malloc(sizeof(float) * NN_M2 * NN_W2);
    in->w3 = (float *)malloc(sizeof(float) * NN_H * NN_W3);
    in->w4 = (float *)malloc(sizeof(float) * NN_OUT * NN_W4);
    in->img = (float *)malloc(sizeof(float) * NN_IN * NN_IN * images);
    if (!in->w1 || !in->w2 || !in->w3 || !in->w4 || !in->img) return 0;
    nn_fill_weights(&r, in->w1, NN_M1 * NN_W1, NN_W1);
    nn_fill_weights(&r, in->w2, NN_M2 * NN_W2, NN_W2);
    nn_fill_weights(&r, in->w3, (size_t)NN_H * NN_W3, NN_W3);
    nn_fill_weights(&r, in->w4, NN_OUT * NN_W4, NN_W4);
    for (uint32_t i = 0; i < images; i++) nn_draw(&r, in->img + (size_t)i * NN_IN * NN_IN);
    return 1;
}

static inline void nn_free_input(nn_input *in) {
    free(in->w1); free(in->w2); free(in->w3); free(in->w4); free(in->img);
}

/* One neuron checked: w[0] is the bias, w[1 + i] weighs x[i] (x[i] = in[idx[i]] or
 * in[i] without idx).  Returns 1 when got is within NN_TOL of the activation. */
typedef struct {
    double want, tol;
} nn_expect;

static inline nn_expect nn_neuron(const float *w, const float *x, const int *idx, int n) {
    double sum = w[0], mag = fabs((double)w[0]);
    for (int i = 0; i < n; i++) {
        double p = (double)w[1 + i] * (double)x[idx ? idx[i] : i];
        sum += p;
        mag += fabs(p);
    }
    nn_expect e;
    e.want = (double)NN_B * tanh((double)NN_A * sum);
    e.tol = (2.0 * (n + 2) * mag + 16.0) / 16777216.0;
    return e;
}

/* Offsets of the 25 (layer 1) or 150 (layer 2) inputs of output (x, y) in the
 * previous layer's maps of side `side`, for a stride-2 5 x 5 window; maps inputs. */
static inline void nn_window(int x, int y, int side, int maps, int *idx) {
    for (int m = 0; m < maps; m++)
        for (int ky = 0; ky < NN_K; ky++)
            for (int kx = 0; kx < NN_K; kx++)
                idx[(m * NN_K + ky) * NN_K + kx] = m * side * side + (2 * y + ky) * side + 2 * x + kx;
}

/* The first neuron off by more than its tolerance, layer by layer (1..4), each
 * layer checked from the GPU's outputs of the layer before.  l1: [images][6][13*13],
 * l2: [images][50][5*5], l3: [images][100], l4: [images][10].  Returns 1 if all pass. */
typedef struct {
    int layer, unit;
    uint32_t image;
    double got, want, tol;
} nn_bad;

static inline int nn_off(nn_expect e, float got, int layer, uint32_t image, int unit, nn_bad *bad) {
    if (fabs((double)got - e.want) <= e.tol) return 0;
    bad->layer = layer; bad->image = image; bad->unit = unit;
    bad->got = got; bad->want = e.want; bad->tol = e.tol;
    return 1;
}

static inline int nn_check(const nn_input *in, uint32_t images, const float *l1, const float *l2, const float *l3,
                           const float *l4, nn_bad *bad) {
    int idx1[NN_K * NN_K], idx2[NN_M1 * NN_K * NN_K];
    for (uint32_t im = 0; im < images; im++) {
        const float *img = in->img + (size_t)im * NN_IN * NN_IN;
        const float *a1 = l1 + (size_t)im * NN_M1 * NN_S1 * NN_S1, *a2 = l2 + (size_t)im * NN_L2;
        const float *a3 = l3 + (size_t)im * NN_H, *a4 = l4 + (size_t)im * NN_OUT;
        for (int m = 0; m < NN_M1; m++)
            for (int p = 0; p < NN_S1 * NN_S1; p++) {
                nn_window(p % NN_S1, p / NN_S1, NN_IN, 1, idx1);
                nn_expect e = nn_neuron(in->w1 + m * NN_W1, img, idx1, NN_K * NN_K);
                if (nn_off(e, a1[m * NN_S1 * NN_S1 + p], 1, im, m * NN_S1 * NN_S1 + p, bad)) return 0;
            }
        for (int m = 0; m < NN_M2; m++)
            for (int p = 0; p < NN_S2 * NN_S2; p++) {
                nn_window(p % NN_S2, p / NN_S2, NN_S1, NN_M1, idx2);
                nn_expect e = nn_neuron(in->w2 + m * NN_W2, a1, idx2, NN_M1 * NN_K * NN_K);
                if (nn_off(e, a2[m * NN_S2 * NN_S2 + p], 2, im, m * NN_S2 * NN_S2 + p, bad)) return 0;
            }
        for (int u = 0; u < NN_H; u++)
            if (nn_off(nn_neuron(in->w3 + (size_t)u * NN_W3, a2, NULL, NN_L2), a3[u], 3, im, u, bad)) return 0;
        for (int u = 0; u < NN_OUT; u++)
            if (nn_off(nn_neuron(in->w4 + u * NN_W4, a3, NULL, NN_H), a4[u], 4, im, u, bad)) return 0;
    }
    return 1;
}

#endif
