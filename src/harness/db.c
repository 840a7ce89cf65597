/* The results database (see db.h). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/db.h"

static const char *const SCHEMA =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, spec TEXT, workload TEXT, size INTEGER,"
    " seed INTEGER, config TEXT, variant TEXT, command TEXT, status TEXT NOT NULL, message TEXT, wall_s REAL,"
    " cpu_s REAL, version TEXT, finished_utc TEXT, point TEXT);"
    "CREATE INDEX runs_point ON runs(point);"
    "CREATE TABLE kernels(run INTEGER NOT NULL, kernel INTEGER NOT NULL, name TEXT, PRIMARY KEY(run, kernel))"
    " WITHOUT ROWID;"
    "CREATE TABLE stat_names(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);"
    "CREATE TABLE stats(run INTEGER NOT NULL, kernel INTEGER NOT NULL, stat INTEGER NOT NULL, value REAL,"
    " PRIMARY KEY(run, kernel, stat)) WITHOUT ROWID;"
    "CREATE VIEW stat_values AS SELECT r.key AS key, r.workload AS workload, r.size AS size, r.seed AS seed,"
    " r.config AS config, r.variant AS variant, r.status AS status, s.kernel AS kernel,"
    " CASE WHEN s.kernel < 0 THEN 'total' ELSE k.name END AS kernel_name, n.name AS name, s.value AS value"
    " FROM stats s JOIN runs r ON r.id = s.run JOIN stat_names n ON n.id = s.stat"
    " LEFT JOIN kernels k ON k.run = s.run AND k.kernel = s.kernel;";

static int fail(results_db *d, char *err, size_t errlen, const char *what) {
    int code = d->db ? sqlite3_extended_errcode(d->db) & 0xff : SQLITE_ERROR;
    const char *msg = d->db ? sqlite3_errmsg(d->db) : "cannot open";
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        snprintf(err, errlen, "%s: the database is locked by another process (another sweep?): %s", d->path, what);
    else if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
        snprintf(err, errlen, "%s: not a readable SQLite database (corrupt, or another kind of file): %s", d->path,
                 msg);
    else if (code == SQLITE_READONLY)
        snprintf(err, errlen, "%s: the database is read-only: %s", d->path, msg);
    else
        snprintf(err, errlen, "%s: %s: %s", d->path, what, msg);
    return -1;
}

static int exec(results_db *d, const char *sql, char *err, size_t errlen) {
    if (sqlite3_exec(d->db, sql, NULL, NULL, NULL) != SQLITE_OK) return fail(d, err, errlen, sql);
    return 0;
}

/* Tables in the file: 0 for an empty database, -1 on error. */
static int count_tables(results_db *d, char *err, size_t errlen) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
        return fail(d, err, errlen, "reading the schema");
    int rc = sqlite3_step(st), n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return fail(d, err, errlen, "reading the schema");
    return n;
}

static int check_schema(results_db *d, char *err, size_t errlen) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st, NULL) != SQLITE_OK) {
        if (strstr(sqlite3_errmsg(d->db), "no such table")) {
            snprintf(err, errlen, "%s: not a locsim results database (no meta table); not touching it", d->path);
            return -1;
        }
        return fail(d, err, errlen, "reading the schema version");
    }
    int rc = sqlite3_step(st);
    int version = rc == SQLITE_ROW ? atoi((const char *)sqlite3_column_text(st, 0)) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return fail(d, err, errlen, "reading the schema version");
    if (version != DB_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: results schema version %d, this locsim reads version %d; not touching it "
                 "(use another --db)", d->path, version, DB_SCHEMA_VERSION);
        return -1;
    }
    return 0;
}

static int quick_check(results_db *d, char *err, size_t errlen) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK)
        return fail(d, err, errlen, "checking the file");
    int rc = sqlite3_step(st);
    const char *r = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    int ok = r && !strcmp(r, "ok");
    if (!ok && rc == SQLITE_ROW) snprintf(err, errlen, "%s: the database is corrupt: %s", d->path, r);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return fail(d, err, errlen, "checking the file");
    return ok ? 0 : -1;
}

