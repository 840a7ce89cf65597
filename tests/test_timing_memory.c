/* The timing model's memory side as a user sees it through the statistics:
 * the latency of a miss that goes to DRAM, L1 hits after warm-up, DRAM row
 * locality of sequential vs random access, and reservation fails (not lost
 * requests) when the L1's MSHRs run out.  Expected values are worked out from
 * configs/fermi_gtx480.cfg in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing_util.h"

/* One warp; each iteration loads the next 128 B line (lane l reads word l) and
 * makes the next address depend on the loaded value, so the loads go one at a
 * time.  dst[l] = sum of the words it read. */
static const char *const stream_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry stream(.param .u64 src, .param .u32 iters, .param .u64 dst)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u32 %r1, [iters];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n"
    "$Lloop:\n"
    "  ld.global.u32 %r5, [%rd4];\n  add.s32 %r4, %r4, %r5;\n"
    "  and.b32 %r6, %r5, 0;\n  cvt.u64.u32 %rd5, %r6;\n  add.s64 %rd4, %rd4, %rd5;\n"
    "  add.s64 %rd4, %rd4, 128;\n  add.s32 %r3, %r3, 1;\n  setp.lt.u32 %p1, %r3, %r1;\n"
    "  @%p1 bra $Lloop;\n"
    "  add.s64 %rd6, %rd2, %rd3;\n  st.global.u32 [%rd6], %r4;\n  ret;\n}\n";

/* One warp reads the same 8 KB (64 lines of 128 B, lane l reads word l of each)
 * `passes` times, one load at a time (the next address depends on the data). */
static const char *const reread_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry reread(.param .u64 src, .param .u32 passes, .param .u64 dst)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u32 %r1, [passes];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n"
    "$Lpass:\n  mov.u64 %rd5, %rd4;\n  mov.u32 %r5, 0;\n"
    "$Lline:\n  ld.global.u32 %r6, [%rd5];\n  add.s32 %r4, %r4, %r6;\n"
    "  and.b32 %r7, %r6, 0;\n  cvt.u64.u32 %rd6, %r7;\n  add.s64 %rd5, %rd5, %rd6;\n"
    "  add.s64 %rd5, %rd5, 128;\n  add.s32 %r5, %r5, 1;\n  setp.lt.u32 %p1, %r5, 64;\n  @%p1 bra $Lline;\n"
    "  add.s32 %r3, %r3, 1;\n  setp.lt.u32 %p2, %r3, %r1;\n  @%p2 bra $Lpass;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n  st.global.u32 [%rd7], %r4;\n  ret;\n}\n";

/* Every thread reads one word: src[gid] (sequential) or src[hash(gid) % 2^22]
 * (random); nothing is written unless a word equals 0xdeadbeef (none does), so
 * DRAM sees only the reads. */
