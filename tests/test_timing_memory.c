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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_sees_dram_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
