/* SPP behind WSMP's perceptron prefetch filter (paper 3.3, DESIGN.md 5.4; the
 * original: Bhatia et al., "Perceptron-based prefetch filtering", ISCA 2019).
 *
 * Every SPP candidate is scored by 7 features, each indexing its own table of
 * 5-bit saturating weights (-16..15, all 0 at start):
 *   address (line address hashed, 4096), page (hashed, 2048), offset in the page
 *   (64), signature XOR delta (hashed, 4096), lookahead depth (32), path
 *   confidence (0..100, 128), warp id (64).
 * sum = the 7 weights.  sum >= tau_hi (-ppf_tau_hi): prefetch, and the line is
 * recorded in the prefetch table with its feature indices; tau_lo <= sum <
 * tau_hi: a candidate; sum < tau_lo: rejected, recorded in the reject table.
 * When fewer than -ppf_min_prefetches candidates of one trigger pass tau_hi, the
 * highest-sum candidates make up the number (then recorded as prefetches); the
 * candidates left go to the reject table too (so a demand for them can teach
 * the filter).  Tables of 1024 entries, direct-mapped by line address, tagged
 * with it (PPF's sizes).
 * Training (PPF's rule: only while the sum is not already beyond a margin):
 *   up   (each weight +1, if sum < -ppf_theta_pos): on the first demand use of a
 *        prefetched line (useful or late) found in the prefetch table, and on a
 *        demand read of a line found in the reject table (that entry is dropped);
 *   down (each weight -1, if sum > -ppf_theta_neg): on the eviction of a
 *        prefetched line no demand touched, found in the prefetch table.
 * The sum recomputed at training time is the sum of the recorded indices'
 * current weights. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/prefetch/spp.h"

enum { F_ADDR, F_PAGE, F_OFFSET, F_SIGDELTA, F_DEPTH, F_CONF, F_WARP, F_COUNT };
static const uint32_t feature_size[F_COUNT] = {4096, 2048, 64, 4096, 32, 128, 64};
#define W_MAX 15
#define W_MIN (-16)
#define PPF_TABLE 1024u

typedef struct {
    uint64_t line;          /* tag: line address + 1 (0 = empty) */
    uint16_t idx[F_COUNT];
} ppf_entry;

typedef struct {
    spp *spp;
    uint32_t line_shift, page_shift;
    int32_t tau_hi, tau_lo, theta_pos, theta_neg;
    uint32_t min_prefetches;
    int8_t *w[F_COUNT];
    ppf_entry prefetch[PPF_TABLE], reject[PPF_TABLE];
    uint64_t n_prefetch, n_candidate, n_promoted, n_reject, t_useful, t_reject, t_evict;
} ppf;

static uint32_t log2_u32(uint32_t v) {
    uint32_t b = 0;
    while ((1u << b) < v) b++;
    return b;
}

static uint32_t hash64(uint64_t x) { return (uint32_t)((x * 0x9E3779B97F4A7C15ull) >> 40); }

/* The feature indices of a candidate. */
static void features(const ppf *f, const spp_candidate *c, uint16_t *idx) {
    uint64_t line = c->addr >> f->line_shift, page = c->addr >> f->page_shift;
    idx[F_ADDR] = (uint16_t)(hash64(line) % feature_size[F_ADDR]);
    idx[F_PAGE] = (uint16_t)(hash64(page) % feature_size[F_PAGE]);
    idx[F_OFFSET] = (uint16_t)(c->offset % feature_size[F_OFFSET]);
    idx[F_SIGDELTA] = (uint16_t)(hash64((uint64_t)c->sig ^ (uint64_t)(uint32_t)c->delta) % feature_size[F_SIGDELTA]);
    idx[F_DEPTH] = (uint16_t)(c->depth % feature_size[F_DEPTH]);
    idx[F_CONF] = (uint16_t)(c->conf % feature_size[F_CONF]);
    idx[F_WARP] = (uint16_t)(c->warp % feature_size[F_WARP]);
}

