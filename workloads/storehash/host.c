/* storehash on locsim: the same launch as kernel.cu's main(); the CPU MD5 is first
 * checked against RFC 1321's test vectors, then every chunk's digest is compared
 * with it.
 *
 * 128*S chunks of 1 KB (ref.h).  Measured at the default size 48, seed 1: 57.5 M thread
 * instructions, 1.18 M cycles on fermi_gtx480 (timing mode). Working set: 6 MB of
 * chunks, each read by one thread. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr buf, digests;
} sh_device;

static wl_result sh_simulate(wl_ctx *ctx, locsim_module *mod, const uint8_t *buf, uint32_t chunks, sh_device *d,
                             uint32_t *got) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)chunks * SH_CHUNK, digest_bytes = (size_t)chunks * 4 * sizeof(uint32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->buf, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->digests, digest_bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->buf, buf, bytes));
    locsim_kernel *hash;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "sh_hash", &hash));
    int32_t n = (int32_t)chunks;
    void *args[] = { &d->buf, &d->digests, &n };
    locsim_dim3 grid = { (chunks + SH_BLOCK - 1) / SH_BLOCK, 1, 1 }, block = { SH_BLOCK, 1, 1 };
    WL_CHECK(ctx, locsim_launch(hash, grid, block, 0, args, 3));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got, d->digests, digest_bytes));
    return WL_PASS;
}

static wl_result sh_check(wl_ctx *ctx, const uint8_t *buf, uint32_t chunks, const uint32_t *got) {
    for (uint32_t c = 0; c < chunks; c++) {
        uint32_t want[4];
        md5(buf + (size_t)c * SH_CHUNK, SH_CHUNK, want);
        if (memcmp(want, &got[(size_t)c * 4], sizeof want) != 0) {
            char hex_got[33], hex_want[33];
            md5_hex(&got[(size_t)c * 4], hex_got);
            md5_hex(want, hex_want);
            return wl_fail(ctx, "chunk %u: got %s, expected %s", c, hex_got, hex_want);
        }
    }
    return WL_PASS;
}

static wl_result sh_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, SH_MAX_SIZE)) return WL_ERROR;
    const char *bad = md5_self_test();
    if (bad) return wl_fail(ctx, "the CPU MD5 fails RFC 1321's test vector \"%s\"", bad);
    uint32_t chunks = sh_num_chunks(ctx->size);
    uint8_t *buf = sh_generate(chunks, ctx->seed);
    uint32_t *got = malloc((size_t)chunks * 4 * sizeof(uint32_t));
    wl_result r = WL_ERROR;
    if (!buf || !got) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            sh_device d;
            memset(&d, 0, sizeof d);
            r = sh_simulate(ctx, mod, buf, chunks, &d, got);
            WL_FREE_BUFFERS(ctx->dev, &d.buf, &d.digests);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = sh_check(ctx, buf, chunks, got);
    }
    free(buf); free(got);
    return r;
}

const workload wl_storehash = {
    "storehash",
    "StoreGPU-style MD5 of fixed 1 KB chunks, one thread per chunk, 1 in 5 chunks duplicated; S = 128*S chunks",
    48,
    { 1, 2 },
    sh_run,
    SH_MAX_SIZE,
};
