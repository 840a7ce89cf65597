/* mriq: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * Parboil's MRI-Q problem: for every voxel x of a 3-D image, the Q matrix of a
 * non-Cartesian MRI reconstruction, Q(x) = sum_k |phi(k)|^2 exp(i 2 pi k . x), as
 * Qr (the cosine sum) and Qi (the sine sum).  mq_phimag computes |phi(k)|^2 for
 * every k-space sample; the host packs the samples (kx, ky, kz, |phi|^2) and
 * copies them chunk by chunk into constant memory; one mq_computeq launch per
 * chunk adds the chunk's terms to every voxel.
 *
 * The input model, scaled down from Parboil's (32^3 voxels, 3072 samples in its
 * small data set): voxel centres of a 32 x 32 x (2 size) grid, coordinates in field-
 * of-view units in [-0.5, 0.5); 32 size samples along a 3-D cone-spiral trajectory
 * (kz rises linearly through [-16, 16), radius sqrt-growing to 16 cycles/FOV, the
 * Nyquist limit of 32 voxels, about 3 turns); phi a smooth basis-function
 * response 1 / (1 + |k|^2 / 64) with 10% random jitter, plus a small imaginary
 * part.  The spiral is rotated by a rational (exact-formula) rotation, so the
 * input is the same on every machine (no libm).
 *
 * Default size 3: 6144 voxels, 96 samples in 3 chunks of 32 (Parboil's chunks
 * hold 1024 samples, 16 KB; ours are 512 B so that the test sizes already use more
 * than one launch).
 *
 * Floating point.  |phi|^2 is one fmaf(r, r, i * i) here and in the kernel and
 * is compared bit for bit.  The kernel's sinf/cosf are the CUDA library's (at most
 * 2 ulp from the true value, CUDA Programming Guide, Table "Single-Precision
 * Mathematical Standard Library Functions"); the reference evaluates the same
 * float argument and then sin/cos and the sums in double.  The GPU's running sum
 * q = fmaf(p_k, cos_k, q) rounds once per sample, an error of at most 2^-24 |q|
 * <= 2^-24 S with S = sum_k p_k; each sinf/cosf adds at most 2 ulp <= 2 * 2^-24
 * (its value is below 1) times p_k.  So |Q_gpu - Q_exact| <= S (K + 2) 2^-24,
 * and the check allows S (K + 4) 2^-24 (2 ulp more for the rounding of the
 * float argument's product with 2 pi, which both sides do identically, and of
 * the reference's sin/cos in double). */
#ifndef WL_MRIQ_REF_H
#define WL_MRIQ_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define MQ_MAX_SIZE 256u     /* 524288 voxels, 8192 samples */
#define MQ_THREADS 128u      /* voxels per CTA */
#define MQ_CHUNK 32u         /* samples per constant-memory chunk (one launch each) */
#define MQ_2PI 6.2831853071795864769f

typedef struct {
    float kx, ky, kz, phimag;
} mq_sample;

typedef struct {
    uint32_t numx, numk;
    float *x, *y, *z;           /* voxel positions, numx each */
    float *kx, *ky, *kz;        /* k-space trajectory, numk each */
    float *phir, *phii;         /* phi(k), numk each */
} mq_data;

static inline uint32_t mq_voxels(uint32_t size) { return 2048u * size; }
static inline uint32_t mq_samples(uint32_t size) { return 32u * size; }

static inline void mq_free(mq_data *d) {
    free(d->x); free(d->y); free(d->z);
    free(d->kx); free(d->ky); free(d->kz);
    free(d->phir); free(d->phii);
}

