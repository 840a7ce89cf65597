/* Placement 'ldesc' (the Locality Descriptor paper's §4.6, Algorithm 2): per
 * descriptor, the zone of an address is bits [b, b + log2 N) of its offset in
 * the data structure, b in 7..16 chosen per descriptor, or (footnote 3: "we always
 * use bit 16/17 for granularities larger than 64KB as we can flexibly map virtual
 * pages to the desired NUMA zone using the page table") the zone the page table
 * gives each 64 KB page of the structure, any page to any zone; the grid is partitioned
 * so that each C-Tile runs in the zone holding its D-Tile.  Algorithm 2 picks,
 * for the highest-priority descriptor, the b whose partition (NUMA_PART) gives
 * the best utility summed with the best b of every other descriptor under that
 * same partition (COMP_UTIL).  Within each zone, CTAs are taken in the clusters
 * of Algorithm 1 run within that zone (every locality type, the zone's SMs and
 * its CTAs, §4.3; docs/ldesc.md).  Addresses outside every
 * descriptor, and launches without descriptors, fall back to the XOR hash.
 *
 * Readings of the paper's gaps (docs/numa.md):
 *  - the offset within the data structure stands for the physical address of a
 *    page-aligned structure (the paper has the runtime align them);
 *  - a D-Tile of several rows whose REGULAR stride is wider than the tile is a
 *    2-D block of a row-major structure `stride` elements wide (rows stride apart,
 *    the D-Tiles tiling the structure in X->Y order, as in the paper's histo
 *    descriptor, whose stride is the row length); any other D-Tile k covers bytes
 *    [k*T, (k+1)*T) of the structure, T = its elements x elem_size;
 *  - NUMA_PART puts a C-Tile in the zone holding most of its D-Tile's bytes (ties:
 *    its contiguous chunk's zone, id x N / CTAs, else the lowest); a C-Tile whose D-Tile lies past the structure's end goes to
 *    its contiguous chunk (CTA id x N / CTAs);
 *  - COMP_UTIL = (mean over CTAs of the share of its D-Tile's bytes in its zone)
 *    x balance, balance = (CTAs / N) / (CTAs of the fullest zone): the paper
 *    "favors parallelism over locality" and reports near-even distributions; the
 *    weight of descriptor i (1 = highest) is N_desc - i + 1, as its line 12;
 *  - the page table is one more mapping Algorithm 2 tries for every descriptor,
 *    after bits 7..16 (so it is taken only when strictly better).  Under a CTA
 *    partition each page goes to the zone whose CTAs' D-Tiles cover most of its
 *    bytes (ties: the lowest zone; a page no CTA touches: page index mod N).  As
 *    the highest-priority descriptor, NUMA_PART's "the zone where the D-Tile is
 *    placed" is then ours to choose: the D-Tiles the grid accesses, in index order,
 *    are cut into N equal runs, run z in zone z (the pages follow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldesc/ldesc.h"
#include "numa/numa.h"

#define BIT_LO 7
#define BIT_HI 16
#define PAGE_BITS 16   /* the page table's 64 KB pages (the paper's "page (typically 64KB)") */

typedef struct {
    numa_geom g;
    ldesc_set set;              /* the last launch's descriptors (n = 0: none) */
    numa_ldesc_plan plan;
    uint8_t *scratch;
    uint64_t scratch_n;
} ld_state;

static void *ld_create(const numa_geom *g, char *err, size_t errlen) {
    ld_state *s = calloc(1, sizeof *s);
    if (!s) snprintf(err, errlen, "out of memory");
    else s->g = *g;
    return s;
}

static void ld_destroy(void *st) {
    ld_state *s = st;
    numa_ldesc_plan_free(&s->plan);
    free(s->scratch);
    free(s);
}

/* The bytes one C-Tile's D-Tile covers: `rows` runs of row_bytes, `pitch` apart,
 * starting at offset lo (a contiguous D-Tile is one run). */
typedef struct {
    uint64_t lo, row_bytes, pitch, rows;
    uint64_t tail;              /* bytes of one more, clipped run at the structure's end */
} dtile;

/* D-Tile k of e.  A D-Tile of several rows (data_tile.y > 1, data_tile.z = 1) whose
 * REGULAR stride is wider than the tile is a 2-D block of a row-major structure
 * `stride` elements wide (the paper's histo descriptor: stride = the row length):
 * its rows are stride elements apart and the D-Tiles tile the structure in X->Y
 * order.  Any other D-Tile is data_tile.x x .y x .z consecutive elements.
 * 0 when the tile starts past the structure. */