int db_open(results_db *d, const char *path, int create, int readonly, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    d->path = path;
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (!exists && (!create || readonly)) {
        snprintf(err, errlen, "%s: no such results database (run locsim sweep first)", path);
        return -1;
    }
    if (exists && !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    if (exists && !readonly && access(path, W_OK) != 0) {
        snprintf(err, errlen, "%s: the database is read-only (%s); not writing to it", path, strerror(errno));
        return -1;
    }
    int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path, &d->db, flags, NULL) != SQLITE_OK) {
        fail(d, err, errlen, "opening");
        db_close(d);
        return -1;
    }
    sqlite3_busy_timeout(d->db, 3000);
    if (!readonly && sqlite3_db_readonly(d->db, "main") == 1) {
        snprintf(err, errlen, "%s: the database is read-only; not writing to it", path);
        db_close(d);
        return -1;
    }
    int ntables = count_tables(d, err, errlen);
    if (ntables < 0 || (exists && ntables > 0 && (quick_check(d, err, errlen) || check_schema(d, err, errlen)))) {
        db_close(d);
        return -1;
    }
    if (!readonly) {
        /* take the write lock once now, so a locked database is reported before any run */
        if (exec(d, "PRAGMA journal_mode=WAL", err, errlen) || exec(d, "PRAGMA synchronous=FULL", err, errlen) ||
            exec(d, "BEGIN IMMEDIATE", err, errlen)) {
            db_close(d);
            return -1;
        }
        if (ntables == 0) {
            char sql[256];
            snprintf(sql, sizeof sql, "INSERT INTO meta VALUES('schema_version', '%d'); PRAGMA user_version = %d;",
                     DB_SCHEMA_VERSION, DB_SCHEMA_VERSION);
            if (exec(d, SCHEMA, err, errlen) || exec(d, sql, err, errlen)) {
                db_close(d);
                return -1;
            }
        }
        /* runs a sweep is running now, so that another sweep on the same file
         * leaves them to it (db_claim) */
        /* and the earlier models whose runs were proven to be this model's
         * (harness/equiv.h, locsim sweep --accept) */
        if (exec(d, "CREATE TABLE IF NOT EXISTS claims(key TEXT PRIMARY KEY, pid INTEGER, host TEXT, since TEXT);"
                    "CREATE TABLE IF NOT EXISTS model_equivalence(earlier TEXT NOT NULL, later TEXT NOT NULL,"
                    " runs_rerun INTEGER, stats_compared INTEGER, sample TEXT, accepted_utc TEXT,"
                    " PRIMARY KEY(earlier, later))",
                 err, errlen)) {
            db_close(d);
            return -1;
        }
        /* files from before runs had a point (what a run measures, without the
         * model) gain the column; their runs have none, so are never taken as stale */
        sqlite3_stmt *probe;
        if (sqlite3_prepare_v2(d->db, "SELECT point FROM runs LIMIT 0", -1, &probe, NULL) != SQLITE_OK) {
            if (exec(d, "ALTER TABLE runs ADD COLUMN point TEXT; CREATE INDEX runs_point ON runs(point);", err,
                     errlen)) {
                db_close(d);
                return -1;
            }
        } else {
            sqlite3_finalize(probe);
        }
        if (exec(d, "COMMIT", err, errlen)) {
            db_close(d);
            return -1;
        }
    } else if (ntables == 0) {
        /* A sweep creates its tables when it opens the file, so a file without
         * them was not written by one: say what it is. */
        if (sb.st_size == 0)
            snprintf(err, errlen, "%s: an empty file (0 bytes), not a results database (locsim sweep creates one)",
                     path);
        else
            snprintf(err, errlen, "%s: an SQLite database without locsim's tables, not a results database", path);
        db_close(d);
        return -1;
    }
    return 0;
}

void db_close(results_db *d) {
    if (d->db) sqlite3_close(d->db);
    d->db = NULL;
}

