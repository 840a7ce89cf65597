/* locsim report (see report.h and docs/harness.md).
 *
 * A recipe is a list of sections under `report:` in the spec; each becomes
 * blocks (heading, paragraph, table, chart) written twice: Markdown (charts
 * are left to the HTML) and one self-contained HTML file (inline CSS, inline
 * SVG, no script).  Numbers come from templates: "${expr}" or "${expr:fmt}",
 * expr over statistics of the whole run (kernel = total) of a variant on the
 * row's workload, e.g. ${ccws.gpu_tot_ipc / gto.gpu_tot_ipc:%.3f}; aggregates
 * over a class: ${hmean(HCS, ccws.gpu_tot_ipc / gto.gpu_tot_ipc):pct}.
 * The values a report shows are those of the runs this spec and this locsim
 * binary would make (their keys), so a report never mixes in stale runs. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/db.h"
#include "harness/equiv.h"
#include "harness/report.h"
#include "harness/points.h"
#include "harness/results_file.h"
#include "harness/spec.h"
#include "harness/sweep.h"
#include "sim/outfile.h"
#include "workload.h"

/* ---- runs, loaded from the database on first use ---- */

typedef struct {
    char key[65];
    int found, ok, capped;   /* capped: ok, but a -gpgpu_max_* cap ended its timing part */
    int stale;               /* not this model's run: the latest of the same point by an earlier one */
    char version[128];
    char status[32];
    char **names;      /* sorted */
    double *values;
    int n;
    double cpu_s, wall_s;
} run_data;

typedef struct {
    const spec_workload *w;
    uint32_t size;
} row;

typedef struct {
    char *name, *label;
    const spec_grid *grid;
    char *by;          /* expression with $ = each grid variant */
    int maximise;
    int line;
} derived;

typedef struct report report;

/* One block of output. */
enum { B_HEADING, B_TEXT, B_TABLE, B_CHART };
typedef struct {
    int kind;
    int level;               /* heading */
    char *text;              /* heading / text / title of a chart */
    char **head;             /* table header */
    int ncols;
    char ***cells;           /* table rows */
    int *summary;            /* row is a summary row */
    int nrows, caprows;
    /* chart: bars[group][series] */
    char **groups, **series;
    int ngroups, nseries;
    double *bars;
    int *bar_state;
    double reference;        /* draw a line at this value (NaN: none) */
    char *ylabel;
} block;

struct report {
    spec *s;
    sweep_plan plan;
    results_db db;
    run_data *runs;
    int nruns, capruns;
    derived *derived;
    int nderived;
    block *blocks;
    int nblocks, capblocks;
    int missing, failed, errors;
    int stale;               /* values shown from an earlier model's runs */
    char stale_versions[512];/* their versions, for the note */
    model_set accepted_models; /* models whose runs are this one's (harness/equiv.h) */
    int accepted;            /* runs taken from them */
    int has_regime;          /* the recipe placed the regime table (else it goes at the end) */
    char err[1024];
};

static void *xmalloc(size_t n) {
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "locsim: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s) {
    char *p = xmalloc(strlen(s) + 1);
    strcpy(p, s);
    return p;
}

static char *xprintf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *p = NULL;
    if (vasprintf(&p, fmt, ap) < 0) p = NULL;
    va_end(ap);
    if (!p) {
        fprintf(stderr, "locsim: out of memory\n");
        exit(2);
    }
    return p;
}

/* A run of this model, or else the latest complete run of the same point by an
 * earlier model (stale: shown with a dagger until the sweep reruns it). */
static sqlite3_int64 find_run(report *R, run_data *r, const char *sql, const char *arg) {
    sqlite3_stmt *st;
    sqlite3_int64 id = -1;
    if (sqlite3_prepare_v2(R->db.db, sql, -1, &st, NULL) != SQLITE_OK) return -1;   /* an old file: no point column */
    sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        r->found = 1;
        snprintf(r->status, sizeof r->status, "%s", (const char *)sqlite3_column_text(st, 0));
        r->ok = db_status_complete(r->status);
        r->capped = !strcmp(r->status, "capped");
        r->cpu_s = sqlite3_column_double(st, 1);
        r->wall_s = sqlite3_column_double(st, 2);
        id = sqlite3_column_int64(st, 3);
        const char *v = (const char *)sqlite3_column_text(st, 4);
        snprintf(r->version, sizeof r->version, "%s", v ? v : "?");
    }
    sqlite3_finalize(st);
    return id;
}

static void note_stale_version(report *R, const char *version) {
    if (strstr(R->stale_versions, version)) return;
    size_t k = strlen(R->stale_versions);
    snprintf(R->stale_versions + k, sizeof R->stale_versions - k, "%s`%s`", k ? ", " : "", version);
}

static run_data *load_run(report *R, const planned_run *pr) {
    const char *key = pr->key;
    for (int i = 0; i < R->nruns; i++)
        if (!strcmp(R->runs[i].key, key)) return &R->runs[i];
    if (R->nruns == R->capruns) {
        R->capruns = R->capruns ? 2 * R->capruns : 64;
        R->runs = realloc(R->runs, (size_t)R->capruns * sizeof *R->runs);
        if (!R->runs) exit(2);
    }
    run_data *r = &R->runs[R->nruns++];
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", key);
    sqlite3_int64 id = find_run(R, r, "SELECT status, cpu_s, wall_s, id, version FROM runs WHERE key = ?", key);
    sqlite3_int64 eq_id;
    char eq_version[128];
    if (!r->found && R->accepted_models.n > 1 &&
        equiv_latest_run(&R->db, pr->point, R->accepted_models.ids[0], &R->accepted_models, &eq_id, eq_version,
                         sizeof eq_version) == 1) {
        /* an earlier model proven identical (locsim sweep --accept): this model's run in all but name */
        char idtext[32];
        snprintf(idtext, sizeof idtext, "%lld", (long long)eq_id);
        id = find_run(R, r, "SELECT status, cpu_s, wall_s, id, version FROM runs WHERE id = CAST(? AS INTEGER)",
                      idtext);
        R->accepted += r->found;
    }
    if (!r->found) {
        id = find_run(R, r,
                      "SELECT status, cpu_s, wall_s, id, version FROM runs WHERE point = ? AND status IN ('ok', "
                      "'capped') ORDER BY finished_utc DESC, id DESC LIMIT 1",
                      pr->point);
        r->stale = r->found;
        if (r->stale) note_stale_version(R, r->version);
    }
    if (!r->found) return r;
    db_totals t;
    if (db_run_totals(&R->db, id, &t)) return r;
    /* sorted by name (db_run_totals), so run_value bisects them */
    r->names = t.names;
    r->values = t.values;
    r->n = t.n;
    free(t.null);
    return r;
}

