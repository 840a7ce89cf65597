/* The sharing-aware cache policy (src/mem/policy/sharing.c, docs/sharing.md)
 * and the allocation hook of the generic cache it uses: the allocation/bypass
 * table of DESIGN §5.5 case by case, both victim orders, the dead-block rule,
 * and that a bypassed fill still answers every request waiting in its MSHR.
 *
 * Caches here have one set of four 128 B ways (every line address k * 128 maps
 * to it), so each expected victim follows from the access order by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mem/cache.h"

#define L(k) ((uint64_t)(k) * 128)

static mem_req req(uint64_t addr, uint8_t type, uint16_t sm, uint64_t tag) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.type = type;
    r.sector_mask = 0xF;
    r.size = mem_access_is_write(type) ? 4 : 128;
    r.sm = sm;
    r.tag = tag;
    return r;
}

static cache *make_with(const char *geometry, uint8_t level, uint8_t dead_block, uint8_t detect_stores,
                        uint8_t kernel_reset) {
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse(geometry, &g, err, sizeof err), 0);
    snprintf(g.policy, sizeof g.policy, "sharing");
    g.level = level;
    g.sharing_dead_block = dead_block;
    g.sharing_detect_stores = detect_stores;
    g.sharing_kernel_reset = kernel_reset;
    assert_null(cache_policy_find("sharing")->check(&g));
    cache *c = cache_create(&g, "test", err, sizeof err);
    assert_non_null(c);
    return c;
}

static cache *make(const char *geometry, uint8_t level, uint8_t dead_block) {
    return make_with(geometry, level, dead_block, 0, 0);
}

/* An L2 slice (allocate on miss, write-back, write-allocate) and an L1D
 * (allocate on fill, local write-back / global write-through, no write-allocate). */
static cache *l2(void) { return make("N:1:128:4,L:B:m:W:L,A:8:4,8", CACHE_LEVEL_L2, 0); }
static cache *l2_with(uint8_t detect_stores, uint8_t kernel_reset) {
    return make_with("N:1:128:4,L:B:m:W:L,A:8:4,8", CACHE_LEVEL_L2, 0, detect_stores, kernel_reset);
}
static cache *l1(uint8_t dead) { return make("N:1:128:4,L:L:f:N:L,A:8:4,8", CACHE_LEVEL_L1D, dead); }

/* Answer the oldest queued fetch as the level below, with hint (write-backs
 * queued before it are dropped); returns the number of requests woken. */
static int serve(cache *c, uint8_t hint, mem_req *woken) {
    while (cache_miss_queue_peek(c) && mem_access_is_writeback(cache_miss_queue_peek(c)->type)) cache_miss_queue_pop(c);
    const mem_req *out = cache_miss_queue_peek(c);
    assert_non_null(out);
    mem_req reply = *out;
    reply.hint = hint;
    cache_miss_queue_pop(c);
    return cache_fill(c, &reply, 0, woken, cache_max_waiters(c));
}

/* A read of line k by SM sm that misses and is filled at once. */
static void fill(cache *c, uint32_t k, uint8_t type, uint16_t sm, uint8_t hint) {
    mem_req r = req(L(k), type, sm, k), woken[8];
    assert_int_equal(cache_access(c, &r, 0, NULL), CACHE_MISS);
    assert_int_equal(serve(c, hint, woken), 1);
    assert_int_equal(woken[0].tag, k);
}

static cache_outcome touch(cache *c, uint32_t k, uint8_t type, uint16_t sm) {
    mem_req r = req(L(k), type, sm, 100 + k);
    return cache_access(c, &r, 0, NULL);
}

static void test_check(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    const cache_policy_ops *p = cache_policy_find("sharing");
    assert_int_equal(cache_geometry_parse("N:32:128:4,L:L:m:N:H,A:32:8,8", &g, err, sizeof err), 0);
    g.level = CACHE_LEVEL_L1D;
    assert_non_null(strstr(p->check(&g), "allocate on fill"));   /* the L1 decides at the fill */
    g.level = CACHE_LEVEL_L2;
    assert_null(p->check(&g));                                    /* the L2 decides at the miss */
    g.level = CACHE_LEVEL_OTHER;
    assert_non_null(p->check(&g));
}

