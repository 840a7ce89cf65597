/* texwarp: input generation and CPU reference (C11 and C++).
 *
 * An affine warp of a W x W float image read through a texture object with
 * bilinear filtering (clamp, unnormalized coordinates), modulated by an 8 x 8
 * 8-bit pattern read through a second texture object (point sampling,
 * normalized coordinates with wrap: the pattern tiles the output, read as
 * normalized floats), written through a surface object.  --size S: W = 64 S.
 *
 * Output pixel (x, y) samples the image at
 *   u = 0.75 x + 0.125 y + 2.5625,  v = -0.125 x + 0.75 y + 0.4375
 * (dyadic coefficients: u and v are exact whatever the compiler fuses), and the
 * pattern at ((x + 0.5) / 16, (y + 0.5) / 16), i.e. texel ((x / 2) mod 8, (y / 2) mod 8);
 * out = a * (0.5 + b).  The reference filters as the CUDA programming guide's
 * texture-fetching appendix says (weights in 1.8 fixed point).
 */
#ifndef WL_TEXWARP_REF_H
#define WL_TEXWARP_REF_H

#include <math.h>
#include <stdint.h>

#include "wl_rng.h"

#define TEXWARP_DEFAULT_SIZE 4u
#define TEXWARP_MAX_SIZE 64u           /* W = 4096 */
#define TEXWARP_BLOCK_X 16u
#define TEXWARP_BLOCK_Y 16u
#define TEXWARP_PAT 8u                 /* pattern texels per side */
#define TEXWARP_U0 2.5625f
#define TEXWARP_V0 0.4375f
/* the GPU's filter may sum the four weighted texels in another order */
#define TEXWARP_TOLERANCE 1e-5f

static inline uint32_t texwarp_w(uint32_t size) { return 64u * size; }

static inline void texwarp_gen(uint32_t w, uint64_t seed, float *img, uint8_t *pat) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint32_t i = 0; i < w * w; i++) img[i] = wl_rng_float(&r);
    for (uint32_t i = 0; i < TEXWARP_PAT * TEXWARP_PAT; i++) pat[i] = (uint8_t)wl_rng_below(&r, 256);
}

static inline float texwarp_texel(const float *img, uint32_t w, int64_t x, int64_t y) {
    x = x < 0 ? 0 : x >= (int64_t)w ? (int64_t)w - 1 : x; /* clamp */
    y = y < 0 ? 0 : y >= (int64_t)w ? (int64_t)w - 1 : y;
    return img[(size_t)y * w + (size_t)x];
}

/* tex2D<float> with linear filtering, clamp, unnormalized coordinates. */
static inline float texwarp_bilinear(const float *img, uint32_t w, float u, float v) {
    float xb = u - 0.5f, yb = v - 0.5f;
    float fx = floorf(xb), fy = floorf(yb);
    float a = floorf((xb - fx) * 256.0f + 0.5f) / 256.0f, b = floorf((yb - fy) * 256.0f + 0.5f) / 256.0f;
    int64_t i = (int64_t)fx, j = (int64_t)fy;
    return (1.0f - a) * (1.0f - b) * texwarp_texel(img, w, i, j) + a * (1.0f - b) * texwarp_texel(img, w, i + 1, j) +
           (1.0f - a) * b * texwarp_texel(img, w, i, j + 1) + a * b * texwarp_texel(img, w, i + 1, j + 1);
}

static inline void texwarp_ref(uint32_t w, const float *img, const uint8_t *pat, float *out) {
    for (uint32_t y = 0; y < w; y++)
        for (uint32_t x = 0; x < w; x++) {
            float fx = (float)x, fy = (float)y;
            float u = 0.75f * fx + 0.125f * fy + TEXWARP_U0, v = -0.125f * fx + 0.75f * fy + TEXWARP_V0;
            float a = texwarp_bilinear(img, w, u, v);
            float b = (float)pat[((y / 2) % TEXWARP_PAT) * TEXWARP_PAT + (x / 2) % TEXWARP_PAT] / 255.0f;
            out[(size_t)y * w + x] = a * (0.5f + b);
        }
}

/* Index of the first pixel further than the tolerance from want, or n. */
static inline uint32_t texwarp_first_mismatch(uint32_t n, const float *got, const float *want) {
    for (uint32_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= TEXWARP_TOLERANCE)) return i;
    return n;
}

#endif
