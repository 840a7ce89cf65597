/* Placement 'ldesc' (the Locality Descriptor paper's §4.6, Algorithm 2): per
 * descriptor, the zone of an address is bits [b, b + log2 N) of its offset in
 * the data structure, b in 7..16 chosen per descriptor; the grid is partitioned
 * so that each C-Tile runs in the zone holding its D-Tile.  Algorithm 2 picks,
 * for the highest-priority descriptor, the b whose partition (NUMA_PART) gives
 * the best utility summed with the best b of every other descriptor under that
 * same partition (COMP_UTIL).  Within each zone, CTAs are taken in the clusters
 * of Algorithm 1 (every locality type, docs/ldesc.md).  Addresses outside every
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
 *    weight of descriptor i (1 = highest) is N_desc - i + 1, as its line 12. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldesc/ldesc.h"
#include "numa/numa.h"

#define BIT_LO 7
#define BIT_HI 16

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

/* Bytes of the D-Tile in zone z when bits [b, b + zb) of the offset index the
 * zone.  Rows repeat their zone pattern every period / gcd(pitch, period) rows
 * (period = 2^(b+zb)), so only one cycle of rows is counted. */
static uint64_t dtile_in_zone(const dtile *t, uint32_t b, uint32_t zb, uint32_t z) {
    uint64_t period = 1ull << (b + zb), step = t->pitch % period;
    uint64_t cycle = step ? period / gcd64(step, period) : 1;
    uint64_t n = t->rows < cycle ? t->rows : cycle, one = 0, part = 0;
    uint64_t rem = cycle ? t->rows % cycle : 0;
    for (uint64_t r = 0; r < n; r++) {
        uint64_t lo = t->lo + r * t->pitch, v = numa_bytes_in_zone(lo, lo + t->row_bytes, b, zb, z);
        one += v;
        if (r < rem) part += v;
    }
    uint64_t sum = t->rows <= cycle ? one : t->rows / cycle * one + part;
    if (t->tail) {
        uint64_t lo = t->lo + t->rows * t->pitch;
        sum += numa_bytes_in_zone(lo, lo + t->tail, b, zb, z);
    }
    return sum;
}

/* The D-Tile CTA id accesses under e (through its C-Tile and the map). */
static int cta_dtile(const ldesc_entry *e, locsim_dim3 grid, uint64_t id, dtile *t) {
    locsim_dim3 ct = ldesc_ctile_dims(e, grid);
    locsim_dim3 n = {(grid.x + ct.x - 1) / ct.x, (grid.y + ct.y - 1) / ct.y, (grid.z + ct.z - 1) / ct.z};
    uint64_t x = id % grid.x, y = (id / grid.x) % grid.y, z = id / ((uint64_t)grid.x * grid.y);
    locsim_dim3 c = {(uint32_t)(x / ct.x), (uint32_t)(y / ct.y), (uint32_t)(z / ct.z)};
    return dtile_at(e, ldesc_dtile_of_ctile(e, c, n), t);
}

/* NUMA_PART: each CTA to the zone holding most of its D-Tile under bit b. */
static void numa_part(const ldesc_entry *e, locsim_dim3 grid, uint64_t nctas, uint32_t zb, uint32_t b,
                      uint8_t *part) {
    uint32_t nz = 1u << zb;
    for (uint64_t id = 0; id < nctas; id++) {
        dtile t;
        part[id] = (uint8_t)(id * nz / nctas);
        if (!cta_dtile(e, grid, id, &t)) continue;
        /* ties keep the CTA's contiguous chunk, so a D-Tile spread evenly over
         * the zones (one tile for the whole grid) does not pile into zone 0 */
        uint64_t best = dtile_in_zone(&t, b, zb, part[id]);
        for (uint32_t z = 0; z < nz; z++) {
            uint64_t v = dtile_in_zone(&t, b, zb, z);
            if (v > best) best = v, part[id] = (uint8_t)z;
        }
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
static double comp_util(const ldesc_entry *e, locsim_dim3 grid, uint64_t nctas, uint32_t zb, uint32_t b,
                        const uint8_t *part) {
    double sum = 0;
    for (uint64_t id = 0; id < nctas; id++) {
        dtile t;
        if (cta_dtile(e, grid, id, &t) && dtile_bytes(&t))
            sum += (double)dtile_in_zone(&t, b, zb, part[id]) / (double)dtile_bytes(&t);
    }
    return nctas ? sum / (double)nctas : 0.0;
}

void numa_ldesc_plan_run(const ldesc_set *s, locsim_dim3 grid, uint64_t nctas, uint32_t zb, uint8_t *cta_zone,
                         uint8_t *scratch, numa_ldesc_plan *plan) {
    uint32_t nd = s->n;
    double best_all = -1.0;
    memset(plan, 0, sizeof *plan);
    for (uint32_t b_hi = BIT_LO; b_hi <= BIT_HI; b_hi++) {
        numa_part(&s->e[0], grid, nctas, zb, b_hi, scratch);
        double bal = balance(scratch, nctas, zb);
        double util = nd * bal * comp_util(&s->e[0], grid, nctas, zb, b_hi, scratch);
        uint8_t tmap[LOCSIM_LDESC_MAX] = {(uint8_t)b_hi};
        for (uint32_t i = 1; i < nd; i++) {
            double best = 0;
            tmap[i] = BIT_LO;
            for (uint32_t b_lo = BIT_LO; b_lo <= BIT_HI; b_lo++) {
                double u = (nd - i) * bal * comp_util(&s->e[i], grid, nctas, zb, b_lo, scratch);
                if (u > best) best = u, tmap[i] = (uint8_t)b_lo;
            }
            util += best;
        }
        if (util > best_all) {
            best_all = util;
            memcpy(plan->bit, tmap, sizeof tmap);
            plan->util = util;
            memcpy(cta_zone, scratch, nctas);
        }
    }
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
    numa_ldesc_plan_run(&s->set, L->grid, L->nctas, s->g.zone_bits, cta_zone, s->scratch, &s->plan);
    ldesc_clusters(&s->set, LOCSIM_LDESC_INTRA_THREAD | LOCSIM_LDESC_INTER_THREAD | LOCSIM_LDESC_NO_REUSE, L->grid,
                   s->g.sms_per_zone * s->g.nzones, cls);
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
    uint32_t b = s->plan.bit[e - s->set.e];
    uint64_t off = addr - e->lo;
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
