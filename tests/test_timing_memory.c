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

/* One warp: lane l reads the word at src + l x stride, then writes it to
 * dst[l] (one coalesced line). */
static const char *const strided_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry strided(.param .u64 src, .param .u32 stride, .param .u64 dst)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u32 %r1, [stride];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, %r1;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.u32 [%rd6], %r3;\n  ret;\n}\n";

/* ---- one warp streaming loads sees the configured DRAM latency ----
 *
 * fermi_gtx480 with -gpgpu_perf_sim_memcpy 0 (so the copied input is not in the
 * L2): core = interconnect = L2 clock = 700 MHz, DRAM command clock 924 MHz.
 * averagemflatency runs from the L1 access of a request to each reply's arrival
 * back at the SM.  The L2 is sectored: a line request from the (normal) L1
 * becomes 4 sector requests at the partition, each a DRAM read of 32 B with its
 * own 40 B reply, so every load gives 4 replies.  With nothing else in flight:
 *   L1 miss at cycle t leaves the SM after -gpgpu_l1_latency                      35
 *   request network: 1 flit (8 B header, 40 B flits): icnt_latency 8 + 1 flit     9
 *   partition: ROP delay (-gpgpu_l2_rop_latency)                                 120
 *   L2 miss -> DRAM queue (-dram_latency)                                         100
 *   DRAM: the 4 sectors share a bank (so a bank group: tCCDL 3); each is one
 *   column command (32 B < one 64 B burst, 2 cycles of bus).  The k-th sector
 *   (k = 0..3) reaches the DRAM k L2 cycles (1.32 DRAM cycles) after the first,
 *   sooner than tCCDL lets it issue, so RD k issues 3k cycles after RD 0:
 *     row closed: ACT, tRCD 12, RD 0 .. RD 3 at 12 + 3k, data + tCL 12 + 2:  26 + 3k
 *     row open:   RD at 3k, data + tCL 12 + 2:                                14 + 3k
 *   Each 256 B chunk (2 lines) lies in one bank row of one channel and the next
 *   chunk in the next channel, so lines alternate closed / open: average over
 *   k and both lines (30.5 + 18.5) / 2 = 24.5 DRAM cycles x 700/924            18.56
 *   reply network: 8 B header + 32 B = 1 flit of 40 B: 8 + 1                       9
 * sum = 291.56 core cycles.  Each hand-off into another clock domain (core ->
 * icnt -> L2 -> DRAM -> L2 -> icnt -> core) waits for the receiving domain's next
 * edge: up to one cycle each, six of them, so the average must lie in
 * [291.56, 297.56].  Row-buffer hits per DRAM request: a closed-row line gives 1
 * miss + 3 hits, an open-row line 4 hits: 7/8. */
