/* A generic set-associative cache model with MSHRs and a miss queue: the L1D,
 * each L2 slice, the constant and instruction caches are all instances of it.
 *
 * Timing is the caller's business: the cache answers an access at once with an
 * outcome, queues the requests it needs from the level below in its miss queue,
 * and is told by cache_fill() when data comes back.
 *
 *   outcome = cache_access(c, &req, now, &why);
 *     CACHE_HIT            data present (reads) / write done
 *     CACHE_HIT_RESERVED   "pending hit": the line is being fetched; the request
 *                          was merged into its MSHR entry and returns at the fill
 *     CACHE_MISS           a fetch (and maybe a write-back) was queued; reads wait
 *                          in the MSHR and return at the fill
 *     CACHE_RESERVATION_FAIL  nothing changed; `why` says which resource was
 *                          missing.  The request is NOT kept: retry it later.
 *   while ((out = cache_miss_queue_peek(c))) { send *out below; cache_miss_queue_pop(c); }
 *   n = cache_fill(c, &reply, now, woken, cache_max_waiters(c));  // wake n requests
 *
 * Writes never wait in an MSHR except with fetch-on-write; they complete at the
 * access (HIT or MISS) once the write policy has done what it does.
 *
 * Sectored caches ('S'): a miss fetches only the missing 32 B sectors; MSHR
 * capacity counts sectors in flight and merging is per sector (GPGPU-Sim's
 * sector MSHRs).  Normal caches ('N') fetch the rest of the line; when the line
 * comes back in several sector replies it becomes valid with the last one.
 *
 * Replacement is a plug-in (src/mem/policy/, one file per policy behind
 * cache_policy_ops, found by name): the cache never looks at a policy's name.
 * Everything is preallocated at creation: an access or fill never allocates.
 */
#ifndef LOCSIM_MEM_CACHE_H
#define LOCSIM_MEM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/mem_req.h"
#include "mem/prefetch/prefetch.h"

/* Ways of a set at most: victim choice works on a 64-bit mask of candidates. */
#define CACHE_MAX_ASSOC 64

struct ldesc_set;   /* src/ldesc/ldesc.h: a launch's Locality Descriptors */

/* ---- geometry and policies (GPGPU-Sim's cache configuration string) ---- */

typedef enum {
    CACHE_WRITE_READ_ONLY = 0,  /* 'R': writes are not expected; treated as write-evict */
    CACHE_WRITE_BACK,           /* 'B' */
    CACHE_WRITE_THROUGH,        /* 'T' */
    CACHE_WRITE_EVICT,          /* 'E': a write hit invalidates the line; the write goes below */
} cache_write_policy;

typedef enum {
    CACHE_ALLOC_ON_MISS = 0,    /* 'm': reserve the victim line when the miss is sent */
    CACHE_ALLOC_ON_FILL,        /* 'f': pick the victim only when the data arrives */
} cache_alloc_policy;

typedef enum {
    CACHE_NO_WRITE_ALLOCATE = 0, /* 'N': a write miss is forwarded below, nothing allocated */
    CACHE_WRITE_ALLOCATE,        /* 'W' and 'L': allocate and write the sectors (no fetch) */
    CACHE_FETCH_ON_WRITE,        /* 'F': fetch the line, then write it */
} cache_write_alloc_policy;

typedef enum {
    CACHE_INDEX_LINEAR = 0,     /* 'L': set = line number mod sets */
    CACHE_INDEX_XOR,            /* 'H': line number XOR-folded into the index (sets: power of 2) */
    CACHE_INDEX_IPOLY,          /* 'P': IPOLY (mem/ipoly.h; 16, 32 or 64 sets), GPGPU-Sim 4.x's L2 */
} cache_index_fn;

