/* Executor: warp-level operations and CTA barriers.  shfl in every mode with
 * clamp / segment masks and inactive source lanes, vote, match, redux, partial
 * warps, bar.red, named barriers with thread counts, barriers after whole warps
 * have exited. */
#include "test_exec_util.h"

static const char *shfl_ptx = XT_HEADER
    ".visible .entry shfl(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.lo.s32 %r2, %r1, 10;\n"                          /* v = 10 t */
    "  shfl.sync.up.b32 %r3|%p1, %r2, 1, 0, -1;\n"
    "  shfl.sync.down.b32 %r4|%p2, %r2, 2, 31, -1;\n"
    "  shfl.sync.bfly.b32 %r5, %r2, 5, 31, -1;\n"
    "  shfl.sync.idx.b32 %r6, %r2, 7, 31, -1;\n"
    "  shfl.sync.idx.b32 %r7, %r2, 3, 0x181f, -1;\n"       /* segments of 8 lanes */
    "  shfl.sync.down.b32 %r8|%p3, %r2, 1, 0x181f, -1;\n"
    "  selp.u32 %r10, 1, 0, %p1;\n"
    "  selp.u32 %r11, 2, 0, %p2;\n"
    "  selp.u32 %r12, 4, 0, %p3;\n"
    "  or.b32 %r13, %r10, %r11;\n"
    "  or.b32 %r13, %r13, %r12;\n"
    "  mov.u32 %r9, 0;\n"
    "  setp.lt.u32 %p4, %r1, 16;\n"
    "  @!%p4 bra SKIP;\n"
    "  shfl.sync.idx.b32 %r9, %r2, 20, 31, 0xffff;\n"     /* lane 20 is not executing */
    "SKIP:\n"
    "  mul.wide.u32 %rd2, %r1, 32;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
    "  st.global.v4.u32 [%rd3+16], {%r7, %r8, %r13, %r9};\n"
    "  ret;\n"
    "}\n";

static void test_shfl_modes_and_inactive_lanes(void **state) {
    (void)state;
    xt t = xt_open(shfl_ptx, "shfl.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 32);
    void *args[] = {&out};
    xt_run(&t, "shfl", 1, 32, args, 1);
    uint32_t r[32][8];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        /* up 1, c = 0: the lower bound is lane 0; lane 0 keeps its own value */
        assert_int_equal(r[l][0], l >= 1 ? 10 * (l - 1) : 0);
        /* down 2, clamp 31: lanes 30, 31 keep their own */
        assert_int_equal(r[l][1], l <= 29 ? 10 * (l + 2) : 10 * l);
        assert_int_equal(r[l][2], 10 * (l ^ 5));
        assert_int_equal(r[l][3], 70);
        /* c = 0x181f: segment mask 0x18, so each group of 8 reads its own lane 3 */
        assert_int_equal(r[l][4], 10 * ((l & 24) + 3));
        /* down 1 inside the segment: the last lane of each group keeps its own */
        assert_int_equal(r[l][5], (l & 7) != 7 ? 10 * (l + 1) : 10 * l);
        uint32_t p = (l >= 1 ? 1u : 0u) | (l <= 29 ? 2u : 0u) | ((l & 7) != 7 ? 4u : 0u);
        assert_int_equal(r[l][6], p);
        /* lanes 0..15 read lane 20, which is on the other path: PTX leaves it
         * undefined, GPUs give 0, and so do we (lane 20's register holds 200) */
        assert_int_equal(r[l][7], 0u);
    }
    xt_close(&t);
}

/* An executing lane outside shfl's membermask: undefined in CUDA, works on hardware
 * (nvcc's own __shfl_down_sync(0xffff, v, 1, 16) from a full warp): tolerated. */
static void test_shfl_lanes_outside_membermask(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry outside(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %laneid;\n"
        "  shfl.sync.down.b32 %r2, %r1, 1, 0x101f, 0xffff;\n" /* width 16: c = (32-16)<<8 | 31 */
        "  mul.wide.u32 %rd2, %r1, 4;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.u32 [%rd3], %r2;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "outside.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 4);
    void *args[] = {&out};
    xt_run(&t, "outside", 1, 32, args, 1);
    uint32_t r[32];
    xt_get(&t, r, out, sizeof r);
    /* segments of 16 lanes: the last lane of each (15, 31) keeps its own value */
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(r[l], (l & 15) != 15 ? l + 1 : l);
    xt_close(&t);
}

