/* Model equivalence (equiv.h): which earlier models' runs count as this one's. */
#include "harness/equiv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int equiv_model_of_version(const char *version, char out[MODEL_ID_CHARS + 1]) {
    const char *m = version ? strstr(version, "model:") : NULL;
    if (!m) return -1;
    m += 6;
    for (int i = 0; i < MODEL_ID_CHARS; i++)
        if (!((m[i] >= '0' && m[i] <= '9') || (m[i] >= 'a' && m[i] <= 'f'))) return -1;
    memcpy(out, m, MODEL_ID_CHARS);
    out[MODEL_ID_CHARS] = 0;
    return 0;
}

int model_set_has(const model_set *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (!strncmp(s->ids[i], id, MODEL_ID_CHARS)) return 1;
    return 0;
}

static void model_set_add(model_set *s, const char *id) {
    if (model_set_has(s, id)) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->ids = realloc(s->ids, (size_t)s->cap * sizeof *s->ids);
        if (!s->ids) {
            fprintf(stderr, "locsim: out of memory\n");
            exit(2);
        }
    }
    snprintf(s->ids[s->n++], MODEL_ID_CHARS + 1, "%s", id);
}

void model_set_free(model_set *s) {
    free(s->ids);
    memset(s, 0, sizeof *s);
}

void equiv_closure(results_db *d, const char *current, model_set *out) {
    memset(out, 0, sizeof *out);
    model_set_add(out, current);
    sqlite3_stmt *st;
    if (!d->db || sqlite3_prepare_v2(d->db, "SELECT earlier, later FROM model_equivalence", -1, &st, NULL) != SQLITE_OK)
        return;   /* a file from before the table: no pairs */
    int n = 0, cap = 0;
    char (*pairs)[2][MODEL_ID_CHARS + 1] = NULL;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            pairs = realloc(pairs, (size_t)cap * sizeof *pairs);
            if (!pairs) exit(2);
        }
        snprintf(pairs[n][0], MODEL_ID_CHARS + 1, "%s", (const char *)sqlite3_column_text(st, 0));
        snprintf(pairs[n][1], MODEL_ID_CHARS + 1, "%s", (const char *)sqlite3_column_text(st, 1));
        n++;
    }
    sqlite3_finalize(st);
    /* grow the class until no pair joins a new model to it (either direction) */
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < n; i++) {
            int a = model_set_has(out, pairs[i][0]), b = model_set_has(out, pairs[i][1]);
            if (a != b) {
                model_set_add(out, a ? pairs[i][1] : pairs[i][0]);
                grew = 1;
            }
        }
    }
    free(pairs);
}

int equiv_latest_run(results_db *d, const char *point, const char *current, const model_set *in_set,
                     sqlite3_int64 *id, char *version, size_t vlen) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db,
                           "SELECT id, version FROM runs WHERE point = ? AND status IN ('ok', 'capped')"
                           " ORDER BY finished_utc DESC, id DESC",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, point, -1, SQLITE_STATIC);
    int found = 0, rc;
    while (!found && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 1);
        char m[MODEL_ID_CHARS + 1];
        if (equiv_model_of_version(v, m) || !strncmp(m, current, MODEL_ID_CHARS)) continue;
        if (in_set && !model_set_has(in_set, m)) continue;
        *id = sqlite3_column_int64(st, 0);
        snprintf(version, vlen, "%s", v);
        found = 1;
    }
    sqlite3_finalize(st);
    return found;
}

/* A run's status and whole-run statistics (sorted by name: db_run_totals). */
typedef struct {
    char status[32];
    db_totals stats;
} run_totals;

static int load_totals(results_db *d, sqlite3_int64 id, run_totals *t) {
    memset(t, 0, sizeof *t);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "SELECT status FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) snprintf(t->status, sizeof t->status, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return -1;
    return db_run_totals(d, id, &t->stats);
}

static void add_diff(char *diff, size_t n, int *ndiff, const char *what) {
    if ((*ndiff)++ >= 5) return;   /* the first five say enough */
    size_t k = strlen(diff);
    snprintf(diff + k, n - k, "%s%s", k ? "; " : "", what);
}

