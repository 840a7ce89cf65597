/* Deterministic input generation shared by host.c (C) and the stand-alone
 * kernel.cu programs (C++): the same seed gives the same inputs everywhere. */
#ifndef LOCSIM_WL_RNG_H
#define LOCSIM_WL_RNG_H

#include <stdint.h>

typedef struct { uint64_t s; } wl_rng;

static inline void wl_rng_seed(wl_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 1; }

/* splitmix64 */
static inline uint64_t wl_rng_next(wl_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* uniform in [0, n) */
static inline uint32_t wl_rng_below(wl_rng *r, uint32_t n) { return (uint32_t)(wl_rng_next(r) % n); }
/* uniform float in [0, 1) with 24 random bits (exactly representable) */
static inline float wl_rng_float(wl_rng *r) { return (float)(wl_rng_next(r) >> 40) * (1.0f / 16777216.0f); }
static inline double wl_rng_double(wl_rng *r) { return (double)(wl_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

#endif
