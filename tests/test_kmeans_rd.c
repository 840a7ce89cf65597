/* kmeans_rd's grid side (workloads/kmeans_rd/ref.h): Rodinia's allocateMemory rule,
 * the truncated square root of ceil(n / 256) raised until its square covers the
 * CTAs, on points worked out by hand, including a perfect square (where "sqrt + 1"
 * would give one more row) and the sizes experiments/sharing.yaml names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../workloads/kmeans_rd/ref.h"

static void grid_side(void **state) {
    (void)state;
    static const struct { uint32_t n, side; } cases[] = {
        { 1, 1 },           /* 1 CTA */
        { 256, 1 },         /* exactly 1 CTA */
        { 257, 2 },         /* 2 CTAs -> 2 x 2 */
        { 313, 2 },         /* --size 1 */
        { 1513, 3 },        /* --size 5: 6 CTAs -> 3 x 3 (tests/e2e/kmeans_rd.sh) */
        { 19213, 9 },       /* --size 64: 76 CTAs -> 9 x 9 */
        { 494113, 44 },     /* --size 1647: 1931 CTAs -> 44 x 44 */
        { 495616, 44 },     /* 1936 = 44^2 CTAs: a perfect square stays 44 */
        { 495617, 45 },     /* 1937 CTAs */
        { 891013, 59 },     /* --size 2970: 3481 = 59^2 CTAs */
        { 891313, 60 },     /* --size 2971: 3482 CTAs */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(kmeans_rd_grid_side(cases[i].n), cases[i].side);
    assert_int_equal(kmeans_num_points(1647), 494113);
    assert_int_equal(kmeans_num_points(2971), 891313);
}

/* The largest size keeps the features within a linear texture's 2^27 texels; one
 * more does not. */
static void max_size(void **state) {
    (void)state;
    uint64_t texels = (uint64_t)kmeans_num_points(KMEANS_RD_MAX_SIZE) * KMEANS_FEATURES;
    assert_true(texels <= (1u << 27));
    assert_true((uint64_t)kmeans_num_points(KMEANS_RD_MAX_SIZE + 1) * KMEANS_FEATURES > (1u << 27));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grid_side),
        cmocka_unit_test(max_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
