/* Helpers shared by the PTX front-end tests (tests/test_ptx_*.c). */
#ifndef LOCSIM_TESTS_PTX_TEST_H
#define LOCSIM_TESTS_PTX_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx/ir.h"

/* Header of every hand-written test module: lines 1-3. */
#define PTX_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Parse src (NUL-terminated); fail the test with the parser's message if it
 * does not parse or does not verify. */
static inline ptx_module *parse_ok(const char *src)
{
    ptx_error err;
    ptx_module *m = ptx_parse(src, strlen(src), "test.ptx", &err);
    if (!m)
        fail_msg("unexpected parse error: %s", err.msg);
    char why[512];
    if (ptx_module_verify(m, why, sizeof why) != 0) {
        ptx_module_free(m);
        fail_msg("module does not verify: %s", why);
    }
    return m;
}

/* Parse src expecting failure at line:col with a message containing want. */
static inline void parse_fails(const char *src, unsigned line, unsigned col, const char *want)
{
    ptx_error err;
    ptx_module *m = ptx_parse(src, strlen(src), "test.ptx", &err);
    if (m) {
        ptx_module_free(m);
        fail_msg("expected an error containing \"%s\", but the module parsed", want);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "test.ptx:%u:%u: ", line, col);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, want))
        fail_msg("expected \"%s...%s\", got \"%s\"", prefix, want, err.msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    assert_string_equal(err.file, "test.ptx");
}

static inline const ptx_function *func_named(const ptx_module *m, const char *name)
{
    int i = ptx_find_function(m, name);
    if (i < 0)
        fail_msg("no function '%s'", name);
    return &m->funcs[i];
}

/* Index of the register / predicate called name in f (first match). */
static inline uint32_t reg_index(const ptx_function *f, const char *name)
{
    for (uint32_t i = 0; i < f->nregs; i++)
        if (strcmp(f->reg_names[i], name) == 0)
            return i;
    fail_msg("no register '%s' in '%s'", name, f->name);
    return 0;
}

static inline uint32_t pred_index(const ptx_function *f, const char *name)
{
    for (uint32_t i = 0; i < f->npreds; i++)
        if (strcmp(f->pred_names[i], name) == 0)
            return i;
    fail_msg("no predicate '%s' in '%s'", name, f->name);
    return 0;
}

/* Read a whole file; NULL if it cannot be read. */
static inline char *read_file(const char *path, size_t *len)
{
    *len = 0; /* defined on every path (release builds check) */
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (buf)
        *len = n;
    return buf;
}

#endif
