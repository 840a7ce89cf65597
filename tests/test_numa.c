/* The multi-module GPU (src/numa/, docs/numa.md): each placement's
 * address-to-zone mapping, first-touch page assignment and grid split,
 * Algorithm 2's choice on a two-descriptor case, routing to a zone's slices,
 * and an inter-module link's latency and bandwidth.  Every expected value is
 * worked out by hand in the comment next to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cta/cta_sched.h"
#include "ldesc/ldesc.h"
#include "locsim/locsim.h"
#include "numa/numa.h"

/* ---- shared helpers ---- */

static void test_helpers(void **state) {
    (void)state;
    /* XOR-fold of addr >> 7 in 2-bit chunks (4 zones) */
    assert_int_equal(numa_xor_zone(0, 2), 0);
    assert_int_equal(numa_xor_zone(128, 2), 1);    /* line 1 */
    assert_int_equal(numa_xor_zone(384, 2), 3);    /* line 3 */
    assert_int_equal(numa_xor_zone(512, 2), 1);    /* line 4 = 0b01'00: 00 ^ 01 */
    assert_int_equal(numa_xor_zone(4096, 2), 2);   /* line 32 = 0b10'00'00 */
    assert_int_equal(numa_xor_zone(640, 2), 0);    /* line 5 = 0b01'01: 01 ^ 01 */
    /* squeeze bits 7..8 out of 0x1234: low 7 bits 0x34, 0x1234 >> 9 = 9 -> 9 << 7 | 0x34 = 0x4b4 */
    assert_int_equal(numa_squeeze(0x1234, 7, 2), 0x4b4);
    /* bits 7..8 = zone: zone 1 owns [128,256) and [640,768) of every 512 */
    assert_int_equal(numa_bytes_in_zone(0, 1024, 7, 2, 1), 256);
    assert_int_equal(numa_bytes_in_zone(100, 300, 7, 2, 0), 28);    /* [100,128) */
    assert_int_equal(numa_bytes_in_zone(100, 300, 7, 2, 1), 128);   /* [128,256) */
    assert_int_equal(numa_bytes_in_zone(100, 300, 7, 2, 2), 44);    /* [256,300) */
    assert_int_equal(numa_bytes_in_zone(100, 300, 7, 2, 3), 0);
}

/* ---- placements ---- */

static const numa_geom geom4 = {.nzones = 4, .zone_bits = 2, .sms_per_zone = 2, .page_size = 65536};

static void test_xor_placement(void **state) {
    (void)state;
    const numa_place_ops *o = numa_place_find("xor");
    assert_non_null(o);
    char err[128];
    void *st = o->create(&geom4, err, sizeof err);
    assert_non_null(st);
    uint64_t local;
    /* consecutive lines cycle through the zones, whoever asks */
    for (uint64_t k = 0; k < 4; k++) assert_int_equal(o->zone_of(st, k * 128, 3, 1, &local), k);
    assert_int_equal(o->zone_of(st, 0x1234, 0, 1, &local), numa_xor_zone(0x1234, 2));
    assert_int_equal(local, 0x4b4);   /* the zone bits 7..8 squeezed out, as above */
    assert_null(o->kernel_begin);      /* CTAs stay with the CTA scheduler */
    o->destroy(st);
}

static void test_first_touch(void **state) {
    (void)state;
    const numa_place_ops *o = numa_place_find("first_touch");
    assert_non_null(o);
    char err[128];
    void *st = o->create(&geom4, err, sizeof err);
    assert_non_null(st);
    uint64_t local;
    /* page 1 = [0x10000, 0x20000): first touched by zone 2, then it stays there */
    assert_int_equal(o->zone_of(st, 0x10005, 2, 1, &local), 2);
    assert_int_equal(local, 0x10005);
    assert_int_equal(o->zone_of(st, 0x1ffff, 3, 1, &local), 2);
    /* page 2 looked at by a copy (touch = 0): not placed (nzones), then zone 1 touches it */
    assert_int_equal(o->zone_of(st, 0x20000, 3, 0, &local), 4);
    assert_int_equal(o->zone_of(st, 0x2abcd, 1, 1, &local), 1);
    assert_int_equal(o->zone_of(st, 0x20000, 3, 0, &local), 1);
    /* 5000 pages (the table grows from 1024 slots several times): page p -> p % 4 */
    for (uint64_t p = 100; p < 5100; p++) o->zone_of(st, p << 16, (uint32_t)(p % 4), 1, &local);
    for (uint64_t p = 100; p < 5100; p++) assert_int_equal(o->zone_of(st, (p << 16) + 77, 0, 0, &local), p % 4);
    assert_int_equal(o->zone_of(st, 0x10000, 0, 0, &local), 2);   /* survived the growth */
    /* the grid in contiguous chunks: CTA id -> id * 4 / 10 */
    uint8_t zone[10];
    locsim_dim3 cls[NUMA_MAX_MODULES];
    numa_launch L = {.grid = {10, 1, 1}, .nctas = 10};
    assert_int_equal(o->kernel_begin(st, &L, zone, cls), 1);
    const uint8_t want[10] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 3};
    assert_memory_equal(zone, want, 10);
    o->destroy(st);
    /* a page size that is no power of two is refused */
    numa_geom bad = geom4;
    bad.page_size = 3000;
    assert_null(o->create(&bad, err, sizeof err));
    assert_non_null(strstr(err, "-numa_page_size"));
}

static locsim_ldesc desc1d(uint64_t base, uint64_t size, uint32_t tile_elems, uint32_t ctile, int prio) {
    locsim_ldesc d;
    memset(&d, 0, sizeof d);
    d.base = base;
    d.size = size;
    d.type = LOCSIM_LDESC_INTER_THREAD;
    d.elem_size = 4;
    d.data_tile = (locsim_dim3){tile_elems, 1, 1};
    d.compute_tile = (locsim_dim3){ctile, 1, 1};
    d.map = (locsim_dim3){1, 0, 0};
    d.priority = prio;
    return d;
}

