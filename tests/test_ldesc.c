/* Locality Descriptors (src/ldesc/, src/runtime/ldesc_api.c, src/cta/ldesc.c,
 * src/mem/policy/ldesc.c; docs/ldesc.md): API validation, the priority-sorted
 * set and its lookup, Algorithm 1 on small grids (split, merge, priorities), the
 * 'ldesc' CTA scheduler's dispatch order, and the L1D policy (bypass, hard
 * pinning with way-0 eviction, the unpin timer, soft pinning).  Every expected
 * value is worked out by hand in the comment next to it. */
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
#include "mem/cache.h"
#include "mem/prefetch/prefetch.h"

#define L(k) ((uint64_t)(k) * 128)

static locsim_ldesc desc(uint64_t base, uint64_t size, uint32_t type) {
    locsim_ldesc d;
    memset(&d, 0, sizeof d);
    d.base = base;
    d.size = size;
    d.type = type;
    d.elem_size = 4;
    d.data_tile = (locsim_dim3){1, 1, 1};
    d.compute_tile = (locsim_dim3){1, 1, 1};
    d.map = (locsim_dim3){1, 0, 0};
    return d;
}

/* ---- validation through the public API ---- */

static void expect_invalid(locsim_device *dev, const locsim_ldesc *d, const char *words) {
    int id = 7;
    assert_int_equal(locsim_ldesc_attach(dev, d, &id), LOCSIM_ERR_INVALID);
    assert_int_equal(id, -1);
    if (!strstr(locsim_last_error(dev), words)) fail_msg("error '%s' lacks '%s'", locsim_last_error(dev), words);
}

static void test_attach_validation(void **state) {
    (void)state;
    locsim_device *dev;
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
    locsim_dptr a;
    assert_int_equal(locsim_malloc(dev, &a, 4096), LOCSIM_OK);
    locsim_ldesc d = desc(a, 4096, LOCSIM_LDESC_INTER_THREAD);
    int id = -1;
    assert_int_equal(locsim_ldesc_attach(dev, &d, &id), LOCSIM_OK);
    assert_int_equal(id, 0);
    assert_int_equal(locsim_ldesc_count(dev), 1);

    locsim_ldesc bad = d;
    bad.size = 4097;   /* one byte past the allocation */
    expect_invalid(dev, &bad, "not inside one live device allocation");
    bad = d, bad.base = a + 8192, bad.size = 16;   /* outside every allocation */
    expect_invalid(dev, &bad, "not inside one live device allocation");
    bad = d, bad.data_tile.y = 0;
    expect_invalid(dev, &bad, "data_tile (1,0,1)");
    bad = d, bad.compute_tile.z = 0;
    expect_invalid(dev, &bad, "compute_tile (1,1,0)");
    bad = d, bad.type = 8;
    expect_invalid(dev, &bad, "type 0x8");
    bad = d, bad.type = 0;
    expect_invalid(dev, &bad, "type 0x0");
    bad = d, bad.type = LOCSIM_LDESC_NO_REUSE | LOCSIM_LDESC_INTER_THREAD;
    expect_invalid(dev, &bad, "NO_REUSE contradicts");
    bad = d, bad.map = (locsim_dim3){2, 0, 0};   /* ranks must start at 1 */
    expect_invalid(dev, &bad, "map (2,0,0)");
    bad = d, bad.map = (locsim_dim3){1, 1, 0};   /* a rank twice */
    expect_invalid(dev, &bad, "map (1,1,0)");
    bad = d, bad.sharing = (locsim_ldesc_sharing)5;
    expect_invalid(dev, &bad, "sharing 5");
    bad = d, bad.pattern = (locsim_ldesc_pattern)9;
    expect_invalid(dev, &bad, "pattern 9");
    bad = d, bad.elem_size = 0;
    expect_invalid(dev, &bad, "elem_size");
    bad = d, bad.stride = INT64_MIN;   /* |stride| is not an int64_t; in bytes it is past 64 bits */
    expect_invalid(dev, &bad, "stride -9223372036854775808 elements of 4 B");
    bad = d, bad.stride = INT64_MAX;
    expect_invalid(dev, &bad, "does not fit in 64 bits");
    bad = d, bad.data_tile = (locsim_dim3){2048, 1, 1};   /* 2048 x 4 B > 4096 B */
    expect_invalid(dev, &bad, "larger than the data structure");
    assert_int_equal(locsim_ldesc_count(dev), 1);   /* nothing bad was attached */

    /* INTRA | INTER together is allowed (several types); the map (3,1,2) is a permutation */
    locsim_ldesc two = d;
    two.type = LOCSIM_LDESC_INTRA_THREAD | LOCSIM_LDESC_INTER_THREAD;
    two.map = (locsim_dim3){3, 1, 2};
    assert_int_equal(locsim_ldesc_attach(dev, &two, &id), LOCSIM_OK);
    assert_int_equal(id, 1);
    assert_int_equal(locsim_ldesc_detach(dev, 0), LOCSIM_OK);
    assert_int_equal(locsim_ldesc_detach(dev, 0), LOCSIM_ERR_INVALID);   /* already detached */
    assert_int_equal(locsim_ldesc_count(dev), 1);
    /* freeing the allocation drops its descriptors */
    assert_int_equal(locsim_free(dev, a), LOCSIM_OK);
    assert_int_equal(locsim_ldesc_count(dev), 0);
    locsim_device_destroy(dev);
}

/* ---- the set: priority order and lookup ---- */

