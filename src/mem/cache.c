/* The generic set-associative cache: tag array, MSHR table, miss queue.
 *
 * Invariants the code relies on:
 *  - A line with pending sectors is never chosen as a victim (it is "reserved").
 *  - Every sector a waiting request needs is either requested from below by its
 *    MSHR entry or has already arrived for it, so every waiter is eventually woken.
 *  - An access that fails (CACHE_RESERVATION_FAIL) changes nothing but counters:
 *    all resources are checked before anything is modified.
 *  - The miss queue holds at most miss_queue_size entries after an access; fills in
 *    allocate-on-fill caches may add one write-back each beyond that, bounded by the
 *    number of MSHR entries, so the ring is sized miss_queue_size + mshr_entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/ipoly.h"

typedef struct {
    uint8_t used;
    uint8_t requested;   /* sectors asked from below, not yet arrived */
    uint8_t arrived;     /* sectors that arrived for this entry */
    uint8_t bypass;      /* the policy allocated no line: the fill is not kept */
    uint8_t prefetch;    /* opened by a prefetch; no demand request has merged into it */
    uint32_t nwaiters;
    uint16_t merged[MEM_MAX_SECTORS];  /* sectored caches: waiters needing each sector */
} mshr_entry;

struct cache {
    cache_geometry g;
    /* Ways a new line may take: g.assoc, or fewer while a unified L1D/shared
     * array gives the rest to shared memory (cache_set_active_ways). */
    uint32_t active_ways;
    char name[32];
    const cache_policy_ops *pol;
    void *pol_state;
    cache_line *lines;           /* nsets * assoc, set-major */
    /* Each line's line_addr when allocated, else TAG_NONE, in the same order:
     * the lookup on every access compares 8 bytes a way in a dense array (a
     * 16-way set's tags are two host cache lines, its cache_lines six) and
     * reads the line itself only when it hits. */
    uint64_t *tags;
    mshr_entry *mshr;
    /* The requests waiting in each entry (mshr_entries * max_waiters) and, apart
     * so that a fill scans a few bytes rather than whole requests, the sectors
     * each must see arrive before it completes. */
    mem_req *wreq;
    uint8_t *wneed;
    uint8_t *wmerged;            /* the waiter found its sectors in flight (a pending hit) */
    uint32_t mshr_used;          /* entries (lines) in use */
    /* Sectored caches keep GPGPU-Sim's sector MSHRs: an entry per 32 B sector in
     * flight (-gpgpu_cache's <entries> counts sectors) and <max merge> requests per
     * sector.  Here one entry per line holds its sectors, so capacity is counted
     * in sectors and merging per sector.  Normal caches: one entry per line,
     * <max merge> requests per line. */
    uint32_t mshr_sectors_used;
    uint32_t max_waiters;        /* waiters one entry can hold */
    /* A hash of the used MSHR entries by line address (chains through
     * mshr_next, -1 ends), so that a lookup on every access does not scan all
     * entries.  At most one used entry per line, so the answer is the same. */
    int32_t *mshr_bucket;        /* mshr_nbuckets, a power of two */
    int32_t *mshr_next;          /* per entry */
    uint64_t *mshr_free;         /* bit i set: entry i is unused (the lowest is taken) */
    uint32_t mshr_hash_shift;    /* 64 - log2(mshr_nbuckets) */
    /* Each entry's line address, TAG_NONE when unused, apart from the entries:
     * a lookup's chain walk (and a fill's check of the entry its fetch names,
     * mem_req.mshr) reads 8 bytes an entry in a dense array instead of the
     * entries themselves (most often a host-cache miss on each). */
    uint64_t *mshr_la;
    mem_req *mq;                 /* ring */
    uint32_t mq_cap, mq_head, mq_len;
    uint8_t full_mask;           /* every sector of a line */
    uint32_t line_shift, set_bits;
    bool set_pow2;               /* nsets is a power of two */
    ipoly *set_hash;             /* index function 'P' (IPOLY); NULL otherwise */
    uint8_t writeback_type;      /* MEM_L1_WRBK_ACC or MEM_L2_WRBK_ACC */
    cache_evict_hook hook;
    void *hook_ctx;
    /* Victim reports as GPGPU-Sim 3.x's tag probe names them (cache_set_victim_hook):
     * per way, the line it last held and the warp that last missed or merged on it,
     * kept after the line is invalidated or flushed, as that simulator's blocks keep
     * their tag and source fields.  NULL unless a hook is set. */
    cache_victim_hook victim_hook;
    void *victim_ctx;
    cache_way_owner *way_owner;
    cache_index_addr_fn index_addr;  /* NULL: index with the line address itself */
    const void *index_ctx;
    /* The last line address indexed through index_addr and its set: the sectors
     * of one line reach an L2 slice one after another, and index_addr (the
     * address map) is a function of the address alone. */
    uint64_t idx_last_la;        /* UINT64_MAX: none (no line address is that large) */
    uint32_t idx_last_set;
    uint64_t fw_last_la;         /* the line find_way last found, and its way (a hint) */
    uint32_t fw_last_way;
    cache_counters ctr;
    /* The prefetcher (NULL: none; then nothing below costs more than a test). */
    const prefetch_ops *pf;
    void *pf_state;
    cache_prefetch_counters pfc;
    bool pf_late;                /* the access being made merged into a prefetch in flight */
    uint64_t pf_last_line;       /* line, warp and SM of the last access the prefetcher saw */
    uint16_t pf_last_warp, pf_last_sm;
    cache_owns_fn pf_owns;       /* NULL: every address is this cache's */
    void *pf_owns_ctx;
    cache_forward_fn pf_forward; /* NULL: another slice's candidates are counted as foreign */
    void *pf_forward_ctx;
    cache_addr_fn pf_to, pf_from; /* NULL: the prefetcher sees device addresses */
    void *pf_space_ctx;
};

/* ---- small helpers ---- */

/* An address as the prefetcher sees it, and back. */
static uint64_t to_pf(const cache *c, uint64_t addr) { return c->pf_to ? c->pf_to(c->pf_space_ctx, addr) : addr; }
static uint64_t from_pf(const cache *c, uint64_t addr) { return c->pf_from ? c->pf_from(c->pf_space_ctx, addr) : addr; }


static uint32_t log2_u32(uint32_t v) {
    uint32_t b = 0;
    while ((1u << b) < v) b++;
    return b;
}

static uint64_t line_addr_of(const cache *c, uint64_t addr) { return addr >> c->line_shift; }

static uint32_t set_of_index_la(const cache *c, uint64_t la) {
    if (c->g.index == CACHE_INDEX_XOR && c->set_bits > 0) {
        /* Fold the two tag chunks above the index into it, so power-of-two strides
         * spread over the sets (the idea of GPGPU-Sim's 'H'; not its exact bits). */
        uint64_t b = c->set_bits;
        return (uint32_t)((la ^ (la >> b) ^ (la >> (2 * b))) & (c->g.nsets - 1));
    }
    if (c->set_hash) return ipoly_hash(c->set_hash, la >> c->set_bits, (uint32_t)(la & (c->g.nsets - 1)));
    /* a power-of-two set count (most caches): a mask instead of a division */
    return (uint32_t)(c->set_pow2 ? la & (c->g.nsets - 1) : la % c->g.nsets);
}

static uint32_t set_index_uncached(const cache *c, uint64_t la) {
    if (c->index_addr) la = c->index_addr(c->index_ctx, la << c->line_shift) >> c->line_shift;
    return set_of_index_la(c, la);
}

