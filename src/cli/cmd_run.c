/* locsim list / run / run-all: the workload suite from the command line. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "locsim/locsim.h"
#include "sim/outfile.h"
#include "sim/progress.h"
#include "sim/run_inputs.h"
#include "sim/timing.h"
#include "workload.h"

#define MAX_OVERRIDES 128

typedef struct {
    const char *workload;
    uint32_t size;        /* 0 = the workload's default */
    uint64_t seed;
    int functional;
    int memcheck;         /* --memcheck: stop at the first out-of-bounds access */
    const char *config;   /* --config name or file (timing mode) */
    const char *json;     /* --json FILE */
    outfile json_out;     /* opened before simulating, so a bad path is reported at once; written
                             under a temporary name, renamed over FILE only when whole */
    int all_stats;        /* --stats: print every statistic */
    int noverrides;       /* "-option value" pairs, argv style */
    char *overrides[MAX_OVERRIDES];
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
    o->config = "fermi_gtx480";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (!strcmp(a, "--functional")) {
            o->functional = 1;
        } else if (!strcmp(a, "-quiet") || !strcmp(a, "--quiet")) {
            progress_set_quiet(1);
        } else if (!strcmp(a, "--memcheck")) {
            o->memcheck = 1;
        } else if (!strcmp(a, "--stats")) {
            o->all_stats = 1;
        } else if (!strcmp(a, "--config") || !strcmp(a, "--json")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "locsim: %s needs a value\n", a);
                return -1;
            }
            if (a[2] == 'c') o->config = argv[++i];
            else o->json = argv[++i];
        } else if (a[0] == '-' && a[1] != '-' && a[1] != '\0') {
            /* a configuration override: -option value */
            if (i + 1 >= argc) {
                fprintf(stderr, "locsim: %s: missing value\n", a);
                return -1;
            }
            if (o->noverrides + 2 > MAX_OVERRIDES) {
                fprintf(stderr, "locsim: too many -option overrides (at most %d)\n", MAX_OVERRIDES / 2);
                return -1;
            }
            o->overrides[o->noverrides++] = argv[i];
            o->overrides[o->noverrides++] = argv[++i];
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
    double ipc, l1d_miss_rate;   /* timing mode */
    double core_mhz;             /* timing mode: core clock of the configuration */
    char *summary;               /* timing statistics text (malloc'd), or NULL */
    size_t summary_len;
    uint64_t timed_insns;        /* thread instructions simulated in timing mode (all of them in functional mode) */
    char stop[320];              /* timing mode: the cap that stopped the timing simulation, or "" */
} run_outcome;

/* What to do with the device after the run, before it is destroyed. */
typedef void (*after_run_fn)(locsim_device *dev, run_outcome *r, void *ctx);

int cli_load_config(const char *name, int noverrides, char **overrides, locsim_config **out) {
    char err[1024];
    if (locsim_config_load(name, noverrides, overrides, out, err, sizeof err) != LOCSIM_OK) {
        fprintf(stderr, "locsim: %s\n", err);
        return -1;
    }
    return 0;
}

/* The value of statistic `name` over the whole run (timing mode), or 0. */
double cli_timing_stat(locsim_device *dev, const char *name) {
    timing_state *t = timing_of(dev);
    return t ? timing_stat_total(t, name) : 0.0;
}

/* Run one workload on a fresh device. Returns 0 if the device could be created. */
static int run_with(const workload_entry *e, const run_options *o, run_outcome *out, after_run_fn after, void *ctx) {
    memset(out, 0, sizeof *out);
    locsim_device *dev = NULL;
    locsim_config *cfg = NULL;
    /* Functional mode reads the configuration too: -functional_run_quantum,
     * -device_memory_mb and -memcheck apply to it. */
    if (cli_load_config(o->config, o->noverrides, (char **)o->overrides, &cfg)) return -1;
    locsim_mode mode = o->functional ? LOCSIM_MODE_FUNCTIONAL : LOCSIM_MODE_TIMING;
    locsim_status st = locsim_device_create(cfg, mode, &dev);
    if (st != LOCSIM_OK) {
        fprintf(stderr, "locsim: cannot create a device: %s\n", locsim_last_error(NULL));
        locsim_config_free(cfg);
        return -1;
    }
    if (o->memcheck || locsim_config_memcheck(cfg)) locsim_set_memcheck(dev, 1);
    double t0 = cli_now_seconds();
    out->result = workload_run(e, dev, o->size, o->seed, out->detail, sizeof out->detail);
    out->seconds = cli_now_seconds() - t0;
    locsim_get_counters(dev, &out->counters);
    out->timed_insns = out->counters.thread_insns - (uint64_t)cli_timing_stat(dev, "gpu_ff_insn");
    const gpu_cap_info *cap = timing_of(dev) ? gpu_cap(timing_of(dev)->g) : NULL;
    if (cap)
        snprintf(out->stop, sizeof out->stop, "%s at cycle %" PRIu64 ", %" PRIu64 " thread instructions, in kernel %" PRIu64
                 " (%s); the rest ran functionally", cap->option, cap->cycle, cap->thread_insns, cap->kernel,
                 cap->kernel_name);
    out->ipc = cli_timing_stat(dev, "gpu_ipc");
    out->l1d_miss_rate = cli_timing_stat(dev, "L1D_total_cache_miss_rate");
    if (timing_of(dev)) out->core_mhz = timing_of(dev)->cfg->clock_mhz[CLOCK_CORE];
    if (after) after(dev, out, ctx);
    locsim_device_destroy(dev);
    locsim_config_free(cfg);
    return 0;
}

