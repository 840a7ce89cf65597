// srad2: speckle-reducing anisotropic diffusion in Rodinia's srad_v2 structure
// (ref.h explains the pipeline and how it differs from srad, the v1 structure).
//
// Each 16 x 16 CTA keeps its tile in shared memory.  The pixels just outside the
// tile are read the way v2 reads them: every thread of a tile column loads the
// pixel above and below the tile, every thread of a tile row the pixel left and
// right of it, so the eight warps of a CTA read the same few halo lines again and
// again -- reuse the L1D can keep or lose.  At the image border the halo index is
// clamped to the pixel itself, so its difference is 0 (zero flux), as in srad.
//
// Stand-alone: ./srad2 [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

#define T SRAD2_TILE

extern "C" __global__ void srad2_coeff(const float *J, float *dN, float *dS, float *dW, float *dE, float *C,
                                       int rows, int cols, float q0sqr) {
    __shared__ float tile[T][T], north[T][T], south[T][T], west[T][T], east[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int top = blockIdx.y * T, left = blockIdx.x * T;
    int i = top + ty, j = left + tx, k = i * cols + j;
    int north_row = top > 0 ? top - 1 : 0, south_row = top + T < rows ? top + T : rows - 1;
    int west_col = left > 0 ? left - 1 : 0, east_col = left + T < cols ? left + T : cols - 1;
    north[ty][tx] = J[north_row * cols + j];
    south[ty][tx] = J[south_row * cols + j];
    west[ty][tx] = J[i * cols + west_col];
    east[ty][tx] = J[i * cols + east_col];
    tile[ty][tx] = J[k];
    __syncthreads();

    float jc = tile[ty][tx];
    float dn = (ty == 0 ? north[ty][tx] : tile[ty - 1][tx]) - jc;
    float ds = (ty == T - 1 ? south[ty][tx] : tile[ty + 1][tx]) - jc;
    float dw = (tx == 0 ? west[ty][tx] : tile[ty][tx - 1]) - jc;
    float de = (tx == T - 1 ? east[ty][tx] : tile[ty][tx + 1]) - jc;

    float g2 = fmaf(de, de, fmaf(dw, dw, fmaf(ds, ds, dn * dn))) / (jc * jc);  // normalised gradient^2
    float l = (dn + ds + dw + de) / jc;                                          // normalised Laplacian
    float num = fmaf(-0.0625f * l, l, 0.5f * g2);
    float den = fmaf(0.25f, l, 1.0f);
    float qsqr = num / (den * den);
    float coeff = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
    dN[k] = dn;
    dS[k] = ds;
    dW[k] = dw;
    dE[k] = de;
    C[k] = fminf(fmaxf(coeff, 0.0f), 1.0f);
}

extern "C" __global__ void srad2_update(float *J, const float *dN, const float *dS, const float *dW,
                                        const float *dE, const float *C, int rows, int cols, float lambda) {
    __shared__ float c_tile[T][T], south_c[T][T], east_c[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int top = blockIdx.y * T, left = blockIdx.x * T;
    int i = top + ty, j = left + tx, k = i * cols + j;
    int south_row = top + T < rows ? top + T : rows - 1, east_col = left + T < cols ? left + T : cols - 1;
    south_c[ty][tx] = C[south_row * cols + j];
    east_c[ty][tx] = C[i * cols + east_col];
    c_tile[ty][tx] = C[k];
    __syncthreads();

    float c_here = c_tile[ty][tx];
    float c_south = ty == T - 1 ? south_c[ty][tx] : c_tile[ty + 1][tx];  // the border clamps to c_here
    float c_east = tx == T - 1 ? east_c[ty][tx] : c_tile[ty][tx + 1];
    float div = fmaf(c_east, dE[k], fmaf(c_here, dW[k], fmaf(c_south, dS[k], c_here * dN[k])));
    J[k] = fmaf(0.25f * lambda, div, J[k]);
}

int main(int argc, char **argv) {
    uint32_t size = 12;  // the evaluation size (wl_srad2.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    srad_dims d = srad2_dimensions(size);
    size_t npix = (size_t)d.rows * d.cols, bytes = npix * sizeof(float);
    float *J = (float *)malloc(bytes), *expected = (float *)malloc(bytes);
    if (!J || !expected) wl_die("out of host memory");
    srad2_input(&d, seed, J);
    memcpy(expected, J, bytes);
    if (srad2_reference(&d, expected) != 0) wl_die("out of host memory");

    float *d_J, *d_dN, *d_dS, *d_dW, *d_dE, *d_C;
    CUDA_CHECK(cudaMalloc(&d_J, bytes));
    CUDA_CHECK(cudaMalloc(&d_dN, bytes));
    CUDA_CHECK(cudaMalloc(&d_dS, bytes));
    CUDA_CHECK(cudaMalloc(&d_dW, bytes));
    CUDA_CHECK(cudaMalloc(&d_dE, bytes));
    CUDA_CHECK(cudaMalloc(&d_C, bytes));
    dim3 tile(T, T), tiles(d.cols / T, d.rows / T);
    for (int it = 0; it < SRAD2_ITERATIONS; it++) {
        float q0sqr = srad2_q0sqr(&d, J);
        CUDA_CHECK(cudaMemcpy(d_J, J, bytes, cudaMemcpyHostToDevice));
        srad2_coeff<<<tiles, tile>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_C, d.rows, d.cols, q0sqr);
        CUDA_CHECK(cudaGetLastError());
        srad2_update<<<tiles, tile>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_C, d.rows, d.cols, SRAD_LAMBDA);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(J, d_J, bytes, cudaMemcpyDeviceToHost));
    }

    int64_t bad = srad2_first_mismatch(&d, J, expected);
    if (bad >= 0)
        fprintf(stderr, "J[%lld]: got %.9g, expected %.9g\n", (long long)bad, J[bad], expected[bad]);
    cudaFree(d_J); cudaFree(d_dN); cudaFree(d_dS); cudaFree(d_dW); cudaFree(d_dE); cudaFree(d_C);
    free(J); free(expected);
    return wl_finish(bad < 0);
}
