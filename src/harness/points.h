/* A run's key and point (sweep.h), and runs stored under the first scheme
 * carried over to this one.
 *
 * Scheme 2 (this one).  The point hashes what a run measures: size, seed, the
 * workload (built-in name, or the external program's content and arguments)
 * and the options whose values differ from this binary's defaults once the
 * config file and the variant's options are applied (config_dump's lines that
 * differ from the dump of a default configuration).  An option added to the
 * simulator at a default that changes nothing therefore changes no point, and
 * an earlier model's run of the point can be found and accepted (equiv.h).
 * The key hashes the model's id (12 hex digits, as `version` records it) and
 * the point.
 *
 * Scheme 1 (until 2026-11) hashed the complete option dump into both, so that
 * every option added made every point new.  points_migrate carries such runs
 * over. */
#ifndef LOCSIM_HARNESS_POINTS_H
#define LOCSIM_HARNESS_POINTS_H

#include <stdio.h>

#include "harness/db.h"
#include "harness/sweep.h"

/* r->point, r->key and r->legacy_key (scheme 1, for runs of this model stored
 * before the change) of a planned run; -1 with err when its config does not load. */
int points_of_run(const spec *s, sweep_plan *p, planned_run *r, char *err, size_t errlen);

/* The lines of `dump` that differ from the same line of `defaults` (two dumps
 * by config_dump of one binary, so line i is the same option in both); the
 * whole dump if the two do not have the same number of lines. */
void points_changed_options(const char *dump, size_t dumplen, const char *defaults, size_t deflen, FILE *out);

/* The scheme-2 key of `point` for a model id (12 hex digits). */
void points_key(const char *model, const char *point, char key[65]);

/* Runs of spec `spec_name` stored under scheme 1 that are runs of a planned
 * point get that point and their scheme-2 key.  A stored run is the planned
 * run's when its spec, workload, size and seed are the same and its command
 * line is the planned one but for the binary's path; a run of this model must
 * also have the planned run's scheme-1 key (its config file and program are
 * unchanged since), a run of an earlier model is proven by `--accept`'s
 * reruns before it counts.  A scheme-1 run whose scheme-2 key is already
 * stored (the committed results file merged again) is deleted.
 * *moved and *dropped count them; -1 with err on an SQLite error. */
int points_migrate(results_db *db, const sweep_plan *p, const char *spec_name, int *moved, int *dropped, char *err,
                   size_t errlen);

#endif