/* match.any with membermask 0xffff from a full warp: lanes 16..31 execute outside
 * the mask (tolerated, as for shfl) and get the lanes of the group (0..15) that hold
 * their value; the destination is the source register (all lanes read before any is
 * written).  Lane l holds (l & 15) / 4, so every lane gets the four group lanes
 * 4k..4k+3 with k = (l & 15) / 4: 0xf << 4k.  Lanes 16..31 once read an unset stack
 * array here. */
static void test_match_any_lanes_outside_membermask(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry m(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %laneid;\n"
        "  and.b32 %r2, %r1, 15;\n"
        "  shr.u32 %r2, %r2, 2;\n"
        "  match.any.sync.b32 %r2, %r2, 0xffff;\n"
        "  mul.wide.u32 %rd2, %r1, 4;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.u32 [%rd3], %r2;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "matchout.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 4);
    void *args[] = {&out};
    xt_run(&t, "m", 1, 32, args, 1);
    uint32_t r[32];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(r[l], 0xfu << (4 * ((l & 15) / 4)));
    xt_close(&t);
}

static const char *vote_ptx = XT_HEADER
    ".visible .entry votes(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<12>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 1;\n"                     /* odd lanes */
    "  vote.sync.ballot.b32 %r3, %p1, -1;\n"
    "  vote.sync.ballot.b32 %r4, !%p1, -1;\n"
    "  vote.sync.any.pred %p2, %p1, -1;\n"
    "  vote.sync.all.pred %p3, %p1, -1;\n"
    "  setp.lt.u32 %p4, %r1, 1000;\n"
    "  vote.sync.all.pred %p5, %p4, -1;\n"
    "  vote.sync.uni.pred %p6, %p1, -1;\n"
    "  selp.u32 %r10, 1, 0, %p2;\n"
    "  selp.u32 %r11, 2, 0, %p3;\n"
    "  selp.u32 %r12, 4, 0, %p5;\n"
    "  selp.u32 %r13, 8, 0, %p6;\n"
    "  or.b32 %r14, %r10, %r11;\n"
    "  or.b32 %r14, %r14, %r12;\n"
    "  or.b32 %r14, %r14, %r13;\n"
    "  shr.u32 %r5, %r1, 2;\n"
    "  match.any.sync.b32 %r6, %r5, -1;\n"             /* lanes with the same t/4 */
    "  mov.u32 %r7, 5;\n"
    "  match.all.sync.b32 %r8|%p7, %r7, -1;\n"
    "  selp.u32 %r15, 1, 0, %p7;\n"
    "  redux.sync.add.u32 %r9, %r1, -1;\n"
    "  redux.sync.or.b32 %r16, %r1, -1;\n"
    "  activemask.b32 %r17;\n"
    "  mul.wide.u32 %rd2, %r1, 32;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r3, %r4, %r14, %r6};\n"
    "  st.global.v4.u32 [%rd3+16], {%r8, %r15, %r9, %r16};\n"
    "  ret;\n"
    "}\n";

static void test_vote_match_redux(void **state) {
    (void)state;
    xt t = xt_open(vote_ptx, "vote.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 48 * 32);
    void *args[] = {&out};
    xt_run(&t, "votes", 1, 48, args, 1); /* warp 1 has 16 threads */
    uint32_t r[48][8];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 48; l++) {
        uint32_t valid = l < 32 ? 0xffffffffu : 0x0000ffffu; /* lanes that exist */
        assert_int_equal(r[l][0], 0xaaaaaaaau & valid);
        assert_int_equal(r[l][1], 0x55555555u & valid);
        /* any(odd) = 1, all(odd) = 0, all(t < 1000) = 1 (over existing lanes), uni(odd) = 0 */
        assert_int_equal(r[l][2], 1u | 4u);
        uint32_t lane = l % 32;
        assert_int_equal(r[l][3], 0xfu << (4 * (lane / 4)));
        assert_int_equal(r[l][4], valid); /* match.all: everyone holds 5 */
        assert_int_equal(r[l][5], 1);
        /* redux over existing lanes: warp 0: 0+..+31 = 496, or = 31;
         * warp 1: lanes hold t = 32..47: sum = 16*32 + 120 = 632, or = 47 (0b101111) */
        assert_int_equal(r[l][6], l < 32 ? 496u : 632u);
        assert_int_equal(r[l][7], l < 32 ? 31u : 47u);
    }
    xt_close(&t);
}

