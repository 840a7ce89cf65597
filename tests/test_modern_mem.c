/* The memory side of the Volta/Ampere/Hopper configurations (issue 35,
 * docs/modern.md): the per-kernel carve-out of a unified L1D/shared array, a
 * cache restricted to some of its ways, and the near/far halves of the L2.
 * Expected values are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mem/cache.h"
#include "mem/partition.h"
#include "config_util.h"

/* ---- carve-out choice ---- */

/* volta_v100: 128 KB array, L1D 32 sets x 32 ways x 128 B (4 KB a way),
 * carve-outs 0, 8, 16, 32, 64, 96 KB.  The smallest carve-out holding the
 * bytes wins; the L1D keeps (128 - carve-out) / 4 ways. */
static void test_carveout_volta(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "volta_v100");
    uint32_t ways = 0;
    assert_int_equal(config_l1d_carveout(&c, 0, &ways), 0);
    assert_int_equal(ways, 32);                 /* no shared memory: the whole 128 KB */
    assert_int_equal(config_l1d_carveout(&c, 1, &ways), 8);
    assert_int_equal(ways, 30);                 /* 120 KB */
    assert_int_equal(config_l1d_carveout(&c, 8192, &ways), 8);
    assert_int_equal(ways, 30);
    assert_int_equal(config_l1d_carveout(&c, 8193, &ways), 16);
    assert_int_equal(ways, 28);                 /* 112 KB */
    assert_int_equal(config_l1d_carveout(&c, 40 * 1024, &ways), 64);
    assert_int_equal(ways, 16);                 /* 64 KB */
    assert_int_equal(config_l1d_carveout(&c, 96 * 1024, &ways), 96);
    assert_int_equal(ways, 8);                  /* 32 KB */
}

/* ampere_a100: 192 KB (48 ways of 4 KB), carve-outs up to 164 KB; hopper_h100:
 * 256 KB (64 ways), up to 228 KB. */
static void test_carveout_ampere_hopper(void **state) {
    (void)state;
    sim_config a, h;
    load_shipped(&a, "ampere_a100");
    load_shipped(&h, "hopper_h100");
    uint32_t ways = 0;
    assert_int_equal(config_l1d_carveout(&a, 70 * 1024, &ways), 100);
    assert_int_equal(ways, 23);                 /* (192 - 100) / 4 */
    assert_int_equal(config_l1d_carveout(&a, 164 * 1024, &ways), 164);
    assert_int_equal(ways, 7);                  /* 28 KB */
    assert_int_equal(config_l1d_carveout(&h, 200 * 1024, &ways), 228);
    assert_int_equal(ways, 7);                  /* (256 - 228) / 4 */
    assert_int_equal(config_l1d_carveout(&h, 33 * 1024, &ways), 64);
    assert_int_equal(ways, 48);
}

/* Without -gpgpu_adaptive_cache_config the L1D keeps every way whatever the
 * shared memory (fermi_gtx480: 4 ways). */
static void test_carveout_off(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "fermi_gtx480");
    uint32_t ways = 0;
    assert_int_equal(config_l1d_carveout(&c, 48 * 1024, &ways), 0);
    assert_int_equal(ways, 4);
}

/* Bad unified configurations are refused with the option named. */
static void expect_refused(const char *text, const char *needle) {
    sim_config c;
    char err[512] = "";
    config_defaults(&c);
    int rc = config_load_string(&c, text, "t.cfg", err, sizeof err);
    if (!rc) rc = config_finalize(&c, err, sizeof err);
    assert_int_equal(rc, -1);
    if (!strstr(err, needle)) print_error("'%s' does not mention '%s'\n", err, needle);
    assert_non_null(strstr(err, needle));
}

