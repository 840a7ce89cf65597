/* L1D access-stream recording, Belady-optimal replay and locality breakdown
 * (see l1trace.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/l1trace.h"

#define NEVER_AGAIN UINT32_MAX

/* ---- a small open-addressing hash map: line address -> 64-bit value ---- */

typedef struct {
    uint64_t key;         /* line + 1; 0 = empty */
    uint64_t value, value2;
} map_slot;

typedef struct {
    map_slot *slot;
    size_t cap;           /* power of two */
    size_t count;         /* keys present */
} line_map;

static size_t map_home(const line_map *m, uint64_t key) {
    /* Fibonacci hashing spreads consecutive lines over the table */
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (m->cap - 1);
}

/* Empty the map (keeping its table). */
static void map_clear(line_map *m) {
    if (m->slot) memset(m->slot, 0, m->cap * sizeof *m->slot);
    m->count = 0;
}

/* Room for n more keys at load <= 1/2 (rehashing what is there). */
static int map_reserve(line_map *m, size_t n) {
    if (2 * (m->count + n) <= m->cap) return 0;
    size_t cap = m->cap ? m->cap : 16;
    while (cap < 2 * (m->count + n)) cap *= 2;
    map_slot *old = m->slot, *s = calloc(cap, sizeof *s);
    if (!s) return -1;
    size_t old_cap = m->cap;
    m->slot = s;
    m->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].key) continue;
        size_t j = map_home(m, old[i].key);
        while (s[j].key) j = (j + 1) & (cap - 1);
        s[j] = old[i];
    }
    free(old);
    return 0;
}

/* The slot of line, inserted (with zero values) if absent; the caller has
 * reserved room for it. */
static map_slot *map_find(line_map *m, uint64_t line) {
    uint64_t key = line + 1;
    size_t i = map_home(m, key);
    while (m->slot[i].key && m->slot[i].key != key) i = (i + 1) & (m->cap - 1);
    if (!m->slot[i].key) {
        m->slot[i].key = key;
        m->count++;
    }
    return &m->slot[i];
}

/* ---- the recorder ---- */

/* A recorded access as the OPT replay needs it: line << 2 | L1T_* flags (8
 * bytes).  The hit breakdown and the CRN runs are taken as accesses are
 * recorded (they need no future), so warp, lanes and outcome are not kept. */
typedef uint64_t opt_access;
#define OPT_LINE(r) ((r) >> 2)
#define OPT_FLAGS(r) ((unsigned)((r) & 3u))

struct l1_trace {
    cache_geometry g;
    bool flushed;         /* the real L1D is invalidated at every kernel start */
    uint32_t kernel;      /* streams analysed so far: warps of different kernels differ */
    cache *map;           /* a 1-way cache of the same sets: only its set-index function is used */
    uint32_t line_shift;
    opt_access *a;
    size_t n, cap;
    l1_trace_totals tot;
    /* analysis scratch, kept between kernels */
    uint32_t *next;
    size_t next_cap;
    line_map lines;       /* per stream: line -> next access (next-use pass), then first access */
    line_map owner;       /* line -> who brought it into the real L1D (kept across kernels) */
    line_map crn;         /* per stream: line -> 1 + CRN of its open run (0: none) */
    uint64_t *way_tag, *way_next;  /* OPT cache: nsets * assoc (tag = line + 1, 0 = invalid) */
    uint64_t *way_last;            /* ... and when each way was last referenced (clock) */
    uint64_t clock;                /* accesses replayed, over all kernels */
};

static uint32_t log2_u32(uint32_t v) {
    uint32_t b = 0;
    while ((1u << b) < v) b++;
    return b;
}

l1_trace *l1_trace_create(const cache_geometry *g, char *err, size_t errlen) {
    l1_trace *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->g = *g;
    t->line_shift = log2_u32(g->line_size);
    /* The set index depends only on the number of sets and the index function. */
    cache_geometry one = *g;
    one.assoc = 1;
    one.mshr_entries = one.mshr_max_merge = one.miss_queue_size = 1;
    t->map = cache_create(&one, "L1D analysis", err, errlen);
    if (!t->map) {
        free(t);
        return NULL;
    }
    return t;
}

void l1_trace_set_flushed(l1_trace *t, bool flushed) { t->flushed = flushed; }

void l1_trace_destroy(l1_trace *t) {
    if (!t) return;
    cache_destroy(t->map);
    free(t->a);
    free(t->next);
    free(t->lines.slot);
    free(t->owner.slot);
    free(t->crn.slot);
    free(t->way_tag);
    free(t->way_next);
    free(t->way_last);
    free(t);
}

static int breakdown_access(l1_trace *t, uint64_t line, uint32_t warp, uint32_t lanes, unsigned flags,
                            cache_outcome o);
