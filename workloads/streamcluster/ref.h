/* streamcluster: input generation, host-side decisions and CPU reference, shared by
 * host.c (C11) and kernel.cu's main (C++).
 *
 * The facility-location step at the heart of streamcluster's local search: for
 * each candidate point x, every point computes its weighted distance to x
 * (x_cost) and compares it with its current cost.  Points that are cheaper at x
 * would switch to x; for every open centre c the others accumulate how much more
 * they would pay at x if c were closed.  The host sums those per-CTA partials,
 * opens x when that lowers the total cost (facility cost z per centre), closes
 * the centres whose closing pays, and moves the affected points to x.
 *
 * Exact by construction: coordinates are integers in [0, 8), weights integers 1..3,
 * so every distance, cost and partial sum is an integer below 2^24 (checked in
 * the comments below) and float arithmetic is exact in any order, with or without
 * fma.  The device result must equal the CPU's bit for bit.
 *
 * --size S means n = 256*S + 37 points of SC_DIM features. */
#ifndef WL_STREAMCLUSTER_REF_H
#define WL_STREAMCLUSTER_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define SC_DIM 32                /* features per point */
#define SC_BLOCK 128u            /* threads per CTA, one point each */
#define SC_BLOBS 10              /* the points are drawn around this many hidden clusters */
#define SC_INIT_CENTERS 4        /* open centres before the first candidate */
#define SC_CANDIDATES 16         /* candidates evaluated, one pgain launch each */
#define SC_MAX_CENTERS (SC_INIT_CENTERS + SC_CANDIDATES)
#define SC_FACILITY_COST_PER_POINT 20.0  /* z = 20 * n */
#define SC_DEFAULT_SIZE 64u
#define SC_MAX_SIZE 100000u      /* n stays far below 2^31 */

/* Bounds for exactness: |coord diff| <= 7, so a distance is <= 32 * 49 = 1568 and a
 * cost <= 3 * 1568 = 4704; a CTA sums at most 128 of them: 602112 < 2^24. */

typedef struct {
    int32_t n, dim;
    float *coord;                         /* dim-major: coord[d * n + i], so a warp's loads coalesce */
    float *weight;
    int32_t init_centers[SC_INIT_CENTERS];
    int32_t candidates[SC_CANDIDATES];    /* distinct, never an initial centre */
    double z;                             /* cost of keeping a centre open */
} sc_input;

/* The clustering state the host tracks between launches. */
typedef struct {
    int32_t num_centers;
    int32_t centers[SC_MAX_CENTERS];  /* point indices, ascending */
    int32_t *center_table;            /* n entries: dense index of each centre point (others unused, 0) */
} sc_centers;

static inline void sc_free(sc_input *in) {
    free(in->coord);
    free(in->weight);
    memset(in, 0, sizeof *in);
}

static inline int sc_contains(const int32_t *list, int32_t len, int32_t x) {
    for (int32_t i = 0; i < len; i++)
        if (list[i] == x) return 1;
    return 0;
}

/* A point index not yet in list[0..len). */
static inline int32_t sc_fresh_point(wl_rng *r, int32_t n, const int32_t *list, int32_t len) {
    int32_t x;
    do x = (int32_t)wl_rng_below(r, (uint32_t)n);
    while (sc_contains(list, len, x));
    return x;
}

/* Fills in; returns 0, or -1 when out of memory or size is too large (in is then empty). */
static inline int sc_generate(sc_input *in, uint32_t size, uint64_t seed) {
    wl_rng r;
    float blob[SC_BLOBS][SC_DIM];
    memset(in, 0, sizeof *in);
    if (size < 1 || size > SC_MAX_SIZE) return -1;
    in->n = (int32_t)(256u * size + 37u);
    in->dim = SC_DIM;
    in->coord = (float *)malloc((size_t)in->n * SC_DIM * sizeof(float));
    in->weight = (float *)malloc((size_t)in->n * sizeof(float));
    if (!in->coord || !in->weight) {
        sc_free(in);
        return -1;
    }
    wl_rng_seed(&r, seed);
    for (int b = 0; b < SC_BLOBS; b++)
        for (int d = 0; d < SC_DIM; d++) blob[b][d] = (float)wl_rng_below(&r, 8);
    for (int32_t i = 0; i < in->n; i++) {
        int b = (int)wl_rng_below(&r, SC_BLOBS);
        for (int d = 0; d < SC_DIM; d++) {
            float x = blob[b][d] + (float)wl_rng_below(&r, 3) - 1.0f;   /* +-1 around the blob */
            in->coord[(size_t)d * in->n + i] = x < 0.0f ? 0.0f : (x > 7.0f ? 7.0f : x);
        }
        in->weight[i] = (float)(1 + wl_rng_below(&r, 3));
    }
    int32_t chosen[SC_MAX_CENTERS];
    for (int32_t c = 0; c < SC_MAX_CENTERS; c++) chosen[c] = sc_fresh_point(&r, in->n, chosen, c);
    memcpy(in->init_centers, chosen, sizeof in->init_centers);
    memcpy(in->candidates, chosen + SC_INIT_CENTERS, sizeof in->candidates);
    in->z = SC_FACILITY_COST_PER_POINT * in->n;
    return 0;
}