static int dtile_at(const ldesc_entry *e, uint64_t k, dtile *t) {
    const locsim_ldesc *d = &e->d;
    uint64_t size = e->hi - e->lo, es = d->elem_size;
    memset(t, 0, sizeof *t);
    if (d->data_tile.y > 1 && d->data_tile.z == 1 && d->pattern == LOCSIM_LDESC_REGULAR &&
        d->stride > (int64_t)d->data_tile.x) {
        uint64_t w = (uint64_t)d->stride, tx = d->data_tile.x, ty = d->data_tile.y, per_row = w / tx;
        t->lo = ((k % per_row) * tx + (k / per_row) * ty * w) * es;
        t->row_bytes = tx * es;
        t->pitch = w * es;
        if (t->lo >= size) return 0;
        uint64_t fit = (size - t->lo) / t->pitch;             /* rows whose start leaves a pitch */
        if (size - t->lo - fit * t->pitch >= t->row_bytes) fit++;   /* the last row may still fit */
        t->rows = fit < ty ? fit : ty;
        if (t->rows < ty && t->lo + t->rows * t->pitch < size) t->tail = size - t->lo - t->rows * t->pitch;
        return 1;
    }
    uint64_t tb = (uint64_t)d->data_tile.x * d->data_tile.y * d->data_tile.z * es;
    if (tb == 0 || k >= size / tb + (size % tb != 0)) return 0;
    t->lo = k * tb;
    t->pitch = t->row_bytes = tb;
    if (t->lo + tb <= size) t->rows = 1;
    else t->tail = size - t->lo;
    return 1;
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return a;
}

static uint64_t dtile_bytes(const dtile *t) { return t->rows * t->row_bytes + t->tail; }

/* A mapping of a structure's offsets to zones: bits [b, b + zb), or with b =
 * NUMA_LDESC_PAGE_MAP the zone of each 64 KB page, page[offset >> 16]. */
typedef struct {
    uint32_t b;
    const uint8_t *page;
} zmap;

/* Bytes of offsets [lo, hi) in zone z under m. */
static uint64_t bytes_in_zone(const zmap *m, uint64_t lo, uint64_t hi, uint32_t zb, uint32_t z) {
    if (m->b != NUMA_LDESC_PAGE_MAP) return numa_bytes_in_zone(lo, hi, m->b, zb, z);
    uint64_t sum = 0;
    for (uint64_t p = lo >> PAGE_BITS; lo < hi; p++) {
        uint64_t end = (p + 1) << PAGE_BITS;
        if (end > hi) end = hi;
        if (m->page[p] == z) sum += end - lo;
        lo = end;
    }
    return sum;
}

/* Bytes of the D-Tile in zone z under m.  Under bits [b, b + zb) rows repeat
 * their zone pattern every period / gcd(pitch, period) rows (period =
 * 2^(b+zb)), so only one cycle of rows is counted; pages have no period. */
static uint64_t dtile_in_zone(const dtile *t, const zmap *m, uint32_t zb, uint32_t z) {
    uint64_t cycle = t->rows ? t->rows : 1;
    if (m->b != NUMA_LDESC_PAGE_MAP) {
        uint64_t period = 1ull << (m->b + zb), step = t->pitch % period;
        cycle = step ? period / gcd64(step, period) : 1;
    }
    uint64_t n = t->rows < cycle ? t->rows : cycle, one = 0, part = 0;
    uint64_t rem = cycle ? t->rows % cycle : 0;
    for (uint64_t r = 0; r < n; r++) {
        uint64_t lo = t->lo + r * t->pitch, v = bytes_in_zone(m, lo, lo + t->row_bytes, zb, z);
        one += v;
        if (r < rem) part += v;
    }
    uint64_t sum = t->rows <= cycle ? one : t->rows / cycle * one + part;
    if (t->tail) {
        uint64_t lo = t->lo + t->rows * t->pitch;
        sum += bytes_in_zone(m, lo, lo + t->tail, zb, z);
    }
    return sum;
}

/* The D-Tile CTA id accesses under e (through its C-Tile and the map); *k (if
 * not NULL) gets its index. */