/* Algorithm 2 on 8 CTAs in a row, 4 zones, two descriptors:
 *   A (priority 2): 16 KB, D-Tile 2 KB (512 x 4 B), C-Tile 1 CTA: CTA k reads [2k KB, 2k+2 KB);
 *   B (priority 1): 16 KB, D-Tile 4 KB, C-Tile 2 CTAs: CTAs 2j, 2j+1 read [4j KB, 4j+4 KB).
 * Utility of A alone (weight 2, balance = (8/4) / CTAs of the fullest zone):
 *   b = 11: CTA k -> zone k & 3, all local, balanced: 2;  b = 12: zone (k >> 1) & 3: also 2;
 *   b = 13: zones 0,0,0,0,1,1,1,1: balance 0.5: 1;  b >= 14: all in zone 0: 0.5;
 *   b <= 9: every zone holds a quarter of each D-Tile: 2 x 0.25 = 0.5;
 *   b = 10: partition 0,2,1,2,0,2,0,3 (ties keep the chunk zone), local 0.5, balance 2/3: 0.67.
 * B under b_hi = 11 (zones 0,1,2,3,0,1,2,3): a pair straddles two zones; best b_lo = 11
 *   (each CTA finds half its 4 KB tile local) = 0.5 -> total 2.5.
 * B under b_hi = 12 (zones 0,0,1,1,2,2,3,3): b_lo = 12 puts tile j in zone j: all local = 1
 *   -> total 3.  So: A on bits 12-13, B on bits 12-13, CTAs in pairs per zone, utility 3. */
