/* bench_timing: timing-mode simulation speed of every workload.
 *
 * For each workload at its default size (or --size S), run it in timing mode in a
 * fresh child process (REPEAT times; the median host time is kept) and print:
 *   thread_insns  simulated thread instructions
 *   cycles        simulated core cycles
 *   seconds       host wall-clock seconds of the run; cpu_s: host CPU seconds
 *   Minsn/s       simulated thread instructions per host CPU second (CPU time, so
 *                 that other processes on the machine do not distort it)
 *   slowdown      host CPU seconds per simulated GPU second (at the core clock)
 *   peak_MB       the child's peak resident memory in timing mode
 *   over_MB       peak_MB minus the same workload's peak in functional mode:
 *                 what the timing model itself costs
 *
 *   bench_timing [--config NAME] [--against NAME] [--set SET] [--size S] [--seed N] [--repeat R]
 *                [--threads N] [workload ...] [-- -option value ...]
 *
 * --threads N runs the simulations with -sim_threads N (parallel SM stepping,
 * docs/timing-core.md): the median, Minsn/s and the suite line are then by
 * wall-clock seconds, since CPU time adds up the threads' time and cannot show
 * a parallel speedup (compare against a --threads 1 run made the same way; note
 * the machine's load beside the figures).
 *
 * --against NAME also times each workload under configuration NAME (same
 * options) and prints vs_ref: Minsn/s under --config over Minsn/s under NAME.
 * --set names a list (issue 32's speed cases):
 *   membound   the memory-bound workloads (gc kmeans invindex mvt atax memc),
 *              whose cost is per simulated cycle, not per instruction;
 *   many_sm    conv2d and transpose on the 64-SM ldesc_numa4 against
 *              fermi_gtx480 (--config ldesc_numa4 --against fermi_gtx480):
 *              how the per-instruction speed holds up with 4x the SMs.
 *
 * Everything after `--` is passed to the configuration as "-option value" pairs
 * (as on the locsim command line), so a mechanism's speed can be quoted with
 * it switched on: bench_timing kmeans memc -- -gpgpu_scheduler cwlp -l1d_policy lpc
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "locsim/locsim.h"
#include "sim/config.h"
#include "workload.h"

/* The configuration a timing run loads: a name or path, then option overrides. */
typedef struct {
    const char *name;
    int nopts;
    char **opts;
} bench_config;

static void run_timing(const workload_entry *e, uint32_t size, uint64_t seed, void *ctx, bench_report *r) {
    const bench_config *bc = ctx;
    locsim_config *cfg = NULL;
    locsim_device *dev = NULL;
    char err[1024];
    /* a tensor-core workload gets the tensor cores the Fermi configurations lack
     * (workload_uses_tensor_cores); the other workloads' runs are unchanged */
    char **opts = malloc(((size_t)bc->nopts + 2) * sizeof *opts);
    if (!opts) return;
    int nopts = 0;
    for (int i = 0; i < bc->nopts; i++) opts[nopts++] = bc->opts[i];
    if (workload_uses_tensor_cores(e)) {
        opts[nopts++] = "-gpgpu_tensor_core_avail";
        opts[nopts++] = "1";
    }
    locsim_status st = locsim_config_load(bc->name, nopts, opts, &cfg, err, sizeof err);
    free(opts);
    if (st != LOCSIM_OK) {
        fprintf(stderr, "bench_timing: %s\n", err);
        return;
    }
    if (locsim_device_create(cfg, LOCSIM_MODE_TIMING, &dev) == LOCSIM_OK) {
        double t0 = bench_now(), c0 = bench_cpu_now();
        char detail[512];
        r->passed = workload_run(e, dev, size, seed, detail, sizeof detail) == WL_PASS;
        r->seconds = bench_now() - t0;
        r->cpu_seconds = bench_cpu_now() - c0;
        locsim_counters c;
        locsim_get_counters(dev, &c);
        r->thread_insns = c.thread_insns;
        r->cycles = c.cycles;
        r->core_mhz = cfg->clock_mhz[CLOCK_CORE];
        locsim_device_destroy(dev);
    }
    locsim_config_free(cfg);
}

static void run_functional(const workload_entry *e, uint32_t size, uint64_t seed, void *ctx, bench_report *r) {
    (void)ctx;
    locsim_device *dev = NULL;
    if (locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev) != LOCSIM_OK) return;
    char detail[512];
    r->passed = workload_run(e, dev, size, seed, detail, sizeof detail) == WL_PASS;
    locsim_device_destroy(dev);
}

