/* IPOLY hashing (mem/ipoly.h): against the XOR equations GPGPU-Sim 4.x writes
 * out for 16, 32 and 64 entries, the conflict-free property on power-of-two
 * strides, the sizes it refuses; the L2 set index 'P' that uses it; and
 * -gpgpu_memory_partition_indexing 2 on a V100-style map (32 channels x 2
 * slices): one-to-one, invertible, and its refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/addrmap.h"
#include "mem/cache.h"
#include "mem/ipoly.h"

/* The published equations as data: for each output bit, the higher-address
 * bits XORed into it (GPGPU-Sim's src/gpgpu-sim/hashing.cc,
 * ipoly_hash_function, gpgpu-sim_distribution commit 075c194; each output bit
 * is also XORed with the same bit of the index).  -1 ends a list. */
static const int eq16[4][16] = {
    {11, 10, 9, 8, 6, 4, 3, 0, -1}, {12, 8, 7, 6, 5, 3, 1, 0, -1},
    {9, 8, 7, 6, 4, 2, 1, -1},      {10, 9, 8, 7, 5, 3, 2, -1}};
static const int eq32[5][16] = {
    {13, 12, 11, 10, 9, 6, 5, 3, 0, -1}, {14, 13, 12, 11, 10, 7, 6, 4, 1, -1},
    {14, 10, 9, 8, 7, 6, 3, 2, 0, -1},   {11, 10, 9, 8, 7, 4, 3, 1, -1},
    {12, 11, 10, 9, 8, 5, 4, 2, -1}};
static const int eq64[6][16] = {
    {18, 17, 16, 15, 12, 10, 6, 5, 0, -1}, {15, 13, 12, 11, 10, 7, 5, 1, 0, -1},
    {16, 14, 13, 12, 11, 8, 6, 2, 1, -1},  {17, 15, 14, 13, 12, 9, 7, 3, 2, -1},
    {18, 16, 15, 14, 13, 10, 8, 4, 3, -1}, {17, 16, 15, 14, 11, 9, 5, 4, -1}};

static uint32_t by_equations(const int (*eq)[16], uint32_t k, uint64_t high, uint32_t index) {
    uint32_t out = 0;
    for (uint32_t b = 0; b < k; b++) {
        uint32_t v = index >> b & 1;
        for (const int *i = eq[b]; *i >= 0; i++) v ^= (uint32_t)(high >> *i & 1);
        out |= v << b;
    }
    return out;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void check_size(uint32_t n, uint32_t k, const int (*eq)[16]) {
    ipoly h;
    assert_int_equal(ipoly_init(&h, n), 0);
    for (int t = 0; t < 20000; t++) {
        uint64_t high = next_rand();
        uint32_t index = (uint32_t)next_rand() & (n - 1);
        assert_int_equal(ipoly_hash(&h, high, index), by_equations(eq, k, high, index));
    }
    /* each higher bit alone */
    for (uint32_t i = 0; i < 24; i++)
        assert_int_equal(ipoly_hash(&h, 1ull << i, 0), by_equations(eq, k, 1ull << i, 0));
}

static void test_matches_published_equations(void **state) {
    (void)state;
    check_size(16, 4, eq16);
    check_size(32, 5, eq32);
    check_size(64, 6, eq64);
}

/* n lines at a power-of-two stride (in lines) land on n different entries, for
 * every stride whose lines differ only in bits the hash uses. */
static void test_power_of_two_strides_conflict_free(void **state) {
    (void)state;
    const uint32_t ns[3] = {16, 32, 64}, ks[3] = {4, 5, 6}, nhigh[3] = {13, 15, 19};
    for (int s = 0; s < 3; s++) {
        ipoly h;
        assert_int_equal(ipoly_init(&h, ns[s]), 0);
        for (uint32_t j = 0; j <= nhigh[s]; j++) {
            uint64_t seen = 0;
            for (uint64_t i = 0; i < ns[s]; i++) {
                uint64_t line = i << j;
                uint32_t e = ipoly_hash(&h, line >> ks[s], (uint32_t)(line & (ns[s] - 1)));
                seen |= 1ull << e;
            }
            assert_true(seen == (ns[s] == 64 ? ~0ull : (1ull << ns[s]) - 1));
        }
        /* the linear index, by contrast, puts n lines at a stride of n lines
         * all on entry 0 */
        uint64_t linear = 0;
        for (uint64_t i = 0; i < ns[s]; i++) linear |= 1ull << ((i * ns[s]) & (ns[s] - 1));
        assert_true(linear == 1);
    }
}

static void test_refuses_other_sizes(void **state) {
    (void)state;
    ipoly h;
    assert_int_equal(ipoly_init(&h, 8), -1);
    assert_int_equal(ipoly_init(&h, 128), -1);
    assert_int_equal(ipoly_init(&h, 40), -1);
}

/* The L2 set index 'P': a 32-set cache's set of an address is the equation's
 * hash of the line number's index and higher bits. */
static void test_cache_set_index_p(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("S:32:128:24,L:B:m:L:P,A:192:4,32:0,32", &g, err, sizeof err), 0);
    assert_int_equal(g.index, CACHE_INDEX_IPOLY);
    cache *c = cache_create(&g, "l2", err, sizeof err);
    assert_non_null(c);
    for (int t = 0; t < 2000; t++) {
        uint64_t addr = next_rand() & ((1ull << 40) - 1);
        uint64_t line = addr >> 7;
        assert_int_equal(cache_set_of(c, addr), by_equations(eq32, 5, line >> 5, (uint32_t)(line & 31)));
    }
    cache_destroy(c);
    assert_int_equal(cache_geometry_parse("S:128:128:24,L:B:m:L:P,A:192:4,32:0,32", &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "16, 32 or 64 sets"));
    assert_int_equal(cache_geometry_parse("S:32:128:24,L:B:m:L:Q,A:192:4,32:0,32", &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "P (IPOLY)"));
}