static int32_t perceptron_sum(const ppf *f, const uint16_t *idx) {
    int32_t sum = 0;
    for (int i = 0; i < F_COUNT; i++) sum += f->w[i][idx[i]];
    return sum;
}

static void train(ppf *f, const uint16_t *idx, int up) {
    int32_t sum = perceptron_sum(f, idx);
    if (up && sum >= f->theta_pos) return;
    if (!up && sum <= f->theta_neg) return;
    for (int i = 0; i < F_COUNT; i++) {
        int8_t *x = &f->w[i][idx[i]];
        if (up && *x < W_MAX) (*x)++;
        if (!up && *x > W_MIN) (*x)--;
    }
}

static ppf_entry *slot_of(ppf_entry *t, uint64_t line) { return &t[hash64(line) % PPF_TABLE]; }

static void record(ppf_entry *t, uint64_t line, const uint16_t *idx) {
    ppf_entry *e = slot_of(t, line);
    e->line = line + 1;
    memcpy(e->idx, idx, sizeof e->idx);
}

static ppf_entry *find(ppf_entry *t, uint64_t line) {
    ppf_entry *e = slot_of(t, line);
    return e->line == line + 1 ? e : NULL;
}

static void ppf_destroy(void *st) {
    ppf *f = st;
    if (!f) return;
    spp_destroy(f->spp);
    for (int i = 0; i < F_COUNT; i++) free(f->w[i]);
    free(f);
}

static void *ppf_create(const prefetch_config *cfg, char *err, size_t errlen) {
    ppf *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->spp = spp_create(cfg, err, errlen);
    if (!f->spp) {
        free(f);
        return NULL;
    }
    f->line_shift = log2_u32(cfg->line_size);
    f->page_shift = log2_u32(cfg->spp_page_bytes);
    f->tau_hi = cfg->ppf_tau_hi;
    f->tau_lo = cfg->ppf_tau_lo;
    f->theta_pos = cfg->ppf_theta_pos;
    f->theta_neg = cfg->ppf_theta_neg;
    f->min_prefetches = cfg->ppf_min_prefetches;
    for (int i = 0; i < F_COUNT; i++) {
        f->w[i] = calloc(feature_size[i], sizeof *f->w[i]);
        if (!f->w[i]) {
            ppf_destroy(f);
            return NULL;
        }
    }
    return f;
}

uint32_t spp_ppf_filter(void *st, const spp_candidate *c, uint32_t n, uint64_t *out, uint32_t cap) {
    ppf *f = st;
    if (n > PREFETCH_MAX_CANDIDATES) n = PREFETCH_MAX_CANDIDATES;
    uint16_t idx[PREFETCH_MAX_CANDIDATES][F_COUNT];
    int32_t sum[PREFETCH_MAX_CANDIDATES];
    uint32_t k = 0, mid[PREFETCH_MAX_CANDIDATES], nmid = 0;
    for (uint32_t i = 0; i < n; i++) {
        features(f, &c[i], idx[i]);
        sum[i] = perceptron_sum(f, idx[i]);
        uint64_t cl = c[i].addr >> f->line_shift;
        if (sum[i] >= f->tau_hi && k < cap) {
            out[k++] = c[i].addr;
            record(f->prefetch, cl, idx[i]);
            f->n_prefetch++;
        } else if (sum[i] >= f->tau_lo) {
            mid[nmid++] = i;
            f->n_candidate++;
        } else {
            record(f->reject, cl, idx[i]);
            f->n_reject++;
        }
    }
    /* Too few: the best candidates (highest sum, then SPP's order) make up the number. */
    while (k < f->min_prefetches && k < cap && nmid) {
        uint32_t b = 0;
        for (uint32_t j = 1; j < nmid; j++)
            if (sum[mid[j]] > sum[mid[b]]) b = j;
        uint32_t i = mid[b];
        out[k++] = c[i].addr;
        record(f->prefetch, c[i].addr >> f->line_shift, idx[i]);
        f->n_promoted++;
        mid[b] = mid[--nmid];
    }
    for (uint32_t j = 0; j < nmid; j++) record(f->reject, c[mid[j]].addr >> f->line_shift, idx[mid[j]]);
    return k;
}