static int crn_access(l1_trace *t, uint64_t line, cache_outcome o);

void l1_trace_record(l1_trace *t, uint64_t line, uint32_t warp, uint32_t lanes, unsigned flags, cache_outcome o) {
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        opt_access *a = realloc(t->a, cap * sizeof *a);
        if (!a) {
            t->tot.lost++;
            return;
        }
        t->a = a;
        t->cap = cap;
    }
    if (breakdown_access(t, line, warp, lanes, flags, o) || crn_access(t, line, o)) {
        t->tot.lost++;
        return;
    }
    t->a[t->n++] = line << 2 | (flags & 3u);
}

size_t l1_trace_length(const l1_trace *t) { return t->n; }
const l1_trace_totals *l1_trace_get_totals(const l1_trace *t) { return &t->tot; }

/* ---- Belady-optimal replay ---- */

static uint32_t set_of(const l1_trace *t, uint64_t line) { return cache_set_of(t->map, line << t->line_shift); }

/* next[i] = index of the next access to a[i]'s line, NEVER_AGAIN if none. */
static int compute_next_use(l1_trace *t, const opt_access *a, size_t n) {
    if (n > t->next_cap) {
        uint32_t *p = realloc(t->next, n * sizeof *p);
        if (!p) return -1;
        t->next = p;
        t->next_cap = n;
    }
    map_clear(&t->lines);
    for (size_t i = n; i-- > 0;) {
        if (map_reserve(&t->lines, 1)) return -1;
        map_slot *s = map_find(&t->lines, OPT_LINE(a[i]));
        t->next[i] = s->value ? (uint32_t)(s->value - 1) : NEVER_AGAIN;
        s->value = i + 1;
    }
    return 0;
}

static int write_invalidates(const cache_geometry *g, unsigned flags) {
    uint8_t policy = (flags & L1T_LOCAL) ? g->write_local : g->write_global;
    return policy == CACHE_WRITE_EVICT || policy == CACHE_WRITE_READ_ONLY;
}

/* Replay a[0..n) through the OPT cache; adds to *misses / *read_misses.
 * Among lines with the same next use -- only lines not referenced again in this
 * kernel can tie -- the victim is the least recently referenced: any of them is
 * optimal for this kernel, and that one is the likeliest to be dead in the next
 * (the window ends at the kernel, the L1D does not). */
static void opt_replay(l1_trace *t, const opt_access *a, size_t n, uint64_t *misses, uint64_t *read_misses) {
    uint32_t assoc = t->g.assoc;
    for (size_t i = 0; i < n; i++) {
        uint64_t line = OPT_LINE(a[i]), tag = line + 1, now = ++t->clock;
        unsigned flags = OPT_FLAGS(a[i]);
        size_t base = (size_t)set_of(t, line) * assoc;
        uint64_t *wt = &t->way_tag[base], *wn = &t->way_next[base], *wl = &t->way_last[base];
        int way = -1;
        for (uint32_t w = 0; w < assoc; w++)
            if (wt[w] == tag) {
                way = (int)w;
                break;
            }
        int is_write = flags & L1T_WRITE;
        if (way >= 0) {
            if (is_write && write_invalidates(&t->g, flags)) wt[way] = 0;
            else wn[way] = t->next[i], wl[way] = now;
            continue;
        }
        (*misses)++;
        if (!is_write) (*read_misses)++;
        if (is_write && t->g.write_alloc == CACHE_NO_WRITE_ALLOCATE) continue;
        /* allocate: an invalid way, else the line referenced furthest in the future */
        uint32_t victim = 0;
        for (uint32_t w = 0; w < assoc; w++) {
            if (!wt[w]) {
                victim = w;
                break;
            }
            if (wn[w] > wn[victim] || (wn[w] == wn[victim] && wl[w] < wl[victim])) victim = w;
        }
        wt[victim] = tag;
        wn[victim] = t->next[i];
        wl[victim] = now;
    }
}

static int opt_state_alloc(l1_trace *t) {
    if (t->way_tag) return 0;
    size_t ways = (size_t)t->g.nsets * t->g.assoc;
    t->way_tag = calloc(ways, sizeof *t->way_tag);
    t->way_next = malloc(ways * sizeof *t->way_next);
    t->way_last = calloc(ways, sizeof *t->way_last);
    if (!t->way_tag || !t->way_next || !t->way_last) return -1;
    for (size_t i = 0; i < ways; i++) t->way_next[i] = NEVER_AGAIN;
    return 0;
}

/* Lines the OPT cache kept from the previous kernel: their next use is their
 * first access in this stream (t->lines maps each line to it after
 * compute_next_use).  Lines this stream never touches keep NEVER_AGAIN. */