static int run_value(const run_data *r, const char *name, double *v) {
    int lo = 0, hi = r->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(r->names[mid], name);
        if (!c) {
            *v = r->values[mid];
            return 1;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

/* ---- values and expressions ---- */

/* V_NA: the spec does not run that variant on that workload (shown as '-') */
enum { V_OK = 0, V_FAIL = 1, V_MISSING = 2, V_NA = 3 };
typedef struct {
    double v;
    const char *s;     /* a string value (labels, if(...) results), or NULL */
    int state;
    int stale;         /* comes (partly) from runs of an earlier model: shown with a dagger */
} value;

typedef struct {
    report *R;
    const row *row;                 /* the row's workload, or NULL outside a row */
    const spec_config *cfg;
    const spec_variant *bound;      /* $ */
    const derived *bound_derived;
    const row *group;               /* @: the rows of the current group */
    int ngroup;
    const char *text;               /* the template, for errors */
    int line;
    const char *p;                  /* parse position */
    int error;
} ectx;

static value eval_expr(ectx *c);

static value make(double v) { return (value){v, NULL, V_OK, 0}; }
static value worst(value a, value b, double v) {
    return (value){v, NULL, a.state > b.state ? a.state : b.state, a.stale | b.stale};
}

static void eerror(ectx *c, const char *fmt, ...) {
    if (c->error) return;
    c->error = 1;
    c->R->errors++;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "locsim report: %s:%d: %s (in \"%s\")\n", c->R->s->path, c->line, msg, c->text);
}

static void skip_ws(ectx *c) {
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n') c->p++;
}

static int is_name_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static int take_name(ectx *c, char *out, size_t n, int stat) {
    size_t k = 0;
    while (is_name_char(*c->p) || (stat && (*c->p == '[' || *c->p == ']' || *c->p == '@'))) {
        if (k + 1 < n) out[k++] = *c->p;
        c->p++;
    }
    out[k] = 0;
    return k > 0;
}

static const derived *find_derived(report *R, const char *name) {
    for (int i = 0; i < R->nderived; i++)
        if (!strcmp(R->derived[i].name, name)) return &R->derived[i];
    return NULL;
}

static value variant_stat(ectx *c, const row *rw, const spec_variant *v, const char *stat);

/* Does the sweep run variant v on the row (not left out by variants: or an exclusion)? */
static int row_runs(ectx *c, const row *rw, const spec_variant *v) {
    return sweep_find(&c->R->plan, rw->w, rw->size, rw->w->seeds[0], c->cfg, v) != NULL;
}

/* The variant a derived one stands for on a row: the best of its grid by its expression. */
static const spec_variant *resolve_derived(ectx *c, const row *rw, const derived *d, int *incomplete) {
    const spec_variant *best = NULL;
    *incomplete = 0;
    double bv = 0;
    for (int i = 0; i < d->grid->nvalues; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s_%s", d->grid->name, d->grid->values[i]);
        const spec_variant *v = spec_find_variant(c->R->s, name);
        if (!v || !row_runs(c, rw, v)) continue;
        for (int k = 0; k < rw->w->nseeds; k++) {
            /* a grid not run whole has no best yet */
            const planned_run *pr = sweep_find(&c->R->plan, rw->w, rw->size, rw->w->seeds[k], c->cfg, v);
            if (pr && !load_run(c->R, pr)->found) {
                *incomplete = 1;
                return NULL;
            }
        }
        ectx sub = *c;
        sub.row = rw;
        sub.bound = v;
        sub.bound_derived = NULL;
        sub.text = d->by;
        sub.p = d->by;
        sub.line = d->line;
        value x = eval_expr(&sub);
        if (sub.error) {
            c->error = 1;
            return NULL;
        }
        if (x.state != V_OK || x.s) continue;
        /* strictly better: ties keep the earlier value of the grid */
        if (!best || (d->maximise ? x.v > bv : x.v < bv)) best = v, bv = x.v;
    }
    return best;
}

static value variant_stat(ectx *c, const row *rw, const spec_variant *v, const char *stat) {
    if (!strcmp(stat, "@value") || !strcmp(stat, "@label")) {
        const char *t = stat[1] == 'v' && v->grid_value ? v->grid_value : v->label;
        char *end;
        double x = strtod(t, &end);
        value r = {*end || !*t ? NAN : x, t, V_OK, 0};
        if (!*end && *t) r.s = NULL;
        if (stat[1] == 'l') r.s = t;
        return r;
    }
    double sum = 0;
    int state = V_OK, stale = 0;
    for (int i = 0; i < rw->w->nseeds; i++) {
        const planned_run *pr = sweep_find(&c->R->plan, rw->w, rw->size, rw->w->seeds[i], c->cfg, v);
        /* Not in the plan: the workload's variants: list or an exclusion leaves the
         * variant out there.  Shown as '-', and aggregates skip it (docs/harness.md). */
        if (!pr) return (value){NAN, NULL, V_NA, 0};
        run_data *r = load_run(c->R, pr);
        if (!r->found) {
            state = V_MISSING;
            continue;
        }
        double x;
        if (!run_value(r, stat, &x)) {
            if (!r->ok) {
                state = state > V_FAIL ? state : V_FAIL;
                continue;
            }
            eerror(c, "no statistic '%s' in the runs (see locsim run --stats, or the stat_values view)", stat);
            return (value){NAN, NULL, V_MISSING, 0};
        }
        if (!r->ok && state < V_FAIL) state = V_FAIL;
        stale |= r->stale;
        sum += x;
    }
    return (value){sum / rw->w->nseeds, NULL, state, stale};
}

static value eval_ref(ectx *c) {
    char var[128], stat[256];
    if (*c->p == '$') {
        c->p++;
        snprintf(var, sizeof var, "$");
    } else if (!take_name(c, var, sizeof var, 0)) {
        eerror(c, "expected a number, a function or variant.statistic at '%.20s'", c->p);
        return make(NAN);
    }
    skip_ws(c);
    if (*c->p != '.') {
        eerror(c, "expected '.' and a statistic after '%s' (variant.statistic)", var);
        return make(NAN);
    }
    c->p++;
    if (!take_name(c, stat, sizeof stat, 1)) {
        eerror(c, "expected a statistic name after '%s.'", var);
        return make(NAN);
    }
    if (!c->row) {
        eerror(c, "%s.%s needs a workload: use it in a table row or inside an aggregate such as amean(HCS, ...)", var,
               stat);
        return make(NAN);
    }
    const spec_variant *v = NULL;
    const derived *d = NULL;
    if (!strcmp(var, "$")) {
        v = c->bound;
        d = c->bound_derived;
        if (!v && !d) {
            eerror(c, "'$' is only defined in a column or chart over variants (each:, variants:)");
            return make(NAN);
        }
    } else if (!(d = find_derived(c->R, var)) && !(v = spec_find_variant(c->R->s, var))) {
        eerror(c, "no variant '%s' (variants:, grids: as <grid>_<value>, or report: derived:)", var);
        return make(NAN);
    }
    if (d) {
        int incomplete;
        v = resolve_derived(c, c->row, d, &incomplete);
        if (c->error) return make(NAN);
        if (!v && incomplete) return (value){NAN, NULL, V_MISSING, 0};
        if (!v) {
            int any = 0;
            for (int i = 0; i < d->grid->nvalues && !any; i++) {
                char name[256];
                snprintf(name, sizeof name, "%s_%s", d->grid->name, d->grid->values[i]);
                const spec_variant *g = spec_find_variant(c->R->s, name);
                any = g && row_runs(c, c->row, g);
            }
            return (value){NAN, NULL, any ? V_MISSING : V_NA, 0};
        }
    }
    return variant_stat(c, c->row, v, stat);
}

static int row_in_classes(const row *rw, char **cls, int n) {
    if (!n) return 1;
    for (int i = 0; i < n; i++)
        if (!strcmp(cls[i], "*") || (rw->w->cls && !strcmp(rw->w->cls, cls[i]))) return 1;
    return 0;
}

/* The rows an aggregate runs over: "@" (the current group) or CLASS[+CLASS...] or "*". */
static int aggregate_rows(ectx *c, const row **out, int *nout, row **owned) {
    *owned = NULL;
    skip_ws(c);
    if (*c->p == '@') {
        c->p++;
        *out = c->group;
        *nout = c->ngroup;
        if (!c->group) {
            eerror(c, "'@' (the rows of this group) is only defined in a table's summary row");
            return -1;
        }
        return 0;
    }
    char *cls[16];
    char names[16][64];
    int n = 0;
    do {
        skip_ws(c);
        if (*c->p == '*') {
            c->p++;
            snprintf(names[n], sizeof names[n], "*");
        } else if (!take_name(c, names[n], sizeof names[n], 0)) {
            eerror(c, "expected a class name, CLASS+CLASS, '*' or '@' as the first argument");
            return -1;
        }
        cls[n] = names[n];
        n++;
        skip_ws(c);
    } while (*c->p == '+' && n < 16 && c->p++);
    spec *s = c->R->s;
    for (int i = 0; i < n; i++) {
        int known = !strcmp(cls[i], "*");
        for (int w = 0; w < s->nworkloads && !known; w++) known = s->workloads[w].cls && !strcmp(s->workloads[w].cls, cls[i]);
        for (int k = 0; k < s->nclasses && !known; k++) known = !strcmp(s->classes[k].name, cls[i]);
        if (!known) {
            eerror(c, "no class '%s' (classes:, or a workload's class:)", cls[i]);
            return -1;
        }
    }
    row *rows = xmalloc((size_t)s->nworkloads * sizeof *rows);
    int k = 0;
    for (int w = 0; w < s->nworkloads; w++) {
        row rw = {&s->workloads[w], s->workloads[w].sizes[0]};
        if (s->workloads[w].cls && row_in_classes(&rw, cls, n)) rows[k++] = rw;
    }
    *out = rows;
    *nout = k;
    *owned = rows;
    return 0;
}

static value eval_aggregate(ectx *c, const char *fn) {
    const row *rows;
    int n;
    row *owned;
    if (aggregate_rows(c, &rows, &n, &owned)) return make(NAN);
    skip_ws(c);
    if (*c->p != ',') {
        eerror(c, "%s(CLASS, expression): expected ','", fn);
        free(owned);
        return make(NAN);
    }
    c->p++;
    const char *start = c->p;
    const row *saved = c->row;
    double acc = !strcmp(fn, "min") ? INFINITY : !strcmp(fn, "max") ? -INFINITY : !strcmp(fn, "gmean") ? 0 : 0;
    int k = 0, state = V_OK, stale = 0;
    for (int i = 0; i < n || (n == 0 && i == 0); i++) {
        c->p = start;
        c->row = n ? &rows[i] : NULL;
        if (!n) {   /* parse once to find the end, with no row */
            int depth = 0;
            while (*c->p && !(depth == 0 && *c->p == ')')) depth += (*c->p == '(') - (*c->p == ')'), c->p++;
            break;
        }
        value x = eval_expr(c);
        if (c->error) break;
        stale |= x.stale;
        if (!strcmp(fn, "count")) {
            if (x.state == V_OK && x.v != 0) acc += 1;
            continue;
        }
        if (x.state == V_NA) continue;   /* the variant does not run there: not part of the mean */
        if (x.state != V_OK) {
            state = state > x.state ? state : x.state;
            continue;
        }
        if (!strcmp(fn, "hmean")) {
            if (x.v > 0) acc += 1.0 / x.v, k++;
        } else if (!strcmp(fn, "gmean")) {
            if (x.v > 0) acc += log(x.v), k++;
        } else if (!strcmp(fn, "min")) {
            acc = x.v < acc ? x.v : acc, k++;
        } else if (!strcmp(fn, "max")) {
            acc = x.v > acc ? x.v : acc, k++;
        } else {
            acc += x.v, k++;
        }
    }
    c->row = saved;
    free(owned);
    skip_ws(c);
    if (*c->p != ')') {
        eerror(c, "%s(...): expected ')'", fn);
        return make(NAN);
    }
    c->p++;
    double v = acc;
    if (!strcmp(fn, "hmean")) v = k ? k / acc : NAN;
    else if (!strcmp(fn, "gmean")) v = k ? exp(acc / k) : NAN;
    else if (!strcmp(fn, "amean")) v = k ? acc / k : NAN;
    else if ((!strcmp(fn, "min") || !strcmp(fn, "max")) && !k) v = NAN;
    if (!strcmp(fn, "count")) state = V_OK;
    return (value){v, NULL, state, stale};
}

static value eval_string(ectx *c) {
    char q = *c->p++;
    const char *start = c->p;
    while (*c->p && *c->p != q) c->p++;
    if (!*c->p) {
        eerror(c, "unterminated string");
        return make(NAN);
    }
    /* strings live as long as the report: keep them in a block-less pool */
    static char pool[64][256];
    static int next;
    char *s = pool[next++ % 64];
    snprintf(s, sizeof pool[0], "%.*s", (int)(c->p - start), start);
    c->p++;
    return (value){NAN, s, V_OK, 0};
}

static value eval_primary(ectx *c) {
    skip_ws(c);
    if (*c->p == '(') {
        c->p++;
        value v = eval_expr(c);
        skip_ws(c);
        if (*c->p != ')') eerror(c, "expected ')'");
        else c->p++;
        return v;
    }
    if (*c->p == '"' || *c->p == '\'') return eval_string(c);
    if ((*c->p >= '0' && *c->p <= '9') || *c->p == '.') {
        char *end;
        double v = strtod(c->p, &end);
        c->p = end;
        return make(v);
    }
    const char *save = c->p;
    char name[64];
    if (take_name(c, name, sizeof name, 0)) {
        skip_ws(c);
        if (*c->p == '(') {
            c->p++;
            static const char *const aggs[] = {"hmean", "gmean", "amean", "sum", "min", "max", "count", NULL};
            for (const char *const *a = aggs; *a; a++)
                if (!strcmp(name, *a)) return eval_aggregate(c, name);
            if (!strcmp(name, "if")) {
                value cond = eval_expr(c);
                skip_ws(c);
                if (*c->p++ != ',') eerror(c, "if(condition, then, else): expected ','");
                value a = eval_expr(c);
                skip_ws(c);
                if (*c->p++ != ',') eerror(c, "if(condition, then, else): expected ','");
                value b = eval_expr(c);
                skip_ws(c);
                if (*c->p++ != ')') eerror(c, "if(...): expected ')'");
                if (cond.state != V_OK) return (value){NAN, NULL, cond.state, 0};
                return cond.v != 0 ? a : b;
            }
            eerror(c, "unknown function '%s' (hmean, gmean, amean, sum, min, max, count, if)", name);
            return make(NAN);
        }
        /* the row's words as strings, for per-workload cells: if(workload == 'kmeans', ...) */
        if (*c->p != '.' && c->row) {
            if (!strcmp(name, "workload")) return (value){NAN, c->row->w->id, V_OK, 0};
            if (!strcmp(name, "label")) return (value){NAN, c->row->w->label, V_OK, 0};
            if (!strcmp(name, "class")) return (value){NAN, c->row->w->cls ? c->row->w->cls : "", V_OK, 0};
        }
        c->p = save;
    }
    return eval_ref(c);
}

static value eval_unary(ectx *c) {
    skip_ws(c);
    if (*c->p == '-') {
        c->p++;
        value v = eval_unary(c);
        v.v = -v.v;
        return v;
    }
    if (*c->p == '!') {
        c->p++;
        value v = eval_unary(c);
        v.v = !(v.v != 0);
        return v;
    }
    return eval_primary(c);
}

static value eval_mul(ectx *c) {
    value a = eval_unary(c);
    for (;;) {
        skip_ws(c);
        char op = *c->p;
        if (op != '*' && op != '/') return a;
        c->p++;
        value b = eval_unary(c);
        a = worst(a, b, op == '*' ? a.v * b.v : a.v / b.v);
    }
}

static value eval_add(ectx *c) {
    value a = eval_mul(c);
    for (;;) {
        skip_ws(c);
        char op = *c->p;
        if (op != '+' && op != '-') return a;
        c->p++;
        value b = eval_mul(c);
        a = worst(a, b, op == '+' ? a.v + b.v : a.v - b.v);
    }
}

static value eval_cmp(ectx *c) {
    value a = eval_add(c);
    skip_ws(c);
    const char *ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    for (int i = 0; i < 6; i++) {
        size_t n = strlen(ops[i]);
        if (strncmp(c->p, ops[i], n)) continue;
        c->p += n;
        value b = eval_add(c);
        if (a.s && b.s && (i == 2 || i == 3)) {   /* strings compare by text (== and != only) */
            int same = !strcmp(a.s, b.s);
            return worst(a, b, i == 2 ? same : !same);
        }
        double r = i == 0 ? a.v <= b.v : i == 1 ? a.v >= b.v : i == 2 ? a.v == b.v : i == 3 ? a.v != b.v
                 : i == 4 ? a.v < b.v : a.v > b.v;
        return worst(a, b, r);
    }
    return a;
}

static value eval_expr(ectx *c) {
    value a = eval_cmp(c);
    for (;;) {
        skip_ws(c);
        int and = !strncmp(c->p, "&&", 2), or = !strncmp(c->p, "||", 2);
        if (!and && !or) return a;
        c->p += 2;
        value b = eval_cmp(c);
        a = worst(a, b, and ? (a.v != 0 && b.v != 0) : (a.v != 0 || b.v != 0));
    }
}

/* ---- templates ---- */

static void format_value(char *out, size_t n, value v, const char *fmt) {
    if (v.state == V_NA) snprintf(out, n, "-");
    else if (v.state == V_MISSING) snprintf(out, n, "missing");
    else if (v.state == V_FAIL) snprintf(out, n, "FAIL");
    else if (v.s) snprintf(out, n, "%s", v.s);
    else if (!fmt || !*fmt) {
        if (v.v == floor(v.v) && fabs(v.v) < 1e15) snprintf(out, n, "%.0f", v.v);
        else snprintf(out, n, "%.3f", v.v);
    } else if (!strcmp(fmt, "pct")) snprintf(out, n, "%+.0f%%", (v.v - 1.0) * 100.0);
    else if (!strcmp(fmt, "x")) snprintf(out, n, "%.2fx", v.v);
    else if (!strcmp(fmt, "percent")) snprintf(out, n, "%.0f%%", v.v * 100.0);
    else snprintf(out, n, fmt, v.v);
    if (v.state == V_OK && !v.s && isnan(v.v)) snprintf(out, n, "n/a");
    if (v.state == V_OK && v.stale) {
        size_t k = strlen(out);
        snprintf(out + k, n > k ? n - k : 0, "\u2020");   /* dagger: an earlier model's run */
    }
}

/* A format after the last top-level ':' of "${...}": %..f/g/e/d or pct, x, percent. */
static const char *split_format(char *inner) {
    int depth = 0;
    char *colon = NULL;
    char quote = 0;
    for (char *p = inner; *p; p++) {
        if (quote) {
            if (*p == quote) quote = 0;
            continue;
        }
        if (*p == '"' || *p == '\'') quote = *p;
        else if (*p == '(') depth++;
        else if (*p == ')') depth--;
        else if (*p == ':' && depth == 0) colon = p;
    }
    if (!colon) return NULL;
    const char *f = colon + 1;
    int ok = !strcmp(f, "pct") || !strcmp(f, "x") || !strcmp(f, "percent");
    if (!ok && f[0] == '%') {
        size_t len = strlen(f);
        ok = len >= 2 && strchr("fgeG", f[len - 1]) && strspn(f + 1, "0123456789.+- ") == len - 2;
    }
    if (!ok) return NULL;
    *colon = 0;
    return f;
}

static const char *word_value(ectx *c, const char *w, char *buf, size_t n) {
    const row *rw = c->row;
    const spec *s = c->R->s;
    if (!strcmp(w, "version")) return c->R->plan.version;
    if (!strcmp(w, "config")) return c->cfg->name;
    if (!strcmp(w, "spec")) return s->name;
    if (!strcmp(w, "variant") && (c->bound || c->bound_derived))
        return c->bound_derived ? c->bound_derived->label : c->bound->label;
    if (!strcmp(w, "variant_name") && (c->bound || c->bound_derived))
        return c->bound_derived ? c->bound_derived->name : c->bound->name;
    if (!rw) return NULL;
    if (!strcmp(w, "workload")) return rw->w->id;
    if (!strcmp(w, "label")) return rw->w->label;
    if (!strcmp(w, "class")) return rw->w->cls ? rw->w->cls : "";
    if (!strcmp(w, "size")) {
        snprintf(buf, n, "%u", rw->size);
        return buf;
    }
    const workload_entry *e = rw->w->name ? workload_find(rw->w->name) : NULL;
    if (!strcmp(w, "default_size")) {
        if (e) snprintf(buf, n, "%u", e->wl->default_size);
        else snprintf(buf, n, "-");
        return buf;
    }
    if (!strcmp(w, "description")) return e ? e->wl->description : "(external program)";
    if (!strcmp(w, "class_description")) {
        for (int i = 0; rw->w->cls && i < s->nclasses; i++)
            if (!strcmp(s->classes[i].name, rw->w->cls)) return s->classes[i].description;
        return "";
    }
    return NULL;
}

/* Expand "${...}" in tmpl; returns a malloc'd string. */
static char *expand(ectx *base, const char *tmpl) {
    size_t cap = strlen(tmpl) + 256, len = 0;
    char *out = xmalloc(cap);
    for (const char *p = tmpl; *p;) {
        const char *open = strstr(p, "${");
        size_t lit = open ? (size_t)(open - p) : strlen(p);
        while (len + lit + 256 > cap) out = realloc(out, cap *= 2);
        memcpy(out + len, p, lit);
        len += lit;
        if (!open) break;
        const char *close = open + 2;
        int depth = 0;
        char quote = 0;
        for (; *close && (quote || depth || *close != '}'); close++) {
            if (quote) {
                if (*close == quote) quote = 0;
            } else if (*close == '"' || *close == '\'') quote = *close;
            else if (*close == '{') depth++;
            else if (*close == '}') depth--;
        }
        if (!*close) {
            ectx c = *base;
            c.text = tmpl;
            eerror(&c, "'${' without its '}'");
            break;
        }
        char *inner = xprintf("%.*s", (int)(close - open - 2), open + 2);
        const char *fmt = split_format(inner);
        char buf[512], wbuf[64];
        const char *word = word_value(base, inner, wbuf, sizeof wbuf);
        if (word) {
            snprintf(buf, sizeof buf, "%s", word);
        } else {
            ectx c = *base;
            c.text = inner;
            c.p = inner;
            c.error = 0;
            value v = eval_expr(&c);
            skip_ws(&c);
            if (!c.error && *c.p) eerror(&c, "unexpected '%s'", c.p);
            if (c.error) base->error = 1;
            if (v.state == V_MISSING) base->R->missing++;
            if (v.state == V_FAIL) base->R->failed++;
            if (v.stale && v.state == V_OK) base->R->stale++;
            format_value(buf, sizeof buf, v, fmt);
        }
        free(inner);
        size_t k = strlen(buf);
        while (len + k + 1 > cap) out = realloc(out, cap *= 2);
        memcpy(out + len, buf, k);
        len += k;
        p = close + 1;
    }
    out[len] = 0;
    return out;
}

/* ---- blocks ---- */

static block *new_block(report *R, int kind) {
    if (R->nblocks == R->capblocks) {
        R->capblocks = R->capblocks ? 2 * R->capblocks : 32;
        R->blocks = realloc(R->blocks, (size_t)R->capblocks * sizeof *R->blocks);
        if (!R->blocks) exit(2);
    }
    block *b = &R->blocks[R->nblocks++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->reference = NAN;
    return b;
}

static void add_row(block *b, char **cells, int summary) {
    if (b->nrows == b->caprows) {
        b->caprows = b->caprows ? 2 * b->caprows : 16;
        b->cells = realloc(b->cells, (size_t)b->caprows * sizeof *b->cells);
        b->summary = realloc(b->summary, (size_t)b->caprows * sizeof *b->summary);
        if (!b->cells || !b->summary) exit(2);
    }
    b->cells[b->nrows] = cells;
    b->summary[b->nrows++] = summary;
}

/* ---- recipe sections ---- */

typedef struct {
    report *R;
    spec *s;
} rctx;

static int rfail(report *R, yaml_node_t *n, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "locsim report: %s:%d: %s\n", R->s->path, spec_line(n), msg);
    R->errors++;
    return -1;
}

static int check_keys(report *R, yaml_node_t *map, const char *what, const char *const *allowed) {
    if (!map || map->type != YAML_MAPPING_NODE) return rfail(R, map, "%s: expected a mapping", what);
    char list[512];
    yaml_node_t *kn = spec_unknown_key(R->s, map, allowed, list, sizeof list);
    if (!kn) return 0;
    const char *k = spec_scalar(kn);
    return rfail(R, kn, "unknown key '%s' in %s (expected one of: %s)", k ? k : "?", what, list);
}

static const char *get_str(report *R, yaml_node_t *map, const char *key) {
    return spec_scalar(spec_map_get(R->s, map, key));
}

/* A scalar or list of scalars (names). */
static int name_list(report *R, yaml_node_t *n, char ***out, int *nout) {
    *out = NULL;
    *nout = 0;
    if (!n) return 0;
    if (n->type == YAML_SCALAR_NODE) {
        *out = xmalloc(sizeof **out);
        (*out)[(*nout)++] = (char *)spec_scalar(n);
        return 0;
    }
    if (n->type != YAML_SEQUENCE_NODE) return rfail(R, n, "expected a name or a list of names");
    *out = xmalloc((size_t)(n->data.sequence.items.top - n->data.sequence.items.start + 1) * sizeof **out);
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        const char *v = spec_scalar(spec_node(R->s, *it));
        if (!v) return rfail(R, spec_node(R->s, *it), "expected a name");
        (*out)[(*nout)++] = (char *)v;
    }
    return 0;
}

