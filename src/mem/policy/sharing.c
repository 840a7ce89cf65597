/* Sharing-aware allocation and replacement (Tabbakh et al., §V-B and §VI; DESIGN
 * §5.5; docs/sharing.md says which sentence each rule follows).  One policy,
 * two roles chosen by the cache it runs in (cache_geometry.level):
 *
 * L2 (-l2_policy sharing).  Each line keeps its owner SM (the requester whose
 * miss filled it) and a shared flag.
 *   allocate: ld.local misses bypass the L2 (private by the programming model);
 *             private writes (st.local, and L1 write-backs, which carry local data
 *             under the 'L' L1 write policy) take a way only from an invalid or
 *             private line, else go to DRAM without allocating; everything else
 *             (ld.global, ...) is filled, tentatively private, owner = requester;
 *   on_hit:   a global load (hit, or merge into a pending fill) by an SM other
 *             than the owner sets the shared flag.  Only loads set owners and
 *             flags, as the paper's flow chart (Fig. 9) starts from a load; a
 *             line a store brought in has no owner until its first load.  With
 *             -sharing_detect_stores 1 global stores and atomics count too;
 *   kernel_begin: with -sharing_kernel_reset 1 every line loses its owner and
 *             shared flag (the paper is silent on the flags' lifetime; by
 *             default they live as long as the line, as the L2's data does
 *             across kernels in GPGPU-Sim 3.x);
 *   reply:    the answer to a global load of a non-owner carries
 *             CACHE_HINT_SHARED, so that the requester's L1 does not keep it;
 *   victim:   the LRU private line, else the LRU shared line.
 *
 * L1D (-l1d_policy sharing).  Each line keeps a private flag (the paper's PF)
 * and, with -sharing_dead_block 1, a dead flag (DBF).  Decisions are made when
 * the L2's answer arrives, so the L1D must allocate on fill (check()).
 *   allocate: a line the L2 answered as shared is kept only if its victim is
 *             invalid or shared; local and private lines are always kept;
 *   victim:   the LRU shared line, else the LRU private line.  With the dead
 *             flag: when the LRU line is private and not yet dead it is marked
 *             dead and the LRU shared line goes instead (if there is one); a
 *             dead line is evicted the next time it is LRU; a hit revives it.
 * Recency is LRU on hits and insertions, as lru.c. */
#include <stdlib.h>

#include "mem/cache.h"

#define NO_OWNER UINT16_MAX

typedef struct {
    uint64_t stamp;
    uint16_t owner;     /* L2: SM whose miss filled the line */
    uint8_t shared;     /* L2: SF; L1: the line came as shared (not PF) */
    uint8_t dead;       /* L1: DBF */
} sharing_line;

typedef struct {
    uint32_t assoc;
    uint64_t nlines;
    uint8_t l1, dead_block, detect_stores, kernel_reset;
    uint64_t clock;
    sharing_line line[];   /* nsets * assoc */
} sharing_state;

static const char *sharing_check(const cache_geometry *g) {
    if (g->level == CACHE_LEVEL_L2) return NULL;
    if (g->level != CACHE_LEVEL_L1D) return "is for the L1D (-l1d_policy) and the L2 (-l2_policy) only";
    if (g->alloc != CACHE_ALLOC_ON_FILL)
        return "decides L1 allocation when the L2's answer arrives (the paper's ON_FILL L1, section II-C): "
               "the L1D must allocate on fill ('f' as the third letter of -gpgpu_cache:dl1's policy field)";
    return NULL;
}

static void *sharing_create(const cache_geometry *g) {
    sharing_state *s = calloc(1, sizeof *s + (size_t)g->nsets * g->assoc * sizeof(sharing_line));
    if (!s) return NULL;
    s->assoc = g->assoc;
    s->nlines = (uint64_t)g->nsets * g->assoc;
    s->l1 = g->level != CACHE_LEVEL_L2;
    s->dead_block = g->sharing_dead_block;
    s->detect_stores = g->sharing_detect_stores;
    s->kernel_reset = g->sharing_kernel_reset;
    return s;
}

static sharing_line *at(sharing_state *s, uint32_t set, uint32_t way) { return &s->line[(size_t)set * s->assoc + way]; }

/* Data private by the programming model: local loads and stores, and L1
 * write-backs (only local lines are written back by an 'L' L1). */
static int private_data(uint8_t type) {
    return mem_access_is_local(type) || type == MEM_L1_WRBK_ACC;
}

/* Whether r takes part in sharing detection at the L2 (sets an owner or the
 * shared flag): global data only, never write-backs; loads always, stores and
 * atomics only with -sharing_detect_stores 1. */
static int detects(const sharing_state *s, const mem_req *r) {
    if (private_data(r->type) || mem_access_is_writeback(r->type)) return 0;
    int store = mem_access_is_write(r->type) || (r->flags & MEM_REQ_ATOMIC);
    return !store || s->detect_stores;
}

