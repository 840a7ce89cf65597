/* lavamd on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

static const char *const component_names[4] = {"potential", "force.x", "force.y", "force.z"};

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, LAVAMD_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    uint32_t b1 = lavamd_boxes1d(ctx->size), nboxes = b1 * b1 * b1, npar = nboxes * LAVAMD_PAR;
    locsim_module *mod = NULL;
    locsim_dptr d_particles = 0, d_forces = 0, d_count = 0, d_list = 0;
    lavamd_particle *p = (lavamd_particle *)malloc(npar * sizeof(lavamd_particle));
    float *got = (float *)malloc(npar * 4 * sizeof(float));
    double *want = (double *)malloc(npar * 4 * sizeof(double)), *tol = (double *)malloc(npar * 4 * sizeof(double));
    int *count = (int *)malloc(nboxes * sizeof(int)), *list = (int *)malloc(nboxes * LAVAMD_MAX_NBRS * sizeof(int));
    if (!p || !got || !want || !tol || !count || !list) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    lavamd_gen(b1, ctx->seed, p);
    lavamd_neighbours(b1, count, list);
    lavamd_ref(b1, p, count, list, want, tol);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "lavamd_forces", &k));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_particles, npar * sizeof(lavamd_particle)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_forces, npar * sizeof(lavamd_force)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_count, nboxes * sizeof(int)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d_list, nboxes * LAVAMD_MAX_NBRS * sizeof(int)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_particles, p, npar * sizeof(lavamd_particle)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_count, count, nboxes * sizeof(int)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d_list, list, nboxes * LAVAMD_MAX_NBRS * sizeof(int)));
    /* Locality Descriptors (docs/ldesc.md; Table 2: LMD INTRA_THREAD and INTER_THREAD
     * COACCESSED REGULAR): a box's particles (one D-Tile of LAVAMD_PAR) are read by
     * its own CTA and by the CTAs of its neighbour boxes; each CTA walks its own
     * neighbour-list row (INTRA_THREAD: ours keeps the per-thread working set in
     * registers and local memory, which no descriptor covers); forces are written once. */
    {
        locsim_ldesc dp = wl_ldesc(d_particles, npar * sizeof(lavamd_particle), LOCSIM_LDESC_INTER_THREAD,
                                   sizeof(lavamd_particle));
        dp.data_tile.x = LAVAMD_PAR;
        dp.stride = 1;
        dp.priority = 1;
        locsim_ldesc dl = wl_ldesc(d_list, nboxes * LAVAMD_MAX_NBRS * sizeof(int), LOCSIM_LDESC_INTRA_THREAD,
                                   sizeof(int));
        dl.data_tile.x = LAVAMD_MAX_NBRS;
        locsim_ldesc df = wl_ldesc(d_forces, npar * sizeof(lavamd_force), LOCSIM_LDESC_NO_REUSE, sizeof(lavamd_force));
        df.data_tile.x = LAVAMD_PAR;   /* CTA (box) b writes its box's forces (NUMA placement) */
        WL_TRY(ctx, locsim_ldesc_attach(ctx->dev, &dp, NULL));
        WL_TRY(ctx, locsim_ldesc_attach(ctx->dev, &dl, NULL));
        WL_TRY(ctx, locsim_ldesc_attach(ctx->dev, &df, NULL));
    }

    float a2 = LAVAMD_A2, cutoff2 = LAVAMD_CUTOFF2;
    void *args[] = {&d_particles, &d_count, &d_list, &d_forces, &a2, &cutoff2};
    locsim_dim3 grid = {nboxes, 1, 1}, block = {LAVAMD_BLOCK, 1, 1};
    WL_TRY(ctx, locsim_launch(k, grid, block, 0, args, 6));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, got, d_forces, npar * sizeof(lavamd_force)));

    uint32_t bad = lavamd_first_mismatch(npar * 4, got, want, tol);
    if (bad < npar * 4)
        result = wl_fail(ctx, "particle %u %s = %.9g, expected %.9g (tolerance %.3g)", bad / 4,
                         component_names[bad % 4], (double)got[bad], want[bad], tol[bad]);
    else
        result = WL_PASS;

out:
    WL_FREE_BUFFERS(ctx->dev, &d_list, &d_count, &d_forces, &d_particles);
    if (mod) locsim_module_unload(mod);
    free(p);
    free(got);
    free(want);
    free(tol);
    free(count);
    free(list);
    return result;
}

const workload wl_lavamd = {
    "lavamd",
    "lavaMD-style particle forces over neighbour boxes (shared staging, per-thread cutoff list in local "
    "memory, expf); --size S: (S+1)^3 boxes of 24 particles",
    LAVAMD_DEFAULT_SIZE,
    {1, 2},
    run,
    LAVAMD_MAX_SIZE,
};
