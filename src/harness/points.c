/* A run's key and point, and scheme-1 runs carried over (points.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/equiv.h"
#include "harness/points.h"
#include "harness/sha256.h"
#include "sim/config.h"

/* The program an exec names, as a path (PATH lookup without a '/'). */
static int find_program(const char *argv0, char *out, size_t n) {
    if (strchr(argv0, '/')) return (size_t)snprintf(out, n, "%s", argv0) < n && access(out, X_OK) == 0 ? 0 : -1;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if ((size_t)snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", argv0) < n && access(out, X_OK) == 0)
            return 0;
        path = colon ? colon + 1 : NULL;
    }
    return -1;
}

static char *dump_of(const sim_config *c, size_t *len) {
    char *text = NULL;
    *len = 0;
    FILE *f = open_memstream(&text, len);
    if (!f) return NULL;
    config_dump(c, f);
    fclose(f);
    return text;
}

/* The dump of a default configuration, made once per plan. */
static const char *defaults_of(sweep_plan *p, size_t *len) {
    if (!p->defaults) {
        sim_config d;
        char e[1024];
        config_defaults(&d);
        config_finalize(&d, e, sizeof e);   /* compared with finalized configurations */
        p->defaults = dump_of(&d, &p->defaults_len);
    }
    *len = p->defaults_len;
    return p->defaults;
}

static size_t count_lines(const char *s, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += s[i] == '\n';
    return k;
}

void points_changed_options(const char *dump, size_t dumplen, const char *defaults, size_t deflen, FILE *out) {
    if (count_lines(dump, dumplen) != count_lines(defaults, deflen)) {
        fwrite(dump, 1, dumplen, out);
        return;
    }
    const char *a = dump, *ae = dump + dumplen, *b = defaults, *be = defaults + deflen;
    while (a < ae) {
        const char *an = memchr(a, '\n', (size_t)(ae - a)), *bn = memchr(b, '\n', (size_t)(be - b));
        size_t al = an ? (size_t)(an - a) + 1 : (size_t)(ae - a), bl = bn ? (size_t)(bn - b) + 1 : (size_t)(be - b);
        if (al != bl || memcmp(a, b, al)) fwrite(a, 1, al, out);
        a += al;
        b += bl;
    }
}

void points_key(const char *model, const char *point, char key[65]) {
    sha256_ctx c;
    char text[160];
    int n = snprintf(text, sizeof text, "locsim-run-v2\nmodel %.12s\npoint %s\n", model, point);
    sha256_init(&c);
    sha256_update(&c, text, (size_t)n);
    sha256_hex(&c, key);
}

static void update_both(sha256_ctx *c, sha256_ctx *pc, const void *data, size_t n) {
    sha256_update(c, data, n);
    sha256_update(pc, data, n);
}

/* What the run measures besides its configuration, into both hashes (the
 * program file, for an exec workload, is read once). */
static int hash_workload(const spec *s, const planned_run *r, sha256_ctx *c, sha256_ctx *pc, char *err,
                         size_t errlen) {
    char head[128];
    int n = snprintf(head, sizeof head, "size %u\nseed %llu\n", r->size, (unsigned long long)r->seed);
    update_both(c, pc, head, (size_t)n);
    if (r->w->name) {
        update_both(c, pc, "workload ", 9);
        update_both(c, pc, r->w->name, strlen(r->w->name) + 1);
        return 0;
    }
    char prog[PATH_MAX], h[65];
    if (find_program(r->w->argv[0], prog, sizeof prog) || sha256_file(prog, h)) {
        snprintf(err, errlen, "%s:%d: workload %s: cannot read the program '%s'", s->path, r->w->line, r->w->id,
                 r->w->argv[0]);
        return -1;
    }
    update_both(c, pc, "program ", 8);
    update_both(c, pc, h, 64);
    for (int i = 0; i < r->w->argc; i++) update_both(c, pc, r->w->argv[i], strlen(r->w->argv[i]) + 1);
    return 0;
}

static int load_run_config(const spec *s, const planned_run *r, sim_config *cfg, char *err, size_t errlen) {
    char e[1024];
    if (config_load(cfg, r->cfg->path, e, sizeof e)) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    for (int o = 0; o < r->v->nopts; o++)
        if (config_set(cfg, r->v->opts[o].name, r->v->opts[o].value, s->path, e, sizeof e)) {
            snprintf(err, errlen, "%s", e);
            return -1;
        }
    if (config_finalize(cfg, e, sizeof e)) {
        snprintf(err, errlen, "%s: %s", s->path, e);
        return -1;
    }
    return 0;
}

