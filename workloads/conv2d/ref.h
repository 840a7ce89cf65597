/* conv2d: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * PolyBench's 2-D convolution (2DCONV): a 3 x 3 stencil with PolyBench's fixed
 * coefficients over an H x W float image, one thread per pixel (PolyBench/GPU's
 * structure: 32 x 8 CTAs, no shared memory); the border pixels are left at 0.
 * Each input pixel is read by the 9 threads around it, across warps and, at tile
 * edges, across CTAs: the NEARBY inter-thread reuse of the Locality Descriptor
 * paper's Table 2.
 *
 * Sizes: W = H = 128 * size; default size 6, 768 x 768 (2.4 MB per image;
 * PolyBench/GPU uses 4096 x 4096).  Pixels uniform in [0, 1) from the seed
 * (PolyBench's initialisation is pseudo-random too).
 *
 * Each output is an fmaf chain over the 9 taps in row-major order, here and in
 * the kernel: compared bit for bit. */
#ifndef WL_CONV2D_REF_H
#define WL_CONV2D_REF_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define C2_MAX_SIZE 64u /* 8192 x 8192: 256 MB per image */
#define C2_BX 32u
#define C2_BY 8u

/* PolyBench's coefficients, row-major over (dy, dx) = (-1..1, -1..1) */
#define C2_W00 0.2f
#define C2_W01 0.5f
#define C2_W02 (-0.8f)
#define C2_W10 (-0.3f)
#define C2_W11 0.6f
#define C2_W12 (-0.9f)
#define C2_W20 0.4f
#define C2_W21 0.7f
#define C2_W22 0.10f

static inline uint32_t c2_side(uint32_t size) { return 128u * size; }

static inline float *c2_generate(uint32_t w, uint32_t h, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *img = (float *)malloc((size_t)w * h * sizeof(float));
    if (!img) return NULL;
    for (size_t i = 0; i < (size_t)w * h; i++) img[i] = wl_rng_float(&r);
    return img;
}

/* The stencil at interior pixel (x, y); p points at (x, y), w is the row pitch. */
#define C2_STENCIL(p, w)                                                                           \
    fmaf(C2_W22, (p)[(w) + 1],                                                                     \
         fmaf(C2_W21, (p)[(w)],                                                                    \
              fmaf(C2_W20, (p)[(w) - 1],                                                           \
                   fmaf(C2_W12, (p)[1],                                                            \
                        fmaf(C2_W11, (p)[0],                                                       \
                             fmaf(C2_W10, (p)[-1],                                                 \
                                  fmaf(C2_W02, (p)[-(w) + 1],                                      \
                                       fmaf(C2_W01, (p)[-(w)], C2_W00 * (p)[-(w) - 1]))))))))

/* out: w * h, zero on the border */
static inline void c2_reference(const float *in, uint32_t w, uint32_t h, float *out) {
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            out[i] = y > 0 && x > 0 && y + 1 < h && x + 1 < w ? C2_STENCIL(in + i, (ptrdiff_t)w) : 0.0f;
        }
}

#endif
