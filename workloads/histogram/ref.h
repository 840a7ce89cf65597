/* histogram: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The input is a stream of 8-bit samples packed four to a 32-bit word (byte 0 is the
 * first sample), like the pixel data histogram codes read.  Samples follow a bounded
 * random walk (smooth image rows) with runs of one repeated value, so a warp's
 * atomics often hit the same few bins: the contention real histograms see. */
#ifndef WL_HISTOGRAM_REF_H
#define WL_HISTOGRAM_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define HIST_BINS 256
#define HIST_BLOCK 256u         /* threads per CTA */
#define HIST_MAX_BLOCKS 120u    /* at most this many CTAs... */
#define HIST_MIN_WORDS_PER_THREAD 4u  /* ...and enough words for every thread to loop */
#define HIST_WORDS_PER_SIZE 8192u

/* words = 8192 * size + 7 (4 samples each; not a multiple of the grid) */
static inline uint32_t hist_num_words(uint32_t size) { return HIST_WORDS_PER_SIZE * size + 7u; }

static inline uint32_t hist_num_blocks(uint32_t words) {
    uint32_t per_block = HIST_BLOCK * HIST_MIN_WORDS_PER_THREAD;
    uint32_t blocks = (words + per_block - 1) / per_block;
    return blocks < HIST_MAX_BLOCKS ? blocks : HIST_MAX_BLOCKS;
}

/* Returns the packed samples (NULL on out-of-memory); the caller frees them. */
static inline uint32_t *hist_generate(uint32_t words, uint64_t seed) {
    wl_rng r;
    uint32_t *data = (uint32_t *)malloc((size_t)words * sizeof(uint32_t));
    if (!data) return NULL;
    wl_rng_seed(&r, seed);
    int value = 128;
    uint32_t run = 0;  /* samples left in the current run of one repeated value */
    for (uint32_t w = 0; w < words; w++) {
        uint32_t word = 0;
        for (int b = 0; b < 4; b++) {
            if (run > 0) {
                run--;
            } else if (wl_rng_below(&r, 100) < 2) {
                run = 16 + wl_rng_below(&r, 240);
                value = (int)wl_rng_below(&r, HIST_BINS);
            } else {
                value += (int)wl_rng_below(&r, 9) - 4;
                if (value < 0) value = -value;
                if (value > 255) value = 510 - value;
            }
            word |= (uint32_t)value << (8 * b);
        }
        data[w] = word;
    }
    return data;
}

static inline void hist_reference(const uint32_t *data, uint32_t words, uint32_t *hist) {
    memset(hist, 0, HIST_BINS * sizeof(uint32_t));
    for (uint32_t w = 0; w < words; w++)
        for (int b = 0; b < 4; b++) hist[(data[w] >> (8 * b)) & 0xffu]++;
}

#endif
