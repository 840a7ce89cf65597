/* The GPU-adapted Signature Path Prefetcher (WSMP paper 3.2, DESIGN.md 5.4;
 * the original: Kim et al., "Path confidence based lookahead prefetching",
 * MICRO 2016).  Prefetcher 'spp'; 'spp_ppf' puts the perceptron filter behind
 * it (spp_ppf.c).
 *
 * Signature table: -spp_st_entries entries (256), 16-way set-associative with
 * LRU (SPP keeps 256 entries), each with the page tag, the warp id (WSMP adds
 * it), the last line offset and the signature.  An access by warp w to page p,
 * offset o finds (p, w); delta = o - last offset (0: nothing learnt), and
 *   S'  = (S << 3) XOR delta                      (formula 1)
 *   S'' = (S' AND 0x7FFFFFF) OR (warp_id << 27)   (formula 2)
 * with the delta in SPP's 7-bit sign-magnitude form (bit 6 = negative) and the
 * 32-bit signature keeping warp_id's low 5 bits.  A new (p, w) starts with
 * signature 0 and the offset.
 * Pattern tables: one per warp id (modulo -spp_warps), -spp_pt_sets entries
 * each indexed by the 27-bit part of the signature folded to the set bits, with
 * C_sig and four (delta, C_delta) ways (4-bit counters; at 15 all are halved;
 * a new delta replaces the way with the lowest C_delta).  The access updates
 * the entry of the old signature with the delta.
 * Lookahead: from the new signature and the current offset, depth d = 0, 1, ..
 *   CONF_d = C_delta / C_sig                      (formula 3)
 *   P_d = alpha_warp x CONF_d x P_(d-1)           (formula 4), P_-1 = 1
 * every delta of the entry whose P_d >= T_p (-spp_tp, 65%) and whose line stays
 * in the page is a candidate; the path follows the delta with the highest
 * C_delta (its P_d becomes P_(d-1) of the next step) and stops when that P_d <
 * T_p, when the next offset leaves the page, or when -spp_max_lines (20, T_f)
 * candidates have been proposed.  As in the original SPP, alpha is not applied
 * at depth 0 (P_0 = CONF_0): applied there, a warp whose accuracy fell to 0 could
 * never prefetch again to raise it.  alpha_warp = used / filled prefetches of
 * that warp (10-bit counters, halved together when `filled` saturates; 100%
 * before its first fill).  Percentages are integers (the paper's "magnifying
 * coefficient"); products are floored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/prefetch/spp.h"

#define ST_WAYS 16u
#define ACC_MAX 1023u

typedef struct {
    uint64_t page;
    uint64_t lru;
    uint32_t sig;
    uint16_t warp;
    uint8_t offset, valid;
} st_entry;

typedef struct {
    uint8_t c_sig;
    int8_t delta[SPP_PT_WAYS];
    uint8_t c_delta[SPP_PT_WAYS];
} pt_entry;

struct spp {
    uint32_t line_shift, page_shift, lpp;     /* lines per page */
    uint32_t st_sets, pt_sets, nwarps, tp, max_lines;
    st_entry *st;
    pt_entry *pt;                              /* nwarps x pt_sets */
    uint16_t *filled, *used;                   /* per warp table: alpha */
    uint64_t clock;
    st_entry *last;                            /* the entry the previous access used (a sectored L2
                                                  sends a line's sectors one after another) */
    spp_counters ctr;
};

static uint32_t log2_u32(uint32_t v) {
    uint32_t b = 0;
    while ((1u << b) < v) b++;
    return b;
}