static void test_stream_sees_dram_latency(void **state) {
    (void)state;
    tdev t;
    const char *const cold[] = {"-gpgpu_perf_sim_memcpy", "0", NULL};
    tdev_open(&t, "fermi_gtx480", cold);
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
    /* every load missed in L1 and, sector by sector, in L2, and went to DRAM */
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), ITERS);
    assert_int_equal((int)tdev_stat(&t, "L2_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), 4 * ITERS);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), 4 * ITERS);
    assert_int_equal((int)tdev_stat(&t, "dram_read_bytes", 0), 4 * ITERS * 32);
    assert_true(tdev_stat(&t, "dram_row_buffer_locality", 0) == 7.0 / 8.0);
    double lat = tdev_stat(&t, "averagemflatency", 0);
    print_message("one-warp load latency: %.2f core cycles (expected 291.56 .. 297.56)\n", lat);
    assert_true(lat >= 291.5 && lat <= 297.6);
    free(src);
    tdev_close(&t);
}

/* ---- an 8 KB array re-read hits in the L1 after warm-up ----
 * The L1D of fermi_gtx480 is 16 KB: 32 sets x 4 ways x 128 B, XOR-hashed index.
 * 64 consecutive lines cover at most three 32-line-aligned blocks; within one
 * block the hash maps the lines to distinct sets, so no set receives more than
 * 3 of them: they all fit.  One load at a time, so nothing is merged into a
 * pending fetch.  Expected global-read outcomes: 64 misses (the first pass),
 * 64 x (passes - 1) hits, no pending hits.  The 8 KB were copied in just before
 * (-gpgpu_perf_sim_memcpy 1): all 256 sectors are in the L2 (64 lines over 12
 * slices of 64 sets x 8 ways cannot conflict), so the 64 L1 misses are 256 L2
 * sector hits and nothing is read from DRAM. */
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
    assert_int_equal((int)tdev_stat(&t, "L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 0), 256);
    assert_int_equal((int)tdev_stat(&t, "L2_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), 0);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), 0);
    free(src);
    tdev_close(&t);
}

/* ---- sequential access: high row-buffer hit rate; random: low ----
 * Address mapping of fermi_gtx480: 256 B chunks rotate over the 6 channels; in a
 * channel, local bit 8 and bits 13-15 pick the bank and bits 0-7 and 9-12 the
 * column, so one bank row holds 4 KB = 16 chunks = 32 lines.  A sequential sweep
 * opens each row once for 32 lines = 128 sector reads (the L2 is sectored: a
 * line is 4 DRAM reads of 32 B): hit rate 127/128 = 0.99 when the
 * requests of a row are not interleaved with another row of the same bank (the
 * 720 resident warps cover ~92 KB at a time, less than one 384 KB stripe of
 * 96 banks x 4 KB, so they rarely are): expect > 0.85.
 * Random words of a 16 MB array: 16 MB / 384 KB = ~43 rows per bank, so a line
 * finds its bank's row open with probability ~1/43 = 0.02.  But the normal L1
 * fetches the whole line, 4 sector reads of one row: the first opens the row and
 * the other 3 find it open.  Hit rate 3/4 + 1/4 x ~0.02 = 0.755, a little more
 * where FR-FCFS serves queued requests of an open row together: expect 0.74 ..
 * 0.80, against 127/128 sequentially. */
static void test_row_locality_sequential_vs_random(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    enum { SEQ_WORDS = 1 << 18, RAND_WORDS = 1 << 22 };
    locsim_dptr big = tdev_alloc(&t, NULL, (size_t)RAND_WORDS * 4), dst = tdev_alloc(&t, NULL, 64);
    void *args[] = {&big, &dst};
    tdev_launch(&t, tdev_kernel(&t, rows_ptx, "seqread"), SEQ_WORDS / 256, 256, args, 2);
    double seq = tdev_stat(&t, "dram_row_buffer_locality", 0);
    assert_int_equal((int)tdev_stat(&t, "dram_reads", 0), SEQ_WORDS / 8);   /* 4 sectors per 32-word line */
    tdev_launch(&t, tdev_kernel(&t, rows_ptx, "randread"), 65536 / 256, 256, args, 2);
    double rnd = tdev_stat(&t, "dram_row_buffer_locality", 0);
    print_message("row-buffer hit rate: sequential %.3f, random %.3f\n", seq, rnd);
    assert_true(seq > 0.95);
    assert_true(rnd > 0.74 && rnd < 0.80);
    tdev_close(&t);
}

/* ---- a full MSHR table gives reservation fails, not lost requests ----
 * Each warp load of `scatter` needs 32 lines.  With the default L1D (32 MSHR
 * entries) one instruction's 32 misses all find an entry.  With 2 entries
 * (-gpgpu_cache:dl1 ...,A:2:8,8) the third access of every instruction fails to
 * reserve one and the LD/ST unit retries it until a fill frees an entry.  Either
 * way every line is fetched exactly once (32 x 8 = 256 L1 misses) and the sums
 * are right.  The input is not copied into the L2 (-gpgpu_perf_sim_memcpy 0), so
 * every line comes from DRAM: the normal L1 asks for whole lines, which the
 * sectored L2 reads as 4 x 32 B: 1024 DRAM reads, 32 KB. */
static void run_scatter(const char *const *extra, double *mshr_fails, double *dram_reads, double *dram_bytes) {
    tdev t;
    const char *ov[8] = {"-gpgpu_perf_sim_memcpy", "0"};
    for (int i = 0; extra && extra[i] && i < 4; i++) ov[2 + i] = extra[i];
    tdev_open(&t, "fermi_gtx480", ov);
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
    *mshr_fails = tdev_stat(&t, "L1D_cache_fail_breakdown[MSHR_ENTRY_FAIL]", 0);
    *dram_reads = tdev_stat(&t, "dram_reads", 0);
    *dram_bytes = tdev_stat(&t, "dram_read_bytes", 0);
    free(src);
    tdev_close(&t);
}

static void test_full_mshr_table_fails_and_retries(void **state) {
    (void)state;
    double fails, reads, bytes;
    run_scatter(NULL, &fails, &reads, &bytes);
    assert_true(fails == 0);
    assert_true(reads == 8 * 32 * 4 && bytes == 8 * 32 * 128);
    const char *const small[] = {"-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,A:2:8,8", NULL};
    run_scatter(small, &fails, &reads, &bytes);
    print_message("reservation fails with 2 MSHR entries: %.0f\n", fails);
    assert_true(fails > 0);
    assert_true(reads == 8 * 32 * 4 && bytes == 8 * 32 * 128);
}

/* ---- L1D banks (-gpgpu_l1_banks): one 32 B sector access per bank per cycle ----
 * `strided` makes one warp load of 32 lanes at a stride, then one coalesced
 * store (one line, sectors 0-3 on banks 0-3: never a conflict).  With 4 banks
 * interleaved every 32 B, the bank of byte a is (a / 32) mod 4, so on a
 * sectored L1 (each sector its own bank access, as GPGPU-Sim's 32 B segments):
 *   stride   4: 1 line, 4 sectors on banks 0-3: one cycle, 0 conflicts;
 *   stride  32: 8 lines of 4 sectors, each line takes all 4 banks and so the
 *               cycle's 4 accesses: one line a cycle, 0 conflicts;
 *   stride  64: 16 lines of sectors 0 and 2: the next line needs banks 0 and 2
 *               again: one line a cycle, 15 conflicts;
 *   stride 128: 32 lines, each sector 0, all on bank 0: one a cycle, 31;
 *   stride 160: line l uses sector l mod 4, so 4 lines a cycle on banks 0-3:
 *               8 cycles and 0 conflicts (the 4-access bound ends each cycle).
 * With the XOR hash (function 1) the bank is (a/32 mod 4) XOR (a/128 mod 4), so
 * stride 128 rotates over the 4 banks: 0 conflicts.  A normal L1 sends each line
 * as one access (GPGPU-Sim's reduced segment) on the bank of its first used
 * sector: stride 128 all bank 0 (31), stride 160 banks 0-3 (0).  With one bank
 * the unit sends one access a cycle and nothing conflicts here; on a normal L1
 * the statistic is then not reported.  gmem_requests is
 * 32 / 16 / 8 / 1 load requests + 1 store request either way. */
static void run_strided(const char *dl1, const char *banks, const char *hash, uint32_t stride, double *conflicts,
                        double *requests) {
    tdev t;
    const char *const ov[] = {"-gpgpu_cache:dl1", dl1, "-gpgpu_l1_banks", banks,
                              "-gpgpu_l1_banks_hashing_function", hash, NULL};
    tdev_open(&t, "fermi_gtx480", ov);
    enum { WORDS = 32 * 160 / 4 };
    uint32_t *src = malloc(WORDS * 4);
    for (uint32_t i = 0; i < WORDS; i++) src[i] = i * 2654435761u;
    locsim_dptr dsrc = tdev_alloc(&t, src, WORDS * 4), ddst = tdev_alloc(&t, NULL, 128);
    assert_int_equal(dsrc % 128, 0);
    void *args[] = {&dsrc, &stride, &ddst};
    tdev_launch(&t, tdev_kernel(&t, strided_ptx, "strided"), 1, 32, args, 3);
    uint32_t out[32];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, ddst, sizeof out), LOCSIM_OK);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(out[l], src[l * stride / 4]);
    /* the statistic is not reported for a normal L1 with one bank (it cannot conflict) */
    int defined = stats_find(timing_of(t.dev)->stats, "gpgpu_n_l1cache_bkconflict") >= 0;
    assert_int_equal(defined, strcmp(banks, "1") != 0 || dl1[0] == 'S');
    *conflicts = defined ? tdev_stat(&t, "gpgpu_n_l1cache_bkconflict", 0) : 0;
    *requests = tdev_stat(&t, "gmem_requests", 0);
    free(src);
    tdev_close(&t);
}

static void test_l1_banks(void **state) {
    (void)state;
    const char *sect = "S:32:128:4,L:L:m:N:L,A:64:8,8", *norm = "N:32:128:4,L:L:m:N:L,A:64:8,8";
    static const struct {
        int sectored;
        const char *banks, *hash;
        uint32_t stride;
        int conflicts, requests;
    } cases[] = {
        {1, "4", "0", 4, 0, 2},    {1, "4", "0", 32, 0, 9}, {1, "4", "0", 64, 15, 17},  {1, "4", "0", 128, 31, 33}, {1, "4", "0", 160, 0, 33},
        {1, "4", "1", 128, 0, 33}, {0, "4", "0", 128, 31, 33}, {0, "4", "0", 160, 0, 33}, {0, "4", "0", 4, 0, 2},
        {1, "1", "0", 128, 0, 33}, {0, "1", "0", 160, 0, 33},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double conflicts, requests;
        run_strided(cases[i].sectored ? sect : norm, cases[i].banks, cases[i].hash, cases[i].stride, &conflicts,
                    &requests);
        if (conflicts != cases[i].conflicts || requests != cases[i].requests)
            print_error("case %zu: %.0f conflicts, %.0f requests\n", i, conflicts, requests);
        assert_true(conflicts == cases[i].conflicts);
        assert_true(requests == cases[i].requests);
    }
}

/* A bank count or interleaving that is not a power of two is refused at load. */
static void test_l1_banks_checked(void **state) {
    (void)state;
    static const char *const bad[][2] = {{"-gpgpu_l1_banks", "3"}, {"-gpgpu_l1_banks_byte_interleaving", "48"},
                                         {"-gpgpu_l1_banks_hashing_function", "2"}};
    for (size_t i = 0; i < 3; i++) {
        char err[512] = "";
        char *args[] = {(char *)bad[i][0], (char *)bad[i][1]};
        locsim_config *cfg = NULL;
        assert_int_not_equal(locsim_config_load("fermi_gtx480", 2, args, &cfg, err, sizeof err), LOCSIM_OK);
        assert_non_null(strstr(err, bad[i][0] + 1));
        locsim_config_free(cfg);
    }
}

/* ---- sectors: a scattered warp load reads 32 B per lane from DRAM, not 128 B ----
 * The same scatter kernel (each lane's word in its own line, 8 x 32 lines) with
 * a sectored L1 as well (-gpgpu_cache:dl1 S:...): an L1 miss fetches the one
 * 32 B sector the lane touches, the L2 (sectored) reads that sector from DRAM:
 * 256 DRAM reads of 32 B = 8 KB, a quarter of the normal L1's 32 KB above (the
 * 8x of issue 8 is against a 256 B-line model; here lines are 128 B). */
static void test_scattered_load_moves_sectors(void **state) {
    (void)state;
    double fails, reads, bytes;
    const char *const sect[] = {"-gpgpu_cache:dl1", "S:32:128:4,L:L:m:N:H,S:64:8,8", NULL};
    run_scatter(sect, &fails, &reads, &bytes);
    assert_true(reads == 8 * 32);
    assert_true(bytes == 8 * 32 * 32);
}

/* ---- -gpgpu_perf_sim_memcpy: a copied input is in the L2 when the kernel starts ----
 * The stream kernel reads 24 lines = 96 sectors, each once.  With the copy
 * engine modelled every sector is an L2 hit and DRAM is never read; without it
 * every sector misses and is read from DRAM. */
static void run_stream_l2(const char *memcpy_flag, double *hits, double *misses, double *reads) {
    tdev t;
    const char *const ov[] = {"-gpgpu_perf_sim_memcpy", memcpy_flag, NULL};
    tdev_open(&t, "fermi_gtx480", ov);
    enum { ITERS = 24 };
    uint32_t src[ITERS * 32];
    for (uint32_t i = 0; i < ITERS * 32; i++) src[i] = i;
    locsim_dptr dsrc = tdev_alloc(&t, src, sizeof src), ddst = tdev_alloc(&t, NULL, 128);
    uint32_t iters = ITERS;
    void *args[] = {&dsrc, &iters, &ddst};
    tdev_launch(&t, tdev_kernel(&t, stream_ptx, "stream"), 1, 32, args, 3);
    *hits = tdev_stat(&t, "L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 0);
    *misses = tdev_stat(&t, "L2_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0);
    *reads = tdev_stat(&t, "dram_reads", 0);
    tdev_close(&t);
}

static void test_memcpy_fills_l2(void **state) {
    (void)state;
    double hits, misses, reads;
    run_stream_l2("1", &hits, &misses, &reads);
    assert_true(hits == 96 && misses == 0 && reads == 0);
    run_stream_l2("0", &hits, &misses, &reads);
    assert_true(hits == 0 && misses == 96 && reads == 96);
}

/* ---- -gpgpu_flush_l1_cache: nothing survives in the L1D from one kernel to the next ----
 * reread with one pass, launched twice: the first launch misses on its 64 lines.
 * With the flush the second launch misses on all 64 again; without it the 64
 * lines (which fit, see test_reread_hits_in_l1) are all hits. */
static void run_reread_twice(const char *flush, double *misses, double *hits) {
    tdev t;
    const char *const ov[] = {"-gpgpu_flush_l1_cache", flush, NULL};
    tdev_open(&t, "fermi_gtx480", ov);
    uint32_t src[2048];
    for (uint32_t i = 0; i < 2048; i++) src[i] = i;
    locsim_dptr dsrc = tdev_alloc(&t, src, sizeof src), ddst = tdev_alloc(&t, NULL, 128);
    uint32_t passes = 1;
    void *args[] = {&dsrc, &passes, &ddst};
    locsim_kernel *k = tdev_kernel(&t, reread_ptx, "reread");
    tdev_launch(&t, k, 1, 32, args, 3);
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), 64);
    tdev_launch(&t, k, 1, 32, args, 3);
    *misses = tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0);
    *hits = tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 0);
    tdev_close(&t);
}

