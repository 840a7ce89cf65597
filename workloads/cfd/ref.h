/* cfd: input generation and CPU reference, shared by host.c (C11) and kernel.cu's
 * main (C++).
 *
 * A finite-volume Euler solver on an unstructured mesh in the style of Rodinia's
 * cfd: every cell holds five conserved variables (density, 3-D momentum, energy
 * density) and four faces; a face leads to a neighbour cell (by index), a wall
 * (CFD_WALL) or the far field.  Each iteration computes a local time step per
 * cell, then runs CFD_RK Runge-Kutta stages of (flux, time step):
 *   flux_i = sum over faces of 0.5 (F(U_i) + F(U_nb)) . n  +  viscosity (U_i - U_nb)
 *   U_i    = U_i_old - step_i / (CFD_RK + 1 - stage) * flux_i
 * The mesh is a (64 x ny) grid of cells whose faces get perturbed normals (so it is
 * geometrically irregular), then renumbered by shuffling cells within windows of
 * CFD_SHUFFLE_WINDOW ids, so that neighbours are gathered through the index array
 * from scattered but nearby addresses, as in a real renumbered mesh.  Left/right
 * boundaries are far field, top/bottom are walls.
 *
 * Layout (structure of arrays, stride n = number of cells):
 *   variables[v * n + i]  v = CFD_DENSITY, CFD_MOMENTUM + 0..2, CFD_ENERGY
 *   neighbours[f * n + i] f = 0..3; >= 0: cell id, CFD_WALL, CFD_FAR_FIELD
 *   normals[(f * 3 + d) * n + i]  outward normal of face f scaled by its area
 *
 * --size S means n = 64 * (4S + 1) cells. */
#ifndef WL_CFD_REF_H
#define WL_CFD_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define CFD_BLOCK 128u
#define CFD_NX 64
#define CFD_FACES 4
#define CFD_NVAR 5
#define CFD_DENSITY 0
#define CFD_MOMENTUM 1
#define CFD_ENERGY 4
#define CFD_WALL (-1)
#define CFD_FAR_FIELD (-2)
#define CFD_RK 3                     /* Runge-Kutta stages per iteration */
#define CFD_ITERATIONS 2
#define CFD_SHUFFLE_WINDOW 256
#define CFD_GAMMA 1.4f
#define CFD_SMOOTHING 0.2f           /* artificial viscosity coefficient */
#define CFD_DEFAULT_SIZE 128u
#define CFD_MAX_SIZE 100000u         /* keeps 12 * n below 2^31 */

/* Far-field state: density 1.4, pressure 1, so the speed of sound is 1; velocity
 * (1.2, 0.06, 0) = Mach 1.2 at a small angle of attack.  Energy density =
 * p / (gamma - 1) + 0.5 rho |v|^2 = 2.5 + 0.7 * 1.4436. */
#define CFD_FF_DENSITY 1.4f
#define CFD_FF_VX 1.2f
#define CFD_FF_VY 0.06f
#define CFD_FF_VZ 0.0f
#define CFD_FF_ENERGY (2.5f + 0.7f * 1.4436f)

typedef struct {
    int32_t n;
    float *variables;     /* CFD_NVAR * n, the initial state */
    int32_t *neighbours;  /* CFD_FACES * n */
    float *normals;       /* CFD_FACES * 3 * n */
    float *areas;         /* n: cell sizes, for the local time step */
} cfd_input;

/* The far-field variables and their flux contributions (a 3-vector per variable),
 * in the order the kernel's __constant__ array holds them. */
typedef struct {
    float var[CFD_NVAR];
    float flux[CFD_NVAR][3];
} cfd_far_field;

static inline void cfd_free(cfd_input *in) {
    free(in->variables);
    free(in->neighbours);
    free(in->normals);
    free(in->areas);
    memset(in, 0, sizeof *in);
}

/* ---- the physics, point by point (the kernel writes the same formulas) ---- */
typedef struct {
    float density, momentum[3], energy;
    float velocity[3], speed_sqd, pressure, sound;
    float flux[CFD_NVAR][3];   /* flux contribution of each variable */
} cfd_state;