/* Per-lane member masks (cooperative groups' tiled_partition(block, 16)): lanes
 * 0-15 name 0x0000ffff, lanes 16-31 0xffff0000 at the same instructions.  Each half
 * is its own group: bar.warp.sync passes; ballot(odd lane) = 0x0000aaaa / 0xaaaa0000;
 * all(lane < 20) = 1 / 0 (16..31 holds 20); any(lane == 3) = 1 / 0; match.all of the
 * half number: every lane equal, d = the half's mask, p = 1; redux.add of the lane:
 * 0+..+15 = 120 / 16..31 = 16*16 + 120 = 376.  (With one mask for the whole warp,
 * taken from lane 0, bar.warp.sync faulted.) */
static void test_per_lane_member_masks(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry halves(.param .u64 out)\n"
        "{\n"
        "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %laneid;\n"
        "  shr.u32 %r2, %r1, 4;\n"
        "  shl.b32 %r3, %r2, 4;\n"
        "  shl.b32 %r5, 0xffff, %r3;\n"
        "  bar.warp.sync %r5;\n"
        "  and.b32 %r6, %r1, 1;\n"
        "  setp.eq.u32 %p1, %r6, 1;\n"
        "  vote.sync.ballot.b32 %r7, %p1, %r5;\n"
        "  setp.lt.u32 %p2, %r1, 20;\n"
        "  vote.sync.all.pred %p3, %p2, %r5;\n"
        "  setp.eq.u32 %p4, %r1, 3;\n"
        "  vote.sync.any.pred %p5, %p4, %r5;\n"
        "  match.all.sync.b32 %r8|%p6, %r2, %r5;\n"
        "  redux.sync.add.u32 %r9, %r1, %r5;\n"
        "  selp.u32 %r10, 1, 0, %p3;\n"
        "  selp.u32 %r11, 2, 0, %p5;\n"
        "  selp.u32 %r12, 4, 0, %p6;\n"
        "  or.b32 %r10, %r10, %r11;\n"
        "  or.b32 %r10, %r10, %r12;\n"
        "  mul.wide.u32 %rd2, %r1, 16;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.v4.u32 [%rd3], {%r7, %r10, %r8, %r9};\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "halves.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 16);
    void *args[] = {&out};
    xt_run(&t, "halves", 1, 32, args, 1);
    uint32_t r[32][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) {
        int hi = l >= 16;
        assert_int_equal(r[l][0], hi ? 0xaaaa0000u : 0x0000aaaau);
        assert_int_equal(r[l][1], hi ? 4u : 1u | 2u | 4u);
        assert_int_equal(r[l][2], hi ? 0xffff0000u : 0x0000ffffu);
        assert_int_equal(r[l][3], hi ? 376u : 120u);
    }
    xt_close(&t);
}

/* bar.red over two warps: popc of (t < 40) = 40; and(t != 63) = 0; or(t == 63) = 1 */
static void test_bar_red(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry red(.param .u64 out)\n"
        "{\n"
        "  .reg .pred %p<8>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.lt.u32 %p1, %r1, 40;\n"
        "  bar.red.popc.u32 %r2, 0, %p1;\n"
        "  setp.ne.u32 %p2, %r1, 63;\n"
        "  bar.red.and.pred %p3, 0, %p2;\n"
        "  bar.red.or.pred %p4, 0, !%p2;\n"
        "  selp.u32 %r3, 1, 0, %p3;\n"
        "  selp.u32 %r4, 1, 0, %p4;\n"
        "  mul.wide.u32 %rd2, %r1, 16;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r1};\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "red.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 64 * 16);
    void *args[] = {&out};
    xt_run(&t, "red", 1, 64, args, 1);
    uint32_t r[64][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 64; l++) {
        assert_int_equal(r[l][0], 40);
        assert_int_equal(r[l][1], 0);
        assert_int_equal(r[l][2], 1);
        assert_int_equal(r[l][3], l);
    }
    xt_close(&t);
}

/* Named barriers: warp 0 produces into shared memory and bar.arrive's barrier 1
 * (64 threads); warp 1 bar.sync's barrier 1 and then reads; warp 2 syncs alone on
 * barrier 2 (32 threads); everyone meets at barrier 0 at the end. */
