/* srad: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Speckle-reducing anisotropic diffusion (Yu & Acton, 2002) of a synthetic
 * ultrasound-like image: bright and dark elliptic organs on a background, multiplied
 * by speckle.  Pipeline, as the GPU runs it:
 *   extract     J = exp(I / 255)
 *   per iteration:
 *     reduce    per-CTA sums of J and J^2 over the region of interest (ROI)
 *     stats     q0^2 = var / mean^2 of the ROI (one CTA sums the partial sums)
 *     coeff     directional differences dN dS dW dE and diffusion coefficient c
 *     update    J += lambda/4 * (cN dN + cS dS + cW dW + cE dE)
 *   compress    I = 255 * log(J)
 * The reference repeats the kernels' float operations in the same order (the
 * reductions follow the same trees, every multiply-add is an explicit fmaf on both
 * sides), so the only differences come from expf/logf (see srad_tolerance). */
#ifndef WL_SRAD_REF_H
#define WL_SRAD_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define SRAD_TILE 16          /* coeff/update CTAs: 16 x 16 pixels */
#define SRAD_BLOCK 256        /* extract/compress/reduce/stats CTAs: 256 threads (a power of two) */
#define SRAD_ITERATIONS 4
#define SRAD_LAMBDA 0.5f
#define SRAD_ORGANS 5

typedef struct {
    int32_t rows, cols;
    int32_t roi_row, roi_col, roi_rows, roi_cols;  /* region of interest */
} srad_dims;

/* image = (16*size + 13) x (16*size + 19) pixels; the ROI is the half-size rectangle
 * starting at one eighth of each side. */
static inline srad_dims srad_dimensions(uint32_t size) {
    srad_dims d;
    d.rows = (int32_t)(16u * size + 13u);
    d.cols = (int32_t)(16u * size + 19u);
    d.roi_row = d.rows / 8;
    d.roi_col = d.cols / 8;
    d.roi_rows = d.rows / 2;
    d.roi_cols = d.cols / 2;
    return d;
}

static inline int32_t srad_reduce_blocks(const srad_dims *d) {
    return (d->roi_rows * d->roi_cols + SRAD_BLOCK - 1) / SRAD_BLOCK;
}

/* Fills img (rows*cols, row-major) with intensities in [0, 255]. */
static inline void srad_generate(const srad_dims *d, uint64_t seed, float *img) {
    wl_rng r;
    float organ[SRAD_ORGANS][5];  /* centre row, centre col, radius rows, radius cols, brightness */
    wl_rng_seed(&r, seed);
    for (int o = 0; o < SRAD_ORGANS; o++) {
        organ[o][0] = wl_rng_float(&r) * (float)d->rows;
        organ[o][1] = wl_rng_float(&r) * (float)d->cols;
        organ[o][2] = (0.05f + 0.2f * wl_rng_float(&r)) * (float)d->rows;
        organ[o][3] = (0.05f + 0.2f * wl_rng_float(&r)) * (float)d->cols;
        organ[o][4] = 30.0f + 150.0f * wl_rng_float(&r);
    }
    for (int32_t i = 0; i < d->rows; i++) {
        for (int32_t j = 0; j < d->cols; j++) {
            float level = 90.0f;
            for (int o = 0; o < SRAD_ORGANS; o++) {
                float y = ((float)i - organ[o][0]) / organ[o][2], x = ((float)j - organ[o][1]) / organ[o][3];
                if (x * x + y * y <= 1.0f) level = organ[o][4];
            }
            /* fully developed speckle: exponentially distributed intensity, mean 1 */
            double speckle = -log(1.0 - wl_rng_double(&r));
            double v = level * speckle;
            img[(size_t)i * d->cols + j] = (float)(v > 255.0 ? 255.0 : v);
        }
    }
}

/* Sum of SRAD_BLOCK values by the kernels' shared-memory tree. */
static inline float srad_tree_sum(float *v) {
    for (int s = SRAD_BLOCK / 2; s > 0; s >>= 1)
        for (int t = 0; t < s; t++) v[t] += v[t + s];
    return v[0];
}

/* q0^2 of the ROI, computed exactly as srad_reduce + srad_stats compute it;
 * parts holds 2 * srad_reduce_blocks(d) floats. */
static inline float srad_q0sqr_reference(const srad_dims *d, const float *J, float *parts) {
    int32_t n = d->roi_rows * d->roi_cols, blocks = srad_reduce_blocks(d);
    float v_sum[SRAD_BLOCK], v_sq[SRAD_BLOCK];
    float *part_sum = parts, *part_sq = parts + blocks;
    for (int32_t b = 0; b < blocks; b++) {
        for (int t = 0; t < SRAD_BLOCK; t++) {
            int32_t k = b * SRAD_BLOCK + t;
            float v = 0.0f;
            if (k < n) v = J[(size_t)(d->roi_row + k / d->roi_cols) * d->cols + d->roi_col + k % d->roi_cols];
            v_sum[t] = v;
            v_sq[t] = v * v;
        }
        part_sum[b] = srad_tree_sum(v_sum);
        part_sq[b] = srad_tree_sum(v_sq);
    }
    for (int t = 0; t < SRAD_BLOCK; t++) {
        float s = 0.0f, q = 0.0f;
        for (int32_t i = t; i < blocks; i += SRAD_BLOCK) {
            s += part_sum[i];
            q += part_sq[i];
        }
        v_sum[t] = s;
        v_sq[t] = q;
    }
    float sum = srad_tree_sum(v_sum), sq = srad_tree_sum(v_sq);
    float mean = sum / (float)n;
    float var = fmaf(-mean, mean, sq / (float)n);
    return var / (mean * mean);
}