static void build(ldesc_set *s, const locsim_ldesc *d, uint32_t n) {
    uint8_t used[LOCSIM_LDESC_MAX] = {0};
    locsim_ldesc slots[LOCSIM_LDESC_MAX];
    memset(slots, 0, sizeof slots);
    for (uint32_t i = 0; i < n; i++) slots[i] = d[i], used[i] = 1;
    ldesc_set_build(s, slots, used, LOCSIM_LDESC_MAX);
}

static void test_set_lookup(void **state) {
    (void)state;
    locsim_ldesc d[3] = {desc(1000, 100, LOCSIM_LDESC_NO_REUSE), desc(1050, 100, LOCSIM_LDESC_INTER_THREAD),
                         desc(5000, 10, LOCSIM_LDESC_INTRA_THREAD)};
    d[1].priority = 5;   /* overlaps d[0] on [1050, 1100) and wins there */
    ldesc_set s;
    build(&s, d, 3);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.e[0].id, 1);   /* priority 5 first, then ids 0 and 2 (priority 0) */
    assert_int_equal(s.e[1].id, 0);
    assert_int_equal(s.e[2].id, 2);
    assert_int_equal(s.lo, 1000);
    assert_int_equal(s.hi, 5010);
    assert_int_equal(ldesc_lookup(&s, 1000)->id, 0);
    assert_int_equal(ldesc_lookup(&s, 1049)->id, 0);
    assert_int_equal(ldesc_lookup(&s, 1050)->id, 1);   /* overlap: the higher priority */
    assert_int_equal(ldesc_lookup(&s, 1149)->id, 1);
    assert_null(ldesc_lookup(&s, 1150));
    assert_null(ldesc_lookup(&s, 999));
    assert_int_equal(ldesc_lookup(&s, 5009)->id, 2);
    assert_null(ldesc_lookup(&s, 5010));
    assert_null(ldesc_lookup(NULL, 1000));
}

/* ---- Algorithm 1 ---- */

static locsim_dim3 clusters(const locsim_ldesc *d, uint32_t n, locsim_dim3 grid, uint32_t sms, uint32_t *used) {
    ldesc_set s;
    build(&s, d, n);
    locsim_dim3 c;
    *used = ldesc_clusters(&s, LOCSIM_LDESC_INTER_THREAD, grid, sms, &c);
    return c;
}

static void assert_dim(locsim_dim3 got, uint32_t x, uint32_t y, uint32_t z) {
    if (got.x != x || got.y != y || got.z != z)
        fail_msg("got (%u,%u,%u), expected (%u,%u,%u)", got.x, got.y, got.z, x, y, z);
}

static void test_alg1_split(void **state) {
    (void)state;
    uint32_t used;
    /* histo-like: grid 8x4, C-Tile = one grid column (1,4,1), 15 SMs.  8 tiles <
     * 15: halve the largest dimension, y: (1,2,1) -> 8 x 2 = 16 tiles >= 15. */
    locsim_ldesc d = desc(0x1000, 4096, LOCSIM_LDESC_INTER_THREAD);
    d.compute_tile = (locsim_dim3){1, 4, 1};
    assert_dim(clusters(&d, 1, (locsim_dim3){8, 4, 1}, 15, &used), 1, 2, 1);
    assert_int_equal(used, 1);
    /* grid 4x2, C-Tile the whole grid, 15 SMs: (4,2,1) 1 tile -> x (2,2,1) 2 ->
     * tie, x first (1,2,1) 4 -> y (1,1,1) 8 < 15 but a single CTA: stop. */
    d.compute_tile = (locsim_dim3){4, 2, 1};
    assert_dim(clusters(&d, 1, (locsim_dim3){4, 2, 1}, 15, &used), 1, 1, 1);
    /* a C-Tile larger than the grid is clamped to it first: (100,2,1) on 4x2 with
     * 2 SMs -> (4,2,1) 1 tile -> (2,2,1) 2 tiles: done. */
    d.compute_tile = (locsim_dim3){100, 2, 1};
    assert_dim(clusters(&d, 1, (locsim_dim3){4, 2, 1}, 2, &used), 2, 2, 1);
    /* odd sizes round up: (5,1,1) on 5x1 with 2 SMs -> (3,1,1): tiles of 3 and 2 */
    d.compute_tile = (locsim_dim3){5, 1, 1};
    assert_dim(clusters(&d, 1, (locsim_dim3){5, 1, 1}, 2, &used), 3, 1, 1);
}

static void test_alg1_merge_and_priority(void **state) {
    (void)state;
    uint32_t used;
    locsim_dim3 grid = {16, 4, 1};
    locsim_ldesc d[2] = {desc(0x1000, 4096, LOCSIM_LDESC_INTER_THREAD), desc(0x4000, 4096, LOCSIM_LDESC_INTER_THREAD)};
    d[0].compute_tile = (locsim_dim3){1, 4, 1};   /* columns: 16 tiles */
    d[1].compute_tile = (locsim_dim3){4, 1, 1};   /* row pieces: 4 x 4 = 16 tiles */
    d[0].priority = 2, d[1].priority = 1;
    /* 4 SMs: no split (16 >= 4 each).  CLS = (1,4,1); merge d[1]: x 1 * max(4/1, 1)
     * = 4, y 4 * max(1/4 = 0, 1) = 4 -> (4,4,1): 4 clusters >= 4 SMs: taken. */
    assert_dim(clusters(d, 2, grid, 4, &used), 4, 4, 1);
    assert_int_equal(used, 2);
    /* 8 SMs: the merged (4,4,1) gives only 4 clusters < 8: CLS stays (1,4,1). */
    assert_dim(clusters(d, 2, grid, 8, &used), 1, 4, 1);
    /* priorities swapped, 8 SMs: CLS = (4,1,1) from d[1]; merge d[0]: x 4 * max(1/4, 1)
     * = 4, y 1 * max(4/1, 1) = 4 -> (4,4,1) 4 < 8: refused, (4,1,1) stays. */
    d[0].priority = 1, d[1].priority = 2;
    assert_dim(clusters(d, 2, grid, 8, &used), 4, 1, 1);
    /* only INTER_THREAD descriptors drive clustering (Fig. 11): NO_REUSE alone -> none */
    locsim_ldesc nr = desc(0x1000, 4096, LOCSIM_LDESC_NO_REUSE);
    nr.compute_tile = (locsim_dim3){4, 4, 1};
    assert_dim(clusters(&nr, 1, grid, 4, &used), 1, 1, 1);
    assert_int_equal(used, 0);
}

