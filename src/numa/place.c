/* The placement policies' registry and shared helpers (numa.h). */
#include <string.h>

#include "numa/numa.h"

extern const numa_place_ops numa_place_xor, numa_place_first_touch, numa_place_ldesc;

static const numa_place_ops *const places[] = {&numa_place_xor, &numa_place_first_touch, &numa_place_ldesc};

const numa_place_ops *numa_place_find(const char *name) {
    for (size_t i = 0; i < sizeof places / sizeof *places; i++)
        if (!strcmp(places[i]->name, name)) return places[i];
    return NULL;
}

const numa_place_ops *numa_place_at(uint32_t i) { return i < sizeof places / sizeof *places ? places[i] : NULL; }

uint32_t numa_xor_zone(uint64_t addr, uint32_t zone_bits) {
    uint64_t x = addr >> 7, mask = (1ull << zone_bits) - 1;
    uint32_t z = 0;
    for (; x; x >>= zone_bits) z ^= (uint32_t)(x & mask);
    return z;
}

uint64_t numa_squeeze(uint64_t addr, uint32_t bit, uint32_t n) {
    uint64_t low = addr & ((1ull << bit) - 1);
    return (addr >> (bit + n)) << bit | low;
}

/* offsets o in [0, x) with bits [b, b + zb) of o equal to z */
static uint64_t below(uint64_t x, uint32_t b, uint32_t zb, uint32_t z) {
    uint64_t chunk = 1ull << b, period = chunk << zb;
    uint64_t n = x / period * chunk, rem = x % period, start = (uint64_t)z * chunk;
    if (rem > start) n += rem - start < chunk ? rem - start : chunk;
    return n;
}

uint64_t numa_bytes_in_zone(uint64_t lo, uint64_t hi, uint32_t b, uint32_t zone_bits, uint32_t z) {
    return hi > lo ? below(hi, b, zone_bits, z) - below(lo, b, zone_bits, z) : 0;
}
