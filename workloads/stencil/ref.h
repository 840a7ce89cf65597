/* stencil ("weather prediction"): input generation and CPU reference, shared by
 * host.c (C11) and kernel.cu's main (C++).
 *
 * A WRF-like tracer transport step on a 3-D grid (x fastest, then y, then z = the
 * vertical levels):
 *   q' = q - (first-order upwind advection by the wind u, v, w)
 *          + kh * (5-point horizontal Laplacian of q)
 *          - kv * (4th-order vertical hyperdiffusion over k-2..k+2)
 * repeated WP_STEPS times with ping-pong buffers.  Boundaries are zero-gradient:
 * a neighbour index outside the grid is clamped to the edge.
 *
 * --size S means nx = 16*S + 21, ny = 2*S + 3, nz = WP_NZ levels.  The horizontal
 * sizes are never multiples of the 32x4 CTA tile and span at least two tiles each
 * way, so every run has halos loaded from neighbouring tiles and ragged boundary
 * tiles whose outside threads still take part in the barriers. */
#ifndef WL_STENCIL_REF_H
#define WL_STENCIL_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define WP_TILE_X 32       /* CTA = 32 x 4 threads, one vertical column each */
#define WP_TILE_Y 4
#define WP_NZ 16           /* vertical levels */
#define WP_STEPS 4         /* time steps */
#define WP_MAX_SIZE 2000u  /* keeps the grid below 2^31 points */
#define WP_DEFAULT_SIZE 16u /* the evaluation size: 277 x 35 x 16 */

/* Courant numbers (dt/dx * |wind| <= 0.25 per direction) and diffusion numbers:
 * small enough that the explicit scheme stays bounded over WP_STEPS steps. */
#define WP_CX 0.25f
#define WP_CY 0.25f
#define WP_CZ 0.2f
#define WP_KH 0.05f
#define WP_KV 0.02f

typedef struct {
    int32_t nx, ny, nz;
    float *q;           /* tracer at t = 0 */
    float *u, *v, *w;   /* wind, constant in time */
} wp_input;

static inline size_t wp_points(const wp_input *in) { return (size_t)in->nx * (size_t)in->ny * (size_t)in->nz; }

static inline void wp_free(wp_input *in) {
    free(in->q);
    free(in->u);
    free(in->v);
    free(in->w);
    memset(in, 0, sizeof *in);
}

/* Fills in; returns 0, or -1 when out of memory or size is too large (in is then empty).
 * The zonal wind u has a height profile that changes sign near mid-height plus noise,
 * so warps see both upwind directions (divergent branches) in some levels only. */
static inline int wp_generate(wp_input *in, uint32_t size, uint64_t seed) {
    wl_rng r;
    memset(in, 0, sizeof *in);
    if (size < 1 || size > WP_MAX_SIZE) return -1;
    in->nx = (int32_t)(16u * size + 21u);
    in->ny = (int32_t)(2u * size + 3u);
    in->nz = WP_NZ;
    size_t n = wp_points(in);
    in->q = (float *)malloc(n * sizeof(float));
    in->u = (float *)malloc(n * sizeof(float));
    in->v = (float *)malloc(n * sizeof(float));
    in->w = (float *)malloc(n * sizeof(float));
    if (!in->q || !in->u || !in->v || !in->w) {
        wp_free(in);
        return -1;
    }
    wl_rng_seed(&r, seed);
    size_t plane = (size_t)in->nx * (size_t)in->ny;
    for (size_t p = 0; p < n; p++) {
        int32_t k = (int32_t)(p / plane);
        float jet = -0.5f + (float)k / (float)(WP_NZ - 1);   /* -0.5 at the ground, +0.5 at the top */
        in->q[p] = wl_rng_float(&r);
        in->u[p] = jet + 0.5f * (wl_rng_float(&r) - 0.5f);
        in->v[p] = 0.8f * (wl_rng_float(&r) - 0.5f);
        in->w[p] = 0.2f * (wl_rng_float(&r) - 0.5f);
    }
    return 0;
}