typedef struct cache_geometry {
    bool sectored;              /* 'S': fetch only missing 32 B sectors; 'N': whole lines */
    uint32_t nsets, line_size, assoc;
    char repl;                  /* replacement letter of the string (L, F) */
    char policy[32];            /* replacement policy name, e.g. "lru" (letter or override) */
    uint8_t level;              /* what the cache is, for policies that differ by role:
                                   CACHE_LEVEL_L1D, CACHE_LEVEL_L2 or 0 (other) */
    uint8_t sharing_dead_block; /* -sharing_dead_block, for the 'sharing' policy's L1 */
    uint8_t sharing_detect_stores; /* -sharing_detect_stores and -sharing_kernel_reset, */
    uint8_t sharing_kernel_reset;  /* for the 'sharing' policy's L2 (docs/sharing.md) */
    uint8_t ldesc_bypass;       /* -ldesc_l1_bypass, -ldesc_l1_hard_pin, -ldesc_l1_soft_pin and */
    uint8_t ldesc_hard_pin;     /* -ldesc_unpin_period (core cycles, 0: never), for the */
    uint8_t ldesc_soft_pin;     /* 'ldesc' policy (docs/ldesc.md) */
    uint32_t ldesc_unpin_period;
    uint64_t local_base;        /* the L1D: where local memory starts and the bytes between */
    uint64_t local_word_stride; /* one thread's consecutive words (src/core/ldst.c), for the
                                   'ldesc' policy's LOCAL descriptors; 0 elsewhere */
    uint8_t write_global;       /* cache_write_policy for global (and every non-local) space */
    uint8_t write_local;        /* cache_write_policy for local space ('L' = local B, global T) */
    uint8_t alloc;              /* cache_alloc_policy */
    uint8_t write_alloc;        /* cache_write_alloc_policy */
    uint8_t index;              /* cache_index_fn */
    char mshr_kind;             /* A (associative), S (sector), F/T (texture FIFO: parsed only) */
    uint32_t mshr_entries;      /* lines that may be in flight */
    uint32_t mshr_max_merge;    /* requests one MSHR entry can hold (the first included) */
    uint32_t miss_queue_size;   /* requests waiting to go below */
    uint32_t result_fifo_size;  /* texture caches only (parsed, unused) */
    uint32_t data_port_width;   /* bytes per cycle (0 = not given) */
    prefetch_config pf;         /* the prefetcher attached (pf.name "" = none; src/mem/prefetch/) */
    char text[160];             /* the string as given, for config dumps */
} cache_geometry;

enum { CACHE_LEVEL_OTHER = 0, CACHE_LEVEL_L1D = 1, CACHE_LEVEL_L2 = 2 };

/* Parse "<N|S>:<nsets>:<line>:<assoc>,<repl>:<wr>:<alloc>:<wr_alloc>[:<idx>],
 *        <mshr>:<entries>:<max_merge>,<miss_queue>[:<fifo>][,<data_port_width>]"
 * (the N|S prefix and the index letter may be omitted, as in GPGPU-Sim 3.x).
 * Returns 0, or -1 with a message saying what was expected in err. */
int cache_geometry_parse(const char *text, cache_geometry *g, char *err, size_t errlen);

static inline uint32_t cache_size_bytes(const cache_geometry *g) {
    return g->nsets * g->line_size * g->assoc;
}

/* ---- one line of the tag array ---- */

typedef struct cache_line {
    uint64_t line_addr;   /* address / line_size, meaningful when allocated */
    uint8_t allocated;    /* 1: the line holds line_addr (valid and/or being fetched) */
    uint8_t valid;        /* sectors holding data */
    uint8_t dirty;        /* sectors modified (write-back) */
    uint8_t pending;      /* sectors being fetched: the line is reserved while non-zero */
    uint16_t sm, warp;    /* who allocated it (CCWS's victim tags need the warp) */
    uint32_t pc;          /* PC of the allocating access */
    uint8_t prefetched;   /* brought by a prefetch, not yet touched by a demand access */
} cache_line;

/* ---- outcome of an access ---- */

typedef enum {
    CACHE_HIT = 0,
    CACHE_HIT_RESERVED,
    CACHE_MISS,
    CACHE_RESERVATION_FAIL,
    CACHE_OUTCOME_COUNT
} cache_outcome;

/* ---- replacement policy plug-in ---- */

/* Allocation decisions (cache_policy_ops.allocate). */
typedef enum {
    CACHE_ALLOC_INSERT = 0,   /* allocate the line (evicting the victim) as usual */
    CACHE_ALLOC_BYPASS,       /* allocate nothing, evict nothing: the data goes to the
                                 requester(s) only (see allocate below) */
} cache_alloc_decision;

/* Bits of mem_req.hint a policy may put on its answers (reply_hint) for the
 * level above.  CACHE_HINT_SHARED: the line is used by more than one requester
 * (another SM than the one answered brought it in). */
#define CACHE_HINT_SHARED 0x01u

/* One policy instance per cache.  Hooks may be NULL when a policy does not care.
 * `candidates` has bit w set for each way that may be evicted (allocated, nothing
 * pending); invalid ways are used before the policy is asked. */
