/* Progress of long simulations, on stderr, and stop requests (signals).
 *
 * On a terminal: a live line (rewritten every second, after the first 3 s) naming
 * the kernel, its cycles, thread instructions, the simulation rate and the elapsed
 * time.  Not on a terminal (logs, batch jobs): the same as one line every 10 s.  The
 * line says how -gpgpu_max_cycle / -gpgpu_max_insn end the timing simulation (the
 * rest of the program then runs functionally) and that a signal stops the run.
 * progress_set_quiet(1) (`-quiet`, LOCSIM_QUIET=1, the sweep harness) silences it.
 *
 * The simulator calls progress_tick() every few thousand cycles (never per cycle),
 * and the wall clock is read only there.  Nothing here is ever read back into the
 * simulation: statistics do not depend on it (determinism).
 *
 * A stop request (progress_request_stop, async-signal-safe: SIGINT/SIGTERM
 * handlers) makes the running kernel end at its next progress_tick with
 * LOCSIM_ERR_INTERRUPTED-like status, so the caller can report partial statistics.
 */
#ifndef LOCSIM_SIM_PROGRESS_H
#define LOCSIM_SIM_PROGRESS_H

#include <stdint.h>

void progress_set_quiet(int quiet);
int progress_quiet(void);

/* A kernel starts / ends (the live line is cleared at the end). */
void progress_kernel_begin(const char *kernel);
void progress_kernel_end(void);

/* Counters of the running kernel; cheap unless a line is due. */
void progress_tick(uint64_t cycles, uint64_t thread_insns);

/* Ask the running simulation to stop (signal number, for the message); safe in
 * a signal handler.  progress_stop_signal() is 0 until then. */
void progress_request_stop(int sig);
int progress_stop_signal(void);

#endif
