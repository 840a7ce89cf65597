/* The prefetcher family (src/mem/prefetch/, docs/wsmp.md): the baselines'
 * candidates, the cache's prefetch bookkeeping (issued / useful / late /
 * useless / redundant / dropped), the options, and that prefetching never
 * changes what a program computes.  Expected values are worked by hand in the
 * comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"
#include "mem/cache.h"
#include "mem/prefetch/prefetch.h"
#include "mem/prefetch/spp.h"
#include "sim/config.h"
#include "sim/timing.h"
#include "workload.h"

static prefetch_config base_cfg(const char *name) {
    prefetch_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.line_size = 128;
    c.nextline_degree = 2;
    c.stride_entries = 64;
    c.stride_degree = 3;
    return c;
}

static mem_req rd(uint64_t addr, uint32_t pc, uint16_t warp) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.pc = pc;
    r.warp = warp;
    r.type = MEM_GLOBAL_ACC_R;
    r.size = 128;
    r.sector_mask = 0xf;
    return r;
}

static prefetch_access acc(uint64_t addr, uint32_t pc) {
    prefetch_access a;
    memset(&a, 0, sizeof a);
    a.addr = addr;
    a.pc = pc;
    a.type = MEM_GLOBAL_ACC_R;
    return a;
}

/* nextline, degree 2, 128 B lines: an access to 0x1010 (line 0x1000) asks for
 * the two following lines 0x1080 and 0x1100. */
static void nextline_candidates(void **state) {
    (void)state;
    const prefetch_ops *ops = prefetch_find("nextline");
    assert_non_null(ops);
    prefetch_config c = base_cfg("nextline");
    char err[128];
    void *st = ops->create(&c, err, sizeof err);
    assert_non_null(st);
    uint64_t out[PREFETCH_MAX_CANDIDATES];
    prefetch_access a = acc(0x1010, 8);
    assert_int_equal(ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES), 2);
    assert_int_equal(out[0], 0x1080);
    assert_int_equal(out[1], 0x1100);
    ops->destroy(st);
}

/* stride, degree 3: PC 0x40 touches lines 10, 13, 16 (addresses x 128).
 *   line 10: the PC takes the entry, nothing.
 *   line 13: stride 3 learnt (the entry had none): nothing.
 *   line 16: stride 3 again: lines 19, 22, 25.
 * Another PC mapping elsewhere does not disturb it; a stride change (16 -> 17,
 * stride 1) asks for nothing, and 18 (stride 1 repeated) asks for 19, 20, 21. */
static void stride_candidates(void **state) {
    (void)state;
    const prefetch_ops *ops = prefetch_find("stride");
    assert_non_null(ops);
    prefetch_config c = base_cfg("stride");
    char err[128];
    void *st = ops->create(&c, err, sizeof err);
    assert_non_null(st);
    uint64_t out[PREFETCH_MAX_CANDIDATES];
    prefetch_access a = acc(10 * 128, 0x40);
    assert_int_equal(ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES), 0);
    a.addr = 13 * 128 + 4;
    assert_int_equal(ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES), 0);
    a.addr = 16 * 128;
    assert_int_equal(ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES), 3);
    assert_int_equal(out[0], 19 * 128);
    assert_int_equal(out[1], 22 * 128);
    assert_int_equal(out[2], 25 * 128);
    a.addr = 17 * 128;
    assert_int_equal(ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES), 0);
    a.addr = 18 * 128;
    assert_int_equal(ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES), 3);
    assert_int_equal(out[0], 19 * 128);
    assert_int_equal(out[2], 21 * 128);
    /* a bad table size is refused with a message */
    c.stride_entries = 48;
    assert_null(ops->create(&c, err, sizeof err));
    assert_non_null(strstr(err, "power of two"));
    ops->destroy(st);
}

typedef struct {
    const char *name;
    double value;
} stat_probe;

static void probe(void *ctx, const char *name, double value) {
    stat_probe *p = ctx;
    if (!strcmp(p->name, name)) p->value = value;
}

/* ---- SPP (WSMP 3.2) ---- */

static prefetch_config spp_cfg(void) {
    prefetch_config c = base_cfg("spp");
    c.spp_page_bytes = 4096;   /* 32 lines of 128 B */
    c.spp_st_entries = 256;
    c.spp_pt_sets = 512;
    c.spp_warps = 64;
    c.spp_tp = 65;
    c.spp_max_lines = 20;
    c.ppf_tau_hi = -5;
    c.ppf_tau_lo = -15;
    c.ppf_theta_pos = 7;
    c.ppf_theta_neg = -80;
    c.ppf_min_prefetches = 1;
    return c;
}

static uint32_t spp_touch(spp *p, uint64_t page, uint32_t offset, uint16_t warp, spp_candidate *out) {
    prefetch_access a = acc(page * 4096 + offset * 128, 0x10);
    a.warp = warp;
    return spp_operate(p, &a, out, PREFETCH_MAX_CANDIDATES);
}

/* The paper's example (3.2.3): warp 2 on page 4.  Offset 0 opens the entry
 * (signature 0); offset 1 (delta 1): S' = (0 << 3) ^ 1 = 1, S'' = 1 | 2 << 27 =
 * 0x10000001; offset 5 (delta 4): S' = (0x10000001 << 3) ^ 4 = 0x8000000C (32
 * bits), S'' = (0x8000000C & 0x7FFFFFF) | 2 << 27 = 0x1000000C: the 27-bit part
 * goes from 0x1 to 0xC as in the paper.  Warp 2's pattern table has, under
 * signature 0, delta 1 (C_delta 1, C_sig 1) and under 0x10000001 delta 4.  Warp 3
 * on the same page has its own entry, and its own (empty) pattern table.
 * A negative delta is SPP's sign-magnitude: -3 -> 0x43. */