static void test_flush_l1_between_kernels(void **state) {
    (void)state;
    double misses, hits;
    run_reread_twice("1", &misses, &hits);
    assert_true(misses == 64 && hits == 0);
    run_reread_twice("0", &misses, &hits);
    assert_true(misses == 0 && hits == 64);
}

/* ---- an L1D hit takes exactly -gpgpu_l1_latency ----
 * One thread chases a pointer around one 128 B line: p = *p, where every word
 * of the line points to itself, so each load depends on the one before and all
 * but the first hit in the L1D.  A dependent load issues when the previous one's
 * data is visible, l1_latency cycles after it issued; the loop's counter
 * arithmetic does not depend on the load and finishes well within that time
 * (a handful of ALU cycles against 35 or 70).  The LD/ST unit takes the load
 * in the cycle it issues and accesses the L1D in its next cycle, so the data
 * is visible 1 + l1_latency cycles after issue: N more iterations take exactly
 * N x (l1_latency + 1) more cycles.  Run 64 and 32 iterations and compare. */
static const char *const chase_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry chase(.param .u64 p0, .param .u32 iters, .param .u64 dst)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p0];\n  ld.param.u32 %r1, [iters];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r2, 0;\n"
    "$Lc:\n  ld.global.u64 %rd1, [%rd1];\n  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra $Lc;\n  st.global.u64 [%rd2], %rd1;\n  ret;\n}\n";

