/* The Locality Descriptor prefetcher (Vijaykumar et al. §4.5 and Fig. 11;
 * docs/ldesc.md), for the L1D (-l1d_prefetcher ldesc).  Only INTER_THREAD data
 * is prefetched (shared data is what many threads stall on together), and only
 * when an access to it misses the cache (see triggers()):
 *
 *   NEARBY                  the next line (if still inside the data structure);
 *   COACCESSED, REGULAR     address + L1_size / (active_tiles x step_width) x stride,
 *                           at least one line ahead.  step_width = the bytes one
 *                           warp touches in one step of the access pattern (the
 *                           paper's "number of bytes that are accessed at the same
 *                           time", see step_bytes()), stride = |stride| x elem_size
 *                           bytes, active_tiles = the distinct D-Tiles among the
 *                           last LDESC_PF_WINDOW triggers (at least 1): more tiles
 *                           in flight shorten the distance, as the paper's equation
 *                           intends.  A distance below one line would name the line
 *                           already in flight, so it is raised to one line.  The
 *                           target must lie inside the data structure and past
 *                           the furthest target already asked for in its stream
 *                           (past_front());
 *   COACCESSED, IRREGULAR   nothing (soft pinning handles it).
 * The cache counts issued / useful / late prefetches (cache_prefetch_counters);
 * this prefetcher adds how many candidates each rule produced. */
#include <stdlib.h>
#include <string.h>

#include "ldesc/ldesc.h"
#include "mem/mem_req.h"
#include "mem/prefetch/prefetch.h"

#define LDESC_PF_WINDOW 16   /* triggers remembered to count active D-Tiles */
#define LDESC_PF_WARP 32     /* threads of a warp (EXEC_WARP_SIZE; GPGPU-Sim's warp_size) */

typedef struct {
    uint32_t line;
    uint64_t l1_bytes;
    const ldesc_set *set;
    struct { int id; uint64_t tile; } recent[LDESC_PF_WINDOW];
    uint32_t nrecent, next;
    uint64_t nearby, strided;
    uint64_t trig_pf;   /* triggers that were the first demand touch of a prefetched line */
    uint64_t behind;    /* stride targets not past their stream's front (asked for already) */
    /* How far each stream being prefetched has been asked for: a stream is one
     * row of a D-Tile (a stride along the rows) or one line-wide column of a
     * D-Tile (a stride of a row or more), its front the furthest target asked
     * for.  Direct-mapped, one entry per L1 line (the L1 cannot hold more
     * streams' lines than it has lines). */
    struct pf_front { uint64_t key, front; int id; uint8_t valid; } *fronts;
    uint32_t nfronts;
} ldesc_pf;

static void *lpf_create(const prefetch_config *cfg, char *err, size_t errlen) {
    (void)err, (void)errlen;
    ldesc_pf *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->line = cfg->line_size;
    p->l1_bytes = cfg->cache_bytes;
    p->nfronts = p->line ? (uint32_t)(p->l1_bytes / p->line) : 0;
    if (!p->nfronts) p->nfronts = 1;
    p->fronts = calloc(p->nfronts, sizeof *p->fronts);
    if (!p->fronts) {
        free(p);
        return NULL;
    }
    return p;
}

static void lpf_destroy(void *st) {
    ldesc_pf *p = st;
    if (p) free(p->fronts);
    free(p);
}

static void lpf_kernel_begin(void *st, const ldesc_set *hints) {
    ldesc_pf *p = st;
    p->set = hints;
    p->nrecent = p->next = 0;
    memset(p->fronts, 0, p->nfronts * sizeof *p->fronts);
}

/* Remember that D-Tile `tile` of descriptor id triggered; the number of distinct
 * (descriptor, tile) pairs in the window. */
static uint32_t active_tiles(ldesc_pf *p, int id, uint64_t tile) {
    p->recent[p->next].id = id;
    p->recent[p->next].tile = tile;
    p->next = (p->next + 1) % LDESC_PF_WINDOW;
    if (p->nrecent < LDESC_PF_WINDOW) p->nrecent++;
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < p->nrecent; i++) {
        uint32_t j = 0;
        while (j < i && (p->recent[j].id != p->recent[i].id || p->recent[j].tile != p->recent[i].tile)) j++;
        distinct += j == i;
    }
    return distinct;
}

/* Does this access start a prefetch?  §4.5: "triggered when an access misses
 * the cache".  A miss does; so does the first demand touch of a line a prefetch
 * brought (useful) or is still bringing (late), the access that would have missed
 * without the prefetch, so a stream being prefetched keeps going.  A pending hit
 * on a demand fetch does not: it did not miss, and the access that did has
 * already asked for the same target. */