/* Workload lists of --set. */
static const char *const set_membound[] = {"gc", "kmeans", "invindex", "mvt", "atax", "memc", NULL};
static const char *const set_many_sm[] = {"conv2d", "transpose", NULL};

/* --threads N: the option pair added to every configuration, and the clock
 * medians and rates are taken by. */
static char threads_opt[] = "-sim_threads";
static char threads_val[16];
static int by_wall;

/* Workload e under bc, repeat runs: 0 on success with the last run's report in
 * *r, the median CPU and wall seconds, and the largest peak RSS. */
static int measure_rate(const workload_entry *e, uint32_t size, uint64_t seed, int repeat, const bench_config *bc,
                        bench_report *r, long *peak_kb, double *med_cpu, double *med_wall) {
    double secs[99], walls[99];
    long kb;
    *peak_kb = 0;
    for (int k = 0; k < repeat; k++) {
        if (bench_measure(e, size, seed, run_timing, (void *)bc, r, &kb) != 0 || !r->passed) return -1;
        secs[k] = r->cpu_seconds;
        walls[k] = r->seconds;
        if (kb > *peak_kb) *peak_kb = kb;
    }
    qsort(secs, (size_t)repeat, sizeof *secs, bench_cmp_double);
    qsort(walls, (size_t)repeat, sizeof *walls, bench_cmp_double);
    *med_cpu = secs[repeat / 2];
    *med_wall = walls[repeat / 2];
    return 0;
}

