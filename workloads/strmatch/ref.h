/* strmatch: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * String match in the style of the Mars MapReduce benchmark: count how often each
 * of SM_PATTERNS short keys occurs in a large text (every occurrence, overlapping
 * ones too), and find the first occurrence of each.
 *
 * The text is 16 KB * size of English-like prose (wl_text.h: SM_VOCAB made-up
 * words with Zipf frequencies, as in real text), 512 KB at the default size 32.  The keys mix frequent
 * words, rare words, two strings taken across word boundaries and two that never
 * occur (letters the vocabulary does not use), lengths 2..SM_MAX_LEN. */
#ifndef WL_STRMATCH_REF_H
#define WL_STRMATCH_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_text.h"

#define SM_PATTERNS 16
#define SM_MAX_LEN 16             /* bytes per key, at most */
#define SM_VOCAB 1024
#define SM_SEG 128u               /* start positions each thread scans */
#define SM_BLOCK 128u             /* threads per CTA */
#define SM_MAX_SIZE 8192u         /* 128 MB */
#define SM_NONE 0xffffffffu       /* "no occurrence" in first[] */

static inline uint32_t sm_text_len(uint32_t size) { return 16384u * size; }

typedef struct {
    uint8_t key[SM_PATTERNS][SM_MAX_LEN];
    uint32_t len[SM_PATTERNS];
} sm_patterns;

static inline void sm_set_key(sm_patterns *p, int k, const uint8_t *s, uint32_t len) {
    memset(p->key[k], 0, SM_MAX_LEN);
    memcpy(p->key[k], s, len);
    p->len[k] = len;
}

/* Returns the text (n bytes; NULL on out-of-memory) and fills the keys. */
static inline uint8_t *sm_generate(uint32_t n, uint64_t seed, sm_patterns *pat) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    wl_vocab v;
    uint8_t *text = (uint8_t *)malloc(n);
    if (!wl_vocab_make(&v, &r, SM_VOCAB, 2, 9, 22) || !text) { /* 'w'..'z' unused */
        wl_vocab_free(&v);
        free(text);
        return NULL;
    }
    wl_text_fill(&v, &r, text, n);
    for (int k = 0; k < SM_PATTERNS; k++) {
        if (k < 6) { /* frequent words: one of ranks 0..17, distinct */
            const char *w = wl_vocab_word(&v, 3 * (uint32_t)k + wl_rng_below(&r, 3));
            sm_set_key(pat, k, (const uint8_t *)w, (uint32_t)strlen(w));
        } else if (k < 12) { /* rarer words: one of ranks 20..1021, distinct */
            const char *w = wl_vocab_word(&v, 20 + 167 * (uint32_t)(k - 6) + wl_rng_below(&r, 167));
            sm_set_key(pat, k, (const uint8_t *)w, (uint32_t)strlen(w));
        } else if (k < 14) { /* 4..12 bytes copied from the text, across word boundaries */
            uint32_t len = 4 + wl_rng_below(&r, 9);
            sm_set_key(pat, k, text + wl_rng_below(&r, n - len), len);
        } else { /* absent: 'w'..'z' never occur */
            uint8_t s[SM_MAX_LEN];
            uint32_t len = 3 + wl_rng_below(&r, 6);
            for (uint32_t j = 0; j < len; j++) s[j] = (uint8_t)('a' + wl_rng_below(&r, 26));
            s[len / 2] = (uint8_t)('w' + wl_rng_below(&r, 4));
            sm_set_key(pat, k, s, len);
        }
    }
    wl_vocab_free(&v);
    return text;
}

/* Occurrences and first occurrence (SM_NONE if none) of every key. */
static inline void sm_reference(const uint8_t *text, uint32_t n, const sm_patterns *pat, uint32_t *count,
                                uint32_t *first) {
    for (int k = 0; k < SM_PATTERNS; k++) {
        count[k] = 0;
        first[k] = SM_NONE;
        for (uint32_t i = 0; i + pat->len[k] <= n; i++)
            if (memcmp(text + i, pat->key[k], pat->len[k]) == 0) {
                if (count[k]++ == 0) first[k] = i;
            }
    }
}

#endif
