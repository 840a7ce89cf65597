/* mummer on locsim: the same launch as kernel.cu's main(); every (read, start)
 * match is compared with the CPU's search of the same suffix array, after the
 * CPU's answer is confirmed on the reference (it matches and cannot be extended).
 *
 * 16384*S bases, 32*S reads (ref.h).  Measured at the default size 24, seed 1: 58.5 M
 * thread instructions, 2.83 M cycles on fermi_gtx480 (timing mode). Working set: 384 KB
 * reference, its 1.5 MB suffix array. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr g, sa, reads, len, pos;
} mum_device;

typedef struct {
    uint32_t n, nr;
    uint8_t *g, *reads;
    uint32_t *sa, *len, *pos;
} mum_host;

static wl_result mum_simulate(wl_ctx *ctx, locsim_module *mod, mum_host *h, mum_device *d) {
    locsim_device *dev = ctx->dev;
    size_t outs = (size_t)h->nr * MUM_STARTS, read_bytes = (size_t)h->nr * MUM_READ_LEN;
    WL_CHECK(ctx, locsim_malloc(dev, &d->g, h->n));
    WL_CHECK(ctx, locsim_malloc(dev, &d->sa, h->n * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->reads, read_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->len, outs * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->pos, outs * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->g, h->g, h->n));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->sa, h->sa, h->n * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->reads, h->reads, read_bytes));
    locsim_kernel *match;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "mum_match", &match));
    void *args[] = { &d->g, &h->n, &d->sa, &d->reads, &h->nr, &d->len, &d->pos };
    locsim_dim3 grid = { (h->nr + MUM_BLOCK - 1) / MUM_BLOCK, 1, 1 }, block = { MUM_BLOCK, 1, 1 };
    WL_CHECK(ctx, locsim_launch(match, grid, block, 0, args, 7));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->len, d->len, outs * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, h->pos, d->pos, outs * sizeof(uint32_t)));
    return WL_PASS;
}

static wl_result mum_check(wl_ctx *ctx, const mum_host *h) {
    for (size_t i = 0; i < (size_t)h->nr * MUM_STARTS; i++) {
        uint32_t r = (uint32_t)(i / MUM_STARTS), q = (uint32_t)(i % MUM_STARTS), m = MUM_READ_LEN - q, pos;
        const uint8_t *p = h->reads + (size_t)r * MUM_READ_LEN + q;
        uint32_t len = mum_search(h->g, h->n, h->sa, p, m, &pos);
        /* the reference answer itself: a real match that stops at a mismatch or an end */
        if (mum_lcp(h->g, h->n, pos, p, m) != len)
            return wl_fail(ctx, "reference: read %u, start %u: no match of %u at %u", r, q, len, pos);
        if (h->len[i] != len || h->pos[i] != pos)
            return wl_fail(ctx, "read %u, start %u: got a match of %u at %u, expected %u at %u", r, q, h->len[i],
                           h->pos[i], len, pos);
    }
    return WL_PASS;
}

static wl_result mum_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, MUM_MAX_SIZE)) return WL_ERROR;
    mum_host h;
    memset(&h, 0, sizeof h);
    h.n = mum_ref_len(ctx->size);
    h.nr = mum_num_reads(ctx->size);
    if (!mum_generate(h.n, h.nr, ctx->seed, &h.g, &h.reads)) return wl_out_of_memory(ctx);
    size_t outs = (size_t)h.nr * MUM_STARTS;
    h.sa = mum_suffix_array(h.g, h.n);
    h.len = malloc(outs * sizeof(uint32_t));
    h.pos = malloc(outs * sizeof(uint32_t));
    wl_result r = WL_ERROR;
    if (!h.sa || !h.len || !h.pos) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            mum_device d;
            memset(&d, 0, sizeof d);
            r = mum_simulate(ctx, mod, &h, &d);
            WL_FREE_BUFFERS(ctx->dev, &d.g, &d.sa, &d.reads, &d.len, &d.pos);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = mum_check(ctx, &h);
    }
    free(h.g); free(h.reads); free(h.sa); free(h.len); free(h.pos);
    return r;
}

const workload wl_mummer = {
    "mummer",
    "MUMmerGPU-style longest matches of 50-base reads (26 starts each) by suffix-array binary search; 16 K*S bases",
    24,
    { 1, 2 },
    mum_run,
    MUM_MAX_SIZE,
};