static void test_named_barriers(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".shared .align 4 .b8 buf[128];\n"
        ".visible .entry named(.param .u64 out)\n"
        "{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  shr.u32 %r2, %r1, 5;\n"          /* warp number */
        "  and.b32 %r3, %r1, 31;\n"
        "  shl.b32 %r4, %r3, 2;\n"
        "  mov.u32 %r5, buf;\n"
        "  add.s32 %r6, %r5, %r4;\n"
        "  mov.u32 %r7, 0;\n"
        "  setp.eq.u32 %p1, %r2, 0;\n"
        "  @!%p1 bra NOT0;\n"
        "  mul.lo.s32 %r8, %r3, %r3;\n"
        "  st.shared.u32 [%r6], %r8;\n"     /* buf[lane] = lane^2 */
        "  bar.arrive 1, 64;\n"
        "  bra.uni DONE;\n"
        "NOT0:\n"
        "  setp.eq.u32 %p2, %r2, 1;\n"
        "  @!%p2 bra W2;\n"
        "  bar.sync 1, 64;\n"
        "  ld.shared.u32 %r7, [%r6];\n"     /* sees warp 0's value */
        "  bra.uni DONE;\n"
        "W2:\n"
        "  bar.sync 2, 32;\n"
        "  mov.u32 %r7, 7;\n"
        "DONE:\n"
        "  bar.sync 0;\n"
        "  mul.wide.u32 %rd2, %r1, 4;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.u32 [%rd3], %r7;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "named.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 96 * 4);
    void *args[] = {&out};
    xt_run(&t, "named", 1, 96, args, 1);
    uint32_t r[96];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 96; l++) {
        uint32_t lane = l % 32;
        assert_int_equal(r[l], l < 32 ? 0u : l < 64 ? lane * lane : 7u);
    }
    xt_close(&t);
}

/* A warp whose threads have all exited no longer counts at bar.sync. */
static void test_barrier_after_warp_exit(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".shared .align 4 .b8 buf[128];\n"
        ".visible .entry half(.param .u64 out)\n"
        "{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.ge.u32 %p1, %r1, 32;\n"
        "  @%p1 exit;\n"
        "  shl.b32 %r2, %r1, 2;\n"
        "  mov.u32 %r3, buf;\n"
        "  add.s32 %r4, %r3, %r2;\n"
        "  st.shared.u32 [%r4], %r1;\n"
        "  bar.sync 0;\n"
        "  mov.u32 %r5, 31;\n"
        "  sub.s32 %r6, %r5, %r1;\n"
        "  shl.b32 %r7, %r6, 2;\n"
        "  add.s32 %r8, %r3, %r7;\n"
        "  ld.shared.u32 %r9, [%r8];\n"
        "  mul.wide.u32 %rd2, %r1, 4;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.u32 [%rd3], %r9;\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "half.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 32 * 4);
    void *args[] = {&out};
    xt_run(&t, "half", 1, 64, args, 1);
    uint32_t r[32];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(r[l], 31 - l);
    xt_close(&t);
}

