/* vectoradd: input generation and CPU reference (C11 and C++).
 *
 * --size S means n = S * 50000 + 123 elements per vector (deliberately not a
 * multiple of the block or grid size, so the grid-stride loop has a ragged tail).
 */
#ifndef WL_VECTORADD_REF_H
#define WL_VECTORADD_REF_H

#include <stdint.h>

#include "wl_rng.h"

#define VECTORADD_DEFAULT_SIZE 64u
#define VECTORADD_MAX_SIZE 40000u      /* keeps n below 2^31 (the kernel indexes with int) */
#define VECTORADD_BLOCK 256u
/* A grid-stride kernel is launched with a grid sized to fill the machine, not
 * the data: 120 CTAs = 8 resident CTAs on each of 15 SMs. */
#define VECTORADD_MAX_GRID 120u

static inline uint32_t vectoradd_n(uint32_t size) { return size * 50000u + 123u; }

static inline uint32_t vectoradd_grid(uint32_t n) {
    uint32_t blocks = (n + VECTORADD_BLOCK - 1) / VECTORADD_BLOCK;
    return blocks < VECTORADD_MAX_GRID ? blocks : VECTORADD_MAX_GRID;
}

/* Values in [-32, 32) with 24 random bits: the multiply by 64 is exact, so the
 * input is the same whatever the compiler does with the expression. */
static inline void vectoradd_gen(uint32_t n, uint64_t seed, float *a, float *b) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = wl_rng_float(&r) * 64.0f - 32.0f;
        b[i] = wl_rng_float(&r) * 64.0f - 32.0f;
    }
}

/* One IEEE single-precision addition per element: the GPU's add.f32 rounds the
 * same way, so the check is exact. */
static inline void vectoradd_ref(uint32_t n, const float *a, const float *b, float *c) {
    for (uint32_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

/* Index of the first element where got differs from want, or n. */
static inline uint32_t vectoradd_first_mismatch(uint32_t n, const float *got, const float *want) {
    for (uint32_t i = 0; i < n; i++)
        if (!(got[i] == want[i])) return i;
    return n;
}

#endif