static const char *const rows_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry seqread(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r5, [%rd4];\n"
    "  setp.eq.u32 %p1, %r5, -559038737;\n  @%p1 st.global.u32 [%rd2], %r5;\n  ret;\n}\n"
    ".visible .entry randread(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  shr.u32 %r5, %r4, 16;\n  xor.b32 %r6, %r4, %r5;\n  mul.lo.u32 %r7, %r6, 73244475;\n"
    "  shr.u32 %r8, %r7, 16;\n  xor.b32 %r9, %r7, %r8;\n  and.b32 %r10, %r9, 4194303;\n"
    "  mul.wide.u32 %rd3, %r10, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r11, [%rd4];\n"
    "  setp.eq.u32 %p1, %r11, -559038737;\n  @%p1 st.global.u32 [%rd2], %r11;\n  ret;\n}\n";

/* One warp; iteration k: lane l reads word 0 of line k*32 + l, so every lane of
 * every load touches its own line (32 misses per warp instruction, 32 x iters
 * distinct lines in all).  dst[l] = sum of what lane l read. */
static const char *const scatter_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry scatter(.param .u64 src, .param .u32 iters, .param .u64 dst)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u32 %r1, [iters];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, 128;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n"
    "$Lloop:\n  ld.global.u32 %r5, [%rd4];\n  add.s32 %r4, %r4, %r5;\n"
    "  add.s64 %rd4, %rd4, 4096;\n  add.s32 %r3, %r3, 1;\n  setp.lt.u32 %p1, %r3, %r1;\n  @%p1 bra $Lloop;\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.u32 [%rd6], %r4;\n  ret;\n}\n";

/* ---- one warp streaming loads sees the configured DRAM latency ----
 *
 * fermi_gtx480: core = interconnect = L2 clock = 700 MHz, DRAM command clock 924 MHz.
 * averagemflatency runs from the L1 access of a request to its data arriving
 * back at the SM.  For a load that misses in L1 and L2 with nothing else in flight:
 *   L1 miss at cycle t, leaves the SM at t+1                                      1
 *   request network: 1 flit (8 B header): icnt_latency 8 + 1 flit                9
 *   partition: ROP delay (-gpgpu_l2_rop_latency)                                120
 *   L2 miss -> DRAM queue (-dram_latency)                                        100
 *   DRAM, 128 B = 2 bursts of 64 B (4 B x 2 chips x BL 8), 2 command cycles each
 *   (BL 8 at 4 beats per cycle), back to back (tCCD = 2):
 *     row closed: ACT, tRCD 12, RD, tCL 12, + 2 + 2 = 28 DRAM cycles
 *     row open:   RD, tCL 12, + 2 + 2                = 16 DRAM cycles
 *   The mapping puts each 256 B chunk (2 lines) in one bank of one channel and
 *   the next chunk in the next channel, so the stream alternates: the first line
 *   of a chunk opens the row, the second finds it open.  Row hit rate exactly
 *   1/2; average 22 DRAM cycles = 22 x 700/924 core cycles                      16.7
 *   reply network: 8 B header + 128 B data = 5 flits of 32 B: 8 + 5             13
 * sum = 259.7 core cycles.  Each hand-off into another clock domain (core ->
 * icnt -> L2 -> DRAM -> L2 -> icnt -> core) waits for the receiving domain's next
 * edge: up to one cycle each, six of them, so the average must lie in
 * [259.7, 265.7]. */
static void test_stream_sees_dram_latency(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    enum { ITERS = 24 };
    uint32_t *src = malloc(ITERS * 128);
    for (uint32_t i = 0; i < ITERS * 32; i++) src[i] = i * 7 + 1;
    locsim_dptr dsrc = tdev_alloc(&t, src, ITERS * 128), ddst = tdev_alloc(&t, NULL, 128);
    uint32_t iters = ITERS;
    void *args[] = {&dsrc, &iters, &ddst};
    tdev_launch(&t, tdev_kernel(&t, stream_ptx, "stream"), 1, 32, args, 3);

    uint32_t out[32];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, ddst, sizeof out), LOCSIM_OK);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < ITERS; i++) sum += src[i * 32 + l];
        assert_int_equal(out[l], sum);
    }
    /* every load missed in L1 and L2 and went to DRAM */
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), ITERS);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), ITERS);
    assert_true(tdev_stat(&t, "dram_row_buffer_locality", 0) == 0.5);
    double lat = tdev_stat(&t, "averagemflatency", 0);
    print_message("one-warp load latency: %.2f core cycles (expected 259.7 .. 265.7)\n", lat);
    assert_true(lat >= 259.6 && lat <= 265.7);
    free(src);
    tdev_close(&t);
}

/* ---- an 8 KB array re-read hits in the L1 after warm-up ----
 * The L1D of fermi_gtx480 is 16 KB: 32 sets x 4 ways x 128 B, XOR-hashed index.
 * 64 consecutive lines cover at most three 32-line-aligned blocks; within one
 * block the hash maps the lines to distinct sets, so no set receives more than
 * 3 of them: they all fit.  One load at a time, so nothing is merged into a
 * pending fetch.  Expected global-read outcomes: 64 misses (the first pass),
 * 64 x (passes - 1) hits, no pending hits. */
static void test_reread_hits_in_l1(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    enum { WORDS = 2048, PASSES = 4 };
    uint32_t *src = malloc(WORDS * 4);
    for (uint32_t i = 0; i < WORDS; i++) src[i] = i ^ 0x5a5a;
    locsim_dptr dsrc = tdev_alloc(&t, src, WORDS * 4), ddst = tdev_alloc(&t, NULL, 128);
    uint32_t passes = PASSES;
    void *args[] = {&dsrc, &passes, &ddst};
    tdev_launch(&t, tdev_kernel(&t, reread_ptx, "reread"), 1, 32, args, 3);
    uint32_t out[32];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, ddst, sizeof out), LOCSIM_OK);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < 64; i++) sum += src[i * 32 + l];
        assert_int_equal(out[l], sum * PASSES);
    }
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), 64);
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 0), 64 * (PASSES - 1));
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][HIT_RESERVED]", 0), 0);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), 64);
    free(src);
    tdev_close(&t);
}