static void spp_signature(void **state) {
    (void)state;
    assert_int_equal(spp_next_signature(0x1, 4, 0), 0xC);
    assert_int_equal(spp_next_signature(0x10000001, 4, 2), 0x1000000C);
    assert_int_equal(spp_next_signature(0, -3, 0), 0x43);
    assert_int_equal(spp_next_signature(0x0FFFFFFF, 1, 1), ((0x7FFFFFF8u ^ 1) & 0x7FFFFFF) | 1u << 27);
    prefetch_config c = spp_cfg();
    char err[128];
    spp *p = spp_create(&c, err, sizeof err);
    assert_non_null(p);
    spp_candidate out[PREFETCH_MAX_CANDIDATES];
    assert_int_equal(spp_touch(p, 4, 0, 2, out), 0);
    assert_int_equal(spp_st_signature(p, 4 * 4096, 2), 0);
    assert_int_equal(spp_touch(p, 4, 1, 2, out), 0);
    assert_int_equal(spp_st_signature(p, 4 * 4096, 2), 0x10000001);
    assert_int_equal(spp_touch(p, 4, 5, 2, out), 0);
    assert_int_equal(spp_st_signature(p, 4 * 4096, 2), 0x1000000C);
    assert_int_equal(spp_pt_csig(p, 2, 0), 1);
    assert_int_equal(spp_pt_cdelta(p, 2, 0, 1), 1);
    assert_int_equal(spp_pt_cdelta(p, 2, 0x10000001, 4), 1);
    assert_int_equal(spp_touch(p, 4, 9, 3, out), 0);
    assert_int_equal(spp_st_signature(p, 4 * 4096, 3), 0);
    assert_int_equal(spp_st_signature(p, 4 * 4096, 2), 0x1000000C);
    assert_int_equal(spp_pt_csig(p, 3, 0), 0);
    spp_destroy(p);
}

/* Path confidence and the stop rule.  Warp 0 trains on fresh pages (each starts
 * at signature 0): three pages with offsets 0, 2, 4, 6 and one with 0, 2, 5:
 *   PT[0]:  delta 2, C_delta 4, C_sig 4
 *   PT[2]:  delta 2 (3), delta 3 (1), C_sig 4          (2 = S'' after delta 2)
 *   PT[18]: delta 2 (3), C_sig 3                       (18 = (2 << 3) ^ 2)
 * A fresh page, offsets 0 then 2: the signature becomes 2 and the lookahead
 *   d = 0: PT[2]: delta 2: CONF 75 -> P_0 = 75 >= 65: offset 4; delta 3: 25 < 65.
 *          The path follows delta 2 (P 75) to offset 4, signature 18.
 *   d = 1: PT[18]: delta 2: CONF 100, alpha 100 -> P_1 = 100 x 100 x 75 = 75:
 *          offset 6.  Signature 146: empty, the path ends.
 * With alpha_warp0 = 80% (5 prefetches filled, 4 used): P_1 = 80 x 100 x 75 =
 * 60 < 65: only offset 4 (the path stops on confidence).  With -spp_max_lines 1
 * only offset 4 too (stop on lines).  Warp 1's pattern table is empty: nothing. */
static void spp_train(spp *p, uint64_t *page) {
    static const uint32_t a[] = {0, 2, 4, 6}, b[] = {0, 2, 5};
    spp_candidate out[PREFETCH_MAX_CANDIDATES];
    for (int k = 0; k < 3; k++, (*page)++)
        for (int i = 0; i < 4; i++) spp_touch(p, *page, a[i], 0, out);
    for (int i = 0; i < 3; i++) spp_touch(p, *page, b[i], 0, out);
    (*page)++;
}

static void spp_path_confidence(void **state) {
    (void)state;
    prefetch_config c = spp_cfg();
    char err[128];
    spp *p = spp_create(&c, err, sizeof err);
    assert_non_null(p);
    uint64_t page = 100;
    spp_train(p, &page);
    assert_int_equal(spp_pt_csig(p, 0, 0), 4);
    assert_int_equal(spp_pt_cdelta(p, 0, 0, 2), 4);
    assert_int_equal(spp_pt_csig(p, 0, 2), 4);
    assert_int_equal(spp_pt_cdelta(p, 0, 2, 2), 3);
    assert_int_equal(spp_pt_cdelta(p, 0, 2, 3), 1);
    assert_int_equal(spp_pt_csig(p, 0, 18), 3);
    spp_candidate out[PREFETCH_MAX_CANDIDATES];
    assert_int_equal(spp_touch(p, page, 0, 0, out), 0);
    uint32_t n = spp_touch(p, page, 2, 0, out);
    assert_int_equal(n, 2);
    assert_int_equal(out[0].addr, page * 4096 + 4 * 128);
    assert_int_equal(out[0].depth, 0);
    assert_int_equal(out[0].conf, 75);
    assert_int_equal(out[1].addr, page * 4096 + 6 * 128);
    assert_int_equal(out[1].depth, 1);
    assert_int_equal(out[1].conf, 75);
    uint64_t conf_stops = spp_stats(p)->stopped_conf;
    page++;
    for (int i = 0; i < 5; i++) spp_note_fill(p, 0);
    for (int i = 0; i < 4; i++) spp_note_useful(p, 0);
    assert_int_equal(spp_alpha(p, 0), 80);
    assert_int_equal(spp_alpha(p, 1), 100);
    spp_touch(p, page, 0, 0, out);
    n = spp_touch(p, page, 2, 0, out);
    assert_int_equal(n, 1);
    assert_int_equal(out[0].addr, page * 4096 + 4 * 128);
    assert_int_equal(spp_stats(p)->stopped_conf, conf_stops + 1);
    page++;
    spp_touch(p, page, 0, 1, out);
    assert_int_equal(spp_touch(p, page, 2, 1, out), 0);
    spp_destroy(p);

    c.spp_max_lines = 1;
    p = spp_create(&c, err, sizeof err);
    page = 100;
    spp_train(p, &page);
    spp_touch(p, page, 0, 0, out);
    uint64_t line_stops = spp_stats(p)->stopped_lines;
    assert_int_equal(spp_touch(p, page, 2, 0, out), 1);
    assert_int_equal(out[0].addr, page * 4096 + 4 * 128);
    assert_int_equal(spp_stats(p)->stopped_lines, line_stops + 1);
    spp_destroy(p);
}