/* Squared distance between points i and j; exact (integers). */
static inline float sc_dist(const sc_input *in, int32_t i, int32_t j) {
    float s = 0.0f;
    for (int d = 0; d < in->dim; d++) {
        float diff = in->coord[(size_t)d * in->n + i] - in->coord[(size_t)d * in->n + j];
        s += diff * diff;
    }
    return s;
}

static inline void sc_rebuild_table(sc_centers *cs) {
    for (int32_t c = 0; c < cs->num_centers; c++) cs->center_table[cs->centers[c]] = c;
}

static inline int sc_cmp_int(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The initial clustering: the SC_INIT_CENTERS centres open, every point assigned to
 * the nearest (ties: the lower point index).  cs->center_table must hold n ints. */
static inline void sc_initial_state(const sc_input *in, sc_centers *cs, int32_t *assign, float *cost) {
    cs->num_centers = SC_INIT_CENTERS;
    memcpy(cs->centers, in->init_centers, sizeof in->init_centers);
    qsort(cs->centers, SC_INIT_CENTERS, sizeof(int32_t), sc_cmp_int);
    memset(cs->center_table, 0, (size_t)in->n * sizeof(int32_t));
    sc_rebuild_table(cs);
    for (int32_t i = 0; i < in->n; i++) {
        float best = 0.0f;
        for (int32_t c = 0; c < cs->num_centers; c++) {
            float d = sc_dist(in, i, cs->centers[c]);
            if (c == 0 || d < best) {
                best = d;
                assign[i] = cs->centers[c];
            }
        }
        cost[i] = best * in->weight[i];
    }
}

/* totals[c], c < k: sum of (cost - x_cost) over the points of centre c that do not
 * switch (<= 0: what they would lose if c closed); totals[k]: sum of (x_cost - cost)
 * over the switching points (<= 0: what they save).  Decides which centres close
 * (closed[c] = 1) and returns 1 when opening x lowers the total cost. */
static inline int sc_decide(const double *totals, int32_t k, double z, uint8_t *closed) {
    double change = z + totals[k];
    for (int32_t c = 0; c < k; c++) {
        double gain = z + totals[c];
        closed[c] = gain > 0.0;
        if (closed[c]) change -= gain;
    }
    return change < 0.0;
}

/* Opens x and drops the closed centres from cs (the points are moved separately). */
static inline void sc_open(sc_centers *cs, int32_t x, const uint8_t *closed) {
    int32_t kept = 0;
    for (int32_t c = 0; c < cs->num_centers; c++)
        if (!closed[c]) cs->centers[kept++] = cs->centers[c];
    cs->centers[kept++] = x;
    cs->num_centers = kept;
    qsort(cs->centers, (size_t)kept, sizeof(int32_t), sc_cmp_int);
    sc_rebuild_table(cs);
}

/* Reference: the whole candidate loop on the CPU.  assign, cost and the centre table
 * hold n entries; totals are summed in double (exact: integers < 2^53).  Returns 0,
 * or -1 when out of memory. */
static inline int sc_reference(const sc_input *in, sc_centers *cs, int32_t *assign, float *cost) {
    float *x_cost = (float *)malloc((size_t)in->n * sizeof(float));
    if (!x_cost) return -1;
    sc_initial_state(in, cs, assign, cost);
    for (int t = 0; t < SC_CANDIDATES; t++) {
        int32_t x = in->candidates[t], k = cs->num_centers;
        double totals[SC_MAX_CENTERS + 1];
        uint8_t closed[SC_MAX_CENTERS];
        for (int32_t c = 0; c <= k; c++) totals[c] = 0.0;
        for (int32_t i = 0; i < in->n; i++) {
            x_cost[i] = sc_dist(in, i, x) * in->weight[i];
            if (x_cost[i] < cost[i]) totals[k] += x_cost[i] - cost[i];
            else totals[cs->center_table[assign[i]]] += cost[i] - x_cost[i];
        }
        if (!sc_decide(totals, k, in->z, closed)) continue;
        for (int32_t i = 0; i < in->n; i++) {
            if (x_cost[i] < cost[i] || closed[cs->center_table[assign[i]]]) {
                assign[i] = x;
                cost[i] = x_cost[i];
            }
        }
        sc_open(cs, x, closed);
    }
    free(x_cost);
    return 0;
}

#endif
