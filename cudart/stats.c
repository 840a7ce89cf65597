/* Statistics of the program's kernels, reported when it exits: per kernel (in the
 * order kernels were first launched) and in total.  They go to stderr, or as JSON to
 * the file named by LOCSIM_JSON, so the program's own stdout is left as it would be
 * on a GPU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "config.h"
#include "sim/outfile.h"
#include "sim/run_inputs.h"
#include "sim/timing.h"

typedef struct {
    char *name;
    uint64_t launches;
    uint64_t thread_insns;   /* gpu_sim_insn */
    uint64_t warp_insns;
    uint64_t cycles;         /* gpu_sim_cycle (timing mode) */
} kernel_stats;

static kernel_stats *table;
static int nkernels, cap_kernels;

static kernel_stats *stats_for(const char *name) {
    for (int i = 0; i < nkernels; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    if (nkernels == cap_kernels) {
        int ncap = cap_kernels ? cap_kernels * 2 : 16;
        kernel_stats *t = realloc(table, (size_t)ncap * sizeof *t);
        if (!t) return NULL;
        table = t;
        cap_kernels = ncap;
    }
    kernel_stats *k = &table[nkernels];
    memset(k, 0, sizeof *k);
    k->name = strdup(name);
    if (!k->name) return NULL;
    nkernels++;
    return k;
}

void cr_stats_record(const char *kernel, const locsim_counters *before, const locsim_counters *after) {
    kernel_stats *k = stats_for(kernel);
    if (!k) return;
    k->launches++;
    k->thread_insns += after->thread_insns - before->thread_insns;
    k->warp_insns += after->warp_insns - before->warp_insns;
    k->cycles += after->cycles - before->cycles;
}

double cr_sim_time_ms(void) {
    uint64_t cycles = 0;
    if (cr.dev) {
        locsim_counters c;
        locsim_get_counters(cr.dev, &c);
        cycles = c.cycles;
    }
    return cr.info.clock_khz ? (double)cycles / cr.info.clock_khz : 0.0;
}

static kernel_stats totals(void) {
    kernel_stats t = {0};
    for (int i = 0; i < nkernels; i++) {
        t.launches += table[i].launches;
        t.thread_insns += table[i].thread_insns;
        t.warp_insns += table[i].warp_insns;
        t.cycles += table[i].cycles;
    }
    return t;
}

static const char *mode_name(void) { return cr.mode == LOCSIM_MODE_TIMING ? "timing" : "functional"; }

static void print_row(FILE *f, const char *name, const kernel_stats *k, int timing) {
    fprintf(f, "locsim: %-40s %8llu %14llu %12llu", name, (unsigned long long)k->launches,
            (unsigned long long)k->thread_insns, (unsigned long long)k->warp_insns);
    if (timing) {
        double ipc = k->cycles ? (double)k->thread_insns / (double)k->cycles : 0.0;
        fprintf(f, " %14llu %9.2f", (unsigned long long)k->cycles, ipc);
    }
    fputc('\n', f);
}

/* Whole-run figures of the timing model a user looks at first (all of them are
 * in the JSON report). */
static const char *const summary_stats[] = {
    "gpu_sim_cycle", "gpu_ipc", "L1D_total_cache_accesses", "L1D_total_cache_miss_rate", "L2_total_cache_accesses",
    "L2_total_cache_miss_rate", "dram_reads", "dram_writes", "averagemflatency",
};

static void print_timing_summary(FILE *f) {
    timing_state *t = cr.dev ? timing_of(cr.dev) : NULL;
    if (!t) return;
    for (size_t k = 0; k < sizeof summary_stats / sizeof *summary_stats; k++) {
        int id = stats_find(t->stats, summary_stats[k]);
        if (id < 0) continue;
        double v = stats_value(t->stats, STATS_TOTAL, id);
        if (v == (double)(uint64_t)v && v < 1e15) fprintf(f, "locsim: %-28s %llu\n", summary_stats[k], (unsigned long long)v);
        else fprintf(f, "locsim: %-28s %.4f\n", summary_stats[k], v);
    }
}

static void report_text(FILE *f) {
    int timing = cr.mode == LOCSIM_MODE_TIMING;
    fprintf(f, "locsim: ---- %s on %s (%s mode) ----\n", cr_program_name(), cr.config_name, mode_name());
    fprintf(f, "locsim: %-40s %8s %14s %12s", "kernel", "launches", "gpu_sim_insn", "warp_insns");
    if (timing) fprintf(f, " %14s %9s", "gpu_sim_cycle", "gpu_ipc");
    fputc('\n', f);
    for (int i = 0; i < nkernels; i++) print_row(f, table[i].name, &table[i], timing);
    kernel_stats t = totals();
    print_row(f, "total", &t, timing);
    print_timing_summary(f);
}

/* A JSON string: kernel names are mangled C++ identifiers, but escape anyway. */
static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void json_counts(FILE *f, const kernel_stats *k) {
    fprintf(f, "\"launches\": %llu, \"gpu_sim_insn\": %llu, \"warp_insns\": %llu, \"gpu_sim_cycle\": %llu",
            (unsigned long long)k->launches, (unsigned long long)k->thread_insns, (unsigned long long)k->warp_insns,
            (unsigned long long)k->cycles);
}

static void report_json(FILE *f) {
    fprintf(f, "{\n  \"program\": ");
    json_string(f, cr_program_name());
    fprintf(f, ",\n  \"config\": ");
    json_string(f, cr.config_name);
    fprintf(f, ",\n  \"mode\": \"%s\",\n  \"kernels\": [", mode_name());
    for (int i = 0; i < nkernels; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, table[i].name);
        fprintf(f, ", ");
        json_counts(f, &table[i]);
        fputc('}', f);
    }
    kernel_stats t = totals();
    fprintf(f, "%s],\n  \"total\": {", nkernels ? "\n  " : "");
    json_counts(f, &t);
    fprintf(f, "}");
    /* Timing mode: every statistic of every launch, as `locsim run --json` writes them. */
    timing_state *ts = cr.dev ? timing_of(cr.dev) : NULL;
    if (ts) {
        /* "inputs": what determined the statistics (sim/run_inputs.h) */
        int nwords = 0;
        char why[256];
        char **words = cr_split_words(getenv("LOCSIM_OPTIONS") ? getenv("LOCSIM_OPTIONS") : "", &nwords, why,
                                      sizeof why);
        run_inputs in = {.program = cr_program_name(), .config = cr.config_name, .noptions = words ? nwords : 0,
                         .options = words};
        fprintf(f, ",\n  \"timing\": ");
        timing_report_json_inputs(ts, f, &in);
        cr_free_words(words);
    }
    fprintf(f, "\n}\n");
}

void cr_stats_report(void) {
    const char *json = getenv("LOCSIM_JSON");
    if (json && *json) {
        /* whole or not at all: an earlier file survives a failed write */
        outfile o;
        if (outfile_open(&o, json) != 0) {
            cr_warn("cannot write statistics to %s (LOCSIM_JSON): %s; printing them here", json, strerror(errno));
        } else {
            report_json(o.f);
            if (outfile_commit(&o) == 0) return;
            cr_warn("error writing statistics to %s (LOCSIM_JSON): %s; printing them here", json, strerror(errno));
        }
    }
    fflush(stdout);
    report_text(stderr);
}

int cr_stats_kernels(void) { return nkernels; }

void cr_stats_free(void) {
    for (int i = 0; i < nkernels; i++) free(table[i].name);
    free(table);
    table = NULL;
    nkernels = cap_kernels = 0;
}
