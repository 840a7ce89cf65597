/* hotspot on locsim: the same launches as kernel.cu's main(), checked cell by cell
 * against the CPU stencil within the rounding bound of hotspot_tolerance (ref.h).
 *
 * Measured at the default size 16, seed 1: 104.1 M thread instructions
 * (gpu_sim_insn).  Working set: 389^2 cells x 3 arrays = 1.8 MB. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr power, temp[2];
} hotspot_device;

/* Runs HOTSPOT_STEPS steps; the final temperatures land in temp. */
static wl_result hotspot_simulate(wl_ctx *ctx, locsim_module *mod, int32_t n, const float *power, float *temp,
                                  hotspot_device *d) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)n * n * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->power, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->temp[0], bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->temp[1], bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->power, power, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->temp[0], temp, bytes));

    locsim_kernel *step;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hotspot_step", &step));
    hotspot_coeffs c = hotspot_coefficients(n);
    int src = 0;
    for (int done = 0; done < HOTSPOT_STEPS; done += HOTSPOT_PYRAMID) {
        int32_t steps = HOTSPOT_STEPS - done < HOTSPOT_PYRAMID ? HOTSPOT_STEPS - done : HOTSPOT_PYRAMID;
        uint32_t out_side = (uint32_t)(HOTSPOT_TILE - 2 * steps);
        uint32_t tiles = ((uint32_t)n + out_side - 1) / out_side;
        locsim_dim3 grid = { tiles, tiles, 1 };
        locsim_dim3 block = { HOTSPOT_TILE, HOTSPOT_TILE, 1 };
        void *args[] = { &d->power, &d->temp[src], &d->temp[1 - src], &n, &steps,
                         &c.cx, &c.cy, &c.cz, &c.cp, &c.amb };
        WL_CHECK(ctx, locsim_launch(step, grid, block, 0, args, 10));
        src = 1 - src;
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, temp, d->temp[src], bytes));
    return WL_PASS;
}

static wl_result hotspot_run(wl_ctx *ctx) {
    int32_t n = hotspot_side(ctx->size);
    size_t bytes = (size_t)n * n * sizeof(float);
    float *power = (float *)malloc(bytes), *temp = (float *)malloc(bytes);
    float *expected = (float *)malloc(bytes), *scratch = (float *)malloc(bytes);
    wl_result r = WL_ERROR;
    if (!power || !temp || !expected || !scratch) {
        r = wl_out_of_memory(ctx);
    } else {
        hotspot_generate(n, ctx->seed, power, temp);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            hotspot_device d;
            memset(&d, 0, sizeof d);
            r = hotspot_simulate(ctx, mod, n, power, temp, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.power, &d.temp[0], &d.temp[1]);
            locsim_module_unload(mod);
        }
    }
    if (r == WL_PASS) {
        hotspot_coeffs c = hotspot_coefficients(n);
        hotspot_generate(n, ctx->seed, power, expected);
        hotspot_reference(n, &c, power, expected, scratch);
        int64_t bad = hotspot_first_mismatch(n, temp, expected);
        if (bad >= 0)
            r = wl_fail(ctx, "temp[%lld] (row %lld, col %lld): got %.9g, expected %.9g", (long long)bad,
                        (long long)(bad / n), (long long)(bad % n), (double)temp[bad], (double)expected[bad]);
    }
    free(power); free(temp); free(expected); free(scratch);
    return r;
}

const workload wl_hotspot = {
    "hotspot",
    "thermal RC stencil, 16x16 shared tiles with 2-cell ghost zone, 5 steps ping-pong; size S = (24*S+5)^2 cells",
    16,
    { 1, 2 },
    hotspot_run,
    0,   /* max_size: no fixed limit */
};
