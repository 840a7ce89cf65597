/* The Locality Descriptor CTA scheduler (Vijaykumar et al., §4.3; docs/ldesc.md).
 *
 * At the launch, Algorithm 1 (src/ldesc/ldesc.c) turns the INTER_THREAD
 * descriptors' C-Tiles into a cluster shape: split each C-Tile in two until the
 * grid holds one per SM, start from the highest-priority descriptor's tiles and
 * merge lower-priority descriptors' tiles while enough clusters remain.  The grid
 * is cut into clusters of that shape (clipped at its edges), numbered X -> Y -> Z.
 *
 * Scheduling: an SM with room takes the next CTA (linear order inside the
 * cluster, x fastest) of the cluster it holds; when its cluster is used up it is
 * given the next unassigned cluster (SMs in the order they ask).  Once no
 * unassigned cluster is left, an SM without work takes the last remaining CTA of
 * the cluster with the most CTAs left (lowest SM on ties), as the paper spreads
 * the last C-Tile over several SMs to keep them busy (Fig. 12).
 *
 * A kernel without INTER_THREAD descriptors is scheduled as 'rr' does. */
#include <stdio.h>
#include <stdlib.h>

#include "cta/cta_sched.h"
#include "ldesc/ldesc.h"

typedef struct {
    locsim_dim3 grid, cls, ncls;   /* grid, cluster shape, clusters per dimension */
    uint64_t nclusters, next_cluster;
    uint64_t next_cta, nctas;      /* round-robin fallback (no descriptor applies) */
    uint32_t num_sms;
    uint8_t rr;
    struct held {
        uint64_t cluster;          /* the SM's cluster */
        locsim_dim3 o, w;          /* its origin and (clipped) extent */
        uint64_t cur, end;         /* CTAs [cur, end) of it (in-cluster order) not yet given */
    } sm[];
} ldesc_cta_state;

static void *ldesc_create(const cta_sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "CTA scheduler 'ldesc' takes no arguments (got ':%s')", p->args);
        return NULL;
    }
    ldesc_cta_state *s = calloc(1, sizeof *s + (size_t)p->num_sms * sizeof s->sm[0]);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->grid = p->grid;
    s->nctas = p->nctas;
    s->num_sms = p->num_sms;
    s->rr = ldesc_clusters(p->ldesc, LOCSIM_LDESC_INTER_THREAD, p->grid, p->num_sms, &s->cls) == 0;
    if (!s->rr) {
        s->ncls.x = (p->grid.x + s->cls.x - 1) / s->cls.x;
        s->ncls.y = (p->grid.y + s->cls.y - 1) / s->cls.y;
        s->ncls.z = (p->grid.z + s->cls.z - 1) / s->cls.z;
        s->nclusters = (uint64_t)s->ncls.x * s->ncls.y * s->ncls.z;
    }
    return s;
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void take_cluster(ldesc_cta_state *s, struct held *h) {
    uint64_t k = s->next_cluster++;
    uint32_t cx = (uint32_t)(k % s->ncls.x), cy = (uint32_t)(k / s->ncls.x % s->ncls.y),
             cz = (uint32_t)(k / ((uint64_t)s->ncls.x * s->ncls.y));
    h->cluster = k;
    h->o.x = cx * s->cls.x, h->o.y = cy * s->cls.y, h->o.z = cz * s->cls.z;
    h->w.x = min_u32(s->cls.x, s->grid.x - h->o.x);
    h->w.y = min_u32(s->cls.y, s->grid.y - h->o.y);
    h->w.z = min_u32(s->cls.z, s->grid.z - h->o.z);
    h->cur = 0;
    h->end = (uint64_t)h->w.x * h->w.y * h->w.z;
}

/* Linear CTA id of the j-th CTA (x fastest) of a held cluster. */
static uint64_t cta_of(const ldesc_cta_state *s, const struct held *h, uint64_t j) {
    uint64_t x = h->o.x + j % h->w.x, y = h->o.y + j / h->w.x % h->w.y, z = h->o.z + j / ((uint64_t)h->w.x * h->w.y);
    return x + (uint64_t)s->grid.x * (y + (uint64_t)s->grid.y * z);
}

static int ldesc_next(void *st, uint32_t sm, uint32_t free_slots, uint64_t now, uint64_t *cta) {
    (void)free_slots;
    (void)now;
    ldesc_cta_state *s = st;
    if (s->rr) {
        if (s->next_cta >= s->nctas) return 0;
        *cta = s->next_cta++;
        return 1;
    }
    if (sm >= s->num_sms) return 0;
    struct held *h = &s->sm[sm];
    if (h->cur < h->end) {
        *cta = cta_of(s, h, h->cur++);
        return 1;
    }
    if (s->next_cluster < s->nclusters) {
        take_cluster(s, h);
        *cta = cta_of(s, h, h->cur++);
        return 1;
    }
    struct held *most = NULL;   /* spread the last clusters over idle SMs */
    for (uint32_t i = 0; i < s->num_sms; i++)
        if (s->sm[i].end - s->sm[i].cur > (most ? most->end - most->cur : 0)) most = &s->sm[i];
    if (!most) return 0;
    *cta = cta_of(s, most, --most->end);
    return 1;
}

static uint64_t ldesc_clusters_formed(const void *st) {
    const ldesc_cta_state *s = st;
    return s->rr ? 0 : s->nclusters;
}

const cta_sched_ops cta_sched_ldesc = {
    .name = "ldesc",
    .help = "Locality Descriptor CTA clustering (Vijaykumar et al. Algorithm 1): one cluster of CTAs sharing "
            "INTER_THREAD data per SM; rr for kernels without such descriptors (docs/ldesc.md)",
    .create = ldesc_create,
    .destroy = free,
    .next = ldesc_next,
    .clusters = ldesc_clusters_formed,
};