static inline int32_t wp_clamp(int32_t x, int32_t hi) { return x < 0 ? 0 : (x > hi ? hi : x); }

/* One time step on the CPU, written point by point as the kernel computes it. */
static inline void wp_step_ref(const wp_input *in, const float *q, float *out) {
    int32_t nx = in->nx, ny = in->ny, nz = in->nz;
    size_t plane = (size_t)nx * (size_t)ny;
    for (int32_t k = 0; k < nz; k++) {
        for (int32_t j = 0; j < ny; j++) {
            for (int32_t i = 0; i < nx; i++) {
                size_t col = (size_t)j * (size_t)nx + (size_t)i;
                size_t at = (size_t)k * plane + col;
                const float *qk = q + (size_t)k * plane;
                float c = q[at];
                float xm = qk[(size_t)j * nx + wp_clamp(i - 1, nx - 1)];
                float xp = qk[(size_t)j * nx + wp_clamp(i + 1, nx - 1)];
                float ym = qk[(size_t)wp_clamp(j - 1, ny - 1) * nx + i];
                float yp = qk[(size_t)wp_clamp(j + 1, ny - 1) * nx + i];
                float zm = q[(size_t)wp_clamp(k - 1, nz - 1) * plane + col];
                float zp = q[(size_t)wp_clamp(k + 1, nz - 1) * plane + col];
                float zm2 = q[(size_t)wp_clamp(k - 2, nz - 1) * plane + col];
                float zp2 = q[(size_t)wp_clamp(k + 2, nz - 1) * plane + col];
                float uu = in->u[at], vv = in->v[at], ww = in->w[at];
                float adv = WP_CX * (uu > 0.0f ? uu * (c - xm) : uu * (xp - c)) +
                            WP_CY * (vv > 0.0f ? vv * (c - ym) : vv * (yp - c)) +
                            WP_CZ * (ww > 0.0f ? ww * (c - zm) : ww * (zp - c));
                float hdiff = WP_KH * (xm + xp + ym + yp - 4.0f * c);
                float vdiff = WP_KV * (zm2 - 4.0f * zm + 6.0f * c - 4.0f * zp + zp2);
                out[at] = c - adv + hdiff - vdiff;
            }
        }
    }
}

/* Runs WP_STEPS steps from in->q; the result is written to out.  Returns 0, or -1
 * when out of memory. */
static inline int wp_reference(const wp_input *in, float *out) {
    size_t n = wp_points(in);
    float *tmp = (float *)malloc(n * sizeof(float));
    if (!tmp) return -1;
    /* Ping-pong so that the last step lands in out. */
    float *bufs[2];
    bufs[WP_STEPS % 2] = out;
    bufs[(WP_STEPS + 1) % 2] = tmp;
    memcpy(bufs[0], in->q, n * sizeof(float));
    for (int s = 0; s < WP_STEPS; s++) wp_step_ref(in, bufs[s % 2], bufs[(s + 1) % 2]);
    free(tmp);
    return 0;
}

/* The values stay in [0, 1]; the device and the CPU evaluate the same expressions,
 * but nvcc contracts a*b+c into fma, which rounds once instead of twice.  Each step
 * sums ~20 terms of magnitude <= 1, so the two differ by a few units of 2^-24 per
 * step, and the scheme does not amplify differences (its weights sum to 1).  Measured:
 * at most 1.8e-7 between the simulated device and this reference (sizes 1 and 2 with
 * seeds 1 and 7, size 16 with seed 1), and the same between this reference built
 * with and without fma contraction.  The tolerance leaves a 20x margin yet catches a
 * wrong neighbour or coefficient, which moves values by ~1e-2. */
#define WP_TOLERANCE 4e-6f

/* Index of the first point where got and want differ by more than WP_TOLERANCE
 * (or either is not a number), or n. */
static inline size_t wp_first_mismatch(size_t n, const float *got, const float *want) {
    for (size_t p = 0; p < n; p++) {
        float d = got[p] - want[p];
        if (!(d <= WP_TOLERANCE && d >= -WP_TOLERANCE)) return p;
    }
    return n;
}

#endif