spp *spp_create(const prefetch_config *cfg, char *err, size_t errlen) {
    uint32_t lpp = cfg->line_size ? cfg->spp_page_bytes / cfg->line_size : 0;
    if (lpp < 2 || lpp > 64) {
        snprintf(err, errlen, "-spp_page_bytes %u holds %u lines of %u B; SPP needs 2 to 64", cfg->spp_page_bytes, lpp,
                 cfg->line_size);
        return NULL;
    }
    if (!cfg->spp_st_entries || cfg->spp_st_entries % ST_WAYS || !cfg->spp_pt_sets ||
        (cfg->spp_pt_sets & (cfg->spp_pt_sets - 1)) || !cfg->spp_warps) {
        snprintf(err, errlen, "SPP tables: -spp_st_entries a multiple of 16, -spp_pt_sets a power of two, "
                              "-spp_warps at least 1");
        return NULL;
    }
    spp *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->line_shift = log2_u32(cfg->line_size);
    p->page_shift = log2_u32(cfg->spp_page_bytes);
    p->lpp = lpp;
    p->st_sets = cfg->spp_st_entries / ST_WAYS;
    p->pt_sets = cfg->spp_pt_sets;
    p->nwarps = cfg->spp_warps;
    p->tp = cfg->spp_tp;
    p->max_lines = cfg->spp_max_lines ? cfg->spp_max_lines : 1;
    p->st = calloc(cfg->spp_st_entries, sizeof *p->st);
    p->pt = calloc((size_t)p->nwarps * p->pt_sets, sizeof *p->pt);
    p->filled = calloc(p->nwarps, sizeof *p->filled);
    p->used = calloc(p->nwarps, sizeof *p->used);
    if (!p->st || !p->pt || !p->filled || !p->used) {
        spp_destroy(p);
        return NULL;
    }
    return p;
}

void spp_destroy(spp *p) {
    if (!p) return;
    free(p->st);
    free(p->pt);
    free(p->filled);
    free(p->used);
    free(p);
}

/* SPP's 7-bit sign-magnitude delta. */
static uint32_t delta_bits(int32_t delta) { return delta < 0 ? (1u << 6) | (uint32_t)(-delta) : (uint32_t)delta; }

uint32_t spp_next_signature(uint32_t sig, int32_t delta, uint32_t warp) {
    uint32_t s1 = (sig << 3) ^ delta_bits(delta);
    return (s1 & SPP_SIG_MASK) | (warp << 27);
}

static pt_entry *pt_of(const spp *p, uint32_t warp, uint32_t sig) {
    uint32_t x = sig & SPP_SIG_MASK;
    uint32_t set = (x ^ (x >> 9) ^ (x >> 18)) & (p->pt_sets - 1);
    return &p->pt[(size_t)(warp % p->nwarps) * p->pt_sets + set];
}

static void pt_update(spp *p, uint32_t warp, uint32_t sig, int32_t delta) {
    pt_entry *e = pt_of(p, warp, sig);
    int way = -1, victim = 0;
    for (int i = 0; i < SPP_PT_WAYS; i++) {
        if (e->c_delta[i] && e->delta[i] == delta) way = i;
        if (e->c_delta[i] < e->c_delta[victim]) victim = i;
    }
    if (way < 0) {
        way = victim;
        e->delta[way] = (int8_t)delta;
        e->c_delta[way] = 0;
    }
    e->c_delta[way]++;
    e->c_sig++;
    if (e->c_sig >= SPP_C_MAX || e->c_delta[way] >= SPP_C_MAX) {   /* saturate: halve them all */
        e->c_sig >>= 1;
        for (int i = 0; i < SPP_PT_WAYS; i++) e->c_delta[i] >>= 1;
    }
}

/* The signature-table entry of (page, warp), allocated (LRU) if absent; *hit
 * says which. */