static int triggers(const prefetch_access *a) {
    if (a->useful || a->late) return 1;
    return !a->hit && !a->pending;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The bytes one warp touches in one step of a REGULAR pattern (each of its
 * threads reads one element per step).  A stride shorter than a D-Tile row walks
 * along the rows: the warp's threads read one element in each of
 * min(32, rows) rows (syrk's A: 32 rows j, one float each = 128 B a step).  A
 * stride of a row or more moves from row to row: the warp reads min(32,
 * data_tile.x) consecutive elements of one row (atax's x: 32 floats = 128 B). */
static uint64_t step_bytes(const ldesc_entry *e) {
    const locsim_ldesc *d = &e->d;
    uint64_t rows = (uint64_t)d->data_tile.y * d->data_tile.z;
    uint64_t elems = e->stride_bytes < e->tile_bytes ? rows : d->data_tile.x;
    return min_u64(elems, LDESC_PF_WARP) * d->elem_size;
}

/* The stream an access of a stride pattern belongs to: its D-Tile row when the
 * stride walks along the rows, else its D-Tile and line-wide column. */
static uint64_t stream_key(const ldesc_entry *e, uint64_t addr, uint64_t dtile_bytes, uint32_t line) {
    uint64_t off = addr - e->lo;
    if (e->stride_bytes < e->tile_bytes) return off / e->tile_bytes;
    return off / dtile_bytes * (e->tile_bytes / line + 1) + off % e->tile_bytes / line;
}

/* Is target past its stream's front (not asked for yet)?  Then it becomes the
 * front.  A miss of a warp behind the stream's leading warp (the L1 dropped a
 * line the leader fetched) names a target the leader's miss already asked for:
 * asking again would only find it cached or in flight, or fetch again a line
 * that did not survive in the L1. */
static int past_front(ldesc_pf *p, const ldesc_entry *e, uint64_t key, uint64_t target) {
    uint64_t h = (key * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(uint32_t)e->id * 0xc2b2ae3d27d4eb4full);
    struct pf_front *f = &p->fronts[(h >> 17) % p->nfronts];
    int fwd = e->d.stride >= 0;
    if (f->valid && f->id == e->id && f->key == key && (fwd ? target <= f->front : target >= f->front)) return 0;
    f->valid = 1, f->id = e->id, f->key = key, f->front = target;
    return 1;
}

static uint32_t lpf_access(void *st, const prefetch_access *a, uint64_t now, uint64_t *out, uint32_t cap) {
    (void)now;
    ldesc_pf *p = st;
    if (!triggers(a) || !cap || mem_access_is_local(a->type)) return 0;
    const ldesc_entry *e = ldesc_lookup(p->set, a->addr);
    if (!e || !(e->d.type & LOCSIM_LDESC_INTER_THREAD)) return 0;
    uint64_t target;
    int nearby = e->d.sharing == LOCSIM_LDESC_NEARBY;
    if (nearby) {
        target = (a->addr & ~(uint64_t)(p->line - 1)) + p->line;
    } else if (e->d.pattern == LOCSIM_LDESC_REGULAR && e->stride_bytes && e->tile_bytes) {
        uint64_t dtile_bytes = e->tile_bytes * e->d.data_tile.y * e->d.data_tile.z;
        uint32_t active = active_tiles(p, e->id, (a->addr - e->lo) / dtile_bytes);
        uint64_t dist = p->l1_bytes / ((uint64_t)active * step_bytes(e)) * e->stride_bytes;
        if (dist < p->line) dist = p->line;   /* past the line in flight */
        if (e->d.stride < 0 && dist > a->addr) return 0;
        target = e->d.stride < 0 ? a->addr - dist : a->addr + dist;
        if (target < e->lo || target >= e->hi) return 0;
        if (!past_front(p, e, stream_key(e, a->addr, dtile_bytes, p->line), target)) {
            p->behind++;
            return 0;
        }
    } else {
        return 0;
    }
    if (target < e->lo || target >= e->hi) return 0;
    if (nearby) p->nearby++;
    else p->strided++;
    p->trig_pf += a->useful || a->late;
    out[0] = target;
    return 1;
}

static const prefetch_stat_def lpf_stats[] = {
    {"ldesc_pf_nearby", NULL, NULL, 0, "next-line candidates for NEARBY INTER_THREAD data (before the cache's filter)"},
    {"ldesc_pf_strided", NULL, NULL, 0, "stride candidates for COACCESSED REGULAR INTER_THREAD data"},
    {"ldesc_pf_behind_front", NULL, NULL, 0,
     "stride targets not produced: not past the furthest target already asked for in their stream"},
    {"ldesc_pf_from_prefetched", NULL, NULL, 0,
     "candidates whose trigger was the first demand touch of a prefetched line (the rest: misses)"},
    {NULL, NULL, NULL, 0, NULL},
};

static void lpf_report(const void *st, void (*emit)(void *, const char *, double), void *ctx) {
    const ldesc_pf *p = st;
    emit(ctx, "ldesc_pf_nearby", (double)p->nearby);
    emit(ctx, "ldesc_pf_strided", (double)p->strided);
    emit(ctx, "ldesc_pf_from_prefetched", (double)p->trig_pf);
    emit(ctx, "ldesc_pf_behind_front", (double)p->behind);
}

const prefetch_ops prefetch_ldesc = {
    .name = "ldesc",
    .help = "Locality Descriptor prefetcher: on a miss to INTER_THREAD data, the next line (NEARBY) or "
            "address + L1/(active tiles x bytes a warp touches per step) x stride, at least a line "
            "(COACCESSED REGULAR) (docs/ldesc.md)",
    .create = lpf_create,
    .destroy = lpf_destroy,
    .on_access = lpf_access,
    .report = lpf_report,
    .stats = lpf_stats,
    .kernel_begin = lpf_kernel_begin,
};
