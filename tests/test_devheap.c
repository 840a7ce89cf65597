/* The device malloc heap (src/runtime/devheap.c), on sequences worked by hand:
 * blocks are multiples of 16 bytes, first fit from the lowest address, freed
 * blocks coalesce, a request that fits nowhere gets 0 (device malloc's NULL).
 *
 * Heap [0x1000, 0x1100), 256 bytes:
 *   malloc(10) -> 0x1000 (16 B)   malloc(16) -> 0x1010   malloc(100) -> 0x1020 (112 B)
 *   malloc(0)  -> 0x1090 (16 B)   used 160; malloc(100) -> 0 (96 B left, 112 needed)
 *   free(0x1010) ok; again: -1; free(0x1004) (inside a block): -1; free(0x2000): -1
 *   malloc(16) -> 0x1010 (the hole, first fit)
 *   free 0x1000 and 0x1010 -> one 32-byte hole: malloc(32) -> 0x1000
 *   free everything: malloc(256) -> 0x1000 (one range again); malloc(257) -> 0 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/devheap.h"

static void test_devheap_first_fit(void **state) {
    (void)state;
    devheap *h = devheap_create(0x1000, 256);
    assert_non_null(h);
    assert_int_equal(devheap_malloc(h, 10), 0x1000);
    assert_int_equal(devheap_malloc(h, 16), 0x1010);
    assert_int_equal(devheap_malloc(h, 100), 0x1020);
    assert_int_equal(devheap_malloc(h, 0), 0x1090);
    assert_int_equal(devheap_used(h), 160);
    assert_int_equal(devheap_live_blocks(h), 4);
    assert_int_equal(devheap_malloc(h, 100), 0);
    assert_int_equal(devheap_free(h, 0x1010), 0);
    assert_int_equal(devheap_free(h, 0x1010), -1);
    assert_int_equal(devheap_free(h, 0x1004), -1);
    assert_int_equal(devheap_free(h, 0x2000), -1);
    assert_int_equal(devheap_malloc(h, 16), 0x1010);
    assert_int_equal(devheap_free(h, 0x1000), 0);
    assert_int_equal(devheap_free(h, 0x1010), 0);
    assert_int_equal(devheap_malloc(h, 32), 0x1000);
    assert_int_equal(devheap_free(h, 0x1000), 0);
    assert_int_equal(devheap_free(h, 0x1020), 0);
    assert_int_equal(devheap_free(h, 0x1090), 0);
    assert_int_equal(devheap_used(h), 0);
    assert_int_equal(devheap_malloc(h, 256), 0x1000);
    assert_int_equal(devheap_free(h, 0x1000), 0);
    assert_int_equal(devheap_malloc(h, 257), 0);
    devheap_destroy(h);
}

/* 1000 blocks of 16 bytes fill a 16000-byte heap exactly; freed in two
 * interleaved passes (every other block, then the rest: each free of the second
 * pass joins two holes) they coalesce into one range that a single malloc of the
 * whole heap takes again. */
static void test_devheap_coalesces(void **state) {
    (void)state;
    devheap *h = devheap_create(0x10000, 16000);
    assert_non_null(h);
    for (uint64_t i = 0; i < 1000; i++) assert_int_equal(devheap_malloc(h, 16), 0x10000 + 16 * i);
    assert_int_equal(devheap_malloc(h, 1), 0);
    for (uint64_t i = 0; i < 1000; i += 2) assert_int_equal(devheap_free(h, 0x10000 + 16 * i), 0);
    assert_int_equal(devheap_malloc(h, 32), 0); /* 500 holes of 16 bytes: none fits 32 */
    for (uint64_t i = 1; i < 1000; i += 2) assert_int_equal(devheap_free(h, 0x10000 + 16 * i), 0);
    assert_int_equal(devheap_live_blocks(h), 0);
    assert_int_equal(devheap_malloc(h, 16000), 0x10000);
    devheap_destroy(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_devheap_first_fit),
        cmocka_unit_test(test_devheap_coalesces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
