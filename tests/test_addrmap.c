/* Address mapping: the GTX480 string decoded by hand, D-bit mappings, the
 * hashes (one-to-one, and how they spread a power-of-two stride), errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/addrmap.h"

static addrmap gtx480(uint8_t chan_hash, uint8_t bank_hash) {
    addrmap_config c = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16,
                        .channel_hash = chan_hash, .bank_hash = bank_hash};
    addrmap m;
    char err[256];
    int rc = addrmap_init(&m, &c, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    return m;
}

static addr_loc at(const addrmap *m, uint64_t a) {
    addr_loc l;
    addrmap_decode(m, a, &l);
    return l;
}

/* dramid@8 with 6 channels: address bits 8+ are divided by 6; the quotient,
 * shifted back to bit 8, is decoded with ...RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS. */
static void test_gtx480_decode_by_hand(void **state) {
    (void)state;
    addrmap m = gtx480(0, 0);
    addr_loc l = at(&m, 0x0);
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 0);
    assert_int_equal(l.col, 0);
    l = at(&m, 0x100);          /* 256 B further: next channel */
    assert_int_equal(l.channel, 1);
    assert_int_equal(l.slice, 2);
    assert_int_equal(l.bank, 0);
    l = at(&m, 0x5ff);          /* (0x5ff >> 8) = 5: channel 5, local 0xff: column 255 */
    assert_int_equal(l.channel, 5);
    assert_int_equal(l.col, 0xff);
    l = at(&m, 0x600);          /* quotient 1: local 0x100 = bank bit 0 -> bank 1, slice 1 */
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.bank, 1);
    assert_int_equal(l.slice, 1);
    l = at(&m, 0xc00);          /* local 0x200: column bit 9 is column field bit 8 */
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.col, 0x100);
    l = at(&m, 0x2000ull * 6);  /* local 0x2000: bit 13 is bank field bit 1 */
    assert_int_equal(l.bank, 2);
    l = at(&m, 0x10000ull * 6); /* local 0x10000: row 1 */
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.row, 1);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.col, 0);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every 128 B line of 6 MB decodes to a distinct (channel, bank, row, col),
 * with and without hashing. */
static void test_mapping_is_one_to_one(void **state) {
    (void)state;
    enum { N = 6 * 1024 * 1024 / 128 };
    uint64_t *keys = malloc(N * sizeof *keys);
    for (int hash = 0; hash < 2; hash++) {
        addrmap m = gtx480((uint8_t)hash, (uint8_t)hash);
        for (uint64_t i = 0; i < N; i++) {
            addr_loc l = at(&m, i * 128);
            assert_true(l.channel < 6 && l.bank < 16 && l.slice < 12);
            keys[i] = (uint64_t)l.channel << 60 | (uint64_t)l.bank << 54 | (uint64_t)l.row << 20 | l.col;
        }
        qsort(keys, N, sizeof *keys, cmp_u64);
        for (uint64_t i = 1; i < N; i++) assert_true(keys[i] != keys[i - 1]);
    }
    free(keys);
}

/* A stride of one channel-0 row (6 x 64 KB): linearly every access lands in
 * channel 0, bank 0.  Hashed, access i goes to channel i mod 6 and bank i mod 16,
 * so 64 accesses use lcm(6, 16) = 48 distinct (channel, bank) pairs. */
static void test_hash_spreads_row_stride(void **state) {
    (void)state;
    for (int hash = 0; hash < 2; hash++) {
        addrmap m = gtx480((uint8_t)hash, (uint8_t)hash);
        uint8_t seen[6][16];
        memset(seen, 0, sizeof seen);
        int distinct = 0;
        for (uint64_t i = 0; i < 64; i++) {
            addr_loc l = at(&m, i * 6 * 0x10000ull);
            assert_int_equal(l.row, i);
            if (hash) {
                assert_int_equal(l.channel, i % 6);
                assert_int_equal(l.bank, i % 16);
            }
            if (!seen[l.channel][l.bank]++) distinct++;
        }
        assert_int_equal(distinct, hash ? 48 : 1);
    }
}