/* Diffusion coefficient from the four differences (kernel srad_coeff's operations). */
static inline float srad_coefficient(float jc, float dn, float ds, float dw, float de, float q0sqr) {
    float g2 = fmaf(de, de, fmaf(dw, dw, fmaf(ds, ds, dn * dn))) / (jc * jc);
    float l = (dn + ds + dw + de) / jc;
    float num = fmaf(-0.0625f * l, l, 0.5f * g2);
    float den = fmaf(0.25f, l, 1.0f);
    float qsqr = num / (den * den);
    float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
    return fminf(fmaxf(c, 0.0f), 1.0f);
}

/* Floats of scratch space srad_iteration_reference needs. */
static inline size_t srad_scratch_floats(const srad_dims *d) {
    return 5 * (size_t)d->rows * d->cols + 2 * (size_t)srad_reduce_blocks(d);
}

/* The diffusion step of one iteration with speckle scale q0sqr (kernels srad_coeff
 * and srad_update; srad2's two kernels compute the same), on J (rows*cols), with 5
 * images of scratch.  Only d->rows and d->cols are read. */
static inline void srad_diffuse_reference(const srad_dims *d, float *J, float *scratch, float q0sqr) {
    size_t npix = (size_t)d->rows * d->cols;
    float *dN = scratch, *dS = scratch + npix, *dW = scratch + 2 * npix, *dE = scratch + 3 * npix;
    float *c = scratch + 4 * npix;
    for (int32_t i = 0; i < d->rows; i++) {
        for (int32_t j = 0; j < d->cols; j++) {
            size_t k = (size_t)i * d->cols + j;
            float jc = J[k];
            dN[k] = J[(size_t)(i > 0 ? i - 1 : i) * d->cols + j] - jc;
            dS[k] = J[(size_t)(i < d->rows - 1 ? i + 1 : i) * d->cols + j] - jc;
            dW[k] = J[(size_t)i * d->cols + (j > 0 ? j - 1 : j)] - jc;
            dE[k] = J[(size_t)i * d->cols + (j < d->cols - 1 ? j + 1 : j)] - jc;
            c[k] = srad_coefficient(jc, dN[k], dS[k], dW[k], dE[k], q0sqr);
        }
    }
    for (int32_t i = 0; i < d->rows; i++) {
        for (int32_t j = 0; j < d->cols; j++) {
            size_t k = (size_t)i * d->cols + j;
            float c_south = c[(size_t)(i < d->rows - 1 ? i + 1 : i) * d->cols + j];
            float c_east = c[(size_t)i * d->cols + (j < d->cols - 1 ? j + 1 : j)];
            float div = fmaf(c_east, dE[k], fmaf(c[k], dW[k], fmaf(c_south, dS[k], c[k] * dN[k])));
            J[k] = fmaf(0.25f * SRAD_LAMBDA, div, J[k]);
        }
    }
}

/* One iteration on J (rows*cols), with srad_scratch_floats(d) floats of scratch. */
static inline void srad_iteration_reference(const srad_dims *d, float *J, float *scratch) {
    size_t npix = (size_t)d->rows * d->cols;
    float q0sqr = srad_q0sqr_reference(d, J, scratch + 5 * npix);
    srad_diffuse_reference(d, J, scratch, q0sqr);
}

/* The whole pipeline on img (in place).  Returns 0, or -1 on out-of-memory. */
static inline int srad_reference(const srad_dims *d, float *img) {
    size_t npix = (size_t)d->rows * d->cols;
    float *scratch = (float *)malloc(srad_scratch_floats(d) * sizeof(float));
    if (!scratch) return -1;
    for (size_t k = 0; k < npix; k++) img[k] = expf(img[k] / 255.0f);
    for (int it = 0; it < SRAD_ITERATIONS; it++) srad_iteration_reference(d, img, scratch);
    for (size_t k = 0; k < npix; k++) img[k] = logf(img[k]) * 255.0f;
    free(scratch);
    return 0;
}

/* Tolerance on the output intensities (0..255 scale).  Everything but expf and logf
 * is bit-identical between kernel and reference; CUDA's expf/logf are within 2 and
 * 1 ulp (CUDA C Programming Guide, maximum ulp errors) where glibc's are correctly
 * rounded or nearly.  In a throwaway experiment we nudged every initial J by a random
 * -4..+4 ulp and every log by -2..+2 ulp: after 4 iterations the output moved by at
 * most 4.6e-4 (sizes 1, 2, 20, 40, seeds 1-3; the diffusion is a convex combination
 * for fixed c, and c's sensitivity adds a little).  We allow 4e-3, about nine times
 * that, still 1/250 of a grey level. */
static inline float srad_tolerance(void) { return 4e-3f; }

static inline int64_t srad_first_mismatch(const srad_dims *d, const float *got, const float *expected) {
    size_t npix = (size_t)d->rows * d->cols;
    for (size_t k = 0; k < npix; k++)
        if (!(fabsf(got[k] - expected[k]) <= srad_tolerance())) return (int64_t)k;
    return -1;
}

#endif