/* ---- PPF (WSMP 3.3) ---- */

static spp_candidate cand(uint64_t page, uint32_t offset, uint32_t sig, int32_t delta, uint8_t depth, uint8_t conf,
                          uint16_t warp) {
    spp_candidate c = {.addr = page * 4096 + offset * 128, .sig = sig, .delta = delta, .depth = depth,
                       .conf = conf, .warp = warp, .offset = offset};
    return c;
}

/* tau_hi -5, tau_lo -15, theta_pos 7 (so the saturation rule shows), theta_neg
 * -80, min 1 prefetch; 7 features, weights 0 at start.  X, Y, Z differ in every
 * feature (page, line, offset, signature ^ delta, depth, confidence, warp).
 *  1. X: sum 0 >= -5: prefetched (prefetch table).
 *  2. X evicted unused: trained down, sum -7; a second eviction finds no entry.
 *  3. [Y, X]: Y 0 prefetched; X -7 is a candidate, not needed (1 already): it
 *     goes to the reject table.
 *  4. A demand read of X: found in the reject table: up, sum 0.
 *  5. Y's first demand use (useful): up, 7; again: 7 >= theta_pos, no change.
 *  6. Z prefetched (0), evicted (-7); alone, -7 is a candidate and is promoted
 *     (fewer than 1 prefetch); evicted again (-14): promoted again; evicted
 *     (-21 < -15): rejected, nothing prefetched. */
static void ppf_filter_and_training(void **state) {
    (void)state;
    const prefetch_ops *ops = prefetch_find("spp_ppf");
    assert_non_null(ops);
    prefetch_config c = spp_cfg();
    char err[128];
    void *st = ops->create(&c, err, sizeof err);
    assert_non_null(st);
    spp_candidate x = cand(7, 3, 0x11, 1, 0, 90, 1), y = cand(900, 17, 0x2222, 5, 2, 70, 9),
                  z = cand(4321, 30, 0x123456, -2, 4, 80, 20);
    uint64_t out[PREFETCH_MAX_CANDIDATES];
    assert_int_equal(spp_ppf_sum(st, &x), 0);
    assert_int_equal(spp_ppf_filter(st, &x, 1, out, PREFETCH_MAX_CANDIDATES), 1);
    assert_int_equal(out[0], x.addr);
    ops->on_evict(st, x.addr, 1, true);
    assert_int_equal(spp_ppf_sum(st, &x), -7);
    ops->on_evict(st, x.addr, 1, true);
    assert_int_equal(spp_ppf_sum(st, &x), -7);
    spp_candidate yx[2] = {y, x};
    assert_int_equal(spp_ppf_filter(st, yx, 2, out, PREFETCH_MAX_CANDIDATES), 1);
    assert_int_equal(out[0], y.addr);
    prefetch_access a = acc(x.addr, 0x20);
    ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES);
    assert_int_equal(spp_ppf_sum(st, &x), 0);
    a = acc(y.addr, 0x20);
    a.useful = 1;
    a.pf_warp = 9;
    ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES);
    assert_int_equal(spp_ppf_sum(st, &y), 7);
    ops->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES);
    assert_int_equal(spp_ppf_sum(st, &y), 7);
    assert_int_equal(spp_ppf_sum(st, &x), 0);   /* untouched by Y's training */

    assert_int_equal(spp_ppf_filter(st, &z, 1, out, PREFETCH_MAX_CANDIDATES), 1);
    ops->on_evict(st, z.addr, 20, true);
    assert_int_equal(spp_ppf_sum(st, &z), -7);
    assert_int_equal(spp_ppf_filter(st, &z, 1, out, PREFETCH_MAX_CANDIDATES), 1);
    ops->on_evict(st, z.addr, 20, true);
    assert_int_equal(spp_ppf_sum(st, &z), -14);
    assert_int_equal(spp_ppf_filter(st, &z, 1, out, PREFETCH_MAX_CANDIDATES), 1);
    ops->on_evict(st, z.addr, 20, true);
    assert_int_equal(spp_ppf_sum(st, &z), -21);
    assert_int_equal(spp_ppf_filter(st, &z, 1, out, PREFETCH_MAX_CANDIDATES), 0);
    ops->on_evict(st, z.addr, 20, false);   /* a used line teaches nothing */
    assert_int_equal(spp_ppf_sum(st, &z), -21);

    /* the filter's decisions, as its statistics count them */
    struct { const char *name; double want, got; } want[] = {
        {"ppf_prefetch", 3, -1}, {"ppf_candidate", 3, -1}, {"ppf_candidate_promoted", 2, -1},
        {"ppf_reject", 1, -1},   {"ppf_train_useful", 2, -1}, {"ppf_train_reject_hit", 1, -1},
        {"ppf_train_evict", 4, -1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        stat_probe pr = {want[i].name, -1};
        ops->report(st, probe, &pr);
        printf("%s = %.0f\n", want[i].name, pr.value);
        assert_true(pr.value == want[i].want);
    }
    ops->destroy(st);
}

