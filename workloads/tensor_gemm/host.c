/* tensor_gemm on locsim: the same run as kernel.cu's main(), through the locsim API.
 * The configuration must have tensor cores (-gpgpu_tensor_core_avail 1); without
 * them both launches are refused with a message naming the first wmma instruction. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

/* Launch `name` and compare its D with want bit for bit. */
static wl_result run_one(wl_ctx *ctx, locsim_module *mod, const char *name, tg_dims d, void **args, locsim_dptr dd,
                         const float *want, float *got) {
    size_t nc = (size_t)d.m * d.n;
    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, name, &k));
    WL_CHECK(ctx, locsim_memset(ctx->dev, dd, 0, nc * sizeof(float)));
    locsim_dim3 grid = {d.n / TG_TILE, d.m / TG_TILE, 1}, block = {TG_THREADS, 1, 1};
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 7));
    WL_CHECK(ctx, locsim_memcpy_dtoh(ctx->dev, got, dd, nc * sizeof(float)));
    size_t bad = wl_first_float_diff(got, want, nc);
    if (bad < nc)
        return wl_fail(ctx, "%s: D[%u][%u] = %.9g, expected %.9g", name, (unsigned)(bad / d.n),
                       (unsigned)(bad % d.n), (double)got[bad], (double)want[bad]);
    return WL_PASS;
}

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, TG_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    tg_dims d = tg_dims_for(ctx->size);
    size_t na = (size_t)d.m * d.k, nb = (size_t)d.k * d.n, nc = (size_t)d.m * d.n;
    locsim_module *mod = NULL;
    locsim_dptr da = 0, db = 0, dc = 0, dd = 0;
    uint16_t *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
    float *c = malloc(nc * sizeof *c), *want = malloc(nc * sizeof *want), *got = malloc(nc * sizeof *got);
    if (!a || !b || !c || !want || !got) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    tg_gen(d, ctx->seed, a, b, c);
    tg_ref(d, a, b, c, want);
    mod = wl_load_module(ctx);
    if (!mod) goto out;
    WL_TRY(ctx, locsim_malloc(ctx->dev, &da, na * sizeof *a));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &db, nb * sizeof *b));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &dc, nc * sizeof *c));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &dd, nc * sizeof *c));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, da, a, na * sizeof *a));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, db, b, nb * sizeof *b));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, dc, c, nc * sizeof *c));
    int m_arg = (int)d.m, n_arg = (int)d.n, k_arg = (int)d.k;
    void *args[] = {&m_arg, &n_arg, &k_arg, &da, &db, &dc, &dd};
    result = run_one(ctx, mod, "tgemm_wmma", d, args, dd, want, got);
    if (result == WL_PASS) result = run_one(ctx, mod, "tgemm_mma", d, args, dd, want, got);

out:
    WL_FREE_BUFFERS(ctx->dev, &dd, &dc, &db, &da);
    if (mod) locsim_module_unload(mod);
    free(a);
    free(b);
    free(c);
    free(want);
    free(got);
    return result;
}

const workload wl_tensor_gemm = {
    "tensor_gemm",
    "tensor-core GEMM D = A*B + C, f16 in, f32 accumulate, by wmma (m16n16k16) and by mma.sync (m16n8k16) "
    "+ ldmatrix; needs -gpgpu_tensor_core_avail 1; --size S: M=N=64S, K=32S+32",
    TG_DEFAULT_SIZE,
    {1, 2},
    run,
    TG_MAX_SIZE,
};
