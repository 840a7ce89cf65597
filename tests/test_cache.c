/* The generic cache: geometry strings, replacement order, MSHR merging,
 * reservation failures, sectors, write policies.  Expected values are worked
 * out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mem/cache.h"

static mem_req req(uint64_t addr, uint8_t type, uint8_t sectors, uint64_t tag) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.type = type;
    r.sector_mask = sectors;
    r.size = (uint16_t)(mem_sector_count(sectors) * MEM_SECTOR_SIZE);
    r.tag = tag;
    r.warp = (uint16_t)tag;
    return r;
}

static cache *make(const char *geometry) {
    cache_geometry g;
    char err[256];
    int rc = cache_geometry_parse(geometry, &g, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    cache *c = cache_create(&g, "test", err, sizeof err);
    assert_non_null(c);
    return c;
}

/* Answer the oldest queued fetch as the level below would; returns woken count. */
static int serve_one(cache *c, mem_req *woken, uint32_t cap) {
    const mem_req *out = cache_miss_queue_peek(c);
    assert_non_null(out);
    mem_req reply = *out;
    cache_miss_queue_pop(c);
    return cache_fill(c, &reply, 0, woken, cap);
}

static cache_outcome read_line(cache *c, uint64_t addr, uint64_t tag) {
    mem_req r = req(addr, MEM_GLOBAL_ACC_R, 0xF, tag);
    return cache_access(c, &r, 0, NULL);
}

/* ---- geometry strings ---- */

static void test_parse_fermi_l1(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:32:128:4,L:L:m:N:H,A:32:8,8", &g, err, sizeof err), 0);
    assert_false(g.sectored);
    assert_int_equal(g.nsets, 32);
    assert_int_equal(g.line_size, 128);
    assert_int_equal(g.assoc, 4);
    assert_int_equal(cache_size_bytes(&g), 16384);
    assert_string_equal(g.policy, "lru");
    assert_int_equal(g.write_global, CACHE_WRITE_THROUGH);   /* 'L': global write-through */
    assert_int_equal(g.write_local, CACHE_WRITE_BACK);       /*       local write-back */
    assert_int_equal(g.alloc, CACHE_ALLOC_ON_MISS);
    assert_int_equal(g.write_alloc, CACHE_NO_WRITE_ALLOCATE);
    assert_int_equal(g.index, CACHE_INDEX_XOR);
    assert_int_equal(g.mshr_kind, 'A');
    assert_int_equal(g.mshr_entries, 32);
    assert_int_equal(g.mshr_max_merge, 8);
    assert_int_equal(g.miss_queue_size, 8);
}

static void test_parse_l2_and_3x_forms(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:64:128:8,L:B:m:W:L,A:32:4,4:0,32", &g, err, sizeof err), 0);
    assert_int_equal(cache_size_bytes(&g), 65536);
    assert_int_equal(g.write_global, CACHE_WRITE_BACK);
    assert_int_equal(g.write_alloc, CACHE_WRITE_ALLOCATE);
    assert_int_equal(g.miss_queue_size, 4);
    assert_int_equal(g.data_port_width, 32);
    /* GPGPU-Sim 3.x form: no N|S prefix, no index letter. */
    assert_int_equal(cache_geometry_parse("32:128:4,F:E:f:N,A:16:2,4", &g, err, sizeof err), 0);
    assert_int_equal(g.nsets, 32);
    assert_string_equal(g.policy, "fifo");
    assert_int_equal(g.write_global, CACHE_WRITE_EVICT);
    assert_int_equal(g.alloc, CACHE_ALLOC_ON_FILL);
    assert_int_equal(g.index, CACHE_INDEX_LINEAR);
    assert_int_equal(cache_geometry_parse("S:32:128:4,L:L:m:N:H,A:32:8,8", &g, err, sizeof err), 0);
    assert_true(g.sectored);
}

static void expect_parse_error(const char *text, const char *fragment) {
    cache_geometry g;
    char err[256] = "";
    assert_int_equal(cache_geometry_parse(text, &g, err, sizeof err), -1);
    if (!strstr(err, fragment)) print_error("'%s' -> '%s' (wanted '%s')\n", text, err, fragment);
    assert_non_null(strstr(err, fragment));
}

static void test_parse_errors(void **state) {
    (void)state;
    expect_parse_error("N:32:100:4,L:L:m:N:H,A:32:8,8", "line size '100'");
    expect_parse_error("N:32:128:0,L:L:m:N:H,A:32:8,8", "associativity '0'");
    expect_parse_error("N:32:128:4,L:L:m:N:H,A:32:8", "expected 4 or 5");
    expect_parse_error("N:32:128:4,Q:L:m:N:H,A:32:8,8", "replacement 'Q'");
    expect_parse_error("N:32:128:4,L:X:m:N:H,A:32:8,8", "write policy 'X'");
    expect_parse_error("N:32:128:4,L:L:z:N:H,A:32:8,8", "allocation policy 'z'");
    expect_parse_error("N:32:128:4,L:L:m:N:H,A:0:8,8", "MSHR entries '0'");
    expect_parse_error("N:30:128:4,L:L:m:N:H,A:32:8,8", "power-of-two number of sets");
    expect_parse_error("N:32:128:4,L:L:m:N:H,A:32:8,x", "miss queue size 'x'");
    /* write-back (B; L: local write-back) with one miss-queue entry: a dirty eviction could never be accepted */
    expect_parse_error("S:1:128:1,L:B:m:L:L,A:1:1,1:0,32", "a write-back cache needs a miss queue of at least 2");
    expect_parse_error("N:32:128:4,L:L:m:N:H,A:32:8,1", "a write-back cache needs a miss queue of at least 2");
    expect_parse_error("X:32:128:4,L:L:m:N:H,A:32:8,8", "N (normal) or S (sectored)");
    expect_parse_error("", "empty");
}

