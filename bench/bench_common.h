/* Helpers shared by the simulation-speed benchmarks: run one workload in a
 * fresh child process (so its peak memory is its own) and read back what it
 * measured. */
#ifndef LOCSIM_BENCH_COMMON_H
#define LOCSIM_BENCH_COMMON_H

#include <stdint.h>

#include "workload.h"

typedef struct {
    int passed;
    uint64_t thread_insns;
    uint64_t cycles;        /* simulated core cycles (timing mode) */
    double core_mhz;        /* core clock of the configuration (timing mode) */
    double seconds;         /* host wall-clock seconds of workload_run */
    double cpu_seconds;     /* host CPU seconds (user + system) of workload_run: the figure
                               that does not depend on what else the machine is running */
} bench_report;

/* Runs in the child: fill *r for workload e. */
typedef void (*bench_child_fn)(const workload_entry *e, uint32_t size, uint64_t seed, void *ctx, bench_report *r);

/* Host monotonic time in seconds. */
double bench_now(void);
/* CPU seconds (user + system) this process has used. */
double bench_cpu_now(void);
/* Run fn in a child process; 0 and *r, *maxrss_kb (the child's peak RSS) on success. */
int bench_measure(const workload_entry *e, uint32_t size, uint64_t seed, bench_child_fn fn, void *ctx,
                  bench_report *r, long *maxrss_kb);
/* qsort comparator for doubles. */
int bench_cmp_double(const void *a, const void *b);

#endif
