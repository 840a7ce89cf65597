/* locsim: command-line entry point. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "sim/config.h"
#include "sim/outfile.h"

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *usage;
} command;

/* Weak so the binary links while a subcommand's file is still being written. */
__attribute__((weak)) int cmd_exec(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "locsim: 'exec' is not built into this binary\n");
    return 2;
}

static const command commands[] = {
    {"list", cmd_list, "list                          list the workloads (name and description)"},
    {"run", cmd_run, "run <workload> [--size S] [--seed N] [--config NAME|FILE] [-option value ...]\n"
                     "          [--json FILE] [--stats] [--functional]\n"
                     "                                run one workload (timing model unless --functional; default\n"
                     "                                config fermi_gtx480), check it, print counts and statistics"},
    {"run-all", cmd_run_all, "run-all [--seed N] [--functional]\n"
                             "                                run every workload at its default size, print a summary"},
    {"compare", cmd_compare, "compare <workload...|all> [--config NAME] [--sched lrr,gto,two_level] [--size S]\n"
                             "          [--seed N] [-option value ...]\n"
                             "                                IPC and L1D miss rate per workload and warp scheduler"},
    {"sweep", cmd_sweep, "sweep SPEC [--jobs N] [--db FILE] [--retry-failed] [--dry-run]\n"
                         "          [--slurm [--partition P] [--time T] [--array-max N]] [--collect]\n"
                         "          [--accept [--sample N]]\n"
                         "                                run what a sweep spec's results database lacks\n"
                         "                                (docs/harness.md)"},
    {"report", cmd_report, "report SPEC [--db FILE] [--out DIR]\n"
                           "                                the spec's tables and charts: Markdown + HTML"},
    {"ubench", cmd_ubench, "ubench [--config NAME|FILE] [--only PREFIX[,...]] [-option value ...]\n"
                           "                                microbenchmarks: each latency/throughput the configuration\n"
                           "                                sets, measured and checked (exit 1 on any FAIL)"},
    {"exec", cmd_exec, "exec [options] -- ./app args   run an unmodified CUDA program (libcudart replacement)"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: locsim <command> [options]\n       locsim --help-options   list every configuration option\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) fprintf(out, "  %s\n", commands[i].usage);
}

double cli_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A write to a closed pipe fails with EPIPE instead of killing locsim silently,
 * so that it is reported (outfile_finish_stdout).  A handler, not SIG_IGN: the
 * programs locsim starts (exec, sweeps) get the default disposition back. */
static void on_sigpipe(int sig) { (void)sig; }

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--help-options")) {
        config_help(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "locsim: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

int main(int argc, char **argv) {
    struct sigaction sa = {.sa_handler = on_sigpipe};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
    int rc = dispatch(argc, argv);
    /* what was printed must have reached its destination (a full disk, a closed pipe) */
    if (outfile_finish_stdout("locsim") != 0 && rc == 0) rc = 1;
    return rc;
}
