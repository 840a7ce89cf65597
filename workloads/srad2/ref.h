/* srad2: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Rodinia's srad_v2 structure of speckle-reducing anisotropic diffusion (the
 * variant the CWLP paper evaluates as SRAD-V2), where `srad` follows srad_v1:
 *   host     J = exp(I / 255), once
 *   per iteration (Rodinia's run script: 2 iterations, lambda 0.5, ROI rows and
 *   columns 0..127):
 *     host     q0^2 = var / mean^2 of the ROI, summed on the CPU from its copy of J
 *     copy     J to the device
 *     coeff    16 x 16 tiles of J in shared memory; the row above and below and the
 *              columns left and right of the tile are read from global memory by
 *              every thread of a tile row / column (v2's north/south/west/east
 *              arrays); directional differences and the coefficient c to global
 *     update   c tile in shared memory plus the row below and the column right;
 *              J += lambda/4 * (cN dN + cS dS + cW dW + cE dE)
 *     copy     J back to the host
 * The image is srad's synthetic ultrasound (organs times exponential speckle), so
 * both variants diffuse the same kind of input.  The kernels do srad's per-pixel
 * float operations (srad_diffuse_reference), every multiply-add an explicit fmaf,
 * and the exponential is taken on the host, so the result is bit-exact. */
#ifndef WL_SRAD2_REF_H
#define WL_SRAD2_REF_H

#include "../srad/ref.h"

#define SRAD2_TILE 16        /* v2's BLOCK_SIZE: rows and columns are multiples of it */
#define SRAD2_ITERATIONS 2   /* Rodinia's run script for srad_v2 */
#define SRAD2_ROI 128        /* ROI rows/columns 0..127 (Rodinia's run script) */

/* image = 16(2S+2) x 16(2S+3) pixels: tile multiples, rows != cols so that a
 * row/column mix-up shows. */
static inline srad_dims srad2_dimensions(uint32_t size) {
    srad_dims d;
    d.rows = (int32_t)(SRAD2_TILE * (2u * size + 2u));
    d.cols = (int32_t)(SRAD2_TILE * (2u * size + 3u));
    d.roi_row = 0;
    d.roi_col = 0;
    d.roi_rows = d.rows < SRAD2_ROI ? d.rows : SRAD2_ROI;
    d.roi_cols = d.cols < SRAD2_ROI ? d.cols : SRAD2_ROI;
    return d;
}

/* The input image (intensities 0..255) turned into J = exp(I/255) on the host. */
static inline void srad2_input(const srad_dims *d, uint64_t seed, float *J) {
    size_t npix = (size_t)d->rows * d->cols;
    srad_generate(d, seed, J);
    for (size_t k = 0; k < npix; k++) J[k] = expf(J[k] / 255.0f);
}

/* q0^2 of the ROI as v2's host loop computes it: float sums in row-major order. */
static inline float srad2_q0sqr(const srad_dims *d, const float *J) {
    float sum = 0.0f, sq = 0.0f;
    for (int32_t i = d->roi_row; i < d->roi_row + d->roi_rows; i++) {
        for (int32_t j = d->roi_col; j < d->roi_col + d->roi_cols; j++) {
            float v = J[(size_t)i * d->cols + j];
            sum += v;
            sq = fmaf(v, v, sq);
        }
    }
    float n = (float)(d->roi_rows * d->roi_cols);
    float mean = sum / n;
    float var = fmaf(-mean, mean, sq / n);
    return var / (mean * mean);
}

/* The whole pipeline on J (in place).  Returns 0, or -1 on out-of-memory. */
static inline int srad2_reference(const srad_dims *d, float *J) {
    float *scratch = (float *)malloc(5 * (size_t)d->rows * d->cols * sizeof(float));
    if (!scratch) return -1;
    for (int it = 0; it < SRAD2_ITERATIONS; it++) srad_diffuse_reference(d, J, scratch, srad2_q0sqr(d, J));
    free(scratch);
    return 0;
}

/* Index of the first pixel that differs (bit-exact check), or -1. */
static inline int64_t srad2_first_mismatch(const srad_dims *d, const float *got, const float *expected) {
    size_t npix = (size_t)d->rows * d->cols;
    for (size_t k = 0; k < npix; k++)
        if (memcmp(&got[k], &expected[k], sizeof(float)) != 0) return (int64_t)k;
    return -1;
}

#endif
