/* The L1D access-stream analyses (src/analysis/l1trace.c): Belady-optimal
 * replacement on hand-made access strings whose optimal miss counts are worked
 * out by hand, the intra-thread / inter-thread / inter-warp classification of
 * hits, and the statistics a timing run reports with -l1d_access_analysis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/l1trace.h"
#include "timing_util.h"
#include "workload.h"

static cache_geometry geom(const char *text) {
    cache_geometry g;
    char err[256];
    int rc = cache_geometry_parse(text, &g, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    snprintf(g.policy, sizeof g.policy, "lru");
    return g;
}

static size_t reads_of(const uint64_t *lines, size_t n, l1_access *out) {
    for (size_t i = 0; i < n; i++) out[i] = (l1_access){.line = lines[i], .warp = 0, .lanes = 1, .outcome = CACHE_MISS};
    return n;
}

/* The textbook string 7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1 in a fully
 * associative cache of 3 lines (1 set x 3 ways).  OPT evicts the line used
 * furthest in the future (positions counted from 1):
 *   7 0 1      3 compulsory misses            [7 0 1]
 *   2  miss    next uses 7@18 0@5 1@14: evict 7 [2 0 1]
 *   0  hit
 *   3  miss    2@9 0@7 1@14: evict 1        [2 0 3]
 *   0  hit
 *   4  miss    2@9 0@11 3@10: evict 0       [2 4 3]
 *   2 3 hits
 *   0  miss    2@13 4 never 3@12: evict 4   [2 0 3]
 *   3 2 hits
 *   1  miss    2@15 0@16 3 never: evict 3   [2 0 1]
 *   2 0 1 hits
 *   7  miss    2 never 0@19 1@20: evict 2   [7 0 1]
 *   0 1 hits
 * = 9 misses (LRU would take 12). */
static void test_belady_textbook_string(void **state) {
    (void)state;
    static const uint64_t s[] = {7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1};
    l1_access a[20];
    size_t n = reads_of(s, 20, a);
    cache_geometry g = geom("N:1:128:3,L:L:m:N:L,A:32:8,8");
    uint64_t reads = 0;
    assert_int_equal(l1_belady_misses(&g, a, n, &reads), 9);
    assert_int_equal(reads, 9);
}

/* 2 sets x 2 ways, linear index (set = line mod 2).  Set 0 sees 0 2 4 0 2 4:
 * 0, 2 miss; 4 misses and evicts 2 (0 is used again at the 4th access, 2 only
 * at the 5th); 0 hits; 2 misses and evicts 0 (never used again); 4 hits: 4
 * misses.  Set 1 sees 1 3 1 3: 2 misses.  Interleaved, the sets do not
 * interfere: 6 misses.  (LRU on set 0 would miss all 6 of its accesses.) */
static void test_belady_sets_are_independent(void **state) {
    (void)state;
    static const uint64_t s[] = {0, 1, 2, 3, 4, 1, 0, 3, 2, 4};
    l1_access a[10];
    size_t n = reads_of(s, 10, a);
    cache_geometry g = geom("N:2:128:2,L:L:m:N:L,A:32:8,8");
    assert_int_equal(l1_belady_misses(&g, a, n, NULL), 6);
}

/* Writes follow the geometry's policy.  1 set x 2 ways, write-evict, no write
 * allocate: R0 R1 (2 misses), W0 hits and invalidates 0, R0 misses again (3),
 * W5 misses and allocates nothing (4), R1 still hits.  4 misses, 3 of them reads. */
static void test_belady_write_evict(void **state) {
    (void)state;
    l1_access a[] = {
        {.line = 0, .lanes = 1}, {.line = 1, .lanes = 1}, {.line = 0, .lanes = 1, .flags = L1T_WRITE},
        {.line = 0, .lanes = 1}, {.line = 5, .lanes = 1, .flags = L1T_WRITE}, {.line = 1, .lanes = 1},
    };
    cache_geometry g = geom("N:1:128:2,L:E:m:N:L,A:32:8,8");
    uint64_t reads = 0;
    assert_int_equal(l1_belady_misses(&g, a, 6, &reads), 4);
    assert_int_equal(reads, 3);
}