/* ---- replacement ---- */

/* One set, 4 ways: A B C D fill it; touching A makes B the LRU line, then C. */
static void test_lru_victim_order(void **state) {
    (void)state;
    cache *c = make("N:1:128:4,L:R:m:N:L,A:8:4,8");
    mem_req woken[4];
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180, E = 0x200, F = 0x280;
    uint64_t lines[4] = {A, B, C, D};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(read_line(c, lines[i], (uint64_t)i), CACHE_MISS);
        assert_int_equal(serve_one(c, woken, 4), 1);
    }
    assert_int_equal(read_line(c, A, 9), CACHE_HIT);
    assert_int_equal(read_line(c, E, 10), CACHE_MISS);   /* evicts B */
    assert_null(cache_probe(c, B));
    assert_non_null(cache_probe(c, A));
    assert_int_equal(serve_one(c, woken, 4), 1);
    assert_int_equal(read_line(c, F, 11), CACHE_MISS);   /* evicts C */
    assert_null(cache_probe(c, C));
    assert_non_null(cache_probe(c, D));
    assert_int_equal(cache_stats(c)->evictions, 2);
    cache_destroy(c);
}

/* Same sequence with FIFO: the hit on A does not save it. */
static void test_fifo_victim_order(void **state) {
    (void)state;
    cache *c = make("N:1:128:4,F:R:m:N:L,A:8:4,8");
    mem_req woken[4];
    for (uint64_t i = 0; i < 4; i++) {
        assert_int_equal(read_line(c, i * 128, i), CACHE_MISS);
        assert_int_equal(serve_one(c, woken, 4), 1);
    }
    assert_int_equal(read_line(c, 0, 9), CACHE_HIT);
    assert_int_equal(read_line(c, 4 * 128, 10), CACHE_MISS);
    assert_null(cache_probe(c, 0));
    assert_non_null(cache_probe(c, 128));
    cache_destroy(c);
}

/* Fermi L1D (16 KB, 4-way, 32 sets): an 8 KB array is 64 lines, 2 per set, so the
 * second pass hits 64 times.  A 32 KB array (8 lines per set, cyclic) thrashes LRU:
 * every access of the second pass misses too. */
static void run_two_passes(cache *c, uint32_t bytes) {
    mem_req woken[8];
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t a = 0x10000; a < 0x10000 + bytes; a += 128) {
            if (read_line(c, a, 0) == CACHE_MISS) assert_int_equal(serve_one(c, woken, 8), 1);
        }
    }
}

static void test_8kb_rereads_hit(void **state) {
    (void)state;
    cache *c = make("N:32:128:4,L:L:m:N:H,A:32:8,8");
    run_two_passes(c, 8192);
    assert_int_equal(cache_total(c, CACHE_MISS), 64);
    assert_int_equal(cache_total(c, CACHE_HIT), 64);
    assert_int_equal(cache_stats(c)->evictions, 0);
    cache_destroy(c);

    c = make("N:32:128:4,L:L:m:N:H,A:32:8,8");
    run_two_passes(c, 32768);
    assert_int_equal(cache_total(c, CACHE_MISS), 512);
    assert_int_equal(cache_total(c, CACHE_HIT), 0);
    cache_destroy(c);
}

/* ---- MSHRs ---- */

/* Four warps read one line before it arrives: 1 miss + 3 pending hits, one fetch,
 * and the fill wakes all four in arrival order.  With max_merge 4, a fifth
 * request cannot merge and is refused (MSHR merge fail), not dropped. */
static void test_mshr_merge_pending_hits(void **state) {
    (void)state;
    cache *c = make("N:32:128:4,L:L:m:N:L,A:4:4,8");
    assert_int_equal(read_line(c, 0x4000, 0), CACHE_MISS);
    for (uint64_t w = 1; w < 4; w++) assert_int_equal(read_line(c, 0x4000 + 4 * w, w), CACHE_HIT_RESERVED);
    cache_fail_reason why;
    mem_req r = req(0x4000, MEM_GLOBAL_ACC_R, 0x1, 4);
    assert_int_equal(cache_access(c, &r, 0, &why), CACHE_RESERVATION_FAIL);
    assert_int_equal(why, CACHE_FAIL_MSHR_MERGE);
    assert_int_equal(cache_miss_queue_length(c), 1);
    assert_int_equal(cache_total(c, CACHE_HIT_RESERVED), 3);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_MSHR_MERGE], 1);

    mem_req woken[4];
    assert_int_equal(serve_one(c, woken, 4), 4);
    for (uint64_t w = 0; w < 4; w++) assert_int_equal(woken[w].tag, w);
    assert_int_equal(cache_mshr_used(c), 0);
    /* The refused request, retried, now hits. */
    assert_int_equal(cache_access(c, &r, 0, &why), CACHE_HIT);
    cache_destroy(c);
}

/* Two MSHR entries: the third distinct miss is refused until a fill frees an
 * entry; after the retry every request comes back exactly once. */
