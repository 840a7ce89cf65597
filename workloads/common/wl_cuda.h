/* Shared by the stand-alone CUDA programs (the main() in workloads/<name>/kernel.cu):
 * error checking, the command line and the PASS/FAIL ending, so that every
 * workload's program behaves the same way.
 *
 * Host code only: including it leaves the device code, and so kernel.ptx, unchanged.
 *
 * The programs print PASS or FAIL as the last line on stdout and exit 0 or 1;
 * the reason for a FAIL goes to stderr (or stdout, for a mismatch some mains
 * explain there).  The arguments are `--size S --seed N`, or the positional
 * form `S N`; either may be left out (the default size, seed 1).
 */
#ifndef LOCSIM_WL_CUDA_H
#define LOCSIM_WL_CUDA_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* locsim run's bound on --size, for workloads with no smaller limit of their own. */
#define WL_SIZE_LIMIT 1000000u

/* Print FAIL where PASS would have gone and exit 1. */
__attribute__((noreturn)) static inline void wl_exit_fail(void) {
    printf("FAIL\n");
    exit(1);
}

/* Say why on stderr, then FAIL on stdout, and exit 1. */
__attribute__((noreturn, format(printf, 1, 2))) static inline void wl_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    wl_exit_fail();
}

/* Check a CUDA runtime call; on error name it (file:line) and fail. */
#define CUDA_CHECK(call)                                                                            \
    do {                                                                                            \
        cudaError_t wl_err_ = (call);                                                               \
        if (wl_err_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(wl_err_)); \
            wl_exit_fail();                                                                         \
        }                                                                                           \
    } while (0)

/* Print the verdict and return main()'s exit status: `return wl_finish(ok);`. */
static inline int wl_finish(int ok) {
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

/* The whole of text as a decimal number in min..max (read as locsim run reads
 * --size and --seed); fails the program otherwise. */
static inline uint64_t wl_parse_number(const char *what, const char *text, uint64_t min, uint64_t max) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (!end || *end || errno || v < min || v > max)
        wl_die("%s must be a decimal number in %llu..%llu, got '%s'", what, (unsigned long long)min,
               (unsigned long long)max, text);
    return v;
}

/* Read `--size S --seed N` or the positional `S N` (either may be left out) into
 * *size and *seed, which hold the defaults on entry.  The size must be in
 * 1..max_size; anything else on the command line fails the program. */
static inline void wl_parse_args(int argc, char **argv, uint32_t max_size, uint32_t *size, uint64_t *seed) {
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int is_size;
        if (strcmp(a, "--size") == 0 || strcmp(a, "--seed") == 0) {
            if (i + 1 >= argc) wl_die("%s needs a value", a);
            is_size = a[3] == 'i';
            a = argv[++i];
        } else if (a[0] == '-' || positional >= 2) {
            wl_die("unexpected argument '%s' (usage: %s [--size S] [--seed N], or %s [S [N]])", a, argv[0],
                   argv[0]);
        } else {
            is_size = positional++ == 0;
        }
        if (is_size) *size = (uint32_t)wl_parse_number("the size", a, 1, max_size);
        else *seed = wl_parse_number("the seed", a, 0, UINT64_MAX);
    }
}

#endif
