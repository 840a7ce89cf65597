/* mriq on locsim: the same launches as kernel.cu's main() (|phi|^2, then one Q
 * launch per constant-memory chunk of samples); |phi|^2 is compared bit for bit,
 * Qr and Qi of every voxel with the exact sums within the bound ref.h derives.
 *
 * 2048*S voxels, 32*S k-space samples (ref.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr x, y, z, phir, phii, phimag, qr, qi;
} mq_device;

static wl_result mq_simulate(wl_ctx *ctx, locsim_module *mod, const mq_data *d, mq_device *dv, float *phimag,
                             mq_sample *ks, float *qr, float *qi) {
    locsim_device *dev = ctx->dev;
    size_t xb = d->numx * sizeof(float), kb = d->numk * sizeof(float);
    locsim_dptr *xs[] = { &dv->x, &dv->y, &dv->z, &dv->qr, &dv->qi };
    for (size_t i = 0; i < 5; i++) WL_CHECK(ctx, locsim_malloc(dev, xs[i], xb));
    WL_CHECK(ctx, locsim_malloc(dev, &dv->phir, kb));
    WL_CHECK(ctx, locsim_malloc(dev, &dv->phii, kb));
    WL_CHECK(ctx, locsim_malloc(dev, &dv->phimag, kb));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, dv->x, d->x, xb));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, dv->y, d->y, xb));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, dv->z, d->z, xb));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, dv->phir, d->phir, kb));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, dv->phii, d->phii, kb));
    WL_CHECK(ctx, locsim_memset(dev, dv->qr, 0, xb));
    WL_CHECK(ctx, locsim_memset(dev, dv->qi, 0, xb));

    locsim_kernel *kphi, *kq;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "mq_phimag", &kphi));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "mq_computeq", &kq));
    int32_t numk = (int32_t)d->numk, numx = (int32_t)d->numx;
    locsim_dim3 block = { MQ_THREADS, 1, 1 };
    locsim_dim3 grid_k = { (d->numk + MQ_THREADS - 1) / MQ_THREADS, 1, 1 };
    locsim_dim3 grid_x = { (d->numx + MQ_THREADS - 1) / MQ_THREADS, 1, 1 };
    void *phi_args[] = { &dv->phimag, &dv->phir, &dv->phii, &numk };
    WL_CHECK(ctx, locsim_launch(kphi, grid_k, block, 0, phi_args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, phimag, dv->phimag, kb));
    for (uint32_t k = 0; k < d->numk; k++) {
        float want = mq_phimag_of(d->phir[k], d->phii[k]);
        if (memcmp(&phimag[k], &want, sizeof want) != 0)
            return wl_fail(ctx, "|phi|^2 of sample %u: got %.9g, expected %.9g", k, phimag[k], want);
    }
    mq_pack(d, phimag, ks);
    for (uint32_t k0 = 0; k0 < d->numk; k0 += MQ_CHUNK) {
        int32_t nk = (int32_t)(d->numk - k0 < MQ_CHUNK ? d->numk - k0 : MQ_CHUNK);
        WL_CHECK(ctx, locsim_memcpy_to_symbol(mod, "c_k", ks + k0, (size_t)nk * sizeof(mq_sample), 0));
        void *q_args[] = { &nk, &dv->x, &dv->y, &dv->z, &dv->qr, &dv->qi, &numx };
        WL_CHECK(ctx, locsim_launch(kq, grid_x, block, 0, q_args, 7));
    }
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, qr, dv->qr, xb));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, qi, dv->qi, xb));
    return WL_PASS;
}

static wl_result mq_check(wl_ctx *ctx, const mq_data *d, const mq_sample *ks, const float *qr, const float *qi) {
    for (uint32_t v = 0; v < d->numx; v++) {
        double er, ei, s;
        mq_reference(d, ks, v, &er, &ei, &s);
        double tol = mq_tolerance(s, d->numk);
        if (fabs(qr[v] - er) > tol || fabs(qi[v] - ei) > tol)
            return wl_fail(ctx, "voxel %u: got (%.9g, %.9g), expected (%.9g, %.9g) within %.3g", v, qr[v], qi[v],
                           er, ei, tol);
    }
    return WL_PASS;
}

static wl_result mq_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, MQ_MAX_SIZE)) return WL_ERROR;
    mq_data d;
    if (!mq_generate(ctx->size, ctx->seed, &d)) return wl_out_of_memory(ctx);
    float *phimag = malloc(d.numk * sizeof(float)), *qr = malloc(d.numx * sizeof(float));
    float *qi = malloc(d.numx * sizeof(float));
    mq_sample *ks = malloc(d.numk * sizeof(mq_sample));
    wl_result r = WL_ERROR;
    if (!phimag || !qr || !qi || !ks) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            mq_device dv;
            memset(&dv, 0, sizeof dv);
            r = mq_simulate(ctx, mod, &d, &dv, phimag, ks, qr, qi);
            WL_FREE_BUFFERS(ctx->dev, &dv.x, &dv.y, &dv.z, &dv.phir, &dv.phii, &dv.phimag, &dv.qr, &dv.qi);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = mq_check(ctx, &d, ks, qr, qi);
    }
    mq_free(&d);
    free(phimag); free(qr); free(qi); free(ks);
    return r;
}

const workload wl_mriq = {
    "mriq",
    "MRI-Q, one thread per voxel, sincos over k-space samples in constant-memory chunks; size S = 2048*S voxels, 32*S samples",
    3,
    { 1, 2 },
    mq_run,
    MQ_MAX_SIZE,
};
