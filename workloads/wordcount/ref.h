/* wordcount: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * MapReduce-style word count (the Mars WordCount problem): every word of a text is
 * mapped to (word, 1) and the pairs are reduced into one count per distinct word.
 * On the GPU the reduction is a global hash table updated with atomics: a word's
 * 64-bit FNV-1a hash is its key, claimed in an open-addressing table by atomicCAS,
 * and its count bumped by atomicAdd.
 *
 * The text is 64 KB * size of English-like prose (wl_text.h) over a vocabulary of
 * WC_VOCAB distinct words of 3..10 letters: 1 MB at the default size 16, about
 * 150 thousand words, up to WC_VOCAB distinct.  A word is a maximal run of letters.
 *
 * Where a word lands in the table depends on the order the atomics arrive in, so
 * the table is not read back as it is: a second kernel looks up a list of query
 * words (every distinct word of the text in first-occurrence order, then every
 * vocabulary word that does not occur) and returns their counts, which do not
 * depend on that order.  The reference counts by comparing the words themselves,
 * not their hashes. */
#ifndef WL_WORDCOUNT_REF_H
#define WL_WORDCOUNT_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_text.h"

#define WC_VOCAB 4096u
#define WC_TABLE 16384u           /* slots: a power of two, >= 2 * the distinct words */
#define WC_SEG 128u               /* text bytes each map thread starts words in */
#define WC_BLOCK 128u             /* threads per CTA */
#define WC_MAX_SIZE 2048u         /* 128 MB */

static inline uint32_t wc_text_len(uint32_t size) { return 65536u * size; }

static inline int wc_letter(uint8_t c) { return c >= 'a' && c <= 'z'; }

/* A word's table key: its FNV-1a hash, 0 (the empty slot) moved to 1. */
static inline uint64_t wc_key(const uint8_t *s, uint32_t len) {
    uint64_t h = wl_fnv1a(s, len);
    return h ? h : 1;
}

/* Returns the text and fills *vocab (free it with wl_vocab_free); NULL on
 * out-of-memory, with nothing left to free. */
static inline uint8_t *wc_generate(uint32_t n, uint64_t seed, wl_vocab *vocab) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    uint8_t *text = (uint8_t *)malloc(n);
    if (!wl_vocab_make(vocab, &r, WC_VOCAB, 3, 10, 26) || !text) {
        wl_vocab_free(vocab);
        free(text);
        return NULL;
    }
    wl_text_fill(vocab, &r, text, n);
    return text;
}

/* The expected answer: query keys and their counts, and the number of distinct words. */
typedef struct {
    uint32_t queries, distinct;
    uint64_t *keys;
    uint32_t *counts;
} wc_answer;

static inline void wc_answer_free(wc_answer *a) {
    free(a->keys);
    free(a->counts);
}

/* Host-side word -> index map that compares the words themselves. */
typedef struct {
    uint32_t off, len, index;     /* first occurrence in the text, index in the answer; len 0 = empty */
} wc_slot;

static inline uint32_t wc_find(wc_slot *slots, uint32_t mask, const uint8_t *text, const uint8_t *w, uint32_t len) {
    uint32_t s = (uint32_t)wl_fnv1a(w, len) & mask;
    while (slots[s].len && (slots[s].len != len || memcmp(text + slots[s].off, w, len) != 0)) s = (s + 1) & mask;
    return s;
}

/* Counts the words of text (first-occurrence order), then adds the vocabulary
 * words that do not occur with count 0.  0 on out-of-memory. */
static inline int wc_reference(const uint8_t *text, uint32_t n, const wl_vocab *vocab, wc_answer *a) {
    const uint32_t max = (n / 2 + 1) + vocab->count; /* words in the text, at most, plus the vocabulary */
    uint32_t cap = 1;
    while (cap < 2 * max) cap *= 2;
    wc_slot *slots = (wc_slot *)calloc(cap, sizeof(wc_slot));
    a->keys = (uint64_t *)malloc(max * sizeof(uint64_t));
    a->counts = (uint32_t *)malloc(max * sizeof(uint32_t));
    a->queries = a->distinct = 0;
    if (!slots || !a->keys || !a->counts) {
        free(slots);
        return 0;
    }
    for (uint32_t i = 0; i < n;) {
        if (!wc_letter(text[i])) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j < n && wc_letter(text[j])) j++;
        uint32_t s = wc_find(slots, cap - 1, text, text + i, j - i);
        if (!slots[s].len) {
            slots[s] = (wc_slot){ i, j - i, a->queries };
            a->keys[a->queries] = wc_key(text + i, j - i);
            a->counts[a->queries++] = 0;
        }
        a->counts[slots[s].index]++;
        i = j;
    }
    a->distinct = a->queries;
    for (uint32_t v = 0; v < vocab->count; v++) {
        const uint8_t *w = (const uint8_t *)wl_vocab_word(vocab, v);
        uint32_t len = (uint32_t)strlen((const char *)w);
        if (slots[wc_find(slots, cap - 1, text, w, len)].len) continue;
        a->keys[a->queries] = wc_key(w, len);
        a->counts[a->queries++] = 0;
    }
    free(slots);
    return 1;
}

#endif