static void test_algorithm2(void **state) {
    (void)state;
    locsim_ldesc slots[2] = {desc1d(0x200000, 16384, 1024, 2, 1), desc1d(0x100000, 16384, 512, 1, 2)};
    uint8_t used[2] = {1, 1};
    ldesc_set s;
    ldesc_set_build(&s, slots, used, 2);
    assert_int_equal(s.e[0].lo, 0x100000);   /* A first: higher priority */
    uint8_t zone[8], scratch[8];
    numa_ldesc_plan plan;
    numa_ldesc_plan_run(&s, (locsim_dim3){8, 1, 1}, 8, 2, zone, scratch, &plan);
    assert_int_equal(plan.bit[0], 12);
    assert_int_equal(plan.bit[1], 12);
    assert_true(plan.util > 2.999 && plan.util < 3.001);
    const uint8_t want[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    assert_memory_equal(zone, want, 8);
    numa_ldesc_plan_free(&plan);

    /* The placement itself: same plan, and addresses follow the chosen bits of their
     * offset in the structure: A + 0x1000 -> (0x1000 >> 12) & 3 = 1; B + 0x3000 -> 3;
     * outside both descriptors the XOR hash (test_helpers checks the hash itself). */
    const numa_place_ops *o = numa_place_find("ldesc");
    char err[128];
    void *st = o->create(&geom4, err, sizeof err);
    assert_non_null(st);
    locsim_dim3 cls[NUMA_MAX_MODULES];
    numa_launch L = {.grid = {8, 1, 1}, .nctas = 8, .ldesc = &s};
    assert_int_equal(o->kernel_begin(st, &L, zone, cls), 1);
    assert_memory_equal(zone, want, 8);
    uint64_t local;
    assert_int_equal(o->zone_of(st, 0x101000, 0, 1, &local), 1);
    assert_int_equal(local, 0x100000);   /* bits 12..13 of the offset squeezed out */
    assert_int_equal(o->zone_of(st, 0x203000, 0, 1, &local), 3);
    assert_int_equal(o->zone_of(st, 0x300080, 0, 1, &local), numa_xor_zone(0x300080, 2));
    /* without descriptors: no partition (the CTA scheduler decides) */
    numa_launch none = {.grid = {8, 1, 1}, .nctas = 8};
    assert_int_equal(o->kernel_begin(st, &none, zone, cls), 0);
    o->destroy(st);
}

/* The case the first evaluation got wrong (docs/results/ldesc_numa-notes.md): a
 * 2-D D-Tile of a wider row-major array.  Transpose of a 128 x 128 float matrix
 * (rows of 512 B, 64 KB) on a 4 x 4 grid of 32 x 32 tiles, 4 zones:
 *   in  (priority 1): CTA (bx, by) reads tile (bx, by): rows 32 by .. 32 by + 31,
 *       columns 32 bx ..: offset 16384 by + 128 bx + 512 r for row r (stride 128);
 *   out (priority 0): CTA (bx, by) writes tile (by, bx): offset 16384 bx + 128 by + 512 r
 *       (map (2,1,0): the C-Tiles in y-fastest order).
 * in, b = 7: zone (offset >> 7) & 3 = (128 by + bx + 4 r) & 3 = bx for every row: the
 *   whole tile is in zone bx, CTA (bx, by) -> zone bx, 4 CTAs a zone: utility 1 x 2
 *   (weight 2 for the first of 2).  Under that partition, out, b_lo = 14: zone
 *   (offset >> 14) & 3 = bx: all local, utility 1 x 1 (b_lo = 7..13 give zone by or a
 *   mix: less).  Total 3, the most there is (b_hi = 14 also reaches 3 (in by rows,
 *   out b_lo = 7) but comes later; strictly greater wins).  Read as 4 KB of
 *   consecutive bytes (the old reading), in would pick b = 12, which scatters each
 *   tile's rows over the zones.
 * SP: 8 vectors of 4096 floats (16 KB each), CTA v reads vector v: only b = 14
 *   (zone v & 3) and above keep a vector in one zone; b = 14 comes first, zones
 *   0,1,2,3,0,1,2,3, utility 1 (one descriptor, weight 1). */
static void test_algorithm2_tiles(void **state) {
    (void)state;
    locsim_ldesc in = desc1d(0x400000, 65536, 32, 1, 1), out = desc1d(0x500000, 65536, 32, 1, 0);
    in.type = out.type = LOCSIM_LDESC_NO_REUSE;
    in.data_tile.y = out.data_tile.y = 32;
    in.stride = out.stride = 128;
    in.map = (locsim_dim3){1, 2, 0};
    out.map = (locsim_dim3){2, 1, 0};
    locsim_ldesc slots[2] = {out, in};
    uint8_t used[2] = {1, 1};
    ldesc_set s;
    ldesc_set_build(&s, slots, used, 2);
    assert_int_equal(s.e[0].lo, 0x400000);
    uint8_t zone[16], scratch[16];
    numa_ldesc_plan plan;
    numa_ldesc_plan_run(&s, (locsim_dim3){4, 4, 1}, 16, 2, zone, scratch, &plan);
    assert_int_equal(plan.bit[0], 7);
    assert_int_equal(plan.bit[1], 14);
    assert_true(plan.util > 2.999 && plan.util < 3.001);
    for (int id = 0; id < 16; id++) assert_int_equal(zone[id], id % 4);

    locsim_ldesc sp = desc1d(0x800000, 8 * 16384, 4096, 1, 0);
    sp.type = LOCSIM_LDESC_NO_REUSE;
    ldesc_set_build(&s, &sp, used, 1);
    numa_ldesc_plan_run(&s, (locsim_dim3){8, 1, 1}, 8, 2, zone, scratch, &plan);
    assert_int_equal(plan.bit[0], 14);
    assert_true(plan.util > 0.999 && plan.util < 1.001);
    const uint8_t want[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    assert_memory_equal(zone, want, 8);
}

/* Footnote 3: D-Tiles larger than 64 KB go through the page table (any 64 KB
 * page to any zone).  4 CTAs in a row, 4 zones.
 * One descriptor B: 512 KB (8 pages), D-Tile 128 KB (32768 floats), C-Tile 1
 * CTA: CTA k reads pages 2k and 2k+1.
 *   bits b = 16 (zone = page & 3): CTA k's pages in zones 2k & 3, 2k+1 & 3, half
 *   each: ties keep the chunk zone k if it holds half, else the first better one:
 *   CTA 0 -> 0 (pages 0,1 in zones 0,1), CTA 1 -> 2 (pages 2,3 in 2,3; zone 1
 *   holds none), CTA 2 -> 0, CTA 3 -> 3: local 0.5 each, balance (4/4)/2 = 0.5:
 *   utility 0.25.  b <= 15: each 128 KB tile covers every zone equally: ties keep
 *   zone k, local 0.25, balance 1: 0.25.
 *   the page table: D-Tiles 0..3 in 4 runs -> CTA k in zone k, pages 2k, 2k+1
 *   to zone k (all their bytes are CTA k's): local 1, balance 1: utility 1, the
 *   only strictly better one.  Page zones 0,0,1,1,2,2,3,3; each page's index in
 *   its zone 0,1,0,1,...
 * With a higher-priority A (64 KB, D-Tile 16 KB, CTA k reads [16k, 16k+16) KB):
 *   A's b = 14 puts tile k in zone k: partition 0,1,2,3, utility 2 x 1 x 1 = 2
 *   (lower b give 0.25-0.5 of it, b >= 15 unbalance it, A's own page table cannot
 *   split its single page); B under it: bits at most 0.5 (b = 16: CTA 0 has page 0,
 *   CTA 3 page 7: (0.5 + 0 + 0 + 0.5) / 4 = 0.25), the page table 1 x 1 x 1 = 1:
 *   total 3, B paged. */
static void test_algorithm2_pages(void **state) {
    (void)state;
    locsim_ldesc b = desc1d(0x1000000, 8 << 16, 32768, 1, 0);
    uint8_t used[2] = {1, 1};
    ldesc_set s;
    ldesc_set_build(&s, &b, used, 1);
    uint8_t zone[4], scratch[4];
    numa_ldesc_plan plan;
    numa_ldesc_plan_run(&s, (locsim_dim3){4, 1, 1}, 4, 2, zone, scratch, &plan);
    assert_int_equal(plan.bit[0], NUMA_LDESC_PAGE_MAP);
    assert_true(plan.util > 0.999 && plan.util < 1.001);
    const uint8_t want[4] = {0, 1, 2, 3}, pages[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    assert_memory_equal(zone, want, 4);
    assert_memory_equal(plan.page[0], pages, 8);
    for (uint32_t p = 0; p < 8; p++) assert_int_equal(plan.rank[0][p], p % 2);
    numa_ldesc_plan_free(&plan);

    /* the placement: page 3 -> zone 1, its second page there (local + 64 KB);
     * page 5 -> zone 2, its second page */
    const numa_place_ops *o = numa_place_find("ldesc");
    char err[128];
    void *st = o->create(&geom4, err, sizeof err);
    assert_non_null(st);
    locsim_dim3 cls[NUMA_MAX_MODULES];
    numa_launch L = {.grid = {4, 1, 1}, .nctas = 4, .ldesc = &s};
    assert_int_equal(o->kernel_begin(st, &L, zone, cls), 1);
    uint64_t local;
    assert_int_equal(o->zone_of(st, 0x1000000 + 0x30005, 0, 1, &local), 1);
    assert_int_equal(local, 0x1000000 + 0x10005);
    assert_int_equal(o->zone_of(st, 0x1000000 + 0x50010, 0, 1, &local), 2);
    assert_int_equal(local, 0x1000000 + 0x10010);
    assert_int_equal(o->zone_of(st, 0x1000000 + 0x00100, 0, 1, &local), 0);
    assert_int_equal(local, 0x1000000 + 0x00100);

    /* A above B: A on bits 14, B through the page table */
    locsim_ldesc two[2] = {b, desc1d(0x2000000, 1 << 16, 4096, 1, 1)};
    ldesc_set_build(&s, two, used, 2);
    assert_int_equal(s.e[0].lo, 0x2000000);
    numa_ldesc_plan_run(&s, (locsim_dim3){4, 1, 1}, 4, 2, zone, scratch, &plan);
    assert_int_equal(plan.bit[0], 14);
    assert_int_equal(plan.bit[1], NUMA_LDESC_PAGE_MAP);
    assert_true(plan.util > 2.999 && plan.util < 3.001);
    assert_memory_equal(zone, want, 4);
    assert_memory_equal(plan.page[1], pages, 8);
    assert_null(plan.page[0]);   /* bits: no page table kept */
    numa_ldesc_plan_free(&plan);
    /* the next launch replaces the plan (the old page tables are freed: ASan) */
    L.ldesc = &s;
    assert_int_equal(o->kernel_begin(st, &L, zone, cls), 1);
    assert_int_equal(o->zone_of(st, 0x1000000 + 0x70000, 0, 1, &local), 3);
    o->destroy(st);
}

/* ---- the fabric ---- */

static addrmap am2;   /* 2 channels x 2 slices, GTX480 mapping */

static numa *fabric(double gbps, double ns, const char *place) {
    addrmap_config ac = {.n_channels = 2, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    assert_int_equal(addrmap_init(&am2, &ac, err, sizeof err), 0);
    numa_config c = {.n_modules = 2, .num_sms = 2, .n_channels = 2, .slices_per_channel = 2, .link_gbps = gbps,
                     .link_ns = ns, .icnt_khz = 1000000, .page_size = 65536, .place = numa_place_find(place),
                     .cta_partition = 1};
    numa *n = numa_create(&c, &am2, err, sizeof err);
    if (!n) fail_msg("%s", err);
    return n;
}

static void test_route(void **state) {
    (void)state;
    numa *n = fabric(64, 10, "xor");
    /* 2 zones: SM 0 in zone 0, SM 1 in zone 1; zone z owns channel z = slices 2z, 2z+1 */
    assert_int_equal(numa_zone_of_sm(n, 1), 1);
    assert_int_equal(numa_zone_of_slice(n, 1), 0);
    assert_int_equal(numa_zone_of_slice(n, 2), 1);
    uint32_t slice;
    /* Within a zone the mapping is a 1-channel GPU's: the slice is bank bit 0 = bit 8
     * of the zone-local address (the line address's zone bit 7 squeezed out).
     * 0x80: line 1 -> zone 1; local (0x80 >> 8) << 7 = 0: bit 8 = 0 -> slice 2 */
    assert_int_equal(numa_route(n, 0x80, 0, &slice), 1);
    assert_int_equal(slice, 2);
    /* 0x200: line 4 = 0b100 -> 1^0^0 = 1 -> zone 1; local (0x200 >> 8) << 7 = 0x100:
     * bit 8 = 1 -> slice 3 */
    assert_int_equal(numa_route(n, 0x200, 0, &slice), 1);
    assert_int_equal(slice, 3);
    /* 0x180: line 3 = 0b11 -> 1^1 = 0 -> zone 0; local (0x180 >> 8) << 7 = 0x080:
     * bit 8 = 0 -> slice 0 of zone 0 = 0 */
    assert_int_equal(numa_route(n, 0x180, 1, &slice), 0);
    assert_int_equal(slice, 0);
    numa_destroy(n);
}

/* The L2 set index of a multi-module GPU (numa_l2_index_addr).  ldesc, 2 zones, one
 * descriptor over [0, 4 KB): D-Tile 128 B (32 floats), C-Tile 1 CTA, 2 CTAs:
 * Algorithm 2 takes b = 7 (tile k, bit 7 = k & 1, in zone k & 1: all local).  So
 * zone 0 holds exactly the lines with bit 7 = 0: 0x000, 0x100, ..., 0x700.  The set
 * index uses the address within the partition (channel and slice bits out, bit 7
 * kept): from the whole address, bit 7 of every zone-0 line is 0 and half the sets
 * would never be used; from the zone-local address (bit 7 squeezed out, bit 8 moving
 * down to 7) the eight lines differ there: 0x000 -> 0x00, 0x100 -> 0x80, and so on. */
static void test_l2_index(void **state) {
    (void)state;
    numa *n = fabric(64, 10, "ldesc");
    locsim_ldesc d = desc1d(0, 4096, 32, 1, 0);
    uint8_t used[1] = {1};
    ldesc_set s;
    ldesc_set_build(&s, &d, used, 1);
    numa_launch L = {.grid = {2, 1, 1}, .nctas = 2, .ldesc = &s};
    char err[128];
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 1);
    int ones = 0, whole_ones = 0;
    for (uint64_t a = 0; a < 0x800; a += 0x100) {
        uint32_t slice;
        assert_int_equal(numa_route(n, a, 0, &slice), 0);
        ones += (numa_l2_index_addr(n, a) >> 7) & 1;
        whole_ones += (addrmap_partition_addr(&am2, a) >> 7) & 1;
    }
    assert_int_equal(whole_ones, 0);   /* the old index: set bit 7 never used */
    assert_int_equal(ones, 4);         /* the new: half the lines each way */
    assert_int_equal(numa_l2_index_addr(n, 0x100) & 0xff, 0x80);
    numa_destroy(n);
}

/* The DRAM decode of a multi-module GPU (numa_decode): 4 modules, 8 channels (2 a
 * zone), 2 slices a channel, 16 banks, the GTX480 mapping
 *   dramid@8;...RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS
 * Within a zone the mapping is that of a 2-channel GPU: for the zone-local address
 * L, channel = (L >> 8) % 2 and the channel-local address is
 * C = ((L >> 8) / 2) << 8 | (L & 0xff), so C's bit k >= 8 is L's bit k + 1:
 *   bank bit 0 = C bit 8 = L bit 9, bank bits 1..3 = C bits 13..15 = L bits 14..16,
 *   row = C bits 16.. = L bits 17.., column = C bits 0..7, 9..12 = L bits 0..7, 10..13;
 * global channel = zone x 2 + channel, slice = channel x 2 + (bank & 1). */
static addrmap am8;

/* 4 modules of 1 SM and 2 channels; mapping NULL: the GTX480 default */
static numa *fabric8_mapped(const char *place, const char *mapping) {
    addrmap_config ac = {.n_channels = 8, .n_sub_per_channel = 2, .nbanks = 16};
    if (mapping) snprintf(ac.mapping, sizeof ac.mapping, "%s", mapping);
    char err[256];
    assert_int_equal(addrmap_init(&am8, &ac, err, sizeof err), 0);
    numa_config c = {.n_modules = 4, .num_sms = 4, .n_channels = 8, .slices_per_channel = 2, .link_gbps = 64,
                     .link_ns = 10, .icnt_khz = 1000000, .page_size = 65536, .place = numa_place_find(place),
                     .cta_partition = 1};
    numa *n = numa_create(&c, &am8, err, sizeof err);
    if (!n) fail_msg("%s", err);
    return n;
}

static numa *fabric8(const char *place) { return fabric8_mapped(place, NULL); }

/* ldesc: one descriptor over [0, 512 KB), D-Tile 16 KB (4096 x 4 B), C-Tile 1 CTA, 4
 * CTAs: CTA k reads [16k KB, 16k + 16 KB), bits 14-15 of its offsets are k, so
 * Algorithm 2 takes b = 14 (every CTA local, balanced; b <= 13 spreads each tile over
 * the four zones, b >= 15 puts two or four tiles in one zone).  In [0, 256 KB) zone 0
 * holds the offsets with bits 14-15 = 0: 64 KB in 4 runs of 16 KB, its zone-local address is
 * the offset with bits 14-15 squeezed out, L in [0, 64 KB), dense.  So, by the
 * table above, zone 0's 512 lines fill channels 0-1 (L bit 8), banks with bit 0 =
 * L bit 9 and bits 1..2 = L bits 14..15 (bit 3 = L bit 16 = 0): 2 x 8 = 16
 * (channel, bank) pairs, all in row 0, 32 lines (4 KB, one row of a bank) each:
 * as a 2-channel GPU spreads a dense 64 KB.  Decoded from the whole address as
 * before (8 channels: bank bit 0 = bit 11, bits 1..3 = bits 16..18, columns
 * include bits 14-15), the zone's bits 14-15, constant, are column bits: the
 * zone's 512 lines would open 64 (channel, bank) rows of 8 lines each.
 * Single lines: offset 0x200 -> L 0x200: channel 0, bank 1 (L bit 9), slice 1
 * (the whole address: channel 2 % 2 = 0, bank bit 0 = bit 11 = 0, slice 0);
 * offset 0x10100 (bit 16) -> L 0x4100: channel 1, bank 2 (L bit 14 -> bank bit
 * 1), slice 2 x 1 + 0 = 2, row 0; offset 0x40000 (bit 18) -> L 0x10000: L bit 16
 * -> bank 8, channel 0, slice 0. */
static void test_dram_decode_ldesc(void **state) {
    (void)state;
    numa *n = fabric8("ldesc");
    locsim_ldesc d = desc1d(0, 524288, 4096, 1, 0);
    uint8_t used[1] = {1};
    ldesc_set s;
    ldesc_set_build(&s, &d, used, 1);
    numa_launch L = {.grid = {4, 1, 1}, .nctas = 4, .ldesc = &s};
    char err[128];
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 1);
    uint32_t lines[2][16] = {{0}}, rows_nonzero = 0, pairs = 0;
    for (uint64_t a = 0; a < 262144; a += 128) {
        uint32_t slice;
        if (numa_route(n, a, 0, &slice) != 0) continue;
        addr_loc l;
        numa_decode(n, a, &l);
        assert_int_equal(l.slice, slice);   /* the partition finds the slice the route chose */
        assert_true(l.channel < 2);
        lines[l.channel][l.bank]++;
        rows_nonzero += l.row != 0;
    }
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 16; b++) {
            if (!lines[c][b]) continue;
            pairs++;
            assert_int_equal(lines[c][b], 32);
            assert_int_equal(b & 8, 0);
        }
    assert_int_equal(pairs, 16);
    assert_int_equal(rows_nonzero, 0);
    addr_loc l;
    numa_decode(n, 0x200, &l);
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.bank, 1);
    assert_int_equal(l.slice, 1);
    numa_decode(n, 0x10100, &l);
    assert_int_equal(l.channel, 1);
    assert_int_equal(l.bank, 2);
    assert_int_equal(l.slice, 2);
    assert_int_equal(l.row, 0);
    numa_decode(n, 0x40000, &l);
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.bank, 8);
    assert_int_equal(l.slice, 0);
    /* the whole-address decode the partition used before: 64 rows of 8 lines */
    uint32_t old[8][16] = {{0}}, old_pairs = 0;
    for (uint64_t a = 0; a < 262144; a += 128) {
        uint32_t slice;
        if (numa_route(n, a, 0, &slice) != 0) continue;
        addrmap_decode(&am8, a, &l);
        old[l.channel][l.bank]++;
    }
    for (int c = 0; c < 8; c++)
        for (int b = 0; b < 16; b++)
            if (old[c][b]) {
                old_pairs++;
                assert_int_equal(old[c][b], 8);
            }
    assert_int_equal(old_pairs, 64);
    numa_destroy(n);
}