typedef struct cache_policy_ops {
    const char *name;
    const char *help;
    void *(*create)(const cache_geometry *g);   /* NULL: out of memory */
    void (*destroy)(void *st);
    void (*on_hit)(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now);
    void (*on_insert)(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now);
    void (*on_evict)(void *st, uint32_t set, uint32_t way, const cache_line *line);
    /* A way from candidates, or -1 to refuse (the access fails to reserve a line). */
    int (*find_victim)(void *st, uint32_t set, uint64_t candidates, const mem_req *r, uint64_t now);
    /* Optional (NULL: always insert).  Asked once the cache has chosen where a
     * line for r would go -- way `way` of `set`, now holding *victim
     * (victim->allocated == 0: an invalid way) -- and before anything changes:
     *  - at a read miss (or fetch-on-write) of an allocate-on-miss cache, and at a
     *    write miss of a write-allocate cache;
     *  - at the fill of an allocate-on-fill cache, with r the request the line is
     *    for carrying the reply's hint (what the level below's policy said).
     * BYPASS allocates nothing.  A read still takes its MSHR entry (later
     * requests for the line merge into it), fetches from below and is answered
     * at the fill, whose data is then not kept; a write miss is forwarded below
     * as with no-write-allocate.  On INSERT, on_insert follows for the same way
     * and request, so a policy can set an insertion priority there. */
    cache_alloc_decision (*allocate)(void *st, uint32_t set, uint32_t way, const cache_line *victim,
                                     const mem_req *r, uint64_t now);
    /* 1 when find_victim and allocate (if any) read only the policy's state, the
     * set, the candidates and r -- never `now` -- and change nothing: an access
     * the cache refused is then refused again, for the same reason, until the
     * cache changes (cache_fail_repeats).  0 (the default) is always safe. */
    uint8_t pure_choice;
    /* Optional: the CACHE_HINT_* bits of the answer to read r, whose line is in
     * `way` (a hit, or a waiter woken by the fill of that line); 0 without it. */
    uint8_t (*reply_hint)(void *st, uint32_t set, uint32_t way, const mem_req *r);
    /* Optional: NULL if the policy can run in a cache of geometry g, else why not
     * (config_finalize reports it). */
    const char *(*check)(const cache_geometry *g);

    /* ---- optional: for policies that learn from the access stream ---- */
    /* Every access the cache accepted (not a reservation fail), after the hooks
     * above: o is its outcome and way the line that holds r's address after it
     * (-1: none, e.g. a forwarded write miss or a write-evict hit).  on_hit runs
     * on every touch (hits, pending hits, sector misses) without the outcome; a
     * policy that treats a real hit apart does it here.  r carries the PC and
     * the warp of the requester. */
    void (*on_access)(void *st, uint32_t set, int way, const mem_req *r, cache_outcome o, uint64_t now);
    /* The policy's locality signal, for whoever owns the cache (the SM passes the
     * L1D's to its warp scheduler, see sched_view.l1d_locality): 1 the cache
     * currently sees locality, 0 it does not; NULL: the policy has no signal. */
    int (*locality)(const void *st);
    /* The policy's own statistics: cumulative counters written through emit as
     * "name value" pairs (now: the current core cycle, for time-weighted ones),
     * and their definitions (ending with name == NULL; a ratio has num/den). */
    void (*report)(const void *st, uint64_t now, void (*emit)(void *ctx, const char *name, double value),
                   void *ctx);
    const struct cache_policy_stat_def *stats;
    /* Optional: a kernel starts; `hints` are its Locality Descriptors
     * (src/ldesc/ldesc.h; NULL: none), valid until the next call. */
    void (*kernel_begin)(void *st, const struct ldesc_set *hints);
} cache_policy_ops;

/* A statistic a policy reports (see cache_policy_ops.report): a counter
 * (num == NULL) or the ratio scale x num / den of two of them.  Instances (one
 * per cache) are summed. */
typedef struct cache_policy_stat_def {
    const char *name;
    const char *num, *den;
    double scale;
    const char *help;
} cache_policy_stat_def;

/* The registry (src/mem/policy/registry.c): NULL for an unknown name. */
const cache_policy_ops *cache_policy_find(const char *name);
/* The i-th registered policy, NULL past the end (for help texts). */
const cache_policy_ops *cache_policy_at(uint32_t i);

/* ---- the cache ---- */

