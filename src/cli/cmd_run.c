/* locsim list / run / run-all: the workload suite from the command line. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "locsim/locsim.h"
#include "workload.h"

typedef struct {
    const char *workload;
    uint32_t size;        /* 0 = the workload's default */
    uint64_t seed;
    int functional;
} run_options;

/* Parse an unsigned decimal option value; prints an error and returns -1 on failure. */
static int parse_u64(const char *opt, const char *text, uint64_t max, uint64_t *out) {
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') goto bad;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > max) goto bad;
    *out = v;
    return 0;
bad:
    fprintf(stderr, "locsim: %s expects an unsigned integer <= %" PRIu64 ", got '%s'\n", opt, max, text ? text : "");
    return -1;
}

static int parse_run_options(int argc, char **argv, run_options *o, int want_workload) {
    memset(o, 0, sizeof *o);
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (!strcmp(a, "--functional")) {
            o->functional = 1;
        } else if (!strcmp(a, "--size") || !strcmp(a, "--seed")) {
            int is_size = a[2] == 's' && a[3] == 'i';
            if (parse_u64(a, i + 1 < argc ? argv[i + 1] : NULL, is_size ? 1000000 : UINT64_MAX, &v)) return -1;
            if (is_size && v == 0) {
                fprintf(stderr, "locsim: --size must be >= 1\n");
                return -1;
            }
            if (is_size) o->size = (uint32_t)v;
            else o->seed = v;
            i++;
        } else if (a[0] != '-' && want_workload && !o->workload) {
            o->workload = a;
        } else {
            fprintf(stderr, "locsim: unknown option '%s'\n", a);
            return -1;
        }
    }
    if (want_workload && !o->workload) {
        fprintf(stderr, "locsim: run needs a workload name (see 'locsim list')\n");
        return -1;
    }
    return 0;
}

int cmd_list(int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "locsim: list takes no arguments\n");
        return 2;
    }
    for (const workload_entry *e = workload_table; e->wl; e++) printf("%-14s %s\n", e->wl->name, e->wl->description);
    return 0;
}

typedef struct {
    wl_result result;
    locsim_counters counters;
    double seconds;
    char detail[512];
} run_outcome;

/* Run one workload on a fresh device. Returns 0 if the device could be created. */
static int run_one(const workload_entry *e, const run_options *o, run_outcome *out) {
    memset(out, 0, sizeof *out);
    locsim_device *dev = NULL;
    locsim_mode mode = o->functional ? LOCSIM_MODE_FUNCTIONAL : LOCSIM_MODE_TIMING;
    locsim_status st = locsim_device_create(NULL, mode, &dev);
    if (st != LOCSIM_OK && mode == LOCSIM_MODE_TIMING) {
        /* The cycle-level model is not built yet: say so and run functionally. */
        fprintf(stderr, "locsim: timing mode is not available in this build; running functional simulation\n");
        st = locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev);
    }
    if (st != LOCSIM_OK) {
        fprintf(stderr, "locsim: cannot create a device: %s\n", locsim_status_name(st));
        return -1;
    }
    double t0 = cli_now_seconds();
    out->result = workload_run(e, dev, o->size, o->seed, out->detail, sizeof out->detail);
    out->seconds = cli_now_seconds() - t0;
    locsim_get_counters(dev, &out->counters);
    locsim_device_destroy(dev);
    return 0;
}

static const char *result_name(wl_result r) { return r == WL_PASS ? "PASS" : r == WL_FAIL ? "FAIL" : "ERROR"; }

int cmd_run(int argc, char **argv) {
    run_options o;
    if (parse_run_options(argc, argv, &o, 1)) return 2;
    const workload_entry *e = workload_find(o.workload);
    if (!e) {
        fprintf(stderr, "locsim: unknown workload '%s' (see 'locsim list')\n", o.workload);
        return 2;
    }
    run_outcome r;
    if (run_one(e, &o, &r)) return 2;
    uint32_t size = o.size ? o.size : e->wl->default_size;
    printf("workload        %s (size %u, seed %" PRIu64 ")\n", e->wl->name, size, o.seed);
    printf("kernels         %" PRIu64 "\n", r.counters.kernels);
    printf("gpu_sim_insn    %" PRIu64 "\n", r.counters.thread_insns);
    printf("warp_insn       %" PRIu64 "\n", r.counters.warp_insns);
    printf("host_seconds    %.3f\n", r.seconds);
    printf("sim_rate        %.1f M thread-insn/s\n", r.seconds > 0 ? r.counters.thread_insns / r.seconds / 1e6 : 0.0);
    printf("%s\n", result_name(r.result));
    if (r.result != WL_PASS) fprintf(stderr, "locsim: %s: %s\n", e->wl->name, r.detail);
    return r.result == WL_PASS ? 0 : 1;
}

int cmd_run_all(int argc, char **argv) {
    run_options o;
    if (parse_run_options(argc, argv, &o, 0)) return 2;
    printf("%-14s %6s %16s %14s %9s %10s  %s\n", "workload", "size", "thread_insns", "warp_insns", "seconds",
           "Minsn/s", "result");
    int failures = 0;
    for (const workload_entry *e = workload_table; e->wl; e++) {
        run_outcome r;
        if (run_one(e, &o, &r)) return 2;
        printf("%-14s %6u %16" PRIu64 " %14" PRIu64 " %9.3f %10.1f  %s\n", e->wl->name,
               o.size ? o.size : e->wl->default_size, r.counters.thread_insns, r.counters.warp_insns, r.seconds,
               r.seconds > 0 ? r.counters.thread_insns / r.seconds / 1e6 : 0.0, result_name(r.result));
        fflush(stdout);
        if (r.result != WL_PASS) {
            failures++;
            fprintf(stderr, "locsim: %s: %s\n", e->wl->name, r.detail);
        }
    }
    printf("%zu workloads, %d failed\n", workload_count(), failures);
    return failures ? 1 : 0;
}