/* xor: address 0x482A00, line 0x9054 = 0b10.01.00.00.01.01.01.00 in 2-bit chunks
 * from the top: XOR of 10, 01, 00, 00, 01, 01, 01, 00 = 10 -> zone 2; its
 * zone-local address squeezes out bits 7-8: (0x482A00 >> 9) << 7 = 0x120A80.
 * Channel within the zone (0x120A80 >> 8) % 2 = 0x120A % 2 = 0 -> global channel 4;
 * channel-local address (0x120A / 2) << 8 | 0x80 = 0x90580: row = bits 16.. = 9,
 * bank bit 0 = bit 8 = 1, bits 1..3 = bits 13..15 = 0 -> bank 1; column = bits 0..7
 * (0x80) and bits 9..12 (bit 10 -> column bit 9): 0x280; slice 4 x 2 + 1 = 9. */
static void test_dram_decode_xor(void **state) {
    (void)state;
    numa *n = fabric8("xor");
    addr_loc l;
    uint32_t slice;
    assert_int_equal(numa_route(n, 0x482A00, 0, &slice), 2);
    assert_int_equal(slice, 9);
    numa_decode(n, 0x482A00, &l);
    assert_int_equal(l.channel, 4);
    assert_int_equal(l.row, 9);
    assert_int_equal(l.bank, 1);
    assert_int_equal(l.col, 0x280);
    assert_int_equal(l.slice, 9);
    numa_destroy(n);
}

