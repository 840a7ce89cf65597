/* hotspot: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * A compact thermal RC model of a square silicon die split into n x n cells: each
 * cell exchanges heat with its four neighbours (lateral conductance), with the
 * ambient through the heat sink (vertical conductance), and receives its share of
 * the dissipated power.  Explicit Euler step:
 *   T' = T + cp*P + cy*(T_N + T_S - 2T) + cx*(T_E + T_W - 2T) + cz*(T_amb - T)
 * At the die edge a missing neighbour is the cell itself (no heat flows out sideways).
 * The coefficients come from the physical constants below; the time step is half
 * the explicit stability limit, so all weights are non-negative and sum to <= 1. */
#ifndef WL_HOTSPOT_REF_H
#define WL_HOTSPOT_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define HOTSPOT_TILE 16        /* CTA = 16 x 16 threads, one cell each, halo included */
#define HOTSPOT_PYRAMID 2      /* time steps per launch (ghost zone of 2 cells) */
#define HOTSPOT_STEPS 5        /* total time steps: launches of 2, 2 and 1 steps */
#define HOTSPOT_HOT_BLOCKS 6   /* functional units with high power density */

#define HOTSPOT_CHIP_SIDE 0.016     /* m */
#define HOTSPOT_THICKNESS 0.0005    /* m */
#define HOTSPOT_K_SI 100.0          /* W/(m K), silicon near operating temperature */
#define HOTSPOT_CV_SI 1.75e6        /* J/(m^3 K), volumetric heat capacity of silicon */
#define HOTSPOT_H_SINK 2.0e4        /* W/(m^2 K), effective die-to-ambient through the sink */
#define HOTSPOT_TOTAL_POWER 100.0   /* W */
#define HOTSPOT_AMBIENT 318.15f     /* K */

typedef struct {
    float cx, cy, cz, cp, amb;
} hotspot_coeffs;

/* side = 24 * size + 5 cells (not a multiple of the 12-cell output tile) */
static inline int32_t hotspot_side(uint32_t size) { return (int32_t)(24u * size + 5u); }

static inline hotspot_coeffs hotspot_coefficients(int32_t n) {
    double dx = HOTSPOT_CHIP_SIDE / n, dy = dx;
    double gx = HOTSPOT_K_SI * HOTSPOT_THICKNESS * dy / dx;  /* W/K to an east/west neighbour */
    double gy = HOTSPOT_K_SI * HOTSPOT_THICKNESS * dx / dy;  /* W/K to a north/south neighbour */
    double gz = HOTSPOT_H_SINK * dx * dy;                    /* W/K to the ambient */
    double cap = HOTSPOT_CV_SI * HOTSPOT_THICKNESS * dx * dy; /* J/K */
    double dt = 0.5 * cap / (2.0 * gx + 2.0 * gy + gz);      /* half the stability limit */
    hotspot_coeffs c;
    c.cx = (float)(dt * gx / cap);
    c.cy = (float)(dt * gy / cap);
    c.cz = (float)(dt * gz / cap);
    c.cp = (float)(dt / cap);
    c.amb = HOTSPOT_AMBIENT;
    return c;
}

/* Fills power (W per cell) and the initial temperatures (K), n*n each, row-major. */
static inline void hotspot_generate(int32_t n, uint64_t seed, float *power, float *temp) {
    wl_rng r;
    int32_t hot[HOTSPOT_HOT_BLOCKS][4];  /* row0, col0, rows, cols */
    double per_cell = HOTSPOT_TOTAL_POWER / ((double)n * n);
    wl_rng_seed(&r, seed);
    for (int b = 0; b < HOTSPOT_HOT_BLOCKS; b++) {
        hot[b][2] = 1 + (int32_t)wl_rng_below(&r, (uint32_t)n / 4 + 1);
        hot[b][3] = 1 + (int32_t)wl_rng_below(&r, (uint32_t)n / 4 + 1);
        hot[b][0] = (int32_t)wl_rng_below(&r, (uint32_t)(n - hot[b][2] + 1));
        hot[b][1] = (int32_t)wl_rng_below(&r, (uint32_t)(n - hot[b][3] + 1));
    }
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = 0; j < n; j++) {
            double density = 0.5;
            for (int b = 0; b < HOTSPOT_HOT_BLOCKS; b++)
                if (i >= hot[b][0] && i < hot[b][0] + hot[b][2] && j >= hot[b][1] && j < hot[b][1] + hot[b][3])
                    density += 4.0;
            double jitter = 0.8 + 0.4 * wl_rng_double(&r);
            power[(size_t)i * n + j] = (float)(density * jitter * per_cell);
            temp[(size_t)i * n + j] = HOTSPOT_AMBIENT + 10.0f + 5.0f * wl_rng_float(&r);
        }
    }
}

/* One time step of the whole die, in the kernel's operation order. */
static inline void hotspot_step_reference(int32_t n, const hotspot_coeffs *c, const float *power,
                                          const float *in, float *out) {
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = 0; j < n; j++) {
            size_t k = (size_t)i * n + j;
            float t = in[k];
            float tn = i > 0 ? in[k - n] : t, ts = i < n - 1 ? in[k + n] : t;
            float tw = j > 0 ? in[k - 1] : t, te = j < n - 1 ? in[k + 1] : t;
            float delta = c->cp * power[k] + c->cy * (tn + ts - 2.0f * t) + c->cx * (te + tw - 2.0f * t) +
                          c->cz * (c->amb - t);
            out[k] = t + delta;
        }
    }
}

/* HOTSPOT_STEPS steps from temp (overwritten with the result); scratch has n*n floats. */
static inline void hotspot_reference(int32_t n, const hotspot_coeffs *c, const float *power, float *temp,
                                     float *scratch) {
    for (int s = 0; s < HOTSPOT_STEPS; s++) {
        hotspot_step_reference(n, c, power, temp, scratch);
        memcpy(temp, scratch, (size_t)n * n * sizeof(float));
    }
}

/* Tolerance (K).  In one step each side rounds T_N + T_S, T_E + T_W, T_amb - T and
 * T + delta (error <= u*2*Tmax each, weighted by cx, cy <= 1/4 or 1 for the last)
 * plus roundings of small terms; the difference between two evaluation orders
 * (fma contraction in the kernel, none here) is below 6*u*Tmax per step.  The step
 * is a convex combination (weights >= 0, sum <= 1), so earlier errors do not grow:
 * after S steps the error is below S*6*u*Tmax.  We allow S*16*u*Tmax. */
static inline float hotspot_tolerance(float t_max) {
    return (float)(HOTSPOT_STEPS * 16.0 * (1.0 / 16777216.0) * t_max);
}

/* Index of the first cell out of tolerance, or -1. */
static inline int64_t hotspot_first_mismatch(int32_t n, const float *got, const float *expected) {
    float t_max = 0.0f;
    for (size_t k = 0; k < (size_t)n * n; k++)
        if (fabsf(expected[k]) > t_max) t_max = fabsf(expected[k]);
    float tol = hotspot_tolerance(t_max);
    for (size_t k = 0; k < (size_t)n * n; k++)
        if (!(fabsf(got[k] - expected[k]) <= tol)) return (int64_t)k;
    return -1;
}

#endif