static double chase_cycles(const char *l1_latency, uint32_t iters) {
    tdev t;
    const char *const ov[] = {"-gpgpu_l1_latency", l1_latency, NULL};
    tdev_open(&t, "fermi_gtx480", ov);
    locsim_dptr line = tdev_alloc(&t, NULL, 128), ddst = tdev_alloc(&t, NULL, 8);
    uint64_t self[16];
    for (int i = 0; i < 16; i++) self[i] = line;   /* every word points at word 0 */
    assert_int_equal(locsim_memcpy_htod(t.dev, line, self, sizeof self), LOCSIM_OK);
    void *args[] = {&line, &iters, &ddst};
    tdev_launch(&t, tdev_kernel(&t, chase_ptx, "chase"), 1, 1, args, 3);
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 0), (int)iters - 1);
    double cycles = tdev_stat(&t, "gpu_sim_cycle", 0);
    tdev_close(&t);
    return cycles;
}

static void test_l1_hit_latency(void **state) {
    (void)state;
    assert_true(chase_cycles("35", 64) - chase_cycles("35", 32) == 32 * (35 + 1));
    assert_true(chase_cycles("70", 64) - chase_cycles("70", 32) == 32 * (70 + 1));
}

/* Kernel parameters go through the constant cache (GPGPU-Sim's param_space_kernel
 * loads use its L1C): chase_ptx reads 3 parameters at offsets 0, 8 and 16, all in
 * one 64 B L1C line.  A grid of `ctas` one-warp CTAs puts one CTA on each of the
 * first `ctas` SMs (round-robin CTA placement), so each SM makes 3 warp accesses:
 * the first misses, the two after it merge into its MSHR entry (pending hits):
 * L1C accesses = 3 x ctas, misses = ctas.  A second launch finds the line still
 * there (GPGPU-Sim never invalidates the L1C): 0 misses.  The cold miss is an L2
 * miss (parameters are not copied through the L2), so it costs at least the ROP
 * delay (120 L2 = core cycles) plus the DRAM latency (100 DRAM cycles at 924 MHz
 * = 75.8 core cycles at 700 MHz) more than a perfect constant cache, under
 * which no parameter touches the L1C. */
