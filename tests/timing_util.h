/* Helpers for the timing-model tests: a timing-mode device from a shipped
 * configuration with "-option value" overrides, PTX kernels from text, and
 * statistics by name.  Header-only: each test program includes it once. */
#ifndef LOCSIM_TESTS_TIMING_UTIL_H
#define LOCSIM_TESTS_TIMING_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"
#include "sim/timing.h"

typedef struct {
    locsim_config *cfg;
    locsim_device *dev;
    locsim_module *mod;
} tdev;

/* A timing device for config `name` with overrides (NULL-terminated "-opt", "value" list).
 * The tests' expected values are worked out for the data they load and the code
 * they run, so kernel parameters hit a perfect constant cache
 * (-gpgpu_perfect_inst_const_cache 1) unless a test's overrides say otherwise
 * (they come later and win): a parameter's cold constant-cache miss is its own
 * test's business (test_timing_memory: test_kernel_params_through_l1c). */
static inline void tdev_open(tdev *t, const char *name, const char *const *overrides) {
    char err[1024];
    const char *args[128] = {"-gpgpu_perfect_inst_const_cache", "1"};
    int n = 2;
    while (overrides && overrides[n - 2] && n < 126) {
        args[n] = overrides[n - 2];
        n++;
    }
    memset(t, 0, sizeof *t);
    locsim_status st = locsim_config_load(name, n, (char **)args, &t->cfg, err, sizeof err);
    if (st != LOCSIM_OK) print_error("config: %s\n", err);
    assert_int_equal(st, LOCSIM_OK);
    st = locsim_device_create(t->cfg, LOCSIM_MODE_TIMING, &t->dev);
    assert_int_equal(st, LOCSIM_OK);
    locsim_set_memcheck(t->dev, 1); /* the project's tests run with memcheck on */
}

static inline void tdev_close(tdev *t) {
    locsim_device_destroy(t->dev);
    locsim_config_free(t->cfg);
    memset(t, 0, sizeof *t);
}

static inline locsim_kernel *tdev_kernel(tdev *t, const char *ptx, const char *kname) {
    if (!t->mod) {
        locsim_status st = locsim_module_load_ptx(t->dev, ptx, strlen(ptx), "test.ptx", &t->mod);
        if (st != LOCSIM_OK) print_error("%s\n", locsim_last_error(t->dev));
        assert_int_equal(st, LOCSIM_OK);
    }
    locsim_kernel *k = NULL;
    assert_int_equal(locsim_module_get_kernel(t->mod, kname, &k), LOCSIM_OK);
    return k;
}

static inline void tdev_launch(tdev *t, locsim_kernel *k, uint32_t grid, uint32_t block, void **args, uint32_t n) {
    locsim_dim3 g = {grid, 1, 1}, b = {block, 1, 1};
    locsim_status st = locsim_launch(k, g, b, 0, args, n);
    if (st != LOCSIM_OK) print_error("%s\n", locsim_last_error(t->dev));
    assert_int_equal(st, LOCSIM_OK);
}

/* Statistic of the last kernel (or the whole run with total = 1). */
static inline double tdev_stat(const tdev *t, const char *name, int total) {
    timing_state *ts = timing_of(t->dev);
    assert_non_null(ts);
    int id = stats_find(ts->stats, name);
    if (id < 0) print_error("no statistic %s\n", name);
    assert_true(id >= 0);
    uint32_t k = total ? STATS_TOTAL : stats_kernels(ts->stats) - 1;
    return stats_value(ts->stats, k, id);
}

static inline locsim_dptr tdev_alloc(tdev *t, const void *init, size_t bytes) {
    locsim_dptr p;
    assert_int_equal(locsim_malloc(t->dev, &p, bytes), LOCSIM_OK);
    if (init) assert_int_equal(locsim_memcpy_htod(t->dev, p, init, bytes), LOCSIM_OK);
    else assert_int_equal(locsim_memset(t->dev, p, 0, bytes), LOCSIM_OK);
    return p;
}

#endif
