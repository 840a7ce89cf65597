/* pf on locsim: the same launches as kernel.cu's main() (four per frame, frames
 * 1..PF_FRAMES-1); every frame is checked from the GPU's own input to it (ref.h).
 *
 * 1024*S particles tracking a disk through ten 128 x 128 frames (ref.h says why). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

enum { A_SX, A_SY, A_MX, A_MY, A_LIK, A_W, A_CDF, A_LMAX, A_EST, A_NOISE, A_FRAMES, A_COUNT };

typedef struct {
    locsim_dptr a[A_COUNT];
} pf_device;

/* Attach NO_REUSE descriptors for the ranges [base[i], base[i] + bytes) (Table 2:
 * PF NO_REUSE) and leave their ids in ids[]. */
static locsim_status pf_streamed(locsim_device *dev, const locsim_dptr *base, int count, uint64_t bytes, int *ids) {
    for (int i = 0; i < count; i++) {
        locsim_ldesc d = wl_ldesc(base[i], bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
        locsim_status st = locsim_ldesc_attach(dev, &d, &ids[i]);
        if (st != LOCSIM_OK) return st;
    }
    return LOCSIM_OK;
}

static locsim_status pf_forget(locsim_device *dev, const int *ids, int count) {
    for (int i = 0; i < count; i++) {
        locsim_status st = locsim_ldesc_detach(dev, ids[i]);
        if (st != LOCSIM_OK) return st;
    }
    return LOCSIM_OK;
}

/* One frame's four launches.  Locality Descriptors (docs/ldesc.md; Table 2: PF
 * NO_REUSE), re-specified per launch as the arrays' use changes (the paper's
 * §4.1): what a launch reads once per line is NO_REUSE -- pf_likelihood's previous
 * positions and noise, pf_weights' likelihoods (a warp reads 32 consecutive
 * elements, one line, once).  Left undescribed, because their lines are reused:
 * the frame (particles crowd around the object, so neighbouring threads read the
 * same pixels), the per-CTA maxima every thread of pf_weights reads, everything
 * pf_scan reads (each thread walks its own chunk of 12 elements, so a warp reads
 * the same 12 lines of w and of the positions at each step), the CDF every thread
 * of pf_resample binary-searches, and the moved positions it gathers (several
 * particles take the same one). */
static wl_result pf_frame(wl_ctx *ctx, locsim_kernel **k, const pf_device *d, const pf_input *in, int f) {
    locsim_device *dev = ctx->dev;
    int32_t n = (int32_t)in->n, nb = n / PF_BLOCK, ones = in->ones;
    const uint64_t fb = (uint64_t)n * sizeof(float), o = (uint64_t)f * fb, p = (uint64_t)(f - 1) * fb;
    locsim_dptr mx = d->a[A_MX] + o, my = d->a[A_MY] + o, lik = d->a[A_LIK] + o, w = d->a[A_W] + o;
    locsim_dptr cdf = d->a[A_CDF] + o, sx = d->a[A_SX] + o, sy = d->a[A_SY] + o;
    locsim_dptr px = d->a[A_SX] + p, py = d->a[A_SY] + p, noise = d->a[A_NOISE] + 2 * o;
    locsim_dptr lmax = d->a[A_LMAX] + (uint64_t)f * nb * sizeof(float), est = d->a[A_EST] + (uint64_t)f * 8;
    locsim_dptr frame = d->a[A_FRAMES] + (uint64_t)f * PF_W * PF_H;
    float u0 = in->u0[f];
    locsim_dim3 grid = { (uint32_t)nb, 1, 1 }, block = { PF_BLOCK, 1, 1 }, one = { 1, 1, 1 }, scan = { PF_SCAN, 1, 1 };
    int ids[3];

    void *a1[] = { &mx, &my, &lik, &lmax, &px, &py, &noise, &frame, &n, &ones };
    const locsim_dptr once1[3] = { px, py, noise };
    WL_CHECK(ctx, pf_streamed(dev, once1, 2, fb, ids));
    WL_CHECK(ctx, pf_streamed(dev, once1 + 2, 1, 2 * fb, ids + 2));
    WL_CHECK(ctx, locsim_launch(k[0], grid, block, 0, a1, 10));
    WL_CHECK(ctx, pf_forget(dev, ids, 3));

    void *a2[] = { &w, &lik, &lmax, &nb };
    WL_CHECK(ctx, pf_streamed(dev, &lik, 1, fb, ids));
    WL_CHECK(ctx, locsim_launch(k[1], grid, block, 0, a2, 4));
    WL_CHECK(ctx, pf_forget(dev, ids, 1));

    void *a3[] = { &cdf, &est, &w, &mx, &my, &n };
    WL_CHECK(ctx, locsim_launch(k[2], one, scan, 0, a3, 6));

    void *a4[] = { &sx, &sy, &cdf, &mx, &my, &u0, &n };
    WL_CHECK(ctx, locsim_launch(k[3], grid, block, 0, a4, 7));
    return WL_PASS;
}

static wl_result pf_simulate(wl_ctx *ctx, locsim_module *mod, const pf_input *in, pf_device *d, pf_state *g) {
    locsim_device *dev = ctx->dev;
    const uint32_t n = in->n, nb = n / PF_BLOCK;
    const uint64_t all = (uint64_t)PF_FRAMES * n * sizeof(float);
    for (int a = A_SX; a <= A_CDF; a++) WL_CHECK(ctx, locsim_malloc(dev, &d->a[a], all));
    WL_CHECK(ctx, locsim_malloc(dev, &d->a[A_LMAX], (uint64_t)PF_FRAMES * nb * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->a[A_EST], 2 * PF_FRAMES * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->a[A_NOISE], 2 * all));
    WL_CHECK(ctx, locsim_malloc(dev, &d->a[A_FRAMES], (uint64_t)PF_FRAMES * PF_W * PF_H));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a[A_NOISE], in->noise, 2 * all));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a[A_FRAMES], in->frames, (uint64_t)PF_FRAMES * PF_W * PF_H));
    WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_obj", in->obj, sizeof in->obj, 0));
    for (uint32_t i = 0; i < n; i++) g->sx[i] = (float)in->x0, g->sy[i] = (float)in->y0;
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a[A_SX], g->sx, n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a[A_SY], g->sy, n * sizeof(float)));
    static const char *const names[4] = { "pf_likelihood", "pf_weights", "pf_scan", "pf_resample" };
    locsim_kernel *k[4];
    for (int i = 0; i < 4; i++) WL_CHECK(ctx, locsim_module_get_kernel(mod, names[i], &k[i]));
    for (int f = 1; f < PF_FRAMES; f++) {
        wl_result r = pf_frame(ctx, k, d, in, f);
        if (r != WL_PASS) return r;
    }
    float *host[7] = { g->sx, g->sy, g->mx, g->my, g->lik, g->w, g->cdf };
    for (int a = A_SX; a <= A_CDF; a++) WL_CHECK(ctx, locsim_memcpy_dtoh(dev, host[a], d->a[a], all));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, g->lmax, d->a[A_LMAX], (uint64_t)PF_FRAMES * nb * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, g->est, d->a[A_EST], 2 * PF_FRAMES * sizeof(float)));
    return WL_PASS;
}

