/* Everything that determined a run's statistics, recorded in its JSON report
 * ("inputs"): the workload or program, --size, --seed, the configuration's name,
 * the -option overrides, a hash of the complete effective configuration (the file's
 * content and the overrides, as config_dump writes it) and the locsim version.
 * Two reports with equal inputs have bit-identical statistics. */
#ifndef LOCSIM_SIM_RUN_INPUTS_H
#define LOCSIM_SIM_RUN_INPUTS_H

#include <stdint.h>
#include <stdio.h>

#include "sim/config.h"
#include "sim/timing.h"

typedef struct {
    const char *workload;      /* workload name (locsim run) or NULL */
    const char *program;       /* program path (locsim exec) or NULL */
    uint32_t size;             /* --size actually used, 0 when not applicable */
    uint64_t seed;
    int has_seed;              /* the run takes a seed (workloads) */
    const char *config;        /* --config name or file */
    int noptions;              /* "-option value" overrides, argv style */
    char *const *options;
} run_inputs;

/* 64-bit FNV-1a hash of config_dump(c): equal for equal effective configurations. */
uint64_t config_hash(const sim_config *c);

/* The locsim version the binary was built from (git describe, or "unknown"). */
const char *locsim_version(void);

/* The timing statistics as JSON (timing_report_json) with an "inputs" object first. */
int timing_report_json_inputs(const timing_state *t, FILE *out, const run_inputs *in);

#endif