/* Power-of-two channels with D bits: 4 channels at bits 8-9, 8 banks at 10-12. */
static void test_dbit_mapping(void **state) {
    (void)state;
    addrmap_config c = {.n_channels = 4, .n_sub_per_channel = 1, .nbanks = 8};
    snprintf(c.mapping, sizeof c.mapping, "RRRRRRRR.RRRBBBDD.CCCCCCCC");
    addrmap m;
    char err[256];
    assert_int_equal(addrmap_init(&m, &c, err, sizeof err), 0);
    addr_loc l = at(&m, 0x300 | 0x1c00 | 0x2000 | 0x7f);
    assert_int_equal(l.channel, 3);
    assert_int_equal(l.bank, 7);
    assert_int_equal(l.row, 1);
    assert_int_equal(l.col, 0x7f);
    assert_int_equal(l.slice, 3);
    c.channel_hash = 1;       /* XOR for power-of-two channel counts: 3 ^ fold(row 1) = 2 */
    assert_int_equal(addrmap_init(&m, &c, err, sizeof err), 0);
    assert_int_equal(at(&m, 0x300 | 0x2000).channel, 2);
}

/* addrmap_slice_per_line: whether a whole line decodes to one slice.  GTX480's
 * dramid@8 mapping takes the channel from bits 8+ and its lowest bank bit is
 * channel-local bit 8, its row bits start at 16: 128 B lines (and 256 B) are
 * whole, 512 B lines are not (bit 8 is inside them).  The D-bit mapping
 * RRRRRRRR.RRRBBBDD.CCCCCCCC has its channel in bits 8-9: lines up to 256 B.
 * Channel bits at 5-6 (D inside a 128 B line) or dramid@6 split a 128 B line;
 * the check is also true of every address of one line by decoding them. */
static void test_slice_per_line(void **state) {
    (void)state;
    addrmap m = gtx480(1, 1);
    assert_int_equal(addrmap_slice_per_line(&m, 7), 1);
    assert_int_equal(addrmap_slice_per_line(&m, 8), 1);
    assert_int_equal(addrmap_slice_per_line(&m, 9), 0);
    for (uint64_t line = 0; line < 4096; line++)
        for (uint64_t b = 0; b < 128; b += 32)
            assert_int_equal(at(&m, line * 128 + b).slice, at(&m, line * 128).slice);
    addrmap_config c = {.n_channels = 4, .n_sub_per_channel = 1, .nbanks = 8};
    char err[256];
    snprintf(c.mapping, sizeof c.mapping, "RRRRRRRR.RRRBBBDD.CCCCCCCC");
    assert_int_equal(addrmap_init(&m, &c, err, sizeof err), 0);
    assert_int_equal(addrmap_slice_per_line(&m, 8), 1);
    assert_int_equal(addrmap_slice_per_line(&m, 9), 0);
    snprintf(c.mapping, sizeof c.mapping, "RRRRRRRR.RRRBBBCC.CDDCCCCC");
    assert_int_equal(addrmap_init(&m, &c, err, sizeof err), 0);
    assert_int_equal(addrmap_slice_per_line(&m, 7), 0);
    assert_int_equal(addrmap_slice_per_line(&m, 5), 1);
    assert_true(at(&m, 0x20).channel != at(&m, 0x00).channel);   /* the split it reports */
    addrmap_config d = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16};
    snprintf(d.mapping, sizeof d.mapping, "dramid@6;00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");
    assert_int_equal(addrmap_init(&m, &d, err, sizeof err), 0);
    assert_int_equal(addrmap_slice_per_line(&m, 7), 0);
    assert_int_equal(addrmap_slice_per_line(&m, 6), 1);
}