static int cta_dtile(const ldesc_entry *e, locsim_dim3 grid, uint64_t id, dtile *t, uint64_t *k) {
    locsim_dim3 ct = ldesc_ctile_dims(e, grid);
    locsim_dim3 n = {(grid.x + ct.x - 1) / ct.x, (grid.y + ct.y - 1) / ct.y, (grid.z + ct.z - 1) / ct.z};
    uint64_t x = id % grid.x, y = (id / grid.x) % grid.y, z = id / ((uint64_t)grid.x * grid.y);
    locsim_dim3 c = {(uint32_t)(x / ct.x), (uint32_t)(y / ct.y), (uint32_t)(z / ct.z)};
    uint64_t idx = ldesc_dtile_of_ctile(e, c, n);
    if (k) *k = idx;
    return dtile_at(e, idx, t);
}

/* NUMA_PART: each CTA to the zone holding most of its D-Tile under m. */
static void numa_part(const ldesc_entry *e, locsim_dim3 grid, uint64_t nctas, uint32_t zb, const zmap *m,
                      uint8_t *part) {
    uint32_t nz = 1u << zb;
    for (uint64_t id = 0; id < nctas; id++) {
        dtile t;
        part[id] = (uint8_t)(id * nz / nctas);
        if (!cta_dtile(e, grid, id, &t, NULL)) continue;
        /* ties keep the CTA's contiguous chunk, so a D-Tile spread evenly over
         * the zones (one tile for the whole grid) does not pile into zone 0 */
        uint64_t best = dtile_in_zone(&t, m, zb, part[id]);
        for (uint32_t z = 0; z < nz; z++) {
            uint64_t v = dtile_in_zone(&t, m, zb, z);
            if (v > best) best = v, part[id] = (uint8_t)z;
        }
    }
}

/* NUMA_PART when the page table places the D-Tiles: the D-Tiles the grid
 * accesses, in index order, cut into nz equal runs; each CTA to its D-Tile's
 * run (a CTA whose D-Tile lies past the structure: its contiguous chunk). */
static void numa_part_pages(const ldesc_entry *e, locsim_dim3 grid, uint64_t nctas, uint32_t zb, uint8_t *part) {
    uint32_t nz = 1u << zb;
    uint64_t k, last = 0;
    dtile t;
    for (uint64_t id = 0; id < nctas; id++)
        if (cta_dtile(e, grid, id, &t, &k) && k > last) last = k;
    for (uint64_t id = 0; id < nctas; id++)
        part[id] = (uint8_t)(cta_dtile(e, grid, id, &t, &k) ? k * nz / (last + 1) : id * nz / nctas);
}

static uint64_t pages_of(const ldesc_entry *e) {
    return ((e->hi - e->lo) >> PAGE_BITS) + (((e->hi - e->lo) & ((1ull << PAGE_BITS) - 1)) != 0);
}

/* The pages of e a CTA partition leaves in each zone: page p to the zone whose
 * CTAs' D-Tiles cover most of its bytes (ties: the lowest; untouched: p mod nz).
 * count: npages x nz scratch. */
static void place_pages(const ldesc_entry *e, locsim_dim3 grid, uint64_t nctas, uint32_t zb, const uint8_t *part,
                        uint64_t *count, uint8_t *page) {
    uint32_t nz = 1u << zb;
    uint64_t npages = pages_of(e);
    memset(count, 0, npages * nz * sizeof *count);
    for (uint64_t id = 0; id < nctas; id++) {
        dtile t;
        if (!cta_dtile(e, grid, id, &t, NULL)) continue;
        for (uint64_t r = 0; r <= t.rows; r++) {   /* the rows, then the tail */
            uint64_t lo = t.lo + r * t.pitch, hi = lo + (r < t.rows ? t.row_bytes : t.tail);
            for (uint64_t p = lo >> PAGE_BITS; lo < hi; p++) {
                uint64_t end = (p + 1) << PAGE_BITS;
                if (end > hi) end = hi;
                count[p * nz + part[id]] += end - lo;
                lo = end;
            }
        }
    }
    for (uint64_t p = 0; p < npages; p++) {
        uint32_t best = (uint32_t)(p % nz);
        for (uint32_t z = 0; z < nz; z++)
            if (count[p * nz + z] > count[p * nz + best] ||
                (count[p * nz + z] && count[p * nz + z] == count[p * nz + best] && z < best))
                best = z;
        page[p] = (uint8_t)best;
    }
}

