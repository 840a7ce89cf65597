/* Locality Descriptors: validation, the priority-sorted set, Algorithm 1 and the
 * tile helpers (ldesc.h; docs/ldesc.md says how the paper's gaps were filled). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldesc/ldesc.h"

#define KNOWN_TYPES (LOCSIM_LDESC_INTRA_THREAD | LOCSIM_LDESC_INTER_THREAD | LOCSIM_LDESC_NO_REUSE)

/* |stride| in elements, without negating INT64_MIN (undefined as an int64_t). */
static uint64_t stride_magnitude(int64_t stride) { return stride < 0 ? 0 - (uint64_t)stride : (uint64_t)stride; }

static int dims_zero(locsim_dim3 t) { return !t.x || !t.y || !t.z; }

/* map: the non-zero ranks must be 1..k, each once (k = how many are non-zero). */
static int map_ok(locsim_dim3 m) {
    uint32_t r[3] = {m.x, m.y, m.z}, seen = 0, k = 0;
    for (int i = 0; i < 3; i++) {
        if (!r[i]) continue;
        if (r[i] > 3 || (seen & (1u << r[i]))) return 0;
        seen |= 1u << r[i];
        k++;
    }
    for (uint32_t i = 1; i <= k; i++)
        if (!(seen & (1u << i))) return 0;
    return 1;
}

int ldesc_validate(const locsim_ldesc *d, char *err, size_t errlen) {
    if (!d) return snprintf(err, errlen, "descriptor is NULL"), -1;
    if (!d->size) return snprintf(err, errlen, "size is 0 (the data structure's bytes)"), -1;
    if (!d->type || (d->type & ~(uint32_t)KNOWN_TYPES))
        return snprintf(err, errlen,
                        "type 0x%x: expected INTRA_THREAD (1), INTER_THREAD (2) and/or NO_REUSE (4)", d->type), -1;
    if ((d->type & LOCSIM_LDESC_NO_REUSE) && d->type != LOCSIM_LDESC_NO_REUSE)
        return snprintf(err, errlen, "type 0x%x: NO_REUSE contradicts INTRA_THREAD/INTER_THREAD in one descriptor",
                        d->type), -1;
    if (!d->elem_size) return snprintf(err, errlen, "elem_size is 0 (bytes per data element)"), -1;
    if (dims_zero(d->data_tile))
        return snprintf(err, errlen, "data_tile (%u,%u,%u): every dimension must be at least 1", d->data_tile.x,
                        d->data_tile.y, d->data_tile.z), -1;
    if (dims_zero(d->compute_tile))
        return snprintf(err, errlen, "compute_tile (%u,%u,%u): every dimension must be at least 1 CTA",
                        d->compute_tile.x, d->compute_tile.y, d->compute_tile.z), -1;
    uint64_t tile = (uint64_t)d->data_tile.x * d->data_tile.y * d->data_tile.z * d->elem_size;
    if (tile > d->size)
        return snprintf(err, errlen, "data_tile (%u,%u,%u) x %u B = %llu B is larger than the data structure (%llu B)",
                        d->data_tile.x, d->data_tile.y, d->data_tile.z, d->elem_size, (unsigned long long)tile,
                        (unsigned long long)d->size), -1;
    if (stride_magnitude(d->stride) > UINT64_MAX / d->elem_size)
        return snprintf(err, errlen, "stride %lld elements of %u B: the distance in bytes does not fit in 64 bits",
                        (long long)d->stride, d->elem_size), -1;
    if (!map_ok(d->map))
        return snprintf(err, errlen, "map (%u,%u,%u): the non-zero entries must rank the traversed dimensions 1..k",
                        d->map.x, d->map.y, d->map.z), -1;
    if (d->sharing != LOCSIM_LDESC_COACCESSED && d->sharing != LOCSIM_LDESC_NEARBY)
        return snprintf(err, errlen, "sharing %d: expected COACCESSED (0) or NEARBY (1)", (int)d->sharing), -1;
    if (d->pattern != LOCSIM_LDESC_REGULAR && d->pattern != LOCSIM_LDESC_IRREGULAR)
        return snprintf(err, errlen, "pattern %d: expected REGULAR (0) or IRREGULAR (1)", (int)d->pattern), -1;
    if (d->space != LOCSIM_LDESC_GLOBAL && d->space != LOCSIM_LDESC_LOCAL)
        return snprintf(err, errlen, "space %d: expected GLOBAL (0) or LOCAL (1)", (int)d->space), -1;
    if (d->space == LOCSIM_LDESC_LOCAL) {
        /* a thread's local memory is its own: no other thread can share it */
        if (d->type & LOCSIM_LDESC_INTER_THREAD)
            return snprintf(err, errlen, "type 0x%x: local memory is private to each thread, INTER_THREAD cannot apply",
                            d->type), -1;
        if (d->base >= LOCSIM_LDESC_LOCAL_MAX || d->size > LOCSIM_LDESC_LOCAL_MAX - d->base)
            return snprintf(err, errlen, "local range [%llu, +%llu) is past a thread's %u bytes of local memory",
                            (unsigned long long)d->base, (unsigned long long)d->size, LOCSIM_LDESC_LOCAL_MAX), -1;
    }
    return 0;
}