static void expect_error(addrmap_config c, const char *mapping, const char *fragment) {
    addrmap m;
    char err[256] = "";
    snprintf(c.mapping, sizeof c.mapping, "%s", mapping);
    assert_int_equal(addrmap_init(&m, &c, err, sizeof err), -1);
    if (!strstr(err, fragment)) print_error("'%s' -> '%s'\n", mapping, err);
    assert_non_null(strstr(err, fragment));
}

/* GPGPU-Sim's partition_address(), which its L2 indexes sets with: channel out
 * by division (dramid@8, 6 channels), then the slice bit out.  The slice is bank
 * bit 0, which is channel-local address bit 8 (...BBBCCCCB.CCSSSSSS), so
 *   local = ((A >> 8) / 6) << 8 | (A & 255),  part = (local >> 9) << 8 | (local & 255).
 * A = 6 x 256: channel 0, local 256 (slice 1): part 0.  A = 12 x 256 + 130:
 * channel 0, local 512 + 130 (slice 0): part 256 + 130.  A = 13 x 256 + 4:
 * channel 1, local 512 + 4: part 260.  The 128 B lines of one slice then take
 * consecutive partition line numbers: slice 0 of channel 0 holds chunks 0, 12,
 * 24, ... (2 lines each), which become partition lines 0,1, 2,3, 4,5, ... */
static void test_partition_address(void **state) {
    (void)state;
    addrmap m = gtx480(0, 0);
    assert_int_equal(addrmap_partition_addr(&m, 0), 0);
    assert_int_equal(at(&m, 6 * 256).slice, 1);
    assert_int_equal(addrmap_partition_addr(&m, 6 * 256), 0);
    assert_int_equal(addrmap_partition_addr(&m, 12 * 256 + 130), 256 + 130);
    assert_int_equal(at(&m, 13 * 256 + 4).channel, 1);
    assert_int_equal(addrmap_partition_addr(&m, 13 * 256 + 4), 260);
    for (uint64_t k = 0; k < 100; k++) {
        uint64_t a = k * 12 * 256;
        assert_int_equal(at(&m, a).slice, 0);
        assert_int_equal(addrmap_partition_addr(&m, a) / 128, 2 * k);
        assert_int_equal(addrmap_partition_addr(&m, a + 128) / 128, 2 * k + 1);
    }
}

/* addrmap_global_addr inverts the partition address: for addresses spread
 * over 40 bits, the device address of (its slice, its partition address) is
 * the address itself -- GTX480's mapping with and without each hash, and a
 * D-bit mapping with 2 slices per channel, hashed and not. */
static void test_global_addr_inverts(void **state) {
    (void)state;
    addrmap maps[6];
    for (int h = 0; h < 4; h++) maps[h] = gtx480((uint8_t)(h & 1), (uint8_t)(h >> 1));
    for (int h = 0; h < 2; h++) {
        addrmap_config c = {.n_channels = 4, .n_sub_per_channel = 2, .nbanks = 8, .channel_hash = (uint8_t)h};
        snprintf(c.mapping, sizeof c.mapping, "RRRRRRRR.RRRBBBDD.CCCCCCCC");
        char err[256];
        assert_int_equal(addrmap_init(&maps[4 + h], &c, err, sizeof err), 0);
    }
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 5000; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t a = i < 64 ? (uint64_t)i * 128 : x & ((1ull << 40) - 1);
            addr_loc l = at(&maps[k], a);
            uint64_t back = addrmap_global_addr(&maps[k], l.slice, addrmap_partition_addr(&maps[k], a));
            if (back != a) print_error("map %d: %#llx -> slice %u -> %#llx\n", k, (unsigned long long)a, l.slice,
                                       (unsigned long long)back);
            assert_true(back == a);
        }
}

/* A slice's own address space (the partition address) holds only its lines:
 * the next line there is the slice's next line, on A100's mapping (40
 * channels by division at bit 8, 4 slices per channel from the bank bits). */
