/* The sharers table (src/analysis/sharers.c): exact distinct-line and
 * distinct-(line, SM) counts whatever the table's size, growth and placement.
 * Expected values are counted by hand below (small cases) or by a brute-force
 * reference over the same stream (large cases): the table must agree with a plain
 * list of what was recorded, including after it has doubled many times and with
 * addresses chosen to land in the same slots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/sharers.h"

/* 3 SMs, 128 B lines: SM 0 reads lines 0 and 1 (two addresses in line 0), SM 2
 * line 1, SM 1 line 0 twice.  By hand: lines {0, 1} = 2; sharers: line 0 {0, 1},
 * line 1 {0, 2} = 4.  First references (return 1): only the first access to
 * each line. */
static void test_small_by_hand(void **state) {
    (void)state;
    sharers *t = sharers_create(3, 7);
    assert_non_null(t);
    assert_int_equal(sharers_record(t, 0x00, 0), 1);
    assert_int_equal(sharers_record(t, 0x40, 0), 0);   /* same line 0 */
    assert_int_equal(sharers_record(t, 0x80, 0), 1);   /* line 1 */
    assert_int_equal(sharers_record(t, 0xff, 2), 0);
    assert_int_equal(sharers_record(t, 0x10, 1), 0);
    assert_int_equal(sharers_record(t, 0x20, 1), 0);
    assert_int_equal(sharers_record(t, 0x20, 3), 0);   /* SM out of range: ignored */
    uint64_t lines = 0, sm_lines = 0;
    sharers_kernel_end(t, &lines, &sm_lines);
    assert_int_equal(lines, 2);
    assert_int_equal(sm_lines, 4);
    /* emptied: the same line is a first reference again, totals accumulate */
    assert_int_equal(sharers_record(t, 0x00, 2), 1);
    sharers_kernel_end(t, &lines, &sm_lines);
    assert_int_equal(lines, 3);
    assert_int_equal(sm_lines, 5);
    sharers_destroy(t);
}

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Brute force: distinct lines and distinct (line, SM) pairs of a stream. */
static void reference(const uint64_t *line, const uint32_t *smv, size_t n, uint64_t *lines, uint64_t *pairs) {
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) a[i] = line[i], b[i] = line[i] * 1024 + smv[i];
    qsort(a, n, sizeof *a, cmp_u64);
    qsort(b, n, sizeof *b, cmp_u64);
    *lines = *pairs = 0;
    for (size_t i = 0; i < n; i++) {
        *lines += i == 0 || a[i] != a[i - 1];
        *pairs += i == 0 || b[i] != b[i - 1];
    }
    free(a);
    free(b);
}

/* A stream mixing sequential runs (neighbouring lines share host cache lines in
 * the table), large power-of-two strides, random lines and re-references, for
 * SM counts that give 1, 2 and 3 mask words; 200000 records make the table
 * double from 1024 slots to 512 K.  Each record's return value must say whether
 * the line was new, and the kernel totals must equal the reference's. */
static void check_stream(uint32_t num_sms, uint64_t seed) {
    enum { N = 200000 };
    uint64_t *line = malloc(N * sizeof *line);
    uint32_t *smv = malloc(N * sizeof *smv);
    uint64_t *seen = malloc(N * sizeof *seen);
    assert_non_null(line);
    assert_non_null(smv);
    assert_non_null(seen);
    uint64_t s = seed;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = rng_next(&s);
        switch (r % 4) {
        case 0: line[i] = i / 3; break;                               /* sequential */
        case 1: line[i] = (r >> 8) % 64 * (1ull << 20); break;       /* 64 lines, 2^20 apart */
        case 2: line[i] = (r >> 8) % (1ull << 34); break;            /* anywhere (addresses past 2^40) */
        default: line[i] = i ? line[(r >> 8) % i] : 0; break;        /* an earlier line again */
        }
        smv[i] = (uint32_t)((r >> 40) % num_sms);
    }
    sharers *t = sharers_create(num_sms, 7);
    assert_non_null(t);
    size_t nseen = 0;
    for (size_t i = 0; i < N; i++) {
        int fresh = sharers_record(t, line[i] << 7 | (i & 127), smv[i]);
        /* new iff no earlier record had this line (checked on a sample: 1 in 512) */
        if (i % 512 == 0) {
            int before = 0;
            for (size_t j = 0; j < i && !before; j++) before = line[j] == line[i];
            assert_int_equal(fresh, !before);
        }
        if (fresh) seen[nseen++] = line[i];
    }
    uint64_t lines = 0, pairs = 0, want_lines, want_pairs;
    sharers_kernel_end(t, &lines, &pairs);
    reference(line, smv, N, &want_lines, &want_pairs);
    assert_int_equal(lines, want_lines);
    assert_int_equal(pairs, want_pairs);
    assert_int_equal(nseen, want_lines);
    sharers_destroy(t);
    free(line);
    free(smv);
    free(seen);
}

static void test_stream_one_word(void **state) {
    (void)state;
    check_stream(15, 1);   /* GTX480: 15 SMs */
}

static void test_stream_two_words(void **state) {
    (void)state;
    check_stream(100, 2);
}

static void test_stream_three_words(void **state) {
    (void)state;
    check_stream(130, 3);
}

/* sharers_note (batched, recorded later) counts what sharers_record counts:
 * the same stream noted, across batch boundaries, table growth and two kernels
 * (the second ending with a part-filled batch), gives the reference totals. */
static void test_notes_count_as_records(void **state) {
    (void)state;
    enum { N = 50003 };
    uint64_t *line = malloc(N * sizeof *line);
    uint32_t *smv = malloc(N * sizeof *smv);
    assert_non_null(line);
    assert_non_null(smv);
    uint64_t s = 7;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = rng_next(&s);
        line[i] = r % 3 ? (r >> 8) % 20000 : i;
        smv[i] = (uint32_t)((r >> 40) % 15);
    }
    sharers *t = sharers_create(15, 7);
    assert_non_null(t);
    for (int kernel = 0; kernel < 2; kernel++) {
        size_t n = kernel ? N : N - 3;   /* neither a multiple of the batch */
        for (size_t i = 0; i < n; i++) sharers_note(t, line[i] << 7 | (i & 127), smv[i]);
        uint64_t lines = 0, pairs = 0, want_lines, want_pairs;
        sharers_kernel_end(t, &lines, &pairs);
        reference(line, smv, n, &want_lines, &want_pairs);
        assert_int_equal(lines, want_lines);
        assert_int_equal(pairs, want_pairs);
    }
    sharers_destroy(t);
    free(line);
    free(smv);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_by_hand),
        cmocka_unit_test(test_stream_one_word),
        cmocka_unit_test(test_stream_two_words),
        cmocka_unit_test(test_stream_three_words),
        cmocka_unit_test(test_notes_count_as_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
