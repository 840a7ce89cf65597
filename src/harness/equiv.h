/* Model equivalence: runs of an earlier simulator model accepted as this one's.
 *
 * A run's key hashes the model (every simulator source), so any change to the
 * simulator, even one meant to keep every statistic (a speed change), leaves a
 * paper-scale sweep's runs stale and a sweep that outlasts a session would start
 * over.  `locsim sweep SPEC --accept` proves, at the spec's own scale, that the
 * earlier model's runs are still this model's: it reruns a sample of them with
 * this binary and compares every statistic; when each is identical it records
 * the pair (earlier model, this model) in the database's model_equivalence
 * table (kept in the committed results file too).  From then on the sweep
 * counts the earlier model's complete runs as present and the report shows
 * them without the stale mark, naming the acceptance.
 *
 * Identity is transitive, so the models accepted form a class: a run by any
 * model joined to this one through recorded pairs counts.  Models are named by
 * the 12 hex digits a run's version carries ("<describe> model:<12 hex>"). */
#ifndef LOCSIM_HARNESS_EQUIV_H
#define LOCSIM_HARNESS_EQUIV_H

#include "harness/db.h"

#define MODEL_ID_CHARS 12

typedef struct {
    char (*ids)[MODEL_ID_CHARS + 1];
    int n, cap;
} model_set;

/* The model id of a run's version string; -1 when it carries none. */
int equiv_model_of_version(const char *version, char out[MODEL_ID_CHARS + 1]);

/* The models whose runs count as model `current`'s: itself and every model
 * joined to it by recorded pairs.  A database without the table (an old or
 * read-only file) gives just `current`. */
void equiv_closure(results_db *d, const char *current, model_set *out);
int model_set_has(const model_set *s, const char *id);
void model_set_free(model_set *s);

/* The latest complete run of `point` by a model other than `current`;
 * `in_set`: only by models in it (accepted), else by any.  1 found (id,
 * status and version filled), 0 none, -1 error. */
int equiv_latest_run(results_db *d, const char *point, const char *current, const model_set *in_set,
                     sqlite3_int64 *id, char *version, size_t vlen);

/* Compare two runs' statuses and whole-run statistics value for value (bit
 * for bit).  0 identical (*nstats compared), 1 different (the first
 * differences described in diff), -1 error. */
int equiv_compare_runs(results_db *d, sqlite3_int64 a, sqlite3_int64 b, long *nstats, char *diff, size_t n);

/* Record that `earlier`'s runs are `current`'s: nruns runs rerun, nstats
 * statistics compared, the rerun keys' first 12 digits in `sample`. */
int equiv_record(results_db *d, const char *earlier, const char *current, int nruns, long nstats, const char *sample,
                 char *err, size_t errlen);

/* One line per recorded pair that joins a model of `models` to the class,
 * for the report's note ("", when none); malloc'd. */
char *equiv_describe(results_db *d, const model_set *models, const char *current);

#endif