/* 0 on out-of-memory */
static inline int mq_generate(uint32_t size, uint64_t seed, mq_data *d) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    d->numx = mq_voxels(size);
    d->numk = mq_samples(size);
    size_t xb = d->numx * sizeof(float), kb = d->numk * sizeof(float);
    d->x = (float *)malloc(xb); d->y = (float *)malloc(xb); d->z = (float *)malloc(xb);
    d->kx = (float *)malloc(kb); d->ky = (float *)malloc(kb); d->kz = (float *)malloc(kb);
    d->phir = (float *)malloc(kb); d->phii = (float *)malloc(kb);
    if (!d->x || !d->y || !d->z || !d->kx || !d->ky || !d->kz || !d->phir || !d->phii) {
        mq_free(d);
        return 0;
    }
    uint32_t nz = d->numx / (32u * 32u);
    for (uint32_t i = 0; i < d->numx; i++) {
        d->x[i] = ((float)(i % 32u) + 0.5f) / 32.0f - 0.5f;
        d->y[i] = ((float)(i / 32u % 32u) + 0.5f) / 32.0f - 0.5f;
        d->z[i] = ((float)(i / 1024u) + 0.5f) / (float)nz - 0.5f;
    }
    /* The spiral's direction (c, s) turns by a rotation with tan(a/2) = tq each sample:
     * cos a = (1 - tq^2) / (1 + tq^2), sin a = 2 tq / (1 + tq^2), an exact rotation whatever
     * tq is; tq = 3 pi / K gives about 3 turns.  The start direction comes the same way
     * from a random t0. */
    double tq = 3.0 * 3.14159265358979323846 / (double)d->numk, den = 1.0 + tq * tq;
    double ca = (1.0 - tq * tq) / den, sa = 2.0 * tq / den;
    double t0 = 2.0 * wl_rng_double(&r) - 1.0;
    double c = (1.0 - t0 * t0) / (1.0 + t0 * t0), s = 2.0 * t0 / (1.0 + t0 * t0);
    for (uint32_t k = 0; k < d->numk; k++) {
        double frac = ((double)k + 0.5) / (double)d->numk;
        double rad = 16.0 * sqrt(frac); /* sqrt is correctly rounded (IEEE 754) */
        d->kx[k] = (float)(rad * c);
        d->ky[k] = (float)(rad * s);
        d->kz[k] = (float)(32.0 * frac - 16.0);
        double k2 = rad * rad + (32.0 * frac - 16.0) * (32.0 * frac - 16.0);
        d->phir[k] = (float)((1.0 + 0.2 * (wl_rng_double(&r) - 0.5)) / (1.0 + k2 / 64.0));
        d->phii[k] = (float)(0.1 * (wl_rng_double(&r) - 0.5) / (1.0 + k2 / 64.0));
        double nc = c * ca - s * sa, ns = s * ca + c * sa;
        c = nc;
        s = ns;
    }
    return 1;
}

/* |phi|^2, as mq_phimag computes it */
static inline float mq_phimag_of(float r, float i) { return fmaf(r, r, i * i); }

/* The samples packed for constant memory; numk entries. */
static inline void mq_pack(const mq_data *d, const float *phimag, mq_sample *out) {
    for (uint32_t k = 0; k < d->numk; k++) {
        out[k].kx = d->kx[k];
        out[k].ky = d->ky[k];
        out[k].kz = d->kz[k];
        out[k].phimag = phimag[k];
    }
}

/* The exact Q (in double) of voxel v from the packed samples, the kernel's float
 * argument, and S = sum of |phi|^2 for the tolerance. */
static inline void mq_reference(const mq_data *d, const mq_sample *ks, uint32_t v, double *qr, double *qi,
                                double *s) {
    double sr = 0.0, si = 0.0, sum = 0.0;
    for (uint32_t k = 0; k < d->numk; k++) {
        float arg = MQ_2PI * fmaf(ks[k].kz, d->z[v], fmaf(ks[k].ky, d->y[v], ks[k].kx * d->x[v]));
        sr += (double)ks[k].phimag * cos((double)arg);
        si += (double)ks[k].phimag * sin((double)arg);
        sum += (double)ks[k].phimag;
    }
    *qr = sr;
    *qi = si;
    *s = sum;
}

/* The allowed difference from the exact sum (the header comment derives it). */
static inline double mq_tolerance(double s, uint32_t numk) { return s * ((double)numk + 4.0) / 16777216.0; }

#endif