static inline void cfd_state_of(cfd_state *s, float density, const float *momentum, float energy) {
    s->density = density;
    s->energy = energy;
    for (int d = 0; d < 3; d++) {
        s->momentum[d] = momentum[d];
        s->velocity[d] = momentum[d] / density;
    }
    s->speed_sqd = s->velocity[0] * s->velocity[0] + s->velocity[1] * s->velocity[1] +
                   s->velocity[2] * s->velocity[2];
    s->pressure = (CFD_GAMMA - 1.0f) * (energy - 0.5f * density * s->speed_sqd);
    s->sound = sqrtf(CFD_GAMMA * s->pressure / density);
    for (int d = 0; d < 3; d++) {
        s->flux[CFD_DENSITY][d] = momentum[d];
        for (int m = 0; m < 3; m++)
            s->flux[CFD_MOMENTUM + m][d] = momentum[m] * s->velocity[d] + (m == d ? s->pressure : 0.0f);
        s->flux[CFD_ENERGY][d] = s->velocity[d] * (energy + s->pressure);
    }
}

static inline void cfd_load_state(cfd_state *s, const float *variables, int32_t n, int32_t i) {
    float momentum[3];
    for (int d = 0; d < 3; d++) momentum[d] = variables[(size_t)(CFD_MOMENTUM + d) * n + i];
    cfd_state_of(s, variables[(size_t)CFD_DENSITY * n + i], momentum, variables[(size_t)CFD_ENERGY * n + i]);
}

static inline void cfd_far_field_init(cfd_far_field *ff) {
    cfd_state s;
    float momentum[3] = { CFD_FF_DENSITY * CFD_FF_VX, CFD_FF_DENSITY * CFD_FF_VY, CFD_FF_DENSITY * CFD_FF_VZ };
    cfd_state_of(&s, CFD_FF_DENSITY, momentum, CFD_FF_ENERGY);
    ff->var[CFD_DENSITY] = s.density;
    for (int d = 0; d < 3; d++) ff->var[CFD_MOMENTUM + d] = s.momentum[d];
    ff->var[CFD_ENERGY] = s.energy;
    memcpy(ff->flux, s.flux, sizeof ff->flux);
}

/* ---- input generation ---- */
/* Sets both sides of the face between grid cells a and b (ids in grid order):
 * face fa of a gets normal +n, face fb of b gets -n. */
static inline void cfd_set_face(cfd_input *in, const int32_t *id, int32_t a, int fa, int32_t b, int fb,
                                const float *normal) {
    int32_t n = in->n;
    in->neighbours[(size_t)fa * n + id[a]] = id[b];
    in->neighbours[(size_t)fb * n + id[b]] = id[a];
    for (int d = 0; d < 3; d++) {
        in->normals[(size_t)(fa * 3 + d) * n + id[a]] = normal[d];
        in->normals[(size_t)(fb * 3 + d) * n + id[b]] = -normal[d];
    }
}

static inline void cfd_set_boundary(cfd_input *in, const int32_t *id, int32_t a, int fa, int32_t kind,
                                    const float *normal) {
    int32_t n = in->n;
    in->neighbours[(size_t)fa * n + id[a]] = kind;
    for (int d = 0; d < 3; d++) in->normals[(size_t)(fa * 3 + d) * n + id[a]] = normal[d];
}

/* A face normal along axis (0 = x, 1 = y) with sign, length ~1 +-10%, tilted a little
 * in the other directions. */
static inline void cfd_random_normal(wl_rng *r, int axis, float sign, float *normal) {
    for (int d = 0; d < 3; d++) normal[d] = 0.1f * (wl_rng_float(r) - 0.5f);
    normal[axis] = sign * (0.9f + 0.2f * wl_rng_float(r));
}

/* Faces: 0 = -x, 1 = +x, 2 = -y, 3 = +y.  id[g] is the storage id of grid cell g. */
static inline void cfd_build_mesh(cfd_input *in, wl_rng *r, const int32_t *id, int32_t ny) {
    float normal[3];
    for (int32_t y = 0; y < ny; y++) {
        for (int32_t x = 0; x < CFD_NX; x++) {
            int32_t g = y * CFD_NX + x;
            if (x == 0) {
                cfd_random_normal(r, 0, -1.0f, normal);
                cfd_set_boundary(in, id, g, 0, CFD_FAR_FIELD, normal);
            }
            cfd_random_normal(r, 0, 1.0f, normal);
            if (x == CFD_NX - 1) cfd_set_boundary(in, id, g, 1, CFD_FAR_FIELD, normal);
            else cfd_set_face(in, id, g, 1, g + 1, 0, normal);
            if (y == 0) {
                cfd_random_normal(r, 1, -1.0f, normal);
                cfd_set_boundary(in, id, g, 2, CFD_WALL, normal);
            }
            cfd_random_normal(r, 1, 1.0f, normal);
            if (y == ny - 1) cfd_set_boundary(in, id, g, 3, CFD_WALL, normal);
            else cfd_set_face(in, id, g, 3, g + CFD_NX, 2, normal);
        }
    }
}

