/* Timing mode of a device: timing_attach() builds the GPU from the device's
 * configuration and plugs the launch path into the runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/runtime.h"
#include "sim/gpu_internal.h"
#include "sim/progress.h"
#include "sim/timing.h"

/* Host time, for the progress line only (never in statistics). */
static double host_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Progress line and stop requests (sim/progress.h); never changes a statistic. */
static int on_progress(void *ctx, uint64_t cycles, uint64_t insns) {
    (void)ctx;
    progress_tick(cycles, insns);
    return progress_stop_signal() != 0;
}

/* A cap stopped the timing simulation: say so at once (GPGPU-Sim does too,
 * "break due to reaching the maximum ..."), before the functional rest, which
 * may be long (or never end). */
static void on_cap(void *ctx, const gpu_cap_info *cap) {
    (void)ctx;
    fprintf(stderr,
            "locsim: kernel '%s': timing simulation stopped at cycle %llu by %s (%llu thread instructions timed); "
            "the rest of the program runs functionally\n",
            cap->kernel_name, (unsigned long long)cap->cycle, cap->option, (unsigned long long)cap->thread_insns);
    fflush(stderr);
}

static void kernel_totals(const gpu *g, uint64_t *thread_insns, uint64_t *warp_insns) {
    *thread_insns = *warp_insns = 0;
    for (uint32_t s = 0; s < gpu_num_sms(g); s++) {
        *thread_insns += sm_stats(gpu_sm(g, s))->thread_insns;
        *warp_insns += sm_stats(gpu_sm(g, s))->warp_insns;
    }
}

static locsim_status timing_launch(void *ctx, const exec_launch *L, locsim_device *dev) {
    timing_state *t = ctx;
    uint64_t ti0, wi0, ti1, wi1;
    kernel_totals(t->g, &ti0, &wi0);
    uint64_t ff_t0 = gpu_stats(t->g)->ff_thread_insns, ff_w0 = gpu_stats(t->g)->ff_warp_insns;
    uint64_t c0 = gpu_stats(t->g)->cycles[CLK_CORE];
    double h0 = host_seconds();
    progress_kernel_begin(L->kernel->name);
    locsim_status st = gpu_run_kernel(t->g, L, dev->error, sizeof dev->error);
    progress_kernel_end();
    kernel_totals(t->g, &ti1, &wi1);
    /* after a fault the SMs were rebuilt with zeroed counters (gpu.c) */
    dev->counters.thread_insns += ti1 >= ti0 ? ti1 - ti0 : 0;
    dev->counters.warp_insns += wi1 >= wi0 ? wi1 - wi0 : 0;
    /* and what ran functionally (warm-up, past a window, after a cap): the
     * device counts every instruction the program executed */
    dev->counters.thread_insns += gpu_stats(t->g)->ff_thread_insns - ff_t0;
    dev->counters.warp_insns += gpu_stats(t->g)->ff_warp_insns - ff_w0;
    dev->counters.cycles += gpu_stats(t->g)->cycles[CLK_CORE] - c0;
    timing_stats_kernel_end(t, L, host_seconds() - h0);
    return st;
}

static void timing_destroy(void *ctx) {
    timing_state *t = ctx;
    if (!t) return;
    timing_stats_free(t);
    gpu_destroy(t->g);
    free(t->owned_cfg);
    free(t);
}

static void timing_memcpy_touch(void *ctx, uint64_t addr, uint64_t bytes) {
    timing_state *t = ctx;
    gpu_memcpy_touch(t->g, addr, bytes);
}

static const locsim_timing_ops timing_ops = {
    .launch = timing_launch, .destroy = timing_destroy, .memcpy_touch = timing_memcpy_touch};

locsim_status timing_attach(locsim_device *dev) {
    timing_state *t = calloc(1, sizeof *t);
    if (!t) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory");
    char err[512];
    const sim_config *cfg = dev->cfg;
    if (!cfg) { /* no configuration given: the defaults (fermi_gtx480's values) */
        t->owned_cfg = malloc(sizeof *t->owned_cfg);
        if (!t->owned_cfg) {
            free(t);
            return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory");
        }
        config_defaults(t->owned_cfg);
        if (config_finalize(t->owned_cfg, err, sizeof err)) {
            timing_destroy(t);
            return runtime_error(dev, LOCSIM_ERR_CONFIG, "default configuration: %s", err);
        }
        cfg = t->owned_cfg;
    }
    t->cfg = cfg;
    gpu_params p;
    if (gpu_params_from_config(cfg, &p, err, sizeof err) || gpu_params_validate(&p, err, sizeof err) ||
        !(t->g = gpu_create(&p, err, sizeof err))) {
        timing_destroy(t);
        return runtime_error(dev, LOCSIM_ERR_CONFIG, "timing model: %s", err);
    }
    if (timing_stats_init(t, err, sizeof err)) {
        timing_destroy(t);
        return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "timing model: %s", err);
    }
    gpu_set_progress(t->g, on_progress, t);
    gpu_set_cap_hook(t->g, on_cap, t);
    dev->timing_ops = &timing_ops;
    dev->timing = t;
    dev->num_sms = p.num_sms;
    dev->max_smem_per_cta = p.sm.smem_size;
    dev->memcheck = cfg->memcheck;
    return LOCSIM_OK;
}
