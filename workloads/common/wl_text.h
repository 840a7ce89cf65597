/* English-like text for the text-processing workloads (strmatch, wordcount):
 * a vocabulary of made-up words used with Zipf frequencies (the word of rank r has
 * weight 1/(r+1), as word frequencies in real prose), separated by spaces, with a
 * full stop and a newline closing each sentence of 5..19 words.
 * Shared by host.c (C) and the stand-alone kernel.cu programs (C++). */
#ifndef LOCSIM_WL_TEXT_H
#define LOCSIM_WL_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define WL_WORD_MAX 11            /* letters per word, at most (10) + NUL */

typedef struct {
    uint32_t count;               /* words */
    char *words;                  /* word i at words[i * WL_WORD_MAX], NUL-terminated */
    double *cdf;                  /* cumulative Zipf weights */
} wl_vocab;

static inline uint64_t wl_fnv1a(const uint8_t *s, uint32_t len) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < len; i++) h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

/* count distinct words of min_len..max_len (<= 10) letters from the first
 * `letters` of 'a'..'z'; 0 on out-of-memory (free with wl_vocab_free). */
static inline int wl_vocab_make(wl_vocab *v, wl_rng *r, uint32_t count, uint32_t min_len, uint32_t max_len,
                                uint32_t letters) {
    uint32_t slots = 1;
    while (slots < 2 * count) slots *= 2;
    v->count = count;
    v->words = (char *)calloc(count, WL_WORD_MAX);
    v->cdf = (double *)malloc(count * sizeof(double));
    uint64_t *seen = (uint64_t *)calloc(slots, sizeof(uint64_t)); /* hash set of the words so far */
    if (!v->words || !v->cdf || !seen) {
        free(seen);
        return 0;
    }
    double acc = 0.0;
    for (uint32_t i = 0; i < count; i++) {
        char *w = &v->words[(size_t)i * WL_WORD_MAX];
        for (;;) { /* draw until the word is new */
            uint32_t len = min_len + wl_rng_below(r, max_len - min_len + 1);
            for (uint32_t j = 0; j < len; j++) w[j] = (char)('a' + wl_rng_below(r, letters));
            w[len] = 0;
            uint64_t h = wl_fnv1a((const uint8_t *)w, len) | 1;
            uint32_t s = (uint32_t)h & (slots - 1);
            while (seen[s] && seen[s] != h) s = (s + 1) & (slots - 1);
            if (!seen[s]) {
                seen[s] = h;
                break;
            }
        }
        v->cdf[i] = acc += 1.0 / (double)(i + 1);
    }
    free(seen);
    return 1;
}

static inline void wl_vocab_free(wl_vocab *v) {
    free(v->words);
    free(v->cdf);
}

static inline const char *wl_vocab_word(const wl_vocab *v, uint32_t i) { return &v->words[(size_t)i * WL_WORD_MAX]; }

/* A word index drawn with the Zipf weights. */
static inline uint32_t wl_vocab_pick(const wl_vocab *v, wl_rng *r) {
    double u = wl_rng_double(r) * v->cdf[v->count - 1];
    uint32_t lo = 0, hi = v->count - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (v->cdf[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Fills text[n] with prose; the last word may be cut by the end. */
static inline void wl_text_fill(const wl_vocab *v, wl_rng *r, uint8_t *text, uint32_t n) {
    uint32_t pos = 0, in_sentence = 0, sentence_len = 5 + wl_rng_below(r, 15);
    while (pos < n) {
        const char *w = wl_vocab_word(v, wl_vocab_pick(v, r));
        for (size_t j = 0; w[j] && pos < n; j++) text[pos++] = (uint8_t)w[j];
        if (++in_sentence == sentence_len) {
            if (pos < n) text[pos++] = '.';
            if (pos < n) text[pos++] = '\n';
            in_sentence = 0;
            sentence_len = 5 + wl_rng_below(r, 15);
        } else if (pos < n) {
            text[pos++] = ' ';
        }
    }
}

#endif