/* Algorithm 1 within a NUMA zone (§4.3): CT_NUM counts the tiles holding the
 * zone's CTAs, SM_NUM is the zone's SMs. */
static void test_alg1_zone(void **state) {
    (void)state;
    uint32_t used;
    locsim_dim3 grid = {8, 4, 1}, c;
    /* zone 0 runs grid columns 0-1, zone 1 columns 2-7 (an uneven partition) */
    uint8_t zone[32];
    for (uint32_t id = 0; id < 32; id++) zone[id] = id % 8 >= 2;
    locsim_ldesc d[2] = {desc(0x1000, 4096, LOCSIM_LDESC_INTER_THREAD), desc(0x4000, 4096, LOCSIM_LDESC_INTER_THREAD)};
    d[0].compute_tile = (locsim_dim3){1, 4, 1};   /* one grid column */
    d[1].compute_tile = (locsim_dim3){2, 4, 1};   /* two grid columns */
    d[0].priority = 2, d[1].priority = 1;
    ldesc_set s;
    build(&s, d, 2);
    /* the whole grid on 4 SMs: d0 (1,4,1) 8 tiles >= 4; merge d1: x 1 * max(2/1, 1)
     * = 2, y 4 * max(4/4, 1) = 4 -> (2,4,1): 4 tiles >= 4: taken. */
    used = ldesc_clusters(&s, LOCSIM_LDESC_INTER_THREAD, grid, 4, &c);
    assert_dim(c, 2, 4, 1);
    assert_int_equal(used, 2);
    /* zone 1, 4 SMs: d0 (1,4,1) holds 6 of its tiles (columns 2..7) >= 4; d1 (2,4,1)
     * holds 3 (columns 2-3, 4-5, 6-7) < 4: halve y -> (2,2,1): 6 tiles >= 4.  Merge:
     * x 1 * max(2/1, 1) = 2, y 4 * max(2/4 = 0, 1) = 4 -> (2,4,1): 3 of the zone's
     * tiles < 4: refused, CLS stays (1,4,1). */
    used = ldesc_clusters_zone(&s, LOCSIM_LDESC_INTER_THREAD, grid, zone, 1, 4, &c);
    assert_dim(c, 1, 4, 1);
    assert_int_equal(used, 2);
    /* zone 0, 4 SMs: d0 (1,4,1) holds 2 tiles < 4: halve y -> (1,2,1): 2 x 2 = 4.
     * d1 (2,4,1) 1 tile -> y (2,2,1) 2 tiles -> tie, x first (1,2,1) 4.  Merge: x 1 *
     * max(1/1, 1) = 1, y 2 * max(2/2, 1) = 2 -> (1,2,1), 4 >= 4: CLS (1,2,1). */
    used = ldesc_clusters_zone(&s, LOCSIM_LDESC_INTER_THREAD, grid, zone, 0, 4, &c);
    assert_dim(c, 1, 2, 1);
    /* a zone without CTAs holds no tile: every C-Tile splits down to one CTA */
    used = ldesc_clusters_zone(&s, LOCSIM_LDESC_INTER_THREAD, grid, zone, 2, 4, &c);
    assert_dim(c, 1, 1, 1);
}

static void test_dtile_map(void **state) {
    (void)state;
    ldesc_set s;
    locsim_ldesc d = desc(0x1000, 4096, LOCSIM_LDESC_INTER_THREAD);
    d.map = (locsim_dim3){3, 1, 2};   /* C-Tiles traversed Y -> Z -> X */
    build(&s, &d, 1);
    locsim_dim3 n = {2, 3, 4};   /* C-Tiles per dimension */
    /* index = y + 3 * (z + 4 * x): (1,2,3) -> 2 + 3 * (3 + 4) = 23 */
    assert_int_equal(ldesc_dtile_of_ctile(&s.e[0], (locsim_dim3){1, 2, 3}, n), 23);
    s.e[0].d.map = (locsim_dim3){1, 0, 0};   /* histo: only x counts: (1,2,3) -> 1 */
    assert_int_equal(ldesc_dtile_of_ctile(&s.e[0], (locsim_dim3){1, 2, 3}, n), 1);
}

/* ---- the CTA scheduler ---- */