/* ---- sequential access: high row-buffer hit rate; random: low ----
 * Address mapping of fermi_gtx480: 256 B chunks rotate over the 6 channels; in a
 * channel, local bit 8 and bits 13-15 pick the bank and bits 0-7 and 9-12 the
 * column, so one bank row holds 4 KB = 16 chunks = 32 lines.  A sequential sweep
 * opens each row once for 32 line reads: hit rate 31/32 = 0.97 when the
 * requests of a row are not interleaved with another row of the same bank (the
 * 720 resident warps cover ~92 KB at a time, less than one 384 KB stripe of
 * 96 banks x 4 KB, so they rarely are): expect > 0.85.
 * Random words of a 16 MB array: 16 MB / 384 KB = ~43 rows per bank, so a
 * request finds its bank's row open with probability ~1/43 = 0.02, a little more
 * where FR-FCFS serves queued requests of an open row together: expect < 0.15. */
static void test_row_locality_sequential_vs_random(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    enum { SEQ_WORDS = 1 << 18, RAND_WORDS = 1 << 22 };
    locsim_dptr big = tdev_alloc(&t, NULL, (size_t)RAND_WORDS * 4), dst = tdev_alloc(&t, NULL, 64);
    void *args[] = {&big, &dst};
    tdev_launch(&t, tdev_kernel(&t, rows_ptx, "seqread"), SEQ_WORDS / 256, 256, args, 2);
    double seq = tdev_stat(&t, "dram_row_buffer_locality", 0);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), SEQ_WORDS / 32);
    tdev_launch(&t, tdev_kernel(&t, rows_ptx, "randread"), 65536 / 256, 256, args, 2);
    double rnd = tdev_stat(&t, "dram_row_buffer_locality", 0);
    print_message("row-buffer hit rate: sequential %.3f, random %.3f\n", seq, rnd);
    assert_true(seq > 0.85);
    assert_true(rnd < 0.15);
    tdev_close(&t);
}

/* ---- a full MSHR table gives reservation fails, not lost requests ----
 * Each warp load of `scatter` needs 32 lines.  With the default L1D (32 MSHR
 * entries) one instruction's 32 misses all find an entry.  With 2 entries
 * (-gpgpu_cache:dl1 ...,A:2:8,8) the third access of every instruction fails to
 * reserve one and the LD/ST unit retries it until a fill frees an entry.  Either
 * way every line is fetched exactly once (32 x 8 = 256 misses and DRAM reads) and
 * the sums are right. */
static void run_scatter(const char *const *overrides, double *mshr_fails) {
    tdev t;
    tdev_open(&t, "fermi_gtx480", overrides);
    enum { ITERS = 8, WORDS = ITERS * 32 * 32 };
    uint32_t *src = malloc(WORDS * 4);
    for (uint32_t i = 0; i < WORDS; i++) src[i] = i * 2654435761u;
    locsim_dptr dsrc = tdev_alloc(&t, src, WORDS * 4), ddst = tdev_alloc(&t, NULL, 128);
    uint32_t iters = ITERS;
    void *args[] = {&dsrc, &iters, &ddst};
    tdev_launch(&t, tdev_kernel(&t, scatter_ptx, "scatter"), 1, 32, args, 3);
    uint32_t out[32];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, ddst, sizeof out), LOCSIM_OK);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < ITERS; k++) sum += src[(k * 32 + l) * 32];
        assert_int_equal(out[l], sum);
    }
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), ITERS * 32);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), ITERS * 32);
    *mshr_fails = tdev_stat(&t, "L1D_cache_fail_breakdown[MSHR_ENTRY_FAIL]", 0);
    free(src);
    tdev_close(&t);
}

static void test_full_mshr_table_fails_and_retries(void **state) {
    (void)state;
    double fails;
    run_scatter(NULL, &fails);
    assert_true(fails == 0);
    const char *const small[] = {"-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,A:2:8,8", NULL};
    run_scatter(small, &fails);
    print_message("reservation fails with 2 MSHR entries: %.0f\n", fails);
    assert_true(fails > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_sees_dram_latency),
        cmocka_unit_test(test_reread_hits_in_l1),
        cmocka_unit_test(test_row_locality_sequential_vs_random),
        cmocka_unit_test(test_full_mshr_table_fails_and_retries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