static void test_carveout_checks(void **state) {
    (void)state;
    /* the L1D string (32 x 128 x 4 = 16 KB) is not the 128 KB array */
    expect_refused("-gpgpu_adaptive_cache_config 1\n-gpgpu_unified_l1d_size 128\n-gpgpu_shmem_option 0,8\n",
                   "-gpgpu_unified_l1d_size");
    /* 6 KB is not a whole number of 4 KB ways */
    expect_refused("-gpgpu_adaptive_cache_config 1\n-gpgpu_unified_l1d_size 16\n-gpgpu_shmem_option 0,6\n"
                   "-gpgpu_shmem_size 6144\n",
                   "-gpgpu_shmem_option");
    /* the L1D must be emptied between kernels */
    expect_refused("-gpgpu_adaptive_cache_config 1\n-gpgpu_unified_l1d_size 16\n-gpgpu_shmem_option 0,8\n"
                   "-gpgpu_shmem_size 8192\n-gpgpu_flush_l1_cache 0\n",
                   "-gpgpu_flush_l1_cache");
    /* not ascending */
    expect_refused("-gpgpu_shmem_option 8,0\n", "ascending");
    /* far L2 half on a multi-module GPU */
    expect_refused("-l2_far_latency 10\n-numa_n_modules 2\n-gpgpu_n_clusters 16\n-gpgpu_n_mem 8\n", "-l2_far_latency");
}

/* ---- a cache restricted to some ways ---- */

static mem_req rd_line(uint64_t addr) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.type = MEM_GLOBAL_ACC_R;
    r.sector_mask = 0xF;
    r.size = 128;
    return r;
}

/* One set of 4 ways limited to 2: three lines read into it leave only the last
 * two (LRU), and ways 2 and 3 are never used.  Limiting a cache that holds a
 * line in a way given up is refused. */
static void test_active_ways(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:1:128:4,L:R:m:N:L,A:8:4,8", &g, err, sizeof err), 0);
    cache *c = cache_create(&g, "t", err, sizeof err);
    assert_non_null(c);
    assert_int_equal(cache_active_ways(c), 4);
    assert_int_equal(cache_set_active_ways(c, 0), -1);
    assert_int_equal(cache_set_active_ways(c, 5), -1);
    assert_int_equal(cache_set_active_ways(c, 2), 0);
    mem_req woken[8];
    for (uint64_t i = 0; i < 3; i++) {
        mem_req r = rd_line(i * 128);
        assert_int_equal(cache_access(c, &r, i, NULL), CACHE_MISS);
        mem_req out = *cache_miss_queue_peek(c);
        cache_miss_queue_pop(c);
        assert_int_equal(cache_fill(c, &out, i, woken, 8), 1);
    }
    assert_null(cache_probe(c, 0));
    assert_non_null(cache_probe(c, 128));
    assert_non_null(cache_probe(c, 256));
    assert_false(cache_line_at(c, 0, 2)->allocated);
    assert_false(cache_line_at(c, 0, 3)->allocated);
    /* growing back is always allowed; shrinking below a held line is not */
    assert_int_equal(cache_set_active_ways(c, 4), 0);
    mem_req r = rd_line(3 * 128);
    assert_int_equal(cache_access(c, &r, 9, NULL), CACHE_MISS);
    mem_req out = *cache_miss_queue_peek(c);
    cache_miss_queue_pop(c);
    cache_fill(c, &out, 9, woken, 8);
    assert_true(cache_line_at(c, 0, 2)->allocated);   /* the first invalid way */
    assert_int_equal(cache_set_active_ways(c, 2), -1);
    assert_int_equal(cache_active_ways(c), 4);
    cache_invalidate_all(c);
    assert_int_equal(cache_set_active_ways(c, 2), 0);
    cache_destroy(c);
}

/* ---- near and far L2 halves ---- */

/* Halves: the first n - n/2 of n SMs or channels are half 0 (108 SMs: 0-53;
 * 5 channels: 0-2). */
static void test_half_assignment(void **state) {
    (void)state;
    assert_int_equal(l2_half_of(0, 108), 0);
    assert_int_equal(l2_half_of(53, 108), 0);
    assert_int_equal(l2_half_of(54, 108), 1);
    assert_int_equal(l2_half_of(107, 108), 1);
    assert_int_equal(l2_half_of(2, 5), 0);
    assert_int_equal(l2_half_of(3, 5), 1);
    partition_config pc;
    memset(&pc, 0, sizeof pc);
    pc.num_sms = 4;
    assert_false(partition_is_far(&pc, 6, 3, 0));    /* far_latency 0: one uniform L2 */
    pc.far_latency = 30;
    assert_false(partition_is_far(&pc, 6, 0, 0));
    assert_true(partition_is_far(&pc, 6, 0, 3));
    assert_true(partition_is_far(&pc, 6, 3, 2));
    assert_false(partition_is_far(&pc, 6, 2, 5));
}

