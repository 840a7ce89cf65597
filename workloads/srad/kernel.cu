// srad: speckle-reducing anisotropic diffusion of an ultrasound-like image.
//
// Per iteration: srad_reduce sums J and J^2 over the region of interest with a
// shared-memory tree per CTA, srad_stats (one CTA) turns the partial sums into the
// speckle scale q0^2, srad_coeff computes the four directional differences and the
// diffusion coefficient of every pixel (divisions), srad_update diffuses J using its
// own and its south/east neighbours' coefficients.  srad_extract/srad_compress map
// the image into and out of the exponential domain (expf/logf).  Multiply-adds are
// written as fmaf so the CPU reference can repeat them exactly.
//
// Stand-alone: ./srad [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void srad_extract(float *img, int npix) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < npix) img[k] = expf(img[k] / 255.0f);
}

extern "C" __global__ void srad_compress(float *img, int npix) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < npix) img[k] = logf(img[k]) * 255.0f;
}

// Tree sum of one value per thread (blockDim.x a power of two); the result is in s[0].
__device__ void block_tree_sum(float *s) {
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}

extern "C" __global__ void srad_reduce(const float *J, int cols, int roi_row, int roi_col, int roi_rows,
                                       int roi_cols, float *part_sum, float *part_sq) {
    __shared__ float s_sum[SRAD_BLOCK], s_sq[SRAD_BLOCK];
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (k < roi_rows * roi_cols) v = J[(roi_row + k / roi_cols) * cols + roi_col + k % roi_cols];
    s_sum[threadIdx.x] = v;
    s_sq[threadIdx.x] = v * v;
    __syncthreads();
    block_tree_sum(s_sum);
    block_tree_sum(s_sq);
    if (threadIdx.x == 0) {
        part_sum[blockIdx.x] = s_sum[0];
        part_sq[blockIdx.x] = s_sq[0];
    }
}

extern "C" __global__ void srad_stats(const float *part_sum, const float *part_sq, int nparts, int npix_roi,
                                      float *q0sqr) {
    __shared__ float s_sum[SRAD_BLOCK], s_sq[SRAD_BLOCK];
    float sum = 0.0f, sq = 0.0f;
    for (int i = threadIdx.x; i < nparts; i += blockDim.x) {
        sum += part_sum[i];
        sq += part_sq[i];
    }
    s_sum[threadIdx.x] = sum;
    s_sq[threadIdx.x] = sq;
    __syncthreads();
    block_tree_sum(s_sum);
    block_tree_sum(s_sq);
    if (threadIdx.x == 0) {
        float mean = s_sum[0] / (float)npix_roi;
        float var = fmaf(-mean, mean, s_sq[0] / (float)npix_roi);
        *q0sqr = var / (mean * mean);
    }
}

extern "C" __global__ void srad_coeff(const float *J, float *dN, float *dS, float *dW, float *dE, float *c,
                                      int rows, int cols, const float *q0sqr_ptr) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows || j >= cols) return;
    int k = i * cols + j;
    float q0sqr = *q0sqr_ptr;
    float jc = J[k];
    // At the image border the missing neighbour is the pixel itself (zero flux).
    float dn = J[(i > 0 ? i - 1 : i) * cols + j] - jc;
    float ds = J[(i < rows - 1 ? i + 1 : i) * cols + j] - jc;
    float dw = J[i * cols + (j > 0 ? j - 1 : j)] - jc;
    float de = J[i * cols + (j < cols - 1 ? j + 1 : j)] - jc;

    float g2 = fmaf(de, de, fmaf(dw, dw, fmaf(ds, ds, dn * dn))) / (jc * jc);  // normalised gradient^2
    float l = (dn + ds + dw + de) / jc;                                          // normalised Laplacian
    float num = fmaf(-0.0625f * l, l, 0.5f * g2);
    float den = fmaf(0.25f, l, 1.0f);
    float qsqr = num / (den * den);  // instantaneous coefficient of variation^2
    float coeff = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
    dN[k] = dn;
    dS[k] = ds;
    dW[k] = dw;
    dE[k] = de;
    c[k] = fminf(fmaxf(coeff, 0.0f), 1.0f);
}