static const spec_config *section_config(report *R, yaml_node_t *sec) {
    const char *name = get_str(R, sec, "config");
    if (!name) return &R->s->configs[0];
    for (int i = 0; i < R->s->nconfigs; i++)
        if (!strcmp(R->s->configs[i].name, name)) return &R->s->configs[i];
    rfail(R, spec_map_get(R->s, sec, "config"), "config '%s' is not one of the spec's configs:", name);
    return NULL;
}

/* Variants named by a list: variant names, derived names or grid names (all its variants). */
typedef struct {
    const spec_variant *v;
    const derived *d;
} vref;

static int variant_refs(report *R, yaml_node_t *n, vref **out, int *nout) {
    char **names;
    int k;
    if (name_list(R, n, &names, &k)) return -1;
    int cap = 0;
    for (int i = 0; i < k; i++) {
        const spec_grid *g = spec_find_grid(R->s, names[i]);
        cap += g ? g->nvalues : 1;
    }
    *out = xmalloc((size_t)(cap + 1) * sizeof **out);
    *nout = 0;
    for (int i = 0; i < k; i++) {
        const spec_grid *g = spec_find_grid(R->s, names[i]);
        const derived *d = find_derived(R, names[i]);
        const spec_variant *v = spec_find_variant(R->s, names[i]);
        if (d) (*out)[(*nout)++] = (vref){NULL, d};
        else if (v) (*out)[(*nout)++] = (vref){v, NULL};
        else if (g)
            for (int j = 0; j < g->nvalues; j++) {
                char name[256];
                snprintf(name, sizeof name, "%s_%s", g->name, g->values[j]);
                (*out)[(*nout)++] = (vref){spec_find_variant(R->s, name), NULL};
            }
        else {
            free(names);
            return rfail(R, n, "no variant, grid or derived variant '%s'", names[i]);
        }
    }
    free(names);
    return 0;
}