int points_of_run(const spec *s, sweep_plan *p, planned_run *r, char *err, size_t errlen) {
    sim_config cfg;
    if (load_run_config(s, r, &cfg, err, errlen)) return -1;
    size_t dumplen, deflen, changedlen = 0;
    char *dump = dump_of(&cfg, &dumplen), *changed = NULL;
    const char *defaults = defaults_of(p, &deflen);
    FILE *f = dump && defaults ? open_memstream(&changed, &changedlen) : NULL;
    if (!f) {
        free(dump);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    points_changed_options(dump, dumplen, defaults, deflen, f);
    fclose(f);
    /* one pass over the workload into both: scheme 1's key (the model, then
     * the whole dump; as sweeps before scheme 2 computed it) and scheme 2's
     * point (the changed options), whose key is then made from it */
    sha256_ctx c, pc;
    sha256_init(&c);
    sha256_init(&pc);
    char head[512];
    int n = snprintf(head, sizeof head, "locsim-run-v1\nmodel %s\n", p->binary_hash);
    sha256_update(&c, head, (size_t)n);
    sha256_update(&pc, "locsim-point-v2\n", 16);
    int rc = hash_workload(s, r, &c, &pc, err, errlen);
    if (rc == 0) {
        sha256_update(&c, "config\n", 7);
        sha256_update(&c, dump, dumplen);
        sha256_hex(&c, r->legacy_key);
        sha256_update(&pc, "options\n", 8);
        sha256_update(&pc, changed, changedlen);
        sha256_hex(&pc, r->point);
        points_key(p->binary_hash, r->point, r->key);
    }
    free(changed);
    free(dump);
    return rc;
}

/* ---- carrying scheme-1 runs over ---- */

/* Stored `command` is `tail` run by some binary: one word (the binary's path,
 * plain or single-quoted), a space, then exactly `tail`. */
static int same_command(const char *command, const char *tail) {
    size_t cl = strlen(command), tl = strlen(tail);
    if (cl < tl + 2 || strcmp(command + cl - tl, tail) || command[cl - tl - 1] != ' ') return 0;
    size_t wl = cl - tl - 1;
    if (command[0] == '\'') return wl >= 2 && command[wl - 1] == '\'';
    return memchr(command, ' ', wl) == NULL;
}

static int drop_run(results_db *db, sqlite3_int64 id) {
    char *sql = sqlite3_mprintf("DELETE FROM stats WHERE run = %lld; DELETE FROM kernels WHERE run = %lld;"
                                "DELETE FROM runs WHERE id = %lld;",
                                (long long)id, (long long)id, (long long)id);
    int rc = sqlite3_exec(db->db, sql, NULL, NULL, NULL);
    sqlite3_free(sql);
    return rc == SQLITE_OK ? 0 : -1;
}

static int key_stored(results_db *db, const char *key) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->db, "SELECT 1 FROM runs WHERE key = ?", -1, &st, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

typedef struct {
    sqlite3_int64 id;
    char model[MODEL_ID_CHARS + 1];
} stored_run;

/* One planned run: its stored scheme-1 runs, carried over or dropped. */
static int migrate_run(results_db *db, const sweep_plan *p, const planned_run *r, sqlite3_stmt *sel, int *moved,
                       int *dropped) {
    char *tail = sweep_command_line(r->argv + 1, r->argc - 1);
    char cur[MODEL_ID_CHARS + 1];
    snprintf(cur, sizeof cur, "%.12s", p->binary_hash);
    sqlite3_reset(sel);
    sqlite3_bind_text(sel, 2, r->w->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(sel, 3, r->size);
    sqlite3_bind_int64(sel, 4, (sqlite3_int64)r->seed);
    /* collect first: the statement must be done before the rows change */
    stored_run *rows = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(sel, 1), *point = (const char *)sqlite3_column_text(sel, 2),
                   *version = (const char *)sqlite3_column_text(sel, 3),
                   *command = (const char *)sqlite3_column_text(sel, 4);
        char model[MODEL_ID_CHARS + 1], v2[65];
        if (!key || !point || !command || equiv_model_of_version(version, model)) continue;
        points_key(model, point, v2);
        if (!strcmp(v2, key) || !same_command(command, tail)) continue;   /* scheme 2 already, or another run */
        if (!strcmp(model, cur) && strcmp(key, r->legacy_key)) continue;  /* this model, but another config */
        if (n == cap) {
            cap = cap ? 2 * cap : 4;
            stored_run *grown = realloc(rows, (size_t)cap * sizeof *rows);
            if (!grown) break;
            rows = grown;
        }
        rows[n].id = sqlite3_column_int64(sel, 0);
        snprintf(rows[n].model, sizeof rows[n].model, "%s", model);
        n++;
    }
    free(tail);
    int failed = rc != SQLITE_DONE && rc != SQLITE_ROW;
    for (int i = 0; i < n && !failed; i++) {
        char key[65];
        points_key(rows[i].model, r->point, key);
        int have = key_stored(db, key);
        if (have < 0) {
            failed = 1;
        } else if (have) {
            failed = drop_run(db, rows[i].id) != 0;
            (*dropped)++;
        } else {
            char *sql = sqlite3_mprintf("UPDATE runs SET key = %Q, point = %Q WHERE id = %lld", key, r->point,
                                        (long long)rows[i].id);
            failed = sqlite3_exec(db->db, sql, NULL, NULL, NULL) != SQLITE_OK;
            sqlite3_free(sql);
            (*moved)++;
        }
    }
    free(rows);
    return failed ? -1 : 0;
}

int points_migrate(results_db *db, const sweep_plan *p, const char *spec_name, int *moved, int *dropped, char *err,
                   size_t errlen) {
    *moved = *dropped = 0;
    sqlite3_stmt *sel;
    if (sqlite3_exec(db->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->db,
                           "SELECT id, key, point, version, command FROM runs WHERE spec = ? AND workload = ?"
                           " AND size = ? AND seed = ?",
                           -1, &sel, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: carrying earlier runs over: %s", db->path, sqlite3_errmsg(db->db));
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    sqlite3_bind_text(sel, 1, spec_name, -1, SQLITE_STATIC);
    int rc = 0;
    for (int i = 0; i < p->nruns && !rc; i++) rc = migrate_run(db, p, &p->runs[i], sel, moved, dropped);
    sqlite3_finalize(sel);
    if (rc || sqlite3_exec(db->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: carrying earlier runs over: %s", db->path, sqlite3_errmsg(db->db));
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}