static uint32_t set_index(cache *c, uint64_t la) {
    if (!c->index_addr) return set_of_index_la(c, la);
    if (la != c->idx_last_la) {
        c->idx_last_set = set_index_uncached(c, la);
        c->idx_last_la = la;
    }
    return c->idx_last_set;
}

static cache_line *line_ptr(cache *c, uint32_t set, uint32_t way) {
    return &c->lines[(size_t)set * c->g.assoc + way];
}

/* No line address is this large (line sizes are at least 32 bytes). */
#define TAG_NONE UINT64_MAX

static uint64_t *tag_ptr(const cache *c, uint32_t set, uint32_t way) {
    return &c->tags[(size_t)set * c->g.assoc + way];
}

/* A line is allocated in at most one way (every install follows a find_way
 * that found none), so the way that last held la is checked first: the
 * sectors of one line come one after another. */
static int find_way(cache *c, uint32_t set, uint64_t la) {
    const uint64_t *t = tag_ptr(c, set, 0);
    if (la == c->fw_last_la && t[c->fw_last_way] == la) return (int)c->fw_last_way;
    for (uint32_t w = 0; w < c->g.assoc; w++) {
        if (t[w] == la) {
            c->fw_last_la = la;
            c->fw_last_way = w;
            return (int)w;
        }
    }
    return -1;
}

static uint32_t mshr_hash(const cache *c, uint64_t la) {
    return (uint32_t)((la * 0x9E3779B97F4A7C15ull) >> c->mshr_hash_shift);   /* Fibonacci hashing */
}

static int mshr_find(const cache *c, uint64_t la) {
    for (int32_t i = c->mshr_bucket[mshr_hash(c, la)]; i >= 0; i = c->mshr_next[i])
        if (c->mshr_la[i] == la) return (int)i;
    return -1;
}

/* The entry of line la for a fill: the entry the fetch carries (mem_req.mshr)
 * when it is still la's, else a search.  A line has at most one used entry,
 * so the answer is mshr_find's. */
static inline int mshr_find_fill(const cache *c, uint64_t la, const mem_req *reply) {
    if (reply->mshr[0] < c->g.mshr_entries && c->mshr_la[reply->mshr[0]] == la) return (int)reply->mshr[0];
    return mshr_find(c, la);
}

/* The lowest unused entry (found by its bit, without reading the entries). */
static int mshr_alloc(cache *c, uint64_t la) {
    for (uint32_t w = 0; (w << 6) < c->g.mshr_entries; w++) {
        if (!c->mshr_free[w]) continue;
        uint32_t i = (w << 6) + (uint32_t)__builtin_ctzll(c->mshr_free[w]);
        c->mshr_free[w] &= c->mshr_free[w] - 1;
        mshr_entry *e = &c->mshr[i];
        memset(e, 0, sizeof *e);
        e->used = 1;
        c->mshr_la[i] = la;
        c->mshr_used++;
        uint32_t h = mshr_hash(c, la);
        c->mshr_next[i] = c->mshr_bucket[h];
        c->mshr_bucket[h] = (int32_t)i;
        return (int)i;
    }
    return -1;
}

static void mshr_release(cache *c, int e) {
    int32_t *link = &c->mshr_bucket[mshr_hash(c, c->mshr_la[e])];
    while (*link != e) link = &c->mshr_next[*link];
    *link = c->mshr_next[e];
    c->mshr[e].used = 0;
    c->mshr_la[e] = TAG_NONE;
    c->mshr_free[e >> 6] |= 1ull << (e & 63);
    c->mshr_used--;
}

static size_t waiters_of(const cache *c, int e) { return (size_t)e * c->max_waiters; }

/* i + 1 (or i + len, < 2 * cap) wrapped into a ring of cap entries, without a division. */
static uint32_t ring_wrap(uint32_t i, uint32_t cap) { return i >= cap ? i - cap : i; }

static bool mq_has_room(const cache *c, uint32_t n) { return c->mq_len + n <= c->g.miss_queue_size; }

static void mq_push(cache *c, const mem_req *r) {
    if (c->mq_len == c->mq_cap) {
        /* Unreachable by the sizing argument at the top of this file. */
        fprintf(stderr, "locsim: internal error: %s miss queue overflow\n", c->name);
        abort();
    }
    c->mq[ring_wrap(c->mq_head + c->mq_len, c->mq_cap)] = *r;
    c->mq_len++;
}

static mem_req line_request(const cache *c, const mem_req *cause, uint64_t la, uint8_t sectors, uint8_t type) {
    mem_req q = *cause;
    q.addr = la << c->line_shift;
    q.sector_mask = sectors;
    q.size = (uint16_t)(mem_sector_count(sectors) * MEM_SECTOR_SIZE);
    q.type = type;
    q.flags = cause->flags & MEM_REQ_PREFETCH;   /* a prefetch's fetches stay prefetches below */
    return q;
}

/* ---- victims and evictions ---- */

/* An invalid way first (lowest index), else the policy's choice among unreserved
 * lines.  -1 when nothing may be evicted. */
static int choose_victim(cache *c, uint32_t set, const mem_req *r, uint64_t now) {
    uint64_t candidates = 0;
    for (uint32_t w = 0; w < c->active_ways; w++) {
        const cache_line *l = line_ptr(c, set, w);
        if (!l->allocated) return (int)w;
        if (!l->pending) candidates |= 1ull << w;
    }
    if (!candidates) return -1;
    int v = c->pol->find_victim(c->pol_state, set, candidates, r, now);
    if (v < 0 || v >= (int)c->active_ways || !(candidates & (1ull << v))) return -1;
    return v;
}

/* The policy's allocation decision for r into `way` (CACHE_ALLOC_INSERT without
 * the hook).  Callers count a bypass (ctr.bypassed) only once the access goes
 * ahead: one refused for another resource is retried and asks again. */
static cache_alloc_decision decide(cache *c, uint32_t set, int way, const mem_req *r, uint64_t now) {
    if (!c->pol->allocate) return CACHE_ALLOC_INSERT;
    return c->pol->allocate(c->pol_state, set, (uint32_t)way, line_ptr(c, set, (uint32_t)way), r, now);
}

static bool victim_needs_writeback(cache *c, uint32_t set, int way) {
    const cache_line *l = line_ptr(c, set, (uint32_t)way);
    return l->allocated && l->dirty;
}

/* A line leaves the cache: an untouched prefetched one was useless. */
static void pf_line_gone(cache *c, const cache_line *l) {
    if (l->prefetched) c->pfc.useless++;
    if (c->pf->on_evict) c->pf->on_evict(c->pf_state, to_pf(c, l->line_addr << c->line_shift), l->warp, l->prefetched != 0);
}

/* Replace way's content: write back dirty sectors, tell the policy and the hook. */
static void evict(cache *c, uint32_t set, uint32_t way, const mem_req *cause) {
    cache_line *l = line_ptr(c, set, way);
    if (!l->allocated) return;
    if (c->pf) pf_line_gone(c, l);
    if (c->hook) c->hook(c->hook_ctx, l, cause);
    if (c->pol->on_evict) c->pol->on_evict(c->pol_state, set, way, l);
    c->ctr.evictions++;
    if (l->dirty) {
        mem_req wb = line_request(c, cause, l->line_addr, l->dirty, c->writeback_type);
        mq_push(c, &wb);
        c->ctr.writebacks++;
    }
    memset(l, 0, sizeof *l);
    *tag_ptr(c, set, way) = TAG_NONE;
}

