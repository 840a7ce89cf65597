/* cp on locsim: the same launches as kernel.cu's main() (one per 64-atom chunk, each
 * adding into the grid); every point's potential is compared with the reference
 * within the summation-error bound ref.h derives.
 *
 * 256 x 24*S lattice points, 24*S atoms (ref.h says why).  Measured at the default
 * size 8, seed 1: see docs/workloads.md.  Working set: a 192 KB grid, atoms in
 * constant memory. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

static wl_result cp_simulate(wl_ctx *ctx, locsim_module *mod, const float *atoms, uint32_t natoms, uint32_t w,
                             uint32_t h, locsim_dptr *energy, float *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)w * h * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, energy, bytes));
    WL_CHECK(ctx, locsim_memset(dev, *energy, 0, bytes));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "cp_energy", &k));
    int32_t wi = (int32_t)w;
    locsim_dim3 grid = { w / (CP_BX * CP_UNROLL), h / CP_BY, 1 }, block = { CP_BX, CP_BY, 1 };
    for (uint32_t first = 0; first < natoms; first += CP_CHUNK) {
        int32_t n = (int32_t)(natoms - first < CP_CHUNK ? natoms - first : CP_CHUNK);
        WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_atoms", atoms + 4 * (size_t)first,
                                              (size_t)n * 4 * sizeof(float), 0));
        void *args[] = { energy, &wi, &n };
        WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 3));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *energy, bytes));
    return WL_PASS;
}

static wl_result cp_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, CP_MAX_SIZE)) return WL_ERROR;
    uint32_t w = CP_WIDTH, h = cp_height(ctx->size), natoms = cp_atoms(ctx->size);
    size_t points = (size_t)w * h;
    float *atoms = cp_generate(natoms, w, h, ctx->seed);
    double *pot = malloc(points * sizeof(double)), *tol = malloc(points * sizeof(double));
    float *got = malloc(points * sizeof(float));
    wl_result r = WL_ERROR;
    if (!atoms || !pot || !tol || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        cp_reference(atoms, natoms, w, h, pot, tol);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr energy = 0;
            r = cp_simulate(ctx, mod, atoms, natoms, w, h, &energy, got);
            WL_FREE_BUFFERS(ctx->dev, &energy);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) {
            int64_t bad = cp_first_bad(got, pot, tol, points);
            if (bad >= 0)
                r = wl_fail(ctx, "point (%lld, %lld): got %.9g, expected %.9g (tolerance %.3g)",
                            (long long)(bad % w), (long long)(bad / w), got[bad], pot[bad], tol[bad]);
        }
    }
    free(atoms); free(pot); free(tol); free(got);
    return r;
}

const workload wl_cp = {
    "cp",
    "Coulombic potential (Parboil CP): direct sum over atoms in constant memory, 8 points per thread; "
    "S = 256 x 24*S points, 24*S atoms",
    8,
    { 1, 2 },
    cp_run,
    CP_MAX_SIZE,
};
