/* lib on locsim: the same launch as kernel.cu's main(); every path's discounted
 * portfolio value is compared with the double-precision reference within the error
 * budget ref.h works out.
 *
 * 256*S paths of 40 forward rates over 20 steps (ref.h says why).  Measured at the
 * default size 16, seed 1: see docs/workloads.md.  Working set: 480 bytes of local
 * memory per thread (2 MB at 4096 threads), 320 KB of Gaussian increments. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr values, z, l0;
} lib_device;

static wl_result lib_set_constants(wl_ctx *ctx, locsim_module *mod, const lib_market *m) {
    const int32_t n = LIB_N, nmat = LIB_NMAT, nopt = LIB_NOPT;
    const float delta = LIB_DELTA;
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_n", &n, sizeof n, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_nmat", &nmat, sizeof nmat, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_nopt", &nopt, sizeof nopt, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_delta", &delta, sizeof delta, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_maturities", m->maturities, sizeof m->maturities, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_swaprates", m->swaprates, sizeof m->swaprates, 0));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_lambda", m->lambda, sizeof m->lambda, 0));
    return WL_PASS;
}

static wl_result lib_simulate(wl_ctx *ctx, locsim_module *mod, const lib_market *m, const float *z,
                              uint32_t paths, lib_device *d, float *got) {
    locsim_device *dev = ctx->dev;
    size_t zbytes = (size_t)paths * LIB_NMAT * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->values, paths * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->z, zbytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->l0, sizeof m->l0));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->z, z, zbytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->l0, m->l0, sizeof m->l0));
    wl_result r = lib_set_constants(ctx, mod, m);
    if (r != WL_PASS) return r;
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "lib_portfolio", &k));
    int32_t np = (int32_t)paths;
    void *args[] = { &d->values, &d->z, &d->l0, &np };
    locsim_dim3 grid = { (paths + LIB_BLOCK - 1) / LIB_BLOCK, 1, 1 }, block = { LIB_BLOCK, 1, 1 };
    /* Locality Descriptor (docs/ldesc.md; Table 2: LIB INTRA_THREAD): each thread's
     * forward rates L, increments zp and the B, S arrays are its own and reused
     * over the whole path, in local memory (the kernel's stack frame).  The
     * descriptor covers the frame, offsets [0, local bytes per thread), in every
     * thread: its lines are hard-pinned. */
    locsim_kernel_info info;
    WL_CHECK(ctx, locsim_kernel_get_info(k, &info));
    int id = -1;
    if (info.local_bytes_per_thread) {
        locsim_ldesc dl = wl_ldesc(0, info.local_bytes_per_thread, LOCSIM_LDESC_INTRA_THREAD, sizeof(float));
        dl.space = LOCSIM_LDESC_LOCAL;
        WL_CHECK(ctx, locsim_ldesc_attach(dev, &dl, &id));
    }
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));
    if (id >= 0) WL_CHECK(ctx, locsim_ldesc_detach(dev, id));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, d->values, paths * sizeof(float)));
    return WL_PASS;
}

static wl_result lib_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, LIB_MAX_SIZE)) return WL_ERROR;
    uint32_t paths = lib_paths(ctx->size);
    lib_market m;
    float *z = lib_generate(paths, ctx->seed, &m);
    float *got = malloc(paths * sizeof(float));
    wl_result r = WL_ERROR;
    if (!z || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            lib_device d;
            memset(&d, 0, sizeof d);
            r = lib_simulate(ctx, mod, &m, z, paths, &d, got);
            WL_FREE_BUFFERS(ctx->dev, &d.values, &d.z, &d.l0);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) {
            double want = 0.0;
            int64_t bad = lib_first_bad(&m, z, paths, got, &want);
            if (bad >= 0)
                r = wl_fail(ctx, "path %lld: got %.9g, expected %.9g (tolerance %g)", (long long)bad, got[bad],
                            want, LIB_TOL);
        }
    }
    free(z); free(got);
    return r;
}

const workload wl_lib = {
    "lib",
    "LIBOR market model Monte Carlo (ISPASS LIB): one path per thread, rates and payoffs in local memory; "
    "S = 256*S paths",
    16,
    { 1, 2 },
    lib_run,
    LIB_MAX_SIZE,
};