/* Hits classified by who brought the line in (the warp of the miss that
 * allocated it, and that access's lanes). */
static void test_locality_breakdown(void **state) {
    (void)state;
    char err[256];
    cache_geometry g = geom("N:32:128:8,L:L:m:N:H,A:32:8,8");
    l1_trace *t = l1_trace_create(&g, err, sizeof err);
    assert_non_null(t);
    l1_trace_record(t, 10, 1, 0x1, 0, CACHE_MISS);         /* warp 1, lane 0 brings line 10 in */
    l1_trace_record(t, 10, 1, 0x3, 0, CACHE_HIT);          /* lanes 0,1 of warp 1: lane 0 again: intra-thread */
    l1_trace_record(t, 10, 1, 0x4, 0, CACHE_HIT);          /* lane 2 of warp 1: inter-thread */
    l1_trace_record(t, 10, 2, 0x1, 0, CACHE_HIT);          /* warp 2: inter-warp */
    l1_trace_record(t, 11, 2, 0x8, 0, CACHE_MISS);         /* warp 2 brings line 11 in */
    l1_trace_record(t, 11, 2, 0x8, 0, CACHE_HIT_RESERVED); /* pending hit, same lane: intra-thread */
    l1_trace_record(t, 11, 1, 0x8, L1T_WRITE, CACHE_HIT);  /* writes are counted, not classified */
    l1_trace_record(t, 10, 3, 0x1, 0, CACHE_MISS);         /* line 10 re-enters, brought by warp 3 */
    l1_trace_record(t, 10, 1, 0x1, 0, CACHE_HIT);          /* now warp 1's hit is inter-warp */
    assert_int_equal(l1_trace_length(t), 9);
    assert_int_equal(l1_trace_analyze(t), 0);
    assert_int_equal(l1_trace_length(t), 0);
    const l1_trace_totals *x = l1_trace_get_totals(t);
    assert_int_equal(x->accesses, 9);
    assert_int_equal(x->reads, 8);
    assert_int_equal(x->writes, 1);
    assert_int_equal(x->misses, 3);
    assert_int_equal(x->read_misses, 3);
    assert_int_equal(x->hits_intra_thread, 2);
    assert_int_equal(x->hits_inter_thread, 1);
    assert_int_equal(x->hits_inter_warp, 2);
    assert_int_equal(x->hits_unattributed, 0);
    /* the OPT replay of the same stream in 32 sets x 8 ways: only the 2 distinct
     * lines' compulsory misses, plus nothing for the write hit */
    assert_int_equal(x->bel_misses, 2);
    l1_trace_destroy(t);
}

/* Two kernels on one SM, 1 set x 2 ways.  Kernel 1: warp 5 reads lines 1 and 2
 * (2 compulsory misses; line 1 in way 0, line 2 in way 1).  Kernel 2: lines 2,
 * 3, 1, whose real outcomes are given: the L1D kept its lines, so 2 hits, 3
 * misses, 1 hits (the real cache's own victim choice does not matter here).  Both
 * hits are on lines a warp of kernel 1 brought in: inter-kernel, although the
 * warp id is the same.
 * OPT keeps its lines too and values them by their first use in kernel 2: line 2
 * at access 0, line 1 at access 2; after the hit on 2 (never used again) 3 evicts
 * 2 and 1 still hits: 3 misses in all.  (Without that look-ahead both kept lines
 * would look dead and the tie would evict way 0, line 1: 4 misses.)
 * With a flushed L1D every kernel starts empty: 2 + 3 = 5 OPT misses. */
