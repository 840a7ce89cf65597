/* Inputs the fuzzer (fuzz/fuzz_ptx.c) once found crashing, leaking, hanging or
 * producing an inconsistent module, kept in fuzz/regressions/.  Each must now
 * either fail with a positioned message ("<file>:LINE:COL: ...") or parse into a
 * module that passes ptx_module_verify.  Runs under ASan/UBSan/LSan. */
#include "ptx_test.h"

#include <dirent.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_input(const char *path, const char *name)
{
    size_t len;
    char *data = read_file(path, &len);
    if (!data)
        fail_msg("cannot read %s", path);
    ptx_error err;
    ptx_module *m = ptx_parse(data, len, name, &err);
    free(data);
    if (!m) {
        char prefix[300];
        snprintf(prefix, sizeof prefix, "%s:%u:%u: ", name, err.line, err.col);
        if (err.line == 0 || strncmp(err.msg, prefix, strlen(prefix)) != 0)
            fail_msg("%s: error without a position: \"%s\"", name, err.msg);
        print_message("%-48s error: %s\n", name, err.msg + strlen(name) + 1);
        return;
    }
    char why[512];
    int ok = ptx_module_verify(m, why, sizeof why);
    char line[512];
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninsn; i++)
            ptx_insn_format(m, &m->funcs[f], &m->funcs[f].insns[i], line, sizeof line);
    ptx_module_free(m);
    if (ok != 0)
        fail_msg("%s: parsed module does not verify: %s", name, why);
    print_message("%-48s parses\n", name);
}

static void test_regression_inputs(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/fuzz/regressions", LOCSIM_SOURCE_DIR);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    char *names[4096];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 4096)
        if (e->d_name[0] != '.' && strlen(e->d_name) > 4 &&
            strcmp(e->d_name + strlen(e->d_name) - 4, ".ptx") == 0)  /* config-*, fatbin-*: fuzz_replay */
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        check_input(path, names[i]);
        free(names[i]);
    }
    print_message("%zu regression inputs\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regression_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
