/* kmeans: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Points have KMEANS_FEATURES float features stored point-major (features[p * F + f]),
 * the layout of the original data files: each GPU thread walks its own point's
 * features, so neighbouring threads touch addresses F * 4 bytes apart.  Points are
 * drawn around KMEANS_TRUE_CLUSTERS hidden centres with overlapping noise, so
 * memberships keep moving for a few iterations.
 *
 * Distances are computed as sum over f of (p_f - c_f)^2 accumulated in feature order
 * with fmaf, here and in the kernel: the reference performs exactly the GPU's
 * float operations, so memberships can be compared exactly (ties go to the
 * lower cluster index in both). */
#ifndef WL_KMEANS_REF_H
#define WL_KMEANS_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define KMEANS_FEATURES 34        /* features per point */
#define KMEANS_CLUSTERS 5         /* k */
#define KMEANS_TRUE_CLUSTERS 7    /* hidden centres the points are drawn around */
#define KMEANS_ITERATIONS 3       /* assign + update rounds */
#define KMEANS_BLOCK 128u         /* threads per CTA */

/* points = 300 * size + 13 (not a multiple of a CTA) */
static inline uint32_t kmeans_num_points(uint32_t size) { return 300u * size + 13u; }

/* Fills features[n * F] and the initial centres[K * F] (K distinct input points).
 * Returns NULL on out-of-memory; the caller frees the result. */
static inline float *kmeans_generate(uint32_t n, uint64_t seed, float *centres) {
    wl_rng r;
    float hidden[KMEANS_TRUE_CLUSTERS][KMEANS_FEATURES];
    float *features = (float *)malloc((size_t)n * KMEANS_FEATURES * sizeof(float));
    if (!features) return NULL;
    wl_rng_seed(&r, seed);
    for (int c = 0; c < KMEANS_TRUE_CLUSTERS; c++)
        for (int f = 0; f < KMEANS_FEATURES; f++) hidden[c][f] = wl_rng_float(&r);
    for (uint32_t p = 0; p < n; p++) {
        int c = (int)wl_rng_below(&r, KMEANS_TRUE_CLUSTERS);
        for (int f = 0; f < KMEANS_FEATURES; f++) {
            /* noise: sum of two uniforms in [-0.25, 0.25) each (triangular) */
            float noise = (wl_rng_float(&r) + wl_rng_float(&r) - 1.0f) * 0.25f;
            features[(size_t)p * KMEANS_FEATURES + f] = hidden[c][f] + noise;
        }
    }
    /* initial centres: K points spread over the input (distinct indices) */
    for (int c = 0; c < KMEANS_CLUSTERS; c++) {
        uint32_t p = (uint32_t)(((uint64_t)n * (uint64_t)c) / KMEANS_CLUSTERS) + wl_rng_below(&r, n / KMEANS_CLUSTERS);
        memcpy(&centres[c * KMEANS_FEATURES], &features[(size_t)p * KMEANS_FEATURES],
               KMEANS_FEATURES * sizeof(float));
    }
    return features;
}

/* Nearest centre of one point, with the kernel's exact float operations. */
static inline int kmeans_nearest(const float *point, const float *centres) {
    int best = 0;
    float best_dist = INFINITY;
    for (int c = 0; c < KMEANS_CLUSTERS; c++) {
        float dist = 0.0f;
        for (int f = 0; f < KMEANS_FEATURES; f++) {
            float diff = point[f] - centres[c * KMEANS_FEATURES + f];
            dist = fmaf(diff, diff, dist);
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    return best;
}

static inline void kmeans_assign_reference(const float *features, uint32_t n, const float *centres,
                                           int32_t *membership) {
    for (uint32_t p = 0; p < n; p++)
        membership[p] = kmeans_nearest(&features[(size_t)p * KMEANS_FEATURES], centres);
}

/* The update step (on the host, as in the classic GPU kmeans): each centre becomes
 * the mean of its members, summed in double in point order; an empty cluster keeps
 * its centre.  Used by both the simulated run and the reference, so equal
 * memberships give bit-identical centres. */
static inline void kmeans_update_centres(const float *features, uint32_t n, const int32_t *membership,
                                         float *centres) {
    double sum[KMEANS_CLUSTERS][KMEANS_FEATURES];
    uint32_t count[KMEANS_CLUSTERS];
    memset(sum, 0, sizeof sum);
    memset(count, 0, sizeof count);
    for (uint32_t p = 0; p < n; p++) {
        int c = membership[p];
        count[c]++;
        for (int f = 0; f < KMEANS_FEATURES; f++) sum[c][f] += features[(size_t)p * KMEANS_FEATURES + f];
    }
    for (int c = 0; c < KMEANS_CLUSTERS; c++)
        if (count[c] > 0)
            for (int f = 0; f < KMEANS_FEATURES; f++)
                centres[c * KMEANS_FEATURES + f] = (float)(sum[c][f] / (double)count[c]);
}

#endif
