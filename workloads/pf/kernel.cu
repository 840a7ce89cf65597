// pf: particle filter tracking a disk through a noisy video (Rodinia's
// particlefilter, the Locality Descriptor paper's PF), written here after its
// structure: per frame, move the particles and weigh them by the likelihood of the
// pixels under the object's disk, normalise (CDF), estimate the object's position,
// and resample.  ref.h describes the input and the four kernels.
//
// Stand-alone: ./pf [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ int c_obj[2 * PF_MAXONES];

// Move particle i of the previous frame's positions (px, py) and weigh it by frame f.
extern "C" __global__ void pf_likelihood(float *mx, float *my, float *lik, float *lmax, const float *px,
                                         const float *py, const float *noise, const unsigned char *f, int n,
                                         int ones) {
    __shared__ float best[PF_BLOCK];
    const int t = (int)threadIdx.x, i = (int)(blockIdx.x * PF_BLOCK) + t;
    const float x = (px[i] + 1.0f) + noise[i], y = (py[i] + -2.0f) + noise[n + i];
    mx[i] = x;
    my[i] = y;
    const int ix = __float2int_rn(x), iy = __float2int_rn(y);
    int s = 0;
    for (int d = 0; d < ones; d++) {
        const int qx = min(max(ix + c_obj[2 * d], 0), PF_W - 1), qy = min(max(iy + c_obj[2 * d + 1], 0), PF_H - 1);
        s += 256 * (int)f[qy * PF_W + qx] - 41984;
    }
    const float l = (float)s / (float)(50 * ones);
    lik[i] = l;
    best[t] = l;
    for (int stride = PF_BLOCK / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride) best[t] = fmaxf(best[t], best[t + stride]);
    }
    if (t == 0) lmax[blockIdx.x] = best[0];
}

// w = expf(L - the largest L of the frame).
extern "C" __global__ void pf_weights(float *w, const float *lik, const float *lmax, int nblocks) {
    const int i = (int)(blockIdx.x * PF_BLOCK + threadIdx.x);
    float m = lmax[0];
    for (int b = 1; b < nblocks; b++) m = fmaxf(m, lmax[b]);
    w[i] = expf(lik[i] - m);
}

// One CTA of PF_SCAN threads: the CDF of w and the weighted mean position.
extern "C" __global__ void pf_scan(float *cdf, float *est, const float *w, const float *mx, const float *my,
                                   int n) {
    __shared__ float part[PF_SCAN], ex[PF_SCAN], ey[PF_SCAN];
    const int t = (int)threadIdx.x, chunk = n / PF_SCAN, base = t * chunk;
    float s = 0.0f, sx = 0.0f, sy = 0.0f;
    for (int c = 0; c < chunk; c++) {
        const float wi = w[base + c];
        s = s + wi;
        sx = fmaf(mx[base + c], wi, sx);
        sy = fmaf(my[base + c], wi, sy);
    }
    part[t] = s;
    ex[t] = sx;
    ey[t] = sy;
    for (int off = 1; off < PF_SCAN; off *= 2) {
        __syncthreads();
        const float prev = t >= off ? part[t - off] : 0.0f;
        __syncthreads();
        part[t] = part[t] + prev;
    }
    __syncthreads();
    float run = t ? part[t - 1] : 0.0f;
    for (int c = 0; c < chunk; c++) {
        run = run + w[base + c];
        cdf[base + c] = run;
    }
    for (int stride = PF_SCAN / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride) {
            ex[t] = ex[t] + ex[t + stride];
            ey[t] = ey[t] + ey[t + stride];
        }
    }
    if (t == 0) {
        const float total = part[PF_SCAN - 1];
        est[0] = ex[0] / total;
        est[1] = ey[0] / total;
    }
}

// Systematic resampling: particle j takes the moved position of the first particle
// whose CDF reaches (j + u0) / n of the total.
extern "C" __global__ void pf_resample(float *sx, float *sy, const float *cdf, const float *mx, const float *my,
                                       float u0, int n) {
    const int j = (int)(blockIdx.x * PF_BLOCK + threadIdx.x);
    const float target = ((float)j + u0) / (float)n * cdf[n - 1];
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (cdf[mid] >= target) hi = mid;
        else lo = mid + 1;
    }
    sx[j] = mx[lo];
    sy[j] = my[lo];
}