static cache_alloc_decision sharing_allocate(void *st, uint32_t set, uint32_t way, const cache_line *victim,
                                             const mem_req *r, uint64_t now) {
    (void)now;
    sharing_state *s = st;
    int victim_shared = victim->allocated && at(s, set, way)->shared;
    if (s->l1) {
        if (!mem_access_is_local(r->type) && (r->hint & CACHE_HINT_SHARED) && victim->allocated && !victim_shared)
            return CACHE_ALLOC_BYPASS;   /* P1: shared data never evicts private data from an L1 */
        return CACHE_ALLOC_INSERT;
    }
    if (r->type == MEM_LOCAL_ACC_R) return CACHE_ALLOC_BYPASS;   /* ld.local misses skip the L2 */
    if (private_data(r->type) && victim_shared) return CACHE_ALLOC_BYPASS;   /* P2 */
    return CACHE_ALLOC_INSERT;
}

static void sharing_insert(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)now;
    sharing_state *s = st;
    sharing_line *l = at(s, set, way);
    l->stamp = ++s->clock;
    l->dead = 0;
    if (s->l1) {
        l->shared = !mem_access_is_local(r->type) && (r->hint & CACHE_HINT_SHARED);
        l->owner = NO_OWNER;
    } else {
        l->shared = 0;
        /* A copy-engine fill has sm = NO_OWNER, and a store's fill (loads-only
         * detection) is given none: the first SM to load the line owns it. */
        l->owner = detects(s, r) ? r->sm : NO_OWNER;
    }
}

static void sharing_hit(void *st, uint32_t set, uint32_t way, const mem_req *r, uint64_t now) {
    (void)now;
    sharing_state *s = st;
    sharing_line *l = at(s, set, way);
    l->stamp = ++s->clock;
    l->dead = 0;
    if (s->l1 || !detects(s, r)) return;
    if (l->owner == NO_OWNER) l->owner = r->sm;
    else if (r->sm != l->owner) l->shared = 1;
}

static uint8_t sharing_reply_hint(void *st, uint32_t set, uint32_t way, const mem_req *r) {
    sharing_state *s = st;
    const sharing_line *l = at(s, set, way);
    if (s->l1 || !detects(s, r) || l->owner == NO_OWNER || r->sm == l->owner) return 0;
    return CACHE_HINT_SHARED;
}

/* A kernel starts: with -sharing_kernel_reset 1 forget who owns and who shares
 * each line, so that this kernel's CTA-to-SM map alone decides. */
static void sharing_kernel_begin(void *st, const struct ldesc_set *hints) {
    (void)hints;
    sharing_state *s = st;
    if (s->l1 || !s->kernel_reset) return;
    for (uint64_t i = 0; i < s->nlines; i++) {
        s->line[i].owner = NO_OWNER;
        s->line[i].shared = 0;
    }
}

/* LRU among the candidates whose shared flag is `shared` (-1: none). */
static int lru_of(const sharing_state *s, uint32_t set, uint64_t candidates, int shared) {
    const sharing_line *ln = &s->line[(size_t)set * s->assoc];
    int best = -1;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (!(candidates & (1ull << w)) || ln[w].shared != shared) continue;
        if (best < 0 || ln[w].stamp < ln[best].stamp) best = (int)w;
    }
    return best;
}

static int sharing_find_victim(void *st, uint32_t set, uint64_t candidates, const mem_req *r, uint64_t now) {
    (void)r;
    (void)now;
    sharing_state *s = st;
    int priv = lru_of(s, set, candidates, 0), shared = lru_of(s, set, candidates, 1);
    if (!s->l1) return priv >= 0 ? priv : shared;          /* L2: private first */
    if (shared < 0) return priv;                            /* L1: shared first */
    if (s->dead_block && priv >= 0 && at(s, set, (uint32_t)priv)->stamp < at(s, set, (uint32_t)shared)->stamp) {
        /* The LRU line is private: dead on its second turn, passed over on its first. */
        sharing_line *p = at(s, set, (uint32_t)priv);
        if (p->dead) return priv;
        p->dead = 1;
    }
    return shared;
}

const cache_policy_ops cache_policy_sharing = {
    .name = "sharing",
    .help = "Tabbakh et al.'s sharing-aware allocation and replacement: L2 owner/shared tracking, ld.local "
            "bypasses the L2, shared data bypasses the L1; L2 evicts private first, L1 shared first "
            "(-sharing_dead_block)",
    .create = sharing_create,
    .destroy = free,
    .on_hit = sharing_hit,
    .on_insert = sharing_insert,
    .find_victim = sharing_find_victim,
    .allocate = sharing_allocate,
    .reply_hint = sharing_reply_hint,
    .check = sharing_check,
    .kernel_begin = sharing_kernel_begin,
};