/* A 4-set, 4-way, 128 B normal cache (allocate on miss, 8 MSHRs, miss queue 8)
 * with nextline degree 1. */
static cache *cache_with(const char *pf, uint32_t mshrs) {
    cache_geometry g;
    char err[256], text[96];
    snprintf(text, sizeof text, "N:4:128:4,L:R:m:N:L,A:%u:4,8", mshrs);
    assert_int_equal(cache_geometry_parse(text, &g, err, sizeof err), 0);
    snprintf(g.policy, sizeof g.policy, "lru");
    g.pf = base_cfg(pf);
    g.pf.nextline_degree = 1;
    cache *c = cache_create(&g, "T", err, sizeof err);
    if (!c) print_error("%s\n", err);
    assert_non_null(c);
    return c;
}

static mem_req reply_for(const mem_req *out) {
    mem_req f = *out;
    f.flags |= MEM_REQ_REPLY;
    return f;
}

/* Useful, late, redundant, useless, step by step:
 *  1. read 0x000: miss; queued below: the demand fetch of line 0, then the
 *     prefetch of line 0x080 (flag MEM_REQ_PREFETCH).  issued 1.
 *  2. fill both: the prefetch wakes nobody; line 0x080 is marked prefetched.
 *  3. read 0x080: a hit on a prefetched line: useful 1; its candidate 0x100 is
 *     issued (issued 2).  A second read of 0x080 is not useful again, and its
 *     candidate 0x100 is in flight: redundant 1.
 *  4. read 0x100 before its fill: merges into the prefetch: late 1 (and its
 *     candidate 0x180 is issued: issued 3).  The fill wakes that read, and the
 *     line is not marked prefetched (it was used).  Redundant candidates are
 *     told apart: 0x100 in flight for a prefetch (step 3), present after a
 *     demand used it (a read of 0x080), present and prefetched but untouched
 *     (0x180, from a read of 0x100 after its fill).
 *  5. fill 0x180 and never touch it; lines 0x380, 0x580, 0x780 (set 3 like 0x180
 *     with 4 sets of 128 B: line number mod 4 = 3) and then 0x980 fill set 3's
 *     four ways, so LRU evicts 0x180 untouched: useless 1.  (Their own nextline
 *     candidates 0x400, 0x600, ... go to set 0.) */
static void cache_bookkeeping(void **state) {
    (void)state;
    cache *c = cache_with("nextline", 8);
    mem_req woken[16];
    mem_req r = rd(0x000, 8, 1);
    assert_int_equal(cache_access(c, &r, 1, NULL), CACHE_MISS);
    const cache_prefetch_counters *k = cache_prefetch_stats(c);
    assert_int_equal(k->issued, 1);
    assert_int_equal(k->demand_read_misses, 1);
    assert_int_equal(cache_miss_queue_length(c), 2);
    mem_req q0 = *cache_miss_queue_peek(c);
    cache_miss_queue_pop(c);
    mem_req q1 = *cache_miss_queue_peek(c);
    cache_miss_queue_pop(c);
    assert_int_equal(q0.addr, 0x000);
    assert_false(q0.flags & MEM_REQ_PREFETCH);
    assert_int_equal(q1.addr, 0x080);
    assert_true(q1.flags & MEM_REQ_PREFETCH);
    mem_req f0 = reply_for(&q0), f1 = reply_for(&q1);
    assert_int_equal(cache_fill(c, &f0, 2, woken, 16), 1);
    assert_int_equal(cache_fill(c, &f1, 3, woken, 16), 0);
    assert_true(cache_probe(c, 0x080)->prefetched);
    assert_false(cache_probe(c, 0x000)->prefetched);

    r = rd(0x080, 8, 1);
    assert_int_equal(cache_access(c, &r, 4, NULL), CACHE_HIT);
    assert_int_equal(k->useful, 1);
    assert_int_equal(k->issued, 2);
    assert_false(cache_probe(c, 0x080)->prefetched);
    assert_int_equal(cache_access(c, &r, 5, NULL), CACHE_HIT);
    assert_int_equal(k->useful, 1);
    assert_int_equal(k->redundant, 1);
    assert_int_equal(k->redundant_present, 0);      /* 0x100 is in flight ... */
    assert_int_equal(k->redundant_prefetched, 1);   /* ... for a prefetch */
    mem_req q2 = *cache_miss_queue_peek(c);   /* the prefetch of 0x100 */
    cache_miss_queue_pop(c);
    assert_int_equal(q2.addr, 0x100);

    r = rd(0x100, 8, 2);
    assert_int_equal(cache_access(c, &r, 6, NULL), CACHE_HIT_RESERVED);
    assert_int_equal(k->late, 1);
    assert_int_equal(k->issued, 3);
    mem_req f2 = reply_for(&q2);
    assert_int_equal(cache_fill(c, &f2, 7, woken, 16), 1);
    assert_int_equal(woken[0].warp, 2);
    assert_false(cache_probe(c, 0x100)->prefetched);
    r = rd(0x080, 8, 1);   /* candidate 0x100 again: present, and a demand has used it */
    assert_int_equal(cache_access(c, &r, 7, NULL), CACHE_HIT);
    assert_int_equal(k->redundant, 2);
    assert_int_equal(k->redundant_present, 1);
    assert_int_equal(k->redundant_prefetched, 1);
    mem_req q3 = *cache_miss_queue_peek(c);   /* the prefetch of 0x180 */
    cache_miss_queue_pop(c);
    assert_int_equal(q3.addr, 0x180);
    mem_req f3 = reply_for(&q3);
    assert_int_equal(cache_fill(c, &f3, 8, woken, 16), 0);
    assert_true(cache_probe(c, 0x180)->prefetched);
    assert_int_equal(k->useless, 0);
    r = rd(0x100, 8, 2);   /* candidate 0x180: present, prefetched, untouched */
    assert_int_equal(cache_access(c, &r, 9, NULL), CACHE_HIT);
    assert_int_equal(k->redundant, 3);
    assert_int_equal(k->redundant_present, 2);
    assert_int_equal(k->redundant_prefetched, 2);

    uint64_t t = 10;
    const uint64_t fillers[] = {0x380, 0x580, 0x780, 0x980};
    for (size_t i = 0; i < 4; i++) {
        r = rd(fillers[i], 16, 3);
        assert_int_equal(cache_access(c, &r, t++, NULL), CACHE_MISS);
        while (cache_miss_queue_length(c)) {
            mem_req q = *cache_miss_queue_peek(c);
            cache_miss_queue_pop(c);
            mem_req f = reply_for(&q);
            assert_true(cache_fill(c, &f, t++, woken, 16) >= 0);
        }
    }
    assert_null(cache_probe(c, 0x180));
    assert_int_equal(k->useless, 1);
    cache_destroy(c);
}