static void test_next_local_line_same_slice(void **state) {
    (void)state;
    addrmap_config c = {.n_channels = 40, .n_sub_per_channel = 4, .nbanks = 16};
    snprintf(c.mapping, sizeof c.mapping,
             "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS");
    addrmap m;
    char err[256];
    int rc = addrmap_init(&m, &c, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 5000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t a = (x & ((1ull << 36) - 1)) & ~127ull;
        addr_loc l = at(&m, a), n;
        uint64_t next = addrmap_global_addr(&m, l.slice, addrmap_partition_addr(&m, a) + 128);
        n = at(&m, next);
        if (n.slice != l.slice) print_error("%#llx (slice %u) -> next local line %#llx (slice %u)\n",
                                            (unsigned long long)a, l.slice, (unsigned long long)next, n.slice);
        assert_int_equal(n.slice, l.slice);
        assert_true(addrmap_global_addr(&m, l.slice, addrmap_partition_addr(&m, a)) == a);
    }
}

/* dramid@ decodes divide by the channel count with a multiplication
 * (addrmap_init says why it is exact below 2^64 / n, and divides above).  Check
 * it against the division itself: channel = (A >> K) % n and the channel-local
 * address ((A >> K) / n) << K | (A mod 2^K) read through the mask (all C bits
 * below 32, R bits 32..47: col is the local address's low 32 bits, row its next
 * 16), for every n from 1 to 64, K = 8 and K = 0, addresses spread over the
 * 64-bit range; with K = 0 also both sides of the largest quotient the product
 * handles (UINT64_MAX / n - 1; above it the decode divides). */
static void test_dramid_division_exact(void **state) {
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;   /* xorshift64 state */
    for (uint32_t k = 0; k <= 8; k += 8)
        for (uint32_t n = 1; n <= 64; n++) {
            addrmap_config c = {.n_channels = n, .n_sub_per_channel = 1, .nbanks = 1};
            snprintf(c.mapping, sizeof c.mapping, "dramid@%u;RRRRRRRRRRRRRRRRCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", k);
            addrmap m;
            char err[256];
            assert_int_equal(addrmap_init(&m, &c, err, sizeof err), 0);
            for (int i = 0; i < 2000; i++) {
                uint64_t a;
                if (i < 8) a = UINT64_MAX / n - 4 + (uint64_t)i;   /* around the edge (K = 0) */
                else if (i < 12) a = UINT64_MAX - (uint64_t)(i - 8);
                else {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    a = (i & 1) ? x : x >> (x & 63);
                }
                uint64_t high = a >> k, local = (high / n) << k | (a & ((1ull << k) - 1));
                addr_loc l = at(&m, a);
                assert_int_equal(l.channel, high % n);
                assert_int_equal(l.col, (uint32_t)local);
                assert_int_equal(l.row, (uint32_t)(local >> 32) & 0xffff);
            }
        }
}

static void test_mapping_errors(void **state) {
    (void)state;
    addrmap_config c = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16};
    expect_error(c, "dramid@8;RRRRRRRR.BBBCCCC0.CCSSSSSS", "3 bank bits (8 banks) but the DRAM has nbk=16");
    expect_error(c, "dramid@8;RRRRRRRR.BBBCCCCB.CXSSSSSS", "'X' is not one of");
    expect_error(c, "RRRRRRRR.BBBCCCCB.CCSSSSSS", "0 channel (D) bits but there are 6 channels");
    expect_error(c, "dramid@x;RRRRRRRR.BBBCCCCB.CCSSSSSS", "dramid@<bit");
    c.n_sub_per_channel = 3;
    expect_error(c, "", "3 L2 slices per channel");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtx480_decode_by_hand),
        cmocka_unit_test(test_mapping_is_one_to_one),
        cmocka_unit_test(test_hash_spreads_row_stride),
        cmocka_unit_test(test_dbit_mapping),
        cmocka_unit_test(test_mapping_errors),
        cmocka_unit_test(test_partition_address),
        cmocka_unit_test(test_global_addr_inverts),
        cmocka_unit_test(test_next_local_line_same_slice),
        cmocka_unit_test(test_dramid_division_exact),
        cmocka_unit_test(test_slice_per_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