static int run_one(const workload_entry *e, const run_options *o, run_outcome *out) {
    return run_with(e, o, out, NULL, NULL);
}

/* Key statistics printed after a timing run (all of them with --stats). */
static const char *const summary_stats[] = {
    "gpu_sim_cycle", "gpu_ipc", "L1D_total_cache_accesses", "L1D_total_cache_miss_rate",
    "L1D_total_cache_pending_hits", "L1D_total_cache_reservation_fails", "L1D_MPKI", "L2_total_cache_accesses",
    "L2_total_cache_miss_rate", "L2_MPKI", "dram_reads", "dram_writes", "dram_row_buffer_locality",
    "averagemflatency", "icnt_req_flits", "icnt_rep_flits", "issue_stall_idle_frac", "issue_stall_scoreboard_frac",
    "issue_stall_pipeline_frac", "issue_stall_memory_frac", "issue_stall_barrier_frac",
    "energy_total", "energy_dynamic", "energy_static", "energy_l2_noc_dram", "energy_avg_power_w",
};

static void report_timing(locsim_device *dev, run_outcome *r, void *ctx) {
    run_options *o = ctx;
    timing_state *t = timing_of(dev);
    if (!t) return;
    FILE *out = open_memstream(&r->summary, &r->summary_len);
    if (!out) return;
    if (o->all_stats) {
        timing_report_text(t, out);
    } else {
        for (size_t k = 0; k < sizeof summary_stats / sizeof *summary_stats; k++) {
            int id = stats_find(t->stats, summary_stats[k]);
            if (id < 0) continue;
            double v = stats_value(t->stats, STATS_TOTAL, id);
            if (v == (double)(uint64_t)v && v < 1e15) fprintf(out, "%-35s %" PRIu64 "\n", summary_stats[k], (uint64_t)v);
            else fprintf(out, "%-35s %.4f\n", summary_stats[k], v);
        }
        /* the texture cache, for the programs that use it */
        int acc = stats_find(t->stats, "L1T_total_cache_accesses"), rate = stats_find(t->stats, "L1T_total_cache_miss_rate");
        if (acc >= 0 && rate >= 0 && stats_value(t->stats, STATS_TOTAL, acc) > 0) {
            fprintf(out, "%-35s %" PRIu64 "\n", "L1T_total_cache_accesses", (uint64_t)stats_value(t->stats, STATS_TOTAL, acc));
            fprintf(out, "%-35s %.4f\n", "L1T_total_cache_miss_rate", stats_value(t->stats, STATS_TOTAL, rate));
        }
    }
    fclose(out);
    if (o->json_out.f && r->result == WL_BAD_SIZE) outfile_abort(&o->json_out);   /* nothing ran: FILE is kept */
    if (o->json_out.f) {
        run_inputs in = {.workload = o->workload, .size = o->size, .seed = o->seed, .has_seed = 1,
                         .config = o->config, .noptions = o->noverrides, .options = o->overrides};
        errno = 0;
        int bad = timing_report_json_inputs(t, o->json_out.f, &in) != 0;
        int why = errno;
        if (bad) outfile_abort(&o->json_out);
        else if (outfile_commit(&o->json_out) != 0) bad = 1, why = errno;
        if (bad) {
            r->result = WL_ERROR;
            snprintf(r->detail, sizeof r->detail, "cannot write the statistics to %s: %s", o->json,
                     why ? strerror(why) : "write error");
        }
    }
}

