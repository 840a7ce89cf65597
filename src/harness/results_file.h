/* The committed results of a sweep: <spec folder>/results/<name>.db.zst, a
 * zstd-compressed copy of the results database holding every run's totals
 * (per-kernel statistics stay in the local database).  A sweep merges it in
 * before it plans and writes it again as runs finish, so finished runs survive
 * the end of a session and a new machine once the file is committed; each run
 * keeps the model version that made it, and the report shows runs of an
 * earlier model as stale (docs/harness.md, "Results that outlast a machine"). */
#ifndef LOCSIM_HARNESS_RESULTS_FILE_H
#define LOCSIM_HARNESS_RESULTS_FILE_H

#include <stddef.h>

#include "harness/db.h"

/* <folder of spec_path>/results/<name>.db.zst */
void results_file_path(const char *spec_path, const char *name, char *out, size_t n);
/* Merge the runs of `path` that d lacks.  0 (copied set; 0 when the file does
 * not exist), or -1 with the reason in err. */
int results_import(results_db *d, const char *path, int *copied, char *err, size_t errlen);
/* Write d's runs and their totals to `path` (through a temporary name and a
 * rename, so the file is whole or the old one).  0, or -1 with err. */
int results_export(results_db *d, const char *path, char *err, size_t errlen);

#endif
