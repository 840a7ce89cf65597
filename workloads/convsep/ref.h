/* convsep: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * A separable 2-D convolution (the CUDA SDK's convolutionSeparable problem): a
 * grey-scale float image is filtered by a 17-tap kernel along rows, then the
 * result along columns; pixels outside the image count as zero.
 *
 * The image is width = 128 * size by height = 96 * size pixels (4:3, the shape of
 * photographs; the SDK sample filters 3072 x 3072).  At the default size 6 that is
 * 768 x 576 = 1.7 MB per float plane, three planes (input, row pass, output): far
 * more than a 16 KB L1D, while each CTA's tile plus its apron is re-read by the
 * neighbouring CTAs' aprons.  Pixels are a smooth gradient plus a few rectangles
 * and noise (a natural-image-like mix of flat areas and edges).
 *
 * Each output is an fmaf chain over the taps in order -R..R, here and in the
 * kernels: the reference performs exactly the GPU's float operations, so the
 * planes are compared bit for bit. */
#ifndef WL_CONVSEP_REF_H
#define WL_CONVSEP_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define CONV_RADIUS 8                     /* the SDK's KERNEL_RADIUS */
#define CONV_MAX_SIZE 64u                 /* 8192 x 6144: three 192 MB planes */
#define CONV_TAPS (2 * CONV_RADIUS + 1)
/* row pass: 32 x 4 threads, each computes CONV_ROW_STEPS outputs 32 columns apart */
#define CONV_ROW_BX 32u
#define CONV_ROW_BY 4u
#define CONV_ROW_STEPS 4u
/* column pass: 32 x 8 threads, each computes CONV_COL_STEPS outputs 8 rows apart */
#define CONV_COL_BX 32u
#define CONV_COL_BY 8u
#define CONV_COL_STEPS 4u
/* one halo step on each side covers the radius: 32 columns / 8 rows >= CONV_RADIUS */

/* width is a multiple of CONV_ROW_BX * CONV_ROW_STEPS = 128 (the row pass's tile)
 * and height of CONV_COL_BY * CONV_COL_STEPS = 32 (the column pass's tile) */
static inline uint32_t conv_width(uint32_t size) { return 128u * size; }
static inline uint32_t conv_height(uint32_t size) { return 96u * size; }

/* The filter: a normalised Gaussian-like bell with seed-dependent width
 * (sigma in [2, 4)); filled in taps[CONV_TAPS]. */
static inline void conv_make_taps(wl_rng *r, float *taps) {
    float sigma = 2.0f + 2.0f * wl_rng_float(r);
    float sum = 0.0f;
    for (int k = -CONV_RADIUS; k <= CONV_RADIUS; k++) {
        /* exp(-x^2 / 2 sigma^2) by a rational approximation: no libm differences */
        float x = (float)k / sigma;
        float v = 1.0f / (1.0f + 0.5f * x * x + 0.125f * x * x * x * x);
        taps[k + CONV_RADIUS] = v;
        sum += v;
    }
    for (int i = 0; i < CONV_TAPS; i++) taps[i] /= sum;
}

/* Returns the w * h image (row-major; NULL on out-of-memory) and fills taps. */
static inline float *conv_generate(uint32_t w, uint32_t h, uint64_t seed, float *taps) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    conv_make_taps(&r, taps);
    float *img = (float *)malloc((size_t)w * h * sizeof(float));
    if (!img) return NULL;
    float gx = wl_rng_float(&r), gy = wl_rng_float(&r);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            img[(size_t)y * w + x] = gx * (float)x / (float)w + gy * (float)y / (float)h + 0.05f * wl_rng_float(&r);
    for (int n = 0; n < 24; n++) { /* rectangles: flat areas with sharp edges */
        uint32_t x0 = wl_rng_below(&r, w), y0 = wl_rng_below(&r, h);
        uint32_t x1 = x0 + 1 + wl_rng_below(&r, w / 4), y1 = y0 + 1 + wl_rng_below(&r, h / 4);
        float v = wl_rng_float(&r);
        for (uint32_t y = y0; y < y1 && y < h; y++)
            for (uint32_t x = x0; x < x1 && x < w; x++) img[(size_t)y * w + x] = v;
    }
    return img;
}

/* Row pass then column pass, zero outside the image: tmp and out are w * h. */
static inline void conv_reference(const float *in, uint32_t w, uint32_t h, const float *taps, float *tmp,
                                  float *out) {
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int k = -CONV_RADIUS; k <= CONV_RADIUS; k++) {
                int64_t xx = (int64_t)x + k;
                float v = xx >= 0 && xx < (int64_t)w ? in[(size_t)y * w + (size_t)xx] : 0.0f;
                sum = fmaf(v, taps[CONV_RADIUS - k], sum);
            }
            tmp[(size_t)y * w + x] = sum;
        }
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int k = -CONV_RADIUS; k <= CONV_RADIUS; k++) {
                int64_t yy = (int64_t)y + k;
                float v = yy >= 0 && yy < (int64_t)h ? tmp[(size_t)yy * w + x] : 0.0f;
                sum = fmaf(v, taps[CONV_RADIUS - k], sum);
            }
            out[(size_t)y * w + x] = sum;
        }
}

#endif