static void opt_prime(l1_trace *t, const opt_access *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t line = OPT_LINE(a[i]);
        if (map_find(&t->lines, line)->value != i + 1) continue; /* not the first access */
        size_t base = (size_t)set_of(t, line) * t->g.assoc;
        for (uint32_t w = 0; w < t->g.assoc; w++)
            if (t->way_tag[base + w] == line + 1) t->way_next[base + w] = i;
    }
}

/* End of a stream: with a flushed L1D the OPT cache empties too; otherwise it
 * keeps its lines, none of which has a known next use any more.  Only the sets
 * the stream touched are visited (an unbounded L1D has many). */
static void opt_retire(l1_trace *t, const opt_access *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        size_t base = (size_t)set_of(t, OPT_LINE(a[i])) * t->g.assoc;
        for (uint32_t w = 0; w < t->g.assoc; w++) {
            if (t->flushed) t->way_tag[base + w] = 0;
            t->way_next[base + w] = NEVER_AGAIN;
        }
    }
}

/* ---- locality breakdown of the real cache's hits (as accesses are recorded) ---- */

static int breakdown_access(l1_trace *t, uint64_t line, uint32_t warp, uint32_t lanes, unsigned flags,
                            cache_outcome o) {
    l1_trace_totals *s = &t->tot;
    if (map_reserve(&t->owner, 1)) return -1;
    uint64_t kernel = (uint64_t)t->kernel << 32;
    int is_write = flags & L1T_WRITE, miss = o == CACHE_MISS;
    s->accesses++;
    if (is_write) s->writes++;
    else s->reads++;
    if (miss) {
        s->misses++;
        if (!is_write) s->read_misses++;
        /* this access brings the line in (its initial reference) */
        map_slot *r = map_find(&t->owner, line);
        r->value = kernel | lanes;
        r->value2 = (uint64_t)warp + 1;
        return 0;
    }
    if (is_write) return 0;
    map_slot *r = map_find(&t->owner, line);
    if (!r->value2) s->hits_unattributed++;
    else if ((r->value & ~0xffffffffull) != kernel) s->hits_inter_kernel++;
    else if (r->value2 - 1 != warp) s->hits_inter_warp++;
    else if ((uint32_t)r->value & lanes) s->hits_intra_thread++;
    else s->hits_inter_thread++;
    return 0;
}

/* ---- continuous reuse numbers (CWLP Fig. 1), as accesses are recorded ---- */

static void crn_close(l1_trace *t, uint64_t open) {
    if (!open) return;
    uint64_t crn = open - 1;
    t->tot.crn[crn < L1T_CRN_BUCKETS - 1 ? crn : L1T_CRN_BUCKETS - 1]++;
}

static int crn_access(l1_trace *t, uint64_t line, cache_outcome o) {
    if (map_reserve(&t->crn, 1)) return -1;
    map_slot *r = map_find(&t->crn, line);
    if (o == CACHE_MISS) {
        crn_close(t, r->value);
        r->value = 1;              /* a new run, CRN 0 */
    } else if (r->value) {
        r->value++;
    }
    return 0;
}

/* The kernel's end closes every open run. */
static void crn_end(l1_trace *t) {
    for (size_t i = 0; i < t->crn.cap; i++)
        if (t->crn.slot[i].key) crn_close(t, t->crn.slot[i].value);
    map_clear(&t->crn);
}

int l1_trace_analyze(l1_trace *t) {
    size_t n = t->n;
    int rc = 0;
    if (!n) return 0;
    if (compute_next_use(t, t->a, n) || opt_state_alloc(t)) {
        rc = -1;
    } else {
        opt_prime(t, t->a, n);
        opt_replay(t, t->a, n, &t->tot.bel_misses, &t->tot.bel_read_misses);
        opt_retire(t, t->a, n);
    }
    if (rc) t->tot.lost += n;
    crn_end(t);
    /* a flushed L1D starts the next kernel empty: no line has an owner */
    if (t->flushed) map_clear(&t->owner);
    t->n = 0;
    t->kernel++;
    return rc;
}

uint64_t l1_belady_misses(const cache_geometry *g, const l1_access *a, size_t n, uint64_t *read_misses) {
    char err[256];
    l1_trace *t = l1_trace_create(g, err, sizeof err);
    opt_access *c = malloc((n ? n : 1) * sizeof *c);
    uint64_t misses = 0, reads = 0;
    for (size_t i = 0; c && i < n; i++) c[i] = a[i].line << 2 | (a[i].flags & 3u);
    if (!t || !c || compute_next_use(t, c, n) || opt_state_alloc(t)) {
        l1_trace_destroy(t);
        free(c);
        return UINT64_MAX;
    }
    opt_replay(t, c, n, &misses, &reads);
    l1_trace_destroy(t);
    free(c);
    if (read_misses) *read_misses = reads;
    return misses;
}
