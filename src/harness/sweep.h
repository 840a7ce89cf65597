/* locsim sweep: the runs of a spec, each in its own process (locsim run / locsim
 * exec), locally with --jobs N or as a Slurm job array, into the results database.
 *
 * A run's key is the SHA-256 of everything that determines its result: the
 * model version (the SHA-256 of the simulator's sources, tools/model-hash.cmake:
 * a change to the simulator, a workload or the CUDA runtime is a new version;
 * a change to the harness or the report is not) and the run's point: the
 * workload (built-in name, or the external program's content and arguments),
 * size, seed, and every option whose value, after the config file and the
 * variant's options, differs from the binary's default (points.h), so two
 * variants that set the same values are one run, and an option added at a
 * neutral default makes no point new. */
#ifndef LOCSIM_HARNESS_SWEEP_H
#define LOCSIM_HARNESS_SWEEP_H

#include "harness/db.h"
#include "harness/spec.h"

typedef struct {
    const spec_workload *w;
    uint32_t size;
    uint64_t seed;
    const spec_config *cfg;
    const spec_variant *v;
    char key[65];
    char point[65];    /* the same without the model: what the run measures, whichever simulator made it */
    char legacy_key[65];  /* the key as scheme 1 made it (points.h), to carry this model's stored runs over */
    char **argv;       /* the child's command line (NULL-terminated); the --json file is the last two */
    int argc;
} planned_run;

typedef struct {
    planned_run *runs;   /* every point of the product minus the exclusions, in spec order */
    int nruns;
    char version[128];   /* "<git describe> model:<12 hex of the model hash>" */
    char binary_hash[65];  /* the model hash */
    char self[1024];     /* path of the locsim binary */
    char *defaults;      /* config_dump of a default configuration (points.c), and its length */
    size_t defaults_len;
} sweep_plan;

/* -1 with err on failure. */
int sweep_make_plan(const spec *s, sweep_plan *p, char *err, size_t errlen);
void sweep_free_plan(sweep_plan *p);
/* The run of a point, or NULL (excluded / not run by that workload). */
const planned_run *sweep_find(const sweep_plan *p, const spec_workload *w, uint32_t size, uint64_t seed,
                              const spec_config *cfg, const spec_variant *v);

/* The default results database of a spec: its path with .yaml replaced by .db. */
void sweep_default_db(const char *spec_path, char *out, size_t n);

/* argv as one shell-quoted line (malloc'd), as the database's `command` keeps it. */
char *sweep_command_line(char **argv, int argc);

int sweep_main(int argc, char **argv);   /* locsim sweep ... */

#endif
