/* pagewalk: input generation and CPU reference (C11 and C++).
 *
 * A microbenchmark for the L2 prefetchers (docs/wsmp.md, "SPP coverage"):
 * every warp walks its own region of PAGEWALK_LINES 128 B lines in order, one
 * whole line per load (32 lanes x 4 B), so each warp's stream moves through
 * 4 KB pages one line at a time -- the access pattern a per-warp signature path
 * prefetcher is built to learn.  Each lane folds the words it read into a hash
 * (s = s * 31 + x, in order), which the CPU recomputes.
 *
 * --size S means S * 64 warps (S * 16 CTAs of 128 threads) and S * 64 x 32 KB of input.
 */
#ifndef WL_PAGEWALK_REF_H
#define WL_PAGEWALK_REF_H

#include <stddef.h>
#include <stdint.h>

#include "wl_rng.h"

#define PAGEWALK_DEFAULT_SIZE 1u
#define PAGEWALK_MAX_SIZE 256u         /* 1 GB of input at most */
#define PAGEWALK_BLOCK 128u
#define PAGEWALK_LINES 2048u           /* lines per warp: 256 KB, 64 pages of 4 KB */
#define PAGEWALK_WORDS_PER_LINE 32u

static inline uint32_t pagewalk_warps(uint32_t size) { return size * 16u; }
static inline size_t pagewalk_words(uint32_t size) {
    return (size_t)pagewalk_warps(size) * PAGEWALK_LINES * PAGEWALK_WORDS_PER_LINE;
}

static inline void pagewalk_gen(size_t n, uint64_t seed, uint32_t *in) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) in[i] = (uint32_t)(wl_rng_next(&r) >> 32);
}

/* out[w * 32 + lane]: lane's hash over word lane of each line of warp w's region. */
static inline void pagewalk_ref(uint32_t warps, const uint32_t *in, uint32_t *out) {
    for (uint32_t w = 0; w < warps; w++)
        for (uint32_t lane = 0; lane < 32; lane++) {
            const uint32_t *p = in + (size_t)w * PAGEWALK_LINES * PAGEWALK_WORDS_PER_LINE + lane;
            uint32_t s = 0;
            for (uint32_t i = 0; i < PAGEWALK_LINES; i++) s = s * 31u + p[(size_t)i * PAGEWALK_WORDS_PER_LINE];
            out[w * 32 + lane] = s;
        }
}

/* Index of the first word where got differs from want, or n. */
static inline uint32_t pagewalk_first_mismatch(uint32_t n, const uint32_t *got, const uint32_t *want) {
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != want[i]) return i;
    return n;
}

#endif