static void run_params(const char *perfect, uint32_t ctas, double *acc, double *miss, double *acc2, double *miss2,
                       double *cycles) {
    tdev t;
    const char *const ov[] = {"-gpgpu_perfect_inst_const_cache", perfect, NULL};
    tdev_open(&t, "fermi_gtx480", ov);
    locsim_dptr line = tdev_alloc(&t, NULL, 128), ddst = tdev_alloc(&t, NULL, 8);
    uint64_t self[16];
    for (int i = 0; i < 16; i++) self[i] = line;
    assert_int_equal(locsim_memcpy_htod(t.dev, line, self, sizeof self), LOCSIM_OK);
    uint32_t iters = 4;
    void *args[] = {&line, &iters, &ddst};
    locsim_kernel *k = tdev_kernel(&t, chase_ptx, "chase");
    tdev_launch(&t, k, ctas, 1, args, 3);
    *acc = tdev_stat(&t, "L1C_total_cache_accesses", 0);
    *miss = tdev_stat(&t, "L1C_total_cache_misses", 0);
    *cycles = tdev_stat(&t, "gpu_sim_cycle", 0);
    assert_int_equal((int)tdev_stat(&t, "param_warp_accesses", 0), *perfect == '1' ? 0 : 3 * (int)ctas);
    tdev_launch(&t, k, ctas, 1, args, 3);
    *acc2 = tdev_stat(&t, "L1C_total_cache_accesses", 0);
    *miss2 = tdev_stat(&t, "L1C_total_cache_misses", 0);
    tdev_close(&t);
}