/* Insert e into list[0..*n) by priority (higher first); equal priorities keep id order. */
static void insert_sorted(ldesc_entry *list, uint32_t *n, const ldesc_entry *e) {
    uint32_t k = *n;
    while (k > 0 && list[k - 1].d.priority < e->d.priority) {
        list[k] = list[k - 1];
        k--;
    }
    list[k] = *e;
    (*n)++;
}

void ldesc_set_build(ldesc_set *s, const locsim_ldesc *slots, const uint8_t *used, uint32_t nslots) {
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < nslots && s->n + s->nlocal < LOCSIM_LDESC_MAX; i++) {
        if (!used[i]) continue;
        ldesc_entry e = {.d = slots[i], .id = (int)i, .lo = slots[i].base, .hi = slots[i].base + slots[i].size};
        e.tile_bytes = (uint64_t)e.d.data_tile.x * e.d.elem_size;
        e.stride_bytes = stride_magnitude(e.d.stride) * e.d.elem_size;
        if (e.d.space == LOCSIM_LDESC_LOCAL) insert_sorted(s->local, &s->nlocal, &e);
        else insert_sorted(s->e, &s->n, &e);
    }
    for (uint32_t i = 0; i < s->n; i++) {
        if (!i || s->e[i].lo < s->lo) s->lo = s->e[i].lo;
        if (s->e[i].hi > s->hi) s->hi = s->e[i].hi;
    }
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

locsim_dim3 ldesc_ctile_dims(const ldesc_entry *e, locsim_dim3 grid) {
    locsim_dim3 t = {min_u32(e->d.compute_tile.x, grid.x), min_u32(e->d.compute_tile.y, grid.y),
                     min_u32(e->d.compute_tile.z, grid.z)};
    return t;
}

uint64_t ldesc_tile_count(locsim_dim3 t, locsim_dim3 grid) {
    return (uint64_t)ceil_div(grid.x, t.x) * ceil_div(grid.y, t.y) * ceil_div(grid.z, t.z);
}

/* Where Algorithm 1 counts C-Tiles (its CT_NUM): the whole grid, or only the
 * tiles that hold at least one CTA of one NUMA zone (cta_zone[id] == zone). */
typedef struct {
    locsim_dim3 grid;
    const uint8_t *cta_zone;   /* NULL: the whole grid */
    uint8_t zone;
} tile_scope;

