/* Sharers per cache block (see sharers.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/sharers.h"

/* Speed: the table is probed once per L2 request, and most probes miss the host
 * cache.  Each entry keeps its key and its SM mask side by side (one cache line,
 * not two), and neighbouring lines of the address space land in neighbouring
 * slots (groups of 2^group_shift entries share one 64-byte host line), so a
 * stream of requests to consecutive lines touches a new host line only every
 * few lines.  Only the placement changed: what is counted does not depend on
 * where an entry sits. */
/* Notes per batch: enough misses in flight to overlap most of their latency,
 * few enough that the prefetched lines are still in the host cache when the
 * records reach them. */
#define SHARERS_BATCH 16

struct sharers {
    uint32_t words;          /* 64-bit mask words per line */
    uint32_t stride;         /* 1 + words: uint64 per entry (key, then mask) */
    uint32_t group_shift;    /* log2 of the entries that share a 64-byte host line */
    uint32_t line_shift;
    uint32_t num_sms;
    uint32_t cap_bits;       /* cap = 2^cap_bits */
    uint64_t cap;            /* slots, a power of two */
    uint64_t used;
    uint64_t *tab;           /* cap * stride: key (line + 1, 0 = empty), mask words */
    uint64_t *slots;         /* indices of the used slots, for a cheap clear */
    /* sharers_note's batch: recorded when full and at kernel end */
    uint32_t npend;
    uint32_t pend_sm[SHARERS_BATCH];
    uint64_t pend_addr[SHARERS_BATCH];
};

/* Where key k's probe starts: a Fibonacci hash of k's group of neighbouring
 * lines picks the group's place, k's low bits its entry within it. */
static uint64_t home_slot(const sharers *t, uint64_t k) {
    uint32_t g = t->group_shift;
    uint64_t group = ((k >> g) * 0x9E3779B97F4A7C15ull) >> (64 - (t->cap_bits - g));
    return (group << g) | (k & ((1ull << g) - 1));
}

static uint64_t *entry(const sharers *t, uint64_t i) { return &t->tab[i * t->stride]; }

static int alloc_table(sharers *t, uint32_t cap_bits) {
    uint64_t cap = 1ull << cap_bits;
    size_t bytes = (size_t)(cap * t->stride * sizeof *t->tab);
    t->tab = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    t->slots = malloc(cap / 2 * sizeof *t->slots);
    if (!t->tab || !t->slots) {
        free(t->tab), free(t->slots);
        return -1;
    }
    memset(t->tab, 0, bytes);
    t->cap = cap;
    t->cap_bits = cap_bits;
    return 0;
}

sharers *sharers_create(uint32_t num_sms, uint32_t line_shift) {
    sharers *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->num_sms = num_sms;
    t->words = (num_sms + 63) / 64;
    t->stride = 1 + t->words;
    t->group_shift = t->stride <= 2 ? 2 : t->stride <= 4 ? 1 : 0;
    t->line_shift = line_shift;
    if (alloc_table(t, 10)) {
        free(t);
        return NULL;
    }
    return t;
}

void sharers_destroy(sharers *t) {
    if (!t) return;
    free(t->tab);
    free(t->slots);
    free(t);
}

/* The slot of key k (line + 1): where it is or where it would go. */
static uint64_t find_slot(const sharers *t, uint64_t k) {
    uint64_t i = home_slot(t, k);
    for (;;) {
        uint64_t key = *entry(t, i);
        if (!key || key == k) return i;
        i = (i + 1) & (t->cap - 1);
    }
}

static int grow(sharers *t) {
    sharers old = *t;
    if (alloc_table(t, old.cap_bits + 1)) {
        *t = old;
        return -1;
    }
    t->used = 0;
    for (uint64_t n = 0; n < old.used; n++) {
        const uint64_t *o = entry(&old, old.slots[n]);
        uint64_t i = find_slot(t, o[0]);
        memcpy(entry(t, i), o, t->stride * sizeof *t->tab);
        t->slots[t->used++] = i;
    }
    free(old.tab), free(old.slots);
    return 0;
}

int sharers_record(sharers *t, uint64_t addr, uint32_t sm) {
    if (sm >= t->num_sms) return 0;
    uint64_t k = (addr >> t->line_shift) + 1;
    uint64_t i = find_slot(t, k);
    uint64_t *e = entry(t, i);
    int fresh = !e[0];
    if (fresh) {
        if (t->used + 1 > t->cap / 2) {
            if (grow(t)) return -1;
            i = find_slot(t, k);
            e = entry(t, i);
        }
        e[0] = k;
        t->slots[t->used++] = i;
    }
    e[1 + sm / 64] |= 1ull << (sm % 64);
    return fresh;
}

/* Record the pending notes: first touch every one's home slot (a prefetch, no
 * state changes), then record them in order.  A probe that runs past its home
 * slot, or a table that grows in between, only loses the prefetch's benefit. */
static void flush_pending(sharers *t) {
    for (uint32_t n = 0; n < t->npend; n++) {
        uint64_t k = (t->pend_addr[n] >> t->line_shift) + 1;
        __builtin_prefetch(entry(t, home_slot(t, k)), 1);
    }
    for (uint32_t n = 0; n < t->npend; n++) sharers_record(t, t->pend_addr[n], t->pend_sm[n]);
    t->npend = 0;
}

void sharers_note(sharers *t, uint64_t addr, uint32_t sm) {
    t->pend_addr[t->npend] = addr;
    t->pend_sm[t->npend] = sm;
    if (++t->npend == SHARERS_BATCH) flush_pending(t);
}

void sharers_kernel_end(sharers *t, uint64_t *lines, uint64_t *sm_lines) {
    flush_pending(t);
    for (uint64_t n = 0; n < t->used; n++) {
        uint64_t *e = entry(t, t->slots[n]);
        for (uint32_t w = 0; w < t->words; w++) *sm_lines += (uint64_t)__builtin_popcountll(e[1 + w]);
        memset(e, 0, t->stride * sizeof *t->tab);
    }
    *lines += t->used;
    t->used = 0;
}