/* Storage ids: grid order with each window of CFD_SHUFFLE_WINDOW ids shuffled. */
static inline void cfd_renumber(wl_rng *r, int32_t *id, int32_t n) {
    for (int32_t g = 0; g < n; g++) id[g] = g;
    for (int32_t base = 0; base < n; base += CFD_SHUFFLE_WINDOW) {
        int32_t len = n - base < CFD_SHUFFLE_WINDOW ? n - base : CFD_SHUFFLE_WINDOW;
        for (int32_t k = len - 1; k > 0; k--) {
            int32_t j = (int32_t)wl_rng_below(r, (uint32_t)k + 1);
            int32_t t = id[base + k];
            id[base + k] = id[base + j];
            id[base + j] = t;
        }
    }
}

/* Far-field flow with the density and energy perturbed by up to +-5% per cell. */
static inline void cfd_initial_flow(cfd_input *in, wl_rng *r) {
    cfd_far_field ff;
    cfd_far_field_init(&ff);
    for (int32_t i = 0; i < in->n; i++) {
        for (int v = 0; v < CFD_NVAR; v++) in->variables[(size_t)v * in->n + i] = ff.var[v];
        in->variables[(size_t)CFD_DENSITY * in->n + i] *= 0.95f + 0.1f * wl_rng_float(r);
        in->variables[(size_t)CFD_ENERGY * in->n + i] *= 0.95f + 0.1f * wl_rng_float(r);
        in->areas[i] = 0.9f + 0.2f * wl_rng_float(r);
    }
}

/* Fills in; returns 0, or -1 when out of memory or size is too large (in is then empty). */
static inline int cfd_generate(cfd_input *in, uint32_t size, uint64_t seed) {
    wl_rng r;
    memset(in, 0, sizeof *in);
    if (size < 1 || size > CFD_MAX_SIZE) return -1;
    int32_t ny = (int32_t)(4u * size + 1u);
    int32_t n = CFD_NX * ny;
    in->n = n;
    in->variables = (float *)malloc((size_t)n * CFD_NVAR * sizeof(float));
    in->neighbours = (int32_t *)malloc((size_t)n * CFD_FACES * sizeof(int32_t));
    in->normals = (float *)malloc((size_t)n * CFD_FACES * 3 * sizeof(float));
    in->areas = (float *)malloc((size_t)n * sizeof(float));
    int32_t *id = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    if (!in->variables || !in->neighbours || !in->normals || !in->areas || !id) {
        free(id);
        cfd_free(in);
        return -1;
    }
    wl_rng_seed(&r, seed);
    cfd_renumber(&r, id, n);
    cfd_build_mesh(in, &r, id, ny);
    cfd_initial_flow(in, &r);
    free(id);
    return 0;
}

/* ---- reference solver ---- */
static inline float cfd_step_factor_of(const float *variables, const float *areas, int32_t n, int32_t i) {
    cfd_state s;
    cfd_load_state(&s, variables, n, i);
    return 0.5f / (sqrtf(areas[i]) * (sqrtf(s.speed_sqd) + s.sound));
}