typedef enum {
    CACHE_FAIL_NONE = 0,
    CACHE_FAIL_LINE_ALLOC,   /* every way of the set is reserved (or the policy refused) */
    CACHE_FAIL_MSHR_ENTRY,   /* no free MSHR entry */
    CACHE_FAIL_MSHR_MERGE,   /* the line's MSHR entry already holds max_merge requests */
    CACHE_FAIL_MISS_QUEUE,   /* no room in the miss queue */
    CACHE_FAIL_COUNT
} cache_fail_reason;

typedef struct cache_counters {
    uint64_t access[MEM_ACCESS_TYPE_COUNT][CACHE_OUTCOME_COUNT];
    uint64_t fail[CACHE_FAIL_COUNT];
    uint64_t sector_misses;   /* misses on a present line (part of CACHE_MISS) */
    uint64_t fills;           /* cache_fill calls */
    uint64_t evictions;       /* valid lines replaced */
    uint64_t writebacks;      /* dirty lines sent below */
    uint64_t forwarded_writes;/* writes sent below (write-through, evict, no-allocate) */
    uint64_t bypassed;        /* misses the policy kept out of the cache (allocate: BYPASS) */
    uint64_t mshr_hits_shared;/* pending hits answered by a fill hinted CACHE_HINT_SHARED */
} cache_counters;

/* What a cache's prefetcher did (all zero without one).  A demand access is
 * one without MEM_REQ_PREFETCH (an L1 prefetch reaching the L2 is not one). */
typedef struct cache_prefetch_counters {
    uint64_t candidates;      /* addresses the prefetcher asked for */
    uint64_t issued;          /* prefetch fetches sent below */
    uint64_t useful;          /* prefetched lines a demand access then touched (first touch) */
    uint64_t late;            /* demand accesses merged into a prefetch still in flight */
    uint64_t useless;         /* prefetched lines evicted (or invalidated) untouched */
    uint64_t redundant;       /* candidates already present or in flight (not issued) */
    uint64_t redundant_present;  /* ... of which present in the cache (the rest: in an MSHR) */
    uint64_t redundant_prefetched; /* ... of which a prefetch brought or is bringing, no demand
                                      access having touched it yet (another trigger's target) */
    uint64_t dropped;         /* candidates refused for lack of an MSHR, line or miss-queue slot */
    uint64_t foreign;         /* candidates this cache does not hold (another L2 slice's lines) */
    uint64_t forwarded;       /* candidates another slice holds, handed to it (cache_set_prefetch_forward)
                                 instead of counted as foreign; counted there as issued, redundant or dropped */
    uint64_t demand_read_misses; /* demand reads that missed (the coverage denominator) */
    uint64_t line_repeats;    /* demand reads not shown to a once_per_line prefetcher: the next
                                 sector of the line the same warp's previous access used */
} cache_prefetch_counters;

typedef struct cache cache;

/* Called with every line about to be evicted (before it is overwritten). */
typedef void (*cache_evict_hook)(void *ctx, const cache_line *line, const mem_req *cause);

/* What a way last held and who last claimed it (cache_set_victim_hook). */
typedef struct cache_way_owner {
    uint64_t line_addr;
    uint32_t warp;    /* the warp that last missed or merged on the way */
    uint32_t known;   /* 0: the way never held a line */
} cache_way_owner;

/* Called at every miss on a line the cache did not hold (a read that allocated,
 * a write that allocated nothing) with the line its way (taken, or the victim a
 * read would take now) last held, even one since invalidated or flushed, and the
 * warp that last missed or merged on that way: the victim GPGPU-Sim 3.x's tag
 * probe names, from which the CCWS authors fill their victim tags.  Never called
 * for a way that never held a line; for a write miss only where the replacement
 * policy's choice may be asked twice (cache_policy_ops.pure_choice). */
typedef void (*cache_victim_hook)(void *ctx, uint64_t line_addr, uint32_t owner_warp, const mem_req *cause);

/* name prefixes error messages ("L1D", "L2[3]").  NULL + err on a bad geometry
 * or an unknown policy. */
cache *cache_create(const cache_geometry *g, const char *name, char *err, size_t errlen);
void cache_destroy(cache *c);

cache_outcome cache_access(cache *c, const mem_req *r, uint64_t now, cache_fail_reason *why);
/* A read that hits, handled exactly as cache_access would (the same counter,
 * the same policy update, the same find_way memo), through a short path: true
 * then.  False, with nothing changed, when the read is anything but a plain
 * hit, or the cache has a prefetcher, a per-access policy hook or an index
 * function: the caller makes the full cache_access.  For the instruction
 * cache's fetches, nearly all hits. */