static st_entry *st_lookup(spp *p, uint64_t page, uint32_t warp, int *hit) {
    st_entry *l = p->last;
    if (l && l->valid && l->page == page && l->warp == warp) {   /* the same answer as the search below */
        *hit = 1;
        l->lru = ++p->clock;
        return l;
    }
    uint32_t set = (uint32_t)((page ^ (page >> 7) ^ ((uint64_t)warp * 0x9E37u)) % p->st_sets);
    st_entry *ways = &p->st[(size_t)set * ST_WAYS], *victim = &ways[0];
    for (uint32_t i = 0; i < ST_WAYS; i++) {
        st_entry *e = &ways[i];
        if (e->valid && e->page == page && e->warp == warp) {
            *hit = 1;
            e->lru = ++p->clock;
            p->last = e;
            return e;
        }
        if (!e->valid || (victim->valid && e->lru < victim->lru)) victim = e;
    }
    *hit = 0;
    memset(victim, 0, sizeof *victim);
    victim->valid = 1;
    victim->page = page;
    victim->warp = (uint16_t)warp;
    victim->lru = ++p->clock;
    p->last = victim;
    return victim;
}

uint32_t spp_alpha(const spp *p, uint32_t warp) {
    uint32_t w = warp % p->nwarps;
    return p->filled[w] ? (uint32_t)p->used[w] * 100 / p->filled[w] : 100;
}

void spp_note_fill(spp *p, uint32_t warp) {
    uint32_t w = warp % p->nwarps;
    if (++p->filled[w] >= ACC_MAX) {
        p->filled[w] >>= 1;
        p->used[w] >>= 1;
    }
}

void spp_note_useful(spp *p, uint32_t warp) {
    uint32_t w = warp % p->nwarps;
    if (p->used[w] < p->filled[w]) p->used[w]++;
}

uint32_t spp_operate(spp *p, const prefetch_access *a, spp_candidate *out, uint32_t cap) {
    uint64_t page = a->addr >> p->page_shift;
    uint32_t offset = (uint32_t)(a->addr >> p->line_shift) & (p->lpp - 1);
    uint32_t warp = prefetch_gpu_warp(a->sm, a->warp);   /* (SM, slot): one warp of the GPU */
    int hit;
    st_entry *e = st_lookup(p, page, warp, &hit);
    p->ctr.triggers++;
    if (!hit) {
        p->ctr.st_misses++;
        e->offset = (uint8_t)offset;
        e->sig = 0;
        return 0;
    }
    p->ctr.st_hits++;
    int32_t delta = (int32_t)offset - (int32_t)e->offset;
    if (delta == 0) return 0;
    pt_update(p, warp, e->sig, delta);
    e->sig = spp_next_signature(e->sig, delta, warp);
    e->offset = (uint8_t)offset;

    uint32_t limit = cap < p->max_lines ? cap : p->max_lines, n = 0, alpha = spp_alpha(p, warp);
    uint32_t sig = e->sig, path = 100;
    int32_t off = (int32_t)offset;
    for (uint32_t depth = 0; n < limit; depth++) {
        const pt_entry *x = pt_of(p, warp, sig);
        if (!x->c_sig) break;
        int best = -1;
        uint32_t best_conf = 0;
        for (int i = 0; i < SPP_PT_WAYS && n < limit; i++) {
            if (!x->c_delta[i]) continue;
            uint32_t conf = (uint32_t)x->c_delta[i] * 100 / x->c_sig;            /* CONF_d, percent */
            uint32_t pd = depth == 0 ? conf : alpha * conf / 100 * path / 100;   /* P_d */
            if (best < 0 || x->c_delta[i] > x->c_delta[best]) best = i, best_conf = pd;
            int32_t target = off + x->delta[i];
            if (pd < p->tp || target < 0 || target >= (int32_t)p->lpp) continue;
            spp_candidate *c = &out[n++];
            c->addr = (page << p->page_shift) + ((uint64_t)target << p->line_shift);
            c->sig = sig;
            c->delta = x->delta[i];
            c->depth = (uint8_t)(depth < 255 ? depth : 255);
            c->conf = (uint8_t)(pd > 100 ? 100 : pd);
            c->warp = (uint16_t)warp;
            c->offset = (uint32_t)target;
        }
        p->ctr.depth_sum++;
        if (best < 0 || best_conf < p->tp) {
            p->ctr.stopped_conf++;
            break;
        }
        off += x->delta[best];
        if (off < 0 || off >= (int32_t)p->lpp) break;
        sig = spp_next_signature(sig, x->delta[best], warp);
        path = best_conf;
    }
    if (n >= limit) p->ctr.stopped_lines++;
    p->ctr.candidates += n;
    return n;
}

