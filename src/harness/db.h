/* The results database (SQLite, WAL mode; sweeps writing one file share its runs through claims).
 *
 *   runs(id, key UNIQUE, spec, workload, size, seed, config, variant, command,
 *        status, message, wall_s, cpu_s, version, finished_utc, point)
 *   kernels(run, kernel, name)            kernel = launch index
 *   stat_names(id, name)
 *   stats(run, kernel, stat, value)       kernel = -1: the whole run ("total")
 *   claims(key, pid, host, since)         runs a sweep is running now (db_claim)
 *   view stat_values(key, workload, size, seed, config, variant, status, kernel, kernel_name, name, value):
 *        the long table with names, for queries by hand
 *
 * A run and all its statistics are written in one transaction, so a run is in
 * the database completely or not at all, whenever the process dies.  A file
 * that is not a locsim results database (or has another schema version), is
 * read-only, corrupt or locked gets an error and is never written. */
#ifndef LOCSIM_HARNESS_DB_H
#define LOCSIM_HARNESS_DB_H

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#define DB_SCHEMA_VERSION 1
#define DB_TOTAL_KERNEL (-1)

typedef struct {
    sqlite3 *db;
    const char *path;
} results_db;

/* What a finished run left, ready to be stored. */
typedef struct {
    int kernel;          /* DB_TOTAL_KERNEL or the launch index */
    char *name;
    double value;
} run_stat;

typedef struct {
    char key[65];
    char point[65];      /* the key without the model ("" if unknown): finds an earlier model's run */
    const char *spec, *workload, *config, *variant, *command, *version;
    uint32_t size;
    uint64_t seed;
    const char *status;  /* "ok", "capped", "check-failed", "error", "timeout" */
    char *message;       /* may be NULL */
    double wall_s, cpu_s;
    run_stat *stats;
    int nstats, capstats;
    char **kernel_names; /* by launch index */
    int nkernels;
} run_record;

/* A run whose statistics are whole and valid: "ok", or "capped" (a -gpgpu_max_*
 * cap ended its timing simulation; they cover the timed part, the rest ran
 * functionally and the output check passed). */
static inline int db_status_complete(const char *status) {
    return !strcmp(status, "ok") || !strcmp(status, "capped");
}

/* Open (creating it when create and absent).  -1 with the reason in err. */
int db_open(results_db *d, const char *path, int create, int readonly, char *err, size_t errlen);
void db_close(results_db *d);
/* The status of run `key` (copied to status, "" if absent): 1 found, 0 absent, -1 error. */
int db_run_status(results_db *d, const char *key, char *status, size_t n);
/* A run's whole-run statistics (kernel DB_TOTAL_KERNEL), sorted by name in
 * SQLite's binary collation, which is strcmp's order (so a reader can bisect).
 * A NULL value reads as NaN with null[i] set. */
typedef struct {
    char **names;
    double *values;
    unsigned char *null;
    int n;
} db_totals;
/* 0 with t filled (free with db_totals_free), -1 on an SQLite error. */
int db_run_totals(results_db *d, sqlite3_int64 run, db_totals *t);
void db_totals_free(db_totals *t);
/* Two sweeps on one database: before a run, claim it.  1: claimed, run it; 0:
 * another sweep has stored it or runs it now (*holder: its pid, 0 if stored);
 * -1 with err.  A claim whose process is gone (same host) is taken over; a
 * stored run's claim goes with db_store, a sweep's leftovers with
 * db_release_claims. */
int db_claim(results_db *d, const char *key, long *holder, char *err, size_t errlen);
void db_release_claims(results_db *d);
/* Store a run (replacing an earlier record of the same key). */
int db_store(results_db *d, const run_record *r, char *err, size_t errlen);
/* Copy runs of another database (a Slurm shard) that this one lacks; returns runs copied or -1. */
int db_merge(results_db *d, const char *other, int *copied, char *err, size_t errlen);

/* Record helpers */
void run_record_add_stat(run_record *r, int kernel, const char *name, double value);
void run_record_free(run_record *r);

#endif
