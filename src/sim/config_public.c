/* The public face of the configuration (locsim_config_load / _free). */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "locsim/locsim.h"
#include "sim/config.h"
#include "sim/gpu_internal.h"

/* configs/ relative to the running executable: <repo>/build/locsim and
 * <repo>/build/bench/bench_x both find <repo>/configs. */
static int resolve(const char *name, char *path, size_t n, char *err, size_t errlen) {
    if (config_resolve(name, NULL, path, n, err, errlen) == 0) return 0;
    if (strlen(name) >= n) return -1;   /* too long: err says so */
    char exe[1024];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return -1;
    exe[len] = '\0';
    const char *dir = dirname(exe);
    static const char *const up[] = {"/../configs", "/../../configs"};
    for (size_t i = 0; i < sizeof up / sizeof *up; i++) {
        char extra[1100], why[512];
        snprintf(extra, sizeof extra, "%s%s", dir, up[i]);
        if (config_resolve(name, extra, path, n, why, sizeof why) == 0) return 0;
    }
    return -1;
}

locsim_status locsim_config_load(const char *name_or_path, int noverrides, char **overrides, locsim_config **out,
                                 char *err, size_t errsz) {
    char path[CONFIG_PATH_MAX];
    if (!out) return LOCSIM_ERR_INVALID;
    *out = NULL;
    if (!name_or_path || noverrides < 0 || (noverrides && !overrides)) {
        snprintf(err, errsz, "locsim_config_load: bad arguments");
        return LOCSIM_ERR_INVALID;
    }
    sim_config *c = malloc(sizeof *c);
    if (!c) {
        snprintf(err, errsz, "out of host memory");
        return LOCSIM_ERR_OUT_OF_MEMORY;
    }
    config_defaults(c);
    gpu_params p;
    if (resolve(name_or_path, path, sizeof path, err, errsz) || config_load_file(c, path, err, errsz) ||
        config_apply_args(c, noverrides, overrides, err, errsz) || config_finalize(c, err, errsz) ||
        gpu_params_from_config(c, &p, err, errsz) || gpu_params_validate(&p, err, errsz)) {
        free(c);
        return LOCSIM_ERR_CONFIG;
    }
    *out = c;
    return LOCSIM_OK;
}

void locsim_config_free(locsim_config *cfg) { free(cfg); }

int locsim_config_memcheck(const locsim_config *cfg) { return cfg && cfg->memcheck; }