static partition *far_partition(addrmap *am) {
    addrmap_config ac = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    assert_int_equal(addrmap_init(am, &ac, err, sizeof err), 0);
    partition_config pc;
    memset(&pc, 0, sizeof pc);
    assert_int_equal(cache_geometry_parse("N:64:128:8,L:B:m:W:L,A:32:4,4:0,32", &pc.l2, err, sizeof err), 0);
    assert_int_equal(dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:"
                                       "nbkgrp=1:CCDL=0:RTPL=0",
                                       &pc.dram.t, err, sizeof err),
                     0);
    pc.dram.bus_width = 4;
    pc.dram.chips = 2;
    pc.dram.burst_length = 8;
    pc.dram.freq_ratio = 4;
    pc.dram.queue_size = 16;
    pc.dram.return_queue_size = 116;
    snprintf(pc.dram.scheduler, sizeof pc.dram.scheduler, "frfcfs");
    pc.rop_latency = 10;
    pc.dram_latency = 5;
    pc.far_latency = 30;
    pc.num_sms = 4;
    for (int q = 0; q < PART_Q_COUNT; q++) pc.queue_size[q] = 8;
    partition *p = partition_create(&pc, am, 0, err, sizeof err);
    if (!p) print_error("%s\n", err);
    assert_non_null(p);
    return p;
}

/* Cycles until slice 0 answers (its reply popped into *out), -1 past `limit`. */
static int64_t until_reply(partition *p, int64_t limit, mem_req *out) {
    for (int64_t t = 0; t < limit; t++) {
        partition_l2_cycle(p);
        partition_dram_cycle(p);
        const mem_req *r = partition_reply_peek(p, 0);
        if (r) {
            *out = *r;
            partition_reply_pop(p, 0);
            return t;
        }
    }
    return -1;
}

/* Channel 0 is in half 0 with SMs 0-1 of 4.  Once the line is in the L2, a hit
 * from SM 0 takes the ROP delay (answered in step 10, as test_dram's partition
 * tests count), one from SM 3 the ROP delay and the far latency (step 40). */
static void test_partition_far_latency(void **state) {
    (void)state;
    addrmap am;
    partition *p = far_partition(&am);
    mem_req warm = rd_line(0), out;
    warm.sm = 0;
    assert_int_equal(partition_push(p, 0, &warm), 0);
    assert_true(until_reply(p, 10000, &out) > 0);
    mem_req near = rd_line(0), far = rd_line(0);
    near.sm = 1;
    far.sm = 3;
    assert_int_equal(partition_push(p, 0, &near), 0);
    assert_int_equal(until_reply(p, 1000, &out), 10);
    assert_int_equal(out.sm, 1);
    assert_int_equal(partition_push(p, 0, &far), 0);
    assert_int_equal(until_reply(p, 1000, &out), 40);
    assert_int_equal(out.sm, 3);
    partition_destroy(p);
}

/* A near request that arrives after a far one does not wait behind it: pushed
 * a cycle later, it is answered 30 - 1 cycles earlier. */
static void test_partition_near_passes_far(void **state) {
    (void)state;
    addrmap am;
    partition *p = far_partition(&am);
    mem_req warm = rd_line(0), out;
    assert_int_equal(partition_push(p, 0, &warm), 0);
    assert_true(until_reply(p, 10000, &out) > 0);
    mem_req far = rd_line(0), near = rd_line(0);
    far.sm = 2;
    far.tag = 1;
    near.sm = 0;
    near.tag = 2;
    assert_int_equal(partition_push(p, 0, &far), 0);
    partition_l2_cycle(p);
    partition_dram_cycle(p);
    assert_int_equal(partition_push(p, 0, &near), 0);
    assert_int_equal(until_reply(p, 1000, &out), 10);
    assert_int_equal(out.tag, 2);
    assert_int_equal(until_reply(p, 1000, &out), 40 - 1 - 10 - 1);
    assert_int_equal(out.tag, 1);
    assert_true(partition_idle(p));
    partition_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carveout_volta),
        cmocka_unit_test(test_carveout_ampere_hopper),
        cmocka_unit_test(test_carveout_off),
        cmocka_unit_test(test_carveout_checks),
        cmocka_unit_test(test_active_ways),
        cmocka_unit_test(test_half_assignment),
        cmocka_unit_test(test_partition_far_latency),
        cmocka_unit_test(test_partition_near_passes_far),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