/* A mapping with D bits (no dramid@): the zone's mapping drops the highest log2(N)
 * D letters.  8 channels as bits 8-10 (DDD), 16 banks bits 11-14, rows above:
 *   ...RRRR.RBBBBDDD.CSSSSSSS (bit 7 C, bits 0-6 S);
 * a zone's mapping keeps D at bit 8 only, the rest shifting down by 2: banks bits
 * 9-12, rows 13... .  xor: 0x1000 = line 0x20 = 0b10.00.00 -> zone 2; local
 * squeeze(0x1000, 7, 2) = 0x400 = bit 10 -> channel 0 (bit 8 = 0), bank bit 1 ->
 * bank 2, global channel 4, slice 8 + (2 & 1) = 8. */
static void test_dram_decode_dbits(void **state) {
    (void)state;
    numa *n = fabric8_mapped("xor", "RRRRRRRRRBBBBDDDCSSSSSSS");
    addr_loc l;
    numa_decode(n, 0x1000, &l);
    assert_int_equal(l.channel, 4);
    assert_int_equal(l.bank, 2);
    assert_int_equal(l.row, 0);
    assert_int_equal(l.slice, 8);
    numa_destroy(n);
}

typedef struct {
    uint64_t cycle;
    uint64_t at[8];
    uint32_t port[8];
    int n, refuse_first;
} sink;

static int deliver(void *ctx, uint32_t net, uint32_t port, const mem_req *r, uint32_t bytes) {
    (void)r;
    (void)bytes;
    (void)net;
    sink *s = ctx;
    if (s->refuse_first) {
        s->refuse_first = 0;
        return -1;
    }
    s->at[s->n] = s->cycle;
    s->port[s->n++] = port;
    return 0;
}

/* A link of 64 GB/s at a 1 GHz interconnect clock carries 64 B per cycle; 10 ns =
 * 10 cycles.  Three 136 B packets (a 128 B reply + 8 B header) pushed at cycle 0:
 *   the first leaves at 0 (credit 64 -> -72, +64 = -8), on the wire ceil(136/64) = 3
 *   cycles, then 10 of latency: delivered at 13;
 *   cycle 1 has no credit (-8 -> 56); the second leaves at 2 (56 - 136 = -80 -> -16):
 *   delivered at 15; cycle 3 none (-16 -> 48); the third leaves at 4: delivered at 17.
 * So a remote access pays latency + serialisation each way, and back-to-back
 * packets are spaced by bytes / bandwidth (136 / 64 = 2.1 cycles). */
