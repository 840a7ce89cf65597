/* memc: input generation and CPU reference (C11 and C++).
 *
 * A memcached-style key-value store: items (key up to 32 bytes, 64-bit value)
 * indexed by a set-associative hash table of MEMC_WAYS-way sets.  Each slot holds
 * a 32-bit signature (the key's full hash; 0 = empty) and an item index.  Keys are
 * hashed with Bob Jenkins' one-at-a-time hash (what memcached used originally).
 *
 * A batch of GET requests: 90% ask for stored keys, with a skewed popularity
 * (rank = floor(u^3 * nkeys): the hottest 1% of keys draw about a fifth of the
 * requests); 10% ask for keys never stored.  Keys that lost their slot when
 * their set overflowed at insertion miss too, as evicted items do in memcached.
 *
 * --size S means S*2048 stored keys and S*2048+77 requests.
 */
#ifndef WL_MEMC_REF_H
#define WL_MEMC_REF_H

#include <stdint.h>
#include <string.h>

#include "wl_rng.h"

#define MEMC_DEFAULT_SIZE 64u
#define MEMC_MAX_SIZE 16384u
#define MEMC_BLOCK 128
#define MEMC_KEY_MAX 32
#define MEMC_WAYS 8

typedef struct {
    uint32_t keylen;
    uint32_t flags;
    uint64_t value;
    uint8_t key[MEMC_KEY_MAX];
} memc_item;                     /* 48 bytes */

typedef struct {
    uint32_t sig;                /* full hash of the key, never 0; 0 = empty slot */
    uint32_t item;
} memc_slot;                     /* a set of MEMC_WAYS slots is one 64-byte line */

typedef struct {
    uint32_t keylen;
    uint8_t key[MEMC_KEY_MAX];
} memc_request;                  /* 36 bytes */

typedef struct {
    uint32_t nkeys, nreq, nsets;
    memc_item *items;            /* nkeys */
    memc_slot *table;            /* nsets * MEMC_WAYS */
    memc_request *reqs;          /* nreq */
} memc_input;

static inline uint32_t memc_nkeys(uint32_t size) { return size * 2048u; }
static inline uint32_t memc_nreq(uint32_t size) { return size * 2048u + 77u; }
/* Power-of-two set count for a load of 3/8 .. 3/4 of the slots. */
static inline uint32_t memc_nsets(uint32_t nkeys) {
    uint32_t sets = 1;
    while (sets * 6u < nkeys) sets <<= 1;
    return sets;
}

/* Jenkins one-at-a-time; the device computes exactly the same function. */
static inline uint32_t memc_hash(const uint8_t *key, uint32_t len) {
    uint32_t h = 0;
    for (uint32_t i = 0; i < len; i++) {
        h += key[i];
        h += h << 10;
        h ^= h >> 6;
    }
    h += h << 3;
    h ^= h >> 11;
    h += h << 15;
    return h;
}
static inline uint32_t memc_signature(uint32_t h) { return h ? h : 1u; }

/* splitmix64's finaliser: a bijection, so distinct ids give distinct keys. */
static inline uint64_t memc_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Key number id: "key:" + 16 hex digits identifying it + 0..8 filler letters
 * (so lengths vary from 20 to 28 bytes).  Returns the length. */
static inline uint32_t memc_make_key(uint64_t id, uint64_t seed, uint8_t *key) {
    static const char hex[] = "0123456789abcdef";
    uint64_t bits = memc_mix(id ^ (seed * 0x9E3779B97F4A7C15ull));
    uint32_t len = 0;
    key[len++] = 'k';
    key[len++] = 'e';
    key[len++] = 'y';
    key[len++] = ':';
    for (int i = 0; i < 16; i++) key[len++] = (uint8_t)hex[(bits >> (4 * i)) & 15];
    for (uint64_t i = 0; i < id % 9; i++) key[len++] = (uint8_t)('a' + (id + i) % 26);
    return len;
}

/* Insert every key (items[id] is key id); a full set evicts a way chosen by id. */
static inline void memc_build(memc_input *in, uint64_t seed) {
    memset(in->table, 0, (size_t)in->nsets * MEMC_WAYS * sizeof(memc_slot));
    memset(in->items, 0, (size_t)in->nkeys * sizeof(memc_item));
    for (uint32_t id = 0; id < in->nkeys; id++) {
        memc_item *it = &in->items[id];
        it->keylen = memc_make_key(id, seed, it->key);
        it->flags = id & 0xffu;
        it->value = memc_mix((uint64_t)id * 0x5851F42D4C957F2Dull + seed) | 1u;
        uint32_t h = memc_hash(it->key, it->keylen);
        memc_slot *set = in->table + (size_t)(h & (in->nsets - 1)) * MEMC_WAYS;
        uint32_t way = id % MEMC_WAYS;
        for (uint32_t w = 0; w < MEMC_WAYS; w++) {
            if (set[w].sig == 0) {
                way = w;
                break;
            }
        }
        set[way].sig = memc_signature(h);
        set[way].item = id;
    }
}

static inline void memc_gen_requests(memc_input *in, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed ^ 0x6d656d63ull);
    memset(in->reqs, 0, (size_t)in->nreq * sizeof(memc_request));
    for (uint32_t q = 0; q < in->nreq; q++) {
        uint64_t id;
        if (wl_rng_below(&r, 10) == 0) {
            id = (uint64_t)in->nkeys + wl_rng_below(&r, in->nkeys);  /* never stored */
        } else {
            double u = wl_rng_double(&r);
            uint32_t rank = (uint32_t)(u * u * u * (double)in->nkeys);
            /* Scatter popularity over the item array: multiplying by a prime
             * larger than nkeys permutes 0..nkeys-1. */
            id = ((uint64_t)rank * 2654435761ull) % in->nkeys;
        }
        in->reqs[q].keylen = memc_make_key(id, seed, in->reqs[q].key);
    }
}

/* The GET the kernel performs, on the host: value and hit flag per request. */
static inline void memc_ref(const memc_input *in, uint64_t *values, uint32_t *hits) {
    for (uint32_t q = 0; q < in->nreq; q++) {
        const memc_request *req = &in->reqs[q];
        uint32_t h = memc_hash(req->key, req->keylen);
        const memc_slot *set = in->table + (size_t)(h & (in->nsets - 1)) * MEMC_WAYS;
        values[q] = 0;
        hits[q] = 0;
        for (uint32_t w = 0; w < MEMC_WAYS; w++) {
            if (set[w].sig != memc_signature(h)) continue;
            const memc_item *it = &in->items[set[w].item];
            if (it->keylen == req->keylen && memcmp(it->key, req->key, req->keylen) == 0) {
                values[q] = it->value;
                hits[q] = 1;
                break;
            }
        }
    }
}

#endif