/* The rows of a table or chart: workloads (filtered by classes:/workloads:), each size, in class order. */
static row *section_rows(report *R, yaml_node_t *sec, int *nrows, char ***classes, int *nclasses) {
    char **wl;
    int nwl;
    if (name_list(R, spec_map_get(R->s, sec, "classes"), classes, nclasses) ||
        name_list(R, spec_map_get(R->s, sec, "workloads"), &wl, &nwl))
        return NULL;
    spec *s = R->s;
    for (int i = 0; i < nwl; i++)
        if (!spec_find_workload(s, wl[i])) {
            rfail(R, spec_map_get(s, sec, "workloads"), "no workload '%s' in the spec", wl[i]);
            return NULL;
        }
    int cap = 0;
    for (int w = 0; w < s->nworkloads; w++) cap += s->workloads[w].nsizes;
    row *rows = xmalloc((size_t)cap * sizeof *rows);
    int k = 0;
    int passes = *nclasses ? *nclasses : 1;
    for (int c = 0; c < passes; c++)
        for (int w = 0; w < s->nworkloads; w++) {
            const spec_workload *x = &s->workloads[w];
            if (*nclasses && !(x->cls && (!strcmp((*classes)[c], "*") || !strcmp(x->cls, (*classes)[c])))) continue;
            if (nwl) {
                int in = 0;
                for (int i = 0; i < nwl; i++) in |= !strcmp(wl[i], x->id);
                if (!in) continue;
            } else if (!*nclasses && !x->cls && s->nclasses) {
                continue; /* workloads without a class are extras: only when named */
            }
            for (int z = 0; z < x->nsizes; z++) rows[k++] = (row){x, x->sizes[z]};
        }
    free(wl);
    *nrows = k;
    return rows;
}

typedef struct {
    char *head;         /* template */
    char *cell;         /* template */
    char *summary;      /* template or NULL */
    vref bind;          /* $ of this column */
    int has_bind;
    const spec_grid *list;     /* list column: one item per grid variant */
    const derived *bold;
    int line;
} column;

static int parse_columns(report *R, yaml_node_t *cn, column **out, int *nout) {
    if (!cn || cn->type != YAML_SEQUENCE_NODE) return rfail(R, cn, "columns: expected a list of {head, cell}");
    int cap = 0;
    for (yaml_node_item_t *it = cn->data.sequence.items.start; it < cn->data.sequence.items.top; it++) {
        yaml_node_t *e = spec_node(R->s, *it);
        yaml_node_t *each = spec_map_get(R->s, e, "each");
        if (each) {
            vref *v;
            int k;
            if (variant_refs(R, each, &v, &k)) return -1;
            cap += k;
            free(v);
        } else {
            cap++;
        }
    }
    column *cols = xmalloc((size_t)(cap + 1) * sizeof *cols);
    int k = 0;
    for (yaml_node_item_t *it = cn->data.sequence.items.start; it < cn->data.sequence.items.top; it++) {
        yaml_node_t *e = spec_node(R->s, *it);
        static const char *const keys[] = {"head", "cell", "summary", "each", "list", "bold", NULL};
        if (check_keys(R, e, "a column", keys)) return -1;
        const char *head = get_str(R, e, "head"), *cell = get_str(R, e, "cell"), *sum = get_str(R, e, "summary");
        if (!head || !cell) return rfail(R, e, "a column needs head: and cell: (templates)");
        const char *list = get_str(R, e, "list"), *bold = get_str(R, e, "bold");
        column base = {(char *)head, (char *)cell, (char *)sum, {0}, 0, NULL, NULL, spec_line(e)};
        if (list && !(base.list = spec_find_grid(R->s, list))) return rfail(R, e, "list: no grid '%s'", list);
        if (bold && !(base.bold = find_derived(R, bold))) return rfail(R, e, "bold: no derived variant '%s'", bold);
        yaml_node_t *each = spec_map_get(R->s, e, "each");
        if (each) {
            vref *v;
            int n;
            if (variant_refs(R, each, &v, &n)) return -1;
            for (int i = 0; i < n; i++) {
                cols[k] = base;
                cols[k].bind = v[i];
                cols[k++].has_bind = 1;
            }
            free(v);
        } else {
            cols[k++] = base;
        }
    }
    *out = cols;
    *nout = k;
    return 0;
}

