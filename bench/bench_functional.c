/* bench_functional: functional-mode simulation speed of every workload.
 *
 * For each workload at its default size (or --size S), run it REPEAT times in a
 * fresh child process and print thread instructions per host second (median of
 * the repeats) and the child's peak resident memory.  Each workload runs in its
 * own process so its peak memory is its own.
 *
 *   bench_functional [--size S] [--seed N] [--repeat R] [--quantum Q] [workload ...]
 *
 * --quantum Q runs with that functional run quantum (-functional_run_quantum;
 * default LOCSIM_DEFAULT_RUN_QUANTUM).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"
#include "locsim/locsim.h"
#include "workload.h"

static void run_functional(const workload_entry *e, uint32_t size, uint64_t seed, void *ctx, bench_report *r) {
    const uint32_t *quantum = ctx;
    locsim_device *dev = NULL;
    if (locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev) != LOCSIM_OK) return;
    locsim_set_run_quantum(dev, *quantum);
    double t0 = bench_now();
    char detail[512];
    r->passed = workload_run(e, dev, size, seed, detail, sizeof detail) == WL_PASS;
    r->seconds = bench_now() - t0;
    locsim_counters c;
    locsim_get_counters(dev, &c);
    r->thread_insns = c.thread_insns;
    locsim_device_destroy(dev);
}

int main(int argc, char **argv) {
    uint32_t size = 0;
    uint64_t seed = 1;
    int repeat = 3;
    uint32_t quantum = 0;
    const char *only[64];
    int nonly = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) size = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quantum") && i + 1 < argc) quantum = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && nonly < 64) only[nonly++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_functional [--size S] [--seed N] [--repeat R] [--quantum Q] [workload ...]\n");
            return 2;
        }
    }
    if (repeat < 1 || repeat > 99) repeat = 3;
    printf("functional-mode speed, one core, median of %d runs, run quantum %u\n", repeat,
           quantum ? quantum : LOCSIM_DEFAULT_RUN_QUANTUM);
    printf("%-14s %6s %14s %10s %12s %10s  %s\n", "workload", "size", "thread_insns", "seconds", "Minsn/s", "peak_MB",
           "check");
    double total_insns = 0, total_seconds = 0;
    double rates[256];
    int nrates = 0;
    for (const workload_entry *e = workload_table; e->wl; e++) {
        int wanted = nonly == 0;
        for (int i = 0; i < nonly; i++) wanted |= !strcmp(only[i], e->wl->name);
        if (!wanted) continue;
        double secs[99];
        bench_report r = {0};
        long peak_kb = 0;
        int ok = 1;
        for (int k = 0; k < repeat && ok; k++) {
            long kb;
            ok = bench_measure(e, size, seed, run_functional, &quantum, &r, &kb) == 0 && r.passed;
            secs[k] = r.seconds;
            if (kb > peak_kb) peak_kb = kb;
        }
        uint32_t shown = size ? size : e->wl->default_size;
        if (!ok) {
            printf("%-14s %6u %14s %10s %12s %10s  %s\n", e->wl->name, shown, "-", "-", "-", "-", "FAILED");
            continue;
        }
        qsort(secs, (size_t)repeat, sizeof *secs, bench_cmp_double);
        double med = secs[repeat / 2];
        double rate = med > 0 ? r.thread_insns / med / 1e6 : 0;
        printf("%-14s %6u %14" PRIu64 " %10.3f %12.1f %10.1f  PASS\n", e->wl->name, shown, r.thread_insns, med, rate,
               peak_kb / 1024.0);
        fflush(stdout);
        total_insns += (double)r.thread_insns;
        total_seconds += med;
        if (nrates < 256) rates[nrates++] = rate;
    }
    if (nrates) {
        qsort(rates, (size_t)nrates, sizeof *rates, bench_cmp_double);
        printf("suite: %.0f thread instructions in %.3f s = %.1f M thread-insn/s overall; median workload %.1f M/s\n",
               total_insns, total_seconds, total_insns / total_seconds / 1e6, rates[nrates / 2]);
    }
    return 0;
}
