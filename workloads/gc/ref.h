/* gc: input generation and CPU reference (C11 and C++).
 *
 * A heap of 32-bit words.  An object at word offset o (o >= 1; offset 0 is the
 * null pointer) has a header word heap[o] = (size in words << 16) | pointer
 * count, then its pointer fields (word offsets of other objects, or 0), then
 * scalar payload words.  The mark bitmap has one bit per heap word.
 *
 * The object graph: objects are allocated in order; about 40% are garbage
 * (whole runs of objects die together, as in real programs, plus scattered
 * ones).  Live objects point only at live objects (60% of pointers at a
 * neighbour allocated nearby, 40% anywhere in the heap), garbage points
 * anywhere; roots are live objects (with repeats).  So everything reachable is
 * live, but not every live object is reachable.
 *
 * --size S means S*16384 + 123 objects.
 */
#ifndef WL_GC_REF_H
#define WL_GC_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define GC_DEFAULT_SIZE 64u
#define GC_MAX_SIZE 1024u
#define GC_BLOCK 256
#define GC_MAX_PTRS 6
#define GC_MAX_SCALARS 4
#define GC_NEAR 32          /* "nearby" = within this many objects */

static inline uint32_t gc_hdr_ptrs(uint32_t hdr) { return hdr & 0xffffu; }
static inline uint32_t gc_hdr_words(uint32_t hdr) { return hdr >> 16; }

typedef struct {
    uint32_t nobj, nroots;
    uint64_t words;         /* heap words in use (including the null word) */
    uint32_t *heap;         /* capacity: gc_heap_capacity(nobj) words */
    uint32_t *roots;        /* nroots word offsets */
} gc_input;

static inline uint32_t gc_nobj(uint32_t size) { return size * 16384u + 123u; }
static inline uint32_t gc_nroots(uint32_t nobj) { return nobj / 512u + 8u; }
static inline uint64_t gc_heap_capacity(uint32_t nobj) {
    return 1u + (uint64_t)nobj * (1u + GC_MAX_PTRS + GC_MAX_SCALARS);
}
static inline uint32_t gc_bitmap_words(uint64_t heap_words) { return (uint32_t)((heap_words + 31) / 32); }

/* Fill in->heap and in->roots (in->nobj and in->nroots set, arrays allocated by
 * the caller).  Returns 0, or -1 if out of host memory. */
static inline int gc_gen(gc_input *in, uint64_t seed) {
    uint32_t n = in->nobj;
    in->words = 0;
    uint32_t *offset = (uint32_t *)malloc((size_t)n * sizeof(uint32_t));
    uint8_t *dead = (uint8_t *)malloc(n);
    if (!offset || !dead) {
        free(offset);
        free(dead);
        return -1;
    }
    wl_rng r;
    wl_rng_seed(&r, seed);

    /* Lay out the objects and decide who is garbage. */
    uint64_t at = 1;
    in->heap[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i % 64 == 0) {
            int run_dies = wl_rng_below(&r, 10) < 3;  /* 30% of 64-object runs die */
            for (uint32_t j = i; j < n && j < i + 64; j++) dead[j] = (uint8_t)run_dies;
        }
        if (wl_rng_below(&r, 7) == 0) dead[i] = 1;  /* plus scattered deaths */
        uint32_t nptrs = wl_rng_below(&r, GC_MAX_PTRS + 1);
        uint32_t words = 1 + nptrs + wl_rng_below(&r, GC_MAX_SCALARS + 1);
        offset[i] = (uint32_t)at;
        in->heap[at] = (words << 16) | nptrs;
        at += words;
    }
    in->words = at;

    /* Fill the fields: pointers, then payload. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = offset[i], hdr = in->heap[o];
        for (uint32_t f = 0; f < gc_hdr_ptrs(hdr); f++) {
            uint32_t target;
            if (wl_rng_below(&r, 10) < 6) {
                uint32_t lo = i >= GC_NEAR ? i - GC_NEAR : 0;
                uint32_t hi = i + GC_NEAR < n ? i + GC_NEAR : n - 1;
                target = lo + wl_rng_below(&r, hi - lo + 1);
            } else {
                target = wl_rng_below(&r, n);
            }
            /* 25% null; a live object never points at garbage. */
            int is_null = wl_rng_below(&r, 4) == 0 || (!dead[i] && dead[target]);
            in->heap[o + 1 + f] = is_null ? 0u : offset[target];
        }
        for (uint32_t w = 1 + gc_hdr_ptrs(hdr); w < gc_hdr_words(hdr); w++)
            in->heap[o + w] = (uint32_t)wl_rng_next(&r);
    }

    /* Roots: random live objects (a few repeats are normal: several stack
     * slots can hold the same reference). */
    for (uint32_t k = 0; k < in->nroots; k++) {
        uint32_t i = wl_rng_below(&r, n);
        while (dead[i]) i = (i + 1) % n;
        in->roots[k] = offset[i];
    }
    free(offset);
    free(dead);
    return 0;
}

/* Mark everything reachable from the roots with a depth-first search.  marks
 * is gc_bitmap_words(in->words) words; *live_words = total size of the marked
 * objects.  Returns the number of marked objects, or -1 if out of memory. */
static inline int64_t gc_ref(const gc_input *in, uint32_t *marks, uint64_t *live_words) {
    uint32_t bitmap_words = gc_bitmap_words(in->words);
    memset(marks, 0, (size_t)bitmap_words * sizeof(uint32_t));
    *live_words = 0;
    uint32_t *stack = (uint32_t *)malloc((size_t)in->nobj * sizeof(uint32_t));
    if (!stack) return -1;
    uint32_t depth = 0;
    int64_t marked = 0;
    for (uint32_t k = 0; k < in->nroots; k++) {
        uint32_t root = in->roots[k];
        if (marks[root >> 5] & (1u << (root & 31))) continue;
        marks[root >> 5] |= 1u << (root & 31);
        stack[depth++] = root;
        while (depth > 0) {
            uint32_t o = stack[--depth], hdr = in->heap[o];
            marked++;
            *live_words += gc_hdr_words(hdr);
            for (uint32_t f = 0; f < gc_hdr_ptrs(hdr); f++) {
                uint32_t p = in->heap[o + 1 + f];
                if (p == 0 || (marks[p >> 5] & (1u << (p & 31)))) continue;
                marks[p >> 5] |= 1u << (p & 31);
                stack[depth++] = p;
            }
        }
    }
    free(stack);
    return marked;
}

#endif
