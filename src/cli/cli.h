/* The locsim command: one function per subcommand, dispatched from main.c. */
#ifndef LOCSIM_CLI_H
#define LOCSIM_CLI_H

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_run_all(int argc, char **argv);
int cmd_exec(int argc, char **argv);   /* cmd_exec.c: run an unmodified CUDA program */
int cmd_compare(int argc, char **argv); /* cmd_compare.c: IPC / L1D table across warp schedulers */
int cmd_sweep(int argc, char **argv);   /* cmd_sweep.c: locsim sweep (src/harness/) */
int cmd_report(int argc, char **argv);  /* cmd_sweep.c: locsim report (src/harness/) */
int cmd_ubench(int argc, char **argv);    /* cmd_ubench.c: microbenchmarks against the configuration */

/* cmd_run.c helpers shared with cmd_compare.c */
#include "locsim/locsim.h"
/* Load a configuration with "-option value" overrides; prints the error. */
int cli_load_config(const char *name, int noverrides, char **overrides, locsim_config **out);
/* A statistic of the whole run of a timing-mode device by name (0 if none). */
double cli_timing_stat(locsim_device *dev, const char *name);

/* Host wall-clock seconds (for simulation-rate figures only, never in statistics). */
double cli_now_seconds(void);

#endif
