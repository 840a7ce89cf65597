/* Progress lines and stop requests: see progress.h. */
#include "sim/progress.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TTY_FIRST_S 3.0    /* a live line only for runs longer than this */
#define TTY_EVERY_S 1.0
#define LOG_EVERY_S 10.0   /* not a terminal: one line this often */

static struct {
    int quiet;             /* -1: not decided yet (LOCSIM_QUIET) */
    int tty;               /* -1: not probed yet */
    char kernel[96];
    double start_s, next_s;
    int shown;             /* a live line is on the terminal */
} P = {.quiet = -1, .tty = -1};

static volatile sig_atomic_t stop_signal;

static double host_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_set_quiet(int quiet) { P.quiet = quiet != 0; }

int progress_quiet(void) {
    if (P.quiet < 0) {
        const char *q = getenv("LOCSIM_QUIET");
        P.quiet = q && *q && strcmp(q, "0") != 0;
    }
    return P.quiet;
}

void progress_kernel_begin(const char *kernel) {
    if (P.tty < 0) P.tty = isatty(STDERR_FILENO);
    snprintf(P.kernel, sizeof P.kernel, "%s", kernel ? kernel : "?");
    P.start_s = host_seconds();
    P.next_s = P.start_s + (P.tty ? TTY_FIRST_S : LOG_EVERY_S);
}

void progress_kernel_end(void) {
    if (P.shown) {
        fprintf(stderr, "\r%*s\r", 100, "");
        fflush(stderr);
        P.shown = 0;
    }
}

static void show(uint64_t cycles, uint64_t insns, double now) {
    double secs = now - P.start_s;
    const char *end = P.tty ? "   " : "\n";
    fprintf(stderr, "%slocsim: kernel %s: %llu cycles, %llu thread insns, %.2f M insn/s, %.0f s%s%s",
            P.tty ? "\r" : "", P.kernel, (unsigned long long)cycles, (unsigned long long)insns,
            secs > 0 ? insns / secs / 1e6 : 0.0, secs,
            P.tty ? " (-gpgpu_max_cycle N ends the timing part)"
                  : " (-gpgpu_max_cycle N or -gpgpu_max_insn N ends the timing simulation, a signal stops the run; "
                    "-quiet hides this line)",
            end);
    fflush(stderr);
    P.shown = P.tty;
}

void progress_tick(uint64_t cycles, uint64_t insns) {
    if (progress_quiet()) return;
    double now = host_seconds();
    if (now < P.next_s) return;
    show(cycles, insns, now);
    P.next_s = now + (P.tty ? TTY_EVERY_S : LOG_EVERY_S);
}

void progress_request_stop(int sig) { stop_signal = sig ? sig : SIGINT; }

int progress_stop_signal(void) { return stop_signal; }
