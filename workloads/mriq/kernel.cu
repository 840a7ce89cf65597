// mriq: Parboil's MRI-Q (the Q matrix of a non-Cartesian MRI reconstruction), written
// here after its structure.
//
// mq_phimag: one thread per k-space sample, |phi|^2.
// mq_computeq: one thread per voxel; a launch per chunk of MQ_CHUNK samples held in
// constant memory (every thread of a warp reads the same sample: the constant
// cache's broadcast), a sincos per sample, the partial sums carried in Qr/Qi from
// one chunk's launch to the next.  Compute- and SFU-bound; global memory is touched
// only at a voxel's start and end.
//
// Stand-alone: ./mriq [--size S] [--seed N]   (prints PASS or FAIL)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ mq_sample c_k[MQ_CHUNK];

extern "C" __global__ void mq_phimag(float *phimag, const float *phir, const float *phii, int numk) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < numk) phimag[k] = fmaf(phir[k], phir[k], phii[k] * phii[k]);
}

extern "C" __global__ void mq_computeq(int nk, const float *x, const float *y, const float *z, float *qr,
                                       float *qi, int numx) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= numx) return;
    float sx = x[v], sy = y[v], sz = z[v];
    float sr = qr[v], si = qi[v];
    for (int k = 0; k < nk; k++) {
        float arg = MQ_2PI * fmaf(c_k[k].kz, sz, fmaf(c_k[k].ky, sy, c_k[k].kx * sx));
        float s, c;
        sincosf(arg, &s, &c);
        sr = fmaf(c_k[k].phimag, c, sr);
        si = fmaf(c_k[k].phimag, s, si);
    }
    qr[v] = sr;
    qi[v] = si;
}

int main(int argc, char **argv) {
    uint32_t size = 3;  // the evaluation size (wl_mriq.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, MQ_MAX_SIZE, &size, &seed);

    mq_data d;
    if (!mq_generate(size, seed, &d)) wl_die("out of host memory");
    size_t xb = d.numx * sizeof(float), kb = d.numk * sizeof(float);
    float *phimag = (float *)malloc(kb), *qr = (float *)malloc(xb), *qi = (float *)malloc(xb);
    mq_sample *ks = (mq_sample *)malloc(d.numk * sizeof(mq_sample));
    if (!phimag || !qr || !qi || !ks) wl_die("out of host memory");

    float *d_x, *d_y, *d_z, *d_phir, *d_phii, *d_phimag, *d_qr, *d_qi;
    CUDA_CHECK(cudaMalloc(&d_x, xb));
    CUDA_CHECK(cudaMalloc(&d_y, xb));
    CUDA_CHECK(cudaMalloc(&d_z, xb));
    CUDA_CHECK(cudaMalloc(&d_qr, xb));
    CUDA_CHECK(cudaMalloc(&d_qi, xb));
    CUDA_CHECK(cudaMalloc(&d_phir, kb));
    CUDA_CHECK(cudaMalloc(&d_phii, kb));
    CUDA_CHECK(cudaMalloc(&d_phimag, kb));
    CUDA_CHECK(cudaMemcpy(d_x, d.x, xb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, d.y, xb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_z, d.z, xb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_phir, d.phir, kb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_phii, d.phii, kb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_qr, 0, xb));
    CUDA_CHECK(cudaMemset(d_qi, 0, xb));
    mq_phimag<<<(d.numk + MQ_THREADS - 1) / MQ_THREADS, MQ_THREADS>>>(d_phimag, d_phir, d_phii, (int)d.numk);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(phimag, d_phimag, kb, cudaMemcpyDeviceToHost));
    for (uint32_t k = 0; k < d.numk; k++) {
        float want = mq_phimag_of(d.phir[k], d.phii[k]);
        if (memcmp(&phimag[k], &want, sizeof want) != 0)
            wl_die("|phi|^2 of sample %u: got %.9g, expected %.9g", k, phimag[k], want);
    }
    mq_pack(&d, phimag, ks);
    for (uint32_t k0 = 0; k0 < d.numk; k0 += MQ_CHUNK) {
        uint32_t nk = d.numk - k0 < MQ_CHUNK ? d.numk - k0 : MQ_CHUNK;
        CUDA_CHECK(cudaMemcpyToSymbol(c_k, ks + k0, nk * sizeof(mq_sample)));
        mq_computeq<<<(d.numx + MQ_THREADS - 1) / MQ_THREADS, MQ_THREADS>>>((int)nk, d_x, d_y, d_z, d_qr, d_qi,
                                                                          (int)d.numx);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaMemcpy(qr, d_qr, xb, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(qi, d_qi, xb, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (uint32_t v = 0; v < d.numx && ok; v++) {
        double er, ei, s;
        mq_reference(&d, ks, v, &er, &ei, &s);
        double tol = mq_tolerance(s, d.numk);
        if (fabs(qr[v] - er) > tol || fabs(qi[v] - ei) > tol) {
            fprintf(stderr, "voxel %u: got (%.9g, %.9g), expected (%.9g, %.9g) within %.3g\n", v, qr[v], qi[v], er,
                    ei, tol);
            ok = 0;
        }
    }
    cudaFree(d_x); cudaFree(d_y); cudaFree(d_z); cudaFree(d_qr); cudaFree(d_qi);
    cudaFree(d_phir); cudaFree(d_phii); cudaFree(d_phimag);
    mq_free(&d);
    free(phimag); free(qr); free(qi); free(ks);
    return wl_finish(ok);
}