static void test_link_cost(void **state) {
    (void)state;
    numa *n = fabric(64, 10, "xor");
    assert_true(numa_link_bytes_per_cycle(n) > 63.999 && numa_link_bytes_per_cycle(n) < 64.001);
    mem_req r;
    memset(&r, 0, sizeof r);
    for (uint32_t k = 0; k < 3; k++) assert_int_equal(numa_link_push(n, 1, &r, 136, 1, 10 + k), 0);
    assert_false(numa_links_idle(n));
    sink s = {0};
    for (s.cycle = 0; s.cycle < 30; s.cycle++) numa_links_cycle(n, deliver, &s);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.at[0], 13);
    assert_int_equal(s.at[1], 15);
    assert_int_equal(s.at[2], 17);
    assert_int_equal(s.port[2], 12);   /* in order, to the port given */
    assert_true(numa_links_idle(n));
    assert_int_equal(numa_stats(n)->link_bytes, 408);
    assert_int_equal(numa_stats(n)->link_packets, 3);
    numa_destroy(n);

    /* requests and replies queue apart and take turns: a request pushed behind two
     * replies does not wait for them.  Three 40 B packets (1 cycle on the wire each),
     * replies R1 R2 then request Q: cycle 0 sends Q (the request class has the first
     * turn; credit 64 - 40 = 24 > 0) and R1 (the replies' turn; 24 - 40 = -16); cycle 1
     * starts at -16 + 64 = 48 and sends R2.  Arrivals: Q and R1 at 0 + 1 + 10 = 11, R2
     * at 12; in a cycle requests are handed over before replies. */
    n = fabric(64, 10, "xor");
    assert_int_equal(numa_link_push(n, 0, &r, 40, 1, 1), 0);
    assert_int_equal(numa_link_push(n, 0, &r, 40, 1, 2), 0);
    assert_int_equal(numa_link_push(n, 0, &r, 40, 0, 3), 0);
    sink u = {0};
    for (u.cycle = 0; u.cycle < 30; u.cycle++) numa_links_cycle(n, deliver, &u);
    assert_int_equal(u.n, 3);
    assert_int_equal(u.port[0], 3);
    assert_int_equal(u.at[0], 11);
    assert_int_equal(u.port[1], 1);
    assert_int_equal(u.at[1], 11);
    assert_int_equal(u.port[2], 2);
    assert_int_equal(u.at[2], 12);
    numa_destroy(n);

    /* a network that refuses the arrival keeps it on the link: offered again next cycle */
    n = fabric(64, 10, "xor");
    assert_int_equal(numa_link_push(n, 0, &r, 40, 0, 1), 0);
    sink t = {.refuse_first = 1};
    for (t.cycle = 0; t.cycle < 30; t.cycle++) numa_links_cycle(n, deliver, &t);
    /* 40 B: 1 cycle on the wire + 10 = ready at 11, refused there, taken at 12 */
    assert_int_equal(t.n, 1);
    assert_int_equal(t.at[0], 12);
    numa_destroy(n);
}

/* A ring of 4 modules (MCM-GPU's topology, -numa_link_topology ring), one SM
 * each, 64 GB/s and 10 ns links at 1 GHz: a 40 B reply is 1 cycle on the wire
 * plus 10, so one hop delivers at 11.  Two hops: the first link hands it to the
 * next at 11, which sends it in the next cycle (links send before they hand
 * over): 12 + 1 + 10 = 23.  Routes: 0 -> 1 and 0 -> 3 are one hop (clockwise,
 * counter-clockwise); 0 -> 2 and 1 -> 3 are half the ring: module 0 (even) goes
 * clockwise over 1, module 1 (odd) counter-clockwise over 0.  Each crossing is
 * counted: 2 + 2 + 1 + 1 = 6 packets on the 8 links. */
