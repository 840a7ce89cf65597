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
 *                           target must lie inside the data structure;
 *   COACCESSED, IRREGULAR   nothing (soft pinning handles it).
 * The cache counts issued / useful / late prefetches (cache_prefetch_counters);
 * this prefetcher adds how many candidates each rule produced. */
#include <stdlib.h>

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
} ldesc_pf;

static void *lpf_create(const prefetch_config *cfg, char *err, size_t errlen) {
    (void)err, (void)errlen;
    ldesc_pf *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->line = cfg->line_size;
    p->l1_bytes = cfg->cache_bytes;
    return p;
}

static void lpf_kernel_begin(void *st, const ldesc_set *hints) {
    ldesc_pf *p = st;
    p->set = hints;
    p->nrecent = p->next = 0;
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
    } else {
        return 0;
    }
    if (target < e->lo || target >= e->hi) return 0;
    if (nearby) p->nearby++;
    else p->strided++;
    out[0] = target;
    return 1;
}

static const prefetch_stat_def lpf_stats[] = {
    {"ldesc_pf_nearby", NULL, NULL, 0, "next-line candidates for NEARBY INTER_THREAD data (before the cache's filter)"},
    {"ldesc_pf_strided", NULL, NULL, 0, "stride candidates for COACCESSED REGULAR INTER_THREAD data"},
    {NULL, NULL, NULL, 0, NULL},
};

static void lpf_report(const void *st, void (*emit)(void *, const char *, double), void *ctx) {
    const ldesc_pf *p = st;
    emit(ctx, "ldesc_pf_nearby", (double)p->nearby);
    emit(ctx, "ldesc_pf_strided", (double)p->strided);
}

const prefetch_ops prefetch_ldesc = {
    .name = "ldesc",
    .help = "Locality Descriptor prefetcher: on a miss to INTER_THREAD data, the next line (NEARBY) or "
            "address + L1/(active tiles x bytes a warp touches per step) x stride, at least a line "
            "(COACCESSED REGULAR) (docs/ldesc.md)",
    .create = lpf_create,
    .destroy = free,
    .on_access = lpf_access,
    .report = lpf_report,
    .stats = lpf_stats,
    .kernel_begin = lpf_kernel_begin,
};
