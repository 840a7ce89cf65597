/* hybridsort: input generation, splitters and CPU reference (shared by host.c and
 * kernel.cu's main).
 *
 * Rodinia's hybrid sort structure: a bucket sort by splitters, then a sort of every
 * bucket.  hy_count histograms the keys into buckets (each CTA in shared memory with
 * shared atomics, found by a binary search of the splitters), hy_offsets turns the
 * per-CTA counts into each CTA's write cursor per bucket (a prefix sum), hy_scatter
 * moves every key to its bucket with shared atomic cursors, and hy_sort sorts each
 * bucket in shared memory, one CTA per bucket (bitonic; Rodinia merge-sorts float4
 * runs there).  The result is the whole array in order.
 *
 * Input model: uniform random floats in [0, 1) (Rodinia's generator).  The splitters
 * are quantiles of a random sample of HY_OVERSAMPLE keys per bucket (sample sort's
 * rule; Rodinia refines pivots from a histogram), so buckets hold about HY_AVG keys
 * each, a bucket above HY_CAP (2 x HY_AVG, over 8 standard deviations away) being
 * reported as an error before anything runs.  Size S: 4096*S keys in 16*S buckets; the
 * default S = 10 is 40960 keys (160 KB) in 160 buckets.
 *
 * The check: the output equals the CPU's sort of the input, bit for bit. */
#ifndef WL_HYBRIDSORT_REF_H
#define WL_HYBRIDSORT_REF_H

#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define HY_MAX_SIZE 64u       /* 1024 buckets: hy_offsets' one CTA */
#define HY_AVG 256u           /* keys per bucket on average */
#define HY_CAP 512u           /* keys a bucket may hold (hy_sort's shared tile) */
#define HY_OVERSAMPLE 64u     /* sample keys per bucket for the splitters */
#define HY_BLOCK 256u         /* hy_count / hy_scatter threads per CTA */
#define HY_PER_THREAD 4u      /* keys per thread there */
#define HY_SORT_BLOCK 128u    /* hy_sort threads per CTA */

static inline uint32_t hy_keys(uint32_t size) { return 4096u * size; }
static inline uint32_t hy_buckets(uint32_t size) { return 16u * size; }
static inline uint32_t hy_blocks(uint32_t size) { return hy_keys(size) / (HY_BLOCK * HY_PER_THREAD); }

static inline int hy_cmp(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* n keys (NULL on out-of-memory) and buckets - 1 ascending splitters in sp. */
static inline float *hy_generate(uint32_t n, uint32_t buckets, uint64_t seed, float *sp) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    float *keys = (float *)malloc((size_t)n * sizeof(float));
    uint32_t ns = buckets * HY_OVERSAMPLE;
    float *sample = (float *)malloc((size_t)ns * sizeof(float));
    if (!keys || !sample) {
        free(keys);
        free(sample);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) keys[i] = wl_rng_float(&r);
    for (uint32_t i = 0; i < ns; i++) sample[i] = keys[wl_rng_below(&r, n)];
    qsort(sample, ns, sizeof(float), hy_cmp);
    for (uint32_t b = 1; b < buckets; b++) sp[b - 1] = sample[b * HY_OVERSAMPLE];
    free(sample);
    return keys;
}

/* The bucket of x: how many splitters are <= x (binary search, as the kernels do). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline uint32_t hy_bucket(const float *sp, uint32_t buckets, float x) {
    uint32_t lo = 0, hi = buckets - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (x < sp[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* The largest bucket's size (to refuse inputs that do not fit HY_CAP). */
static inline uint32_t hy_largest_bucket(const float *keys, uint32_t n, const float *sp, uint32_t buckets,
                                         uint32_t *which) {
    uint32_t *count = (uint32_t *)calloc(buckets, sizeof(uint32_t)), best = 0;
    if (!count) return UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) count[hy_bucket(sp, buckets, keys[i])]++;
    for (uint32_t b = 0; b < buckets; b++)
        if (count[b] > best) { best = count[b]; *which = b; }
    free(count);
    return best;
}

#endif