static double balance(const uint8_t *part, uint64_t nctas, uint32_t zb) {
    uint64_t cnt[NUMA_MAX_MODULES] = {0}, mx = 0;
    for (uint64_t id = 0; id < nctas; id++) cnt[part[id]]++;
    for (uint32_t z = 0; z < (1u << zb); z++)
        if (cnt[z] > mx) mx = cnt[z];
    return mx ? (double)nctas / (double)(1u << zb) / (double)mx : 0.0;
}

/* COMP_UTIL without the weight: the mean local share of the CTAs' D-Tiles. */
static double comp_util(const ldesc_entry *e, locsim_dim3 grid, uint64_t nctas, uint32_t zb, const zmap *m,
                        const uint8_t *part) {
    double sum = 0;
    for (uint64_t id = 0; id < nctas; id++) {
        dtile t;
        if (cta_dtile(e, grid, id, &t, NULL) && dtile_bytes(&t))
            sum += (double)dtile_in_zone(&t, m, zb, part[id]) / (double)dtile_bytes(&t);
    }
    return nctas ? sum / (double)nctas : 0.0;
}

void numa_ldesc_plan_free(numa_ldesc_plan *plan) {
    for (uint32_t i = 0; i < LOCSIM_LDESC_MAX; i++) {
        free(plan->page[i]);
        free(plan->rank[i]);
        plan->page[i] = NULL;
        plan->rank[i] = NULL;
    }
}

/* The page tables Algorithm 2 tries: trial[i] per descriptor, the final ones in
 * plan (page and rank), the per-zone byte counts of the largest structure.  0:
 * out of host memory (then only the bits are tried). */
static int pages_alloc(const ldesc_set *s, uint32_t nz, uint8_t **trial, numa_ldesc_plan *plan, uint64_t **count) {
    uint64_t most = 0;
    int ok = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t np = pages_of(&s->e[i]);
        if (np > most) most = np;
        trial[i] = malloc(np);
        plan->page[i] = malloc(np);
        plan->rank[i] = malloc(np * sizeof *plan->rank[i]);
        ok &= trial[i] && plan->page[i] && plan->rank[i];
    }
    *count = malloc(most * nz * sizeof **count);
    return ok && *count;
}

/* Each page's index among the structure's pages in its zone: the page's place
 * in the zone's memory (the zone-local address). */
static void rank_pages(const ldesc_entry *e, const uint8_t *page, uint32_t *rank) {
    uint32_t next[NUMA_MAX_MODULES] = {0};
    for (uint64_t p = 0; p < pages_of(e); p++) rank[p] = next[page[p]]++;
}

/* The best mapping of descriptor i > 0 under the partition part; *map gets it. */
static double best_lower(const ldesc_set *s, uint32_t i, locsim_dim3 grid, uint64_t nctas, uint32_t zb,
                         const uint8_t *part, double bal, int paged_ok, uint8_t *trial, uint64_t *count,
                         uint8_t *map) {
    double best = 0;
    uint32_t nd = s->n;
    *map = BIT_LO;
    for (uint32_t b_lo = BIT_LO; b_lo <= BIT_HI + 1; b_lo++) {   /* BIT_HI + 1: the page table */
        zmap m = {b_lo, trial};
        if (b_lo > BIT_HI) {
            if (!paged_ok) break;
            m.b = NUMA_LDESC_PAGE_MAP;
            place_pages(&s->e[i], grid, nctas, zb, part, count, trial);
        }
        double u = (nd - i) * bal * comp_util(&s->e[i], grid, nctas, zb, &m, part);
        if (u > best) best = u, *map = (uint8_t)m.b;
    }
    return best;
}