extern "C" __global__ void srad_update(float *J, const float *dN, const float *dS, const float *dW,
                                       const float *dE, const float *c, int rows, int cols, float lambda) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows || j >= cols) return;
    int k = i * cols + j;
    float c_here = c[k];
    float c_south = c[(i < rows - 1 ? i + 1 : i) * cols + j];
    float c_east = c[i * cols + (j < cols - 1 ? j + 1 : j)];
    float div = fmaf(c_east, dE[k], fmaf(c_here, dW[k], fmaf(c_south, dS[k], c_here * dN[k])));
    J[k] = fmaf(0.25f * lambda, div, J[k]);
}

int main(int argc, char **argv) {
    uint32_t size = 20;  // the evaluation size (wl_srad.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    srad_dims d = srad_dimensions(size);
    int npix = d.rows * d.cols;
    size_t bytes = (size_t)npix * sizeof(float);
    float *img = (float *)malloc(bytes), *expected = (float *)malloc(bytes);
    if (!img || !expected) wl_die("out of host memory");
    srad_generate(&d, seed, img);
    memcpy(expected, img, bytes);
    if (srad_reference(&d, expected) != 0) wl_die("out of host memory");

    int parts = srad_reduce_blocks(&d);
    float *d_J, *d_dN, *d_dS, *d_dW, *d_dE, *d_c, *d_part_sum, *d_part_sq, *d_q0sqr;
    CUDA_CHECK(cudaMalloc(&d_J, bytes));
    CUDA_CHECK(cudaMalloc(&d_dN, bytes));
    CUDA_CHECK(cudaMalloc(&d_dS, bytes));
    CUDA_CHECK(cudaMalloc(&d_dW, bytes));
    CUDA_CHECK(cudaMalloc(&d_dE, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMalloc(&d_part_sum, (size_t)parts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_part_sq, (size_t)parts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_q0sqr, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_J, img, bytes, cudaMemcpyHostToDevice));

    unsigned flat_blocks = ((unsigned)npix + SRAD_BLOCK - 1) / SRAD_BLOCK;
    dim3 tile(SRAD_TILE, SRAD_TILE);
    dim3 tiles((d.cols + SRAD_TILE - 1) / SRAD_TILE, (d.rows + SRAD_TILE - 1) / SRAD_TILE);
    srad_extract<<<flat_blocks, SRAD_BLOCK>>>(d_J, npix);
    CUDA_CHECK(cudaGetLastError());
    for (int it = 0; it < SRAD_ITERATIONS; it++) {
        srad_reduce<<<parts, SRAD_BLOCK>>>(d_J, d.cols, d.roi_row, d.roi_col, d.roi_rows, d.roi_cols, d_part_sum,
                                           d_part_sq);
        CUDA_CHECK(cudaGetLastError());
        srad_stats<<<1, SRAD_BLOCK>>>(d_part_sum, d_part_sq, parts, d.roi_rows * d.roi_cols, d_q0sqr);
        CUDA_CHECK(cudaGetLastError());
        srad_coeff<<<tiles, tile>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_c, d.rows, d.cols, d_q0sqr);
        CUDA_CHECK(cudaGetLastError());
        srad_update<<<tiles, tile>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_c, d.rows, d.cols, SRAD_LAMBDA);
        CUDA_CHECK(cudaGetLastError());
    }
    srad_compress<<<flat_blocks, SRAD_BLOCK>>>(d_J, npix);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(img, d_J, bytes, cudaMemcpyDeviceToHost));

    int64_t bad = srad_first_mismatch(&d, img, expected);
    if (bad >= 0)
        fprintf(stderr, "img[%lld]: got %.9g, expected %.9g\n", (long long)bad, img[bad], expected[bad]);
    cudaFree(d_J); cudaFree(d_dN); cudaFree(d_dS); cudaFree(d_dW); cudaFree(d_dE); cudaFree(d_c);
    cudaFree(d_part_sum); cudaFree(d_part_sq); cudaFree(d_q0sqr);
    free(img); free(expected);
    return wl_finish(bad < 0);
}