bool cache_read_hit(cache *c, const mem_req *r, uint64_t now);

/* Requests for the level below, oldest first: fetches, forwarded writes, write-backs. */
const mem_req *cache_miss_queue_peek(const cache *c);
void cache_miss_queue_pop(cache *c);
/* The i-th queued request from the head (NULL past the end), to amend a field
 * the level below reads (the SM fixes an instruction's sigma, docs/wsmp.md). */
mem_req *cache_miss_queue_at(cache *c, uint32_t i);
uint32_t cache_miss_queue_length(const cache *c);

/* Data for reply->addr's line arrived (the sectors in reply->sector_mask).
 * Writes the requests it completes, oldest first, into woken[0..n) and returns n;
 * cap must be at least cache_max_waiters(c).  Returns -1 if no MSHR entry waits
 * for that line (a caller bug). */
int cache_fill(cache *c, const mem_req *reply, uint64_t now, mem_req *woken, uint32_t cap);
/* When cache_fill(c, reply) would only note the reply's sectors (a normal, not
 * sectored, cache whose MSHR entry for the line still awaits other sectors),
 * does just that, as cache_fill would, and returns true; otherwise changes
 * nothing and returns false.  Such a fill completes no request and frees nothing
 * an access could need (the line stays reserved, the entry and its waiters
 * stay).  One MSHR lookup for both the question and the fill. */
bool cache_fill_partial(cache *c, const mem_req *reply);
uint32_t cache_max_waiters(const cache *c);
/* At most how many requests a fill of `sectors` can wake (a sectored cache
 * merges per sector, so a one-sector fill wakes at most <max merge>). */
uint32_t cache_fill_max_woken(const cache *c, uint8_t sectors);
/* True when access r, answered with o, waits in an MSHR for a fill: reads that
 * missed or hit a reserved line, and writes of a write-back fetch-on-write cache
 * that missed.  Every other write is complete when cache_access returns. */
bool cache_request_waits(const cache *c, const mem_req *r, cache_outcome o);
/* true when an access c refused (CACHE_RESERVATION_FAIL) would be refused again,
 * for the same reason and with no other effect than the counts, as long as
 * nothing changes c (no access goes ahead, no fill, no miss-queue pop): every
 * check a refusal rests on reads only the cache's lines, MSHRs and queue, and
 * its policy's choice is pure (cache_policy_ops.pure_choice). */
bool cache_fail_repeats(const cache *c);
/* Count a refused access of type `type` for reason why exactly as cache_access
 * counts one: for a caller that knows a retry is refused (cache_fail_repeats)
 * and skips it. */
void cache_count_fail(cache *c, uint8_t type, cache_fail_reason why);

/* MSHR entries in use (lines in flight); for a sectored cache also the sectors
 * in flight (what its <entries> limit counts). */
uint32_t cache_mshr_used(const cache *c);
/* The hint the policy puts on the answer to read r (0 when its line is absent or
 * the policy has no reply_hint): for answers a caller sends itself (hits). */
uint8_t cache_reply_hint(const cache *c, const mem_req *r);
uint32_t cache_mshr_sectors_used(const cache *c);

/* The line holding addr, or NULL (no side effects: for tests and analyses). */
const cache_line *cache_probe(const cache *c, uint64_t addr);
uint32_t cache_set_of(const cache *c, uint64_t addr);
const cache_line *cache_line_at(const cache *c, uint32_t set, uint32_t way);

void cache_set_evict_hook(cache *c, cache_evict_hook fn, void *ctx);
/* -1 when out of memory.  Costs each access a tag lookup more while set. */
int cache_set_victim_hook(cache *c, cache_victim_hook fn, void *ctx);
/* Type given to write-backs of dirty lines (default MEM_L1_WRBK_ACC; L2 slices
 * set MEM_L2_WRBK_ACC). */
void cache_set_writeback_type(cache *c, mem_access_type type);

/* Drop every line that has no fetch in flight (a kernel-boundary L1 invalidate);
 * dirty data is discarded.  Returns the number of dirty lines dropped. */
