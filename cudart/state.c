/* Global state of the runtime replacement: the lock, the device, error codes. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cudart.h"
#include "sim/progress.h"

cr_state cr;

/* The last error is per host thread, as in the CUDA runtime; sticky errors (a
 * faulted kernel) belong to the device and are in cr. */
static _Thread_local cudaError_t last_error;

/* One lock for the whole runtime: host threads may call it concurrently, and the
 * simulator is single-threaded.  Recursive because public entry points call each
 * other (cudaMemcpyAsync -> cudaMemcpy). */
static pthread_mutex_t cr_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void cr_lock(void) { pthread_mutex_lock(&cr_mutex); }
void cr_unlock(void) { pthread_mutex_unlock(&cr_mutex); }

const char *cr_program_name(void) {
    extern char *program_invocation_name;  /* glibc: argv[0] */
    return program_invocation_name && *program_invocation_name ? program_invocation_name : "program";
}

void cr_warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);  /* keep the program's output and ours in order on a terminal */
    fputs("locsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cr_die(const char *fmt, ...) {
    va_list ap;
    cr.died = 1;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("locsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

locsim_device *cr_device(void) {
    if (cr.dev) return cr.dev;
    cr_reserve_device_range();
    char err[1024];
    if (cr_config_from_env(&cr.cfg, &cr.mode, cr.config_name, sizeof cr.config_name, err, sizeof err) != 0)
        cr_die("%s", err);
    /* The timing model is always linked in: a failure here is a real error (a
     * configuration the timing model rejects), never a reason to run functionally. */
    locsim_status st = locsim_device_create(cr.cfg, cr.mode, &cr.dev);
    if (st != LOCSIM_OK)
        cr_die("cannot create the simulated GPU (config %s, %s mode): %s", cr.config_name,
               cr.mode == LOCSIM_MODE_TIMING ? "timing" : "functional", locsim_last_error(NULL));
    if (locsim_config_memcheck(cr.cfg)) locsim_set_memcheck(cr.dev, 1); /* -memcheck 1 / --memcheck */
    cr_apply_limits(cr.dev);   /* cudaLimitStackSize, cudaLimitPrintfFifoSize */
    cr_devinfo_init(&cr.info, cr.dev);
    cr_install_signal_handlers();
    cr_load_modules();
    return cr.dev;
}

cudaError_t cr_enter(void) {
    cr_lock();
    if (cr.unloading) return cudaErrorCudartUnloading;
    if (cr.sticky_error != cudaSuccess) return cr.sticky_error;
    cr_device();
    return cudaSuccess;
}

cudaError_t cr_leave(cudaError_t e) {
    cr_record(e);
    cr_unlock();
    return e;
}

cudaError_t cr_from_status(locsim_status s) {
    switch (s) {
    case LOCSIM_OK: return cudaSuccess;
    case LOCSIM_ERR_INVALID: return cudaErrorInvalidValue;
    case LOCSIM_ERR_PARSE: return cudaErrorInvalidPtx;
    case LOCSIM_ERR_UNSUPPORTED: return cudaErrorInvalidPtx;
    case LOCSIM_ERR_NOT_FOUND: return cudaErrorInvalidSymbol;
    case LOCSIM_ERR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case LOCSIM_ERR_LAUNCH: return cudaErrorInvalidConfiguration;
    case LOCSIM_ERR_KERNEL_FAULT: return cudaErrorIllegalAddress;
    case LOCSIM_ERR_DEADLOCK: return cudaErrorLaunchFailure;
    case LOCSIM_ERR_CONFIG: return cudaErrorInvalidValue;
    case LOCSIM_ERR_IO: return cudaErrorUnknown;
    case LOCSIM_ERR_INTERRUPTED: return cudaErrorLaunchFailure;
    case LOCSIM_ERR_ASSERT: return cudaErrorAssert;
    }
    return cudaErrorUnknown;
}

/* ---- error names and strings (the real runtime's wording, so programs that print
 * cudaGetErrorString see what they would on a GPU) ---- */
typedef struct {
    cudaError_t code;
    const char *name;
    const char *text;
} error_desc;

static const error_desc error_table[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

static const error_desc *find_error(cudaError_t e) {
    for (size_t i = 0; i < sizeof error_table / sizeof *error_table; i++)
        if (error_table[i].code == e) return &error_table[i];
    return NULL;
}

const char *cudaGetErrorString(cudaError_t e) {
    const error_desc *d = find_error(e);
    return d ? d->text : "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e) {
    const error_desc *d = find_error(e);
    return d ? d->name : "cudaErrorUnknown";
}

/* Non-sticky errors are returned once and cleared; a sticky error (a kernel fault
 * has corrupted the context) stays until cudaDeviceReset, as on a GPU. */
cudaError_t cr_record(cudaError_t e) {
    if (e != cudaSuccess && e != cudaErrorNotReady) last_error = e;
    return e;
}

void cr_clear_errors(void) {
    last_error = cudaSuccess;
    cr.sticky_error = cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
    cr_lock();
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    if (cr.sticky_error != cudaSuccess) e = cr.sticky_error;
    cr_unlock();
    return e;
}

cudaError_t cudaPeekAtLastError(void) {
    cr_lock();
    cudaError_t e = cr.sticky_error != cudaSuccess ? cr.sticky_error : last_error;
    cr_unlock();
    return e;
}

/* ---- SIGINT / SIGTERM / SIGHUP: partial statistics, then die of the signal ----
 * Inside a timing-mode kernel the handler only asks the simulator to stop (it does
 * so within 2^14 cycles, progress.h) and run_kernel reports; anywhere else (host
 * code, a functional-mode kernel, a second signal) the handler reports at once.
 * Reporting from a handler uses stdio: a program interrupted inside its own stderr
 * output or malloc could deadlock there, which is the price of seeing the partial
 * statistics; `kill -9` always works. */
static volatile sig_atomic_t in_timing_kernel;

void cr_die_by_signal(int sig) {
    static volatile sig_atomic_t dying;
    if (!dying) {
        dying = 1;
        fflush(stdout);
        fprintf(stderr, "locsim: %s stopped by signal %d (%s): statistics so far\n", cr_program_name(), sig,
                strsignal(sig));
        if (!cr.unloading) {
            cr.unloading = 1;  /* the exit-time report is this one */
            cr_stats_report();
        }
    }
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void on_stop_signal(int sig) {
    if (in_timing_kernel && !progress_stop_signal()) {
        progress_request_stop(sig);
        return;
    }
    cr_die_by_signal(sig);
}

void cr_set_in_kernel(int timing) { in_timing_kernel = timing; }

/* Install the handlers where the program left the default action (a program with
 * its own handlers, or run with the signal ignored, keeps them). */
void cr_install_signal_handlers(void) {
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
        struct sigaction sa = {.sa_handler = on_stop_signal};
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

void cr_unsupported(const char *name) {
    cr_die("unsupported CUDA runtime call %s (%s uses a part of the CUDA runtime locsim does not implement)",
           name, cr_program_name());
}

/* At exit: report, then release everything so leak checkers stay quiet. */
__attribute__((destructor)) static void cr_fini(void) {
    cr_lock();
    if (!cr.unloading) {
        cr.unloading = 1;
        /* After a fatal error before any kernel ran, a table of zeros is noise. */
        if (!cr.died || cr_stats_kernels() > 0) cr_stats_report();
        cr_release_regions(0);
        cr_release_modules();
        cr_forget_allocations();
        if (cr.dev) locsim_device_destroy(cr.dev);
        cr.dev = NULL;
        locsim_config_free(cr.cfg);
        cr.cfg = NULL;
        cr_free_registrations();
        cr_stats_free();
    }
    cr_unlock();
}