static void test_mshr_full_then_retry(void **state) {
    (void)state;
    cache *c = make("N:32:128:4,L:L:m:N:L,A:2:8,8");
    cache_fail_reason why;
    mem_req x = req(0x0000, MEM_GLOBAL_ACC_R, 0xF, 100);
    mem_req y = req(0x1000, MEM_GLOBAL_ACC_R, 0xF, 101);
    mem_req z = req(0x2000, MEM_GLOBAL_ACC_R, 0xF, 102);
    assert_int_equal(cache_access(c, &x, 0, &why), CACHE_MISS);
    assert_int_equal(cache_access(c, &y, 0, &why), CACHE_MISS);
    assert_int_equal(cache_access(c, &z, 0, &why), CACHE_RESERVATION_FAIL);
    assert_int_equal(why, CACHE_FAIL_MSHR_ENTRY);
    assert_int_equal(cache_access(c, &z, 0, &why), CACHE_RESERVATION_FAIL);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_MSHR_ENTRY], 2);

    mem_req woken[8];
    uint64_t returned[3];
    int nret = 0;
    assert_int_equal(serve_one(c, woken, 8), 1);   /* x */
    returned[nret++] = woken[0].tag;
    assert_int_equal(cache_access(c, &z, 0, &why), CACHE_MISS);
    assert_int_equal(serve_one(c, woken, 8), 1);   /* y */
    returned[nret++] = woken[0].tag;
    assert_int_equal(serve_one(c, woken, 8), 1);   /* z */
    returned[nret++] = woken[0].tag;
    assert_int_equal(returned[0], 100);
    assert_int_equal(returned[1], 101);
    assert_int_equal(returned[2], 102);
    assert_int_equal(cache_total(c, CACHE_MISS), 3);
    assert_int_equal(cache_total(c, CACHE_RESERVATION_FAIL), 2);
    assert_int_equal(cache_total_accesses(c), 3);   /* failed tries are not accesses */
    assert_null(cache_miss_queue_peek(c));
    cache_destroy(c);
}

/* cache_count_fail stands for a retry the cache would refuse: two identical
 * caches (miss queue of 1, LRU) take a miss, then refuse line 0x1000 for want
 * of miss-queue room (and a global write to line 0x2000, written through,
 * likewise).
 * One is asked again three times, the other counts the three refusals with
 * cache_count_fail: every counter agrees (by hand: 4 refusals of the read, 2 of
 * the write, 6 MISS_QUEUE fails), and after a pop both take the read as a miss.
 * LRU and FIFO choose purely (their refusals repeat); LPC, sharing and ldesc
 * count or mark lines in find_victim, or read the time, so theirs may not. */
static void test_fail_replay_counts_as_retry(void **state) {
    (void)state;
    cache *a = make("N:32:128:4,L:T:m:N:L,A:8:8,1"), *b = make("N:32:128:4,L:T:m:N:L,A:8:8,1");
    assert_true(cache_fail_repeats(a));
    mem_req y = req(0x1000, MEM_GLOBAL_ACC_R, 0xF, 1), w = req(0x2040, MEM_GLOBAL_ACC_W, 0x2, 2);
    cache_fail_reason why_y, why_w;
    for (int k = 0; k < 2; k++) {
        cache *c = k ? b : a;
        assert_int_equal(read_line(c, 0x0000, 0), CACHE_MISS);
        assert_int_equal(cache_access(c, &y, 0, &why_y), CACHE_RESERVATION_FAIL);
        assert_int_equal(cache_access(c, &w, 0, &why_w), CACHE_RESERVATION_FAIL);
    }
    assert_int_equal(why_y, CACHE_FAIL_MISS_QUEUE);
    assert_int_equal(why_w, CACHE_FAIL_MISS_QUEUE);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cache_access(a, &y, (uint64_t)i + 1, NULL), CACHE_RESERVATION_FAIL);
        cache_count_fail(b, y.type, why_y);
    }
    assert_int_equal(cache_access(a, &w, 9, NULL), CACHE_RESERVATION_FAIL);
    cache_count_fail(b, w.type, why_w);
    assert_memory_equal(cache_stats(a), cache_stats(b), sizeof(cache_counters));
    assert_int_equal(cache_stats(b)->access[MEM_GLOBAL_ACC_R][CACHE_RESERVATION_FAIL], 4);
    assert_int_equal(cache_stats(b)->access[MEM_GLOBAL_ACC_W][CACHE_RESERVATION_FAIL], 2);
    assert_int_equal(cache_stats(b)->fail[CACHE_FAIL_MISS_QUEUE], 6);
    cache_miss_queue_pop(a);
    cache_miss_queue_pop(b);
    assert_int_equal(cache_access(a, &y, 10, NULL), CACHE_MISS);
    assert_int_equal(cache_access(b, &y, 10, NULL), CACHE_MISS);
    assert_memory_equal(cache_stats(a), cache_stats(b), sizeof(cache_counters));
    cache_destroy(a);
    cache_destroy(b);
    assert_int_equal(cache_policy_find("lru")->pure_choice, 1);
    assert_int_equal(cache_policy_find("fifo")->pure_choice, 1);
    assert_int_equal(cache_policy_find("lpc")->pure_choice, 0);
    assert_int_equal(cache_policy_find("sharing")->pure_choice, 0);
    assert_int_equal(cache_policy_find("ldesc")->pure_choice, 0);
}

static void test_miss_queue_and_line_reservation_fails(void **state) {
    (void)state;
    cache_fail_reason why;
    /* Miss queue of 1: the second miss waits until the first fetch is sent. */
    cache *c = make("N:32:128:4,L:T:m:N:L,A:8:8,1");
    assert_int_equal(read_line(c, 0x0000, 0), CACHE_MISS);
    mem_req y = req(0x1000, MEM_GLOBAL_ACC_R, 0xF, 1);
    assert_int_equal(cache_access(c, &y, 0, &why), CACHE_RESERVATION_FAIL);
    assert_int_equal(why, CACHE_FAIL_MISS_QUEUE);
    cache_miss_queue_pop(c);
    assert_int_equal(cache_access(c, &y, 0, &why), CACHE_MISS);
    cache_destroy(c);

    /* One set, two ways, both reserved by misses in flight: a third line cannot
     * reserve a way (allocate-on-miss). */
    c = make("N:1:128:2,L:R:m:N:L,A:8:8,8");
    assert_int_equal(read_line(c, 0x000, 0), CACHE_MISS);
    assert_int_equal(read_line(c, 0x080, 1), CACHE_MISS);
    mem_req z = req(0x100, MEM_GLOBAL_ACC_R, 0xF, 2);
    assert_int_equal(cache_access(c, &z, 0, &why), CACHE_RESERVATION_FAIL);
    assert_int_equal(why, CACHE_FAIL_LINE_ALLOC);
    mem_req woken[8];
    assert_int_equal(serve_one(c, woken, 8), 1);
    assert_int_equal(cache_access(c, &z, 0, &why), CACHE_MISS);   /* evicts line 0x000 */
    assert_null(cache_probe(c, 0x000));
    cache_destroy(c);
}