/* CT_NUM: the tiles of shape t in the scope. */
static uint64_t scope_count(const tile_scope *sc, locsim_dim3 t) {
    uint64_t all = ldesc_tile_count(t, sc->grid);
    if (!sc->cta_zone) return all;
    uint8_t *seen = calloc(all, 1);
    if (!seen) return all;   /* out of host memory: count the grid's tiles */
    uint64_t nx = ceil_div(sc->grid.x, t.x), ny = ceil_div(sc->grid.y, t.y), n = 0;
    uint64_t nctas = (uint64_t)sc->grid.x * sc->grid.y * sc->grid.z;
    for (uint64_t id = 0; id < nctas; id++) {
        if (sc->cta_zone[id] != sc->zone) continue;
        uint64_t x = id % sc->grid.x, y = id / sc->grid.x % sc->grid.y, z = id / ((uint64_t)sc->grid.x * sc->grid.y);
        uint64_t k = x / t.x + nx * (y / t.y + ny * (z / t.z));
        n += !seen[k];
        seen[k] = 1;
    }
    free(seen);
    return n;
}

/* Step 1 of Algorithm 1 for one descriptor: halve the C-Tile along its largest
 * dimension (the lowest of equal ones) until the scope holds at least num_sms
 * C-Tiles or the tile is one CTA.  Halving rounds up, so a dimension of 5 CTAs
 * becomes 3 (tiles of 3 and 2). */
static locsim_dim3 split(locsim_dim3 t, const tile_scope *sc, uint32_t num_sms) {
    while (scope_count(sc, t) < num_sms && (t.x > 1 || t.y > 1 || t.z > 1)) {
        uint32_t *d = &t.x;
        if (t.y > *d) d = &t.y;
        if (t.z > *d) d = &t.z;
        *d = ceil_div(*d, 2);
    }
    return t;
}

static uint32_t clusters_in(const ldesc_set *s, uint32_t type_mask, const tile_scope *sc, uint32_t num_sms,
                            locsim_dim3 *cls) {
    locsim_dim3 one = {1, 1, 1};
    *cls = one;
    uint32_t used = 0;
    for (uint32_t i = 0; s && i < s->n; i++) {   /* s is sorted by priority, highest first */
        if (!(s->e[i].d.type & type_mask)) continue;
        locsim_dim3 ct = split(ldesc_ctile_dims(&s->e[i], sc->grid), sc, num_sms);
        if (!used++) {
            *cls = ct;   /* line 8: the highest-priority descriptor's C-Tiles */
            continue;
        }
        /* lines 10-15: grow the cluster by whole multiples of this descriptor's
         * C-Tile where it is larger, if enough clusters remain for every SM */
        locsim_dim3 m = *cls;
        uint32_t f;
        f = ct.x / cls->x, m.x = cls->x * (f > 1 ? f : 1);
        f = ct.y / cls->y, m.y = cls->y * (f > 1 ? f : 1);
        f = ct.z / cls->z, m.z = cls->z * (f > 1 ? f : 1);
        if (scope_count(sc, m) >= num_sms) *cls = m;
    }
    return used;
}

uint32_t ldesc_clusters(const ldesc_set *s, uint32_t type_mask, locsim_dim3 grid, uint32_t num_sms,
                        locsim_dim3 *cls) {
    tile_scope sc = {.grid = grid};
    return clusters_in(s, type_mask, &sc, num_sms, cls);
}

uint32_t ldesc_clusters_zone(const ldesc_set *s, uint32_t type_mask, locsim_dim3 grid, const uint8_t *cta_zone,
                             uint8_t zone, uint32_t num_sms, locsim_dim3 *cls) {
    tile_scope sc = {.grid = grid, .cta_zone = cta_zone, .zone = zone};
    return clusters_in(s, type_mask, &sc, num_sms, cls);
}

uint64_t ldesc_dtile_of_ctile(const ldesc_entry *e, locsim_dim3 c, locsim_dim3 n) {
    const uint32_t rank[3] = {e->d.map.x, e->d.map.y, e->d.map.z};
    const uint32_t coord[3] = {c.x, c.y, c.z}, count[3] = {n.x, n.y, n.z};
    uint64_t idx = 0, scale = 1;
    for (uint32_t r = 1; r <= 3; r++)   /* rank 1 varies fastest */
        for (int d = 0; d < 3; d++)
            if (rank[d] == r) {
                idx += coord[d] * scale;
                scale *= count[d];
            }
    return idx;
}
