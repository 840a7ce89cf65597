/* locsim ccws-eval: the evaluation of the CCWS paper (Rogers, O'Connor,
 * Aamodt, "Cache-Conscious Wavefront Scheduling", MICRO 2012) on ccws_gtx285,
 * written as a markdown report.
 *
 *   locsim ccws-eval [--out FILE] [--notes FILE] [--results FILE] [--workloads a,b,...]
 *                    [--quick] [--report-only]
 *
 * --out       the report (default docs/results/ccws.md)
 * --notes     hand-written discussion appended to the report (docs/results/ccws-notes.md)
 * --results   every run's statistics (default: <out without .md>-runs.tsv), written
 *             after the runs; --report-only re-renders the report from it without
 *             simulating (to revise the notes)
 * --workloads a subset of the paper's twelve; --quick: size 1 and short sweeps (a smoke test)
 *
 * Every run is a fresh timing-mode device (seed 1), one after the other in this
 * process (one core).  Per workload of the paper's three classes:
 *   LRR, GTO, 2LVL-GTO (two_level_active:2:gto:gto) and CCWS, each with the L1D
 *   access-stream analysis (Belady-optimal misses, hit breakdown);
 *   Best-SWL: warp_limiting:gto:N over a descending grid of N (SWL_GRID), N = 32
 *   being GTO itself: the whole grid for the highly cache-sensitive class (its
 *   IPC against N is not smooth), and for the others until two N tried since the
 *   best so far have a lower IPC;
 *   LRR with an unbounded L1D (-l1d_unbounded 1: the paper's Fig. 2 and 12);
 * and on the highly cache-sensitive class the K_throttle sweep (Fig. 16) and the
 * victim-tag-array size sweep (Fig. 13).
 * The report holds no host time (so the same build writes the same file);
 * progress and the run time go to stderr. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "locsim/locsim.h"
#include "workload.h"

#define CONFIG "ccws_gtx285"
#define SEED 1
#define MAX_WL 16
#define MAX_GRID 16

enum { HCS = 0, MCS, CI, NCLASS };
static const char *const class_short[NCLASS] = {"HCS", "MCS", "CI"};
static const char *const class_long[NCLASS] = {"highly cache-sensitive", "moderately cache-sensitive",
                                               "cache-insensitive"};

/* The paper's Table 2 in our suite.  `size` is the evaluation size: the
 * workload's default size, except bfs, memc and gc at half of it, because
 * those three carry the sweeps (about 30 runs each), and nw at half of it (one
 * launch per tile diagonal: its runs cost the most per instruction); the whole
 * evaluation has to fit in 30 minutes on one core.  Chosen from run times alone. */
typedef struct {
    const char *name, *paper;
    int cls;
    uint32_t size;
} suite_entry;

static const suite_entry suite[] = {
    {"bfs", "BFS", HCS, 32},         {"kmeans", "KMN", HCS, 64},      {"memc", "MEMC", HCS, 32},
    {"gc", "GC", HCS, 32},           {"stencil", "WP", MCS, 16},      {"streamcluster", "STMCL", MCS, 64},
    {"sssp", "SSSP", MCS, 48},       {"cfd", "CFD", MCS, 128},        {"nw", "NDL", CI, 12},
    {"backprop", "BACKP", CI, 128},  {"srad", "SRAD", CI, 20},        {"lud", "LUD", CI, 8},
};
#define NSUITE (sizeof suite / sizeof suite[0])