/* Allocate-on-fill: the old line stays usable until the new data arrives. */
static void test_allocate_on_fill(void **state) {
    (void)state;
    cache *c = make("N:1:128:1,L:R:f:N:L,A:8:8,8");
    mem_req woken[8];
    assert_int_equal(read_line(c, 0x000, 0), CACHE_MISS);
    assert_int_equal(serve_one(c, woken, 8), 1);
    assert_int_equal(read_line(c, 0x080, 1), CACHE_MISS);
    assert_int_equal(read_line(c, 0x000, 2), CACHE_HIT);     /* still there */
    assert_int_equal(serve_one(c, woken, 8), 1);
    assert_null(cache_probe(c, 0x000));
    assert_non_null(cache_probe(c, 0x080));
    cache_destroy(c);
}

/* ---- sectors ---- */

static void test_sectored_fetches_missing_sectors_only(void **state) {
    (void)state;
    cache *c = make("S:32:128:4,L:L:m:N:L,A:32:8,8");
    mem_req woken[8];
    mem_req r0 = req(0x8000, MEM_GLOBAL_ACC_R, 0x1, 0);
    assert_int_equal(cache_access(c, &r0, 0, NULL), CACHE_MISS);
    const mem_req *f = cache_miss_queue_peek(c);
    assert_int_equal(f->sector_mask, 0x1);
    assert_int_equal(f->size, 32);
    assert_int_equal(f->addr, 0x8000);
    assert_int_equal(serve_one(c, woken, 8), 1);

    /* Sectors 0-1: sector 0 is present, only sector 1 is fetched (a sector miss). */
    mem_req r01 = req(0x8000, MEM_GLOBAL_ACC_R, 0x3, 1);
    assert_int_equal(cache_access(c, &r01, 0, NULL), CACHE_MISS);
    assert_int_equal(cache_miss_queue_peek(c)->sector_mask, 0x2);
    assert_int_equal(cache_stats(c)->sector_misses, 1);
    /* A mask counts from the sector of its address: 0x8020 with mask 0x1 is sector 1. */
    mem_req r1 = req(0x8020, MEM_GLOBAL_ACC_R, 0x1, 2);
    assert_int_equal(cache_access(c, &r1, 0, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(serve_one(c, woken, 8), 2);
    assert_int_equal(woken[0].tag, 1);
    assert_int_equal(woken[1].tag, 2);
    assert_int_equal(cache_probe(c, 0x8000)->valid, 0x3);
    assert_int_equal(cache_access(c, &r01, 0, NULL), CACHE_HIT);
    cache_destroy(c);

    /* The same first access in a non-sectored cache fetches the whole line. */
    c = make("N:32:128:4,L:L:m:N:L,A:32:8,8");
    assert_int_equal(cache_access(c, &r0, 0, NULL), CACHE_MISS);
    assert_int_equal(cache_miss_queue_peek(c)->sector_mask, 0xF);
    assert_int_equal(cache_miss_queue_peek(c)->size, 128);
    cache_destroy(c);
}

/* ---- write policies ---- */

static void test_fermi_l1_write_policies(void **state) {
    (void)state;
    /* 'L': global write-through (no allocate), local write-back. */
    cache *c = make("N:32:128:4,L:L:m:N:L,A:32:8,8");
    mem_req woken[8];
    assert_int_equal(read_line(c, 0x0, 0), CACHE_MISS);
    assert_int_equal(serve_one(c, woken, 8), 1);
    mem_req gw = req(0x0, MEM_GLOBAL_ACC_W, 0x1, 1);
    assert_int_equal(cache_access(c, &gw, 0, NULL), CACHE_HIT);
    assert_int_equal(cache_miss_queue_peek(c)->type, MEM_GLOBAL_ACC_W);   /* written through */
    assert_int_equal(cache_probe(c, 0x0)->dirty, 0);
    cache_miss_queue_pop(c);
    mem_req gw_miss = req(0x1000, MEM_GLOBAL_ACC_W, 0x1, 2);
    assert_int_equal(cache_access(c, &gw_miss, 0, NULL), CACHE_MISS);
    assert_null(cache_probe(c, 0x1000));                                   /* no allocate */
    cache_miss_queue_pop(c);
    /* A local write hit stays in the cache, dirty, and sends nothing. */
    mem_req lr = req(0x2000, MEM_LOCAL_ACC_R, 0xF, 3);
    assert_int_equal(cache_access(c, &lr, 0, NULL), CACHE_MISS);
    assert_int_equal(serve_one(c, woken, 8), 1);
    mem_req lw = req(0x2000, MEM_LOCAL_ACC_W, 0x4, 4);
    assert_int_equal(cache_access(c, &lw, 0, NULL), CACHE_HIT);
    assert_int_equal(cache_miss_queue_length(c), 0);
    assert_int_equal(cache_probe(c, 0x2000)->dirty, 0x4);
    cache_destroy(c);
}

static void test_write_evict(void **state) {
    (void)state;
    cache *c = make("N:32:128:4,L:E:m:N:L,A:32:8,8");
    mem_req woken[8];
    assert_int_equal(read_line(c, 0x0, 0), CACHE_MISS);
    assert_int_equal(serve_one(c, woken, 8), 1);
    mem_req w = req(0x0, MEM_GLOBAL_ACC_W, 0x1, 1);
    assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_HIT);
    assert_null(cache_probe(c, 0x0));              /* evicted by the write */
    assert_int_equal(cache_miss_queue_peek(c)->type, MEM_GLOBAL_ACC_W);
    assert_int_equal(cache_stats(c)->forwarded_writes, 1);
    cache_destroy(c);
}

/* L2-style write-back + write-allocate: a write miss allocates a dirty line
 * without fetching; evicting it sends a write-back of exactly the dirty sectors. */
static void test_write_back_allocate_and_writeback(void **state) {
    (void)state;
    cache *c = make("N:1:128:1,L:B:m:W:L,A:8:8,8");
    cache_set_writeback_type(c, MEM_L2_WRBK_ACC);
    mem_req w = req(0x100, MEM_GLOBAL_ACC_W, 0x6, 1);
    assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_MISS);
    assert_int_equal(cache_miss_queue_length(c), 0);            /* nothing fetched */
    assert_int_equal(cache_probe(c, 0x100)->dirty, 0x6);
    mem_req r = req(0x100, MEM_GLOBAL_ACC_R, 0x2, 2);
    assert_int_equal(cache_access(c, &r, 0, NULL), CACHE_HIT);  /* written sectors are valid */
    mem_req other = req(0x200, MEM_GLOBAL_ACC_R, 0xF, 3);
    assert_int_equal(cache_access(c, &other, 0, NULL), CACHE_MISS);
    const mem_req *wb = cache_miss_queue_peek(c);
    assert_int_equal(wb->type, MEM_L2_WRBK_ACC);
    assert_int_equal(wb->addr, 0x100);
    assert_int_equal(wb->sector_mask, 0x6);
    assert_int_equal(wb->size, 64);
    cache_miss_queue_pop(c);
    assert_int_equal(cache_miss_queue_peek(c)->type, MEM_GLOBAL_ACC_R);
    assert_int_equal(cache_stats(c)->writebacks, 1);
    cache_destroy(c);
}