static cache_line *install(cache *c, uint32_t set, uint32_t way, uint64_t la, const mem_req *r, uint64_t now) {
    cache_line *l = line_ptr(c, set, way);
    memset(l, 0, sizeof *l);
    l->allocated = 1;
    l->line_addr = la;
    *tag_ptr(c, set, way) = la;
    l->sm = r->sm;
    l->warp = r->warp;
    l->pc = r->pc;
    if (c->way_owner) c->way_owner[(size_t)set * c->g.assoc + way] = (cache_way_owner){la, r->warp, 1};
    if (c->pol->on_insert) c->pol->on_insert(c->pol_state, set, way, r, now);
    return l;
}

static void touch(cache *c, uint32_t set, int way, const mem_req *r, uint64_t now) {
    if (c->pol->on_hit) c->pol->on_hit(c->pol_state, set, (uint32_t)way, r, now);
}

/* The counters of one access of type `type` with outcome o (why: a refusal's reason). */
static void count_type(cache *c, uint8_t type, cache_outcome o, cache_fail_reason why) {
    c->ctr.access[type < MEM_ACCESS_TYPE_COUNT ? type : MEM_GLOBAL_ACC_R][o]++;
    if (o == CACHE_RESERVATION_FAIL) c->ctr.fail[why]++;
}

static cache_outcome count(cache *c, const mem_req *r, cache_outcome o, cache_fail_reason why,
                           cache_fail_reason *why_out) {
    count_type(c, r->type, o, why);
    if (why_out) *why_out = why;
    return o;
}

bool cache_fail_repeats(const cache *c) { return c->pol->pure_choice != 0; }

void cache_count_fail(cache *c, uint8_t type, cache_fail_reason why) { count_type(c, type, CACHE_RESERVATION_FAIL, why); }

/* ---- misses that fetch ---- */

/* Can entry e (or a new entry when e < 0) take one more request needing `need`? */
static bool merge_full(const cache *c, int e, uint8_t need) {
    if (e < 0) return false;
    const mshr_entry *m = &c->mshr[e];
    if (!c->g.sectored) return m->nwaiters >= c->g.mshr_max_merge;
    for (uint8_t s = need; s; s &= (uint8_t)(s - 1))
        if (m->merged[__builtin_ctz(s)] >= c->g.mshr_max_merge) return true;
    return false;
}

static void add_waiter(cache *c, int e, const mem_req *r, uint8_t need, bool merged) {
    mshr_entry *m = &c->mshr[e];
    if (m->prefetch && !(r->flags & MEM_REQ_PREFETCH)) {   /* a demand caught up with a prefetch */
        m->prefetch = 0;
        c->pfc.late++;
        c->pf_late = true;
    }
    size_t i = waiters_of(c, e) + m->nwaiters++;
    c->wreq[i] = *r;
    c->wneed[i] = need;
    c->wmerged[i] = merged;
    if (c->g.sectored)
        for (uint8_t s = need; s; s &= (uint8_t)(s - 1)) m->merged[__builtin_ctz(s)]++;
}

/* Sectors an entry covers: asked for and not arrived; for a normal cache also
 * those arrived while the rest of the line is still on its way (the line is
 * usable only once whole). */
static uint8_t in_flight_of(const cache *c, int e) {
    if (e < 0) return 0;
    const mshr_entry *m = &c->mshr[e];
    return c->g.sectored ? m->requested : (uint8_t)(m->requested | m->arrived);
}

/* The request needs sectors `need` of line la, of which `to_fetch` must be asked
 * from below (the rest are already in flight); e is the line's MSHR entry
 * (mshr_find, -1: none).  Checks every resource first. */
static cache_outcome miss_fetch(cache *c, const mem_req *r, uint64_t la, uint32_t set, int way, int e,
                                uint8_t need, uint8_t to_fetch, uint64_t now, cache_fail_reason *why) {
    if (merge_full(c, e, need)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MSHR_MERGE, why);
    bool no_entry = c->g.sectored ? c->mshr_sectors_used + mem_sector_count(to_fetch) > c->g.mshr_entries
                                  : e < 0 && c->mshr_used >= c->g.mshr_entries;
    if (no_entry) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MSHR_ENTRY, why);
    int victim = -1;
    bool bypass = false;
    if (way < 0 && c->g.alloc == CACHE_ALLOC_ON_MISS) {
        victim = choose_victim(c, set, r, now);
        if (victim < 0) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_LINE_ALLOC, why);
        if (decide(c, set, victim, r, now) == CACHE_ALLOC_BYPASS) victim = -1, bypass = true;
    }
    uint32_t slots = 1 + (victim >= 0 && victim_needs_writeback(c, set, victim));
    if (!mq_has_room(c, slots)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);

    cache_line *l = NULL;
    if (victim >= 0) {
        evict(c, set, (uint32_t)victim, r);
        l = install(c, set, (uint32_t)victim, la, r, now);
    } else if (way >= 0) {
        l = line_ptr(c, set, (uint32_t)way);
        touch(c, set, way, r, now);
        c->ctr.sector_misses++;
    }
    if (l) l->pending |= to_fetch;
    if (e < 0) e = mshr_alloc(c, la);
    c->mshr[e].requested |= to_fetch;
    /* A sector that arrived for this entry but is not in the line (an
     * allocate-on-fill line that could not be placed) is fetched again: it has
     * not arrived for this waiter, who must wait for the new fill (else the
     * next fill of any sector would wake it, and wake more requests than
     * cache_fill_max_woken promises the level above room for). */
    if (c->g.sectored) c->mshr[e].arrived &= (uint8_t)~to_fetch;
    c->mshr[e].bypass = bypass;
    c->ctr.bypassed += bypass;
    if (c->g.sectored) c->mshr_sectors_used += mem_sector_count(to_fetch);
    add_waiter(c, e, r, need, false);
    mem_req fetch = line_request(c, r, la, to_fetch,
                                 mem_access_is_write(r->type) ? MEM_GLOBAL_ACC_R : r->type);
    fetch.mshr[0] = (uint8_t)e;
    mq_push(c, &fetch);
    return count(c, r, CACHE_MISS, CACHE_FAIL_NONE, why);
}

static cache_outcome pending_hit(cache *c, const mem_req *r, uint32_t set, int way, int e,
                                 uint8_t need, uint64_t now, cache_fail_reason *why) {
    if (e < 0 || merge_full(c, e, need)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MSHR_MERGE, why);
    add_waiter(c, e, r, need, true);
    if (way >= 0) touch(c, set, way, r, now);
    return count(c, r, CACHE_HIT_RESERVED, CACHE_FAIL_NONE, why);
}

static cache_outcome access_read(cache *c, const mem_req *r, uint8_t want, uint64_t la, uint32_t set,
                                 uint64_t now, cache_fail_reason *why) {
    int way = find_way(c, set, la);
    uint8_t have = way >= 0 ? line_ptr(c, set, (uint32_t)way)->valid : 0;
    uint8_t missing = want & (uint8_t)~have;
    if (!missing) {
        touch(c, set, way, r, now);
        return count(c, r, CACHE_HIT, CACHE_FAIL_NONE, why);
    }
    int e = mshr_find(c, la);
    uint8_t in_flight = in_flight_of(c, e);
    uint8_t to_fetch = missing & (uint8_t)~in_flight;
    if (!to_fetch) return pending_hit(c, r, set, way, e, missing, now, why);
    if (!c->g.sectored) to_fetch = c->full_mask & (uint8_t)~have & (uint8_t)~in_flight;
    return miss_fetch(c, r, la, set, way, e, missing, to_fetch, now, why);
}

