/* A shipped configuration (configs/<name>.cfg) loaded and finalized for the
 * tests that work on sim_config directly; a failure prints the loader's message.
 * Header-only: each test program includes it once. */
#ifndef LOCSIM_TESTS_CONFIG_UTIL_H
#define LOCSIM_TESTS_CONFIG_UTIL_H

#include "sim/config.h"

#ifndef LOCSIM_SOURCE_DIR
#define LOCSIM_SOURCE_DIR "."
#endif

static void load_shipped(sim_config *c, const char *name) {
    char path[1024], err[512];
    int rc = config_resolve(name, LOCSIM_SOURCE_DIR "/configs", path, sizeof path, err, sizeof err);
    if (!rc) {
        config_defaults(c);
        rc = config_load_file(c, path, err, sizeof err);
    }
    if (!rc) rc = config_finalize(c, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
}

#endif