static const uint32_t SWL_GRID[] = {32, 24, 20, 16, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
static const uint32_t K_SWEEP[] = {1, 2, 4, 8, 16, 32, 64, 128};
static const uint32_t VTA_SWEEP[] = {1, 2, 4, 8, 16, 32, 64, 256};
static const uint32_t QUICK_SWL_GRID[] = {32, 8, 2};
static const uint32_t QUICK_K[] = {1, 8, 64};
static const uint32_t QUICK_VTA[] = {4, 16, 64};
#define DEFAULT_K 8
#define DEFAULT_VTA 16
#define NSWEEP 8

typedef struct {
    int ok;
    double ipc, insn, cycles, mpki, evictions;
    double bel_mpki, read_miss_pki, intra_thread_pki, inter_thread_pki, inter_warp_pki, inter_kernel_pki;
    double vta_hits, vta_probes, throttled_frac, avg_load_warps, avg_live_warps;
} result;

/* The statistics a run keeps, in the order of the results file's columns. */
#define RESULT_FIELDS(X)                                                                                     \
    X(ipc, "gpu_ipc") X(insn, "gpu_sim_insn") X(cycles, "gpu_sim_cycle") X(mpki, "L1D_MPKI")                \
    X(evictions, "L1D_total_cache_evictions") X(bel_mpki, "L1D_BEL_MPKI")                                   \
    X(read_miss_pki, "L1D_stream_read_misses_PKI") X(intra_thread_pki, "L1D_hits_intra_thread_PKI")         \
    X(inter_thread_pki, "L1D_hits_inter_thread_PKI") X(inter_warp_pki, "L1D_hits_inter_warp_PKI")           \
    X(inter_kernel_pki, "L1D_hits_inter_kernel_PKI")                                                         \
    X(vta_hits, "ccws_vta_hits") X(vta_probes, "ccws_vta_probes") X(throttled_frac, "ccws_throttled_frac") \
    X(avg_load_warps, "ccws_avg_load_warps") X(avg_live_warps, "ccws_avg_live_warps")

/* Every run of an evaluation, by key "<workload> <size> <what>": written to the
 * results file after a full evaluation and read back by --report-only, which
 * renders the same report without simulating. */
#define MAX_RUNS 1024
typedef struct {
    char key[192];
    result r;
} saved_run;

typedef struct {
    const suite_entry *e;
    const workload_entry *wl;
    uint32_t size;
    result lrr, gto, tlv, ccws, unb;
    result def_lrr, def_unb;                 /* at the default size, when the evaluation size differs */
    /* Best-SWL search */
    uint32_t nswl, swl_n[MAX_GRID], best;   /* best: index into swl_* */
    result swl[MAX_GRID];
    /* sweeps (HCS) */
    result ksw[NSWEEP], vsw[NSWEEP];
} wl_eval;

typedef struct {
    const char *out, *notes;
    int quick;
    const suite_entry *sel[MAX_WL];
    uint32_t nsel;
    const uint32_t *swl_grid, *k_sweep, *vta_sweep;
    uint32_t nswl_grid, nk, nvta;
    uint32_t runs;
    double t0;
    const char *results;     /* the results file */
    char results_buf[512];
    int report_only;
    saved_run *saved;        /* [MAX_RUNS] */
    uint32_t nsaved, missing;
} eval_options;

/* ---- running ---- */

static result *saved_find(eval_options *o, const char *key) {
    for (uint32_t i = 0; i < o->nsaved; i++)
        if (!strcmp(o->saved[i].key, key)) return &o->saved[i].r;
    return NULL;
}

static result simulate(eval_options *o, const wl_eval *w, const char *what, char **ov, int nov);

static result run_one(eval_options *o, const wl_eval *w, const char *what, char **ov, int nov) {
    char key[192];
    snprintf(key, sizeof key, "%s %u %s", w->e->name, w->size, what);
    result *have = saved_find(o, key);
    if (have) return *have;
    if (o->report_only) {
        result none;
        memset(&none, 0, sizeof none);
        fprintf(stderr, "locsim: ccws-eval: %s has no run '%s'\n", o->results, key);
        o->missing++;
        return none;
    }
    result r = simulate(o, w, what, ov, nov);
    if (o->nsaved < MAX_RUNS) {
        snprintf(o->saved[o->nsaved].key, sizeof o->saved[o->nsaved].key, "%s", key);
        o->saved[o->nsaved++].r = r;
    }
    return r;
}

static result simulate(eval_options *o, const wl_eval *w, const char *what, char **ov, int nov) {
    result r;
    memset(&r, 0, sizeof r);
    locsim_config *cfg;
    double t = cli_now_seconds();
    if (cli_load_config(CONFIG, nov, ov, &cfg)) return r;
    locsim_device *dev;
    if (locsim_device_create(cfg, LOCSIM_MODE_TIMING, &dev) != LOCSIM_OK) {
        fprintf(stderr, "locsim: ccws-eval: cannot create a device for %s: %s\n", what, locsim_last_error(NULL));
        locsim_config_free(cfg);
        return r;
    }
    char detail[512] = "";
    wl_result rc = workload_run(w->wl, dev, w->size, SEED, detail, sizeof detail);
    r.ok = rc == WL_PASS;
    if (!r.ok) fprintf(stderr, "locsim: ccws-eval: %s %s: %s\n", w->e->name, what, detail);
#define S(field, name) r.field = cli_timing_stat(dev, name);
    RESULT_FIELDS(S)
#undef S
    locsim_device_destroy(dev);
    locsim_config_free(cfg);
    o->runs++;
    fprintf(stderr, "[ccws-eval %7.1f s] %-13s %-34s IPC %8.3f  L1D MPKI %8.3f  (%.1f s)\n", cli_now_seconds() - o->t0,
            w->e->name, what, r.ipc, r.mpki, cli_now_seconds() - t);
    return r;
}

/* A run with a scheduler and up to three more "-option value" pairs (NULL-terminated). */
static result run_sched(eval_options *o, const wl_eval *w, const char *sched, int analysis, ...) {
    char *ov[16];
    int n = 0;
    ov[n++] = "-gpgpu_scheduler";
    ov[n++] = (char *)sched;
    if (analysis) {
        ov[n++] = "-l1d_access_analysis";
        ov[n++] = "1";
    }
    va_list ap;
    va_start(ap, analysis);
    const char *k;
    char what[160];
    int len = snprintf(what, sizeof what, "%s", sched);
    while (n < 14 && (k = va_arg(ap, const char *))) {
        const char *v = va_arg(ap, const char *);
        ov[n++] = (char *)k;
        ov[n++] = (char *)v;
        if (len > 0 && (size_t)len < sizeof what) len += snprintf(what + len, sizeof what - (size_t)len, " %s %s", k, v);
    }
    va_end(ap);
    return run_one(o, w, what, ov, n);
}

static void search_swl(eval_options *o, wl_eval *w) {
    double best = -1.0;
    int below = 0;
    w->nswl = 0;
    for (uint32_t i = 0; i < o->nswl_grid && w->nswl < MAX_GRID; i++) {
        uint32_t n = o->swl_grid[i];
        result r;
        if (n == 32) {
            r = w->gto; /* warp_limiting:gto:32 on 32-warp SMs is GTO, decision for decision */
        } else {
            char spec[64];
            snprintf(spec, sizeof spec, "warp_limiting:gto:%u", n);
            r = run_sched(o, w, spec, 1, NULL);
        }
        w->swl_n[w->nswl] = n;
        w->swl[w->nswl] = r;
        w->nswl++;
        if (r.ok && r.ipc > best) {
            best = r.ipc;
            w->best = w->nswl - 1;
            below = 0;
        } else if ((!r.ok || r.ipc < best) && ++below == 2 && w->e->cls != HCS) {
            break; /* equal IPC (N at or above the warps an SM holds) is not a drop */
        }
    }
}

static void run_workload(eval_options *o, wl_eval *w) {
    w->lrr = run_sched(o, w, "lrr", 1, NULL);
    w->gto = run_sched(o, w, "gto", 1, NULL);
    w->tlv = run_sched(o, w, "two_level_active:2:gto:gto", 1, NULL);
    w->ccws = run_sched(o, w, "ccws", 1, NULL);
    w->unb = run_sched(o, w, "lrr", 1, "-l1d_unbounded", "1", NULL);
    search_swl(o, w);
    if (w->e->cls != HCS) return;
    if (!o->quick && w->size != w->wl->wl->default_size) { /* Fig. 2 at the default size too */
        uint32_t eval_size = w->size;
        w->size = w->wl->wl->default_size;
        w->def_lrr = run_sched(o, w, "lrr", 0, NULL);
        w->def_unb = run_sched(o, w, "lrr", 0, "-l1d_unbounded", "1", NULL);
        w->size = eval_size;
    }
    for (uint32_t i = 0; i < o->nk; i++) {
        char k[16];
        snprintf(k, sizeof k, "%u", o->k_sweep[i]);
        w->ksw[i] = o->k_sweep[i] == DEFAULT_K ? w->ccws : run_sched(o, w, "ccws", 0, "-ccws_k_throttle", k, NULL);
    }
    for (uint32_t i = 0; i < o->nvta; i++) {
        char n[16], a[16];
        uint32_t e = o->vta_sweep[i];
        snprintf(n, sizeof n, "%u", e);
        snprintf(a, sizeof a, "%u", e < 8 ? e : 8);
        w->vsw[i] = e == DEFAULT_VTA ? w->ccws
                                     : run_sched(o, w, "ccws", 0, "-ccws_vta_entries", n, "-ccws_vta_assoc", a, NULL);
    }
}

/* ---- report helpers ---- */

static double norm(const result *r, const result *base) { return r->ok && base->ok && base->ipc > 0 ? r->ipc / base->ipc : 0; }

/* Harmonic mean of the positive values (0 if none). */
static double hmean(const double *x, uint32_t n) {
    double inv = 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (x[i] > 0) inv += 1.0 / x[i], k++;
    return k ? k / inv : 0;
}

static double amean(const double *x, uint32_t n) {
    double s = 0;
    for (uint32_t i = 0; i < n; i++) s += x[i];
    return n ? s / n : 0;
}

static const result *best_swl(const wl_eval *w) { return &w->swl[w->best]; }

typedef const result *(*pick_fn)(const wl_eval *w);
static const result *pick_lrr(const wl_eval *w) { return &w->lrr; }
static const result *pick_gto(const wl_eval *w) { return &w->gto; }
static const result *pick_tlv(const wl_eval *w) { return &w->tlv; }
static const result *pick_swl(const wl_eval *w) { return best_swl(w); }
static const result *pick_ccws(const wl_eval *w) { return &w->ccws; }

static const struct {
    const char *name;
    pick_fn pick;
} scheds[] = {{"LRR", pick_lrr}, {"GTO", pick_gto}, {"2LVL-GTO", pick_tlv}, {"Best-SWL", pick_swl}, {"CCWS", pick_ccws}};
#define NSCHED 5

/* HMEAN over a class of a scheduler's IPC normalised to GTO. */
static double class_hmean(const wl_eval *w, uint32_t n, int cls, pick_fn pick) {
    double x[MAX_WL];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (cls < 0 || w[i].e->cls == cls) x[k++] = norm(pick(&w[i]), &w[i].gto);
    return hmean(x, k);
}

static double class_mpki(const wl_eval *w, uint32_t n, int cls, pick_fn pick, int bel) {
    double x[MAX_WL];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (w[i].e->cls == cls) x[k++] = bel ? pick(&w[i])->bel_mpki : pick(&w[i])->mpki;
    return amean(x, k);
}

static int class_count(const wl_eval *w, uint32_t n, int cls) {
    int k = 0;
    for (uint32_t i = 0; i < n; i++) k += w[i].e->cls == cls;
    return k;
}

static void cell(FILE *f, const result *r, double v, const char *fmt) {
    if (!r->ok) fprintf(f, " FAIL |");
    else {
        fputc(' ', f);
        fprintf(f, fmt, v);
        fprintf(f, " |");
    }
}

static const char *pct(char *buf, size_t n, double ratio) {
    snprintf(buf, n, "%+.0f%%", (ratio - 1.0) * 100.0);
    return buf;
}

/* ---- report sections ---- */

static void write_header(FILE *f, const eval_options *o, const wl_eval *w, uint32_t n) {
    fprintf(f, "# CCWS on locsim: the paper's evaluation reproduced\n\n");
    fprintf(f, "Generated by `locsim ccws-eval%s` (src/cli/cmd_ccws_eval.c); do not edit by hand (the discussion "
               "at the end comes from `%s`).\n\n",
            o->quick ? " --quick" : "", o->notes);
    fprintf(f, "Paper: T. G. Rogers, M. O'Connor, T. M. Aamodt, *Cache-Conscious Wavefront Scheduling*, MICRO 2012. "
               "Configuration `" CONFIG "` (the paper's Table 1: 30 SMs, 32 warps/SM, SIMD width 8, L1D 32 KB "
               "8-way 128 B LRU, 8 x 128 KB L2, GDDR3, 1 warp scheduler per SM), seed %d. "
               "Every run is complete (all kernels to the end) and self-checked against the CPU reference.\n\n",
            SEED);
    fprintf(f, "Mechanisms: LRR = `lrr`; GTO = `gto`; 2LVL-GTO = `two_level_active:2:gto:gto` (fetch groups of 2, GTO "
               "inside and across, the paper's best 2LVL); Best-SWL = `warp_limiting:gto:N` with the best N found by "
               "the search below; CCWS = `ccws` with K_throttle 8, base score 100, 16 victim tags per warp, 8-way "
               "(the paper's Table 3). `<sched>-BEL` = misses of a Belady-optimal L1D (same 32 sets x 8 ways and set "
               "index) replaying that scheduler's L1D access stream (`-l1d_access_analysis 1`), per 1000 thread "
               "instructions of the same run.\n\n");
    fprintf(f, "Best-SWL search: N over the grid");
    for (uint32_t i = 0; i < o->nswl_grid; i++) fprintf(f, "%s%u", i ? ", " : " ", o->swl_grid[i]);
    fprintf(f, " in that order (N = 32 is GTO itself); ties keep the larger N. Highly cache-sensitive workloads run "
               "the whole grid. The others stop once two of the N tried since the best so far have a lower IPC (an N "
               "with the same IPC, e.g. one at or above the warps an SM holds, does not count), which assumes IPC rises "
               "to one peak as N falls and then drops (the paper's Fig. 3; it ran all 32 values).\n\n");
    fprintf(f, "Classes (the paper's Table 2):");
    for (int c = 0; c < NCLASS; c++) fprintf(f, "%s %s = %s", c ? ";" : "", class_short[c], class_long[c]);
    fprintf(f, ".\n\n");
    fprintf(f, "| class | workload (paper) | evaluation size | default size | what the size means |\n|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "| %s | %s (%s) | %u | %u | %s |\n", class_short[w[i].e->cls], w[i].e->name, w[i].e->paper,
                w[i].size, w[i].wl->wl->default_size, w[i].wl->wl->description);
    fprintf(f, "\nEvaluation sizes: the default size of every workload, except bfs, memc and gc at half of it (each "
               "highly cache-sensitive workload carries about 30 runs: Best-SWL grid, K_throttle and VTA sweeps) and "
               "nw at half of it (one launch per tile diagonal makes its runs the slowest per instruction), because the "
               "whole evaluation must run in under 30 minutes on one core. The halving was chosen from run times "
               "alone, not from any scheduler's result; the cache-sensitivity table below repeats the LRR "
               "32 KB vs unbounded comparison of the three highly cache-sensitive ones at their default sizes.\n\n");
}

static void write_unbounded(FILE *f, const wl_eval *w, uint32_t n) {
    fprintf(f, "## Cache sensitivity (paper Fig. 2): LRR with a 32 KB vs an unbounded L1D\n\n");
    fprintf(f, "Unbounded = `-l1d_unbounded 1` (8192 sets x 32 ways per SM, same MSHRs); its eviction count shows it "
               "never had to replace a line. The paper: 3x or more for the highly cache-sensitive class.\n\n");
    fprintf(f, "| class | workload | IPC 32 KB | IPC unbounded | speedup | L1D MPKI 32 KB | L1D MPKI unbounded | "
               "evictions unbounded |\n|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++) {
        const wl_eval *x = &w[i];
        fprintf(f, "| %s | %s |", class_short[x->e->cls], x->e->name);
        cell(f, &x->lrr, x->lrr.ipc, "%.2f");
        cell(f, &x->unb, x->unb.ipc, "%.2f");
        cell(f, &x->unb, norm(&x->unb, &x->lrr), "%.2fx");
        cell(f, &x->lrr, x->lrr.mpki, "%.2f");
        cell(f, &x->unb, x->unb.mpki, "%.2f");
        cell(f, &x->unb, x->unb.evictions, "%.0f");
        fputc('\n', f);
    }
    int any = 0;
    for (uint32_t i = 0; i < n; i++) any |= w[i].def_lrr.ok || w[i].def_unb.ok;
    if (!any) {
        fputc('\n', f);
        return;
    }
    fprintf(f, "\nThe same at the default size of the highly cache-sensitive workloads evaluated at a smaller size:\n\n");
    fprintf(f, "| workload | default size | IPC 32 KB | IPC unbounded | speedup | L1D MPKI 32 KB | L1D MPKI unbounded | "
               "evictions unbounded |\n|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++) {
        const wl_eval *x = &w[i];
        if (!x->def_lrr.ok && !x->def_unb.ok) continue;
        fprintf(f, "| %s | %u |", x->e->name, x->wl->wl->default_size);
        cell(f, &x->def_lrr, x->def_lrr.ipc, "%.2f");
        cell(f, &x->def_unb, x->def_unb.ipc, "%.2f");
        cell(f, &x->def_unb, norm(&x->def_unb, &x->def_lrr), "%.2fx");
        cell(f, &x->def_lrr, x->def_lrr.mpki, "%.2f");
        cell(f, &x->def_unb, x->def_unb.mpki, "%.2f");
        cell(f, &x->def_unb, x->def_unb.evictions, "%.0f");
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void write_ipc(FILE *f, const wl_eval *w, uint32_t n) {
    fprintf(f, "## Performance (paper Figs. 7 and 9): IPC normalised to GTO\n\n");
    fprintf(f, "| class | workload | GTO IPC |");
    for (int s = 0; s < NSCHED; s++) fprintf(f, " %s |", scheds[s].name);
    fprintf(f, " Best-SWL N |\n|---|---|---|");
    for (int s = 0; s < NSCHED; s++) fprintf(f, "---|");
    fprintf(f, "---|\n");
    for (int c = 0; c < NCLASS; c++) {
        if (!class_count(w, n, c)) continue;
        for (uint32_t i = 0; i < n; i++) {
            const wl_eval *x = &w[i];
            if (x->e->cls != c) continue;
            fprintf(f, "| %s | %s |", class_short[c], x->e->name);
            cell(f, &x->gto, x->gto.ipc, "%.2f");
            for (int s = 0; s < NSCHED; s++) cell(f, scheds[s].pick(x), norm(scheds[s].pick(x), &x->gto), "%.3f");
            fprintf(f, " %u |\n", x->swl_n[x->best]);
        }
        fprintf(f, "| %s | **HMEAN** | |", class_short[c]);
        for (int s = 0; s < NSCHED; s++) fprintf(f, " **%.3f** |", class_hmean(w, n, c, scheds[s].pick));
        fprintf(f, " |\n");
    }
    fputc('\n', f);
}

static void write_mpki(FILE *f, const wl_eval *w, uint32_t n) {
    fprintf(f, "## L1D misses (paper Figs. 8 and 10): MPKI, with Belady-optimal replacement on each stream\n\n");
    fprintf(f, "| class | workload | LRR | LRR-BEL | GTO | GTO-BEL | 2LVL-GTO | 2LVL-GTO-BEL | Best-SWL | CCWS |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int c = 0; c < NCLASS; c++) {
        if (!class_count(w, n, c)) continue;
        for (uint32_t i = 0; i < n; i++) {
            const wl_eval *x = &w[i];
            if (x->e->cls != c) continue;
            fprintf(f, "| %s | %s |", class_short[c], x->e->name);
            cell(f, &x->lrr, x->lrr.mpki, "%.2f");
            cell(f, &x->lrr, x->lrr.bel_mpki, "%.2f");
            cell(f, &x->gto, x->gto.mpki, "%.2f");
            cell(f, &x->gto, x->gto.bel_mpki, "%.2f");
            cell(f, &x->tlv, x->tlv.mpki, "%.2f");
            cell(f, &x->tlv, x->tlv.bel_mpki, "%.2f");
            cell(f, best_swl(x), best_swl(x)->mpki, "%.2f");
            cell(f, &x->ccws, x->ccws.mpki, "%.2f");
            fputc('\n', f);
        }
        fprintf(f, "| %s | **AVG** | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", class_short[c],
                class_mpki(w, n, c, pick_lrr, 0), class_mpki(w, n, c, pick_lrr, 1), class_mpki(w, n, c, pick_gto, 0),
                class_mpki(w, n, c, pick_gto, 1), class_mpki(w, n, c, pick_tlv, 0), class_mpki(w, n, c, pick_tlv, 1),
                class_mpki(w, n, c, pick_swl, 0), class_mpki(w, n, c, pick_ccws, 0));
    }
    fputc('\n', f);
}

static void breakdown_row(FILE *f, const char *wl, const char *sched, const result *r) {
    fprintf(f, "| %s | %s |", wl, sched);
    cell(f, r, r->read_miss_pki, "%.2f");
    cell(f, r, r->intra_thread_pki, "%.2f");
    cell(f, r, r->inter_thread_pki, "%.2f");
    cell(f, r, r->inter_warp_pki, "%.2f");
    cell(f, r, r->inter_kernel_pki, "%.2f");
    double intra = r->intra_thread_pki + r->inter_thread_pki, kernel = intra + r->inter_warp_pki;
    double all = kernel + r->inter_kernel_pki;
    cell(f, r, all > 0 ? 100.0 * intra / all : 0, "%.0f%%");
    cell(f, r, kernel > 0 ? 100.0 * intra / kernel : 0, "%.0f%%");
    fputc('\n', f);
}

static void write_breakdown(FILE *f, const wl_eval *w, uint32_t n) {
    fprintf(f, "## Locality breakdown (paper Fig. 11): L1D read misses and hits per 1000 instructions, HCS\n\n");
    fprintf(f, "A read hit (or pending hit) is intra-warp when the same warp brought the line in (its miss "
               "allocated the line this time the line entered the L1D: the paper's \"initially referenced\"), and "
               "then intra-thread when one of the hitting lanes was a lane of that initial access, inter-thread "
               "otherwise; inter-warp when another warp of the same kernel brought it in; inter-kernel when a warp of "
               "an earlier kernel did (the L1D keeps its lines across kernels; the paper's inter-wavefront class is "
               "inter-warp + inter-kernel). Warps are dynamic (CTA, warp index).\n\n");
    fprintf(f, "| workload | scheduler | read misses | intra-thread hits | inter-thread hits | inter-warp hits | "
               "inter-kernel hits | intra-warp share of hits | ... of hits within a kernel |\n"
               "|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++) {
        if (w[i].e->cls != HCS) continue;
        for (int s = 0; s < NSCHED; s++) breakdown_row(f, w[i].e->name, scheds[s].name, scheds[s].pick(&w[i]));
    }
    fprintf(f, "\n## Locality with an unbounded L1D (paper Figs. 1 and 12): LRR stream, per 1000 instructions\n\n");
    fprintf(f, "| workload | scheduler | read misses | intra-thread hits | inter-thread hits | inter-warp hits | "
               "inter-kernel hits | intra-warp share of hits | ... of hits within a kernel |\n"
               "|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s (%s)", w[i].e->name, class_short[w[i].e->cls]);
        breakdown_row(f, name, "LRR, unbounded", &w[i].unb);
    }
    fputc('\n', f);
}

static void write_swl(FILE *f, const wl_eval *w, uint32_t n) {
    fprintf(f, "## Static warp limiting (paper Figs. 3 and 17, Table 3): IPC normalised to N = 32 (GTO)\n\n");
    fprintf(f, "Each row lists the N the search evaluated; **bold** is Best-SWL. Paper's best N: BFS 5, KMN 4, "
               "MEMC 7, GC 4, all others 32.\n\n| workload | IPC(N) / IPC(32) | best N |\n|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++) {
        const wl_eval *x = &w[i];
        fprintf(f, "| %s |", x->e->name);
        for (uint32_t k = 0; k < x->nswl; k++) {
            const char *b = k == x->best ? "**" : "";
            if (!x->swl[k].ok) fprintf(f, " N=%u: FAIL", x->swl_n[k]);
            else fprintf(f, " %sN=%u: %.3f%s", b, x->swl_n[k], norm(&x->swl[k], &x->gto), b);
            if (k + 1 < x->nswl) fputc(',', f);
        }
        fprintf(f, " | %u |\n", x->swl_n[x->best]);
    }
    fputc('\n', f);
}

static void write_sweep(FILE *f, const wl_eval *w, uint32_t n, const char *title, const char *param,
                        const uint32_t *values, uint32_t nv, int ksweep) {
    fprintf(f, "## %s\n\n", title);
    fprintf(f, "CCWS IPC normalised to GTO (and L1D MPKI) per %s value, highly cache-sensitive workloads.\n\n", param);
    fprintf(f, "| workload |");
    for (uint32_t v = 0; v < nv; v++) fprintf(f, " %s=%u |", param, values[v]);
    fprintf(f, "\n|---|");
    for (uint32_t v = 0; v < nv; v++) fprintf(f, "---|");
    fputc('\n', f);
    for (uint32_t i = 0; i < n; i++) {
        if (w[i].e->cls != HCS) continue;
        fprintf(f, "| %s |", w[i].e->name);
        for (uint32_t v = 0; v < nv; v++) {
            const result *r = ksweep ? &w[i].ksw[v] : &w[i].vsw[v];
            if (!r->ok) fprintf(f, " FAIL |");
            else fprintf(f, " %.3f (%.1f) |", norm(r, &w[i].gto), r->mpki);
        }
        fputc('\n', f);
    }
    fprintf(f, "| **HMEAN (AVG MPKI)** |");
    for (uint32_t v = 0; v < nv; v++) {
        double x[MAX_WL], m[MAX_WL];
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (w[i].e->cls != HCS) continue;
            const result *r = ksweep ? &w[i].ksw[v] : &w[i].vsw[v];
            x[k] = norm(r, &w[i].gto);
            m[k++] = r->mpki;
        }
        fprintf(f, " **%.3f** (%.1f) |", hmean(x, k), amean(m, k));
    }
    fprintf(f, "\n\n");
}

static void write_ccws_stats(FILE *f, const wl_eval *w, uint32_t n) {
    fprintf(f, "## What CCWS did (its own statistics, main configuration)\n\n");
    fprintf(f, "VTA hits per 1000 instructions and per L1D read miss; share of SM cycles (awake, warps live) in which "
               "at least one warp was denied loads; warps allowed to load vs live warps, averaged over those cycles.\n\n");
    fprintf(f, "| class | workload | VTA hits PKI | VTA hits / probe | throttled cycles | warps allowed to load | "
               "live warps |\n|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < n; i++) {
        const result *r = &w[i].ccws;
        fprintf(f, "| %s | %s |", class_short[w[i].e->cls], w[i].e->name);
        cell(f, r, r->insn > 0 ? 1000.0 * r->vta_hits / r->insn : 0, "%.3f");
        cell(f, r, r->vta_probes > 0 ? r->vta_hits / r->vta_probes : 0, "%.3f");
        cell(f, r, 100.0 * r->throttled_frac, "%.1f%%");
        cell(f, r, r->avg_load_warps, "%.2f");
        cell(f, r, r->avg_live_warps, "%.2f");
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void write_claims(FILE *f, const wl_eval *w, uint32_t n) {
    char a[32], b[32];
    double ccws_hcs = class_hmean(w, n, HCS, pick_ccws), lrr_hcs = class_hmean(w, n, HCS, pick_lrr);
    double tlv_hcs = class_hmean(w, n, HCS, pick_tlv), swl_hcs = class_hmean(w, n, HCS, pick_swl);
    double ccws_mcs = class_hmean(w, n, MCS, pick_ccws), ccws_ci = class_hmean(w, n, CI, pick_ccws);
    fprintf(f, "## Side by side with the paper\n\n");
    fprintf(f, "HMEAN of IPC normalised to GTO over the class's workloads; MPKI averaged over the class.\n\n");
    fprintf(f, "| claim | paper | locsim | same direction? |\n|---|---|---|---|\n");
    if (class_count(w, n, HCS)) {
        fprintf(f, "| CCWS over GTO, HCS (HMEAN IPC) | +63%% | %s | %s |\n", pct(a, sizeof a, ccws_hcs),
                ccws_hcs > 1.0 ? "yes (CCWS faster)" : "no");
        fprintf(f, "| CCWS over 2LVL-GTO, HCS | +72%% | %s | %s |\n",
                pct(a, sizeof a, tlv_hcs > 0 ? ccws_hcs / tlv_hcs : 0), ccws_hcs > tlv_hcs ? "yes" : "no");
        fprintf(f, "| LRR vs GTO, HCS | 64%% slower (normalised IPC 0.36; 0.61 if read as \"GTO 1.64x\") | "
                   "normalised IPC %.3f (%s) | %s |\n",
                lrr_hcs, pct(b, sizeof b, lrr_hcs), lrr_hcs < 1.0 ? "yes (LRR slower)" : "no");
        fprintf(f, "| Best-SWL vs CCWS, HCS | Best-SWL slightly ahead | Best-SWL %s, CCWS %s over GTO | %s |\n",
                pct(a, sizeof a, swl_hcs), pct(b, sizeof b, ccws_hcs), swl_hcs >= ccws_hcs ? "yes" : "no");
        double m_ccws = class_mpki(w, n, HCS, pick_ccws, 0), m_gbel = class_mpki(w, n, HCS, pick_gto, 1);
        double m_tbel = class_mpki(w, n, HCS, pick_tlv, 1), m_lbel = class_mpki(w, n, HCS, pick_lrr, 1);
        int below = 0, nh = 0;
        for (uint32_t i = 0; i < n; i++)
            if (w[i].e->cls == HCS) nh++, below += w[i].ccws.ok && w[i].ccws.mpki < w[i].gto.bel_mpki;
        fprintf(f, "| CCWS MPKI vs GTO-BEL, HCS | below | CCWS %.2f, GTO-BEL %.2f (below on %d of %d workloads) | %s |\n",
                m_ccws, m_gbel, below, nh, m_ccws < m_gbel ? "yes (below)" : "no");
        fprintf(f, "| CCWS MPKI vs 2LVL-GTO-BEL, HCS | below | CCWS %.2f, 2LVL-GTO-BEL %.2f | %s |\n", m_ccws, m_tbel,
                m_ccws < m_tbel ? "yes (below)" : "no");
        fprintf(f, "| every scheduler vs LRR-BEL, HCS | all below LRR-BEL | LRR-BEL %.2f, GTO %.2f, CCWS %.2f | %s |\n",
                m_lbel, class_mpki(w, n, HCS, pick_gto, 0), m_ccws,
                class_mpki(w, n, HCS, pick_gto, 0) < m_lbel && m_ccws < m_lbel ? "yes" : "no");
    }
    if (class_count(w, n, MCS))
        fprintf(f, "| CCWS vs GTO, MCS | no degradation | %s | %s |\n", pct(a, sizeof a, ccws_mcs),
                ccws_mcs >= 0.98 ? "yes (within 2%)" : "no");
    if (class_count(w, n, CI))
        fprintf(f, "| CCWS vs GTO, CI | no degradation | %s | %s |\n", pct(a, sizeof a, ccws_ci),
                ccws_ci >= 0.98 ? "yes (within 2%)" : "no");
    if (class_count(w, n, HCS) && class_count(w, n, MCS)) {
        double x[MAX_WL];
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (w[i].e->cls != CI) x[k++] = norm(&w[i].ccws, &w[i].gto);
        fprintf(f, "| CCWS over GTO, HCS + MCS | +24%% | %s | %s |\n", pct(a, sizeof a, hmean(x, k)),
                hmean(x, k) > 1.0 ? "yes" : "no");
    }
    fputc('\n', f);
}

static void write_notes(FILE *f, const char *path) {
    FILE *in = fopen(path, "r");
    fprintf(f, "## Discussion\n\n");
    if (!in) {
        fprintf(f, "(no notes: %s not found)\n", path);
        return;
    }
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, k, f);
    fclose(in);
}

/* ---- the results file: one line per run, "key<TAB>ok<TAB>fields..." (%.17g) ---- */

static int save_results(const eval_options *o) {
    FILE *f = fopen(o->results, "w");
    if (!f) {
        fprintf(stderr, "locsim: ccws-eval: cannot write %s: %s\n", o->results, strerror(errno));
        return -1;
    }
    fprintf(f, "# locsim ccws-eval results: key (workload size run) <TAB> passed <TAB>");
#define H(field, name) fprintf(f, " %s", name);
    RESULT_FIELDS(H)
#undef H
    fputc('\n', f);
    for (uint32_t i = 0; i < o->nsaved; i++) {
        const result *r = &o->saved[i].r;
        fprintf(f, "%s\t%d", o->saved[i].key, r->ok);
#define W(field, name) fprintf(f, "\t%.17g", r->field);
        RESULT_FIELDS(W)
#undef W
        fputc('\n', f);
    }
    int bad = ferror(f);
    return fclose(f) || bad ? -1 : 0;
}

static int load_results(eval_options *o) {
    FILE *f = fopen(o->results, "r");
    if (!f) {
        fprintf(stderr, "locsim: ccws-eval: cannot read %s: %s (run the evaluation first)\n", o->results,
                strerror(errno));
        return -1;
    }
    char line[1024];
    uint32_t lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tab = strchr(line, '\t');
        if (!tab || (size_t)(tab - line) >= sizeof o->saved[0].key || o->nsaved == MAX_RUNS) goto bad;
        saved_run *s = &o->saved[o->nsaved];
        memset(s, 0, sizeof *s);
        memcpy(s->key, line, (size_t)(tab - line));
        char *p = tab + 1, *end;
        s->r.ok = (int)strtol(p, &end, 10);
        if (end == p) goto bad;
        p = end;
#define R(field, name)                   \
    s->r.field = strtod(p, &end);        \
    if (end == p) goto bad;              \
    p = end;
        RESULT_FIELDS(R)
#undef R
        o->nsaved++;
    }
    fclose(f);
    return 0;
bad:
#define COUNT(field, name) +1
    fprintf(stderr, "locsim: ccws-eval: %s:%u: expected '<key>\\t<passed>' and %d numbers\n", o->results, lineno,
            0 RESULT_FIELDS(COUNT));
#undef COUNT
    fclose(f);
    return -1;
}

/* ---- options ---- */

static int select_workloads(eval_options *o, const char *list) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    o->nsel = 0;
    for (char *p = strtok(buf, ","); p; p = strtok(NULL, ",")) {
        size_t i = 0;
        while (i < NSUITE && strcmp(suite[i].name, p)) i++;
        if (i == NSUITE) {
            fprintf(stderr, "locsim: ccws-eval: '%s' is not one of the paper's workloads (", p);
            for (size_t k = 0; k < NSUITE; k++) fprintf(stderr, "%s%s", k ? ", " : "", suite[k].name);
            fprintf(stderr, ")\n");
            return -1;
        }
        if (o->nsel < MAX_WL) o->sel[o->nsel++] = &suite[i];
    }
    return o->nsel ? 0 : -1;
}