static void test_cta_scheduler(void **state) {
    (void)state;
    const char *args;
    char err[256];
    const cta_sched_ops *ops = cta_sched_find("ldesc", &args);
    assert_non_null(ops);
    locsim_ldesc d = desc(0x1000, 4096, LOCSIM_LDESC_INTER_THREAD);
    d.compute_tile = (locsim_dim3){2, 2, 1};
    ldesc_set s;
    build(&s, &d, 1);
    /* grid 4x2 on 2 SMs: clusters (2,2,1), two of them.  Cluster 0 = CTAs {0,1,4,5}
     * (x + 4y), cluster 1 = {2,3,6,7}.  SM 0 asks first and takes cluster 0, SM 1
     * cluster 1; SM 0 then runs out of its own and, no cluster being left,
     * takes the last CTA (7) of SM 1's cluster, which has 3 left. */
    cta_sched_params p = {.num_sms = 2, .max_ctas_per_sm = 8, .nctas = 8, .grid = {4, 2, 1}, .args = args, .ldesc = &s};
    void *st = ops->create(&p, err, sizeof err);
    assert_non_null(st);
    static const struct { uint32_t sm; uint64_t cta; } seq[] = {{0, 0}, {1, 2}, {0, 1}, {0, 4}, {0, 5}, {0, 7},
                                                                {1, 3}, {1, 6}};
    uint64_t c;
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        assert_int_equal(ops->next(st, seq[i].sm, 1, i, &c), 1);
        assert_int_equal(c, seq[i].cta);
    }
    assert_int_equal(ops->next(st, 0, 1, 9, &c), 0);   /* all 8 handed out */
    assert_int_equal(ops->next(st, 1, 1, 9, &c), 0);
    assert_int_equal(ops->clusters(st), 2);
    ops->destroy(st);
    /* without descriptors: rr's linear order whoever asks */
    p.ldesc = NULL;
    st = ops->create(&p, err, sizeof err);
    for (uint64_t i = 0; i < 8; i++) {
        assert_int_equal(ops->next(st, (uint32_t)(i % 2 ? 0 : 1), 1, i, &c), 1);
        assert_int_equal(c, i);
    }
    assert_int_equal(ops->clusters(st), 0);
    ops->destroy(st);
}

/* ---- the L1D policy: one set of four 128 B ways, allocate on miss ---- */

typedef struct {
    const char *name;
    double value;
} probe;

static void grab(void *ctx, const char *name, double value) {
    probe *p = ctx;
    if (!strcmp(p->name, name)) p->value = value;
}

static uint64_t stat(cache *c, const char *name) {
    probe p = {name, -1};
    cache_policy(c)->report(cache_policy_state(c), 0, grab, &p);
    assert_true(p.value >= 0);
    return (uint64_t)p.value;
}

/* One set of 4 ways under the ldesc policy with bypass and hard pinning. */
static cache_geometry l1_geometry(uint8_t soft, uint32_t period) {
    cache_geometry g;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:1:128:4,L:L:m:N:L,A:8:4,8", &g, err, sizeof err), 0);
    snprintf(g.policy, sizeof g.policy, "ldesc");
    g.level = CACHE_LEVEL_L1D;
    g.ldesc_bypass = g.ldesc_hard_pin = 1;
    g.ldesc_soft_pin = soft;
    g.ldesc_unpin_period = period;
    return g;
}

static cache *l1_of(const cache_geometry *g, const ldesc_set *s) {
    char err[256];
    assert_null(cache_policy_find("ldesc")->check(g));
    cache *c = cache_create(g, "L1D", err, sizeof err);
    assert_non_null(c);
    cache_kernel_begin(c, s);
    return c;
}

static cache *l1(const ldesc_set *s, uint8_t soft, uint32_t period) {
    cache_geometry g = l1_geometry(soft, period);
    return l1_of(&g, s);
}

static cache_outcome rd(cache *c, uint32_t k, uint64_t now) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = L(k);
    r.type = MEM_GLOBAL_ACC_R;
    r.sector_mask = 0xF;
    r.size = 128;
    r.tag = k;
    cache_outcome o = cache_access(c, &r, now, NULL);
    if (o == CACHE_MISS) {   /* answer it at once, as the level below */
        mem_req reply = *cache_miss_queue_peek(c), woken[8];
        cache_miss_queue_pop(c);
        assert_int_equal(cache_fill(c, &reply, now, woken, 8), 1);
    }
    return o;
}

/* lines 0..63: INTRA_THREAD (hard); 100..109: NO_REUSE; 200..209: INTER_THREAD
 * COACCESSED IRREGULAR (soft); 300.. undescribed */
static void policy_set(ldesc_set *s) {
    locsim_ldesc d[3] = {desc(L(0), L(64), LOCSIM_LDESC_INTRA_THREAD), desc(L(100), L(10), LOCSIM_LDESC_NO_REUSE),
                         desc(L(200), L(10), LOCSIM_LDESC_INTER_THREAD)};
    d[2].pattern = LOCSIM_LDESC_IRREGULAR;
    build(s, d, 3);
}

static void test_l1_bypass(void **state) {
    (void)state;
    ldesc_set s;
    policy_set(&s);
    cache *c = l1(&s, 1, 0);
    assert_int_equal(rd(c, 100, 1), CACHE_MISS);
    assert_null(cache_probe(c, L(100)));            /* NO_REUSE: not kept */
    assert_int_equal(rd(c, 100, 2), CACHE_MISS);    /* so it misses again */
    assert_int_equal(rd(c, 300, 3), CACHE_MISS);    /* undescribed data is kept */
    assert_non_null(cache_probe(c, L(300)));
    assert_int_equal(stat(c, "ldesc_l1_bypasses"), 2);
    assert_int_equal(stat(c, "ldesc_d1_l1_bypasses"), 2);
    assert_int_equal(stat(c, "ldesc_d1_l1_misses"), 2);
    assert_int_equal(stat(c, "ldesc_l1_misses"), 2);   /* line 300 is not described */
    assert_int_equal(cache_stats(c)->bypassed, 2);
    cache_destroy(c);
}