static char *list_cell(ectx *c, const column *col) {
    int incomplete;
    const spec_variant *best = col->bold ? resolve_derived(c, c->row, col->bold, &incomplete) : NULL;
    size_t cap = 256, len = 0;
    char *out = xmalloc(cap);
    for (int i = 0; i < col->list->nvalues; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s_%s", col->list->name, col->list->values[i]);
        const spec_variant *v = spec_find_variant(c->R->s, name);
        if (!v || !row_runs(c, c->row, v)) continue;
        ectx sub = *c;
        sub.bound = v;
        sub.bound_derived = NULL;
        char *item = expand(&sub, col->cell);
        if (sub.error) c->error = 1;
        const char *b = v == best ? "**" : "";
        size_t k = strlen(item) + 8;
        while (len + k + 1 > cap) out = realloc(out, cap *= 2);
        len += (size_t)sprintf(out + len, "%s%s%s%s", len ? ", " : "", b, item, b);
        free(item);
    }
    return out;
}

static void bind_column(ectx *c, const column *col) {
    c->bound = col->has_bind ? col->bind.v : NULL;
    c->bound_derived = col->has_bind ? col->bind.d : NULL;
}

static int table_section(report *R, yaml_node_t *t) {
    static const char *const keys[] = {"title", "text", "rows", "variants", "classes", "workloads", "group_by_class",
                                       "config", "columns", "summary", "lines", "header", NULL};
    if (check_keys(R, t, "a table", keys)) return -1;
    const spec_config *cfg = section_config(R, t);
    if (!cfg) return -1;
    ectx base = {.R = R, .cfg = cfg, .line = spec_line(t)};
    const char *title = get_str(R, t, "title"), *text = get_str(R, t, "text");
    if (title) new_block(R, B_HEADING)->text = expand(&base, title);
    if (title) R->blocks[R->nblocks - 1].level = 2;
    if (text) new_block(R, B_TEXT)->text = expand(&base, text);
    yaml_node_t *lines = spec_map_get(R->s, t, "lines");
    if (lines) {
        /* a table of fixed lines: header: [..], lines: [[template, ...], ...] */
        char **head;
        int nh;
        if (name_list(R, spec_map_get(R->s, t, "header"), &head, &nh) || !nh)
            return rfail(R, t, "a table with lines: needs header: [column titles]");
        block *b = new_block(R, B_TABLE);
        b->head = xmalloc((size_t)nh * sizeof *b->head);
        for (int i = 0; i < nh; i++) b->head[i] = expand(&base, head[i]);
        b->ncols = nh;
        free(head);
        if (lines->type != YAML_SEQUENCE_NODE) return rfail(R, lines, "lines: expected a list of lists");
        for (yaml_node_item_t *it = lines->data.sequence.items.start; it < lines->data.sequence.items.top; it++) {
            yaml_node_t *ln = spec_node(R->s, *it);
            char **cells;
            int n;
            if (name_list(R, ln, &cells, &n)) return -1;
            if (n != nh) return rfail(R, ln, "this line has %d cells, the header %d", n, nh);
            char **out = xmalloc((size_t)nh * sizeof *out);
            ectx c = base;
            c.line = spec_line(ln);
            for (int i = 0; i < n; i++) out[i] = expand(&c, cells[i]);
            free(cells);
            add_row(b, out, 0);
        }
        return 0;
    }
    const char *rows_kind = get_str(R, t, "rows");
    int per_variant = rows_kind && !strcmp(rows_kind, "workload_variants");
    if (rows_kind && !per_variant && strcmp(rows_kind, "workloads"))
        return rfail(R, t, "rows: expected workloads or workload_variants");
    vref *rv = NULL;
    int nrv = 0;
    if (per_variant && variant_refs(R, spec_map_get(R->s, t, "variants"), &rv, &nrv)) return -1;
    if (per_variant && !nrv) return rfail(R, t, "rows: workload_variants needs variants: [...]");
    char **classes;
    int nclasses, nrows;
    row *rows = section_rows(R, t, &nrows, &classes, &nclasses);
    if (!rows) return -1;
    column *cols = NULL;
    int ncols = 0;
    if (parse_columns(R, spec_map_get(R->s, t, "columns"), &cols, &ncols)) return -1;
    const char *grp = get_str(R, t, "group_by_class");
    int group = grp && !strcmp(grp, "true");
    const char *sumlabel = get_str(R, t, "summary");
    block *b = new_block(R, B_TABLE);
    b->ncols = ncols;
    b->head = xmalloc((size_t)ncols * sizeof *b->head);
    for (int i = 0; i < ncols; i++) {
        ectx c = base;
        c.line = cols[i].line;
        bind_column(&c, &cols[i]);
        b->head[i] = expand(&c, cols[i].head);
    }
    int start = 0;
    while (start < nrows) {
        int end = start + 1;
        if (group)
            while (end < nrows && rows[end].w->cls && rows[start].w->cls && !strcmp(rows[end].w->cls, rows[start].w->cls))
                end++;
        else
            end = nrows;
        for (int r = start; r < end; r++)
            for (int v = 0; v < (per_variant ? nrv : 1); v++) {
                char **cells = xmalloc((size_t)ncols * sizeof *cells);
                for (int i = 0; i < ncols; i++) {
                    ectx c = base;
                    c.row = &rows[r];
                    c.line = cols[i].line;
                    bind_column(&c, &cols[i]);
                    if (per_variant) c.bound = rv[v].v, c.bound_derived = rv[v].d;
                    cells[i] = cols[i].list ? list_cell(&c, &cols[i]) : expand(&c, cols[i].cell);
                }
                add_row(b, cells, 0);
            }
        int any = 0;
        for (int i = 0; i < ncols; i++) any |= cols[i].summary != NULL;
        if (any) {
            char **cells = xmalloc((size_t)ncols * sizeof *cells);
            for (int i = 0; i < ncols; i++) {
                ectx c = base;
                c.row = NULL;
                c.group = rows + start;
                c.ngroup = end - start;
                c.line = cols[i].line;
                bind_column(&c, &cols[i]);
                if (cols[i].summary) cells[i] = expand(&c, cols[i].summary);
                else if (i == 0 && group) cells[i] = xstrdup(rows[start].w->cls ? rows[start].w->cls : "");
                else if (i == (group ? 1 : 0)) cells[i] = xstrdup(sumlabel ? sumlabel : "**summary**");
                else cells[i] = xstrdup("");
            }
            add_row(b, cells, 1);
        }
        start = end;
    }
    free(cols);
    free(rows);
    free(classes);
    free(rv);
    return 0;
}

static int chart_section(report *R, yaml_node_t *ch) {
    static const char *const keys[] = {"title", "variants", "value", "classes", "workloads", "config", "reference",
                                       "ylabel", NULL};
    if (check_keys(R, ch, "a chart", keys)) return -1;
    const spec_config *cfg = section_config(R, ch);
    if (!cfg) return -1;
    const char *title = get_str(R, ch, "title"), *val = get_str(R, ch, "value");
    if (!title || !val) return rfail(R, ch, "a chart needs title: and value: (an expression with $ = each variant)");
    vref *vs;
    int nv;
    if (variant_refs(R, spec_map_get(R->s, ch, "variants"), &vs, &nv)) return -1;
    if (!nv) return rfail(R, ch, "a chart needs variants: [...] (one bar per workload and variant)");
    char **classes;
    int nclasses, nrows;
    row *rows = section_rows(R, ch, &nrows, &classes, &nclasses);
    if (!rows) return -1;
    ectx base = {.R = R, .cfg = cfg, .line = spec_line(ch)};
    block *b = new_block(R, B_CHART);
    b->text = expand(&base, title);
    const char *yl = get_str(R, ch, "ylabel"), *ref = get_str(R, ch, "reference");
    b->ylabel = yl ? xstrdup(yl) : xstrdup(val);
    if (ref) b->reference = strtod(ref, NULL);
    b->ngroups = nrows;
    b->nseries = nv;
    b->groups = xmalloc((size_t)nrows * sizeof *b->groups);
    b->series = xmalloc((size_t)nv * sizeof *b->series);
    b->bars = xmalloc((size_t)(nrows * nv) * sizeof *b->bars);
    b->bar_state = xmalloc((size_t)(nrows * nv) * sizeof *b->bar_state);
    for (int v = 0; v < nv; v++) b->series[v] = xstrdup(vs[v].d ? vs[v].d->label : vs[v].v->label);
    for (int r = 0; r < nrows; r++) {
        b->groups[r] = rows[r].w->nsizes > 1 ? xprintf("%s/%u", rows[r].w->id, rows[r].size) : xstrdup(rows[r].w->id);
        for (int v = 0; v < nv; v++) {
            ectx c = base;
            c.row = &rows[r];
            c.bound = vs[v].v;
            c.bound_derived = vs[v].d;
            c.text = val;
            c.p = val;
            value x = eval_expr(&c);
            if (!c.error && *c.p) eerror(&c, "unexpected '%s'", c.p);
            if (x.state == V_MISSING) R->missing++;
            b->bars[r * nv + v] = x.state == V_OK ? x.v : NAN;
            b->bar_state[r * nv + v] = x.state;
        }
    }
    free(vs);
    free(rows);
    free(classes);
    return 0;
}

/* ---- the regime table (docs/harness.md, "The regime table") ---- */