/* flux[v] of cell i (the kernel's cfd_compute_flux for one thread). */
static inline void cfd_flux_of(const cfd_input *in, const cfd_far_field *ff, const float *variables, int32_t i,
                               float *flux) {
    int32_t n = in->n;
    cfd_state s, nb;
    cfd_load_state(&s, variables, n, i);
    float speed = sqrtf(s.speed_sqd);
    for (int v = 0; v < CFD_NVAR; v++) flux[v] = 0.0f;
    for (int f = 0; f < CFD_FACES; f++) {
        float normal[3];
        for (int d = 0; d < 3; d++) normal[d] = in->normals[(size_t)(f * 3 + d) * n + i];
        int32_t j = in->neighbours[(size_t)f * n + i];
        if (j >= 0) {
            cfd_load_state(&nb, variables, n, j);
            float len = sqrtf(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
            float visc = len * CFD_SMOOTHING * 0.5f * (speed + sqrtf(nb.speed_sqd) + s.sound + nb.sound);
            flux[CFD_DENSITY] += visc * (s.density - nb.density);
            for (int m = 0; m < 3; m++) flux[CFD_MOMENTUM + m] += visc * (s.momentum[m] - nb.momentum[m]);
            flux[CFD_ENERGY] += visc * (s.energy - nb.energy);
            for (int d = 0; d < 3; d++) {
                float half = 0.5f * normal[d];
                for (int v = 0; v < CFD_NVAR; v++) flux[v] += half * (s.flux[v][d] + nb.flux[v][d]);
            }
        } else if (j == CFD_WALL) {
            for (int d = 0; d < 3; d++) flux[CFD_MOMENTUM + d] += normal[d] * s.pressure;
        } else {
            for (int d = 0; d < 3; d++) {
                float half = 0.5f * normal[d];
                for (int v = 0; v < CFD_NVAR; v++) flux[v] += half * (s.flux[v][d] + ff->flux[v][d]);
            }
        }
    }
}

/* Runs CFD_ITERATIONS iterations from in->variables; the result goes to out
 * (CFD_NVAR * n floats).  Returns 0, or -1 when out of memory. */
static inline int cfd_reference(const cfd_input *in, float *out) {
    int32_t n = in->n;
    size_t nv = (size_t)n * CFD_NVAR;
    float *old = (float *)malloc(nv * sizeof(float));
    float *fluxes = (float *)malloc(nv * sizeof(float));
    float *step = (float *)malloc((size_t)n * sizeof(float));
    if (!old || !fluxes || !step) {
        free(old); free(fluxes); free(step);
        return -1;
    }
    cfd_far_field ff;
    cfd_far_field_init(&ff);
    memcpy(out, in->variables, nv * sizeof(float));
    for (int it = 0; it < CFD_ITERATIONS; it++) {
        memcpy(old, out, nv * sizeof(float));
        for (int32_t i = 0; i < n; i++) step[i] = cfd_step_factor_of(out, in->areas, n, i);
        for (int stage = 0; stage < CFD_RK; stage++) {
            for (int32_t i = 0; i < n; i++) {
                float flux[CFD_NVAR];
                cfd_flux_of(in, &ff, out, i, flux);
                for (int v = 0; v < CFD_NVAR; v++) fluxes[(size_t)v * n + i] = flux[v];
            }
            for (int32_t i = 0; i < n; i++) {
                float factor = step[i] / (float)(CFD_RK + 1 - stage);
                for (int v = 0; v < CFD_NVAR; v++)
                    out[(size_t)v * n + i] = old[(size_t)v * n + i] - factor * fluxes[(size_t)v * n + i];
            }
        }
    }
    free(old); free(fluxes); free(step);
    return 0;
}

/* The state stays in [-0.1, 4]; device and CPU evaluate the same formulas (div and
 * sqrt are correctly rounded on both), but nvcc contracts a*b+c into fma, so results
 * differ in the last bits of each flux and the differences propagate through the
 * 2 x 3 RK stages.  Measured |got - want| / (1 + |want|): at most 1.1e-7 between the
 * simulated device and this reference at sizes 1, 2 (seeds 1, 7) and 128, and 1.6e-7
 * between this reference built with and without fma contraction at sizes 1, 2 and
 * 128.  The tolerance, 2e-6 * (1 + |expected|), leaves a 10x margin; a wrong
 * neighbour, normal or sign moves values by 1e-3 or more. */
#define CFD_TOLERANCE 2e-6f

/* Index of the first value where got and want differ by more than the tolerance
 * (or either is not a number), or count. */
static inline size_t cfd_first_mismatch(size_t count, const float *got, const float *want) {
    for (size_t k = 0; k < count; k++) {
        float d = got[k] - want[k];
        float limit = CFD_TOLERANCE * (1.0f + fabsf(want[k]));
        if (!(d <= limit && d >= -limit)) return k;
    }
    return count;
}

#endif