static void test_kernel_params_through_l1c(void **state) {
    (void)state;
    double acc, miss, acc2, miss2, cyc, pacc, pmiss, pacc2, pmiss2, pcyc;
    run_params("0", 1, &acc, &miss, &acc2, &miss2, &cyc);
    assert_int_equal((int)acc, 3);
    assert_int_equal((int)miss, 1);
    assert_int_equal((int)acc2, 3);
    assert_int_equal((int)miss2, 0);
    run_params("1", 1, &pacc, &pmiss, &pacc2, &pmiss2, &pcyc);
    assert_int_equal((int)pacc, 0);
    assert_int_equal((int)pacc2, 0);
    assert_true(cyc - pcyc >= 120 + 100.0 * 700 / 924);
    run_params("0", 4, &acc, &miss, &acc2, &miss2, &cyc);
    assert_int_equal((int)acc, 12);
    assert_int_equal((int)miss, 4);
    assert_int_equal((int)miss2, 0);
}

/* 32 instructions in a straight line: ld.param, mov, 28 x add, st, ret.  At 8
 * bytes an instruction (GPGPU-Sim's PTX instruction size) they fill exactly two
 * 128 B instruction-cache lines (a function starts on a line boundary). */
static const char *const straight_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry straight(.param .u64 dst)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, 0;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";