/* Open the --json file before simulating: a directory, a missing folder or no
 * permission is reported at once with the system's reason. */
static int open_json(run_options *o) {
    if (!o->json) return 0;
    if (!o->json[0]) {
        fprintf(stderr, "locsim: --json needs a file name, got an empty string\n");
        return -1;
    }
    if (outfile_open(&o->json_out, o->json) != 0) {
        fprintf(stderr, "locsim: cannot write the statistics to %s: %s\n", o->json, strerror(errno));
        return -1;
    }
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
    if (o.functional && (o.json || o.noverrides)) {
        fprintf(stderr, "locsim: --json and -option overrides need timing mode (drop --functional)\n");
        return 2;
    }
    if (o.size == 0) o.size = e->wl->default_size;
    if (open_json(&o)) return 2;
    run_outcome r;
    int rc = run_with(e, &o, &r, o.functional ? NULL : report_timing, &o);
    if (o.json_out.f) outfile_abort(&o.json_out);  /* the run ended before the report: FILE keeps its old content */
    if (rc) return 2;
    if (r.result == WL_BAD_SIZE) {  /* nothing ran: no statistics to show */
        fprintf(stderr, "locsim: %s: %s\n", e->wl->name, r.detail);
        free(r.summary);
        return 2;
    }
    uint32_t size = o.size;
    printf("workload        %s (size %u, seed %" PRIu64 ")\n", e->wl->name, size, o.seed);
    printf("mode            %s%s\n", o.functional ? "functional" : "timing, config ", o.functional ? "" : o.config);
    printf("kernels         %" PRIu64 "\n", r.counters.kernels);
    printf("gpu_sim_insn    %" PRIu64 "\n", r.timed_insns);
    if (r.timed_insns != r.counters.thread_insns)   /* a timing window, warm-up or cap */
        printf("gpu_ff_insn     %" PRIu64 " (run functionally, untimed)\n", r.counters.thread_insns - r.timed_insns);
    if (r.stop[0]) printf("stopped_by      %s\n", r.stop);
    printf("warp_insn       %" PRIu64 "\n", r.counters.warp_insns);
    printf("memcheck_oob_accesses %" PRIu64 "\n", r.counters.oob_accesses);
    printf("host_seconds    %.3f\n", r.seconds);
    printf("sim_rate        %.1f M thread-insn/s\n", r.seconds > 0 ? r.timed_insns / r.seconds / 1e6 : 0.0);
    if (r.core_mhz > 0 && r.seconds > 0 && r.counters.cycles) {
        /* host seconds per simulated second at the core clock */
        printf("slowdown        %.0fx\n", r.seconds / (r.counters.cycles / (r.core_mhz * 1e6)));
    }
    if (r.summary) {
        fputs(r.summary, stdout);
        free(r.summary);
    }
    printf("%s\n", result_name(r.result));
    if (r.result != WL_PASS) fprintf(stderr, "locsim: %s: %s\n", e->wl->name, r.detail);
    return r.result == WL_PASS ? 0 : 1;
}

int cmd_run_all(int argc, char **argv) {
    run_options o;
    if (parse_run_options(argc, argv, &o, 0)) return 2;
    printf("%-14s %6s %14s %12s %10s %9s %9s  %s\n", "workload", "size", "gpu_sim_insn", "warp_insns",
           "gpu_cycle", "gpu_ipc", "Minsn/s", "result");
    int failures = 0;
    for (const workload_entry *e = workload_table; e->wl; e++) {
        run_outcome r;
        if (run_one(e, &o, &r)) return 2;
        /* cycles and IPC exist only in timing mode */
        const locsim_counters *c = &r.counters;
        char cycles[24] = "-", ipc[24] = "-";
        if (c->cycles) {
            snprintf(cycles, sizeof cycles, "%" PRIu64, c->cycles);
            snprintf(ipc, sizeof ipc, "%.2f", (double)r.timed_insns / (double)c->cycles);
        }
        printf("%-14s %6u %14" PRIu64 " %12" PRIu64 " %10s %9s %9.1f  %s\n", e->wl->name,
               o.size ? o.size : e->wl->default_size, r.timed_insns, c->warp_insns, cycles, ipc,
               r.seconds > 0 ? r.timed_insns / r.seconds / 1e6 : 0.0, result_name(r.result));
        fflush(stdout);
        if (r.result != WL_PASS) {
            failures++;
            fprintf(stderr, "locsim: %s: %s\n", e->wl->name, r.detail);
        }
    }
    printf("%zu workloads, %d failed\n", workload_count(), failures);
    return failures ? 1 : 0;
}