/* A statistic of the regime's baseline (or probe) on a row, counted like any value. */
static value regime_stat(report *R, const spec_config *cfg, const row *rw, const spec_variant *v, const char *stat) {
    ectx c = {.R = R, .cfg = cfg, .text = stat, .line = 0};
    value x = variant_stat(&c, rw, v, stat);
    if (x.state == V_MISSING) R->missing++;
    if (x.state == V_FAIL) R->failed++;
    if (x.state == V_OK && x.stale) R->stale++;
    return x;
}

static char *regime_fmt(value v, const char *fmt) {
    char buf[64];
    format_value(buf, sizeof buf, v, fmt);
    return xstrdup(buf);
}

/* What limits the warps an SM holds: the resource that limited the most launches. */
static char *regime_limiter(report *R, const spec_config *cfg, const row *rw, const spec_variant *b) {
    static const char *const stat[4] = {"gpu_occ_limited_by_threads", "gpu_occ_limited_by_ctas",
                                        "gpu_occ_limited_by_registers", "gpu_occ_limited_by_smem"};
    static const char *const name[4] = {"threads", "CTA slots", "registers", "shared memory"};
    int best = -1, stale = 0;
    double most = 0;
    for (int i = 0; i < 4; i++) {
        value x = regime_stat(R, cfg, rw, b, stat[i]);
        if (x.state != V_OK) return regime_fmt(x, NULL);
        if (x.v > most) most = x.v, best = i;
        stale |= x.stale;
    }
    return xprintf("%s%s", best < 0 ? "-" : name[best], stale ? "\u2020" : "");
}

/* The probe's IPC over the baseline's, as +N%. */
static char *regime_gain(report *R, const spec_config *cfg, const row *rw, const spec_variant *b, const char *probe) {
    const spec_variant *p = spec_find_variant(R->s, probe);
    if (!p) return xstrdup("-");
    value x = regime_stat(R, cfg, rw, p, "gpu_tot_ipc"), y = regime_stat(R, cfg, rw, b, "gpu_tot_ipc");
    if (x.state != V_OK || y.state != V_OK) return regime_fmt(x.state > y.state ? x : y, NULL);
    value r = make(y.v > 0 ? x.v / y.v : NAN);
    r.stale = x.stale | y.stale;
    return regime_fmt(r, "pct");
}

/* Bytes as B, KB, MB or GB (powers of 1024), three significant digits. */
static char *regime_bytes(value v) {
    if (v.state != V_OK || v.s) return regime_fmt(v, NULL);
    static const char *const unit[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    double x = v.v;
    while (x >= 1024 && u < 4) x /= 1024, u++;
    return xprintf("%.3g %s%s", x, unit[u], v.stale ? "\u2020" : "");
}

/* A fraction as a percentage with one decimal (small shares stay visible). */
static char *regime_percent(value v) {
    if (v.state != V_OK || v.s) return regime_fmt(v, NULL);
    return xprintf("%.1f%%%s", v.v * 100.0, v.stale ? "\u2020" : "");
}

static char *regime_pair(value a, const char *fa, value b, const char *fb) {
    char *x = regime_fmt(a, fa), *y = regime_fmt(b, fb), *r = xprintf("%s / %s", x, y);
    free(x);
    free(y);
    return r;
}

/* One table per config: what each workload's baseline run covered and the regime
 * it ran in, from its statistics.  `n` (the recipe's `regime:` section, or NULL
 * when the report adds it at the end) may name a config. */
static int regime_section(report *R, yaml_node_t *n) {
    spec *s = R->s;
    if (n && n->type == YAML_MAPPING_NODE) {
        static const char *const keys[] = {"config", NULL};
        if (check_keys(R, n, "regime", keys)) return -1;
    }
    const spec_variant *b = &s->variants[s->regime_base];
    block *h = new_block(R, B_HEADING);
    h->level = 2;
    h->text = xstrdup("Regime");
    new_block(R, B_TEXT)->text = xprintf(
        "What each workload's %s run covered and the regime it ran in, from its statistics (generated by `locsim "
        "report`; docs/harness.md says how to read it). *insns*: thread instructions timed / executed (fewer timed: "
        "a timing window or a cap). *grid*: CTAs of the largest launch; *waves*: grid CTAs / the GPU's CTA slots "
        "over all launches (below 1: SMs idle); *rows*: grid rows of the largest launch / SMs. *warps*: live warps "
        "per SM, mean / most / what the occupancy allows, and what limits it. *footprint*: bytes of the distinct lines "
        "the L2 was asked for: over one SM's L1D / over the L2. *compulsory*: share of L2 misses that are first references. *DRAM*: data "
        "bus utilisation. *mem stalls*: share of issue slots waiting on memory. %s",
        b->label,
        s->regime_probes ? "The last three columns are the IPC gained by a 4x L1D, 2x DRAM bandwidth and an unbounded "
                           "L1D (the papers' sensitivity rules; variants `regime_*`)."
                         : "(No sensitivity columns: the spec's `regime: {sensitivity: true}` adds their runs.)");
    for (int ci = 0; ci < s->nconfigs; ci++) {
        const spec_config *cfg = &s->configs[ci];
        const char *want = n && n->type == YAML_MAPPING_NODE ? get_str(R, n, "config") : NULL;
        if (want && strcmp(want, cfg->name)) continue;
        if (s->nconfigs > 1) new_block(R, B_TEXT)->text = xprintf("Config `%s`:", cfg->name);
        static const char *const head[] = {"workload", "size", "insns", "grid", "waves", "rows / SMs",
                                           "warps", "limited by", "footprint / L1D / L2", "compulsory", "DRAM",
                                           "mem stalls", "4x L1D", "2x DRAM BW", "unbounded L1D"};
        int ncols = (int)(sizeof head / sizeof *head) - (s->regime_probes ? 0 : 3);
        block *t = new_block(R, B_TABLE);
        t->ncols = ncols;
        t->head = xmalloc((size_t)ncols * sizeof *t->head);
        for (int i = 0; i < ncols; i++) t->head[i] = xstrdup(head[i]);
        for (int w = 0; w < s->nworkloads; w++)
            for (int z = 0; z < s->workloads[w].nsizes; z++) {
                row rw = {&s->workloads[w], s->workloads[w].sizes[z]};
                ectx c = {.R = R, .cfg = cfg};
                if (!row_runs(&c, &rw, b)) continue;
                char **cells = xmalloc((size_t)ncols * sizeof *cells);
                int k = 0;
#define ST(name) regime_stat(R, cfg, &rw, b, name)
                cells[k++] = xstrdup(rw.w->label);
                cells[k++] = xprintf("%u", rw.size);
                cells[k++] = regime_pair(ST("gpu_tot_sim_insn"), "%.3g", ST("gpu_exec_insn"), "%.3g");
                cells[k++] = regime_fmt(ST("gpu_grid_ctas_max"), NULL);
                cells[k++] = regime_fmt(ST("gpu_grid_waves"), "%.2f");
                cells[k++] = regime_pair(ST("gpu_grid_rows_max"), NULL, ST("gpu_num_sms"), NULL);
                char *live = regime_pair(ST("sm_live_warps_mean"), "%.1f", ST("sm_live_warps_max"), NULL),
                     *allowed = regime_fmt(ST("gpu_occ_warps_per_sm"), NULL);
                cells[k++] = xprintf("%s / %s", live, allowed);
                free(live);
                free(allowed);
                cells[k++] = regime_limiter(R, cfg, &rw, b);
                char *fp = regime_bytes(ST("gpu_footprint_bytes")),
                     *ratios = regime_pair(ST("gpu_footprint_over_L1D"), "%.1fx", ST("gpu_footprint_over_L2"), "%.2fx");
                cells[k++] = xprintf("%s: %s", fp, ratios);
                free(fp);
                free(ratios);
                cells[k++] = regime_percent(ST("L2_compulsory_miss_frac"));
                cells[k++] = regime_percent(ST("dram_bw_util"));
                cells[k++] = regime_percent(ST("issue_stall_memory_frac"));
#undef ST
                if (s->regime_probes) {
                    cells[k++] = regime_gain(R, cfg, &rw, b, "regime_l1d_4x");
                    cells[k++] = regime_gain(R, cfg, &rw, b, "regime_dram_bw_2x");
                    cells[k++] = regime_gain(R, cfg, &rw, b, "regime_l1d_unbounded");
                }
                add_row(t, cells, 0);
            }
    }
    R->has_regime = 1;
    return 0;
}

static int include_section(report *R, yaml_node_t *n) {
    const char *path = spec_scalar(n);
    if (!path) return rfail(R, n, "include: expected a file name");
    FILE *f = fopen(path, "r");
    if (!f) return rfail(R, n, "include: cannot read %s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, k, m);
    fclose(f);
    fclose(m);
    new_block(R, B_TEXT)->text = buf;
    return 0;
}

static int parse_derived(report *R, yaml_node_t *n) {
    if (n->type != YAML_MAPPING_NODE) return rfail(R, n, "derived: expected name -> {best_of, by, max|min}");
    R->derived = xmalloc((size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start) * sizeof *R->derived);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = spec_node(R->s, p->key), *vn = spec_node(R->s, p->value);
        static const char *const keys[] = {"label", "best_of", "by", "max", "min", NULL};
        if (check_keys(R, vn, "a derived variant", keys)) return -1;
        derived *d = &R->derived[R->nderived];
        d->name = (char *)spec_scalar(kn);
        d->line = spec_line(vn);
        const char *label = get_str(R, vn, "label"), *grid = get_str(R, vn, "best_of");
        const char *mx = get_str(R, vn, "max"), *mn = get_str(R, vn, "min");
        d->label = (char *)(label ? label : d->name);
        if (!grid || !(d->grid = spec_find_grid(R->s, grid)))
            return rfail(R, vn, "derived %s: best_of: expected the name of a grid", d->name);
        if (!!mx == !!mn) return rfail(R, vn, "derived %s: give exactly one of max: EXPR or min: EXPR", d->name);
        d->by = (char *)(mx ? mx : mn);
        d->maximise = !!mx;
        if (spec_find_variant(R->s, d->name)) return rfail(R, kn, "derived %s: a variant has that name", d->name);
        R->nderived++;
    }
    return 0;
}

static int build(report *R) {
    yaml_node_t *rep = spec_node(R->s, R->s->report_node);
    if (!rep) {
        fprintf(stderr, "locsim report: %s has no report: section (see docs/harness.md)\n", R->s->path);
        return -1;
    }
    static const char *const keys[] = {"title", "derived", "sections", NULL};
    if (check_keys(R, rep, "report", keys)) return -1;
    yaml_node_t *dn = spec_map_get(R->s, rep, "derived");
    if (dn && parse_derived(R, dn)) return -1;
    ectx base = {.R = R, .cfg = &R->s->configs[0], .line = spec_line(rep)};
    const char *title = get_str(R, rep, "title");
    block *h = new_block(R, B_HEADING);
    h->level = 1;
    h->text = expand(&base, title ? title : R->s->name);
    yaml_node_t *secs = spec_map_get(R->s, rep, "sections");
    if (!secs || secs->type != YAML_SEQUENCE_NODE) return rfail(R, rep, "report: expected sections: [...]");
    for (yaml_node_item_t *it = secs->data.sequence.items.start; it < secs->data.sequence.items.top; it++) {
        yaml_node_t *sec = spec_node(R->s, *it);
        static const char *const kinds[] = {"text", "heading", "table", "chart", "include", "regime", NULL};
        if (check_keys(R, sec, "a report section", kinds)) return -1;
        if (sec->data.mapping.pairs.top - sec->data.mapping.pairs.start != 1)
            return rfail(R, sec, "a section is exactly one of text:, heading:, table:, chart:, include:, regime:");
        const char *kind = spec_scalar(spec_node(R->s, sec->data.mapping.pairs.start->key));
        yaml_node_t *v = spec_node(R->s, sec->data.mapping.pairs.start->value);
        base.line = spec_line(v);
        int rc = 0;
        if (!strcmp(kind, "text") || !strcmp(kind, "heading")) {
            if (!spec_scalar(v)) return rfail(R, v, "%s: expected text", kind);
            block *b = new_block(R, !strcmp(kind, "text") ? B_TEXT : B_HEADING);
            b->level = 2;
            b->text = expand(&base, spec_scalar(v));
        } else if (!strcmp(kind, "table")) {
            rc = table_section(R, v);
        } else if (!strcmp(kind, "chart")) {
            rc = chart_section(R, v);
        } else if (!strcmp(kind, "regime")) {
            rc = regime_section(R, v);
        } else {
            rc = include_section(R, v);
        }
        if (rc) return -1;
    }
    /* every results document shows its regime: at the end unless the recipe placed it */
    if (!R->has_regime && regime_section(R, NULL)) return -1;
    if (R->accepted) {
        char *pairs = equiv_describe(&R->db, &R->accepted_models, R->accepted_models.ids[0]);
        new_block(R, B_TEXT)->text =
            xprintf("%d runs were made by earlier models accepted as this one by `locsim sweep --accept`, which "
                    "reran a sample of each model's runs with this model and found every statistic identical:\n\n%s",
                    R->accepted, pairs);
        free(pairs);
    }
    if (R->stale)
        new_block(R, B_TEXT)->text =
            xprintf("\u2020 %d values come from runs of an earlier model (%s): the simulator has changed since, so "
                    "they are stale until `locsim sweep` reruns them.",
                    R->stale, R->stale_versions);
    return R->errors ? -1 : 0;
}

/* ---- Markdown ---- */

static void write_md(report *R, FILE *f) {
    for (int i = 0; i < R->nblocks; i++) {
        block *b = &R->blocks[i];
        if (b->kind == B_HEADING) {
            fprintf(f, "%.*s %s\n\n", b->level, "######", b->text);
        } else if (b->kind == B_TEXT) {
            size_t n = strlen(b->text);
            fprintf(f, "%s%s\n", b->text, n && b->text[n - 1] == '\n' ? "" : "\n");
        } else if (b->kind == B_TABLE) {
            fputc('|', f);
            for (int c = 0; c < b->ncols; c++) fprintf(f, "%s%s |", *b->head[c] ? " " : "", b->head[c]);
            fputs("\n|", f);
            for (int c = 0; c < b->ncols; c++) fputs("---|", f);
            fputc('\n', f);
            for (int r = 0; r < b->nrows; r++) {
                fputc('|', f);
                for (int c = 0; c < b->ncols; c++) fprintf(f, "%s%s |", *b->cells[r][c] ? " " : "", b->cells[r][c]);
                fputc('\n', f);
            }
            fputc('\n', f);
        } else {
            fprintf(f, "*Chart: %s (in the HTML report).*\n\n", b->text);
        }
    }
}

/* ---- HTML ---- */

static void html_escape(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f);
        }
    }
}