static void test_l1_hard_pin_way0(void **state) {
    (void)state;
    ldesc_set s;
    policy_set(&s);
    cache *c = l1(&s, 1, 0);
    for (uint32_t k = 0; k < 4; k++) assert_int_equal(rd(c, k, 1 + k), CACHE_MISS);   /* ways 0..3 = lines 0..3 */
    assert_int_equal(rd(c, 0, 5), CACHE_HIT);   /* line 0 most recent: LRU would now evict line 1 */
    /* every way is hard-pinned: the victim is way 0 (line 0), then way 0 again (line 4) */
    assert_int_equal(rd(c, 4, 6), CACHE_MISS);
    assert_null(cache_probe(c, L(0)));
    assert_int_equal(rd(c, 5, 7), CACHE_MISS);
    assert_null(cache_probe(c, L(4)));
    for (uint32_t k = 1; k <= 3; k++) assert_non_null(cache_probe(c, L(k)));   /* the rest stays */
    assert_int_equal(stat(c, "ldesc_l1_way0_evictions"), 2);
    assert_int_equal(stat(c, "ldesc_l1_pinned_evictions"), 2);
    assert_int_equal(stat(c, "ldesc_d0_l1_hits"), 1);
    assert_int_equal(stat(c, "ldesc_d0_l1_misses"), 6);
    /* undescribed data never displaces pinned lines while an unpinned one exists:
     * line 300 goes to way 0 (the only... all pinned -> way 0), then line 301
     * evicts line 300 (unpinned, so the lowest priority) although 300 is newer
     * than lines 1..3 */
    assert_int_equal(rd(c, 300, 8), CACHE_MISS);
    assert_non_null(cache_probe(c, L(300)));
    assert_int_equal(rd(c, 301, 9), CACHE_MISS);
    assert_null(cache_probe(c, L(300)));
    for (uint32_t k = 1; k <= 3; k++) assert_non_null(cache_probe(c, L(k)));
    cache_destroy(c);
}

static void test_l1_unpin_timer(void **state) {
    (void)state;
    ldesc_set s;
    policy_set(&s);
    /* period 100: lines pinned at cycles 1..4 (period 0) are ordinary data from cycle 100 on */
    cache *c = l1(&s, 1, 100);
    for (uint32_t k = 0; k < 4; k++) assert_int_equal(rd(c, k, 1 + k), CACHE_MISS);
    assert_int_equal(rd(c, 0, 5), CACHE_HIT);   /* LRU order now: 1, 2, 3, 0 */
    /* cycle 50, same period: all pinned -> way 0 (line 0) */
    assert_int_equal(rd(c, 300, 50), CACHE_MISS);
    assert_null(cache_probe(c, L(0)));
    /* cycle 150: every pin has expired; line 300 (way 0, unpinned, newest) and
     * lines 1..3 are all ordinary: plain LRU evicts line 1 */
    assert_int_equal(rd(c, 301, 150), CACHE_MISS);
    assert_null(cache_probe(c, L(1)));
    assert_non_null(cache_probe(c, L(300)));
    assert_int_equal(stat(c, "ldesc_l1_way0_evictions"), 1);
    cache_destroy(c);
}

static void test_l1_soft_pin(void **state) {
    (void)state;
    ldesc_set s;
    policy_set(&s);
    /* way 0 = line 200 (soft-pinned, oldest), ways 1..3 = lines 300..302 */
    for (uint8_t soft = 0; soft <= 1; soft++) {
        cache *c = l1(&s, soft, 0);
        assert_int_equal(rd(c, 200, 1), CACHE_MISS);
        for (uint32_t k = 0; k < 3; k++) assert_int_equal(rd(c, 300 + k, 2 + k), CACHE_MISS);
        assert_int_equal(rd(c, 303, 6), CACHE_MISS);
        if (soft) {   /* the LRU unpinned line (300) goes, line 200 stays */
            assert_non_null(cache_probe(c, L(200)));
            assert_null(cache_probe(c, L(300)));
            assert_int_equal(stat(c, "ldesc_l1_pinned_evictions"), 0);
        } else {      /* soft pinning off: plain LRU evicts line 200 */
            assert_null(cache_probe(c, L(200)));
            assert_non_null(cache_probe(c, L(300)));
        }
        cache_destroy(c);
    }
    /* soft-pinned lines lose to hard-pinned ones: a set of 3 hard + 1 soft evicts the soft line */
    cache *c = l1(&s, 1, 0);
    assert_int_equal(rd(c, 200, 1), CACHE_MISS);
    for (uint32_t k = 0; k < 3; k++) assert_int_equal(rd(c, k, 2 + k), CACHE_MISS);
    assert_int_equal(rd(c, 3, 6), CACHE_MISS);
    assert_null(cache_probe(c, L(200)));
    assert_int_equal(stat(c, "ldesc_l1_pinned_evictions"), 1);
    assert_int_equal(stat(c, "ldesc_l1_way0_evictions"), 0);
    cache_destroy(c);
}

/* ---- the prefetcher (src/mem/prefetch/ldesc.c) ---- */

