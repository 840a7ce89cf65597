/* dp_nbody: input generation and CPU reference (C11 and C++).
 *
 * All-pairs gravitational n-body in double precision with Plummer softening:
 * a_i = sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^(3/2), then a symplectic
 * Euler step v += a dt, x += v dt; NBODY_STEPS steps.
 * --size S means n = 64*S + 45 bodies (never a multiple of the 64-body tile).
 */
#ifndef WL_DP_NBODY_REF_H
#define WL_DP_NBODY_REF_H

#include <math.h>
#include <stdint.h>

#include "wl_rng.h"

#define NBODY_DEFAULT_SIZE 18u
#define NBODY_MAX_SIZE 256u
#define NBODY_TILE 64          /* bodies per shared-memory tile = threads per block */
#define NBODY_STEPS 2
#define NBODY_DT 0.01
#define NBODY_EPS2 0.01        /* softening length 0.1, squared */

/* Structure of arrays, as GPU n-body codes store them (coalesced loads). */
typedef struct {
    uint32_t n;
    double *x, *y, *z, *m;     /* positions, masses */
    double *vx, *vy, *vz;      /* velocities */
} nbody_state;

static inline uint32_t nbody_n(uint32_t size) { return 64u * size + 45u; }

/* Points uniform in the cube [-1, 1)^3, velocities in [-0.1, 0.1), masses in
 * [0.5, 1.5)/n (total mass about 1). */
static inline void nbody_gen(nbody_state *s, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint32_t i = 0; i < s->n; i++) {
        s->x[i] = wl_rng_double(&r) * 2.0 - 1.0;
        s->y[i] = wl_rng_double(&r) * 2.0 - 1.0;
        s->z[i] = wl_rng_double(&r) * 2.0 - 1.0;
        s->m[i] = (0.5 + wl_rng_double(&r)) / (double)s->n;
        s->vx[i] = wl_rng_double(&r) * 0.2 - 0.1;
        s->vy[i] = wl_rng_double(&r) * 0.2 - 0.1;
        s->vz[i] = wl_rng_double(&r) * 0.2 - 0.1;
    }
}

/* ax/ay/az are n doubles of scratch. */
static inline void nbody_ref(nbody_state *s, double *ax, double *ay, double *az) {
    uint32_t n = s->n;
    for (int step = 0; step < NBODY_STEPS; step++) {
        for (uint32_t i = 0; i < n; i++) {
            double sx = 0.0, sy = 0.0, sz = 0.0;
            for (uint32_t j = 0; j < n; j++) {
                double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i], dz = s->z[j] - s->z[i];
                double r2 = dx * dx + dy * dy + dz * dz + NBODY_EPS2;
                double inv_r = 1.0 / sqrt(r2);
                double f = s->m[j] * inv_r * inv_r * inv_r;
                sx += dx * f;
                sy += dy * f;
                sz += dz * f;
            }
            ax[i] = sx;
            ay[i] = sy;
            az[i] = sz;
        }
        for (uint32_t i = 0; i < n; i++) {
            s->vx[i] += ax[i] * NBODY_DT;
            s->vy[i] += ay[i] * NBODY_DT;
            s->vz[i] += az[i] * NBODY_DT;
            s->x[i] += s->vx[i] * NBODY_DT;
            s->y[i] += s->vy[i] * NBODY_DT;
            s->z[i] += s->vz[i] * NBODY_DT;
        }
    }
}

/* Why this tolerance: the GPU evaluates the same formula in the same order in
 * double; it differs from this reference only by fused multiply-adds and rsqrt's
 * last-bit rounding: a few ulps (2^-52) per term, accumulated over n terms.  For
 * these inputs sum_j |m_j d_j| / (r^2 + eps^2)^1.5 is a few units (100 at the very
 * most), so an acceleration is off by < 1e-11 even for n = 16429, a velocity by
 * dt times that, and the second step's sensitivity to position (<= 2/eps^3) keeps
 * positions closer still.  A real error (one interaction missed or counted twice)
 * moves a velocity by dt m_j |d| / (|d|^2 + eps^2)^1.5 >= 4e-4 / n per body, which
 * is 2.5e-8 even at the largest n: 1e-11 relative is far between the two. */
static inline int nbody_close(double got, double want) {
    return fabs(got - want) <= 1e-11 * (fabs(want) + 1.0);
}

#endif