/* L2, ld.global: a miss fills the L2 as private with owner = requester; the
 * owner's answer has no hint; a hit by another SM marks the line shared and its
 * answer carries CACHE_HINT_SHARED, the owner's still none. */
static void test_l2_global_owner_and_shared(void **state) {
    (void)state;
    cache *c = l2();
    fill(c, 1, MEM_GLOBAL_ACC_R, 3, 0);
    assert_non_null(cache_probe(c, L(1)));
    assert_int_equal(cache_probe(c, L(1))->sm, 3);
    mem_req own = req(L(1), MEM_GLOBAL_ACC_R, 3, 0), other = req(L(1), MEM_GLOBAL_ACC_R, 5, 0);
    assert_int_equal(cache_reply_hint(c, &own), 0);
    assert_int_equal(cache_access(c, &other, 0, NULL), CACHE_HIT);
    assert_int_equal(cache_reply_hint(c, &other), CACHE_HINT_SHARED);
    assert_int_equal(cache_reply_hint(c, &own), 0);
    /* ld.local hitting the same line: "no further action": no hint */
    mem_req loc = req(L(1), MEM_LOCAL_ACC_R, 7, 0);
    assert_int_equal(cache_access(c, &loc, 0, NULL), CACHE_HIT);
    assert_int_equal(cache_reply_hint(c, &loc), 0);
    assert_int_equal(cache_stats(c)->bypassed, 0);
    cache_destroy(c);
}

/* L2, ld.local miss: bypass.  No line is allocated; the fetch goes below; a
 * second request for the line merges into the MSHR entry (which the bypass
 * keeps); the fill answers both, keeps no data and frees the entry. */
