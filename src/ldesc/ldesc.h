/* Locality Descriptors inside the simulator (docs/ldesc.md).
 *
 * The runtime keeps the descriptors a program attached (locsim_ldesc_attach) as
 * an ldesc_set: a snapshot, sorted by priority, that every launch carries
 * (exec_launch.ldesc; NULL when none are attached, so runs without descriptors
 * never look at it).  Its users:
 *   - the CTA scheduler 'ldesc' forms CTA clusters with ldesc_clusters (the
 *     paper's Algorithm 1);
 *   - the L1D policy 'ldesc' finds the descriptor of an address with
 *     ldesc_lookup (bypass, hard and soft pinning, per-descriptor statistics);
 *   - the prefetcher and NUMA placement use the tile helpers below.
 */
#ifndef LOCSIM_LDESC_H
#define LOCSIM_LDESC_H

#include <stddef.h>
#include <stdint.h>

#include "locsim/locsim.h"

typedef struct ldesc_entry {
    locsim_ldesc d;
    int id;                  /* the number locsim_ldesc_attach returned (statistics index) */
    uint64_t lo, hi;         /* [base, base + size) */
    uint64_t tile_bytes;     /* D-Tile width in bytes: data_tile.x * elem_size */
    uint64_t stride_bytes;   /* |stride| * elem_size */
} ldesc_entry;

typedef struct ldesc_set {
    uint32_t n;
    uint64_t lo, hi;         /* the smallest range covering every entry (quick reject) */
    ldesc_entry e[LOCSIM_LDESC_MAX];   /* device memory; highest priority first, equal priorities by id */
    /* descriptors of LOCSIM_LDESC_LOCAL space (lo, hi: offsets in each thread's
     * local memory), apart so that the CTA scheduler, the prefetcher and NUMA
     * placement, which read e[], never see them; same order */
    uint32_t nlocal;
    ldesc_entry local[LOCSIM_LDESC_MAX];
} ldesc_set;

/* The highest-priority descriptor whose range holds addr, or NULL. */
static inline const ldesc_entry *ldesc_lookup(const ldesc_set *s, uint64_t addr) {
    if (!s || addr < s->lo || addr >= s->hi) return NULL;
    for (uint32_t i = 0; i < s->n; i++)
        if (addr >= s->e[i].lo && addr < s->e[i].hi) return &s->e[i];
    return NULL;
}

/* The highest-priority LOCAL descriptor that overlaps the local-memory word at
 * byte offset word_off (a multiple of 4) of a thread, or NULL.  Local memory is
 * interleaved word by word across threads (src/core/ldst.c), so an L1D line of
 * local data holds one word of each of 32 threads: the word is what a line can
 * be matched by. */
static inline const ldesc_entry *ldesc_lookup_local(const ldesc_set *s, uint64_t word_off) {
    if (!s) return NULL;
    for (uint32_t i = 0; i < s->nlocal; i++)
        if (word_off + 4 > s->local[i].lo && word_off < s->local[i].hi) return &s->local[i];
    return NULL;
}

/* The checks that need no device: type, tiles, map, semantics.  0, or -1 with
 * a message naming the field in err. */
int ldesc_validate(const locsim_ldesc *d, char *err, size_t errlen);

/* Rebuild s from the attached descriptors (slots with used[i] != 0). */
void ldesc_set_build(ldesc_set *s, const locsim_ldesc *slots, const uint8_t *used, uint32_t nslots);

/* C-Tile dimensions of e for a grid: compute_tile clamped to the grid. */
locsim_dim3 ldesc_ctile_dims(const ldesc_entry *e, locsim_dim3 grid);
/* Tiles of size t needed to cover the grid (ceil per dimension, multiplied). */
uint64_t ldesc_tile_count(locsim_dim3 t, locsim_dim3 grid);

/* Algorithm 1 (§4.3): the CTA cluster dimensions for a grid on num_sms SMs,
 * from the descriptors whose type has a bit of type_mask (single chip:
 * LOCSIM_LDESC_INTER_THREAD, as the paper's Figure 11 says; a NUMA zone: every
 * type).  Returns the number of descriptors used (0: none apply, *cls is the
 * grid's single-CTA tile (1,1,1)). */
uint32_t ldesc_clusters(const ldesc_set *s, uint32_t type_mask, locsim_dim3 grid, uint32_t num_sms,
                        locsim_dim3 *cls);
/* Algorithm 1 within one NUMA zone (§4.3: "we first partition the CTAs across
 * the different NUMA zones, and then use Algorithm 1 within each NUMA zone"): as
 * ldesc_clusters, with num_sms the zone's SMs and CT_NUM counting only the tiles
 * that hold at least one of the zone's CTAs (cta_zone[id] == zone, id over the
 * grid). */
uint32_t ldesc_clusters_zone(const ldesc_set *s, uint32_t type_mask, locsim_dim3 grid, const uint8_t *cta_zone,
                             uint8_t zone, uint32_t num_sms, locsim_dim3 *cls);

/* The D-Tile (index in X->Y->Z order) that the C-Tile at tile coordinates c
 * accesses, by the descriptor's compute-data map; the C-Tile grid has n tiles
 * per dimension (ldesc_ctile_dims and the grid give it). */
uint64_t ldesc_dtile_of_ctile(const ldesc_entry *e, locsim_dim3 c, locsim_dim3 n);

#endif