static int parse_eval(int argc, char **argv, eval_options *o) {
    memset(o, 0, sizeof *o);
    o->out = "docs/results/ccws.md";
    o->notes = "docs/results/ccws-notes.md";
    o->results = NULL;     /* default: next to --out, "<out without .md>-runs.tsv" */
    for (size_t i = 0; i < NSUITE; i++) o->sel[o->nsel++] = &suite[i];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if (!strcmp(a, "--report-only")) {
            o->report_only = 1;
        } else if (!strcmp(a, "--out") || !strcmp(a, "--notes") || !strcmp(a, "--workloads") ||
                   !strcmp(a, "--results")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "locsim: ccws-eval: %s needs a value\n", a);
                return -1;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--out")) o->out = v;
            else if (!strcmp(a, "--notes")) o->notes = v;
            else if (!strcmp(a, "--results")) o->results = v;
            else if (select_workloads(o, v)) return -1;
        } else {
            fprintf(stderr, "locsim: ccws-eval: unknown option '%s' (expected --out FILE, --notes FILE, "
                            "--results FILE, --workloads a,b,..., --quick, --report-only)\n", a);
            return -1;
        }
    }
    if (!o->results) {
        size_t len = strlen(o->out);
        if (len > 3 && !strcmp(o->out + len - 3, ".md")) len -= 3;
        snprintf(o->results_buf, sizeof o->results_buf, "%.*s-runs.tsv", (int)len, o->out);
        o->results = o->results_buf;
    }
    if (o->quick) {
        o->swl_grid = QUICK_SWL_GRID, o->nswl_grid = 3;
        o->k_sweep = QUICK_K, o->nk = 3;
        o->vta_sweep = QUICK_VTA, o->nvta = 3;
    } else {
        o->swl_grid = SWL_GRID, o->nswl_grid = sizeof SWL_GRID / sizeof SWL_GRID[0];
        o->k_sweep = K_SWEEP, o->nk = sizeof K_SWEEP / sizeof K_SWEEP[0];
        o->vta_sweep = VTA_SWEEP, o->nvta = sizeof VTA_SWEEP / sizeof VTA_SWEEP[0];
    }
    return 0;
}