uint32_t spp_pt_csig(const spp *p, uint32_t warp, uint32_t sig) { return pt_of(p, warp, sig)->c_sig; }

uint32_t spp_pt_cdelta(const spp *p, uint32_t warp, uint32_t sig, int32_t delta) {
    const pt_entry *e = pt_of(p, warp, sig);
    for (int i = 0; i < SPP_PT_WAYS; i++)
        if (e->c_delta[i] && e->delta[i] == delta) return e->c_delta[i];
    return 0;
}

int64_t spp_st_signature(const spp *p, uint64_t addr, uint32_t warp) {
    uint64_t page = addr >> p->page_shift;
    uint32_t set = (uint32_t)((page ^ (page >> 7) ^ ((uint64_t)warp * 0x9E37u)) % p->st_sets);
    for (uint32_t i = 0; i < ST_WAYS; i++) {
        const st_entry *e = &p->st[(size_t)set * ST_WAYS + i];
        if (e->valid && e->page == page && e->warp == warp) return e->sig;
    }
    return -1;
}

const spp_counters *spp_stats(const spp *p) { return &p->ctr; }

/* ---- the 'spp' prefetcher: SPP's candidates, unfiltered ---- */

static void *spp_pf_create(const prefetch_config *cfg, char *err, size_t errlen) { return spp_create(cfg, err, errlen); }
static void spp_pf_destroy(void *st) { spp_destroy(st); }

static uint32_t spp_pf_access(void *st, const prefetch_access *a, uint64_t now, uint64_t *out, uint32_t cap) {
    (void)now;
    spp *p = st;
    if (a->useful || a->late) spp_note_useful(p, prefetch_gpu_warp(a->pf_sm, a->pf_warp));
    spp_candidate c[PREFETCH_MAX_CANDIDATES];
    uint32_t n = spp_operate(p, a, c, cap < PREFETCH_MAX_CANDIDATES ? cap : PREFETCH_MAX_CANDIDATES);
    for (uint32_t i = 0; i < n; i++) out[i] = c[i].addr;
    return n;
}

static void spp_pf_fill(void *st, uint64_t addr, uint16_t sm, uint16_t warp, bool prefetch, uint64_t now) {
    (void)addr;
    (void)now;
    if (prefetch) spp_note_fill(st, prefetch_gpu_warp(sm, warp));
}

void spp_report_counters(const spp *p, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const spp_counters *c = &p->ctr;
    emit(ctx, "spp_triggers", (double)c->triggers);
    emit(ctx, "spp_st_hits", (double)c->st_hits);
    emit(ctx, "spp_candidates", (double)c->candidates);
    emit(ctx, "spp_lookahead_steps", (double)c->depth_sum);
    emit(ctx, "spp_stop_confidence", (double)c->stopped_conf);
    emit(ctx, "spp_stop_lines", (double)c->stopped_lines);
}

static void spp_pf_report(const void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    spp_report_counters(st, emit, ctx);
}

static const prefetch_stat_def spp_pf_stats[] = {SPP_STAT_DEFS, {NULL, NULL, NULL, 0, NULL}};

const prefetch_ops prefetch_spp = {
    .name = "spp",
    .help = "WSMP's signature path prefetcher: signatures with the warp id, per-warp pattern tables, "
            "path confidence with per-warp accuracy (-spp_*)",
    .create = spp_pf_create,
    .destroy = spp_pf_destroy,
    .on_access = spp_pf_access,
    .on_fill = spp_pf_fill,
    .report = spp_pf_report,
    .stats = spp_pf_stats,
    .once_per_line = true,
    .slice_space = true,
};