/* Markdown inline: **bold**, *italic*, `code`. */
static void html_inline(FILE *f, const char *s) {
    int bold = 0, em = 0, code = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '`') {
            fputs(code ? "</code>" : "<code>", f);
            code = !code;
        } else if (!code && p[0] == '*' && p[1] == '*') {
            fputs(bold ? "</strong>" : "<strong>", f);
            bold = !bold;
            p++;
        } else if (!code && *p == '*' && (em || (p[1] && p[1] != ' '))) {
            fputs(em ? "</em>" : "<em>", f);
            em = !em;
        } else {
            html_escape(f, p, 1);
        }
    }
    if (code) fputs("</code>", f);
    if (bold) fputs("</strong>", f);
    if (em) fputs("</em>", f);
}

/* Paragraphs, headings and list items of a Markdown text. */
static void html_text(FILE *f, const char *text) {
    const char *p = text;
    int in_par = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char *line = xprintf("%.*s", (int)n, p);
        const char *t = line;
        int indent = 0;
        while (*t == ' ') t++, indent++;
        int heading = 0;
        while (t[heading] == '#') heading++;
        int item = (t[0] == '*' || t[0] == '-') && t[1] == ' ';
        int num = 0;
        while (t[num] >= '0' && t[num] <= '9') num++;
        int numbered = num > 0 && t[num] == '.' && t[num + 1] == ' ';
        if (!*t) {
            if (in_par) fputs("</p>\n", f);
            in_par = 0;
        } else if (heading && t[heading] == ' ') {
            if (in_par) fputs("</p>\n", f);
            in_par = 0;
            fprintf(f, "<h%d>", heading);
            html_inline(f, t + heading + 1);
            fprintf(f, "</h%d>\n", heading);
        } else if (item || numbered) {
            if (in_par) fputs("</p>\n", f);
            fprintf(f, "<p class=\"li\" style=\"margin-left:%dem\">%s", 1 + indent / 2, numbered ? "" : "&bull; ");
            if (numbered) html_escape(f, t, (size_t)num + 2);
            html_inline(f, t + (numbered ? num + 2 : 2));
            fputc('\n', f);
            in_par = 1;
        } else {
            if (!in_par) fputs("<p>", f);
            html_inline(f, t);
            fputc('\n', f);
            in_par = 1;
        }
        free(line);
        p += n + (eol ? 1 : 0);
    }
    if (in_par) fputs("</p>\n", f);
}

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

static void html_chart(FILE *f, const block *b, int index) {
    double max = 0;
    for (int i = 0; i < b->ngroups * b->nseries; i++)
        if (b->bar_state[i] == V_OK && isfinite(b->bars[i]) && b->bars[i] > max) max = b->bars[i];
    if (!isnan(b->reference) && b->reference > max) max = b->reference;
    if (max <= 0) max = 1;
    /* a round top for the axis */
    double step = pow(10, floor(log10(max))), top = ceil(max / step) * step;
    if (top / step > 5) step *= 2;
    else if (top / step <= 2) step /= 2;
    top = ceil(max / step) * step;
    int bw = 12, gap = 14, left = 60, plot_h = 220, top_m = 30, bottom = 90;
    int group_w = b->nseries * bw + gap;
    int width = left + b->ngroups * group_w + 20, height = top_m + plot_h + bottom;
    if (width < left + b->nseries * 110 + 20) width = left + b->nseries * 110 + 20;   /* room for the legend */
    fprintf(f, "<figure><figcaption>");
    html_inline(f, b->text);
    fprintf(f, "</figcaption>\n<svg class=\"chart\" id=\"chart-%d\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-title=\"", index, width, height, width, height);
    html_escape(f, b->text, strlen(b->text));
    fprintf(f, "\">\n");
    for (double y = 0; y <= top * 1.0001; y += step) {
        double py = top_m + plot_h - y / top * plot_h;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%g</text>\n",
                left, width - 10, py, py, left - 4, py + 3, y);
    }
    if (!isnan(b->reference)) {
        double py = top_m + plot_h - b->reference / top * plot_h;
        fprintf(f, "<line class=\"reference\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                   "stroke-dasharray=\"4 3\"/>\n", left, width - 10, py, py);
    }
    fprintf(f, "<text x=\"12\" y=\"%d\" font-size=\"10\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">",
            top_m + plot_h / 2, top_m + plot_h / 2);
    html_escape(f, b->ylabel, strlen(b->ylabel));
    fputs("</text>\n", f);
    for (int g = 0; g < b->ngroups; g++) {
        int x0 = left + g * group_w + gap / 2;
        for (int s = 0; s < b->nseries; s++) {
            double v = b->bars[g * b->nseries + s];
            int st = b->bar_state[g * b->nseries + s];
            double h = st == V_OK && isfinite(v) && v > 0 ? v / top * plot_h : 0;
            fprintf(f, "<rect class=\"bar\" data-workload=\"");
            html_escape(f, b->groups[g], strlen(b->groups[g]));
            fprintf(f, "\" data-variant=\"");
            html_escape(f, b->series[s], strlen(b->series[s]));
            if (st == V_OK) fprintf(f, "\" data-value=\"%.17g", v);
            else fprintf(f, "\" data-value=\"%s", st == V_FAIL ? "FAIL" : st == V_NA ? "none" : "missing");
            fprintf(f, "\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>", x0 + s * bw,
                    top_m + plot_h - h, bw - 1, h, palette[s % 10]);
            html_escape(f, b->groups[g], strlen(b->groups[g]));
            fputs(", ", f);
            html_escape(f, b->series[s], strlen(b->series[s]));
            if (st == V_OK) fprintf(f, ": %.4g", v);
            else fprintf(f, ": %s", st == V_FAIL ? "FAIL" : st == V_NA ? "not run" : "missing");
            fputs("</title></rect>\n", f);
        }
        int cx = x0 + b->nseries * bw / 2, cy = top_m + plot_h + 10;
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\" transform=\"rotate(-45 %d %d)\">", cx,
                cy, cx, cy);
        html_escape(f, b->groups[g], strlen(b->groups[g]));
        fputs("</text>\n", f);
    }
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", left, width - 10, top_m + plot_h,
            top_m + plot_h);
    for (int s = 0; s < b->nseries; s++) {
        int lx = left + s * 110;
        fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"8\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                   "<text x=\"%d\" y=\"17\" font-size=\"11\">", lx, palette[s % 10], lx + 14);
        html_escape(f, b->series[s], strlen(b->series[s]));
        fputs("</text>\n", f);
    }
    fputs("</svg></figure>\n", f);
}