static void test_ring(void **state) {
    (void)state;
    addrmap_config ac = {.n_channels = 8, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    addrmap am8;
    assert_int_equal(addrmap_init(&am8, &ac, err, sizeof err), 0);
    numa_config c = {.n_modules = 4, .num_sms = 4, .n_channels = 8, .slices_per_channel = 2, .link_gbps = 64,
                     .link_ns = 10, .icnt_khz = 1000000, .page_size = 65536, .place = numa_place_find("xor"),
                     .ring = 1};
    numa *n = numa_create(&c, &am8, err, sizeof err);
    if (!n) fail_msg("%s", err);
    assert_int_equal(numa_n_links(n), 8);
    mem_req r;
    memset(&r, 0, sizeof r);
    assert_int_equal(numa_link_push(n, 0, &r, 40, 1, 2), 0);   /* module 0 -> SM 2: two hops */
    assert_int_equal(numa_link_push(n, 1, &r, 40, 1, 3), 0);   /* module 1 -> SM 3: two hops */
    assert_int_equal(numa_link_push(n, 0, &r, 40, 1, 1), 0);   /* module 0 -> SM 1: one hop */
    assert_int_equal(numa_link_push(n, 0, &r, 40, 1, 3), 0);   /* module 0 -> SM 3: one hop */
    sink s = {0};
    for (s.cycle = 0; s.cycle < 40; s.cycle++) numa_links_cycle(n, deliver, &s);
    assert_int_equal(s.n, 4);
    uint64_t when[4] = {0};
    for (int i = 0; i < 4; i++) when[s.port[i]] = s.at[i];
    assert_int_equal(when[1], 11);
    assert_int_equal(when[2], 23);
    int at11 = 0, at23 = 0;
    for (int i = 0; i < 4; i++)
        if (s.port[i] == 3) {
            at11 += s.at[i] == 11;
            at23 += s.at[i] == 23;
        }
    assert_int_equal(at11, 1);   /* from module 0, one hop counter-clockwise */
    assert_int_equal(at23, 1);   /* from module 1, two hops */
    assert_int_equal(numa_stats(n)->link_packets, 6);
    assert_true(numa_links_idle(n));
    numa_destroy(n);
}

/* Ingress ports (issue 31): ldesc_numa4's geometry, 4 modules of 16 SMs and 8
 * channels x 2 slices, 40 B flits.  Unbounded links give a module one port per
 * source, 16.  Module 0 ranks the remote slices local index x 3 + (module - 1):
 * slice 3 of modules 1, 2, 3 (global 19, 35, 51) ranks 9, 10, 11, so ports 9,
 * 10, 11, where src mod 16 sent all three through port 3; slice 5 of module 2
 * (global 37) ranks 16, port 0.  Module 2 ranks module 3 first, then 0, then 1:
 * slice 3 of module 3 (global 51) ranks 9, of module 0 (global 3) 10.  Each of
 * the 16 ports takes 3 of the 48 remote sources.  At 192 GB/s and 700 MHz (274
 * B a cycle, two links) it is 14 ports: 48 sources over 14 ports, 3 or 4 each. */
static void test_ingress_ports(void **state) {
    (void)state;
    addrmap_config ac = {.n_channels = 32, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    addrmap am32;
    assert_int_equal(addrmap_init(&am32, &ac, err, sizeof err), 0);
    numa_config c = {.n_modules = 4, .num_sms = 64, .n_channels = 32, .slices_per_channel = 2, .link_gbps = 1e6,
                     .link_ns = 0, .icnt_khz = 700000, .port_bytes = 40, .page_size = 65536,
                     .place = numa_place_find("xor"), .ring = 1};
    numa *n = numa_create(&c, &am32, err, sizeof err);
    if (!n) fail_msg("%s", err);
    assert_int_equal(numa_xbar_ports(n), 16);
    assert_int_equal(numa_ingress_port(n, 1, 0, 19), 9);
    assert_int_equal(numa_ingress_port(n, 1, 0, 35), 10);
    assert_int_equal(numa_ingress_port(n, 1, 0, 51), 11);
    assert_int_equal(numa_ingress_port(n, 1, 0, 37), 0);
    assert_int_equal(numa_ingress_port(n, 1, 2, 51), 2 * 16 + 9);
    assert_int_equal(numa_ingress_port(n, 1, 2, 3), 2 * 16 + 10);
    assert_int_equal(numa_ingress_port(n, 0, 0, 19), 9);   /* SMs rank the same way (16 per module) */
    uint32_t per_port[16] = {0};
    for (uint32_t src = 16; src < 64; src++) per_port[numa_ingress_port(n, 1, 0, src)]++;
    for (int k = 0; k < 16; k++) assert_int_equal(per_port[k], 3);
    numa_destroy(n);

    c.link_gbps = 192;
    n = numa_create(&c, &am32, err, sizeof err);
    if (!n) fail_msg("%s", err);
    assert_int_equal(numa_xbar_ports(n), 14);
    uint32_t per14[14] = {0};
    for (uint32_t src = 0; src < 48; src++) per14[numa_ingress_port(n, 1, 3, src) - 3 * 14]++;   /* into module 3 */
    for (int k = 0; k < 14; k++) assert_true(per14[k] >= 3 && per14[k] <= 4);
    numa_destroy(n);
}

/* The zone dispatch of a partitioned grid, strict zones (-numa_cta_steal 0, as
 * fabric() leaves it): first_touch on 2 modules (1 SM each) splits 5 CTAs as id * 2 / 5 = 0,0,0,1,1; each SM takes only its zone's CTAs, in
 * linear order (every CTA is its own group), and nothing once its zone is done. */
static void test_zone_dispatch(void **state) {
    (void)state;
    numa *n = fabric(64, 10, "first_touch");
    char err[128];
    numa_launch L = {.grid = {5, 1, 1}, .nctas = 5};
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 1);
    void *st = numa_cta_state(n);
    assert_non_null(st);
    uint64_t id;
    assert_int_equal(numa_cta_ops.next(st, 1, 1, 0, &id), 1);
    assert_int_equal(id, 3);
    assert_int_equal(numa_cta_ops.next(st, 0, 1, 0, &id), 1);
    assert_int_equal(id, 0);
    assert_int_equal(numa_cta_ops.next(st, 1, 1, 0, &id), 1);
    assert_int_equal(id, 4);
    assert_int_equal(numa_cta_ops.next(st, 1, 1, 0, &id), 0);   /* zone 1 done */
    assert_int_equal(numa_cta_ops.next(st, 0, 1, 0, &id), 1);
    assert_int_equal(id, 1);
    assert_int_equal(numa_cta_ops.next(st, 0, 1, 0, &id), 1);
    assert_int_equal(id, 2);
    assert_int_equal(numa_cta_ops.next(st, 0, 1, 0, &id), 0);
    assert_int_equal(numa_cta_ops.clusters(st), 5);
    assert_int_equal(numa_stats(n)->partitioned_kernels, 1);
    numa_cta_ops.destroy(st);
    /* -numa_cta_partition 0: the placement still plans, the grid is not partitioned */
    numa_destroy(n);
    addrmap_config ac = {.n_channels = 2, .n_sub_per_channel = 2, .nbanks = 16};
    numa_config c = {.n_modules = 2, .num_sms = 2, .n_channels = 2, .slices_per_channel = 2, .link_gbps = 64,
                     .icnt_khz = 1000000, .page_size = 65536, .place = numa_place_find("first_touch")};
    assert_int_equal(addrmap_init(&am2, &ac, err, sizeof err), 0);
    n = numa_create(&c, &am2, err, sizeof err);
    assert_non_null(n);
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 0);
    assert_null(numa_cta_state(n));
    /* xor does not partition: the CTA scheduler keeps the launch */
    numa *x = fabric(64, 10, "xor");
    assert_int_equal(numa_kernel_begin(x, &L, err, sizeof err), 0);
    numa_destroy(x);
    numa_destroy(n);
}

/* -numa_cta_steal 1: an SM whose zone has no CTA left takes one from the zone with
 * the most left (ties: the lowest) among the zones whose own SMs are all full
 * (an SM's room: free_slots at its ask, less the CTA it got; 1 before it asked),
 * that zone's last group not started.
 * first_touch on 4 modules (1 SM each) splits 10 CTAs as id x 4 / 10:
 *   zone 0: 0 1 2, zone 1: 3 4, zone 2: 5 6 7, zone 3: 8 9 (every CTA its own group).
 * SM 3 takes 8, 9 (its own); then nothing: SMs 0-2 have not asked (room presumed).
 * SM 0 takes 0, SM 1 takes 3 (both now full), SM 2 asks with 2 slots and takes 5
 * (room 1 left).  SM 3 steals: zones 0 and 1 are full, 2 has room; left 2/1: zone
 * 0's last, 2; then 1/1 (tie, the lowest): zone 0's last left, 1.  SM 2 takes its
 * own 6 (now full).  SM 3: left 0/1/1/0, tie: zone 1's 4.  SM 1: its zone is done;
 * zone 2 (full) has 7: stolen.  Then nothing is left anywhere: 4 stolen. */