static wl_result pf_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, PF_MAX_SIZE)) return WL_ERROR;
    pf_input in;
    pf_state g;
    memset(&g, 0, sizeof g);
    wl_result r = WL_ERROR;
    int have = pf_generate(ctx->size, ctx->seed, &in);
    size_t cells = have ? (size_t)PF_FRAMES * in.n : 0;
    float **arr[7] = { &g.sx, &g.sy, &g.mx, &g.my, &g.lik, &g.w, &g.cdf };
    int ok = have;
    for (int a = 0; a < 7 && ok; a++) ok = (*arr[a] = calloc(cells, sizeof(float))) != NULL;
    if (ok) ok = (g.lmax = calloc((size_t)PF_FRAMES * in.n / PF_BLOCK, sizeof(float))) != NULL &&
                 (g.est = calloc(2 * PF_FRAMES, sizeof(float))) != NULL;
    if (!ok) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            pf_device d;
            memset(&d, 0, sizeof d);
            r = pf_simulate(ctx, mod, &in, &d, &g);
            WL_FREE_BUFFERS(ctx->dev, &d.a[A_SX], &d.a[A_SY], &d.a[A_MX], &d.a[A_MY], &d.a[A_LIK], &d.a[A_W],
                            &d.a[A_CDF], &d.a[A_LMAX], &d.a[A_EST], &d.a[A_NOISE], &d.a[A_FRAMES]);
            locsim_module_unload(mod);
        }
        char why[256];
        if (r == WL_PASS && pf_check(&in, &g, why, sizeof why)) r = wl_fail(ctx, "%s", why);
    }
    for (int a = 0; a < 7; a++) free(*arr[a]);
    free(g.lmax);
    free(g.est);
    if (have) pf_free(&in);
    return r;
}

const workload wl_pf = {
    "pf",
    "particle filter (Rodinia's particlefilter, LDesc's PF): 1024*S particles track a disk through ten noisy "
    "128 x 128 frames; likelihood, weights, CDF scan, systematic resampling per frame",
    3,
    { 1, 2 },
    pf_run,
    PF_MAX_SIZE,
};