static uint32_t ppf_access(void *st, const prefetch_access *a, uint64_t now, uint64_t *out, uint32_t cap) {
    (void)now;
    ppf *f = st;
    uint64_t line = a->addr >> f->line_shift;
    if (a->useful || a->late) {
        spp_note_useful(f->spp, prefetch_gpu_warp(a->pf_sm, a->pf_warp));
        ppf_entry *e = find(f->prefetch, line);
        if (e) {
            train(f, e->idx, 1);
            f->t_useful++;
        }
    }
    ppf_entry *r = find(f->reject, line);
    if (r) {   /* SPP had proposed it and the filter said no: it was wanted */
        train(f, r->idx, 1);
        r->line = 0;
        f->t_reject++;
    }
    spp_candidate c[PREFETCH_MAX_CANDIDATES];
    uint32_t n = spp_operate(f->spp, a, c, PREFETCH_MAX_CANDIDATES);
    return spp_ppf_filter(f, c, n, out, cap);
}

static void ppf_fill(void *st, uint64_t addr, uint16_t sm, uint16_t warp, bool prefetch, uint64_t now) {
    (void)addr;
    (void)now;
    ppf *f = st;
    if (prefetch) spp_note_fill(f->spp, prefetch_gpu_warp(sm, warp));
}

static void ppf_evict(void *st, uint64_t addr, uint16_t warp, bool unused_prefetch) {
    (void)warp;
    ppf *f = st;
    if (!unused_prefetch) return;
    ppf_entry *e = find(f->prefetch, addr >> f->line_shift);
    if (!e) return;
    train(f, e->idx, 0);
    e->line = 0;
    f->t_evict++;
}

static void ppf_report(const void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const ppf *f = st;
    spp_report_counters(f->spp, emit, ctx);
    emit(ctx, "ppf_prefetch", (double)f->n_prefetch);
    emit(ctx, "ppf_candidate", (double)f->n_candidate);
    emit(ctx, "ppf_candidate_promoted", (double)f->n_promoted);
    emit(ctx, "ppf_reject", (double)f->n_reject);
    emit(ctx, "ppf_train_useful", (double)f->t_useful);
    emit(ctx, "ppf_train_reject_hit", (double)f->t_reject);
    emit(ctx, "ppf_train_evict", (double)f->t_evict);
}

static const prefetch_stat_def ppf_stats[] = {
    SPP_STAT_DEFS,
    {"ppf_prefetch", NULL, NULL, 0, "SPP candidates whose perceptron sum reached tau_hi (prefetched)"},
    {"ppf_candidate", NULL, NULL, 0, "SPP candidates with tau_lo <= sum < tau_hi"},
    {"ppf_candidate_promoted", NULL, NULL, 0, "of those, prefetched to make up -ppf_min_prefetches"},
    {"ppf_reject", NULL, NULL, 0, "SPP candidates with sum < tau_lo (rejected)"},
    {"ppf_train_useful", NULL, NULL, 0, "trainings up: a prefetched line's first demand use"},
    {"ppf_train_reject_hit", NULL, NULL, 0, "trainings up: a demand read of a line in the reject table"},
    {"ppf_train_evict", NULL, NULL, 0, "trainings down: a prefetched line evicted unused"},
    {NULL, NULL, NULL, 0, NULL},
};

const prefetch_ops prefetch_spp_ppf = {
    .name = "spp_ppf",
    .help = "spp filtered by WSMP's perceptron (7 feature weight tables, -ppf_tau_hi/-ppf_tau_lo, prefetch / "
            "candidate / reject tables)",
    .create = ppf_create,
    .destroy = ppf_destroy,
    .on_access = ppf_access,
    .on_fill = ppf_fill,
    .on_evict = ppf_evict,
    .report = ppf_report,
    .stats = ppf_stats,
    .once_per_line = true,
    .slice_space = true,
};

int32_t spp_ppf_sum(const void *st, const spp_candidate *c) {
    const ppf *f = st;
    uint16_t idx[F_COUNT];
    features(f, c, idx);
    return perceptron_sum(f, idx);
}
