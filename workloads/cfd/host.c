/* cfd on locsim: the same launches as kernel.cu's main(), checked against the CPU
 * solver with the tolerance justified in ref.h. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Device buffers; zero means "not allocated", so cleanup works from any point. */
typedef struct {
    locsim_dptr variables, old, fluxes, normals, areas, step, neighbours;
} cfd_device;

static wl_result cfd_upload(wl_ctx *ctx, locsim_module *mod, const cfd_input *in, cfd_device *d) {
    locsim_device *dev = ctx->dev;
    size_t n = (size_t)in->n, nv = n * CFD_NVAR * sizeof(float);
    size_t nn = n * CFD_FACES * 3 * sizeof(float), ni = n * CFD_FACES * sizeof(int32_t);
    cfd_far_field ff;
    cfd_far_field_init(&ff);
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "cfd_ff_flux", ff.flux, sizeof ff.flux, 0));
    WL_CHECK(ctx, locsim_malloc(dev, &d->variables, nv));
    WL_CHECK(ctx, locsim_malloc(dev, &d->old, nv));
    WL_CHECK(ctx, locsim_malloc(dev, &d->fluxes, nv));
    WL_CHECK(ctx, locsim_malloc(dev, &d->normals, nn));
    WL_CHECK(ctx, locsim_malloc(dev, &d->areas, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->step, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->neighbours, ni));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->variables, in->variables, nv));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->normals, in->normals, nn));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->areas, in->areas, n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->neighbours, in->neighbours, ni));
    return WL_PASS;
}

/* Runs CFD_ITERATIONS iterations; copies the final variables into result. */
static wl_result cfd_simulate(wl_ctx *ctx, locsim_module *mod, const cfd_input *in, cfd_device *d,
                              float *result) {
    locsim_device *dev = ctx->dev;
    wl_result r = cfd_upload(ctx, mod, in, d);
    if (r != WL_PASS) return r;
    locsim_kernel *step_factor, *flux, *time_step;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "cfd_step_factor", &step_factor));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "cfd_compute_flux", &flux));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "cfd_time_step", &time_step));
    int32_t n = in->n, stage = 0;
    size_t nv = (size_t)n * CFD_NVAR * sizeof(float);
    locsim_dim3 grid = { ((uint32_t)n + CFD_BLOCK - 1) / CFD_BLOCK, 1, 1 }, block = { CFD_BLOCK, 1, 1 };
    void *step_args[] = { &n, &d->variables, &d->areas, &d->step };
    void *flux_args[] = { &n, &d->neighbours, &d->normals, &d->variables, &d->fluxes };
    void *time_args[] = { &stage, &n, &d->old, &d->variables, &d->step, &d->fluxes };
    for (int it = 0; it < CFD_ITERATIONS; it++) {
        WL_CHECK(ctx, locsim_memcpy_dtod(dev, d->old, d->variables, nv));
        WL_CHECK(ctx, locsim_launch(step_factor, grid, block, 0, step_args, 4));
        for (stage = 0; stage < CFD_RK; stage++) {
            WL_CHECK(ctx, locsim_launch(flux, grid, block, 0, flux_args, 5));
            WL_CHECK(ctx, locsim_launch(time_step, grid, block, 0, time_args, 6));
        }
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, result, d->variables, nv));
    return WL_PASS;
}

static wl_result cfd_check(wl_ctx *ctx, const cfd_input *in, const float *result) {
    size_t count = (size_t)in->n * CFD_NVAR;
    float *expected = (float *)malloc(count * sizeof(float));
    if (!expected || cfd_reference(in, expected) != 0) {
        free(expected);
        return wl_out_of_memory(ctx);
    }
    wl_result r = WL_PASS;
    size_t bad = cfd_first_mismatch(count, result, expected);
    if (bad < count)
        r = wl_fail(ctx, "variable %zu of cell %zu: got %.9g, expected %.9g (tolerance %g relative to 1+|expected|)",
                    bad / (size_t)in->n, bad % (size_t)in->n, result[bad], expected[bad], CFD_TOLERANCE);
    free(expected);
    return r;
}

static wl_result cfd_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, CFD_MAX_SIZE)) return WL_ERROR;
    cfd_input in;
    if (cfd_generate(&in, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    float *result = (float *)malloc((size_t)in.n * CFD_NVAR * sizeof(float));
    locsim_module *mod = result ? wl_load_module(ctx) : NULL;
    wl_result r = WL_ERROR;
    if (!result) r = wl_out_of_memory(ctx);
    if (mod) {
        cfd_device d;
        memset(&d, 0, sizeof d);
        r = cfd_simulate(ctx, mod, &in, &d, result);
        WL_FREE_BUFFERS(ctx->dev, &d.variables, &d.old, &d.fluxes, &d.normals, &d.areas, &d.step, &d.neighbours);
        locsim_module_unload(mod);
        if (r == WL_PASS) r = cfd_check(ctx, &in, result);
    }
    free(result);
    cfd_free(&in);
    return r;
}

const workload wl_cfd = {
    "cfd",
    "unstructured-mesh Euler solver (neighbour gathers through an index array, div/sqrt fluxes, far field in "
    "__constant__), 2 iterations x 3 RK stages; size S = 64*(4S+1) cells",
    CFD_DEFAULT_SIZE,
    { 1, 2 },
    cfd_run,
    CFD_MAX_SIZE,
};
