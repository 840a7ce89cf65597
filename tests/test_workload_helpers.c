/* The helpers shared by the workloads: size limit, out-of-memory, buffer cleanup
 * and the exact float check for host.c (workload.h), and the command line of the stand-alone kernel.cu
 * programs (wl_cuda.h; a rejected command line exits, so those run in a child). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "locsim/locsim.h"
#include "wl_cuda.h"
#include "workload.h"

static void size_limit(void **state) {
    (void)state;
    wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = 5;
    assert_int_equal(wl_size_ok(&ctx, 5), 1);
    assert_string_equal(ctx.detail, "");
    ctx.size = 6;
    assert_int_equal(wl_size_ok(&ctx, 5), 0);
    assert_string_equal(ctx.detail, "--size 6 is too large (max 5)");
}

static void out_of_memory(void **state) {
    (void)state;
    wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(wl_out_of_memory(&ctx), WL_ERROR);
    assert_string_equal(ctx.detail, "out of host memory");
}

/* The exact check compares bits, not values: -0.0 differs from 0.0, and a NaN
 * equals the same NaN.  The first difference is the one reported. */
static void exact_floats(void **state) {
    (void)state;
    float want[4] = {1.0f, 0.0f, 2.5f, 3.0f};
    float got[4] = {1.0f, 0.0f, 2.5f, 3.0f};
    assert_int_equal(wl_first_float_diff(got, want, 4), 4);   /* equal: n */
    assert_int_equal(wl_first_float_diff(got, want, 0), 0);
    got[1] = -0.0f;                                            /* == 0.0f, other bits */
    got[3] = 4.0f;
    assert_int_equal(wl_first_float_diff(got, want, 4), 1);
    assert_int_equal(wl_first_float_diff(got, want, 1), 1);   /* only element 0 looked at */
    got[1] = want[1] = __builtin_nanf("");                   /* NaN != NaN, same bits */
    assert_int_equal(wl_first_float_diff(got, want, 4), 3);
    wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(wl_check_floats_exact(&ctx, "y", got, want, 3), WL_PASS);
    assert_string_equal(ctx.detail, "");
    assert_int_equal(wl_check_floats_exact(&ctx, "y", got, want, 4), WL_FAIL);
    assert_string_equal(ctx.detail, "y: element 3: got 4, expected 3");
}

/* Allocated buffers are freed and zeroed; a zero (never allocated) one is skipped. */
static void free_buffers(void **state) {
    (void)state;
    locsim_device *dev = NULL;
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
    locsim_dptr a = 0, b = 0, never = 0;
    assert_int_equal(locsim_malloc(dev, &a, 256), LOCSIM_OK);
    assert_int_equal(locsim_malloc(dev, &b, 4096), LOCSIM_OK);
    locsim_dptr old_a = a, old_b = b;
    WL_FREE_BUFFERS(dev, &b, &never, &a);
    assert_true(a == 0 && b == 0 && never == 0);
    /* really freed: freeing them again is an error */
    assert_int_not_equal(locsim_free(dev, old_a), LOCSIM_OK);
    assert_int_not_equal(locsim_free(dev, old_b), LOCSIM_OK);
    WL_FREE_BUFFERS(dev, &a, &b);  /* all zero now: nothing to do */
    locsim_device_destroy(dev);
}

static void parse(int argc, char **argv, uint32_t *size, uint64_t *seed) {
    *size = 7;
    *seed = 1;
    wl_parse_args(argc, argv, 100, size, seed);
}

static void stand_alone_arguments(void **state) {
    (void)state;
    uint32_t size;
    uint64_t seed;
    char *none[] = {"prog"};
    parse(1, none, &size, &seed);
    assert_int_equal(size, 7);
    assert_int_equal(seed, 1);
    char *named[] = {"prog", "--size", "3", "--seed", "18446744073709551615"};
    parse(5, named, &size, &seed);
    assert_int_equal(size, 3);
    assert_true(seed == UINT64_MAX);
    char *seed_only[] = {"prog", "--seed", "42"};
    parse(3, seed_only, &size, &seed);
    assert_int_equal(size, 7);
    assert_int_equal(seed, 42);
    char *positional[] = {"prog", "100", "0"};
    parse(3, positional, &size, &seed);
    assert_int_equal(size, 100);
    assert_int_equal(seed, 0);
    char *size_only[] = {"prog", "1"};
    parse(2, size_only, &size, &seed);
    assert_int_equal(size, 1);
    assert_int_equal(seed, 1);
}

/* Exit status of a child that parses argv (its output thrown away). */
static int parse_in_child(int argc, char **argv) {
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        uint32_t size;
        uint64_t seed;
        parse(argc, argv, &size, &seed);
        _exit(size == 7 ? 50 : 51);  /* accepted: neither FAIL's status nor PASS's */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void stand_alone_bad_arguments(void **state) {
    (void)state;
    char *zero[] = {"prog", "0"}, *too_big[] = {"prog", "--size", "101"}, *word[] = {"prog", "x"};
    char *trailing[] = {"prog", "12abc"}, *negative[] = {"prog", "-1"}, *unknown[] = {"prog", "--sizes", "3"};
    char *third[] = {"prog", "1", "2", "3"}, *no_value[] = {"prog", "--seed"};
    char *seed_overflow[] = {"prog", "--seed", "18446744073709551616"};
    assert_int_equal(parse_in_child(2, zero), 1);
    assert_int_equal(parse_in_child(3, too_big), 1);
    assert_int_equal(parse_in_child(2, word), 1);
    assert_int_equal(parse_in_child(2, trailing), 1);
    assert_int_equal(parse_in_child(2, negative), 1);
    assert_int_equal(parse_in_child(3, unknown), 1);
    assert_int_equal(parse_in_child(4, third), 1);
    assert_int_equal(parse_in_child(2, no_value), 1);
    assert_int_equal(parse_in_child(3, seed_overflow), 1);
    char *fine[] = {"prog", "--seed", "9"};
    assert_int_equal(parse_in_child(3, fine), 50);  /* the child itself works */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(size_limit),
        cmocka_unit_test(out_of_memory),
        cmocka_unit_test(exact_floats),
        cmocka_unit_test(free_buffers),
        cmocka_unit_test(stand_alone_arguments),
        cmocka_unit_test(stand_alone_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