/* %tid/%ntid/%ctaid/%nctaid in 3D, %laneid, %warpid, %lanemask_*. */
static void test_special_registers(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry sregs(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<24>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %tid.z;\n"
        "  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %ntid.y;\n"
        "  mov.u32 %r6, %ctaid.x;\n  mov.u32 %r7, %ctaid.y;\n  mov.u32 %r8, %ctaid.z;\n"
        "  mov.u32 %r9, %nctaid.x;\n  mov.u32 %r10, %nctaid.y;\n"
        "  mov.u32 %r11, %laneid;\n  mov.u32 %r12, %warpid;\n"
        "  mov.u32 %r13, %lanemask_lt;\n  mov.u32 %r14, %lanemask_ge;\n"
        /* linear thread id t = x + 4 (y + 2 z), block id b = bx + 2 (by + 3 bz) */
        "  mad.lo.s32 %r15, %r3, %r5, %r2;\n"
        "  mad.lo.s32 %r15, %r15, %r4, %r1;\n"
        "  mad.lo.s32 %r16, %r8, %r10, %r7;\n"
        "  mad.lo.s32 %r16, %r16, %r9, %r6;\n"
        "  mad.lo.s32 %r17, %r16, 64, %r15;\n"
        "  mul.wide.u32 %rd2, %r17, 32;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r11};\n"
        "  st.global.v4.u32 [%rd3+16], {%r12, %r13, %r14, %r16};\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "sregs.ptx");
    enum { THREADS = 64, BLOCKS = 12 };
    locsim_dptr out = xt_buf(&t, NULL, THREADS * BLOCKS * 32);
    void *args[] = {&out};
    locsim_status st = xt_launch3(&t, "sregs", (locsim_dim3){2, 3, 2}, (locsim_dim3){4, 2, 8}, args, 1);
    assert_int_equal(st, LOCSIM_OK);
    uint32_t(*r)[8] = malloc(THREADS * BLOCKS * 32);
    assert_non_null(r);
    xt_get(&t, r, out, THREADS * BLOCKS * 32);
    for (uint32_t b = 0; b < BLOCKS; b++)
        for (uint32_t l = 0; l < THREADS; l++) {
            const uint32_t *v = r[b * THREADS + l];
            assert_int_equal(v[0], l % 4);       /* x fastest */
            assert_int_equal(v[1], (l / 4) % 2);
            assert_int_equal(v[2], l / 8);
            assert_int_equal(v[3], l % 32);      /* %laneid */
            assert_int_equal(v[4], l / 32);      /* %warpid */
            assert_int_equal(v[5], (1u << (l % 32)) - 1);
            assert_int_equal(v[6], ~((1u << (l % 32)) - 1));
            assert_int_equal(v[7], b);
        }
    free(r);
    xt_close(&t);
}

/* Registers start at zero where a thread can see them (ptx_find_zero_regs
 * zeroes only those rows of a new warp; the others hold whatever an earlier
 * CTA left in the reused host memory, which this checks cannot be seen).
 * 16 CTAs of 20 threads, one after another: every lane writes %r5 = 1000 + t
 * and %r7 = 5 before reading them; lanes t < 8 write %r6 = 7, the others skip
 * the write (so %r6 is read unwritten: 0); every lane reads %r5 of lane 25,
 * which does not exist in a 20-thread warp, through shfl (0, as the register
 * file starts zeroed), and of lane t ^ 1 (1000 + (t ^ 1), lanes 0..19 all
 * exist).  Out: 4 words per thread and CTA. */
static void test_unwritten_registers_read_zero(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry unwritten(.param .u64 out)\n"
        "{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  mov.u32 %r2, %ctaid.x;\n"
        "  add.s32 %r5, %r1, 1000;\n"
        "  mov.u32 %r7, 5;\n"
        "  setp.ge.u32 %p1, %r1, 8;\n"
        "  @%p1 bra SKIP;\n"
        "  mov.u32 %r6, 7;\n"
        "SKIP:\n"
        "  shfl.sync.idx.b32 %r8, %r5, 25, 31, 0xfffff;\n"
        "  shfl.sync.bfly.b32 %r9, %r5, 1, 31, 0xfffff;\n"
        "  add.s32 %r10, %r6, %r7;\n"
        "  mad.lo.s32 %r3, %r2, 20, %r1;\n"
        "  mul.wide.u32 %rd2, %r3, 16;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.v4.u32 [%rd3], {%r6, %r8, %r9, %r10};\n"
        "  ret;\n"
        "}\n";
    xt t = xt_open(ptx, "unwritten.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 16 * 20 * 16);
    void *args[] = {&out};
    xt_run(&t, "unwritten", 16, 20, args, 1);
    uint32_t r[16 * 20][4];
    xt_get(&t, r, out, sizeof r);
    for (uint32_t i = 0; i < 16 * 20; i++) {
        uint32_t l = i % 20;
        assert_int_equal(r[i][0], l < 8 ? 7u : 0u);
        assert_int_equal(r[i][1], 0u);
        assert_int_equal(r[i][2], 1000u + (l ^ 1));
        assert_int_equal(r[i][3], (l < 8 ? 7u : 0u) + 5u);
    }
    xt_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shfl_modes_and_inactive_lanes),
        cmocka_unit_test(test_shfl_lanes_outside_membermask),
        cmocka_unit_test(test_match_any_lanes_outside_membermask),
        cmocka_unit_test(test_per_lane_member_masks),
        cmocka_unit_test(test_vote_match_redux),
        cmocka_unit_test(test_bar_red),
        cmocka_unit_test(test_named_barriers),
        cmocka_unit_test(test_barrier_after_warp_exit),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_unwritten_registers_read_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