/* Two "slices": lines with bit 7 clear are A's, set are B's (as A100's
 * mapping alternates 128 B lines between slices).  A's next-line candidate is
 * always B's line: without a forward function it is foreign; with one it is
 * handed over (forwarded, not foreign) and B fetches it as its own prefetch
 * (issued at B; a second hand-over of the same line is redundant at B); a
 * forward function that refuses counts the candidate as dropped at A. */
static bool owns_even(void *ctx, uint64_t addr) { return ((addr >> 7) & 1) == (uint64_t)(uintptr_t)ctx; }
typedef struct {
    mem_req cause;
    uint64_t addr, now;
    int calls, accept;
} handover;
static bool forward_to(void *ctx, uint64_t addr, const mem_req *cause, uint64_t now) {
    handover *h = ctx;
    h->calls++;
    h->cause = *cause, h->addr = addr, h->now = now;
    return h->accept;
}
static void forwarded_candidates(void **state) {
    (void)state;
    cache *a = cache_with("nextline", 8), *b = cache_with("nextline", 8);
    cache_set_prefetch_owner(a, owns_even, (void *)(uintptr_t)0);
    cache_set_prefetch_owner(b, owns_even, (void *)(uintptr_t)1);
    const cache_prefetch_counters *ka = cache_prefetch_stats(a), *kb = cache_prefetch_stats(b);
    mem_req r = rd(0x000, 8, 1);
    assert_int_equal(cache_access(a, &r, 1, NULL), CACHE_MISS);
    assert_int_equal(ka->foreign, 1);   /* 0x080 is B's */
    assert_int_equal(ka->issued, 0);
    assert_false(cache_prefetch_forwards(a));

    handover h = {.accept = 1};
    cache_set_prefetch_forward(a, forward_to, &h);
    assert_true(cache_prefetch_forwards(a));
    r = rd(0x100, 8, 2);
    assert_int_equal(cache_access(a, &r, 5, NULL), CACHE_MISS);
    assert_int_equal(h.calls, 1);
    assert_int_equal(h.addr, 0x180);
    assert_int_equal(h.now, 5);
    assert_int_equal(h.cause.warp, 2);
    assert_int_equal(ka->forwarded, 1);
    assert_int_equal(ka->foreign, 1);   /* unchanged */
    assert_int_equal(ka->candidates, 2);
    cache_prefetch(b, &h.cause, h.addr, 9);
    assert_int_equal(kb->issued, 1);
    assert_int_equal(cache_miss_queue_length(b), 1);
    mem_req q = *cache_miss_queue_peek(b);
    assert_int_equal(q.addr, 0x180);
    assert_true(q.flags & MEM_REQ_PREFETCH);
    cache_prefetch(b, &h.cause, h.addr, 10);   /* in flight now */
    assert_int_equal(kb->issued, 1);
    assert_int_equal(kb->redundant, 1);

    h.accept = 0;   /* the other slice's queue is full */
    r = rd(0x200, 8, 3);
    assert_int_equal(cache_access(a, &r, 11, NULL), CACHE_MISS);
    assert_int_equal(h.calls, 2);
    assert_int_equal(ka->forwarded, 1);
    assert_int_equal(ka->dropped, 1);
    cache_destroy(a);
    cache_destroy(b);
}

