/* Sweep specifications: experiments/<paper>.yaml, read with libyaml.
 *
 *   name: ccws                      # names the sweep (default: the file's base name)
 *   configs: [ccws_gtx285]          # shipped names or .cfg paths
 *   seeds: [1]                      # default seeds of every workload
 *   timeout: 600                    # seconds of CPU time per run (0 = none)
 *   wall_timeout: 7200              # seconds of wall time per run (default: 10 x timeout, >= timeout + 60)
 *   kernel_stats: true              # also store every kernel's statistics
 *   classes: {HCS: highly cache-sensitive, ...}   # class -> description (report)
 *   workloads:
 *     - {name: kmeans, size: 64, class: HCS, label: KMN}
 *     - {id: app, exec: [./app, --n, "100"], class: CI}
 *   variants:                       # named option sets
 *     gto: {label: GTO, options: {-gpgpu_scheduler: gto}}
 *   grids:                          # one variant per value: <grid>_<value>
 *     swl: {label: N, values: [32, 16], options: {-gpgpu_scheduler: "warp_limiting:gto:{}"},
 *           same: {32: gto}}
 *   exclude:                        # runs to leave out (every given key must match; globs)
 *     - {class: [MCS, CI], variant: ["k_*"]}
 *   regime: {variant: gto, sensitivity: true}   # the regime table's baseline (default: the
 *                                   # first variant) and its probes (default false; 4x L1D, 2x DRAM
 *                                   # bandwidth, unbounded L1D: variants regime_*, run where the
 *                                   # baseline runs)
 *   report: ...                     # read by report.c
 *
 * Every error names file:line and what was expected; spec_load checks the
 * workloads, configs and options (by loading each configuration with each
 * variant's options) before anything runs. */
#ifndef LOCSIM_HARNESS_SPEC_H
#define LOCSIM_HARNESS_SPEC_H

#include <stdint.h>
#include <yaml.h>

typedef struct {
    char *name, *value;
    int line;              /* where it is written (errors) */
} spec_option;

typedef struct {
    char *id;              /* unique within the spec; the workload name by default */
    char *name;            /* built-in workload, or NULL for an external program */
    char **argv;           /* external program and its arguments (NULL-terminated), run by `locsim exec` */
    int argc;
    char *label;           /* shown in reports (default: id) */
    char *cls;             /* class (report), or NULL */
    uint32_t *sizes;       /* built-in: resolved sizes (never 0) */
    int nsizes;
    uint64_t *seeds;
    int nseeds;
    char **only;           /* variants this workload runs (NULL: all) */
    int nonly;
    int line;
} spec_workload;

typedef struct {
    char *name, *label;
    spec_option *opts;
    int nopts;
    char *grid;            /* grid it belongs to, or NULL */
    char *grid_value;      /* its value in the grid */
    const char *probe_of;  /* a regime probe: the baseline variant it changes (runs where that runs), or NULL */
    const char *probe_of_grid;
    int line;
} spec_variant;

typedef struct {
    char *name;
    char *label;
    char **values;
    int nvalues;
    int line;
} spec_grid;

typedef struct {
    char *name;            /* as written */
    char *path;            /* resolved file */
} spec_config;

typedef struct {
    char **workloads, **classes, **variants, **configs;   /* glob lists; NULL = any */
    int nworkloads, nclasses, nvariants, nconfigs;
    uint32_t *sizes;
    int nsizes;
    uint64_t *seeds;
    int nseeds;
    int line;
} spec_exclude;

typedef struct {
    char *name;
    char *description;
} spec_class;

typedef struct spec {
    char *path, *name;
    spec_config *configs;
    int nconfigs;
    spec_workload *workloads;
    int nworkloads;
    spec_variant *variants;     /* grids expanded, in file order */
    int nvariants;
    spec_grid *grids;
    int ngrids;
    spec_exclude *excludes;
    int nexcludes;
    spec_class *classes;
    int nclasses;
    double timeout;             /* seconds of CPU time, 0 = none */
    double wall_timeout;        /* seconds of wall time, 0 = the default (sweep.c: wall_limit) */
    int kernel_stats;
    yaml_document_t doc;        /* kept for report.c */
    void *arena;                /* every string and array above */
    int report_node;            /* node index of `report:`, 0 if none */
    int regime_base;            /* index of the variant the regime table describes */
    int regime_probes;          /* the sensitivity probes: the last regime_probes variants (0: none) */
} spec;

/* Read and check a spec.  NULL with the error (file:line: what was expected) in err. */
spec *spec_load(const char *path, char *err, size_t errlen);
void spec_free(spec *s);

const spec_workload *spec_find_workload(const spec *s, const char *id);
const spec_variant *spec_find_variant(const spec *s, const char *name);
const spec_grid *spec_find_grid(const spec *s, const char *name);
/* Does workload w run variant v (its `variants:` list)? */
int spec_workload_runs(const spec_workload *w, const spec_variant *v);

/* Helpers for report.c: YAML nodes with file:line errors. */
yaml_node_t *spec_node(spec *s, int index);
const char *spec_scalar(yaml_node_t *n);                       /* NULL unless a scalar */
/* Memory that lives as long as the spec. */
void *spec_alloc(spec *s, size_t n);
char *spec_strdup(spec *s, const char *str);
yaml_node_t *spec_map_get(spec *s, yaml_node_t *map, const char *key);
int spec_line(yaml_node_t *n);                                  /* 1-based */
/* The first key of mapping `map` that is not in `allowed` (NULL-terminated), or NULL when every
 * key is allowed; `list` (size `cap`) gets the allowed keys, comma-separated, for the message. */
yaml_node_t *spec_unknown_key(spec *s, yaml_node_t *map, const char *const *allowed, char *list, size_t cap);

#endif