int main(int argc, char **argv) {
    uint32_t size = 3;  // the evaluation size (wl_pf.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, PF_MAX_SIZE, &size, &seed);

    pf_input in;
    if (!pf_generate(size, seed, &in)) wl_die("out of host memory");
    const int n = (int)in.n, nb = n / PF_BLOCK;
    const size_t all = (size_t)PF_FRAMES * n * sizeof(float);
    pf_state g;
    float **host[] = {&g.sx, &g.sy, &g.mx, &g.my, &g.lik, &g.w, &g.cdf};
    float *dev[7];
    for (int a = 0; a < 7; a++) {
        if (!(*host[a] = (float *)calloc((size_t)PF_FRAMES * n, sizeof(float)))) wl_die("out of host memory");
        CUDA_CHECK(cudaMalloc(&dev[a], all));
    }
    g.lmax = (float *)calloc((size_t)PF_FRAMES * nb, sizeof(float));
    g.est = (float *)calloc(2 * PF_FRAMES, sizeof(float));
    if (!g.lmax || !g.est) wl_die("out of host memory");
    float *d_lmax, *d_est, *d_noise;
    unsigned char *d_frames;
    CUDA_CHECK(cudaMalloc(&d_lmax, (size_t)PF_FRAMES * nb * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_est, 2 * PF_FRAMES * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_noise, (size_t)PF_FRAMES * 2 * n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_frames, (size_t)PF_FRAMES * PF_W * PF_H));
    CUDA_CHECK(cudaMemcpy(d_noise, in.noise, (size_t)PF_FRAMES * 2 * n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_frames, in.frames, (size_t)PF_FRAMES * PF_W * PF_H, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_obj, in.obj, sizeof in.obj));
    for (int i = 0; i < n; i++) g.sx[i] = (float)in.x0, g.sy[i] = (float)in.y0;
    CUDA_CHECK(cudaMemcpy(dev[0], g.sx, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dev[1], g.sy, n * sizeof(float), cudaMemcpyHostToDevice));
    float *sx = dev[0], *sy = dev[1], *mx = dev[2], *my = dev[3], *lik = dev[4], *w = dev[5], *cdf = dev[6];
    for (int k = 1; k < PF_FRAMES; k++) {
        const size_t o = (size_t)k * n, p = (size_t)(k - 1) * n;
        pf_likelihood<<<nb, PF_BLOCK>>>(mx + o, my + o, lik + o, d_lmax + (size_t)k * nb, sx + p, sy + p,
                                        d_noise + 2 * o, d_frames + (size_t)k * PF_W * PF_H, n, in.ones);
        CUDA_CHECK(cudaGetLastError());
        pf_weights<<<nb, PF_BLOCK>>>(w + o, lik + o, d_lmax + (size_t)k * nb, nb);
        CUDA_CHECK(cudaGetLastError());
        pf_scan<<<1, PF_SCAN>>>(cdf + o, d_est + 2 * k, w + o, mx + o, my + o, n);
        CUDA_CHECK(cudaGetLastError());
        pf_resample<<<nb, PF_BLOCK>>>(sx + o, sy + o, cdf + o, mx + o, my + o, in.u0[k], n);
        CUDA_CHECK(cudaGetLastError());
    }
    for (int a = 0; a < 7; a++) CUDA_CHECK(cudaMemcpy(*host[a], dev[a], all, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g.lmax, d_lmax, (size_t)PF_FRAMES * nb * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g.est, d_est, 2 * PF_FRAMES * sizeof(float), cudaMemcpyDeviceToHost));
    char why[256];
    const int bad = pf_check(&in, &g, why, sizeof why);
    if (bad) fprintf(stderr, "%s\n", why);
    for (int a = 0; a < 7; a++) {
        cudaFree(dev[a]);
        free(*host[a]);
    }
    cudaFree(d_lmax); cudaFree(d_est); cudaFree(d_noise); cudaFree(d_frames);
    free(g.lmax); free(g.est);
    pf_free(&in);
    return wl_finish(!bad);
}