static void *pf_make(const ldesc_set *s) {
    const prefetch_ops *ops = prefetch_find("ldesc");
    assert_non_null(ops);
    prefetch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.line_size = 128;
    cfg.cache_bytes = 32768;   /* the paper's 32 KB L1 */
    char err[128];
    void *st = ops->create(&cfg, err, sizeof err);
    assert_non_null(st);
    ops->kernel_begin(st, s);
    return st;
}

/* The candidates of one access (0 or 1 of them) in *out. */
static uint32_t pf_miss(void *st, uint64_t addr, int hit, uint64_t *out) {
    prefetch_access a;
    memset(&a, 0, sizeof a);
    a.addr = addr;
    a.type = MEM_GLOBAL_ACC_R;
    a.hit = (uint8_t)hit;
    return prefetch_find("ldesc")->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES);
}

static void test_prefetch_nearby(void **state) {
    (void)state;
    /* lines 200..209: INTER_THREAD NEARBY; 0..63: INTRA_THREAD; 300: undescribed */
    locsim_ldesc d[2] = {desc(L(200), L(10), LOCSIM_LDESC_INTER_THREAD), desc(L(0), L(64), LOCSIM_LDESC_INTRA_THREAD)};
    d[0].sharing = LOCSIM_LDESC_NEARBY;
    ldesc_set s;
    build(&s, d, 2);
    void *st = pf_make(&s);
    uint64_t out[PREFETCH_MAX_CANDIDATES];
    assert_int_equal(pf_miss(st, L(203) + 8, 0, out), 1);   /* a miss: the next line */
    assert_int_equal(out[0], L(204));
    assert_int_equal(pf_miss(st, L(203) + 8, 1, out), 0);   /* a hit triggers nothing */
    assert_int_equal(pf_miss(st, L(209), 0, out), 0);       /* L(210) is past the data structure */
    assert_int_equal(pf_miss(st, L(5), 0, out), 0);         /* INTRA_THREAD data: no prefetch */
    assert_int_equal(pf_miss(st, L(300), 0, out), 0);       /* undescribed */
    probe pr = {"ldesc_pf_nearby", -1};
    prefetch_find("ldesc")->report(st, grab, &pr);
    assert_int_equal((int)pr.value, 1);                     /* only the first produced a candidate */
    prefetch_find("ldesc")->destroy(st);
}

/* One access with its outcome flags: candidates in *out. */
static uint32_t pf_touch(void *st, uint64_t addr, int hit, int pending, int useful, int late, uint64_t *out) {
    prefetch_access a;
    memset(&a, 0, sizeof a);
    a.addr = addr;
    a.type = MEM_GLOBAL_ACC_R;
    a.hit = (uint8_t)hit;
    a.pending = (uint8_t)pending;
    a.useful = (uint8_t)useful;
    a.late = (uint8_t)late;
    return prefetch_find("ldesc")->on_access(st, &a, 0, out, PREFETCH_MAX_CANDIDATES);
}

/* Distance = L1 / (active D-Tiles x W) strides, W = the bytes one warp touches in
 * one step, at least one 128 B line; L1 = 32768 B. */
