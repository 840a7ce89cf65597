/* dp_nbody on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

/* Host arrays: the device's input/output (X..VZ), then the reference state
 * (RX..RVZ, same order), then acceleration scratch for the reference. */
enum { X, Y, Z, M, VX, VY, VZ, RX, RY, RZ, RM, RVX, RVY, RVZ, SAX, SAY, SAZ, NHOST };
/* Device arrays: X..VZ as above, then accelerations. */
enum { DAX = VZ + 1, DAY, DAZ, NDEV };

static const char *const array_names[] = {"x", "y", "z", "m", "vx", "vy", "vz"};

static nbody_state state_of(double **h, int first, uint32_t n) {
    nbody_state s;
    s.n = n;
    s.x = h[first + X];
    s.y = h[first + Y];
    s.z = h[first + Z];
    s.m = h[first + M];
    s.vx = h[first + VX];
    s.vy = h[first + VY];
    s.vz = h[first + VZ];
    return s;
}

/* First body whose position or velocity is outside the tolerance. */
static wl_result compare(wl_ctx *ctx, double **h, uint32_t n) {
    static const int checked[] = {X, Y, Z, VX, VY, VZ};
    for (size_t c = 0; c < sizeof checked / sizeof checked[0]; c++) {
        const double *got = h[checked[c]], *want = h[RX + checked[c]];
        for (uint32_t i = 0; i < n; i++)
            if (!nbody_close(got[i], want[i]))
                return wl_fail(ctx, "%s[%u] = %.17g, expected %.17g", array_names[checked[c]], i, got[i],
                               want[i]);
    }
    return WL_PASS;
}

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, NBODY_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    uint32_t n = nbody_n(ctx->size);
    size_t bytes = (size_t)n * sizeof(double);
    locsim_module *mod = NULL;
    locsim_dptr d[NDEV] = {0};
    double *h[NHOST] = {0};
    for (int a = 0; a < NHOST; a++) {
        h[a] = (double *)malloc(bytes);
        if (!h[a]) {
            result = wl_out_of_memory(ctx);
            goto out;
        }
    }
    nbody_state dev_in = state_of(h, X, n), want = state_of(h, RX, n);
    nbody_gen(&dev_in, ctx->seed);
    nbody_gen(&want, ctx->seed);
    nbody_ref(&want, h[SAX], h[SAY], h[SAZ]);

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k_accel, *k_integrate;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "nbody_accel", &k_accel));
    WL_TRY(ctx, locsim_module_get_kernel(mod, "nbody_integrate", &k_integrate));
    for (int a = 0; a < NDEV; a++) WL_TRY(ctx, locsim_malloc(ctx->dev, &d[a], bytes));
    for (int a = X; a <= VZ; a++) WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d[a], h[a], bytes));

    int n_arg = (int)n;
    double eps2 = NBODY_EPS2, dt = NBODY_DT;
    void *accel_args[] = {&n_arg, &d[X], &d[Y], &d[Z], &d[M], &d[DAX], &d[DAY], &d[DAZ], &eps2};
    void *integrate_args[] = {&n_arg, &d[X], &d[Y], &d[Z], &d[VX], &d[VY], &d[VZ], &d[DAX], &d[DAY], &d[DAZ], &dt};
    locsim_dim3 grid = {(n + NBODY_TILE - 1) / NBODY_TILE, 1, 1}, block = {NBODY_TILE, 1, 1};
    for (int step = 0; step < NBODY_STEPS; step++) {
        WL_TRY(ctx, locsim_launch(k_accel, grid, block, 0, accel_args, 9));
        WL_TRY(ctx, locsim_launch(k_integrate, grid, block, 0, integrate_args, 11));
    }
    for (int a = X; a <= VZ; a++) WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, h[a], d[a], bytes));
    result = compare(ctx, h, n);

out:
    for (int a = NDEV - 1; a >= 0; a--)
        if (d[a]) locsim_free(ctx->dev, d[a]);
    if (mod) locsim_module_unload(mod);
    for (int a = 0; a < NHOST; a++) free(h[a]);
    return result;
}

const workload wl_dp_nbody = {
    "dp_nbody",
    "double-precision all-pairs n-body (shared-memory tiles, rsqrt), 2 steps; --size S: 64*S+45 bodies",
    NBODY_DEFAULT_SIZE,
    {1, 2},
    run,
    NBODY_MAX_SIZE,
};