/* A prefetch never takes the last MSHR entry: with 2 entries, the demand miss
 * holds one and the prefetch would take the other, so it is dropped (1 + 2 > 2);
 * with 3 it goes (1 + 2 <= 3). */
static void prefetch_leaves_room(void **state) {
    (void)state;
    cache *c = cache_with("nextline", 2);
    mem_req r = rd(0x000, 8, 1);
    assert_int_equal(cache_access(c, &r, 1, NULL), CACHE_MISS);
    assert_int_equal(cache_prefetch_stats(c)->dropped, 1);
    assert_int_equal(cache_prefetch_stats(c)->issued, 0);
    assert_int_equal(cache_miss_queue_length(c), 1);
    cache_destroy(c);
    c = cache_with("nextline", 3);
    assert_int_equal(cache_access(c, &r, 1, NULL), CACHE_MISS);
    assert_int_equal(cache_prefetch_stats(c)->issued, 1);
    assert_int_equal(cache_miss_queue_length(c), 2);
    cache_destroy(c);
}

/* spp learns once per line access (prefetch_ops.once_per_line): the cache
 * does not show it a read of the line, warp and SM of the read it saw last,
 * which is how a sectored L2 receives the other sectors of one request.  By
 * hand, on a 4-set normal cache with 'spp' (each read below is one 32 B sector):
 *   warp 1, SM 0: sectors 0, 1, 2, 3 of line 0x1000: the first is shown (SPP
 *     trigger 1, a signature-table miss), the other three are repeats (3);
 *   warp 2, line 0x1000: another warp: shown (trigger 2);
 *   warp 1, line 0x1000: the last shown was warp 2's: shown (trigger 3; SPP's
 *     table holds (page 1, warp 1): a hit, delta 0);
 *   warp 1 again: a repeat (4);
 *   warp 1 writes 0x1000: writes never reach a prefetcher (nothing counted);
 *   warp 1 on SM 1: another requester: shown (trigger 4; another warp of the
 *     GPU for SPP, so a signature-table miss);
 *   warp 1, SM 1, line 0x1080: another line: shown (trigger 5, delta +1).
 * So spp_triggers 5, line repeats 4, and SPP's table hit at triggers 3 (page 1,
 * SM 0's warp 1) and 5 (SM 1's): spp_st_hits 2. */
static void once_per_line(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:4:128:4,L:R:m:N:L,A:8:4,8", &g, err, sizeof err), 0);
    snprintf(g.policy, sizeof g.policy, "lru");
    g.pf = spp_cfg();
    cache *c = cache_create(&g, "T", err, sizeof err);
    assert_non_null(c);
    assert_true(cache_prefetcher(c)->once_per_line);
    const cache_prefetch_counters *k = cache_prefetch_stats(c);
    uint64_t t = 1;
    mem_req r = rd(0x1000, 8, 1);
    r.size = 32;
    for (int s = 0; s < 4; s++) {
        r.addr = 0x1000 + 32u * (uint32_t)s;
        r.sector_mask = 1;
        cache_access(c, &r, t++, NULL);
    }
    assert_int_equal(k->line_repeats, 3);
    mem_req woken[8];   /* fill the line: the reads below hit */
    while (cache_miss_queue_length(c)) {
        mem_req f = reply_for(cache_miss_queue_peek(c));
        cache_miss_queue_pop(c);
        assert_int_equal(cache_fill(c, &f, t++, woken, 8), 4);
    }
    r.addr = 0x1000;
    r.warp = 2;
    cache_access(c, &r, t++, NULL);
    r.warp = 1;
    cache_access(c, &r, t++, NULL);
    assert_int_equal(k->line_repeats, 3);
    cache_access(c, &r, t++, NULL);
    assert_int_equal(k->line_repeats, 4);
    mem_req w = r;
    w.type = MEM_GLOBAL_ACC_W;
    cache_access(c, &w, t++, NULL);
    r.sm = 1;
    cache_access(c, &r, t++, NULL);
    r.addr = 0x1080;
    cache_access(c, &r, t++, NULL);
    assert_int_equal(k->line_repeats, 4);
    stat_probe trig = {"spp_triggers", -1}, hits = {"spp_st_hits", -1};
    cache_prefetcher(c)->report(cache_prefetcher_state(c), probe, &trig);
    cache_prefetcher(c)->report(cache_prefetcher_state(c), probe, &hits);
    assert_true(trig.value == 5);
    assert_true(hits.value == 2);   /* SM 1's warp 1 is another warp: its first read opens an entry */
    /* nextline learns nothing but asks on every read: it is shown every one */
    cache *n = cache_with("nextline", 8);
    assert_false(cache_prefetcher(n)->once_per_line);
    r = rd(0x000, 8, 1);
    cache_access(n, &r, 1, NULL);
    cache_access(n, &r, 2, NULL);
    assert_int_equal(cache_prefetch_stats(n)->line_repeats, 0);
    assert_int_equal(cache_prefetch_stats(n)->candidates, 2);
    cache_destroy(n);
    cache_destroy(c);
}

/* No prefetcher: the counters stay zero and nothing extra is queued. */
static void no_prefetcher(void **state) {
    (void)state;
    cache *c = cache_with("", 8);
    assert_null(cache_prefetcher(c));
    mem_req r = rd(0x000, 8, 1);
    assert_int_equal(cache_access(c, &r, 1, NULL), CACHE_MISS);
    assert_int_equal(cache_miss_queue_length(c), 1);
    assert_int_equal(cache_prefetch_stats(c)->issued, 0);
    cache_destroy(c);
}