int equiv_compare_runs(results_db *d, sqlite3_int64 a, sqlite3_int64 b, long *nstats, char *diff, size_t n) {
    run_totals rx, ry;
    db_totals x, y;
    diff[0] = 0;
    *nstats = 0;
    if (load_totals(d, a, &rx)) return -1;
    if (load_totals(d, b, &ry)) {
        db_totals_free(&rx.stats);
        return -1;
    }
    x = rx.stats;
    y = ry.stats;
    int ndiff = 0;
    if (strcmp(rx.status, ry.status)) {
        snprintf(diff, n, "status %s, then %s", rx.status, ry.status);
        ndiff++;
    }
    int i = 0, j = 0;
    while (i < x.n || j < y.n) {
        int c = i == x.n ? 1 : j == y.n ? -1 : strcmp(x.names[i], y.names[j]);
        char what[512];
        if (c < 0) {
            snprintf(what, sizeof what, "%s only in the earlier run (%.17g)", x.names[i], x.values[i]);
            add_diff(diff, n, &ndiff, what);
            i++;
        } else if (c > 0) {
            snprintf(what, sizeof what, "%s only in the rerun (%.17g)", y.names[j], y.values[j]);
            add_diff(diff, n, &ndiff, what);
            j++;
        } else {
            /* bit for bit: an identical model stores identical doubles */
            int same = x.null[i] ? y.null[j] : !y.null[j] && !memcmp(&x.values[i], &y.values[j], sizeof(double));
            if (!same) {
                snprintf(what, sizeof what, "%s %.17g, then %.17g", x.names[i], x.values[i], y.values[j]);
                add_diff(diff, n, &ndiff, what);
            }
            (*nstats)++;
            i++;
            j++;
        }
    }
    if (ndiff > 5) {
        size_t k = strlen(diff);
        snprintf(diff + k, n - k, "; and %d more", ndiff - 5);
    }
    db_totals_free(&x);
    db_totals_free(&y);
    return ndiff ? 1 : 0;
}

int equiv_record(results_db *d, const char *earlier, const char *current, int nruns, long nstats, const char *sample,
                 char *err, size_t errlen) {
    char utc[32];
    time_t t = time(NULL);
    strftime(utc, sizeof utc, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db,
                           "INSERT OR REPLACE INTO model_equivalence(earlier, later, runs_rerun, stats_compared,"
                           " sample, accepted_utc) VALUES (?, ?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", d->path, sqlite3_errmsg(d->db));
        return -1;
    }
    sqlite3_bind_text(st, 1, earlier, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, current, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, nruns);
    sqlite3_bind_int64(st, 4, nstats);
    sqlite3_bind_text(st, 5, sample, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, utc, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: recording the equivalence: %s", d->path, sqlite3_errmsg(d->db));
        return -1;
    }
    return 0;
}

char *equiv_describe(results_db *d, const model_set *models, const char *current) {
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) exit(2);
    sqlite3_stmt *st;
    if (d->db && sqlite3_prepare_v2(d->db,
                                    "SELECT earlier, later, runs_rerun, stats_compared, accepted_utc"
                                    " FROM model_equivalence ORDER BY accepted_utc, earlier",
                                    -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *e = (const char *)sqlite3_column_text(st, 0), *l = (const char *)sqlite3_column_text(st, 1);
            if (!model_set_has(models, e) || !model_set_has(models, l)) continue;
            fprintf(f, "model `%s` accepted as `%s`%s on %s: %d of its runs rerun, %lld statistics compared, all "
                       "identical\n",
                    e, l, strncmp(l, current, MODEL_ID_CHARS) ? "" : " (this model)",
                    (const char *)sqlite3_column_text(st, 4), sqlite3_column_int(st, 2),
                    (long long)sqlite3_column_int64(st, 3));
        }
        sqlite3_finalize(st);
    }
    fclose(f);
    return out;
}