/* One warp runs straight_ptx.  The fetch unit reads 2 instructions (16 B) per
 * instruction-cache access: 16 accesses for 32 instructions.  The first access
 * to each of the 2 lines misses and waits for the fill (which hands the warp its
 * instructions without another access); the 7 other accesses to a line hit:
 * L1I accesses 16, misses 2, hits 14.  Code is never copied into the L2, so each
 * miss is 4 sector misses there (128 B line of a normal L1, 32 B L2 sectors):
 * L2 INST_ACC_R misses 8.  A second launch finds both lines still in the L1I
 * (GPGPU-Sim never invalidates it): 16 hits, 0 misses.  Each cold line costs at
 * least the ROP delay + DRAM latency (120 + 75.8 core cycles, see
 * test_kernel_params_through_l1c) more than a perfect instruction cache, and
 * the second line is only asked for once the warp reaches it. */
static void test_instruction_cache_misses(void **state) {
    (void)state;
    double cyc[2];
    for (int perfect = 0; perfect < 2; perfect++) {
        tdev t;
        const char *const ov[] = {"-gpgpu_perfect_inst_const_cache", perfect ? "1" : "0", NULL};
        tdev_open(&t, "fermi_gtx480", ov);
        locsim_dptr ddst = tdev_alloc(&t, NULL, 8);
        void *args[] = {&ddst};
        locsim_kernel *k = tdev_kernel(&t, straight_ptx, "straight");
        tdev_launch(&t, k, 1, 32, args, 1);
        uint32_t out = 0;
        assert_int_equal(locsim_memcpy_dtoh(t.dev, &out, ddst, 4), LOCSIM_OK);
        assert_int_equal(out, 28);
        cyc[perfect] = tdev_stat(&t, "gpu_sim_cycle", 0);
        if (perfect) {
            assert_int_equal((int)tdev_stat(&t, "L1I_total_cache_accesses", 0), 0);
        } else {
            assert_int_equal((int)tdev_stat(&t, "L1I_total_cache_accesses", 0), 16);
            assert_int_equal((int)tdev_stat(&t, "L1I_total_cache_misses", 0), 2);
            assert_int_equal((int)tdev_stat(&t, "L1I_total_cache_hits", 0), 14);
            assert_int_equal((int)tdev_stat(&t, "L2_cache_stats_breakdown[INST_ACC_R][MISS]", 0), 8);
            tdev_launch(&t, k, 1, 32, args, 1);
            assert_int_equal((int)tdev_stat(&t, "L1I_total_cache_accesses", 0), 16);
            assert_int_equal((int)tdev_stat(&t, "L1I_total_cache_misses", 0), 0);
        }
        tdev_close(&t);
    }
    assert_true(cyc[0] - cyc[1] >= 2 * (120 + 100.0 * 700 / 924));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_sees_dram_latency),
        cmocka_unit_test(test_reread_hits_in_l1),
        cmocka_unit_test(test_row_locality_sequential_vs_random),
        cmocka_unit_test(test_full_mshr_table_fails_and_retries),
        cmocka_unit_test(test_scattered_load_moves_sectors),
        cmocka_unit_test(test_l1_banks),
        cmocka_unit_test(test_l1_banks_checked),
        cmocka_unit_test(test_memcpy_fills_l2),
        cmocka_unit_test(test_flush_l1_between_kernels),
        cmocka_unit_test(test_l1_hit_latency),
        cmocka_unit_test(test_kernel_params_through_l1c),
        cmocka_unit_test(test_instruction_cache_misses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
