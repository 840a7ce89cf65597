/* Sharers per cache block (see sharers.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/sharers.h"

struct sharers {
    uint32_t words;          /* 64-bit mask words per line */
    uint32_t line_shift;
    uint32_t num_sms;
    uint64_t cap;            /* slots, a power of two */
    uint64_t used;
    uint64_t *key;           /* line + 1; 0 = empty */
    uint64_t *mask;          /* cap * words */
    uint64_t *slots;         /* indices of the used slots, for a cheap clear */
};

static uint64_t hash_line(uint64_t line) { return line * 0x9E3779B97F4A7C15ull; }

static int alloc_table(sharers *t, uint64_t cap) {
    t->key = calloc(cap, sizeof *t->key);
    t->mask = calloc(cap * t->words, sizeof *t->mask);
    t->slots = malloc(cap / 2 * sizeof *t->slots);
    if (!t->key || !t->mask || !t->slots) {
        free(t->key), free(t->mask), free(t->slots);
        return -1;
    }
    t->cap = cap;
    return 0;
}

sharers *sharers_create(uint32_t num_sms, uint32_t line_shift) {
    sharers *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->num_sms = num_sms;
    t->words = (num_sms + 63) / 64;
    t->line_shift = line_shift;
    if (alloc_table(t, 1024)) {
        free(t);
        return NULL;
    }
    return t;
}

void sharers_destroy(sharers *t) {
    if (!t) return;
    free(t->key);
    free(t->mask);
    free(t->slots);
    free(t);
}

/* The slot of key k (line + 1): where it is or where it would go. */
static uint64_t find_slot(const sharers *t, uint64_t k) {
    uint64_t i = hash_line(k) & (t->cap - 1);
    while (t->key[i] && t->key[i] != k) i = (i + 1) & (t->cap - 1);
    return i;
}

static int grow(sharers *t) {
    sharers old = *t;
    if (alloc_table(t, old.cap * 2)) {
        *t = old;
        return -1;
    }
    t->used = 0;
    for (uint64_t n = 0; n < old.used; n++) {
        uint64_t o = old.slots[n], i = find_slot(t, old.key[o]);
        t->key[i] = old.key[o];
        memcpy(&t->mask[i * t->words], &old.mask[o * t->words], t->words * sizeof *t->mask);
        t->slots[t->used++] = i;
    }
    free(old.key), free(old.mask), free(old.slots);
    return 0;
}

int sharers_record(sharers *t, uint64_t addr, uint32_t sm) {
    if (sm >= t->num_sms) return 0;
    uint64_t k = (addr >> t->line_shift) + 1;
    uint64_t i = find_slot(t, k);
    int fresh = !t->key[i];
    if (fresh) {
        if (t->used + 1 > t->cap / 2) {
            if (grow(t)) return -1;
            i = find_slot(t, k);
        }
        t->key[i] = k;
        t->slots[t->used++] = i;
    }
    t->mask[i * t->words + sm / 64] |= 1ull << (sm % 64);
    return fresh;
}

void sharers_kernel_end(sharers *t, uint64_t *lines, uint64_t *sm_lines) {
    for (uint64_t n = 0; n < t->used; n++) {
        uint64_t i = t->slots[n];
        for (uint32_t w = 0; w < t->words; w++) {
            *sm_lines += (uint64_t)__builtin_popcountll(t->mask[i * t->words + w]);
            t->mask[i * t->words + w] = 0;
        }
        t->key[i] = 0;
    }
    *lines += t->used;
    t->used = 0;
}
