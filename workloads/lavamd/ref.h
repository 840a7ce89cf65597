/* lavamd: input generation and CPU reference (C11 and C++).
 *
 * lavaMD-style particle interactions: space is a cube of boxes1d^3 unit boxes,
 * each holding LAVAMD_PAR particles.  A particle interacts with the particles of
 * its own box and of the (up to 26) adjacent boxes that lie within the cutoff
 * radius: v_ij = exp(-a2 r_ij^2), potential += q_j v_ij, force += q_j 2 v_ij d_ij.
 *
 * Positions are box coordinates plus multiples of 1/64, so every difference,
 * square and r^2 below is exact in float: the cutoff test decides the same way
 * on the GPU (whatever fused multiply-adds nvcc forms) and here.
 *
 * --size S means boxes1d = S + 1, i.e. (S+1)^3 boxes of LAVAMD_PAR particles.
 */
#ifndef WL_LAVAMD_REF_H
#define WL_LAVAMD_REF_H

#include <math.h>
#include <stdint.h>

#include "wl_rng.h"

#define LAVAMD_DEFAULT_SIZE 5u
#define LAVAMD_MAX_SIZE 63u
#define LAVAMD_PAR 24          /* particles per box */
#define LAVAMD_BLOCK 32        /* threads per box: one warp, the last 8 lanes idle in the math */
#define LAVAMD_MAX_NBRS 27     /* the box itself and its 26 neighbours */
#define LAVAMD_A2 0.5f
#define LAVAMD_CUTOFF2 1.44f   /* cutoff radius 1.2 box sides */

/* Particle: x, y, z and charge q (the float4 the kernel loads). */
typedef struct {
    float x, y, z, q;
} lavamd_particle;

/* Per particle: potential and force. */
typedef struct {
    float v, x, y, z;
} lavamd_force;

static inline uint32_t lavamd_boxes1d(uint32_t size) { return size + 1u; }

static inline void lavamd_gen(uint32_t boxes1d, uint64_t seed, lavamd_particle *p) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    uint32_t nboxes = boxes1d * boxes1d * boxes1d;
    for (uint32_t b = 0; b < nboxes; b++) {
        float bx = (float)(b % boxes1d), by = (float)(b / boxes1d % boxes1d), bz = (float)(b / (boxes1d * boxes1d));
        for (uint32_t i = 0; i < LAVAMD_PAR; i++) {
            lavamd_particle *q = &p[b * LAVAMD_PAR + i];
            q->x = bx + (float)wl_rng_below(&r, 64) / 64.0f;
            q->y = by + (float)wl_rng_below(&r, 64) / 64.0f;
            q->z = bz + (float)wl_rng_below(&r, 64) / 64.0f;
            q->q = 0.5f + wl_rng_float(&r);
        }
    }
}

/* Neighbour lists as lavaMD builds them on the host: the box itself first, then
 * the adjacent boxes inside the domain, in z-y-x order. */
static inline void lavamd_neighbours(uint32_t boxes1d, int *count, int *list) {
    int n1 = (int)boxes1d;
    for (int bz = 0; bz < n1; bz++)
        for (int by = 0; by < n1; by++)
            for (int bx = 0; bx < n1; bx++) {
                int b = (bz * n1 + by) * n1 + bx, c = 0;
                list[b * LAVAMD_MAX_NBRS + c++] = b;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int x = bx + dx, y = by + dy, z = bz + dz;
                            if ((dx | dy | dz) == 0 || x < 0 || y < 0 || z < 0 || x >= n1 || y >= n1 || z >= n1)
                                continue;
                            list[b * LAVAMD_MAX_NBRS + c++] = (z * n1 + y) * n1 + x;
                        }
                count[b] = c;
            }
}

/* Reference in double.  For each output component also the bound a correct
 * float computation must meet.
 *
 * Why this tolerance: the GPU computes each term in float: expf (CUDA: <= 2 ulp),
 * a2*r^2 (one rounding, which moves exp by < 1 ulp since a2 r^2 < 1), the product
 * with d and the fused multiply-add with q: under 8 units of u = 2^-24 relative
 * per term; summing n terms in float adds at most n u times the sum of their
 * magnitudes.  So |gpu - exact| <= (n + 8) u sum|terms|; we allow (n + 16).  A
 * missing, repeated or misplaced interaction is off by a whole term, which the
 * random charges and positions make much larger than that except for nearly
 * vanishing terms. */
static inline void lavamd_ref(uint32_t boxes1d, const lavamd_particle *p, const int *count, const int *list,
                              double *want, double *tol) {
    uint32_t nboxes = boxes1d * boxes1d * boxes1d;
    double u = ldexp(1.0, -24);
    for (uint32_t b = 0; b < nboxes; b++) {
        for (uint32_t i = 0; i < LAVAMD_PAR; i++) {
            const lavamd_particle *me = &p[b * LAVAMD_PAR + i];
            double acc[4] = {0, 0, 0, 0}, mag[4] = {0, 0, 0, 0};
            uint32_t terms = 0;
            for (int k = 0; k < count[b]; k++) {
                const lavamd_particle *other = &p[list[b * LAVAMD_MAX_NBRS + k] * LAVAMD_PAR];
                for (uint32_t j = 0; j < LAVAMD_PAR; j++) {
                    float dx = other[j].x - me->x, dy = other[j].y - me->y, dz = other[j].z - me->z;
                    float r2 = dx * dx + dy * dy + dz * dz;  /* exact, see above */
                    if (!(r2 < LAVAMD_CUTOFF2)) continue;
                    double vij = exp(-(double)LAVAMD_A2 * (double)r2), q = (double)other[j].q;
                    double t[4] = {q * vij, q * 2.0 * vij * dx, q * 2.0 * vij * dy, q * 2.0 * vij * dz};
                    for (int c = 0; c < 4; c++) {
                        acc[c] += t[c];
                        mag[c] += fabs(t[c]);
                    }
                    terms++;
                }
            }
            for (int c = 0; c < 4; c++) {
                want[(b * LAVAMD_PAR + i) * 4 + c] = acc[c];
                tol[(b * LAVAMD_PAR + i) * 4 + c] = (double)(terms + 16) * u * mag[c];
            }
        }
    }
}

/* First float (of 4 per particle) outside its tolerance, or count. */
static inline uint32_t lavamd_first_mismatch(uint32_t count, const float *got, const double *want,
                                             const double *tol) {
    for (uint32_t i = 0; i < count; i++)
        if (!(fabs((double)got[i] - want[i]) <= tol[i])) return i;
    return count;
}

#endif