static int wanted(const char *name, char **only, int nonly) {
    if (nonly == 0) return 1;
    for (int i = 0; i < nonly; i++)
        if (!strcmp(only[i], name)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    uint32_t size = 0;
    uint64_t seed = 1;
    int repeat = 1, nonly = 0;
    bench_config bc = {.name = "fermi_gtx480"}, ref = {0};
    char *only[64];
    int threads = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            bc.nopts = argc - i - 1;
            bc.opts = argv + i + 1;
            break;
        }
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = atoi(argv[++i]);
            if (threads < 1) {
                fprintf(stderr, "bench_timing: --threads needs a count of 1 or more\n");
                return 2;
            }
            continue;
        }
        if (!strcmp(argv[i], "--size") && i + 1 < argc) size = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--config") && i + 1 < argc) bc.name = argv[++i];
        else if (!strcmp(argv[i], "--against") && i + 1 < argc) ref.name = argv[++i];
        else if (!strcmp(argv[i], "--set") && i + 1 < argc && !strcmp(argv[i + 1], "membound")) {
            for (int k = 0; set_membound[k] && nonly < 64; k++) only[nonly++] = (char *)set_membound[k];
            i++;
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc && !strcmp(argv[i + 1], "many_sm")) {
            for (int k = 0; set_many_sm[k] && nonly < 64; k++) only[nonly++] = (char *)set_many_sm[k];
            bc.name = "ldesc_numa4";
            ref.name = "fermi_gtx480";
            i++;
        } else if (argv[i][0] != '-' && nonly < 64) only[nonly++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_timing [--config NAME] [--against NAME] [--set membound|many_sm] [--size S] "
                            "[--seed N] [--repeat R] [--threads N] [workload ...] [-- -option value ...]\n");
            return 2;
        }
    }
    char **with_threads = NULL;
    if (threads) {   /* the options after `--`, then -sim_threads N */
        with_threads = malloc(((size_t)bc.nopts + 2) * sizeof *with_threads);
        if (!with_threads) return 1;
        for (int i = 0; i < bc.nopts; i++) with_threads[i] = bc.opts[i];
        snprintf(threads_val, sizeof threads_val, "%d", threads);
        with_threads[bc.nopts] = threads_opt;
        with_threads[bc.nopts + 1] = threads_val;
        bc.opts = with_threads;
        bc.nopts += 2;
        by_wall = 1;
    }
    ref.nopts = bc.nopts;
    ref.opts = bc.opts;
    if (repeat < 1 || repeat > 99) repeat = 1;
    /* A bad option is reported once here, not as every workload FAILED. */
    locsim_config *check = NULL;
    char err[1024];
    if (locsim_config_load(bc.name, bc.nopts, bc.opts, &check, err, sizeof err) != LOCSIM_OK) {
        fprintf(stderr, "bench_timing: %s\n", err);
        return 2;
    }
    locsim_config_free(check);
    if (ref.name && locsim_config_load(ref.name, ref.nopts, ref.opts, &check, err, sizeof err) != LOCSIM_OK) {
        fprintf(stderr, "bench_timing: --against: %s\n", err);
        return 2;
    }
    if (ref.name) locsim_config_free(check);
    for (int i = 0; i < nonly; i++) {
        const workload_entry *e = workload_table;
        while (e->wl && strcmp(e->wl->name, only[i])) e++;
        if (!e->wl) {
            fprintf(stderr, "bench_timing: unknown workload '%s' (locsim list names them)\n", only[i]);
            return 2;
        }
    }
    printf("timing-mode speed, config %s", bc.name);
    for (int i = 0; i < bc.nopts; i++) printf(" %s", bc.opts[i]);
    if (threads) printf(", %d host thread(s), median of %d run(s) by wall-clock time", threads, repeat);
    else printf(", one core, median of %d run(s) by CPU time", repeat);
    if (ref.name) printf("; vs_ref: Minsn/s over Minsn/s under %s", ref.name);
    printf("\n%-14s %6s %14s %12s %9s %9s %9s %10s %9s %9s  %s%s\n", "workload", "size", "thread_insns", "cycles",
           "seconds", "cpu_s", "Minsn/s", "slowdown", "peak_MB", "over_MB", "check", ref.name ? "  vs_ref" : "");
    double total_insns = 0, total_seconds = 0, worst_over = 0, rates[256];
    int nrates = 0;
    for (const workload_entry *e = workload_table; e->wl; e++) {
        if (!wanted(e->wl->name, only, nonly)) continue;
        uint32_t shown = size ? size : e->wl->default_size;
        bench_report r = {0}, f = {0}, rr = {0};
        long peak_kb = 0, func_kb = 0, ref_kb = 0;
        double med = 0, wall = 0, ref_med = 0, ref_wall = 0;
        int ok = measure_rate(e, size, seed, repeat, &bc, &r, &peak_kb, &med, &wall) == 0;
        if (ok && bench_measure(e, size, seed, run_functional, NULL, &f, &func_kb)) func_kb = 0;
        int ref_ok = ok && ref.name && measure_rate(e, size, seed, repeat, &ref, &rr, &ref_kb, &ref_med, &ref_wall) == 0;
        if (!ok) {
            printf("%-14s %6u %14s %12s %9s %9s %9s %10s %9s %9s  %s\n", e->wl->name, shown, "-", "-", "-", "-", "-",
                   "-", "-", "-", "FAILED");
            continue;
        }
        double basis = by_wall ? wall : med;   /* --threads: rates by wall-clock time */
        double rate = basis > 0 ? r.thread_insns / basis / 1e6 : 0;
        double gpu_seconds = r.core_mhz > 0 ? r.cycles / (r.core_mhz * 1e6) : 0;
        double over = (peak_kb - func_kb) / 1024.0;
        printf("%-14s %6u %14" PRIu64 " %12" PRIu64 " %9.3f %9.3f %9.2f %10.0f %9.1f %9.1f  PASS", e->wl->name,
               shown, r.thread_insns, r.cycles, wall, med, rate, gpu_seconds > 0 ? basis / gpu_seconds : 0.0,
               peak_kb / 1024.0, over);
        double ref_basis = by_wall ? ref_wall : ref_med;
        if (ref.name && ref_ok && ref_basis > 0 && rr.thread_insns)
            printf("  %.3f (%.2f M/s)", rate / (rr.thread_insns / ref_basis / 1e6), rr.thread_insns / ref_basis / 1e6);
        else if (ref.name)
            printf("  FAILED under %s", ref.name);
        printf("\n");
        fflush(stdout);
        total_insns += (double)r.thread_insns;
        total_seconds += basis;
        if (over > worst_over) worst_over = over;
        if (nrates < 256) rates[nrates++] = rate;
    }
    if (nrates) {
        qsort(rates, (size_t)nrates, sizeof *rates, bench_cmp_double);
        printf("suite: %.0f thread instructions in %.3f %s s = %.2f M thread-insn/s overall; median workload %.2f M/s; "
               "largest timing-model memory overhead %.1f MB\n",
               total_insns, total_seconds, by_wall ? "wall" : "CPU", total_insns / total_seconds / 1e6,
               rates[nrates / 2], worst_over);
    }
    free(with_threads);
    return 0;
}