static void test_prefetch_stride(void **state) {
    (void)state;
    uint64_t out[PREFETCH_MAX_CANDIDATES];
    /* syrk's A at N = 384 (workloads/syrk/host.c): 384 x 384 floats = 589824 B, D-Tile
     * 384 x 32 elements (32 rows of N; 49152 B), stride 1 element = 4 B.  The stride
     * runs along the rows (1 < 384): a warp reads one float in each of min(32, 32)
     * rows a step, W = 32 x 4 = 128 B.  (The row width 384 x 4 = 1536 B as W gave
     * 32768 / 1536 = 21 strides = 84 B: inside the line in flight.) */
    const uint64_t A = 0x200000, T = 49152;
    locsim_ldesc sk = desc(A, 589824, LOCSIM_LDESC_INTER_THREAD);
    sk.data_tile = (locsim_dim3){384, 32, 1};
    sk.stride = 1;
    ldesc_set s;
    build(&s, &sk, 1);
    void *st = pf_make(&s);
    assert_int_equal(pf_miss(st, A, 0, out), 1);            /* tile 0, 1 active: 32768 / 128 = 256 x 4 B */
    assert_int_equal(out[0], A + 1024);
    assert_int_equal(pf_miss(st, A + T, 0, out), 1);        /* tile 1, 2 active: 128 x 4 B */
    assert_int_equal(out[0], A + T + 512);
    for (uint64_t k = 2; k < 11; k++) pf_miss(st, A + k * T, 0, out);   /* tiles 2..10 */
    /* tile 11, 12 active: 32768 / (12 x 128) = 21 strides = 84 B < a line: 128 B */
    assert_int_equal(pf_miss(st, A + 11 * T + 4, 0, out), 1);
    assert_int_equal(out[0], A + 11 * T + 4 + 128);
    /* what triggers: a pending hit on a demand fetch does not (the miss before it
     * asked already), nor a plain hit; the first touch of a prefetched line (useful)
     * or of one in flight (late) does.  Still 12 tiles in the window of 16 (these
     * are tile 0 again): 128 B. */
    assert_int_equal(pf_touch(st, A + 8, 0, 1, 0, 0, out), 0);
    assert_int_equal(pf_touch(st, A + 8, 1, 0, 0, 0, out), 0);
    assert_int_equal(pf_touch(st, A + 1024, 1, 0, 1, 0, out), 1);
    assert_int_equal(out[0], A + 1024 + 128);
    assert_int_equal(pf_touch(st, A + 1152, 0, 1, 0, 1, out), 1);
    assert_int_equal(out[0], A + 1152 + 128);
    prefetch_find("ldesc")->destroy(st);
    /* fresh, 1 active: 1024 B ahead.  Each row is a stream whose front is the
     * furthest target asked for: a miss of a warp behind (A + 256, target A + 1280
     * <= A + 1532) asks nothing; the same offset in row 1 is another stream
     * (target A + 1536 + 1280); a target past the row's end (A + 512 -> A + 1536)
     * is past row 0's front and asked for */
    st = pf_make(&s);
    assert_int_equal(pf_miss(st, A + 508, 0, out), 1);
    assert_int_equal(out[0], A + 1532);
    assert_int_equal(pf_miss(st, A + 256, 0, out), 0);
    probe pb = {"ldesc_pf_behind_front", -1};
    prefetch_find("ldesc")->report(st, grab, &pb);
    assert_int_equal((int)pb.value, 1);
    assert_int_equal(pf_miss(st, A + 1536 + 256, 0, out), 1);
    assert_int_equal(out[0], A + 1536 + 1280);
    assert_int_equal(pf_miss(st, A + 512, 0, out), 1);
    assert_int_equal(out[0], A + 1536);
    prefetch_find("ldesc")->destroy(st);

    /* 1 MB at B, D-Tile 64 x 4 elements (1 KB), stride 64 elements = 256 B: a stride
     * of a whole row steps row to row, a warp reads min(32, 64) = 32 floats of one
     * row, W = 128 B.  1 active: 256 strides = 65536 B; 2 active: 32768 B. */
    const uint64_t B = 0x1000000;
    locsim_ldesc d = desc(B, 1 << 20, LOCSIM_LDESC_INTER_THREAD);
    d.data_tile = (locsim_dim3){64, 4, 1};
    d.stride = 64;
    build(&s, &d, 1);
    st = pf_make(&s);
    assert_int_equal(pf_miss(st, B, 0, out), 1);
    assert_int_equal(out[0], B + 65536);
    assert_int_equal(pf_miss(st, B + 1024, 0, out), 1);
    assert_int_equal(out[0], B + 1024 + 32768);
    assert_int_equal(pf_miss(st, B + 1040000, 0, out), 0);   /* 3 active: 85 x 256 B ahead = past the end */
    prefetch_find("ldesc")->destroy(st);
    /* rows narrower than a warp: data_tile.x = 16, W = 16 x 4 = 64 B: 512 strides */
    s.e[0].d.data_tile.x = 16, s.e[0].tile_bytes = 64;
    st = pf_make(&s);
    assert_int_equal(pf_miss(st, B, 0, out), 1);
    assert_int_equal(out[0], B + 512 * 256);
    prefetch_find("ldesc")->destroy(st);
    /* a negative stride looks backwards: fresh, 1 active: 200000 - 65536; from
     * less than the distance into the structure: nothing */
    build(&s, &d, 1);
    s.e[0].d.stride = -64;
    st = pf_make(&s);
    assert_int_equal(pf_miss(st, B + 200000, 0, out), 1);
    assert_int_equal(out[0], B + 200000 - 65536);
    assert_int_equal(pf_miss(st, B + 1000, 0, out), 0);
    prefetch_find("ldesc")->destroy(st);
    /* COACCESSED IRREGULAR: no prefetch (soft pinning's case); REGULAR with stride 0: none */
    s.e[0].d.pattern = LOCSIM_LDESC_IRREGULAR;
    st = pf_make(&s);
    assert_int_equal(pf_miss(st, B, 0, out), 0);
    prefetch_find("ldesc")->destroy(st);
    build(&s, &d, 1);
    s.e[0].d.stride = 0, s.e[0].stride_bytes = 0;
    st = pf_make(&s);
    assert_int_equal(pf_miss(st, B, 0, out), 0);
    prefetch_find("ldesc")->destroy(st);
}

/* ---- LOCAL descriptors: per-thread local memory (LIB's INTRA_THREAD data) ---- */