static void test_fill_without_mshr_is_refused(void **state) {
    (void)state;
    cache *c = make("N:32:128:4,L:L:m:N:L,A:8:8,8");
    mem_req woken[8];
    mem_req stray = req(0x4000, MEM_GLOBAL_ACC_R, 0xF, 0);
    assert_int_equal(cache_fill(c, &stray, 0, woken, 8), -1);
    char err[128];
    cache_geometry g = *cache_geom(c);
    snprintf(g.policy, sizeof g.policy, "no_such_policy");
    assert_null(cache_create(&g, "L1D", err, sizeof err));
    assert_non_null(strstr(err, "unknown replacement policy 'no_such_policy'"));
    cache_destroy(c);
}

/* Random accesses, fills answered in random order: every request that waits
 * (cache_request_waits) is woken exactly once, nothing else is, and when all
 * fetches are answered the MSHRs are empty.  Several geometries and policies. */
static void stress(const char *geometry, uint64_t seed) {
    cache *c = make(geometry);
    enum { MAXW = 4096 };
    static uint8_t waiting[1 << 16];
    static mem_req outstanding[MAXW];
    memset(waiting, 0, sizeof waiting);
    uint32_t nout = 0, nwait = 0;
    mem_req woken[64];
    uint64_t x = seed, tag = 0;
    for (int step = 0; step < 40000 || nout || cache_miss_queue_length(c); step++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t op = (uint32_t)(x >> 60) % 4;
        if (step >= 40000) op = cache_miss_queue_length(c) ? 1 : 2;
        if (op == 0 && tag < (1 << 16)) {
            static const uint8_t types[4] = {MEM_GLOBAL_ACC_R, MEM_LOCAL_ACC_R, MEM_GLOBAL_ACC_W, MEM_LOCAL_ACC_W};
            uint8_t type = types[(x >> 8) % ((x >> 20) % 3 == 0 ? 4 : 2)];
            mem_req r = req(((x >> 24) % 96) * 128 + ((x >> 40) % 4) * 32, type, (uint8_t)(1u << ((x >> 40) % 4)), tag);
            if ((x >> 44) % 2) r.sector_mask = 0xF;
            cache_outcome o = cache_access(c, &r, (uint64_t)step, NULL);
            if (cache_request_waits(c, &r, o)) {
                waiting[tag] = 1;
                nwait++;
            }
            tag++;
        } else if (op == 1 && cache_miss_queue_length(c)) {
            const mem_req *m = cache_miss_queue_peek(c);
            if (!mem_access_is_write(m->type)) {
                assert_true(nout < MAXW);
                outstanding[nout++] = *m;
            }
            cache_miss_queue_pop(c);
        } else if (nout) {
            uint32_t i = (uint32_t)((x >> 16) % nout);
            mem_req f = outstanding[i];
            outstanding[i] = outstanding[--nout];
            int n = cache_fill(c, &f, (uint64_t)step, woken, 64);
            assert_true(n >= 0);
            for (int k = 0; k < n; k++) {
                assert_true(woken[k].tag < (1 << 16));
                assert_int_equal(waiting[woken[k].tag], 1);   /* waited, and not woken before */
                waiting[woken[k].tag] = 0;
                nwait--;
            }
        }
    }
    assert_int_equal(nwait, 0);
    assert_int_equal(cache_mshr_used(c), 0);
    assert_true(cache_total(c, CACHE_RESERVATION_FAIL) > 0);   /* the stress reached the limits */
    cache_destroy(c);
}

