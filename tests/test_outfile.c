/* sim/outfile: output files written whole or not at all (issue 34). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/outfile.h"

static char dir[64], path[128];

static void slurp(const char *p, char *buf, size_t n) {
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    size_t k = fread(buf, 1, n - 1, f);
    buf[k] = 0;
    fclose(f);
}

/* Nothing but the target in the folder: no temporary left behind. */
static void only_target(void) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A %s)\" = out.json", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_commit_abort(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/locsim-test-outfile-%d", (int)getpid());
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/out.json", dir);
    FILE *f = fopen(path, "w");
    fputs("earlier\n", f);
    fclose(f);
    chmod(path, 0640);
    char buf[64];

    outfile o;
    assert_int_equal(outfile_open(&o, path), 0);
    fputs("half of a new resu", o.f);
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "earlier\n");   /* untouched while writing */
    outfile_abort(&o);                        /* a failed run */
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "earlier\n");
    only_target();

    assert_int_equal(outfile_open(&o, path), 0);
    fputs("new\n", o.f);
    assert_int_equal(outfile_commit(&o), 0);
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "new\n");
    only_target();
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);   /* the file keeps its mode */

    /* a directory, a missing folder: refused with the reason, nothing created */
    assert_int_equal(outfile_open(&o, dir), -1);
    assert_int_equal(errno, EISDIR);
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/x.json", dir);
    assert_int_equal(outfile_open(&o, missing), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(outfile_check(path), 0);
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "new\n");   /* checking does not touch it */
    only_target();

    /* a symbolic link: the file it names is replaced, the link stays a link */
    char link[160], target[160];
    snprintf(target, sizeof target, "%s/real.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    rename(path, target);
    assert_int_equal(symlink("real.json", link), 0);
    assert_int_equal(outfile_open(&o, link), 0);
    fputs("through the link\n", o.f);
    assert_int_equal(outfile_commit(&o), 0);
    struct stat lst;
    assert_int_equal(lstat(link, &lst), 0);
    assert_true(S_ISLNK(lst.st_mode));
    slurp(target, buf, sizeof buf);
    assert_string_equal(buf, "through the link\n");
    unlink(link);
    unlink(target);
    rmdir(dir);
}

/* A device is written in place; its write error is the commit's error. */
static void test_dev_full(void **state) {
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    outfile o;
    assert_int_equal(outfile_open(&o, "/dev/full"), 0);
    assert_null(o.tmp);
    fputs("anything\n", o.f);
    assert_int_equal(outfile_commit(&o), -1);
    assert_int_equal(errno, ENOSPC);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit_abort),
        cmocka_unit_test(test_dev_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