/* ---- writes ---- */

static cache_outcome forward_write(cache *c, const mem_req *r, cache_outcome o, cache_fail_reason *why) {
    mem_req w = *r;
    w.flags = 0;
    mq_push(c, &w);
    c->ctr.forwarded_writes++;
    return count(c, r, o, CACHE_FAIL_NONE, why);
}

/* Allocate a line for a write miss and write the sectors into it (no fetch). */
static cache_outcome write_allocate(cache *c, const mem_req *r, uint64_t la, uint32_t set, uint8_t want,
                                    bool dirty, bool forward, uint64_t now, cache_fail_reason *why) {
    int victim = choose_victim(c, set, r, now);
    if (victim < 0) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_LINE_ALLOC, why);
    if (decide(c, set, victim, r, now) == CACHE_ALLOC_BYPASS) {   /* as no-write-allocate */
        if (!mq_has_room(c, 1)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
        c->ctr.bypassed++;
        return forward_write(c, r, CACHE_MISS, why);
    }
    uint32_t slots = (uint32_t)forward + victim_needs_writeback(c, set, victim);
    if (!mq_has_room(c, slots)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
    evict(c, set, (uint32_t)victim, r);
    cache_line *l = install(c, set, (uint32_t)victim, la, r, now);
    l->valid = want;
    if (dirty) l->dirty = want;
    if (forward) return forward_write(c, r, CACHE_MISS, why);
    return count(c, r, CACHE_MISS, CACHE_FAIL_NONE, why);
}

static cache_outcome write_back_access(cache *c, const mem_req *r, uint64_t la, uint32_t set, int way,
                                       uint8_t want, uint64_t now, cache_fail_reason *why) {
    if (way >= 0) {
        cache_line *l = line_ptr(c, set, (uint32_t)way);
        l->valid |= want;
        l->dirty |= want;
        touch(c, set, way, r, now);
        return count(c, r, CACHE_HIT, CACHE_FAIL_NONE, why);
    }
    switch (c->g.write_alloc) {
    case CACHE_WRITE_ALLOCATE:
        return write_allocate(c, r, la, set, want, true, false, now, why);
    case CACHE_FETCH_ON_WRITE: {
        int e = mshr_find(c, la);
        uint8_t in_flight = in_flight_of(c, e);
        uint8_t need = c->full_mask;
        uint8_t to_fetch = need & (uint8_t)~in_flight;
        if (!to_fetch) return pending_hit(c, r, set, way, e, need, now, why);
        return miss_fetch(c, r, la, set, way, e, need, to_fetch, now, why);
    }
    default:
        if (!mq_has_room(c, 1)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
        return forward_write(c, r, CACHE_MISS, why);
    }
}

static cache_outcome write_through_access(cache *c, const mem_req *r, uint64_t la, uint32_t set, int way,
                                          uint8_t want, uint64_t now, cache_fail_reason *why) {
    if (way >= 0) {
        if (!mq_has_room(c, 1)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
        line_ptr(c, set, (uint32_t)way)->valid |= want;
        touch(c, set, way, r, now);
        return forward_write(c, r, CACHE_HIT, why);
    }
    if (c->g.write_alloc == CACHE_WRITE_ALLOCATE) return write_allocate(c, r, la, set, want, false, true, now, why);
    if (!mq_has_room(c, 1)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
    return forward_write(c, r, CACHE_MISS, why);
}

static cache_outcome write_evict_access(cache *c, const mem_req *r, uint32_t set, int way, uint8_t want,
                                        cache_fail_reason *why) {
    if (way < 0) {
        if (!mq_has_room(c, 1)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
        return forward_write(c, r, CACHE_MISS, why);
    }
    cache_line *l = line_ptr(c, set, (uint32_t)way);
    bool drop_line = l->pending == 0;
    uint32_t slots = 1 + (drop_line && l->dirty);
    if (!mq_has_room(c, slots)) return count(c, r, CACHE_RESERVATION_FAIL, CACHE_FAIL_MISS_QUEUE, why);
    if (drop_line) {
        /* Invalidation by a write is not a replacement: the policy hears of it, the
         * eviction hook (victim tags) does not. */
        if (l->dirty) {
            mem_req wb = line_request(c, r, l->line_addr, l->dirty, c->writeback_type);
            mq_push(c, &wb);
            c->ctr.writebacks++;
        }
        if (c->pf) pf_line_gone(c, l);
        if (c->pol->on_evict) c->pol->on_evict(c->pol_state, set, (uint32_t)way, l);
        memset(l, 0, sizeof *l);
        *tag_ptr(c, set, (uint32_t)way) = TAG_NONE;
    } else {
        l->valid &= (uint8_t)~want;   /* a fetch is in flight: keep the reservation */
    }
    return forward_write(c, r, CACHE_HIT, why);
}

static cache_outcome access_write(cache *c, const mem_req *r, uint8_t want, uint64_t la, uint32_t set,
                                  uint64_t now, cache_fail_reason *why) {
    int way = find_way(c, set, la);
    uint8_t policy = mem_access_is_local(r->type) ? c->g.write_local : c->g.write_global;
    switch (policy) {
    case CACHE_WRITE_BACK: return write_back_access(c, r, la, set, way, want, now, why);
    case CACHE_WRITE_THROUGH: return write_through_access(c, r, la, set, way, want, now, why);
    default: return write_evict_access(c, r, set, way, want, why);
    }
}

/* ---- prefetching ---- */

/* Fetch line la for the prefetcher, on behalf of demand access `cause`.  Only
 * a line neither present nor in flight is fetched, and only with resources to
 * spare: a prefetch never takes the last free MSHR entry or miss-queue slot,
 * so it cannot be what refuses the next demand miss. */
static void prefetch_line(cache *c, const mem_req *cause, uint64_t la, uint64_t now) {
    uint32_t set = set_index(c, la);
    /* Present or in flight first: that test is cheap, and a line another slice
     * holds is never here, so the order changes no count. */
    int way = find_way(c, set, la), e = mshr_find(c, la);
    if (way >= 0 || e >= 0) {
        /* Which kind: a target a demand fetched earlier, or one another trigger
         * already prefetched (the redundant breakdown, docs/wsmp.md).  A line
         * being fetched may hold a way already (allocate on miss); its MSHR
         * entry says who asked for it. */
        const cache_line *l = way >= 0 ? line_ptr(c, set, (uint32_t)way) : NULL;
        bool in_flight = e >= 0 && (!l || l->pending);
        c->pfc.redundant++;
        c->pfc.redundant_present += !in_flight;
        c->pfc.redundant_prefetched += in_flight ? c->mshr[e].prefetch != 0 : l->prefetched != 0;
        return;
    }
    if (c->pf_owns && !c->pf_owns(c->pf_owns_ctx, la << c->line_shift)) {
        if (!c->pf_forward) c->pfc.foreign++;
        else if (c->pf_forward(c->pf_forward_ctx, la << c->line_shift, cause, now)) c->pfc.forwarded++;
        else c->pfc.dropped++;
        return;
    }
    uint8_t to_fetch = c->full_mask;
    bool mshr_ok = c->g.sectored ? c->mshr_sectors_used + 2 * mem_sector_count(to_fetch) <= c->g.mshr_entries
                                 : c->mshr_used + 2 <= c->g.mshr_entries;
    mem_req q = line_request(c, cause, la, to_fetch, mem_access_is_write(cause->type) ? MEM_GLOBAL_ACC_R : cause->type);
    q.flags = MEM_REQ_PREFETCH;
    int victim = -1;
    if (mshr_ok && c->g.alloc == CACHE_ALLOC_ON_MISS) {
        victim = choose_victim(c, set, &q, now);
        if (victim < 0 || decide(c, set, victim, &q, now) == CACHE_ALLOC_BYPASS) mshr_ok = false;
    }
    uint32_t slots = 1 + (victim >= 0 && victim_needs_writeback(c, set, victim));
    if (!mshr_ok || !mq_has_room(c, slots + 1)) {
        c->pfc.dropped++;
        return;
    }
    if (victim >= 0) {
        evict(c, set, (uint32_t)victim, &q);
        install(c, set, (uint32_t)victim, la, &q, now)->pending = to_fetch;
    }
    e = mshr_alloc(c, la);
    c->mshr[e].requested = to_fetch;
    c->mshr[e].prefetch = 1;
    q.mshr[0] = (uint8_t)e;
    if (c->g.sectored) c->mshr_sectors_used += mem_sector_count(to_fetch);
    mq_push(c, &q);
    c->pfc.issued++;
}

/* cache_access with a prefetcher attached: the demand bookkeeping (useful,
 * late), the prefetcher's hook, then its candidates. */
static cache_outcome access_with_prefetcher(cache *c, const mem_req *r, uint8_t want, uint64_t la, uint32_t set,
                                            uint64_t now, cache_fail_reason *why) {
    bool demand = !(r->flags & MEM_REQ_PREFETCH);
    int way = find_way(c, set, la);
    cache_line *l = way >= 0 ? line_ptr(c, set, (uint32_t)way) : NULL;
    bool was_prefetched = demand && l && l->prefetched;
    uint16_t pf_warp = l ? l->warp : 0, pf_sm = l ? l->sm : 0;
    if (was_prefetched) l->prefetched = 0;   /* before the access: a write may drop the line */
    c->pf_late = false;
    bool is_write = mem_access_is_write(r->type);
    cache_outcome o = is_write ? access_write(c, r, want, la, set, now, why) : access_read(c, r, want, la, set, now, why);
    if (o == CACHE_RESERVATION_FAIL) {
        if (was_prefetched) l->prefetched = 1;   /* nothing happened: retried later */
        return o;
    }
    /* The line's way after the access, looked up only when someone needs it. */
    if (c->pol->on_access || c->pf_late) way = find_way(c, set, la);
    if (c->pol->on_access) c->pol->on_access(c->pol_state, set, way, r, o, now);
    if (!demand) return o;
    if (was_prefetched) c->pfc.useful++;
    if (o == CACHE_MISS && !is_write) c->pfc.demand_read_misses++;
    if (is_write || mem_access_is_writeback(r->type)) return o;   /* prefetchers train on reads */
    /* A sectored L2 sees a line's sectors as consecutive accesses by one warp
     * (partition_push splits each request): for a prefetcher that learns per
     * line access, the repeats teach nothing (see prefetch_ops.once_per_line). */
    if (c->pf->once_per_line && !was_prefetched && !c->pf_late && la == c->pf_last_line &&
        r->warp == c->pf_last_warp && r->sm == c->pf_last_sm) {
        c->pfc.line_repeats++;
        return o;
    }
    c->pf_last_line = la;
    c->pf_last_warp = r->warp;
    c->pf_last_sm = r->sm;
    prefetch_access a = {.addr = to_pf(c, r->addr), .pc = r->pc, .warp = r->warp, .sm = r->sm, .type = r->type,
                         .hit = o == CACHE_HIT, .pending = o == CACHE_HIT_RESERVED,
                         .late = c->pf_late};
    if (was_prefetched) {
        a.useful = 1;
        a.pf_warp = pf_warp;
        a.pf_sm = pf_sm;
    }
    if (c->pf_late) {
        const cache_line *pl = way >= 0 ? line_ptr(c, set, (uint32_t)way) : NULL;
        a.pf_warp = pl ? pl->warp : r->warp;
        a.pf_sm = pl ? pl->sm : r->sm;
    }
    uint64_t cand[PREFETCH_MAX_CANDIDATES];
    uint32_t n = c->pf->on_access(c->pf_state, &a, now, cand, PREFETCH_MAX_CANDIDATES);
    c->pfc.candidates += n;
    for (uint32_t i = 0; i < n && i < PREFETCH_MAX_CANDIDATES; i++) prefetch_line(c, r, line_addr_of(c, from_pf(c, cand[i])), now);
    return o;
}

/* ---- public API ---- */

/* cache_access once the line, its set and the sectors wanted are known.  Forced
 * inline: called from two places, gcc otherwise keeps it out of line, which cost
 * every L1D and L2 access a call (+0.9% of a memory-bound run's instructions,
 * callgrind, bfs --size 4). */
static inline __attribute__((always_inline)) cache_outcome access_line(cache *c, const mem_req *r, uint8_t want, uint64_t la, uint32_t set, uint64_t now,
                                 cache_fail_reason *why) {
    if (c->pf) return access_with_prefetcher(c, r, want, la, set, now, why);
    cache_outcome o = mem_access_is_write(r->type) ? access_write(c, r, want, la, set, now, why)
                                                   : access_read(c, r, want, la, set, now, why);
    if (c->pol->on_access && o != CACHE_RESERVATION_FAIL)
        c->pol->on_access(c->pol_state, set, find_way(c, set, la), r, o, now);
    return o;
}

/* access_line, then the victim report GPGPU-Sim 3.x's probe gives (the CCWS
 * authors' victim tags are filled from it, gpu-cache.cc
 * high_locality_protected_cache::access): a miss on a line the cache did not
 * hold names the way it took (a read that allocated) or would take (a write that
 * allocates nothing: the victim a read would choose now), and reports what that
 * way last held, an invalidated line included, with the warp that last missed or
 * merged on it.  The way then belongs to this access's warp; a merge into a line
 * in flight (a pending hit) takes the way over without a report.  The set's
 * records are copied first because allocation overwrites them (install). */
static cache_outcome access_reporting_victim(cache *c, const mem_req *r, uint8_t want, uint64_t la, uint32_t set,
                                             uint64_t now, cache_fail_reason *why) {
    cache_way_owner *own = &c->way_owner[(size_t)set * c->g.assoc];
    cache_way_owner before[CACHE_MAX_ASSOC];
    bool present = find_way(c, set, la) >= 0;
    int victim = -1;
    if (!present) {
        memcpy(before, own, c->g.assoc * sizeof *own);
        if (c->pol->pure_choice) victim = choose_victim(c, set, r, now);
    }
    cache_outcome o = access_line(c, r, want, la, set, now, why);
    int way = find_way(c, set, la);
    if (o == CACHE_MISS && !present) {
        if (way < 0) way = victim;
        if (way < 0) return o;   /* a policy whose choice cannot be asked twice: nothing named */
        if (before[way].known) c->victim_hook(c->victim_ctx, before[way].line_addr, before[way].warp, r);
        own[way].warp = r->warp;
        own[way].known = 1;
    } else if (o == CACHE_HIT_RESERVED && way >= 0) {
        own[way].warp = r->warp;
    }
    return o;
}

cache_outcome cache_access(cache *c, const mem_req *r, uint64_t now, cache_fail_reason *why) {
    uint64_t la = line_addr_of(c, r->addr);
    uint32_t set = set_index(c, la);
    /* The sectors of this cache's line the request touches (see mem_line_mask).
     * None: the request names sectors past this cache's line (a requester with
     * longer lines, which config_finalize refuses); then the sector the address
     * names is taken, never a line the cache does not have. */
    uint8_t want = mem_line_mask(r, c->g.line_size);
    if (!want) want = mem_sector_mask(r->addr, 1, c->g.line_size);
    if (c->victim_hook) return access_reporting_victim(c, r, want, la, set, now, why);
    return access_line(c, r, want, la, set, now, why);
}

bool cache_read_hit(cache *c, const mem_req *r, uint64_t now) {
    if (c->pf || c->pol->on_access || c->index_addr || mem_access_is_write(r->type)) return false;
    uint64_t la = line_addr_of(c, r->addr);
    uint32_t set = set_of_index_la(c, la);
    uint8_t want = mem_line_mask(r, c->g.line_size);
    int way = want ? find_way(c, set, la) : -1;   /* no want: cache_access's fallback */
    if (way < 0 || (want & (uint8_t)~line_ptr(c, set, (uint32_t)way)->valid)) return false;
    touch(c, set, way, r, now);
    count(c, r, CACHE_HIT, CACHE_FAIL_NONE, NULL);
    return true;
}

int cache_locality_signal(const cache *c) {
    if (!c || !c->pol->locality) return -1;
    return c->pol->locality(c->pol_state);
}

void cache_kernel_begin(cache *c, const struct ldesc_set *hints) {
    if (!c) return;
    if (c->pol->kernel_begin) c->pol->kernel_begin(c->pol_state, hints);
    if (c->pf && c->pf->kernel_begin) c->pf->kernel_begin(c->pf_state, hints);
}

const cache_policy_ops *cache_policy(const cache *c) { return c->pol; }
const void *cache_policy_state(const cache *c) { return c->pol_state; }

/* Place an arriving line in an allocate-on-fill cache (or re-place a line that was
 * evicted meanwhile).  If no victim can be found, or the policy bypasses, the
 * data is simply not kept. */
static cache_line *place_on_fill(cache *c, uint32_t set, uint64_t la, const mem_req *owner, uint64_t now) {
    int victim = choose_victim(c, set, owner, now);
    if (victim < 0) return NULL;
    if (decide(c, set, victim, owner, now) == CACHE_ALLOC_BYPASS) {
        c->ctr.bypassed++;
        return NULL;
    }
    evict(c, set, (uint32_t)victim, owner);
    return install(c, set, (uint32_t)victim, la, owner, now);
}

int cache_fill(cache *c, const mem_req *reply, uint64_t now, mem_req *woken, uint32_t cap) {
    uint64_t la = line_addr_of(c, reply->addr);
    uint32_t set = set_index(c, la);
    int e = mshr_find_fill(c, la, reply);
    if (e < 0) return -1;
    mshr_entry *m = &c->mshr[e];
    mem_req *wreq = &c->wreq[waiters_of(c, e)];
    uint8_t *wneed = &c->wneed[waiters_of(c, e)];
    uint8_t *wmerged = &c->wmerged[waiters_of(c, e)];
    uint8_t got = mem_line_mask(reply, c->g.line_size) & m->requested;
    m->requested &= (uint8_t)~got;
    m->arrived |= got;
    c->ctr.fills++;
    if (c->g.sectored) {
        c->mshr_sectors_used -= mem_sector_count(got);
    } else if (m->requested) {
        /* A normal line fetched in several sector replies (a sectored L2 answers
         * per sector) becomes valid, and wakes its waiters, when the last one is
         * in: GPGPU-Sim's sector MSHR in front of a line cache does the same. */
        return 0;
    }
    uint8_t fresh = c->g.sectored ? got : m->arrived;

    int way = find_way(c, set, la);
    cache_line *l = way >= 0 ? line_ptr(c, set, (uint32_t)way) : NULL;
    if (!l && fresh && !m->bypass) {
        mem_req owner = m->nwaiters ? wreq[0] : *reply;
        owner.hint = reply->hint;   /* what the level below said, for the policy */
        l = place_on_fill(c, set, la, &owner, now);
        way = l ? (int)(l - line_ptr(c, set, 0)) : -1;
    }
    if (l) {
        l->valid |= fresh;
        l->pending &= (uint8_t)~fresh;
    }
    if (c->pf && !m->requested) {
        if (l && m->prefetch) l->prefetched = 1;
        if (c->pf->on_fill)
            c->pf->on_fill(c->pf_state, to_pf(c, la << c->line_shift), l ? l->sm : reply->sm, l ? l->warp : reply->warp,
                           m->prefetch != 0, now);
    }
    bool hinted = l && c->pol->reply_hint;

    uint32_t n = 0, kept = 0;
    for (uint32_t i = 0; i < m->nwaiters; i++) {
        if ((wneed[i] & (uint8_t)~m->arrived) || n >= cap) {
            if (kept != i) {   /* most often every waiter stays where it is */
                wreq[kept] = wreq[i];
                wneed[kept] = wneed[i];
                wmerged[kept] = wmerged[i];
            }
            kept++;
            continue;
        }
        if (c->g.sectored)
            for (uint8_t s = wneed[i]; s; s &= (uint8_t)(s - 1)) m->merged[__builtin_ctz(s)]--;
        if (l && mem_access_is_write(wreq[i].type)) {   /* fetch-on-write completes */
            l->valid |= mem_line_mask(&wreq[i], c->g.line_size);
            l->dirty |= mem_line_mask(&wreq[i], c->g.line_size);
        }
        if (wmerged[i] && (reply->hint & CACHE_HINT_SHARED)) c->ctr.mshr_hits_shared++;
        woken[n] = wreq[i];
        if (hinted) woken[n].hint = c->pol->reply_hint(c->pol_state, set, (uint32_t)way, &wreq[i]);
        n++;
    }
    m->nwaiters = kept;
    if (!m->requested && !m->nwaiters) mshr_release(c, e);
    return (int)n;
}

bool cache_fill_partial(cache *c, const mem_req *reply) {
    if (c->g.sectored) return false;
    int e = mshr_find_fill(c, line_addr_of(c, reply->addr), reply);
    if (e < 0) return false;
    mshr_entry *m = &c->mshr[e];
    uint8_t got = mem_line_mask(reply, c->g.line_size) & m->requested;
    if (!(m->requested & (uint8_t)~got)) return false;
    /* What cache_fill does before it returns early for a partial fill. */
    m->requested &= (uint8_t)~got;
    m->arrived |= got;
    c->ctr.fills++;
    return true;
}

const mem_req *cache_miss_queue_peek(const cache *c) {
    return c->mq_len ? &c->mq[c->mq_head] : NULL;
}

mem_req *cache_miss_queue_at(cache *c, uint32_t i) {
    return i < c->mq_len ? &c->mq[ring_wrap(c->mq_head + i, c->mq_cap)] : NULL;
}

void cache_miss_queue_pop(cache *c) {
    if (!c->mq_len) return;
    c->mq_head = ring_wrap(c->mq_head + 1, c->mq_cap);
    c->mq_len--;
}

uint32_t cache_miss_queue_length(const cache *c) { return c->mq_len; }
uint32_t cache_max_waiters(const cache *c) { return c->max_waiters; }

uint32_t cache_fill_max_woken(const cache *c, uint8_t sectors) {
    if (!c->g.sectored) return c->max_waiters;
    uint32_t n = c->g.mshr_max_merge * mem_sector_count(sectors & c->full_mask);
    return n < c->max_waiters ? n : c->max_waiters;
}

bool cache_request_waits(const cache *c, const mem_req *r, cache_outcome o) {
    if (o != CACHE_MISS && o != CACHE_HIT_RESERVED) return false;
    if (!mem_access_is_write(r->type)) return true;
    uint8_t policy = mem_access_is_local(r->type) ? c->g.write_local : c->g.write_global;
    return policy == CACHE_WRITE_BACK && c->g.write_alloc == CACHE_FETCH_ON_WRITE;
}
uint32_t cache_mshr_used(const cache *c) { return c->mshr_used; }

uint8_t cache_reply_hint(const cache *c, const mem_req *r) {
    if (!c->pol->reply_hint) return 0;
    uint64_t la = line_addr_of(c, r->addr);
    uint32_t set = set_index_uncached(c, la);
    const uint64_t *t = tag_ptr(c, set, 0);
    for (uint32_t w = 0; w < c->g.assoc; w++)
        if (t[w] == la) return c->pol->reply_hint(c->pol_state, set, w, r);
    return 0;
}
uint32_t cache_mshr_sectors_used(const cache *c) { return c->mshr_sectors_used; }

uint32_t cache_set_of(const cache *c, uint64_t addr) { return set_index_uncached(c, line_addr_of(c, addr)); }

const cache_line *cache_line_at(const cache *c, uint32_t set, uint32_t way) {
    if (set >= c->g.nsets || way >= c->g.assoc) return NULL;
    return &c->lines[(size_t)set * c->g.assoc + way];
}

const cache_line *cache_probe(const cache *c, uint64_t addr) {
    uint64_t la = line_addr_of(c, addr);
    uint32_t set = set_index_uncached(c, la);
    const uint64_t *t = tag_ptr(c, set, 0);
    for (uint32_t w = 0; w < c->g.assoc; w++)
        if (t[w] == la) return cache_line_at(c, set, w);
    return NULL;
}

void cache_set_writeback_type(cache *c, mem_access_type type) { c->writeback_type = (uint8_t)type; }

void cache_set_evict_hook(cache *c, cache_evict_hook fn, void *ctx) {
    c->hook = fn;
    c->hook_ctx = ctx;
}

int cache_set_victim_hook(cache *c, cache_victim_hook fn, void *ctx) {
    if (fn && !c->way_owner) {
        c->way_owner = calloc((size_t)c->g.nsets * c->g.assoc, sizeof *c->way_owner);
        if (!c->way_owner) return -1;
    }
    c->victim_hook = fn;
    c->victim_ctx = ctx;
    return 0;
}

uint32_t cache_invalidate_all(cache *c) {
    uint32_t dropped_dirty = 0;
    for (uint32_t s = 0; s < c->g.nsets; s++) {
        for (uint32_t w = 0; w < c->g.assoc; w++) {
            cache_line *l = line_ptr(c, s, w);
            if (!l->allocated || l->pending) continue;
            dropped_dirty += l->dirty != 0;
            if (c->pf) pf_line_gone(c, l);
            if (c->pol->on_evict) c->pol->on_evict(c->pol_state, s, w, l);
            memset(l, 0, sizeof *l);
            *tag_ptr(c, s, w) = TAG_NONE;
        }
    }
    return dropped_dirty;
}

int cache_set_active_ways(cache *c, uint32_t ways) {
    if (ways < 1 || ways > c->g.assoc) return -1;
    for (uint32_t s = 0; s < c->g.nsets; s++)
        for (uint32_t w = ways; w < c->g.assoc; w++)
            if (line_ptr(c, s, w)->allocated) return -1;
    c->active_ways = ways;
    return 0;
}

uint32_t cache_active_ways(const cache *c) { return c->active_ways; }

uint32_t cache_flush_dirty(cache *c) {
    uint32_t dropped = 0;
    for (uint32_t s = 0; s < c->g.nsets; s++) {
        for (uint32_t w = 0; w < c->g.assoc; w++) {
            cache_line *l = line_ptr(c, s, w);
            if (!l->allocated || l->pending || !l->dirty) continue;
            dropped++;
            if (c->pf) pf_line_gone(c, l);
            if (c->pol->on_evict) c->pol->on_evict(c->pol_state, s, w, l);
            memset(l, 0, sizeof *l);
            *tag_ptr(c, s, w) = TAG_NONE;
        }
    }
    return dropped;
}

int cache_force_fill(cache *c, uint64_t addr, uint8_t sectors) {
    uint64_t la = line_addr_of(c, addr);
    uint32_t set = set_index(c, la);
    /* A normal cache holds whole lines: any sector makes the whole line valid. */
    uint8_t mask = c->g.sectored ? (uint8_t)(sectors & c->full_mask) : c->full_mask;
    int way = find_way(c, set, la);
    if (way >= 0) {
        cache_line *l = line_ptr(c, set, (uint32_t)way);
        l->valid |= mask & (uint8_t)~l->pending;   /* no recency update, as GPGPU-Sim's tag fill */
        return 0;
    }
    mem_req owner;
    memset(&owner, 0, sizeof owner);
    owner.addr = la << c->line_shift;
    owner.sector_mask = mask;
    owner.type = MEM_GLOBAL_ACC_W;
    owner.sm = UINT16_MAX;
    owner.warp = UINT16_MAX;
    int victim = choose_victim(c, set, &owner, 0);
    if (victim < 0) return -1;
    cache_line *l = line_ptr(c, set, (uint32_t)victim);
    if (l->allocated) {
        /* Replaced without a write-back, as GPGPU-Sim's copy engine does. */
        if (c->pf) pf_line_gone(c, l);
        if (c->pol->on_evict) c->pol->on_evict(c->pol_state, set, (uint32_t)victim, l);
        c->ctr.evictions++;
    }
    l = install(c, set, (uint32_t)victim, la, &owner, 0);
    l->valid = mask;
    return 0;
}

void cache_set_prefetch_space(cache *c, cache_addr_fn to, cache_addr_fn from, void *ctx) {
    if (!c->pf || !c->pf->slice_space) return;   /* the others keep device addresses */
    c->pf_to = to;
    c->pf_from = from;
    c->pf_space_ctx = ctx;
}

void cache_set_prefetch_owner(cache *c, cache_owns_fn fn, void *ctx) {
    c->pf_owns = fn;
    c->pf_owns_ctx = ctx;
}

void cache_set_prefetch_forward(cache *c, cache_forward_fn fn, void *ctx) {
    c->pf_forward = fn;
    c->pf_forward_ctx = ctx;
}

bool cache_prefetch_forwards(const cache *c) { return c->pf_forward != NULL; }

void cache_prefetch(cache *c, const mem_req *cause, uint64_t addr, uint64_t now) {
    if (c->pf) prefetch_line(c, cause, line_addr_of(c, addr), now);
}

const prefetch_ops *cache_prefetcher(const cache *c) { return c->pf; }
const void *cache_prefetcher_state(const cache *c) { return c->pf_state; }
const cache_prefetch_counters *cache_prefetch_stats(const cache *c) { return &c->pfc; }

const cache_geometry *cache_geom(const cache *c) { return &c->g; }
const cache_counters *cache_stats(const cache *c) { return &c->ctr; }

uint64_t cache_total(const cache *c, cache_outcome o) {
    uint64_t sum = 0;
    for (int t = 0; t < MEM_ACCESS_TYPE_COUNT; t++) sum += c->ctr.access[t][o];
    return sum;
}

uint64_t cache_total_accesses(const cache *c) {
    return cache_total(c, CACHE_HIT) + cache_total(c, CACHE_HIT_RESERVED) + cache_total(c, CACHE_MISS);
}

const char *cache_outcome_name(cache_outcome o) {
    static const char *const names[CACHE_OUTCOME_COUNT] = {"HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL"};
    return o < CACHE_OUTCOME_COUNT ? names[o] : "?";
}

const char *cache_fail_name(cache_fail_reason f) {
    static const char *const names[CACHE_FAIL_COUNT] = {"NONE", "LINE_ALLOC_FAIL", "MSHR_ENTRY_FAIL",
                                                        "MSHR_MERGE_FAIL", "MISS_QUEUE_FULL"};
    return f < CACHE_FAIL_COUNT ? names[f] : "?";
}

cache *cache_create(const cache_geometry *g, const char *name, char *err, size_t errlen) {
    const cache_policy_ops *pol = cache_policy_find(g->policy);
    if (!pol) {
        if (err) snprintf(err, errlen, "%s: unknown replacement policy '%s'", name, g->policy);
        return NULL;
    }
    if (!g->nsets || !g->assoc || g->assoc > 64 || g->line_size < MEM_SECTOR_SIZE ||
        g->line_size > MEM_SECTOR_SIZE * MEM_MAX_SECTORS || (g->line_size & (g->line_size - 1)) ||
        !g->mshr_entries || !g->mshr_max_merge || !g->miss_queue_size) {
        if (err) snprintf(err, errlen, "%s: invalid cache geometry", name);
        return NULL;
    }
    cache *c = calloc(1, sizeof *c);
    if (!c) goto oom;
    c->g = *g;
    c->active_ways = g->assoc;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->pol = pol;
    c->writeback_type = MEM_L1_WRBK_ACC;
    c->line_shift = log2_u32(g->line_size);
    c->set_bits = log2_u32(g->nsets);
    c->set_pow2 = (g->nsets & (g->nsets - 1)) == 0;
    if (g->index == CACHE_INDEX_IPOLY) {
        c->set_hash = malloc(sizeof *c->set_hash);
        if (!c->set_hash) goto oom;
        if (ipoly_init(c->set_hash, g->nsets)) {
            if (err) snprintf(err, errlen, "%s: the IPOLY set index needs 16, 32 or 64 sets, not %u", name, g->nsets);
            cache_destroy(c);
            return NULL;
        }
    }
    c->full_mask = (uint8_t)((1u << (g->line_size / MEM_SECTOR_SIZE)) - 1);
    c->mq_cap = g->miss_queue_size + g->mshr_entries + 2;
    c->lines = calloc((size_t)g->nsets * g->assoc, sizeof *c->lines);
    c->tags = malloc((size_t)g->nsets * g->assoc * sizeof *c->tags);
    if (c->tags)
        for (size_t i = 0; i < (size_t)g->nsets * g->assoc; i++) c->tags[i] = TAG_NONE;
    c->mshr = calloc(g->mshr_entries, sizeof *c->mshr);
    /* Each waiter needs at least one sector, and each sector takes max_merge. */
    c->max_waiters = g->sectored ? g->mshr_max_merge * (g->line_size / MEM_SECTOR_SIZE) : g->mshr_max_merge;
    /* Not calloc: an entry's waiters [0, nwaiters) are written (add_waiter)
     * before anything reads them, and the arrays are sized for the worst case
     * (the texture cache's 128 entries x 128 fragments: 640 KB of requests per
     * SM), which few programs come near.  Clearing them cost a 64-SM GPU 46 MB
     * of memset and page faults at every device creation; left alone, pages no
     * waiter reaches are never touched. */
    size_t nw = (size_t)g->mshr_entries * c->max_waiters;
    c->wreq = malloc(nw * sizeof *c->wreq);
    c->wneed = malloc(nw * sizeof *c->wneed);
    c->wmerged = malloc(nw * sizeof *c->wmerged);
    c->mq = calloc(c->mq_cap, sizeof *c->mq);
    uint32_t hash_bits = log2_u32(2 * g->mshr_entries);   /* load factor <= 1/2 */
    c->mshr_hash_shift = 64 - hash_bits;
    c->mshr_bucket = malloc(((size_t)1 << hash_bits) * sizeof *c->mshr_bucket);
    c->mshr_next = malloc(g->mshr_entries * sizeof *c->mshr_next);
    c->mshr_free = calloc((g->mshr_entries + 63) / 64, sizeof *c->mshr_free);
    c->mshr_la = malloc(g->mshr_entries * sizeof *c->mshr_la);
    if (!c->lines || !c->tags || !c->mshr || !c->wreq || !c->wneed || !c->wmerged || !c->mq || !c->mshr_bucket || !c->mshr_next ||
        !c->mshr_free || !c->mshr_la)
        goto oom;
    for (uint32_t i = 0; i < g->mshr_entries; i++) {
        c->mshr_free[i >> 6] |= 1ull << (i & 63);
        c->mshr_la[i] = TAG_NONE;
    }
    c->idx_last_la = UINT64_MAX;
    c->fw_last_la = UINT64_MAX;
    for (size_t b = 0; b < ((size_t)1 << hash_bits); b++) c->mshr_bucket[b] = -1;
    c->pol_state = pol->create ? pol->create(g) : NULL;
    if (pol->create && !c->pol_state) goto oom;
    if (g->pf.name[0]) {
        c->pf = prefetch_find(g->pf.name);
        if (!c->pf) {
            if (err) snprintf(err, errlen, "%s: unknown prefetcher '%s'", name, g->pf.name);
            cache_destroy(c);
            return NULL;
        }
        c->pf_last_line = UINT64_MAX;   /* no access seen yet */
        prefetch_config pc = g->pf;
        pc.line_size = g->line_size;
        pc.cache_bytes = cache_size_bytes(g);
        char why[200] = "out of memory";
        c->pf_state = c->pf->create(&pc, why, sizeof why);
        if (!c->pf_state) {
            if (err) snprintf(err, errlen, "%s: prefetcher '%s': %s", name, g->pf.name, why);
            c->pf = NULL;
            cache_destroy(c);
            return NULL;
        }
    }
    return c;
oom:
    if (err) snprintf(err, errlen, "%s: out of memory", name);
    cache_destroy(c);
    return NULL;
}

void cache_destroy(cache *c) {
    if (!c) return;
    if (c->pol && c->pol->destroy && c->pol_state) c->pol->destroy(c->pol_state);
    if (c->pf && c->pf->destroy && c->pf_state) c->pf->destroy(c->pf_state);
    free(c->lines);
    free(c->tags);
    free(c->way_owner);
    free(c->mshr);
    free(c->wreq);
    free(c->wneed);
    free(c->wmerged);
    free(c->mq);
    free(c->mshr_bucket);
    free(c->mshr_next);
    free(c->mshr_free);
    free(c->mshr_la);
    free(c->set_hash);
    free(c);
}

void cache_set_index_addr(cache *c, cache_index_addr_fn fn, const void *ctx) {
    c->index_addr = fn;
    c->index_ctx = ctx;
    c->idx_last_la = UINT64_MAX;
}
