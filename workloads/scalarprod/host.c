/* scalarprod on locsim: the same launch as kernel.cu's main(); every pair's product
 * is compared bit for bit with the reference.
 *
 * 128*S pairs of 4096-element vectors (ref.h says why). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

static wl_result sp_simulate(wl_ctx *ctx, locsim_module *mod, const float *a, const float *b, uint32_t pairs,
                             locsim_dptr *d_a, locsim_dptr *d_b, locsim_dptr *d_out, float *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)pairs * SP_ELEMS * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, d_a, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, d_b, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, d_out, pairs * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_a, a, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *d_b, b, bytes));
    /* Locality Descriptors (docs/ldesc.md; Table 2: SP NO_REUSE): each element of a
     * and b is read once (a warp reads 32 consecutive elements, one line) and each
     * result written once; the partial sums live in shared memory.  CTA v reads the
     * vectors of pair v (D-Tile = one vector of SP_ELEMS, C-Tile = one CTA; the
     * pairs v + k x grid it loops over after that follow the same pattern), which
     * NUMA placement uses (docs/numa.md). */
    locsim_ldesc da = wl_ldesc(*d_a, bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    da.data_tile.x = SP_ELEMS;
    locsim_ldesc db = da;
    db.base = *d_b;
    locsim_ldesc dout = wl_ldesc(*d_out, pairs * sizeof(float), LOCSIM_LDESC_NO_REUSE, sizeof(float));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &da, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &db, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dout, NULL));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sp_kernel", &k));
    int32_t pi = (int32_t)pairs;
    void *args[] = { d_out, d_a, d_b, &pi };
    locsim_dim3 grid = { pairs < SP_CTAS ? pairs : SP_CTAS, 1, 1 }, block = { SP_THREADS, 1, 1 };
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, *d_out, pairs * sizeof(float)));
    return WL_PASS;
}

static wl_result sp_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, SP_MAX_SIZE)) return WL_ERROR;
    uint32_t pairs = sp_pairs(ctx->size);
    float *a = NULL, *b = NULL;
    int have = sp_generate(pairs, ctx->seed, &a, &b);
    float *acc = malloc(SP_ACCUM * sizeof(float)), *want = malloc(pairs * sizeof(float));
    float *got = malloc(pairs * sizeof(float));
    wl_result r = WL_ERROR;
    if (!have || !acc || !want || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        sp_reference(a, b, pairs, acc, want);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr d_a = 0, d_b = 0, d_out = 0;
            r = sp_simulate(ctx, mod, a, b, pairs, &d_a, &d_b, &d_out, got);
            WL_FREE_BUFFERS(ctx->dev, &d_a, &d_b, &d_out);
            locsim_module_unload(mod);
        }
        /* bit-for-bit: the kernel performs the reference's float operations */
        for (uint32_t v = 0; r == WL_PASS && v < pairs; v++)
            if (memcmp(&got[v], &want[v], sizeof(float)) != 0)
                r = wl_fail(ctx, "pair %u: got %.9g, expected %.9g", v, got[v], want[v]);
    }
    free(a); free(b); free(acc); free(want); free(got);
    return r;
}

const workload wl_scalarprod = {
    "scalarprod",
    "SDK scalar product, many vector pairs, per-thread partial sums + shared-memory tree; size S = 128*S pairs of 4096",
    4,
    { 1, 2 },
    sp_run,
    SP_MAX_SIZE,
};