uint32_t cache_invalidate_all(cache *c);
/* New lines take only ways [0, ways) (a unified L1D/shared array's carve-out,
 * docs/modern.md); 1 <= ways <= assoc.  -1 (nothing changed) if a line is
 * allocated in a way given up: empty the cache first (cache_invalidate_all). */
int cache_set_active_ways(cache *c, uint32_t ways);
uint32_t cache_active_ways(const cache *c);

/* -gpgpu_flush_l2_cache: drop every line holding dirty data (GPGPU-Sim's
 * tag-array flush: clean lines stay, dirty data is discarded, no write-back
 * traffic).  Returns the number of lines dropped. */
uint32_t cache_flush_dirty(cache *c);

/* -gpgpu_perf_sim_memcpy: the copy engine wrote `sectors` of addr's line
 * through this cache.  The line is allocated if absent (the policy's victim,
 * replaced without a write-back) and the sectors become valid and clean (a
 * normal cache validates the whole line).  No counters but evictions change and
 * a present line's recency is kept.  -1 if every way is reserved (the copy is
 * then not cached). */
int cache_force_fill(cache *c, uint64_t addr, uint8_t sectors);

/* The policy's locality signal (cache_policy_ops.locality): 1 / 0, or -1 when
 * the policy has none (or c is NULL). */
int cache_locality_signal(const cache *c);
/* A kernel starts with these Locality Descriptors (NULL: none): passed to the
 * policy's kernel_begin, if it has one. */
void cache_kernel_begin(cache *c, const struct ldesc_set *hints);
/* The policy's ops and state, for its statistics (cache_policy_ops.report). */
const cache_policy_ops *cache_policy(const cache *c);
const void *cache_policy_state(const cache *c);

/* Which addresses this cache may prefetch (default: all).  An L2 slice holds
 * only the lines the address mapping gives it, so its partition installs a
 * check; candidates it refuses are counted as foreign. */
typedef bool (*cache_owns_fn)(void *ctx, uint64_t addr);
void cache_set_prefetch_owner(cache *c, cache_owns_fn fn, void *ctx);
/* Instead of counting such a candidate as foreign, hand it to fn (the GPU
 * queues it for the slice that holds the line, -l2_prefetch_forward), which
 * returns false when it cannot take it (then counted as dropped here). */
typedef bool (*cache_forward_fn)(void *ctx, uint64_t addr, const mem_req *cause, uint64_t now);
void cache_set_prefetch_forward(cache *c, cache_forward_fn fn, void *ctx);
bool cache_prefetch_forwards(const cache *c);   /* a forward function is set */
/* Fetch the line of addr as a prefetch for `cause`, a candidate another slice's
 * prefetcher handed over: counted here as issued, redundant or dropped, by the
 * rules of this cache's own candidates (the cache needs a prefetcher). */
void cache_prefetch(cache *c, const mem_req *cause, uint64_t addr, uint64_t now);
/* The address space the prefetcher learns in (default: device addresses).  An
 * L2 slice gives a prefetcher that asks for it (prefetch_ops.slice_space) the
 * slice's own address space: to_pf maps a device address there (every address
 * the prefetcher is shown), from_pf maps its candidates back. */
typedef uint64_t (*cache_addr_fn)(void *ctx, uint64_t addr);
void cache_set_prefetch_space(cache *c, cache_addr_fn to_pf, cache_addr_fn from_pf, void *ctx);

/* The prefetcher attached (NULL: none), its state and its counters. */
const prefetch_ops *cache_prefetcher(const cache *c);
const void *cache_prefetcher_state(const cache *c);
const cache_prefetch_counters *cache_prefetch_stats(const cache *c);

const cache_geometry *cache_geom(const cache *c);
const cache_counters *cache_stats(const cache *c);
/* Sums over access types (reservation fails are not accesses). */
uint64_t cache_total(const cache *c, cache_outcome o);
uint64_t cache_total_accesses(const cache *c);

const char *cache_outcome_name(cache_outcome o);   /* "HIT", "HIT_RESERVED", ... */
const char *cache_fail_name(cache_fail_reason f);  /* "LINE_ALLOC_FAIL", ... */

/* Optional: the address a cache indexes its sets with, given a line's byte
 * address (NULL: the address itself).  The L2 slices index with the address
 * within their partition (addrmap_partition_addr), as GPGPU-Sim's L2 does. */
typedef uint64_t (*cache_index_addr_fn)(const void *ctx, uint64_t addr);
void cache_set_index_addr(cache *c, cache_index_addr_fn fn, const void *ctx);

#endif