static void run_two_kernels(bool flushed, uint64_t *bel, uint64_t *inter_kernel) {
    char err[256];
    cache_geometry g = geom("N:1:128:2,L:L:m:N:L,A:32:8,8");
    l1_trace *t = l1_trace_create(&g, err, sizeof err);
    assert_non_null(t);
    l1_trace_set_flushed(t, flushed);
    l1_trace_record(t, 1, 5, 0x1, 0, CACHE_MISS);
    l1_trace_record(t, 2, 5, 0x1, 0, CACHE_MISS);
    assert_int_equal(l1_trace_analyze(t), 0);
    cache_outcome o = flushed ? CACHE_MISS : CACHE_HIT;
    l1_trace_record(t, 2, 5, 0x1, 0, o);
    l1_trace_record(t, 3, 5, 0x1, 0, CACHE_MISS);
    l1_trace_record(t, 1, 5, 0x1, 0, o);
    assert_int_equal(l1_trace_analyze(t), 0);
    const l1_trace_totals *x = l1_trace_get_totals(t);
    assert_int_equal(x->hits_unattributed, 0);
    assert_int_equal(x->hits_intra_thread + x->hits_inter_thread + x->hits_inter_warp, 0);
    *bel = x->bel_misses;
    *inter_kernel = x->hits_inter_kernel;
    l1_trace_destroy(t);
}

static void test_analysis_across_kernels(void **state) {
    (void)state;
    uint64_t bel, inter;
    run_two_kernels(false, &bel, &inter);
    assert_int_equal(bel, 3);
    assert_int_equal(inter, 2);
    run_two_kernels(true, &bel, &inter);
    assert_int_equal(bel, 5);
    assert_int_equal(inter, 0);
}

/* A timing run with the analysis on, with a 4 KB L1D that kmeans's per-warp
 * footprint (34 lines) thrashes: the stream's misses are exactly the L1D's,
 * every hit is attributed, and OPT misses less than the real LRU cache. */
static void test_timing_run_reports_analysis(void **state) {
    (void)state;
    const char *ov[] = {"-gpgpu_scheduler", "lrr", "-l1d_access_analysis", "1",
                        "-gpgpu_cache:dl1", "N:8:128:4,L:L:m:N:H,A:32:8,8", NULL};
    tdev t;
    tdev_open(&t, "ccws_gtx285", ov);
    const workload_entry *e = workload_find("kmeans");
    assert_non_null(e);
    char detail[512] = "";
    assert_int_equal(workload_run(e, t.dev, 1, 1, detail, sizeof detail), WL_PASS);
    double misses = tdev_stat(&t, "L1D_total_cache_misses", 1);
    double hits = tdev_stat(&t, "L1D_total_cache_hits", 1) + tdev_stat(&t, "L1D_total_cache_pending_hits", 1);
    double writes = tdev_stat(&t, "L1D_stream_writes", 1);
    double bel = tdev_stat(&t, "L1D_BEL_misses", 1);
    double classified = tdev_stat(&t, "L1D_hits_intra_thread", 1) + tdev_stat(&t, "L1D_hits_inter_thread", 1) +
                        tdev_stat(&t, "L1D_hits_inter_warp", 1) + tdev_stat(&t, "L1D_hits_inter_kernel", 1);
    print_message("kmeans size 1: %.0f misses, BEL %.0f, %.0f hits classified\n", misses, bel, classified);
    assert_true(tdev_stat(&t, "L1D_stream_misses", 1) == misses);
    assert_true(tdev_stat(&t, "L1D_hits_unattributed", 1) == 0);
    assert_true(classified <= hits && classified >= hits - writes);   /* read hits only */
    assert_true(bel > 0 && bel < misses);
    assert_true(tdev_stat(&t, "L1D_stream_lost", 1) == 0);
    tdev_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_belady_textbook_string),
        cmocka_unit_test(test_belady_sets_are_independent),
        cmocka_unit_test(test_belady_write_evict),
        cmocka_unit_test(test_locality_breakdown),
        cmocka_unit_test(test_analysis_across_kernels),
        cmocka_unit_test(test_timing_run_reports_analysis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
