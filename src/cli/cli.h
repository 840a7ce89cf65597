/* The locsim command: one function per subcommand, dispatched from main.c. */
#ifndef LOCSIM_CLI_H
#define LOCSIM_CLI_H

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_run_all(int argc, char **argv);
int cmd_exec(int argc, char **argv);   /* cmd_exec.c: run an unmodified CUDA program */

/* Host wall-clock seconds (for simulation-rate figures only, never in statistics). */
double cli_now_seconds(void);

#endif
