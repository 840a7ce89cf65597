/* A growing set of line addresses as a chunked bitmap (see lineset.h). */
#include <stdlib.h>

#include "analysis/lineset.h"

#define WORDS_PER_CHUNK (LINESET_CHUNK_LINES / 64)

typedef struct {
    uint64_t key;     /* chunk number + 1; 0: empty slot */
    uint64_t *bits;   /* WORDS_PER_CHUNK words */
} dir_slot;

struct lineset {
    uint32_t line_shift;
    uint64_t last_key;    /* the chunk found last (0: none) */
    uint64_t *last_bits;
    dir_slot *dir;        /* open addressing, linear probing */
    uint32_t dir_bits;    /* dir has 2^dir_bits slots */
    uint32_t nchunks;
    uint64_t count;
};

static dir_slot *dir_find(dir_slot *dir, uint32_t dir_bits, uint64_t key) {
    uint64_t mask = (1ull << dir_bits) - 1, i = (key * 0x9E3779B97F4A7C15ull) >> (64 - dir_bits);
    while (dir[i].key && dir[i].key != key) i = (i + 1) & mask;
    return &dir[i];
}

lineset *lineset_create(uint32_t line_shift) {
    lineset *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->line_shift = line_shift;
    s->dir_bits = 4;
    s->dir = calloc(1u << s->dir_bits, sizeof *s->dir);
    if (!s->dir) {
        free(s);
        return NULL;
    }
    return s;
}

void lineset_destroy(lineset *s) {
    if (!s) return;
    for (uint64_t i = 0; i < (1ull << s->dir_bits); i++) free(s->dir[i].bits);
    free(s->dir);
    free(s);
}

/* Double the directory (when half full). */
static int dir_grow(lineset *s) {
    uint32_t bits = s->dir_bits + 1;
    dir_slot *d = calloc(1ull << bits, sizeof *d);
    if (!d) return -1;
    for (uint64_t i = 0; i < (1ull << s->dir_bits); i++)
        if (s->dir[i].key) *dir_find(d, bits, s->dir[i].key) = s->dir[i];
    free(s->dir);
    s->dir = d;
    s->dir_bits = bits;
    return 0;
}

/* The bitmap of chunk key, allocated (zeroed) on first use; NULL: out of memory. */
static uint64_t *chunk_of(lineset *s, uint64_t key) {
    dir_slot *e = dir_find(s->dir, s->dir_bits, key);
    if (!e->key) {
        if (2 * (s->nchunks + 1) > (1u << s->dir_bits)) {
            if (dir_grow(s)) return NULL;
            e = dir_find(s->dir, s->dir_bits, key);
        }
        uint64_t *bits = calloc(WORDS_PER_CHUNK, sizeof *bits);
        if (!bits) return NULL;
        e->key = key;
        e->bits = bits;
        s->nchunks++;
    }
    s->last_key = key;
    s->last_bits = e->bits;
    return e->bits;
}

int lineset_add(lineset *s, uint64_t addr) {
    uint64_t line = addr >> s->line_shift, key = (line >> LINESET_CHUNK_BITS) + 1;
    uint64_t *bits = key == s->last_key ? s->last_bits : chunk_of(s, key);
    if (!bits) return -1;
    uint32_t i = (uint32_t)(line & (LINESET_CHUNK_LINES - 1));
    uint64_t bit = 1ull << (i & 63), *w = &bits[i >> 6];
    if (*w & bit) return 0;
    *w |= bit;
    s->count++;
    return 1;
}

uint64_t lineset_count(const lineset *s) { return s->count; }