static void write_html(report *R, FILE *f) {
    const char *title = R->nblocks && R->blocks[0].kind == B_HEADING ? R->blocks[0].text : R->s->name;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
    html_escape(f, title, strlen(title));
    fputs("</title>\n<style>\nbody{font-family:sans-serif;max-width:80em;margin:1em auto;padding:0 1em;line-height:1.4}\n"
          "table{border-collapse:collapse;margin:1em 0;font-size:90%}\n"
          "th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}\n"
          "th{background:#eee}td:first-child,td:nth-child(2){text-align:left}\n"
          "tr.summary td{background:#f4f4f4}\nfigure{margin:1em 0}figcaption{font-weight:bold}\n"
          "p.li{margin-top:0.2em;margin-bottom:0.2em}code{background:#f3f3f3}\n</style></head><body>\n", f);
    int chart = 0;
    for (int i = 0; i < R->nblocks; i++) {
        block *b = &R->blocks[i];
        if (b->kind == B_HEADING) {
            fprintf(f, "<h%d>", b->level);
            html_inline(f, b->text);
            fprintf(f, "</h%d>\n", b->level);
        } else if (b->kind == B_TEXT) {
            html_text(f, b->text);
        } else if (b->kind == B_TABLE) {
            fputs("<table>\n<thead><tr>", f);
            for (int c = 0; c < b->ncols; c++) {
                fputs("<th>", f);
                html_inline(f, b->head[c]);
                fputs("</th>", f);
            }
            fputs("</tr></thead>\n<tbody>\n", f);
            for (int r = 0; r < b->nrows; r++) {
                fputs(b->summary[r] ? "<tr class=\"summary\">" : "<tr>", f);
                for (int c = 0; c < b->ncols; c++) {
                    fputs("<td>", f);
                    html_inline(f, b->cells[r][c]);
                    fputs("</td>", f);
                }
                fputs("</tr>\n", f);
            }
            fputs("</tbody></table>\n", f);
        } else {
            html_chart(f, b, chart++);
        }
    }
    fputs("</body></html>\n", f);
}

/* ---- the command ---- */

/* Whole or not at all (sim/outfile.h): an earlier report survives a failed write. */
static int write_file(report *R, const char *path, void (*fn)(report *, FILE *)) {
    outfile o;
    if (outfile_open(&o, path) != 0) {
        fprintf(stderr, "locsim report: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fn(R, o.f);
    if (outfile_commit(&o) != 0) {
        fprintf(stderr, "locsim report: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void free_report(report *R) {
    for (int i = 0; i < R->nblocks; i++) {
        block *b = &R->blocks[i];
        free(b->text);
        free(b->ylabel);
        for (int c = 0; c < b->ncols && b->head; c++) free(b->head[c]);
        free(b->head);
        for (int r = 0; r < b->nrows; r++) {
            for (int c = 0; c < b->ncols; c++) free(b->cells[r][c]);
            free(b->cells[r]);
        }
        free(b->cells);
        free(b->summary);
        for (int g = 0; g < b->ngroups; g++) free(b->groups[g]);
        for (int s = 0; s < b->nseries; s++) free(b->series[s]);
        free(b->groups);
        free(b->series);
        free(b->bars);
        free(b->bar_state);
    }
    free(R->blocks);
    for (int i = 0; i < R->nruns; i++) {
        for (int k = 0; k < R->runs[i].n; k++) free(R->runs[i].names[k]);
        free(R->runs[i].names);
        free(R->runs[i].values);
    }
    free(R->runs);
    free(R->derived);
}

int report_main(int argc, char **argv) {
    const char *specpath = NULL, *dbpath = NULL, *outdir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--db") || !strcmp(a, "--out")) && i + 1 < argc) {
            if (!*argv[i + 1]) {
                fprintf(stderr, "locsim report: %s needs a name, got an empty string\n", a);
                return 2;
            }
            if (a[2] == 'd') dbpath = argv[++i];
            else outdir = argv[++i];
        } else if (a[0] != '-' && !specpath) {
            specpath = a;
        } else {
            fprintf(stderr, "locsim report: unknown option or missing value '%s'\n"
                            "usage: locsim report SPEC [--db FILE] [--out DIR]\n", a);
            return 2;
        }
    }
    if (!specpath) {
        fprintf(stderr, "usage: locsim report SPEC [--db FILE] [--out DIR]\n");
        return 2;
    }
    report R;
    memset(&R, 0, sizeof R);
    char err[2048], dbbuf[4096];
    if (!(R.s = spec_load(specpath, err, sizeof err))) {
        fprintf(stderr, "locsim report: %s\n", err);
        return 2;
    }
    if (!dbpath) {
        sweep_default_db(specpath, dbbuf, sizeof dbbuf);
        dbpath = dbbuf;
    }
    int rc = 2;
    if (sweep_make_plan(R.s, &R.plan, err, sizeof err)) {
        fprintf(stderr, "locsim report: %s\n", err);
        goto out;
    }
    /* the committed results (results_file.h) first: a fresh clone has no
     * database (only into the spec's own database, not a --db of one's own) */
    char results_path[PATH_MAX];
    results_file_path(specpath, R.s->name, results_path, sizeof results_path);
    if (dbpath == dbbuf && access(results_path, F_OK) == 0) {
        results_db w;
        int copied = 0;
        if (db_open(&w, dbpath, 1, 0, err, sizeof err) || results_import(&w, results_path, &copied, err, sizeof err))
            fprintf(stderr, "locsim report: cannot merge %s into %s: %s\n", results_path, dbpath, err);
        else if (copied)
            fprintf(stderr, "locsim report: %d runs merged from %s\n", copied, results_path);
        db_close(&w);
    }
    /* runs stored under the first key scheme found by their points (points.h);
     * a database the report may not write is read as it is */
    results_db w;
    if (access(dbpath, W_OK) == 0 && db_open(&w, dbpath, 0, 0, err, sizeof err) == 0) {
        int moved, dropped;
        if (points_migrate(&w, &R.plan, R.s->name, &moved, &dropped, err, sizeof err))
            fprintf(stderr, "locsim report: %s\n", err);
        db_close(&w);
    }
    if (db_open(&R.db, dbpath, 0, 1, err, sizeof err)) {
        fprintf(stderr, "locsim report: %s\n", err);
        goto out;
    }
    char cur[MODEL_ID_CHARS + 1];
    snprintf(cur, sizeof cur, "%.12s", R.plan.binary_hash);
    equiv_closure(&R.db, cur, &R.accepted_models);   /* ids[0] is this model */
    if (build(&R)) goto out;
    char md[4200], html[4200];
    if (!outdir) outdir = ".";
    mkdir(outdir, 0755);
    snprintf(md, sizeof md, "%s/%s.md", outdir, R.s->name);
    snprintf(html, sizeof html, "%s/%s.html", outdir, R.s->name);
    if (write_file(&R, md, write_md) || write_file(&R, html, write_html)) goto out;
    fprintf(stderr, "locsim report: wrote %s and %s\n", md, html);
    if (R.missing)
        fprintf(stderr, "locsim report: %d values refer to runs that are not in %s (shown as 'missing'): run "
                        "locsim sweep %s\n", R.missing, dbpath, specpath);
    if (R.failed) fprintf(stderr, "locsim report: %d values come from failed runs (shown as FAIL)\n", R.failed);
    if (R.stale)
        fprintf(stderr, "locsim report: %d values come from runs of an earlier model (%s; shown with \u2020): run "
                        "locsim sweep %s\n", R.stale, R.stale_versions, specpath);
    rc = R.missing || R.failed || R.stale ? 1 : 0;
out:
    model_set_free(&R.accepted_models);
    db_close(&R.db);
    sweep_free_plan(&R.plan);
    free_report(&R);
    spec_free(R.s);
    return rc;
}
