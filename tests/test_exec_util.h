/* Helpers for the executor tests (tests/test_exec_*.c): run small PTX kernels through
 * the public runtime API and read their results back. */
#ifndef LOCSIM_TEST_EXEC_UTIL_H
#define LOCSIM_TEST_EXEC_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"

#define XT_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

typedef struct {
    locsim_device *dev;
    locsim_module *mod;
} xt;

static inline xt xt_open(const char *ptx, const char *name) {
    xt t = {0, 0};
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &t.dev), LOCSIM_OK);
    locsim_set_memcheck(t.dev, 1); /* the project's tests run with memcheck on */
    locsim_status st = locsim_module_load_ptx(t.dev, ptx, strlen(ptx), name, &t.mod);
    if (st != LOCSIM_OK) fprintf(stderr, "load of %s failed: %s\n", name, locsim_last_error(t.dev));
    assert_int_equal(st, LOCSIM_OK);
    return t;
}

static inline void xt_close(xt *t) { locsim_device_destroy(t->dev); }

/* A device buffer of bytes, filled from init (or zeroed). */
static inline locsim_dptr xt_buf(xt *t, const void *init, size_t bytes) {
    locsim_dptr p;
    assert_int_equal(locsim_malloc(t->dev, &p, bytes), LOCSIM_OK);
    if (init) assert_int_equal(locsim_memcpy_htod(t->dev, p, init, bytes), LOCSIM_OK);
    else assert_int_equal(locsim_memset(t->dev, p, 0, bytes), LOCSIM_OK);
    return p;
}

static inline void xt_get(xt *t, void *out, locsim_dptr p, size_t bytes) {
    assert_int_equal(locsim_memcpy_dtoh(t->dev, out, p, bytes), LOCSIM_OK);
}

static inline locsim_status xt_launch_dyn(xt *t, const char *kernel, locsim_dim3 grid, locsim_dim3 block,
                                          uint32_t dyn_smem, void **args, uint32_t nargs) {
    locsim_kernel *k;
    assert_int_equal(locsim_module_get_kernel(t->mod, kernel, &k), LOCSIM_OK);
    return locsim_launch(k, grid, block, dyn_smem, args, nargs);
}

static inline locsim_status xt_launch3(xt *t, const char *kernel, locsim_dim3 grid, locsim_dim3 block, void **args,
                                       uint32_t nargs) {
    return xt_launch_dyn(t, kernel, grid, block, 0, args, nargs);
}

static inline locsim_status xt_launch(xt *t, const char *kernel, uint32_t grid, uint32_t block, void **args,
                                      uint32_t nargs) {
    return xt_launch3(t, kernel, (locsim_dim3){grid, 1, 1}, (locsim_dim3){block, 1, 1}, args, nargs);
}

/* Launch expecting success; print the device's error otherwise. */
static inline void xt_run(xt *t, const char *kernel, uint32_t grid, uint32_t block, void **args, uint32_t nargs) {
    locsim_status st = xt_launch(t, kernel, grid, block, args, nargs);
    if (st != LOCSIM_OK) fprintf(stderr, "%s: %s\n", kernel, locsim_last_error(t->dev));
    assert_int_equal(st, LOCSIM_OK);
}

/* Launch expecting status want; returns the device's error message. */
static inline const char *xt_expect_error(xt *t, const char *kernel, uint32_t grid, uint32_t block, void **args,
                                          uint32_t nargs, locsim_status want) {
    locsim_status st = xt_launch(t, kernel, grid, block, args, nargs);
    const char *msg = locsim_last_error(t->dev);
    if (st != want) fprintf(stderr, "%s: got status %d, want %d: %s\n", kernel, st, want, msg);
    assert_int_equal(st, want);
    return msg;
}

/* assert that msg contains s (printing msg when it does not) */
#define xt_assert_contains(msg, s)                                                   \
    do {                                                                             \
        if (!strstr((msg), (s))) fprintf(stderr, "missing '%s' in:\n%s\n", (s), (msg)); \
        assert_non_null(strstr((msg), (s)));                                         \
    } while (0)

/* Run a single-thread kernel `k(.param .u64 out)` whose body (PTX statements) may
 * use %rd0 = out and the registers declared below, and copy out `bytes` bytes. */
static inline void xt_run_body(const char *body, void *out, size_t bytes) {
    static const char *head = XT_HEADER
        ".visible .entry k(.param .u64 out)\n{\n"
        "  .reg .pred %p<16>;\n  .reg .b16 %h<16>;\n  .reg .b32 %r<64>;\n  .reg .b64 %rd<64>;\n"
        "  .reg .f32 %f<32>;\n  .reg .f64 %fd<32>;\n"
        "  ld.param.u64 %rd0, [out];\n";
    size_t n = strlen(head) + strlen(body) + 32;
    char *ptx = malloc(n);
    assert_non_null(ptx);
    snprintf(ptx, n, "%s%s  ret;\n}\n", head, body);
    xt t = xt_open(ptx, "body.ptx");
    free(ptx);
    locsim_dptr d = xt_buf(&t, NULL, bytes);
    void *args[] = {&d};
    xt_run(&t, "k", 1, 1, args, 1);
    xt_get(&t, out, d, bytes);
    xt_close(&t);
}

/* Read a whole file under the source tree (tests/exec_cu/...). */
static inline char *xt_read_source(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LOCSIM_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f) fprintf(stderr, "cannot open %s\n", path);
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

#endif
