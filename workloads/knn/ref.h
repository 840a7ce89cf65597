/* knn: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Rodinia's nearest neighbour (nn), the WSMP paper's NN: the distance from a query
 * point to every record of a location database is computed on the GPU, one thread
 * per record, and the host then picks the KNN_K nearest records.  A streaming,
 * memory-bound kernel: 8 bytes read and 4 written per thread, no reuse.
 *
 * Input model (Rodinia's hurricane generator): records at latitude 7..70 and
 * longitude 1..359 degrees, uniform; the query point from the seed in the same range.
 * Size S: 65536*S records; the default S = 16 is 1 M records (8 MB in, 4 MB out;
 * Rodinia's sample input is 42764 records in several files).
 *
 * The distance is sqrtf(fmaf(dx, dx, dy * dy)) in float, here and in the kernel (the
 * fma written out, so that nvcc's own contraction cannot differ): the distances are
 * compared bit for bit, then the host's k nearest. */
#ifndef WL_KNN_REF_H
#define WL_KNN_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define KNN_MAX_SIZE 256u
#define KNN_BLOCK 256u
#define KNN_K 10

static inline uint32_t knn_records(uint32_t size) { return 65536u * size; }

/* Records as (lat, lng) float pairs (NULL on out-of-memory) and the query point. */
static inline float *knn_generate(uint32_t n, uint64_t seed, float *qlat, float *qlng) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *rec = (float *)malloc((size_t)n * 2 * sizeof(float));
    if (!rec) return NULL;
    *qlat = 7.0f + 63.0f * wl_rng_float(&r);
    *qlng = 1.0f + 358.0f * wl_rng_float(&r);
    for (uint32_t i = 0; i < n; i++) {
        rec[2 * i] = 7.0f + 63.0f * wl_rng_float(&r);
        rec[2 * i + 1] = 1.0f + 358.0f * wl_rng_float(&r);
    }
    return rec;
}

#ifdef __CUDACC__
__host__ __device__
#endif
static inline float knn_distance(float lat, float lng, float qlat, float qlng) {
    float dx = qlat - lat, dy = qlng - lng;
    return sqrtf(fmaf(dx, dx, dy * dy));
}

/* The KNN_K smallest distances' record indices, nearest first (ties: lower index). */
static inline void knn_select(const float *dist, uint32_t n, uint32_t *best) {
    for (int k = 0; k < KNN_K; k++) best[k] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        int k = KNN_K;
        while (k > 0 && (best[k - 1] == UINT32_MAX || dist[i] < dist[best[k - 1]])) k--;
        if (k == KNN_K) continue;
        for (int j = KNN_K - 1; j > k; j--) best[j] = best[j - 1];
        best[k] = i;
    }
}

#endif
