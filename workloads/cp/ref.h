/* cp: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Coulombic potential (ISPASS-2009 / Parboil CP): the electrostatic potential of a
 * set of point charges is summed directly, sum_i q_i / r_i, at every point of a 2-D
 * slice of a 3-D lattice (the step a molecular-dynamics code uses to place ions).
 * The atoms are stored as (x, y, dz^2, q): the slice's z is fixed, so each atom's
 * squared z distance is computed once on the host, as the original does.  Atoms go to
 * the GPU in chunks of CP_CHUNK through constant memory, one launch per chunk, each
 * launch adding its chunk's potential into the grid (the original's structure, with a
 * 64-atom chunk instead of 4000 so that several launches happen at simulation sizes).
 *
 * Input model (Parboil's): atoms uniformly placed over the slice's x-y extent with
 * partial charges uniform in [-1, 1); here each atom also sits 0.3..4 Angstrom above
 * or below the slice (a slice through a molecule; it keeps 1/r bounded).  Lattice
 * spacing 0.1 Angstrom as in the original.  Size S: a 256 x 24*S point slice and 24*S
 * atoms, so the work grows as S^2; the default S = 8 is 256 x 192 points, 192 atoms
 * (the original: 768 x 768 points, 40000 atoms).
 *
 * The check.  The reference mirrors the kernel's float arithmetic for the coordinates
 * and r^2 (the same fmaf calls in the same order) and then sums q / sqrt(r^2) in double.
 * The GPU's rsqrtf is an approximation with relative error below 2^-22.9 (PTX ISA,
 * rsqrt.approx.f32) and each of its n accumulating fmas rounds once (relative 2^-24
 * of the running sum); one more add per launch accumulates into the grid.  The
 * classical bound for recursive summation then gives
 *     |got - exact| <= (n + launches + 2) * 2^-24 * sum_i |q_i / r_i|,
 * which the tolerance used, 2 * (n + 8) * 2^-24 * sum_i |q_i / r_i|, covers with room
 * (launches = n / 64 rounded up); an atom dropped
 * or misplaced moves the sum by about sum|q/r| / n, hundreds of times more.  On locsim
 * the largest difference at the default size is 0.4% of the tolerance (seeds 1, 7). */
#ifndef WL_CP_REF_H
#define WL_CP_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define CP_MAX_SIZE 64u
#define CP_BX 16u          /* threads per CTA along x (Parboil's BLOCKSIZEX) */
#define CP_BY 8u           /* threads per CTA along y */
#define CP_UNROLL 8u       /* points per thread along x, CP_BX apart (coalesced stores) */
#define CP_CHUNK 64u       /* atoms per launch (constant memory) */
#define CP_SPACING 0.1f    /* lattice spacing, Angstrom */
#define CP_WIDTH 256u      /* points along x: 2 CTAs of CP_BX * CP_UNROLL */

static inline uint32_t cp_height(uint32_t size) { return 24u * size; }
static inline uint32_t cp_atoms(uint32_t size) { return 24u * size; }

/* Atoms as 4 floats each: x, y, dz^2, q.  NULL on out-of-memory. */
static inline float *cp_generate(uint32_t natoms, uint32_t w, uint32_t h, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *atoms = (float *)malloc((size_t)natoms * 4 * sizeof(float));
    if (!atoms) return NULL;
    float ex = CP_SPACING * (float)w, ey = CP_SPACING * (float)h;
    for (uint32_t i = 0; i < natoms; i++) {
        float dz = 0.3f + 3.7f * wl_rng_float(&r); /* above or below: only dz^2 matters */
        atoms[4 * i + 0] = ex * wl_rng_float(&r);
        atoms[4 * i + 1] = ey * wl_rng_float(&r);
        atoms[4 * i + 2] = dz * dz;
        atoms[4 * i + 3] = 2.0f * wl_rng_float(&r) - 1.0f;
    }
    return atoms;
}

/* r^2 from point (xi, yi) to atom a, with the kernel's float operations:
 * the point's x is xi0 + k * CP_BX where xi0 is the thread's first point. */
static inline float cp_r2(const float *a, uint32_t xi0, uint32_t k, uint32_t yi) {
    float cx = CP_SPACING * (float)xi0, cy = CP_SPACING * (float)yi;
    float step = CP_SPACING * (float)CP_BX;
    float dy = cy - a[1];
    float dyz = fmaf(dy, dy, a[2]);
    float dx = fmaf((float)k, step, cx - a[0]);
    return fmaf(dx, dx, dyz);
}

/* The potential at every point (exact sum in double of the float-r^2 terms) and the
 * allowed difference per point (see above).  pot and tol are w * h. */
static inline void cp_reference(const float *atoms, uint32_t natoms, uint32_t w, uint32_t h, double *pot,
                                double *tol) {
    double ulps = 2.0 * ((double)natoms + 8.0) / 16777216.0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            /* the thread that owns x: its first point and which of its CP_UNROLL points */
            uint32_t span = CP_BX * CP_UNROLL;
            uint32_t xi0 = x / span * span + x % CP_BX, k = x % span / CP_BX;
            double sum = 0.0, mag = 0.0;
            for (uint32_t i = 0; i < natoms; i++) {
                const float *a = atoms + 4 * i;
                double term = (double)a[3] / sqrt((double)cp_r2(a, xi0, k, y));
                sum += term;
                mag += fabs(term);
            }
            pot[(size_t)y * w + x] = sum;
            tol[(size_t)y * w + x] = ulps * mag;
        }
}

/* Index of the first point where got is off by more than tol, or -1. */
static inline int64_t cp_first_bad(const float *got, const double *pot, const double *tol, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!(fabs((double)got[i] - pot[i]) <= tol[i])) return (int64_t)i;
    return -1;
}

#endif