int cmd_ccws_eval(int argc, char **argv) {
    eval_options o;
    if (parse_eval(argc, argv, &o)) return 2;
    static wl_eval res[MAX_WL];
    static saved_run saved[MAX_RUNS];
    memset(res, 0, sizeof res);
    o.saved = saved;
    if (o.report_only && load_results(&o)) return 2;
    o.t0 = cli_now_seconds();
    for (uint32_t i = 0; i < o.nsel; i++) {
        res[i].e = o.sel[i];
        res[i].wl = workload_find(o.sel[i]->name);
        if (!res[i].wl) {
            fprintf(stderr, "locsim: ccws-eval: workload '%s' is not built in\n", o.sel[i]->name);
            return 2;
        }
        res[i].size = o.quick ? 1 : o.sel[i]->size;
    }
    for (uint32_t i = 0; i < o.nsel; i++) run_workload(&o, &res[i]);
    if (o.missing) {
        fprintf(stderr, "locsim: ccws-eval: %u runs missing from %s: run the evaluation without --report-only\n",
                o.missing, o.results);
        return 2;
    }
    if (!o.report_only && save_results(&o)) {
        fprintf(stderr, "locsim: ccws-eval: cannot write %s\n", o.results);
        return 2;
    }
    FILE *f = fopen(o.out, "w");
    if (!f) {
        fprintf(stderr, "locsim: ccws-eval: cannot write %s: %s\n", o.out, strerror(errno));
        return 2;
    }
    write_header(f, &o, res, o.nsel);
    write_claims(f, res, o.nsel);
    write_unbounded(f, res, o.nsel);
    write_ipc(f, res, o.nsel);
    write_mpki(f, res, o.nsel);
    write_breakdown(f, res, o.nsel);
    write_swl(f, res, o.nsel);
    write_sweep(f, res, o.nsel, "K_throttle sweep (paper Fig. 16)", "K", o.k_sweep, o.nk, 1);
    write_sweep(f, res, o.nsel, "Victim tag array size sweep (paper Fig. 13): entries per warp (8-way, fully "
                                "associative below 8)", "EPW", o.vta_sweep, o.nvta, 0);
    write_ccws_stats(f, res, o.nsel);
    write_notes(f, o.notes);
    int werr = ferror(f);
    if (fclose(f) || werr) {
        fprintf(stderr, "locsim: ccws-eval: error writing %s\n", o.out);
        return 2;
    }
    int failures = 0;
    for (uint32_t i = 0; i < o.nsel; i++)
        failures += !res[i].lrr.ok + !res[i].gto.ok + !res[i].tlv.ok + !res[i].ccws.ok + !res[i].unb.ok;
    fprintf(stderr, "locsim: ccws-eval: %u runs in %.1f s host time; wrote %s%s%s\n", o.runs, cli_now_seconds() - o.t0,
            o.out, o.report_only ? "" : " and ", o.report_only ? "" : o.results);
    if (failures) fprintf(stderr, "locsim: ccws-eval: some runs FAILED their output check\n");
    return failures ? 1 : 0;
}
