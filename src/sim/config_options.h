/* The option table behind sim_config (internal to src/sim/config*.c). */
#ifndef LOCSIM_SIM_CONFIG_OPTIONS_H
#define LOCSIM_SIM_CONFIG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/config.h"

typedef enum {
    OPT_UINT,      /* uint32_t in [min, max] */
    OPT_U64,       /* uint64_t in [min, max] */
    OPT_DOUBLE,    /* double in [dmin, dmax] */
    OPT_BOOL,      /* bool: 0/1/true/false */
    OPT_STRING,    /* char[size] */
    OPT_ENUM,      /* uint32_t index into choices "a|b|c" */
    OPT_U32LIST,   /* uint32_t[count] separated by sep, each in [min, max] */
    OPT_CACHE,     /* cache_geometry, GPGPU-Sim cache string */
    OPT_CUSTOM,    /* parse/format functions */
} opt_type;

typedef struct option_def {
    const char *name;       /* without the leading '-' */
    const char *alias;      /* an older GPGPU-Sim name also accepted, or NULL */
    opt_type type;
    size_t offset;          /* of the field in sim_config */
    size_t size;            /* OPT_STRING: buffer size */
    uint64_t min, max;
    double dmin, dmax;
    uint32_t count;         /* OPT_U32LIST: most entries */
    uint32_t min_count;     /* OPT_U32LIST: fewest entries (0: count); the rest keep their value */
    char sep;               /* OPT_U32LIST */
    const char *choices;    /* OPT_ENUM */
    const char *syntax;     /* value syntax for help/errors (OPT_CUSTOM, lists) */
    const char *def;        /* default, written as in a config file */
    const char *help;
    /* Accepted so that GPGPU-Sim configuration files load, but not modelled:
     * the help says so, and setting it to anything but its default warns. */
    bool compat;
    /* How the simulator runs on the host, not what it simulates (results do
     * not depend on it by design): config_dump leaves it out, so a sweep's
     * points and the JSON's config hash are the same whatever its value. */
    bool host;
    int (*parse)(sim_config *c, const char *value, char *err, size_t errlen);
    void (*format)(const sim_config *c, char *buf, size_t n);
} option_def;

/* The table, in help order; section headers are rows with name == NULL and the
 * section title in help. */
const option_def *config_option_table(size_t *count);

#endif