static void test_l2_local_miss_bypasses(void **state) {
    (void)state;
    cache *c = l2();
    mem_req a = req(L(2), MEM_LOCAL_ACC_R, 4, 11), b = req(L(2), MEM_LOCAL_ACC_R, 4, 12), woken[8];
    assert_int_equal(cache_access(c, &a, 0, NULL), CACHE_MISS);
    assert_null(cache_probe(c, L(2)));
    assert_int_equal(cache_mshr_used(c), 1);
    assert_true(cache_request_waits(c, &a, CACHE_MISS));
    assert_int_equal(cache_access(c, &b, 0, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(cache_miss_queue_length(c), 1);   /* one fetch for both */
    assert_int_equal(serve(c, 0, woken), 2);
    assert_int_equal(woken[0].tag, 11);
    assert_int_equal(woken[1].tag, 12);
    assert_int_equal(woken[0].hint, 0);
    assert_null(cache_probe(c, L(2)));
    assert_int_equal(cache_mshr_used(c), 0);
    assert_int_equal(cache_stats(c)->bypassed, 1);
    /* the next ld.local misses again (the L2 kept nothing) */
    assert_int_equal(cache_access(c, &a, 0, NULL), CACHE_MISS);
    cache_destroy(c);
}

/* L2: an SM merging into another SM's pending fill is a sharer too (the paper's
 * MSHR argument, §V-B1): at the fill the owner's answer has no hint, the
 * other's is shared. */
static void test_l2_pending_hit_shares(void **state) {
    (void)state;
    cache *c = l2();
    mem_req a = req(L(3), MEM_GLOBAL_ACC_R, 1, 21), b = req(L(3), MEM_GLOBAL_ACC_R, 2, 22), woken[8];
    assert_int_equal(cache_access(c, &a, 0, NULL), CACHE_MISS);
    assert_int_equal(cache_access(c, &b, 0, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(serve(c, 0, woken), 2);
    assert_int_equal(woken[0].tag, 21);
    assert_int_equal(woken[0].hint, 0);
    assert_int_equal(woken[1].tag, 22);
    assert_int_equal(woken[1].hint, CACHE_HINT_SHARED);
    cache_destroy(c);
}

/* L2 replacement: LRU private first, else LRU shared.  Lines 1..4 filled by SM1
 * (private, in that order); SM2 reads 2 and 3 (shared, and now most recent).
 * Miss 5: the private lines are 1 and 4, LRU 1 goes.  Miss 6: private 4, 5:
 * 4 goes.  Miss 7: private 5, 6: 5 goes -- shared 2 and 3, older than all of
 * them, stay.  Then SM2 reads 6 and 7: every line is shared; miss 8 takes the
 * LRU shared line, 2. */
static void test_l2_victims_private_first(void **state) {
    (void)state;
    cache *c = l2();
    for (uint32_t k = 1; k <= 4; k++) fill(c, k, MEM_GLOBAL_ACC_R, 1, 0);
    assert_int_equal(touch(c, 2, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    assert_int_equal(touch(c, 3, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    fill(c, 5, MEM_GLOBAL_ACC_R, 1, 0);
    assert_null(cache_probe(c, L(1)));
    fill(c, 6, MEM_GLOBAL_ACC_R, 1, 0);
    assert_null(cache_probe(c, L(4)));
    fill(c, 7, MEM_GLOBAL_ACC_R, 1, 0);
    assert_null(cache_probe(c, L(5)));
    assert_non_null(cache_probe(c, L(2)));
    assert_non_null(cache_probe(c, L(3)));
    assert_int_equal(touch(c, 6, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    assert_int_equal(touch(c, 7, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    fill(c, 8, MEM_GLOBAL_ACC_R, 1, 0);
    assert_null(cache_probe(c, L(2)));
    assert_non_null(cache_probe(c, L(3)));
    cache_destroy(c);
}

/* L2, private writes (st.local, L1 write-backs) take a way only from an
 * invalid or private line (P2).  Set: 1 (shared: SM2 read it), 2, 3 (private),
 * one invalid way.  st.local 9 takes the invalid way; st.local 10 takes the LRU
 * private line, 2.  SM2 reads 3: lines 1, 3 shared, 9, 10 private (dirty local
 * data).  Global misses 12 and 13 take the private lines 9 and 10 (written
 * back); SM2 reads 12 and 13: every line is shared, and an L1 write-back of 14
 * is forwarded below without allocating.  A global write (possibly shared data)
 * may still take the LRU shared line, 1. */
static void test_l2_private_writes(void **state) {
    (void)state;
    cache *c = l2();
    fill(c, 1, MEM_GLOBAL_ACC_R, 1, 0);
    assert_int_equal(touch(c, 1, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);   /* 1 shared */
    fill(c, 2, MEM_GLOBAL_ACC_R, 1, 0);
    fill(c, 3, MEM_GLOBAL_ACC_R, 1, 0);
    mem_req w = req(L(9), MEM_LOCAL_ACC_W, 1, 0);
    assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_MISS);      /* invalid way: allocated */
    assert_non_null(cache_probe(c, L(9)));
    w = req(L(10), MEM_LOCAL_ACC_W, 1, 0);
    assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_MISS);      /* victim 2, private */
    assert_non_null(cache_probe(c, L(10)));
    assert_null(cache_probe(c, L(2)));
    assert_int_equal(cache_stats(c)->bypassed, 0);
    assert_int_equal(touch(c, 3, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    fill(c, 12, MEM_GLOBAL_ACC_R, 1, 0);
    fill(c, 13, MEM_GLOBAL_ACC_R, 1, 0);
    assert_null(cache_probe(c, L(9)));
    assert_null(cache_probe(c, L(10)));
    assert_int_equal(cache_stats(c)->writebacks, 2);
    while (cache_miss_queue_length(c)) cache_miss_queue_pop(c);
    assert_int_equal(touch(c, 12, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    assert_int_equal(touch(c, 13, MEM_GLOBAL_ACC_R, 2), CACHE_HIT);
    mem_req wb = req(L(14), MEM_L1_WRBK_ACC, 1, 0);
    assert_int_equal(cache_access(c, &wb, 0, NULL), CACHE_MISS);
    assert_null(cache_probe(c, L(14)));
    assert_int_equal(cache_stats(c)->bypassed, 1);
    assert_int_equal(cache_miss_queue_length(c), 1);                 /* forwarded below as is */
    assert_int_equal(cache_miss_queue_peek(c)->type, MEM_L1_WRBK_ACC);
    assert_int_equal(cache_miss_queue_peek(c)->addr, L(14));
    assert_non_null(cache_probe(c, L(1)));
    assert_non_null(cache_probe(c, L(3)));
    assert_non_null(cache_probe(c, L(12)));
    assert_non_null(cache_probe(c, L(13)));
    /* a global write may take a shared line (possibly shared data, P2) */
    w = req(L(15), MEM_GLOBAL_ACC_W, 1, 0);
    assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_MISS);
    assert_non_null(cache_probe(c, L(15)));
    assert_null(cache_probe(c, L(1)));                                 /* the LRU shared line */
    cache_destroy(c);
}

/* L1, allocation on fill: a line the L2 answered as shared is kept only if its
 * victim is invalid or shared; local and unshared lines are always kept. */
static void test_l1_allocation(void **state) {
    (void)state;
    cache *c = l1(0);
    fill(c, 1, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);   /* invalid victim: kept */
    assert_non_null(cache_probe(c, L(1)));
    fill(c, 2, MEM_GLOBAL_ACC_R, 0, 0);
    fill(c, 3, MEM_GLOBAL_ACC_R, 0, 0);
    fill(c, 4, MEM_LOCAL_ACC_R, 0, CACHE_HINT_SHARED);    /* local: private whatever the hint */
    /* full: 1 shared; 2, 3, 4 private.  Shared 5: victim = LRU shared = 1: kept */
    fill(c, 5, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);
    assert_non_null(cache_probe(c, L(5)));
    assert_null(cache_probe(c, L(1)));
    /* 5 is shared: private 6 evicts it (shared first), although 2 is older */
    fill(c, 6, MEM_GLOBAL_ACC_R, 0, 0);
    assert_null(cache_probe(c, L(5)));
    assert_non_null(cache_probe(c, L(2)));
    /* all private (2, 3, 4, 6): shared 7 would evict private 2: bypassed */
    assert_int_equal(cache_stats(c)->bypassed, 0);
    fill(c, 7, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);
    assert_null(cache_probe(c, L(7)));
    assert_non_null(cache_probe(c, L(2)));
    assert_int_equal(cache_stats(c)->bypassed, 1);
    /* ... and it misses again next time */
    assert_int_equal(touch(c, 7, MEM_GLOBAL_ACC_R, 0), CACHE_MISS);
    cache_destroy(c);
}

/* A bypassed L1 fill answers every request that waited in its MSHR entry (the
 * miss and the pending hits merged into it), frees the entry and counts the
 * pending hits as MSHR hits on a shared line. */
static void test_l1_bypassed_fill_answers_all(void **state) {
    (void)state;
    cache *c = l1(0);
    for (uint32_t k = 1; k <= 4; k++) fill(c, k, MEM_GLOBAL_ACC_R, 0, 0);
    mem_req a = req(L(8), MEM_GLOBAL_ACC_R, 0, 31), b = req(L(8), MEM_GLOBAL_ACC_R, 0, 32),
            d = req(L(8), MEM_GLOBAL_ACC_R, 0, 33), woken[8];
    assert_int_equal(cache_access(c, &a, 0, NULL), CACHE_MISS);
    assert_int_equal(cache_access(c, &b, 0, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(cache_access(c, &d, 0, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(serve(c, CACHE_HINT_SHARED, woken), 3);
    assert_int_equal(woken[0].tag, 31);
    assert_int_equal(woken[1].tag, 32);
    assert_int_equal(woken[2].tag, 33);
    assert_null(cache_probe(c, L(8)));
    assert_int_equal(cache_mshr_used(c), 0);
    assert_int_equal(cache_stats(c)->mshr_hits_shared, 2);
    for (uint32_t k = 1; k <= 4; k++) assert_non_null(cache_probe(c, L(k)));
    cache_destroy(c);
}

/* Dead blocks (§VI-B, Fig. 12).  Set, LRU first: 1 private, 2 shared, 3 shared,
 * 4 private.  Private 5: the LRU line 1 is private: with the flag it is declared
 * dead and the LRU shared line 2 goes; private 6: 1 is LRU again and dead: it
 * goes (3 stays).  Without the flag: 5 evicts 2, 6 evicts 3 (shared first), 1
 * stays. */
static void setup_dead(cache *c) {
    fill(c, 1, MEM_GLOBAL_ACC_R, 0, 0);
    fill(c, 2, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);
    fill(c, 3, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);
    fill(c, 4, MEM_GLOBAL_ACC_R, 0, 0);
    fill(c, 5, MEM_GLOBAL_ACC_R, 0, 0);
    assert_null(cache_probe(c, L(2)));
    assert_non_null(cache_probe(c, L(1)));
    fill(c, 6, MEM_GLOBAL_ACC_R, 0, 0);
}

static void test_l1_dead_block(void **state) {
    (void)state;
    cache *c = l1(1);
    setup_dead(c);
    assert_null(cache_probe(c, L(1)));
    assert_non_null(cache_probe(c, L(3)));
    cache_destroy(c);
    c = l1(0);
    setup_dead(c);
    assert_non_null(cache_probe(c, L(1)));
    assert_null(cache_probe(c, L(3)));
    cache_destroy(c);
    /* A hit revives a line declared dead: 1 is passed over by 5 (dead), then
     * read: it is most recent and live; 6 finds the LRU line shared (3): 3 goes. */
    c = l1(1);
    fill(c, 1, MEM_GLOBAL_ACC_R, 0, 0);
    fill(c, 2, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);
    fill(c, 3, MEM_GLOBAL_ACC_R, 0, CACHE_HINT_SHARED);
    fill(c, 4, MEM_GLOBAL_ACC_R, 0, 0);
    fill(c, 5, MEM_GLOBAL_ACC_R, 0, 0);
    assert_int_equal(touch(c, 1, MEM_GLOBAL_ACC_R, 0), CACHE_HIT);
    fill(c, 6, MEM_GLOBAL_ACC_R, 0, 0);
    assert_non_null(cache_probe(c, L(1)));
    assert_null(cache_probe(c, L(3)));
    /* now 4, 5, 1, 6 all private: 7 finds 4 LRU, declares it dead and, with no
     * shared line to take instead, evicts it anyway */
    fill(c, 7, MEM_GLOBAL_ACC_R, 0, 0);
    assert_null(cache_probe(c, L(4)));
    cache_destroy(c);
}

/* L2, sharing detection from loads only (the paper's flow chart starts from a
 * load; -sharing_detect_stores 0, the default).  SM1 loads 1..4 (owner SM1).
 * SM2 stores to line 1 (a write hit) and SM1 then reloads 2, 3, 4, so LRU
 * order is 1, 2, 3, 4.  Loads only: the store left 1 private, and miss 5 evicts
 * the LRU private line, 1.  With stores detected: 1 is shared, miss 5 evicts
 * the LRU private line 2 and 1 stays. */
static void stored_line_then_miss(cache *c) {
    for (uint32_t k = 1; k <= 4; k++) fill(c, k, MEM_GLOBAL_ACC_R, 1, 0);
    assert_int_equal(touch(c, 1, MEM_GLOBAL_ACC_W, 2), CACHE_HIT);
    for (uint32_t k = 2; k <= 4; k++) assert_int_equal(touch(c, k, MEM_GLOBAL_ACC_R, 1), CACHE_HIT);
    fill(c, 5, MEM_GLOBAL_ACC_R, 1, 0);
}

static void test_l2_loads_only_detection(void **state) {
    (void)state;
    cache *c = l2_with(0, 0);
    stored_line_then_miss(c);
    assert_null(cache_probe(c, L(1)));
    assert_non_null(cache_probe(c, L(2)));
    cache_destroy(c);

    c = l2_with(1, 0);
    stored_line_then_miss(c);
    assert_non_null(cache_probe(c, L(1)));
    assert_null(cache_probe(c, L(2)));
    cache_destroy(c);
}

/* L2: a line a global store brought in (write-allocate) has no owner under
 * loads-only detection: the first SM to load it owns it (its answer has no
 * hint), the next SM to load it is a sharer.  With stores detected the storing
 * SM owns it and the first loader is already a sharer.  An atomic (a read with
 * MEM_REQ_ATOMIC) counts as a store. */
static void test_l2_store_fill_owner(void **state) {
    (void)state;
    for (uint8_t stores = 0; stores <= 1; stores++) {
        cache *c = l2_with(stores, 0);
        mem_req w = req(L(6), MEM_GLOBAL_ACC_W, 3, 0);
        assert_int_equal(cache_access(c, &w, 0, NULL), CACHE_MISS);   /* write-allocate */
        assert_non_null(cache_probe(c, L(6)));
        mem_req a = req(L(6), MEM_GLOBAL_ACC_R, 5, 0), b = req(L(6), MEM_GLOBAL_ACC_R, 3, 0);
        a.flags = MEM_REQ_ATOMIC;
        assert_int_equal(cache_access(c, &a, 0, NULL), CACHE_HIT);
        assert_int_equal(cache_reply_hint(c, &a), stores ? CACHE_HINT_SHARED : 0);   /* atomic: a store */
        a.flags = 0;
        assert_int_equal(cache_access(c, &a, 0, NULL), CACHE_HIT);
        assert_int_equal(cache_reply_hint(c, &a), stores ? CACHE_HINT_SHARED : 0);
        assert_int_equal(cache_access(c, &b, 0, NULL), CACHE_HIT);
        assert_int_equal(cache_reply_hint(c, &b), stores ? 0 : CACHE_HINT_SHARED);
        cache_destroy(c);
    }
}

/* L2, -sharing_kernel_reset.  Kernel 1: SM1 loads 1..4, SM2 loads 1 (shared).
 * Kernel 2 begins.  Kept flags (0): SM2's load of 1 is still a sharer's; SM1's
 * reloads of 2, 3, 4 leave 1 LRU but shared, so miss 5 evicts private 2.
 * Reset (1): line 1 has no owner, SM2's load makes SM2 its owner (no hint),
 * and 1 is private again: miss 5 evicts it. */
static void two_kernels(cache *c, uint8_t expect_hint) {
    for (uint32_t k = 1; k <= 4; k++) fill(c, k, MEM_GLOBAL_ACC_R, 1, 0);
    mem_req s2 = req(L(1), MEM_GLOBAL_ACC_R, 2, 0);
    assert_int_equal(cache_access(c, &s2, 0, NULL), CACHE_HIT);
    assert_int_equal(cache_reply_hint(c, &s2), CACHE_HINT_SHARED);
    cache_kernel_begin(c, NULL);
    assert_int_equal(cache_access(c, &s2, 0, NULL), CACHE_HIT);
    assert_int_equal(cache_reply_hint(c, &s2), expect_hint);
    for (uint32_t k = 2; k <= 4; k++) assert_int_equal(touch(c, k, MEM_GLOBAL_ACC_R, 1), CACHE_HIT);
    fill(c, 5, MEM_GLOBAL_ACC_R, 1, 0);
}

static void test_l2_kernel_reset(void **state) {
    (void)state;
    cache *c = l2_with(0, 0);
    two_kernels(c, CACHE_HINT_SHARED);
    assert_non_null(cache_probe(c, L(1)));
    assert_null(cache_probe(c, L(2)));
    cache_destroy(c);

    c = l2_with(0, 1);
    two_kernels(c, 0);
    assert_null(cache_probe(c, L(1)));
    assert_non_null(cache_probe(c, L(2)));
    /* SM1's reload after the reset made it line 3's owner again: SM4 is a sharer */
    mem_req s4 = req(L(3), MEM_GLOBAL_ACC_R, 4, 0);
    assert_int_equal(cache_reply_hint(c, &s4), CACHE_HINT_SHARED);
    cache_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_l2_global_owner_and_shared),
        cmocka_unit_test(test_l2_local_miss_bypasses),
        cmocka_unit_test(test_l2_pending_hit_shares),
        cmocka_unit_test(test_l2_victims_private_first),
        cmocka_unit_test(test_l2_private_writes),
        cmocka_unit_test(test_l2_loads_only_detection),
        cmocka_unit_test(test_l2_store_fill_owner),
        cmocka_unit_test(test_l2_kernel_reset),
        cmocka_unit_test(test_l1_allocation),
        cmocka_unit_test(test_l1_bypassed_fill_answers_all),
        cmocka_unit_test(test_l1_dead_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