int db_run_status(results_db *d, const char *key, char *status, size_t n) {
    sqlite3_stmt *st;
    status[0] = 0;
    if (sqlite3_prepare_v2(d->db, "SELECT status FROM runs WHERE key = ?", -1, &st, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) snprintf(status, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_run_totals(results_db *d, sqlite3_int64 run, db_totals *t) {
    memset(t, 0, sizeof *t);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db,
                           "SELECT n.name, s.value FROM stats s JOIN stat_names n ON n.id = s.stat"
                           " WHERE s.run = ? AND s.kernel = -1 ORDER BY n.name",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    int cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (t->n == cap) {
            cap = cap ? 2 * cap : 256;
            t->names = realloc(t->names, (size_t)cap * sizeof *t->names);
            t->values = realloc(t->values, (size_t)cap * sizeof *t->values);
            t->null = realloc(t->null, (size_t)cap * sizeof *t->null);
            if (!t->names || !t->values || !t->null) exit(2);
        }
        t->names[t->n] = strdup((const char *)sqlite3_column_text(st, 0));
        if (!t->names[t->n]) exit(2);
        t->null[t->n] = sqlite3_column_type(st, 1) == SQLITE_NULL;
        t->values[t->n] = t->null[t->n] ? NAN : sqlite3_column_double(st, 1);
        t->n++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_totals_free(t);
        return -1;
    }
    return 0;
}

void db_totals_free(db_totals *t) {
    for (int i = 0; i < t->n; i++) free(t->names[i]);
    free(t->names);
    free(t->values);
    free(t->null);
    memset(t, 0, sizeof *t);
}

/* Id of a statistic's name, adding it when new. */
static sqlite3_int64 stat_id(results_db *d, sqlite3_stmt *ins, sqlite3_stmt *sel, const char *name) {
    sqlite3_reset(sel);
    sqlite3_bind_text(sel, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(sel) == SQLITE_ROW) return sqlite3_column_int64(sel, 0);
    sqlite3_reset(ins);
    sqlite3_bind_text(ins, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(ins) != SQLITE_DONE) return -1;
    return sqlite3_last_insert_rowid(d->db);
}

static void utc_now(char *buf, size_t n) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Is process pid on this host alive? */
static int claimant_alive(const char *host, sqlite3_int64 pid) {
    char me[256] = "";
    gethostname(me, sizeof me - 1);
    if (strcmp(host ? host : "", me)) return 1;   /* another machine's: assume it runs */
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

int db_claim(results_db *d, const char *key, long *holder, char *err, size_t errlen) {
    *holder = 0;
    if (exec(d, "BEGIN IMMEDIATE", err, errlen)) return -1;
    sqlite3_stmt *st;
    int rc = 1;
    if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM runs WHERE key = ?", -1, &st, NULL) != SQLITE_OK) goto fail;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) rc = 0;   /* another sweep has stored it meanwhile */
    sqlite3_finalize(st);
    if (rc && sqlite3_prepare_v2(d->db, "SELECT pid, host FROM claims WHERE key = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) {
            sqlite3_int64 pid = sqlite3_column_int64(st, 0);
            if (pid != getpid() && claimant_alive((const char *)sqlite3_column_text(st, 1), pid)) {
                rc = 0;
                *holder = (long)pid;
            }
        }
        sqlite3_finalize(st);
    }
    if (rc) {
        char host[256] = "", when[32];
        gethostname(host, sizeof host - 1);
        utc_now(when, sizeof when);
        char *sql = sqlite3_mprintf("INSERT OR REPLACE INTO claims VALUES(%Q, %d, %Q, %Q)", key, (int)getpid(), host,
                                    when);
        int ok = sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK;
        sqlite3_free(sql);
        if (!ok) goto fail;
    }
    if (exec(d, "COMMIT", err, errlen)) return -1;
    return rc;
fail:
    snprintf(err, errlen, "%s: cannot claim a run: %s", d->path, sqlite3_errmsg(d->db));
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

void db_release_claims(results_db *d) {
    char *sql = sqlite3_mprintf("DELETE FROM claims WHERE pid = %d", (int)getpid());
    sqlite3_exec(d->db, sql, NULL, NULL, NULL);
    sqlite3_free(sql);
}

int db_store(results_db *d, const run_record *r, char *err, size_t errlen) {
    sqlite3_stmt *run = NULL, *ker = NULL, *ins = NULL, *sel = NULL, *sta = NULL;
    if (exec(d, "BEGIN IMMEDIATE", err, errlen)) return -1;
    /* a retried run replaces its earlier record */
    char *purge = sqlite3_mprintf("DELETE FROM stats WHERE run IN (SELECT id FROM runs WHERE key = %Q);"
                                  "DELETE FROM kernels WHERE run IN (SELECT id FROM runs WHERE key = %Q);",
                                  r->key, r->key);
    int ok = sqlite3_exec(d->db, purge, NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_free(purge);
    /* the run is stored: nobody runs it now (a claims table exists in files a
     * sweep opened for writing; a shard written by a task has none) */
    char *unclaim = sqlite3_mprintf("DELETE FROM claims WHERE key = %Q", r->key);
    sqlite3_exec(d->db, unclaim, NULL, NULL, NULL);
    sqlite3_free(unclaim);
    ok = ok && sqlite3_prepare_v2(d->db,
                                "INSERT OR REPLACE INTO runs(key, spec, workload, size, seed, config, variant, command,"
                                " status, message, wall_s, cpu_s, version, finished_utc, point)"
                                " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                -1, &run, NULL) == SQLITE_OK &&
             sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO kernels VALUES(?,?,?)", -1, &ker, NULL) == SQLITE_OK &&
             sqlite3_prepare_v2(d->db, "INSERT INTO stat_names(name) VALUES(?)", -1, &ins, NULL) == SQLITE_OK &&
             sqlite3_prepare_v2(d->db, "SELECT id FROM stat_names WHERE name = ?", -1, &sel, NULL) == SQLITE_OK &&
             sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO stats VALUES(?,?,?,?)", -1, &sta, NULL) == SQLITE_OK;
    if (ok) {
        char when[32];
        utc_now(when, sizeof when);
        sqlite3_bind_text(run, 1, r->key, -1, SQLITE_STATIC);
        sqlite3_bind_text(run, 2, r->spec, -1, SQLITE_STATIC);
        sqlite3_bind_text(run, 3, r->workload, -1, SQLITE_STATIC);
        sqlite3_bind_int64(run, 4, r->size);
        sqlite3_bind_int64(run, 5, (sqlite3_int64)r->seed);
        sqlite3_bind_text(run, 6, r->config, -1, SQLITE_STATIC);
        sqlite3_bind_text(run, 7, r->variant, -1, SQLITE_STATIC);
        sqlite3_bind_text(run, 8, r->command, -1, SQLITE_STATIC);
        sqlite3_bind_text(run, 9, r->status, -1, SQLITE_STATIC);
        if (r->message) sqlite3_bind_text(run, 10, r->message, -1, SQLITE_STATIC);
        sqlite3_bind_double(run, 11, r->wall_s);
        sqlite3_bind_double(run, 12, r->cpu_s);
        sqlite3_bind_text(run, 13, r->version, -1, SQLITE_STATIC);
        sqlite3_bind_text(run, 14, when, -1, SQLITE_TRANSIENT);
        if (r->point[0]) sqlite3_bind_text(run, 15, r->point, -1, SQLITE_STATIC);
        ok = sqlite3_step(run) == SQLITE_DONE;
    }
    sqlite3_int64 id = sqlite3_last_insert_rowid(d->db);
    for (int k = 0; ok && k < r->nkernels; k++) {
        sqlite3_reset(ker);
        sqlite3_bind_int64(ker, 1, id);
        sqlite3_bind_int(ker, 2, k);
        sqlite3_bind_text(ker, 3, r->kernel_names[k] ? r->kernel_names[k] : "", -1, SQLITE_STATIC);
        ok = sqlite3_step(ker) == SQLITE_DONE;
    }
    for (int i = 0; ok && i < r->nstats; i++) {
        sqlite3_int64 sid = stat_id(d, ins, sel, r->stats[i].name);
        ok = sid >= 0;
        if (!ok) break;
        sqlite3_reset(sta);
        sqlite3_bind_int64(sta, 1, id);
        sqlite3_bind_int(sta, 2, r->stats[i].kernel);
        sqlite3_bind_int64(sta, 3, sid);
        sqlite3_bind_double(sta, 4, r->stats[i].value);
        ok = sqlite3_step(sta) == SQLITE_DONE;
    }
    if (!ok) fail(d, err, errlen, "storing a run");
    sqlite3_finalize(run);
    sqlite3_finalize(ker);
    sqlite3_finalize(ins);
    sqlite3_finalize(sel);
    sqlite3_finalize(sta);
    if (!ok) {
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return exec(d, "COMMIT", err, errlen);
}

int db_merge(results_db *d, const char *other, int *copied, char *err, size_t errlen) {
    results_db o;
    *copied = 0;
    if (db_open(&o, other, 0, 1, err, errlen)) return -1;
    db_close(&o);
    char *sql = sqlite3_mprintf("ATTACH %Q AS shard", other);
    int rc = exec(d, sql, err, errlen);
    sqlite3_free(sql);
    if (rc) return -1;
    /* every step in one transaction: a shard is merged completely or not at all */
    static const char *const steps[] = {
        "BEGIN IMMEDIATE",
        "CREATE TEMP TABLE new_runs AS SELECT id AS old FROM shard.runs WHERE key NOT IN (SELECT key FROM main.runs)",
        "INSERT OR IGNORE INTO main.stat_names(name) SELECT name FROM shard.stat_names",
        "INSERT INTO main.runs(key, spec, workload, size, seed, config, variant, command, status, message, wall_s,"
        " cpu_s, version, finished_utc, point) SELECT key, spec, workload, size, seed, config, variant, command,"
        " status, message, wall_s, cpu_s, version, finished_utc, point FROM shard.runs WHERE id IN"
        " (SELECT old FROM new_runs)",
        "INSERT INTO main.kernels SELECT m.id, k.kernel, k.name FROM shard.kernels k JOIN shard.runs r ON r.id = k.run"
        " JOIN main.runs m ON m.key = r.key WHERE r.id IN (SELECT old FROM new_runs)",
        "INSERT INTO main.stats SELECT m.id, s.kernel, mn.id, s.value FROM shard.stats s"
        " JOIN shard.runs r ON r.id = s.run JOIN main.runs m ON m.key = r.key"
        " JOIN shard.stat_names sn ON sn.id = s.stat JOIN main.stat_names mn ON mn.name = sn.name"
        " WHERE r.id IN (SELECT old FROM new_runs)",
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (exec(d, steps[i], err, errlen)) {
            sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
            sqlite3_exec(d->db, "DROP TABLE IF EXISTS temp.new_runs", NULL, NULL, NULL);
            sqlite3_exec(d->db, "DETACH shard", NULL, NULL, NULL);
            return -1;
        }
    /* the models the other file accepted as equivalent (a file from before
     * the table has none) */
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM shard.model_equivalence LIMIT 0", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_finalize(st);
        if (exec(d,
                 "INSERT OR IGNORE INTO main.model_equivalence SELECT earlier, later, runs_rerun, stats_compared,"
                 " sample, accepted_utc FROM shard.model_equivalence",
                 err, errlen)) {
            sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
            sqlite3_exec(d->db, "DROP TABLE IF EXISTS temp.new_runs", NULL, NULL, NULL);
            sqlite3_exec(d->db, "DETACH shard", NULL, NULL, NULL);
            return -1;
        }
    }
    if (sqlite3_prepare_v2(d->db, "SELECT count(*) FROM temp.new_runs", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) *copied = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    rc = exec(d, "COMMIT", err, errlen) || exec(d, "DROP TABLE temp.new_runs", err, errlen) ||
         exec(d, "DETACH shard", err, errlen);
    return rc ? -1 : 0;
}

void run_record_add_stat(run_record *r, int kernel, const char *name, double value) {
    if (r->nstats == r->capstats) {
        r->capstats = r->capstats ? 2 * r->capstats : 256;
        r->stats = realloc(r->stats, (size_t)r->capstats * sizeof *r->stats);
        if (!r->stats) {
            fprintf(stderr, "locsim: out of memory\n");
            exit(2);
        }
    }
    run_stat *s = &r->stats[r->nstats++];
    s->kernel = kernel;
    s->name = strdup(name);
    s->value = value;
}

void run_record_free(run_record *r) {
    for (int i = 0; i < r->nstats; i++) free(r->stats[i].name);
    free(r->stats);
    for (int k = 0; k < r->nkernels; k++) free(r->kernel_names[k]);
    free(r->kernel_names);
    free(r->message);
    r->stats = NULL;
    r->kernel_names = NULL;
    r->message = NULL;
    r->nstats = r->capstats = r->nkernels = 0;
}