static void test_cta_steal(void **state) {
    (void)state;
    numa *n = fabric8("first_touch");
    n->c.cta_steal = 1;
    char err[128];
    numa_launch L = {.grid = {10, 1, 1}, .nctas = 10};
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 1);
    void *st = numa_cta_state(n);
    static const struct {
        uint32_t sm, slots;
        int got;
        uint64_t id;
    } want[] = {{3, 1, 1, 8}, {3, 1, 1, 9}, {3, 1, 0, 0}, {0, 1, 1, 0}, {1, 1, 1, 3}, {2, 2, 1, 5},
                {3, 1, 1, 2}, {3, 1, 1, 1}, {2, 1, 1, 6}, {3, 1, 1, 4}, {1, 1, 1, 7},
                {0, 1, 0, 0}, {2, 1, 0, 0}, {3, 1, 0, 0}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        uint64_t id = UINT64_MAX;
        assert_int_equal(numa_cta_ops.next(st, want[i].sm, want[i].slots, 0, &id), want[i].got);
        if (want[i].got) assert_int_equal(id, want[i].id);
    }
    assert_int_equal(numa_stats(n)->stolen_ctas, 4);
    numa_cta_ops.destroy(st);
    /* -numa_cta_steal 0: SM 3 runs its zone's 8 and 9, then idles while the others have CTAs */
    numa_destroy(n);
    n = fabric8("first_touch");   /* cta_steal 0 */
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 1);
    st = numa_cta_state(n);
    uint64_t id;
    assert_int_equal(numa_cta_ops.next(st, 3, 1, 0, &id), 1);
    assert_int_equal(id, 8);
    assert_int_equal(numa_cta_ops.next(st, 3, 1, 0, &id), 1);
    assert_int_equal(id, 9);
    assert_int_equal(numa_cta_ops.next(st, 3, 1, 0, &id), 0);
    assert_int_equal(numa_stats(n)->stolen_ctas, 0);
    numa_cta_ops.destroy(st);
    numa_destroy(n);
}

/* A stolen group is the thief's to finish.  ldesc on 4 modules (1 SM each), one
 * descriptor over 32 KB, D-Tile 4 KB, C-Tile 2 CTAs, 16 CTAs: C-Tile k (CTAs 2k,
 * 2k+1) reads tile k.  Algorithm 2: b = 12 puts tile k in zone k & 3 (all local,
 * balanced: utility 1); b = 13 ties (zones k >> 1 & 3) and the first best is kept;
 * b <= 11 spreads every tile (0.25).  So zone z runs C-Tiles z and z + 4, and
 * Algorithm 1 keeps the C-Tiles as clusters (8 >= 4 SMs): groups
 *   zone 0: {0,1} {8,9}, zone 1: {2,3} {10,11}, zone 2: {4,5} {12,13}, zone 3: {6,7} {14,15}.
 * SMs 0, 1, 2 take 0, 2, 4 (one slot each: now full).  SM 3 runs 6 7 14 15; then
 * zones left 3/3/3/0: zone 0's last group, 8, and, its own now, 9 (not zone 1's,
 * though zone 1 has more left); then 1/3/3/0: zone 1's last group, 10, 11.  SMs 0,
 * 1, 2 finish their groups: 1, 3, 5.  SM 0's zone is done: left 0/0/2/0, zone 2's
 * last group, 12 13.  Then nothing is left: 6 CTAs stolen. */
static void test_cta_steal_groups(void **state) {
    (void)state;
    numa *n = fabric8("ldesc");
    n->c.cta_steal = 1;
    locsim_ldesc d = desc1d(0, 32768, 1024, 2, 0);
    uint8_t used[1] = {1};
    ldesc_set s;
    ldesc_set_build(&s, &d, used, 1);
    numa_launch L = {.grid = {16, 1, 1}, .nctas = 16, .ldesc = &s};
    char err[128];
    assert_int_equal(numa_kernel_begin(n, &L, err, sizeof err), 1);
    void *st = numa_cta_state(n);
    assert_int_equal(numa_cta_ops.clusters(st), 8);
    static const struct {
        uint32_t sm;
        uint64_t id;
    } want[] = {{0, 0}, {1, 2}, {2, 4}, {3, 6}, {3, 7}, {3, 14}, {3, 15}, {3, 8},
                {3, 9}, {3, 10}, {3, 11}, {0, 1}, {1, 3}, {2, 5}, {0, 12}, {0, 13}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        uint64_t id = UINT64_MAX;
        assert_int_equal(numa_cta_ops.next(st, want[i].sm, 1, 0, &id), 1);
        assert_int_equal(id, want[i].id);
    }
    uint64_t id;
    for (uint32_t sm = 0; sm < 4; sm++) assert_int_equal(numa_cta_ops.next(st, sm, 1, 0, &id), 0);
    assert_int_equal(numa_stats(n)->stolen_ctas, 6);
    numa_cta_ops.destroy(st);
    numa_destroy(n);
}

static void test_bad_config(void **state) {
    (void)state;
    addrmap_config ac = {.n_channels = 2, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    assert_int_equal(addrmap_init(&am2, &ac, err, sizeof err), 0);
    numa_config c = {.n_modules = 4, .num_sms = 2, .n_channels = 2, .slices_per_channel = 2, .link_gbps = 1,
                     .icnt_khz = 1000000, .page_size = 65536, .place = numa_place_find("xor")};
    assert_null(numa_create(&c, &am2, err, sizeof err));   /* 2 SMs cannot split in 4 */
    assert_non_null(strstr(err, "divide evenly"));
    c.n_modules = 3;
    assert_null(numa_create(&c, &am2, err, sizeof err));
    assert_non_null(strstr(err, "power of two"));
    assert_null(numa_place_find("bogus"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helpers),   cmocka_unit_test(test_xor_placement), cmocka_unit_test(test_first_touch),
        cmocka_unit_test(test_algorithm2), cmocka_unit_test(test_algorithm2_tiles), cmocka_unit_test(test_algorithm2_pages), cmocka_unit_test(test_l2_index), cmocka_unit_test(test_route), cmocka_unit_test(test_dram_decode_ldesc),
        cmocka_unit_test(test_dram_decode_xor), cmocka_unit_test(test_dram_decode_dbits),        cmocka_unit_test(test_link_cost), cmocka_unit_test(test_ring), cmocka_unit_test(test_ingress_ports),
        cmocka_unit_test(test_zone_dispatch), cmocka_unit_test(test_cta_steal), cmocka_unit_test(test_cta_steal_groups), cmocka_unit_test(test_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
