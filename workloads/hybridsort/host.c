/* hybridsort on locsim: the same four launches as kernel.cu's main(); the output is
 * compared bit for bit with the CPU's sort of the keys.
 *
 * 4096*S keys in 16*S buckets (ref.h).  Measured at the default size 10, seed 1: see
 * docs/workloads.md.  Working set: 160 KB of keys, read twice and written twice. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr keys, sp, tmp, out, counts, cursors, starts, sizes;
} hy_device;

static wl_result hy_alloc(wl_ctx *ctx, hy_device *d, uint32_t n, uint32_t nb, uint32_t nblk) {
    locsim_device *dev = ctx->dev;
    WL_CHECK(ctx, locsim_malloc(dev, &d->keys, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->sp, nb * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->tmp, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->out, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->counts, (size_t)nb * nblk * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->cursors, (size_t)nb * nblk * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->starts, nb * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->sizes, nb * sizeof(uint32_t)));
    return WL_PASS;
}

static wl_result hy_simulate(wl_ctx *ctx, locsim_module *mod, const float *keys, const float *sp, uint32_t n,
                             uint32_t nb, uint32_t nblk, hy_device *d, float *got) {
    locsim_device *dev = ctx->dev;
    wl_result r = hy_alloc(ctx, d, n, nb, nblk);
    if (r != WL_PASS) return r;
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->keys, keys, n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->sp, sp, (nb - 1) * sizeof(float)));
    locsim_kernel *count, *offsets, *scatter, *sort;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hy_count", &count));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hy_offsets", &offsets));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hy_scatter", &scatter));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "hy_sort", &sort));
    int32_t nbi = (int32_t)nb, nblki = (int32_t)nblk;
    locsim_dim3 grid = { nblk, 1, 1 }, block = { HY_BLOCK, 1, 1 }, one = { 1, 1, 1 }, per_bucket = { nb, 1, 1 };
    locsim_dim3 bucket_threads = { nb, 1, 1 }, sort_block = { HY_SORT_BLOCK, 1, 1 };
    void *count_args[] = { &d->keys, &d->sp, &d->counts, &nbi };
    void *offsets_args[] = { &d->counts, &d->cursors, &d->starts, &d->sizes, &nblki };
    void *scatter_args[] = { &d->keys, &d->sp, &d->cursors, &d->tmp, &nbi };
    void *sort_args[] = { &d->tmp, &d->starts, &d->sizes, &d->out };
    WL_CHECK(ctx, locsim_launch(count, grid, block, 0, count_args, 4));
    WL_CHECK(ctx, locsim_launch(offsets, one, bucket_threads, 0, offsets_args, 5));
    WL_CHECK(ctx, locsim_launch(scatter, grid, block, 0, scatter_args, 5));
    WL_CHECK(ctx, locsim_launch(sort, per_bucket, sort_block, 0, sort_args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, d->out, n * sizeof(float)));
    return WL_PASS;
}

static wl_result hy_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, HY_MAX_SIZE)) return WL_ERROR;
    uint32_t n = hy_keys(ctx->size), nb = hy_buckets(ctx->size), nblk = hy_blocks(ctx->size), which = 0;
    float *sp = malloc(nb * sizeof(float));
    float *keys = sp ? hy_generate(n, nb, ctx->seed, sp) : NULL, *got = malloc(n * sizeof(float));
    wl_result r = WL_ERROR;
    if (!keys || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        uint32_t largest = hy_largest_bucket(keys, n, sp, nb, &which);
        if (largest > HY_CAP) {
            snprintf(ctx->detail, sizeof ctx->detail, "bucket %u would hold %u keys, more than %u: pick another seed",
                     which, largest, HY_CAP);
            free(sp); free(keys); free(got);
            return WL_ERROR;
        }
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            hy_device d;
            memset(&d, 0, sizeof d);
            r = hy_simulate(ctx, mod, keys, sp, n, nb, nblk, &d, got);
            WL_FREE_BUFFERS(ctx->dev, &d.keys, &d.sp, &d.tmp, &d.out, &d.counts, &d.cursors, &d.starts, &d.sizes);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) {
            qsort(keys, n, sizeof(float), hy_cmp);
            for (uint32_t i = 0; i < n; i++)
                if (memcmp(&got[i], &keys[i], sizeof(float)) != 0) {
                    r = wl_fail(ctx, "position %u: got %.9g, expected %.9g", i, got[i], keys[i]);
                    break;
                }
        }
    }
    free(sp); free(keys); free(got);
    return r;
}

const workload wl_hybridsort = {
    "hybridsort",
    "hybrid sort (Rodinia): bucket count / prefix / scatter with shared atomics, then a bitonic sort per bucket; "
    "S = 4096*S keys in 16*S buckets",
    10,
    { 1, 2 },
    hy_run,
    HY_MAX_SIZE,
};
