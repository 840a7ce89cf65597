/* lps: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * 3-D Laplace solver (ISPASS-2009 LPS, after Giles' laplace3d): Jacobi iterations of
 * the 7-point Laplace stencil on an nx x ny x nz grid whose boundary values are fixed
 * (Dirichlet).  Each sweep is one launch reading one array and writing the other:
 * every interior point becomes the mean of its six neighbours.
 *
 * Input model (the original's): the boundary holds the temperatures, the interior
 * starts at zero; here the boundary is a smooth seed-dependent profile (a hot face,
 * a cold face and linear sides) instead of the original's constant 1.  The original
 * solves 100^3 points; size S is 64 x 16*S x 32 points (the default S = 8 is
 * 64 x 128 x 32, 1 MB per array) swept LPS_ITERS times.
 *
 * Each new value is ((((W + E) + S) + N) + B) + T) * (1/6) in float, in that order,
 * here and in the kernel: the reference performs the GPU's operations exactly and
 * the result is compared bit for bit. */
#ifndef WL_LPS_REF_H
#define WL_LPS_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define LPS_MAX_SIZE 256u
#define LPS_BX 32u       /* CTA: 32 x 4 threads, one z column each (the original's) */
#define LPS_BY 4u
#define LPS_NX 64u
#define LPS_NZ 32u
#define LPS_ITERS 4      /* Jacobi sweeps, one launch each */
#define LPS_SIXTH (1.0f / 6.0f)

static inline uint32_t lps_ny(uint32_t size) { return 16u * size; }

/* The initial grid (x fastest, then y, then z): boundary profile, zero interior. */
static inline float *lps_generate(uint32_t nx, uint32_t ny, uint32_t nz, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float hot = 1.0f + wl_rng_float(&r), cold = 0.25f * wl_rng_float(&r);
    float *u = (float *)calloc((size_t)nx * ny * nz, sizeof(float));
    if (!u) return NULL;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++) {
                if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1 && k > 0 && k < nz - 1) continue;
                float t = (float)k / (float)(nz - 1); /* linear between the faces */
                float v = cold + (hot - cold) * t;
                if (k == nz - 1) v = hot * (1.0f - 0.5f * (float)i / (float)nx);
                if (k == 0) v = cold;
                u[((size_t)k * ny + j) * nx + i] = v;
            }
    return u;
}

/* One Jacobi sweep from in to out. */
static inline void lps_sweep(const float *in, float *out, uint32_t nx, uint32_t ny, uint32_t nz) {
    size_t plane = (size_t)nx * ny;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++) {
                size_t p = k * plane + (size_t)j * nx + i;
                if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
                    out[p] = in[p];
                    continue;
                }
                float s = in[p - 1] + in[p + 1];
                s = s + in[p - nx];
                s = s + in[p + nx];
                s = s + in[p - plane];
                s = s + in[p + plane];
                out[p] = s * LPS_SIXTH;
            }
}

/* LPS_ITERS sweeps of u (overwritten), using tmp as the other array; returns the
 * array holding the result (u or tmp). */
static inline float *lps_reference(float *u, float *tmp, uint32_t nx, uint32_t ny, uint32_t nz) {
    for (int it = 0; it < LPS_ITERS; it++) {
        lps_sweep(u, tmp, nx, ny, nz);
        float *t = u;
        u = tmp;
        tmp = t;
    }
    return u;
}

#endif