static void test_local_attach(void **state) {
    (void)state;
    locsim_device *dev;
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
    /* offsets 0..479 of every thread's local memory: no allocation is needed */
    locsim_ldesc d = desc(0, 480, LOCSIM_LDESC_INTRA_THREAD);
    d.space = LOCSIM_LDESC_LOCAL;
    int id = -1;
    assert_int_equal(locsim_ldesc_attach(dev, &d, &id), LOCSIM_OK);
    assert_int_equal(id, 0);
    assert_int_equal(locsim_ldesc_count(dev), 1);
    locsim_ldesc bad = d;
    bad.type = LOCSIM_LDESC_INTER_THREAD;   /* local memory is private */
    expect_invalid(dev, &bad, "INTER_THREAD cannot apply");
    bad = d, bad.base = 512 * 1024 - 4, bad.size = 8;   /* 4 bytes past CUDA's 512 KB */
    expect_invalid(dev, &bad, "past a thread's 524288 bytes");
    bad = d, bad.space = (locsim_ldesc_space)7;
    expect_invalid(dev, &bad, "space 7");
    bad = d, bad.space = LOCSIM_LDESC_GLOBAL;   /* the same range as a device address: no allocation there */
    expect_invalid(dev, &bad, "not inside one live device allocation");
    locsim_ldesc spill = desc(480, 64, LOCSIM_LDESC_NO_REUSE);
    spill.space = LOCSIM_LDESC_LOCAL;
    assert_int_equal(locsim_ldesc_attach(dev, &spill, &id), LOCSIM_OK);
    assert_int_equal(id, 1);
    /* freeing an allocation never drops a local descriptor */
    locsim_dptr a;
    assert_int_equal(locsim_malloc(dev, &a, 4096), LOCSIM_OK);
    assert_int_equal(locsim_free(dev, a), LOCSIM_OK);
    assert_int_equal(locsim_ldesc_count(dev), 2);
    locsim_device_destroy(dev);

    /* the set keeps them apart from device-memory descriptors: Algorithm 1, the
     * prefetcher and NUMA placement (which read e[]) never see them */
    locsim_ldesc two[2] = {desc(0, 16, LOCSIM_LDESC_INTRA_THREAD), desc(8, 16, LOCSIM_LDESC_INTRA_THREAD)};
    two[0].space = two[1].space = LOCSIM_LDESC_LOCAL;
    two[1].priority = 3;
    ldesc_set s;
    build(&s, two, 2);
    assert_int_equal(s.n, 0);
    assert_int_equal(s.nlocal, 2);
    assert_null(ldesc_lookup(&s, 8));
    /* words: 0 and 4 belong to id 0 only; 8 and 12 to both, priority 3 (id 1) wins;
     * 20 to id 1; 24 to none */
    assert_int_equal(ldesc_lookup_local(&s, 0)->id, 0);
    assert_int_equal(ldesc_lookup_local(&s, 4)->id, 0);
    assert_int_equal(ldesc_lookup_local(&s, 8)->id, 1);
    assert_int_equal(ldesc_lookup_local(&s, 20)->id, 1);
    assert_null(ldesc_lookup_local(&s, 24));
    locsim_dim3 c;
    assert_int_equal(ldesc_clusters(&s, ~0u, (locsim_dim3){8, 1, 1}, 2, &c), 0);
}

static cache_outcome rd_local(cache *c, uint64_t addr, uint64_t now) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.type = MEM_LOCAL_ACC_R;
    r.sector_mask = 0xF;
    r.size = 128;
    cache_outcome o = cache_access(c, &r, now, NULL);
    if (o == CACHE_MISS) {
        mem_req reply = *cache_miss_queue_peek(c), woken[8];
        cache_miss_queue_pop(c);
        assert_int_equal(cache_fill(c, &reply, now, woken, 8), 1);
    }
    return o;
}

static void test_l1_local_hard_pin(void **state) {
    (void)state;
    /* local memory at LB, interleaved with a word stride of 1024 bytes (256
     * hardware threads): word w of every thread lies in [LB + 1024 w, LB + 1024 (w + 1)),
     * one 128 B line per 32 threads.  Descriptor 0: offsets [8, 16) = words 2 and 3,
     * INTRA_THREAD (hard-pinned). */
    const uint64_t LB = 0x10000000000ull, S = 1024;
    locsim_ldesc d = desc(8, 8, LOCSIM_LDESC_INTRA_THREAD);
    d.space = LOCSIM_LDESC_LOCAL;
    ldesc_set s;
    build(&s, &d, 1);
    cache_geometry g = l1_geometry(0, 0);
    g.local_base = LB;
    g.local_word_stride = S;
    cache *c = l1_of(&g, &s);
    /* four described lines: word 2 of threads 0-31 and 32-63, word 3 of threads
     * 0-31 and 224-255 -> ways 0..3, all hard-pinned */
    const uint64_t pinned[4] = {LB + 2 * S, LB + 2 * S + 128, LB + 3 * S, LB + 3 * S + 7 * 128};
    for (int k = 0; k < 4; k++) assert_int_equal(rd_local(c, pinned[k], 1 + (uint64_t)k), CACHE_MISS);
    assert_int_equal(rd_local(c, pinned[1], 5), CACHE_HIT);
    /* word 1 (offsets 4..7) and word 4 (16..19) are outside the descriptor: not
     * counted; each finds a set of pinned lines and takes way 0 */
    assert_int_equal(rd_local(c, LB + 1 * S, 6), CACHE_MISS);
    assert_null(cache_probe(c, pinned[0]));
    assert_int_equal(rd_local(c, LB + 4 * S, 7), CACHE_MISS);   /* way 0 now holds an ordinary line: LRU among it */
    for (int k = 1; k < 4; k++) assert_non_null(cache_probe(c, pinned[k]));
    assert_int_equal(stat(c, "ldesc_d0_l1_misses"), 4);
    assert_int_equal(stat(c, "ldesc_d0_l1_hits"), 1);
    assert_int_equal(stat(c, "ldesc_l1_accesses"), 5);
    assert_int_equal(stat(c, "ldesc_l1_way0_evictions"), 1);
    assert_int_equal(stat(c, "ldesc_l1_pinned_evictions"), 1);
    cache_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attach_validation),
        cmocka_unit_test(test_set_lookup),
        cmocka_unit_test(test_alg1_split),
        cmocka_unit_test(test_alg1_merge_and_priority),
        cmocka_unit_test(test_alg1_zone),
        cmocka_unit_test(test_dtile_map),
        cmocka_unit_test(test_cta_scheduler),
        cmocka_unit_test(test_l1_bypass),
        cmocka_unit_test(test_l1_hard_pin_way0),
        cmocka_unit_test(test_l1_unpin_timer),
        cmocka_unit_test(test_l1_soft_pin),
        cmocka_unit_test(test_prefetch_nearby),
        cmocka_unit_test(test_prefetch_stride),
        cmocka_unit_test(test_local_attach),
        cmocka_unit_test(test_l1_local_hard_pin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
