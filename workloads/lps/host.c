/* lps on locsim: the same launches as kernel.cu's main() (LPS_ITERS Jacobi sweeps,
 * ping-ponging two arrays); the final grid is compared bit for bit with the reference.
 *
 * 64 x 16*S x 32 points (ref.h says why).  Measured at the default size 8, seed 1:
 * see docs/workloads.md.  Working set: two 1 MB arrays. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

static wl_result lps_simulate(wl_ctx *ctx, locsim_module *mod, const float *u, uint32_t ny, locsim_dptr *a,
                              locsim_dptr *b, float *got) {
    locsim_device *dev = ctx->dev;
    int32_t nx = LPS_NX, nyi = (int32_t)ny, nz = LPS_NZ;
    size_t bytes = (size_t)LPS_NX * ny * LPS_NZ * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, a, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, b, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, *a, u, bytes));
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "lps_jacobi", &k));
    locsim_dim3 grid = { LPS_NX / LPS_BX, ny / LPS_BY, 1 }, block = { LPS_BX, LPS_BY, 1 };
    locsim_dptr in = *a, out = *b;
    for (int it = 0; it < LPS_ITERS; it++) {
        void *args[] = { &out, &in, &nx, &nyi, &nz };
        /* Locality Descriptors (docs/ldesc.md; Table 2: LPS NO_REUSE, INTRA_THREAD),
         * re-specified at every sweep as the arrays swap roles (the paper's §4.1):
         * the source is INTRA_THREAD (each thread marches up its own z column, the
         * original kernel reading each of its points at three consecutive planes;
         * ours keeps the column in registers and the plane in shared memory, so
         * what the L1D still reuses of it are the halo lines the neighbouring warps
         * and CTAs read), the destination NO_REUSE (written once). */
        int din, dout;
        locsim_ldesc ds = wl_ldesc(in, bytes, LOCSIM_LDESC_INTRA_THREAD, sizeof(float));
        locsim_ldesc dd = wl_ldesc(out, bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
        WL_CHECK(ctx, locsim_ldesc_attach(dev, &ds, &din));
        WL_CHECK(ctx, locsim_ldesc_attach(dev, &dd, &dout));
        WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 5));
        WL_CHECK(ctx, locsim_ldesc_detach(dev, din));
        WL_CHECK(ctx, locsim_ldesc_detach(dev, dout));
        locsim_dptr t = in;
        in = out;
        out = t;
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, in, bytes));
    return WL_PASS;
}

static wl_result lps_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, LPS_MAX_SIZE)) return WL_ERROR;
    uint32_t nx = LPS_NX, ny = lps_ny(ctx->size), nz = LPS_NZ;
    size_t n = (size_t)nx * ny * nz;
    float *u = lps_generate(nx, ny, nz, ctx->seed);
    float *tmp = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
    wl_result r = WL_ERROR;
    if (!u || !tmp || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            locsim_dptr a = 0, b = 0;
            r = lps_simulate(ctx, mod, u, ny, &a, &b, got);
            WL_FREE_BUFFERS(ctx->dev, &a, &b);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) {
            const float *want = lps_reference(u, tmp, nx, ny, nz);
            for (size_t p = 0; p < n; p++)
                if (memcmp(&got[p], &want[p], sizeof(float)) != 0) {
                    r = wl_fail(ctx, "point (%zu, %zu, %zu): got %.9g, expected %.9g", p % nx, p / nx % ny,
                                p / ((size_t)nx * ny), got[p], want[p]);
                    break;
                }
        }
    }
    free(u); free(tmp); free(got);
    return r;
}

const workload wl_lps = {
    "lps",
    "3-D Laplace solver (ISPASS LPS): 4 Jacobi sweeps of a 7-point stencil, shared x-y tile with halo, "
    "z-march per thread; S = 64 x 16*S x 32 grid",
    8,
    { 1, 2 },
    lps_run,
    LPS_MAX_SIZE,
};