#define V100_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS"

static int v100(addrmap *m, uint32_t channels, const char *map, char *err, size_t errlen) {
    addrmap_config c = {.n_channels = channels, .n_sub_per_channel = 2, .nbanks = 16, .channel_hash = 2};
    snprintf(c.mapping, sizeof c.mapping, "%s", map);
    return addrmap_init(m, &c, err, errlen);
}

/* 32 channels x 2 slices: the slice is the 64-entry hash of the linear slice
 * (channel = address bits 8-12, slice bit = bit 13, the map's lowest B) with
 * the bits from 14 up; worked for a few addresses from the equations. */
static void test_partition_indexing_ipoly(void **state) {
    (void)state;
    addrmap m;
    char err[256];
    assert_int_equal(v100(&m, 32, V100_MAP, err, sizeof err), 0);
    for (int t = 0; t < 20000; t++) {
        uint64_t a = next_rand() & ((1ull << 36) - 1);
        addr_loc l;
        addrmap_decode(&m, a, &l);
        uint32_t lin = (uint32_t)((a >> 8) & 31) * 2 + (uint32_t)(a >> 13 & 1);
        assert_int_equal(l.slice, by_equations(eq64, 6, a >> 14, lin));
        assert_int_equal(l.channel, l.slice / 2);
        /* the slice and its partition address give the address back */
        assert_int_equal(addrmap_global_addr(&m, l.slice, addrmap_partition_addr(&m, a)), a);
    }
    /* a 16 KB stride (a power of two past the slice bits) visits all 64 slices */
    uint64_t seen = 0;
    for (uint64_t i = 0; i < 64; i++) {
        addr_loc l;
        addrmap_decode(&m, i << 14, &l);
        seen |= 1ull << l.slice;
    }
    assert_true(seen == ~0ull);
}

static void test_partition_indexing_ipoly_refusals(void **state) {
    (void)state;
    addrmap m;
    char err[256];
    /* A100: 40 channels is not a power of two */
    assert_int_equal(v100(&m, 40, V100_MAP, err, sizeof err), -1);
    assert_non_null(strstr(err, "IPOLY"));
    /* 64 channels x 2 = 128 slices: no published equations */
    assert_int_equal(v100(&m, 64, V100_MAP, err, sizeof err), -1);
    /* D bits instead of dramid@ */
    assert_int_equal(v100(&m, 32,
                          "00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.DDDDDCCC.SSSSSSSS", err,
                          sizeof err),
                     -1);
    assert_non_null(strstr(err, "dramid@"));
    /* the slice's bank bit above the higher-bit boundary */
    assert_int_equal(v100(&m, 32, "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBBCCCC.CCCSSSSS",
                          err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "below bit"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_published_equations),
        cmocka_unit_test(test_power_of_two_strides_conflict_free),
        cmocka_unit_test(test_refuses_other_sizes),
        cmocka_unit_test(test_cache_set_index_p),
        cmocka_unit_test(test_partition_indexing_ipoly),
        cmocka_unit_test(test_partition_indexing_ipoly_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
