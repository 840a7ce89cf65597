/* texwarp on locsim: the same run as kernel.cu's main(), through the locsim API
 * (arrays, texture and surface objects). */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_array *img, *pat, *out;
    uint64_t t_img, t_pat, s_out;
} texwarp_objs;

static void texwarp_release(locsim_device *dev, texwarp_objs *o) {
    if (o->s_out) locsim_surface_destroy(dev, o->s_out);
    if (o->t_pat) locsim_texture_destroy(dev, o->t_pat);
    if (o->t_img) locsim_texture_destroy(dev, o->t_img);
    if (o->out) locsim_array_destroy(dev, o->out);
    if (o->pat) locsim_array_destroy(dev, o->pat);
    if (o->img) locsim_array_destroy(dev, o->img);
}

static wl_result texwarp_device(wl_ctx *ctx, locsim_module *mod, uint32_t w, const float *img, const uint8_t *pat,
                                float *got, texwarp_objs *o) {
    locsim_device *dev = ctx->dev;
    const locsim_channel_format ff = {32, 0, 0, 0, LOCSIM_CHANNEL_FLOAT}, fu = {8, 0, 0, 0, LOCSIM_CHANNEL_UNSIGNED};
    WL_CHECK(ctx, locsim_array_create(dev, &ff, w, w, 0, 0, &o->img));
    WL_CHECK(ctx, locsim_array_create(dev, &fu, TEXWARP_PAT, TEXWARP_PAT, 0, 0, &o->pat));
    WL_CHECK(ctx, locsim_array_create(dev, &ff, w, w, 0, LOCSIM_ARRAY_SURFACE, &o->out));
    locsim_copy_side dst = {o->img, 0, NULL, 0, 0, 0, 0, 0};
    locsim_copy_side src = {NULL, 0, (void *)(uintptr_t)img, w * sizeof(float), w, 0, 0, 0};
    WL_CHECK(ctx, locsim_memcpy_3d(dev, &dst, &src, w * sizeof(float), w, 1));
    dst.array = o->pat;
    src.host = (void *)(uintptr_t)pat;
    src.pitch = TEXWARP_PAT;
    src.height = TEXWARP_PAT;
    WL_CHECK(ctx, locsim_memcpy_3d(dev, &dst, &src, TEXWARP_PAT, TEXWARP_PAT, 1));

    locsim_resource_desc res = {LOCSIM_RES_ARRAY, o->img, 0, {0, 0, 0, 0, 0}, 0, 0, 0, 0};
    locsim_texture_desc td = {{LOCSIM_ADDRESS_CLAMP, LOCSIM_ADDRESS_CLAMP, LOCSIM_ADDRESS_CLAMP},
                              LOCSIM_FILTER_LINEAR, LOCSIM_READ_ELEMENT, 0, {0, 0, 0, 0}};
    WL_CHECK(ctx, locsim_texture_create(dev, &res, &td, &o->t_img));
    res.array = o->pat;
    locsim_texture_desc tp = {{LOCSIM_ADDRESS_WRAP, LOCSIM_ADDRESS_WRAP, LOCSIM_ADDRESS_WRAP},
                              LOCSIM_FILTER_POINT, LOCSIM_READ_NORMALIZED_FLOAT, 1, {0, 0, 0, 0}};
    WL_CHECK(ctx, locsim_texture_create(dev, &res, &tp, &o->t_pat));
    res.array = o->out;
    WL_CHECK(ctx, locsim_surface_create(dev, &res, &o->s_out));

    locsim_kernel *k;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "texwarp", &k));
    int32_t w_arg = (int32_t)w;
    void *args[] = {&o->t_img, &o->t_pat, &o->s_out, &w_arg};
    locsim_dim3 block = {TEXWARP_BLOCK_X, TEXWARP_BLOCK_Y, 1};
    locsim_dim3 grid = {(w + TEXWARP_BLOCK_X - 1) / TEXWARP_BLOCK_X, (w + TEXWARP_BLOCK_Y - 1) / TEXWARP_BLOCK_Y, 1};
    WL_CHECK(ctx, locsim_launch(k, grid, block, 0, args, 4));

    locsim_copy_side back = {NULL, 0, got, w * sizeof(float), w, 0, 0, 0}, from = {o->out, 0, NULL, 0, 0, 0, 0, 0};
    WL_CHECK(ctx, locsim_memcpy_3d(dev, &back, &from, w * sizeof(float), w, 1));
    return WL_PASS;
}

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, TEXWARP_MAX_SIZE)) return WL_ERROR;
    uint32_t w = texwarp_w(ctx->size);
    size_t n = (size_t)w * w;
    float *img = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
    float *want = (float *)malloc(n * sizeof(float));
    uint8_t pat[TEXWARP_PAT * TEXWARP_PAT];
    wl_result result = WL_ERROR;
    locsim_module *mod = NULL;
    texwarp_objs o = {NULL, NULL, NULL, 0, 0, 0};
    if (!img || !got || !want) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    texwarp_gen(w, ctx->seed, img, pat);
    texwarp_ref(w, img, pat, want);
    mod = wl_load_module(ctx);
    if (!mod) goto out;
    result = texwarp_device(ctx, mod, w, img, pat, got, &o);
    if (result == WL_PASS) {
        uint32_t bad = texwarp_first_mismatch((uint32_t)n, got, want);
        if (bad < n)
            result = wl_fail(ctx, "out[%u] (x %u, y %u) = %.9g, expected %.9g", bad, bad % w, bad / w,
                             (double)got[bad], (double)want[bad]);
    }
out:
    texwarp_release(ctx->dev, &o);
    if (mod) locsim_module_unload(mod);
    free(img);
    free(got);
    free(want);
    return result;
}

const workload wl_texwarp = {
    "texwarp",
    "affine image warp through texture objects (bilinear + a tiled 8-bit pattern), written through a surface; "
    "--size S: 64S x 64S image",
    TEXWARP_DEFAULT_SIZE,
    {1, 2},
    run,
    TEXWARP_MAX_SIZE,
};
