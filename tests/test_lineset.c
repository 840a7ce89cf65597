/* The growing line set (src/analysis/lineset.c) behind the L2's compulsory-miss
 * count: lineset_add answers 1 exactly for the first add of each line, whatever
 * the chunking, the directory's growth or the order.  Small cases are worked by
 * hand; large ones are checked against a plain sorted list of the lines added. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/lineset.h"

/* 128 B lines.  0x00 and 0x7f are line 0, 0x80 line 1; 0x100 line 2.  The line
 * at 4 MB (line 32768) is the first of the second chunk, and the last line of
 * the first chunk (32767, address 0x3fff80) sits next to it: neither is line 0. */
static void test_by_hand(void **state) {
    (void)state;
    lineset *s = lineset_create(7);
    assert_non_null(s);
    assert_int_equal(lineset_add(s, 0x00), 1);
    assert_int_equal(lineset_add(s, 0x7f), 0);
    assert_int_equal(lineset_add(s, 0x80), 1);
    assert_int_equal(lineset_add(s, 0x100), 1);
    assert_int_equal(lineset_add(s, 0x400000), 1);
    assert_int_equal(lineset_add(s, 0x3fff80), 1);
    assert_int_equal(lineset_add(s, 0x400040), 0);
    assert_int_equal(lineset_add(s, 0x3fffff), 0);
    assert_int_equal(lineset_add(s, 0x80), 0);
    assert_int_equal(lineset_count(s), 5);
    lineset_destroy(s);
}

/* Line 0 and the highest line of a 64-bit address space: the chunk number + 1
 * key must not wrap to the empty-slot marker. */
static void test_extremes(void **state) {
    (void)state;
    lineset *s = lineset_create(5);
    assert_int_equal(lineset_add(s, UINT64_MAX), 1);
    assert_int_equal(lineset_add(s, 0), 1);
    assert_int_equal(lineset_add(s, UINT64_MAX - 31), 0);
    assert_int_equal(lineset_add(s, 31), 0);
    assert_int_equal(lineset_count(s), 2);
    lineset_destroy(s);
}

/* 200000 adds spread over 3000 chunks (the directory doubles many times), 40
 * lines in each, so every line is added about 1.7 times: each answer must say
 * whether the line was added before, as a plain array of flags (one per possible
 * line) says. */
static void test_random_against_flags(void **state) {
    (void)state;
    enum { N = 200000, CHUNKS = 3000, PER_CHUNK = 40 };
    lineset *s = lineset_create(7);
    unsigned char *added = calloc(CHUNKS * PER_CHUNK, 1);
    assert_non_null(added);
    uint64_t x = 88172645463325252ull, firsts = 0;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t chunk = x % CHUNKS, off = (x >> 20) % PER_CHUNK;
        uint64_t line = (chunk << LINESET_CHUNK_BITS) + off, addr = (line << 7) + (x >> 40) % 128;
        int expect = !added[chunk * PER_CHUNK + off];
        added[chunk * PER_CHUNK + off] = 1;
        assert_int_equal(lineset_add(s, addr), expect);
        firsts += (uint64_t)expect;
    }
    uint64_t distinct = 0;
    for (int k = 0; k < CHUNKS * PER_CHUNK; k++) distinct += added[k];
    assert_true(firsts > 90000);   /* about 97000 of the 120000 lines: it spread widely and revisited */
    assert_true(firsts < N);
    assert_int_equal(firsts, distinct);
    assert_int_equal(lineset_count(s), distinct);
    free(added);
    lineset_destroy(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_random_against_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