void numa_ldesc_plan_run(const ldesc_set *s, locsim_dim3 grid, uint64_t nctas, uint32_t zb, uint8_t *cta_zone,
                         uint8_t *scratch, numa_ldesc_plan *plan) {
    uint32_t nd = s->n;
    double best_all = -1.0;
    uint8_t *trial[LOCSIM_LDESC_MAX] = {0};
    uint64_t *count = NULL;
    memset(plan, 0, sizeof *plan);
    int paged_ok = pages_alloc(s, 1u << zb, trial, plan, &count);
    for (uint32_t b_hi = BIT_LO; b_hi <= BIT_HI + 1; b_hi++) {   /* BIT_HI + 1: the page table */
        zmap m0 = {b_hi, trial[0]};
        if (b_hi > BIT_HI) {
            if (!paged_ok) break;
            m0.b = NUMA_LDESC_PAGE_MAP;
            numa_part_pages(&s->e[0], grid, nctas, zb, scratch);
            place_pages(&s->e[0], grid, nctas, zb, scratch, count, trial[0]);
        } else {
            numa_part(&s->e[0], grid, nctas, zb, &m0, scratch);
        }
        double bal = balance(scratch, nctas, zb);
        double util = nd * bal * comp_util(&s->e[0], grid, nctas, zb, &m0, scratch);
        uint8_t tmap[LOCSIM_LDESC_MAX] = {(uint8_t)m0.b};
        for (uint32_t i = 1; i < nd; i++)
            util += best_lower(s, i, grid, nctas, zb, scratch, bal, paged_ok, trial[i], count, &tmap[i]);
        if (util > best_all) {
            best_all = util;
            memcpy(plan->bit, tmap, sizeof tmap);
            plan->util = util;
            memcpy(cta_zone, scratch, nctas);
            /* a trial page table holds this partition's pages: the page
             * mapping is the last each descriptor tried */
            for (uint32_t i = 0; i < nd; i++)
                if (tmap[i] == NUMA_LDESC_PAGE_MAP) memcpy(plan->page[i], trial[i], pages_of(&s->e[i]));
        }
    }
    for (uint32_t i = 0; i < LOCSIM_LDESC_MAX; i++) {
        free(trial[i]);
        if (i < nd && plan->bit[i] == NUMA_LDESC_PAGE_MAP) {
            rank_pages(&s->e[i], plan->page[i], plan->rank[i]);
        } else {
            free(plan->page[i]), plan->page[i] = NULL;
            free(plan->rank[i]), plan->rank[i] = NULL;
        }
    }
    free(count);
}

static int ld_kernel_begin(void *st, const numa_launch *L, uint8_t *cta_zone, locsim_dim3 *cls) {
    ld_state *s = st;
    if (!L->ldesc || !L->ldesc->n) {
        s->set.n = 0;
        return 0;
    }
    if (s->scratch_n < L->nctas) {
        uint8_t *p = realloc(s->scratch, L->nctas);
        if (!p) {   /* out of host memory: place by hash, schedule as configured */
            s->set.n = 0;
            return 0;
        }
        s->scratch = p;
        s->scratch_n = L->nctas;
    }
    s->set = *L->ldesc;
    numa_ldesc_plan_free(&s->plan);
    numa_ldesc_plan_run(&s->set, L->grid, L->nctas, s->g.zone_bits, cta_zone, s->scratch, &s->plan);
    for (uint32_t z = 0; z < s->g.nzones; z++)
        ldesc_clusters_zone(&s->set, LOCSIM_LDESC_INTRA_THREAD | LOCSIM_LDESC_INTER_THREAD | LOCSIM_LDESC_NO_REUSE,
                            L->grid, cta_zone, (uint8_t)z, s->g.sms_per_zone, &cls[z]);
    return 1;
}

static uint32_t ld_zone_of(void *st, uint64_t addr, uint32_t from, int touch, uint64_t *local) {
    (void)from;
    (void)touch;
    const ld_state *s = st;
    const ldesc_entry *e = ldesc_lookup(s->set.n ? &s->set : NULL, addr);
    if (!e) {
        *local = numa_squeeze(addr, 7, s->g.zone_bits);
        return numa_xor_zone(addr, s->g.zone_bits);
    }
    uint32_t i = (uint32_t)(e - s->set.e), b = s->plan.bit[i];
    uint64_t off = addr - e->lo;
    if (b == NUMA_LDESC_PAGE_MAP) {   /* footnote 3: the page table; pages of a zone packed in order */
        uint64_t p = off >> PAGE_BITS;
        *local = e->lo + ((uint64_t)s->plan.rank[i][p] << PAGE_BITS) + (off & ((1ull << PAGE_BITS) - 1));
        return s->plan.page[i][p];
    }
    *local = e->lo + numa_squeeze(off, b, s->g.zone_bits);
    return (uint32_t)(off >> b) & (s->g.nzones - 1);
}

const numa_place_ops numa_place_ldesc = {
    .name = "ldesc",
    .help = "Locality Descriptor placement (Algorithm 2): per-descriptor zone bits in 7..16 and the matching CTA partition",
    .create = ld_create,
    .destroy = ld_destroy,
    .kernel_begin = ld_kernel_begin,
    .zone_of = ld_zone_of,
};