static void test_random_stress_no_request_lost(void **state) {
    (void)state;
    stress("N:4:128:2,L:L:m:N:L,A:4:2,2", 1);
    stress("S:4:128:2,L:L:m:N:L,A:4:3,2", 2);
    stress("N:4:128:2,L:B:m:W:L,A:4:2,2", 3);
    stress("S:4:128:2,F:B:f:F:L,A:4:4,3", 4);
    stress("N:8:128:4,L:E:f:N:H,A:8:8,4", 5);
    stress("S:2:128:4,L:T:m:W:L,A:2:2,1", 6);
}

/* ---- sector MSHRs (issue 8) ----
 * A sectored cache counts MSHR capacity in sectors and merges per sector.
 * "S:4:128:4,...,A:2:2,8": 2 sectors may be in flight, 2 requests per sector. */
static void test_sector_mshrs_count_sectors(void **state) {
    (void)state;
    cache *c = make("S:4:128:4,L:L:m:N:L,A:2:2,8");
    mem_req s0 = req(0x1000, MEM_GLOBAL_ACC_R, 0x1, 1), s1 = req(0x1020, MEM_GLOBAL_ACC_R, 0x1, 2);
    mem_req s2 = req(0x1040, MEM_GLOBAL_ACC_R, 0x1, 3);
    assert_int_equal(cache_access(c, &s0, 0, NULL), CACHE_MISS);   /* sector 0: 1 of 2 sectors */
    assert_int_equal(cache_access(c, &s1, 0, NULL), CACHE_MISS);   /* sector 1, same line: 2 of 2 */
    assert_int_equal(cache_mshr_used(c), 1);                       /* one line ... */
    assert_int_equal(cache_mshr_sectors_used(c), 2);               /* ... two sectors */
    cache_fail_reason why;
    assert_int_equal(cache_access(c, &s2, 0, &why), CACHE_RESERVATION_FAIL);   /* a third sector: full */
    assert_int_equal(why, CACHE_FAIL_MSHR_ENTRY);
    /* merging is per sector: 2 requests wait on sector 0 (the miss + 1 merge), a
     * third is refused, while sector 1 still takes one more */
    mem_req m0 = req(0x1000, MEM_GLOBAL_ACC_R, 0x1, 4), m0b = req(0x1000, MEM_GLOBAL_ACC_R, 0x1, 5);
    mem_req m1 = req(0x1020, MEM_GLOBAL_ACC_R, 0x1, 6);
    assert_int_equal(cache_access(c, &m0, 0, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(cache_access(c, &m0b, 0, &why), CACHE_RESERVATION_FAIL);
    assert_int_equal(why, CACHE_FAIL_MSHR_MERGE);
    assert_int_equal(cache_access(c, &m1, 0, NULL), CACHE_HIT_RESERVED);
    /* each fetch is one 32 B sector; the fill of sector 0 wakes its 2 requests only */
    mem_req woken[8];
    assert_int_equal(cache_miss_queue_peek(c)->size, 32);
    assert_int_equal(serve_one(c, woken, 8), 2);
    assert_int_equal(woken[0].tag, 1);
    assert_int_equal(woken[1].tag, 4);
    assert_int_equal(cache_mshr_sectors_used(c), 1);
    assert_int_equal(cache_access(c, &s2, 0, NULL), CACHE_MISS);   /* a sector freed: room again */
    cache_destroy(c);
}

/* A normal line answered in sector replies (a sectored L2 replies per sector)
 * is valid, and wakes its waiters, only when its last sector is in. */
static void test_normal_line_waits_for_every_sector(void **state) {
    (void)state;
    cache *c = make("N:4:128:4,L:L:m:N:L,S:4:8,8");
    mem_req r = req(0x2000, MEM_GLOBAL_ACC_R, 0x1, 7);
    assert_int_equal(cache_access(c, &r, 0, NULL), CACHE_MISS);
    assert_int_equal(cache_miss_queue_peek(c)->sector_mask, 0xF);  /* the whole line is asked for */
    cache_miss_queue_pop(c);
    mem_req woken[8];
    for (uint32_t k = 0; k < 4; k++) {
        mem_req part = req(0x2000 + 32 * k, MEM_GLOBAL_ACC_R, 0x1, 0);   /* sector k's reply */
        int n = cache_fill(c, &part, 0, woken, 8);
        assert_int_equal(n, k < 3 ? 0 : 2);   /* the miss and the pending hit below */
        assert_int_equal(cache_probe(c, 0x2000)->valid, k < 3 ? 0 : 0xF);
        if (k == 1) {   /* sector 0 has arrived, but the line is still being filled */
            mem_req again = req(0x2000, MEM_GLOBAL_ACC_R, 0x1, 8);
            assert_int_equal(cache_access(c, &again, 0, NULL), CACHE_HIT_RESERVED);
            assert_null(cache_miss_queue_peek(c));   /* nothing fetched twice */
        }
    }
    assert_int_equal(woken[0].tag, 7);
    assert_int_equal(woken[1].tag, 8);
    cache_destroy(c);
}

/* A fetch names the MSHR entry its miss opened (mem_req.mshr, the lowest free
 * entry: 0, then 1); a fill uses that entry when it is still the line's and
 * searches otherwise, so a wrong, stale or out-of-range hint answers the same.
 * Lines 0x1000 and 0x3000 miss into entries 0 and 1; line 0x1000's fill
 * carries hint 1 (line 0x3000's entry): it must still wake 0x1000's request
 * (tag 1) and free entry 0.  Then 0x5000 misses into entry 0 again; the stale
 * fill hint of 0x3000 (0, now 0x5000's) and an out-of-range one (200) find
 * their own lines. */
static void test_fill_mshr_hint(void **state) {
    (void)state;
    cache *c = make("N:32:128:4,L:L:m:N:L,A:4:4,8");
    mem_req f[3];
    assert_int_equal(read_line(c, 0x1000, 1), CACHE_MISS);
    assert_int_equal(read_line(c, 0x3000, 2), CACHE_MISS);
    for (int i = 0; i < 2; i++) {
        f[i] = *cache_miss_queue_peek(c);
        cache_miss_queue_pop(c);
        assert_int_equal(f[i].mshr[0], i);
    }
    mem_req woken[4];
    f[0].mshr[0] = 1;   /* names 0x3000's entry */
    assert_int_equal(cache_fill(c, &f[0], 0, woken, 4), 1);
    assert_int_equal(woken[0].tag, 1);
    assert_int_equal(cache_mshr_used(c), 1);
    assert_int_equal(read_line(c, 0x5000, 3), CACHE_MISS);
    f[2] = *cache_miss_queue_peek(c);
    cache_miss_queue_pop(c);
    assert_int_equal(f[2].mshr[0], 0);   /* entry 0 again */
    f[1].mshr[0] = 0;   /* stale: entry 0 is 0x5000's now */
    assert_int_equal(cache_fill(c, &f[1], 0, woken, 4), 1);
    assert_int_equal(woken[0].tag, 2);
    f[2].mshr[0] = 200;   /* past the last entry */
    assert_int_equal(cache_fill(c, &f[2], 0, woken, 4), 1);
    assert_int_equal(woken[0].tag, 3);
    assert_int_equal(cache_mshr_used(c), 0);
    mem_req late = f[2];   /* nothing waits for a line twice */
    assert_int_equal(cache_fill(c, &late, 0, woken, 4), -1);
    cache_destroy(c);
}

/* -gpgpu_perf_sim_memcpy: a forced fill allocates and validates sectors without
 * counting an access; a present line keeps its LRU position. */
static void test_force_fill(void **state) {
    (void)state;
    cache *c = make("S:1:128:2,L:B:m:L:L,A:8:4,8");   /* one set, 2 ways */
    assert_int_equal(cache_force_fill(c, 0x0000, 0x1), 0);
    assert_int_equal(cache_force_fill(c, 0x0020, 0x2), 0);        /* same line, sector 1 */
    assert_int_equal(cache_probe(c, 0x0000)->valid, 0x3);
    assert_int_equal(cache_probe(c, 0x0000)->dirty, 0);
    assert_int_equal(cache_total_accesses(c), 0);
    mem_req r = req(0x0020, MEM_GLOBAL_ACC_R, 0x1, 1);              /* sector 1 of line 0 */
    assert_int_equal(cache_access(c, &r, 0, NULL), CACHE_HIT);
    mem_req r2 = req(0x0040, MEM_GLOBAL_ACC_R, 0x1, 1);             /* sector 2: a sector miss */
    assert_int_equal(cache_access(c, &r2, 0, NULL), CACHE_MISS);
    cache_destroy(c);
    /* LRU order follows the copy: lines A, B copied, then A copied again (no
     * recency change), then C: C replaces A, the least recently inserted. */
    c = make("S:1:128:2,L:B:m:L:L,A:8:4,8");
    cache_force_fill(c, 0x000, 0x1);
    cache_force_fill(c, 0x080, 0x1);
    cache_force_fill(c, 0x000, 0x2);
    cache_force_fill(c, 0x100, 0x1);
    assert_null(cache_probe(c, 0x000));
    assert_non_null(cache_probe(c, 0x080));
    assert_non_null(cache_probe(c, 0x100));
    cache_destroy(c);
    /* a normal cache validates the whole line */
    c = make("N:1:128:2,L:B:m:W:L,A:8:4,8");
    cache_force_fill(c, 0x000, 0x4);
    assert_int_equal(cache_probe(c, 0x000)->valid, 0xF);
    cache_destroy(c);
}

/* -gpgpu_flush_l2_cache: dirty lines are dropped (no write-back), clean lines stay. */
static void test_flush_dirty(void **state) {
    (void)state;
    cache *c = make("N:4:128:2,L:B:m:W:L,A:8:4,8");
    mem_req w = req(0x000, MEM_GLOBAL_ACC_W, 0x1, 1);
    assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_MISS);     /* write-allocate: dirty */
    cache_force_fill(c, 0x080, 0x1);                                /* clean */
    assert_int_equal(cache_flush_dirty(c), 1);
    assert_null(cache_probe(c, 0x000));
    assert_non_null(cache_probe(c, 0x080));
    assert_null(cache_miss_queue_peek(c));                          /* no write-back sent */
    cache_destroy(c);
}

/* mem_sector_mask (inline, no loop) against the definition: sector s is in
 * the mask when some byte of [addr, addr + max(size, 1)) inside addr's line
 * (line = addr rounded down to line_size) lies in [32 s, 32 s + 32) of that
 * line, s < 8.  Every offset of two lines, sizes 0..300, all line sizes 32..256
 * and a non-power-of-two one (96: the division path). */
static void test_sector_mask_matches_definition(void **state) {
    (void)state;
    static const uint32_t lines[] = {32, 64, 96, 128, 256};
    for (size_t li = 0; li < sizeof lines / sizeof lines[0]; li++) {
        uint32_t line = lines[li];
        for (uint64_t addr = 1000 * line; addr < 1002 * line; addr++)
            for (uint32_t size = 0; size <= 300; size++) {
                uint64_t base = addr - addr % line;
                uint64_t end = addr + (size ? size : 1);
                uint8_t want = 0;
                for (uint64_t b = addr; b < end && b < base + line; b++)
                    if ((b - base) / 32 < 8) want |= (uint8_t)(1u << ((b - base) / 32));
                assert_int_equal(mem_sector_mask(addr, size, line), want);
            }
    }
}

/* ---- victim reports (GPGPU-Sim 3.x's probe victim; the CCWS authors' VTA feed) ---- */

typedef struct {
    int n;
    uint64_t line[8];
    uint32_t warp[8];
} victim_log;

static void log_victim(void *ctx, uint64_t line_addr, uint32_t owner, const mem_req *cause) {
    (void)cause;
    victim_log *v = ctx;
    assert_true(v->n < 8);
    v->line[v->n] = line_addr;
    v->warp[v->n++] = owner;
}

static void log_eviction(void *ctx, const cache_line *line, const mem_req *cause) {
    log_victim(ctx, line->line_addr, line->warp, cause);
}

/* One set, two ways, global writes evict on a hit and allocate nothing on a miss
 * (ccws_gtx285's L1D rules).  Worked by hand (req() makes the tag the warp):
 *  1. warp 1 reads A: miss into way 0, which never held a line: no report.
 *  2. warp 2 reads B: miss into way 1: no report.
 *  3. warp 3 reads B: pending hit (merged): way 1 now belongs to warp 3.
 *  4. both fills arrive.
 *  5. warp 4 writes C: a miss that allocates nothing; a read would take the LRU
 *     way 0 (A): report (A, warp 1); way 0 now belongs to warp 4.
 *  6. warp 5 writes B: a hit, which invalidates way 1 (no report).
 *  7. warp 6 reads D: takes the invalid way 1, whose last line was B, last
 *     claimed by warp 3: report (B, warp 3).
 *  8. warp 7 reads E: LRU is way 0 (A, inserted at 1; writes do not touch):
 *     report (A, warp 4), where a genuine eviction names A's allocator, warp 1.
 * The eviction hook on the same sequence sees only step 8's eviction. */
static void test_victim_reports_follow_probe(void **state) {
    (void)state;
    cache *c = make("N:1:128:2,L:E:m:N:L,A:8:4,8");
    victim_log probe = {0}, evictions = {0};
    assert_int_equal(cache_set_victim_hook(c, log_victim, &probe), 0);
    cache_set_evict_hook(c, log_eviction, &evictions);
    mem_req woken[4];
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180, E = 0x200;
    assert_int_equal(read_line(c, A, 1), CACHE_MISS);
    assert_int_equal(read_line(c, B, 2), CACHE_MISS);
    assert_int_equal(read_line(c, B, 3), CACHE_HIT_RESERVED);
    assert_int_equal(probe.n, 0);
    assert_int_equal(serve_one(c, woken, 4), 1);
    assert_int_equal(serve_one(c, woken, 4), 2);
    mem_req wc = req(C, MEM_GLOBAL_ACC_W, 0x1, 4);
    assert_int_equal(cache_access(c, &wc, 0, NULL), CACHE_MISS);
    assert_null(cache_probe(c, C));
    cache_miss_queue_pop(c);
    assert_int_equal(probe.n, 1);
    assert_int_equal(probe.line[0], A >> 7);
    assert_int_equal(probe.warp[0], 1);
    mem_req wb = req(B, MEM_GLOBAL_ACC_W, 0x1, 5);
    assert_int_equal(cache_access(c, &wb, 0, NULL), CACHE_HIT);
    assert_null(cache_probe(c, B));
    cache_miss_queue_pop(c);
    assert_int_equal(probe.n, 1);
    assert_int_equal(read_line(c, D, 6), CACHE_MISS);
    assert_int_equal(probe.n, 2);
    assert_int_equal(probe.line[1], B >> 7);
    assert_int_equal(probe.warp[1], 3);
    assert_int_equal(serve_one(c, woken, 4), 1);
    assert_int_equal(read_line(c, E, 7), CACHE_MISS);
    assert_null(cache_probe(c, A));
    assert_int_equal(probe.n, 3);
    assert_int_equal(probe.line[2], A >> 7);
    assert_int_equal(probe.warp[2], 4);
    assert_int_equal(evictions.n, 1);
    assert_int_equal(evictions.line[0], A >> 7);
    assert_int_equal(evictions.warp[0], 1);
    cache_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_fermi_l1),
        cmocka_unit_test(test_parse_l2_and_3x_forms),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_lru_victim_order),
        cmocka_unit_test(test_fifo_victim_order),
        cmocka_unit_test(test_8kb_rereads_hit),
        cmocka_unit_test(test_mshr_merge_pending_hits),
        cmocka_unit_test(test_mshr_full_then_retry),
        cmocka_unit_test(test_miss_queue_and_line_reservation_fails),
        cmocka_unit_test(test_allocate_on_fill),
        cmocka_unit_test(test_sectored_fetches_missing_sectors_only),
        cmocka_unit_test(test_sector_mshrs_count_sectors),
        cmocka_unit_test(test_normal_line_waits_for_every_sector),
        cmocka_unit_test(test_fill_mshr_hint),
        cmocka_unit_test(test_force_fill),
        cmocka_unit_test(test_flush_dirty),
        cmocka_unit_test(test_fermi_l1_write_policies),
        cmocka_unit_test(test_write_evict),
        cmocka_unit_test(test_victim_reports_follow_probe),
        cmocka_unit_test(test_write_back_allocate_and_writeback),
        cmocka_unit_test(test_fill_without_mshr_is_refused),
        cmocka_unit_test(test_random_stress_no_request_lost),
        cmocka_unit_test(test_sector_mask_matches_definition),
        cmocka_unit_test(test_fail_replay_counts_as_retry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