static int load_err(const char *opt, const char *val, char *err, size_t n) {
    locsim_config *cfg = NULL;
    char *ov[] = {(char *)opt, (char *)val};
    locsim_status st = locsim_config_load("fermi_gtx480", 2, ov, &cfg, err, n);
    locsim_config_free(cfg);
    return st == LOCSIM_OK ? 0 : -1;
}

static void options(void **state) {
    (void)state;
    char err[512];
    assert_int_equal(load_err("-l2_prefetcher", "bogus", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown prefetcher 'bogus'"));
    assert_non_null(strstr(err, "nextline"));
    assert_int_equal(load_err("-stride_entries", "100", err, sizeof err), -1);
    assert_non_null(strstr(err, "power of two"));
    assert_int_equal(load_err("-ppf_tau_hi", "2.5", err, sizeof err), -1);
    assert_non_null(strstr(err, "integer"));
    assert_int_equal(load_err("-ppf_tau_lo", "10", err, sizeof err), -1);   /* above tau_hi -5 */
    assert_int_equal(load_err("-l1d_prefetcher", "stride", err, sizeof err), 0);
}

/* Prefetching moves data into caches only: a workload's results (every byte it
 * copies back) are identical with and without prefetchers at both levels, and
 * the prefetchers did work (issued > 0). */
static uint64_t run_digest(const char *wl, int with_pf, double *issued) {
    const workload_entry *e = workload_find(wl);
    assert_non_null(e);
    /* with_pf 1: bfs with nextline in the L1D and stride in the L2, hotspot the
     * other way round; 2: the whole of WSMP (MFQ, the wsmp warp scheduler,
     * spp_ppf in the L2) with spp in the L1D */
    int bfs = strcmp(wl, "bfs") == 0;
    char *ov1[] = {"-l1d_prefetcher", bfs ? "nextline" : "stride", "-l2_prefetcher", bfs ? "stride" : "nextline"};
    char *ov2[] = {"-l1d_prefetcher", "spp", "-l2_prefetcher", "spp_ppf", "-gpgpu_dram_scheduler", "mfq",
                   "-gpgpu_scheduler", "wsmp"};
    locsim_config *cfg = NULL;
    char err[512];
    assert_int_equal(locsim_config_load("fermi_gtx480", with_pf == 2 ? 8 : with_pf ? 4 : 0, with_pf == 2 ? ov2 : ov1,
                                        &cfg, err, sizeof err),
                     LOCSIM_OK);
    locsim_device *dev = NULL;
    assert_int_equal(locsim_device_create(cfg, LOCSIM_MODE_TIMING, &dev), LOCSIM_OK);
    char detail[512];
    assert_int_equal(workload_run(e, dev, e->wl->test_sizes[0], 1, detail, sizeof detail), WL_PASS);
    uint64_t d = locsim_dtoh_digest(dev);
    if (issued) {
        const stats *s = timing_of(dev)->stats;
        int l1 = stats_find(s, "L1D_prefetch_issued"), l2 = stats_find(s, "L2_prefetch_issued");
        assert_true(l1 >= 0 && l2 >= 0);
        *issued = stats_value(s, STATS_TOTAL, l1) + stats_value(s, STATS_TOTAL, l2);
    }
    locsim_device_destroy(dev);
    locsim_config_free(cfg);
    return d;
}

static void output_unchanged(void **state) {
    (void)state;
    static const char *const wls[] = {"bfs", "hotspot"};
    for (size_t i = 0; i < sizeof wls / sizeof wls[0]; i++) {
        double issued = 0, issued2 = 0;
        uint64_t plain = run_digest(wls[i], 0, NULL), pf = run_digest(wls[i], 1, &issued);
        uint64_t full = run_digest(wls[i], 2, &issued2);
        printf("%s: digest %016llx / %016llx with prefetching (%.0f prefetches) / %016llx with WSMP (%.0f)\n",
               wls[i], (unsigned long long)plain, (unsigned long long)pf, issued, (unsigned long long)full, issued2);
        assert_true(plain == pf);
        assert_true(plain == full);
        assert_true(issued > 0 && issued2 > 0);
    }
}

/* SPP works where it should: in the pagewalk microbenchmark every warp reads
 * its own 32 KB one 128 B line after another, so each warp's stream moves
 * through pages in order, in every L2 slice's own address space too.  With
 * -l2_prefetcher spp (and spp_ppf), more than half of the demand reads that
 * would miss in the L2 find their line prefetched or in flight:
 * L2_prefetch_coverage > 0.5.  (SPP on device pages at a slice, or one pattern
 * table per SM-local slot, stays far below: docs/wsmp.md.) */
static void spp_covers_page_walk(void **state) {
    (void)state;
    const workload_entry *e = workload_find("pagewalk");
    assert_non_null(e);
    static const char *const pfs[] = {"spp", "spp_ppf"};
    for (size_t i = 0; i < 2; i++) {
        char *ov[] = {"-l2_prefetcher", (char *)pfs[i]};
        locsim_config *cfg = NULL;
        char err[512], detail[512];
        assert_int_equal(locsim_config_load("fermi_gtx480", 2, ov, &cfg, err, sizeof err), LOCSIM_OK);
        locsim_device *dev = NULL;
        assert_int_equal(locsim_device_create(cfg, LOCSIM_MODE_TIMING, &dev), LOCSIM_OK);
        assert_int_equal(workload_run(e, dev, e->wl->test_sizes[0], 1, detail, sizeof detail), WL_PASS);
        const stats *st = timing_of(dev)->stats;
        int cov = stats_find(st, "L2_prefetch_coverage"), acc = stats_find(st, "L2_prefetch_accuracy");
        assert_true(cov >= 0 && acc >= 0);
        double coverage = stats_value(st, STATS_TOTAL, cov), accuracy = stats_value(st, STATS_TOTAL, acc);
        printf("pagewalk --size %u, %s: L2 prefetch coverage %.3f, accuracy %.3f\n", e->wl->test_sizes[0], pfs[i],
               coverage, accuracy);
        assert_true(coverage > 0.5);
        locsim_device_destroy(dev);
        locsim_config_free(cfg);
    }
}

/* The filter learns from a stream it should not prefetch.  Warp 1 first
 * reads 20 pages whole (lines 0..31 in order): SPP learns delta +1 after every
 * signature of a run of +1s, and those prefetches are used (the filter trains
 * up).  Then it reads only lines 0 and 1 of each of 200 further pages: at line
 * 1 SPP still proposes line 2 and on with full confidence (its pattern table
 * never sees the run stop; alpha, its accuracy, soon cuts the path to depth
 * 0), and nobody reads them.  Every request is answered at once; the cache (16
 * sets x 4 ways, LRU) evicts those lines unused as later pages come, and PPF
 * trains down on each such eviction (its prefetch table names the features).
 * So over the 200 pages the filter's sums fall below tau_hi and then tau_lo:
 * the last 20 pages see fewer prefetches issued and more rejections than the
 * first 20.  A filter that never trained would keep every sum at 0 and reject
 * nothing. */
static uint64_t ppf_stat(const cache *c, const char *name) {
    stat_probe pr = {name, -1};
    cache_prefetcher(c)->report(cache_prefetcher_state(c), probe, &pr);
    assert_true(pr.value >= 0);
    return (uint64_t)pr.value;
}

static void ppf_learns_unused_stream(void **state) {
    (void)state;
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:16:128:4,L:R:m:N:L,A:64:4,64", &g, err, sizeof err), 0);
    snprintf(g.policy, sizeof g.policy, "lru");
    g.pf = spp_cfg();
    snprintf(g.pf.name, sizeof g.pf.name, "spp_ppf");
    g.pf.ppf_theta_pos = 90;   /* PPF's margins */
    cache *c = cache_create(&g, "T", err, sizeof err);
    assert_non_null(c);
    const cache_prefetch_counters *k = cache_prefetch_stats(c);
    const uint32_t learn = 20, pages = 200, window = 20;
    /* issued and rejected at the start and the end of the first and the last window */
    uint64_t t = 1, at_issued[4] = {0}, at_rejects[4] = {0};
    const uint32_t marks[4] = {learn, learn + window, learn + pages - window, learn + pages};
    mem_req woken[16];
    for (uint32_t page = 0; page <= learn + pages; page++) {
        for (int m = 0; m < 4; m++)
            if (page == marks[m]) at_issued[m] = k->issued, at_rejects[m] = ppf_stat(c, "ppf_reject");
        if (page == learn + pages) break;
        uint32_t lines = page < learn ? 32 : 2;
        for (uint32_t off = 0; off < lines; off++) {
            mem_req r = rd(0x100000 + (uint64_t)page * 4096 + off * 128, 8, 1);
            assert_int_not_equal(cache_access(c, &r, t++, NULL), CACHE_RESERVATION_FAIL);
            while (cache_miss_queue_length(c)) {
                mem_req f = reply_for(cache_miss_queue_peek(c));
                cache_miss_queue_pop(c);
                assert_true(cache_fill(c, &f, t++, woken, 16) >= 0);
            }
        }
    }
    uint64_t issued_first = at_issued[1] - at_issued[0], rejects_first = at_rejects[1] - at_rejects[0];
    uint64_t issued_last = at_issued[3] - at_issued[2], rejects_last = at_rejects[3] - at_rejects[2];
    printf("first %u pages of lines 0-1: %llu issued, %llu rejected; last %u: %llu issued, %llu rejected; "
           "useless %llu, trained down %llu\n",
           window, (unsigned long long)issued_first, (unsigned long long)rejects_first, window,
           (unsigned long long)issued_last, (unsigned long long)rejects_last, (unsigned long long)k->useless,
           (unsigned long long)ppf_stat(c, "ppf_train_evict"));
    assert_true(ppf_stat(c, "ppf_train_evict") > 0);
    assert_true(issued_last < issued_first);
    assert_true(rejects_last > rejects_first);
    cache_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nextline_candidates), cmocka_unit_test(stride_candidates),
        cmocka_unit_test(cache_bookkeeping),
        cmocka_unit_test(forwarded_candidates),
        cmocka_unit_test(prefetch_leaves_room),
        cmocka_unit_test(no_prefetcher),       cmocka_unit_test(options),
        cmocka_unit_test(once_per_line),
        cmocka_unit_test(spp_signature),       cmocka_unit_test(spp_path_confidence),
        cmocka_unit_test(ppf_filter_and_training), cmocka_unit_test(ppf_learns_unused_stream),
        cmocka_unit_test(spp_covers_page_walk),
        cmocka_unit_test(output_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
