/* gemm: tiled single-precision C = alpha * A * B + beta * C.
 *
 * The textbook shared-memory SGEMM: a 16 x 16 block computes a 16 x 16 tile of C;
 * it walks K in 16-wide steps, each thread loading one element of the A tile and
 * one of the B tile into shared memory (zero outside the matrices, so partial
 * tiles at every edge need no special case in the inner loop), a barrier, 16
 * multiply-adds from shared memory, and a second barrier before the tiles are
 * overwritten.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void sgemm_tiled(int M, int N, int K, float alpha, const float *__restrict__ A,
                                       const float *__restrict__ B, float beta, float *C) {
    __shared__ float As[GEMM_TILE][GEMM_TILE];
    __shared__ float Bs[GEMM_TILE][GEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * GEMM_TILE + ty;
    int col = blockIdx.x * GEMM_TILE + tx;
    float acc = 0.0f;

    for (int t = 0; t < K; t += GEMM_TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < GEMM_TILE; k++) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    if (row < M && col < N) {
        size_t at = (size_t)row * N + col;
        C[at] = alpha * acc + beta * C[at];
    }
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = GEMM_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, GEMM_MAX_SIZE, &size, &seed);
    gemm_dims d = gemm_dims_for(size);
    size_t a_count = (size_t)d.m * d.k, b_count = (size_t)d.k * d.n, c_count = (size_t)d.m * d.n;
    float *a = (float *)malloc(a_count * sizeof(float)), *b = (float *)malloc(b_count * sizeof(float));
    float *c = (float *)malloc(c_count * sizeof(float));
    double *want = (double *)malloc(c_count * sizeof(double)), *tol = (double *)malloc(c_count * sizeof(double));
    if (!a || !b || !c || !want || !tol) wl_die("out of host memory");
    gemm_gen(d, seed, a, b, c);
    gemm_ref(d, a, b, c, want, tol);

    float *da, *db, *dc;
    CUDA_CHECK(cudaMalloc(&da, a_count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, b_count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dc, c_count * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(da, a, a_count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b, b_count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dc, c, c_count * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(GEMM_TILE, GEMM_TILE);
    dim3 grid((d.n + GEMM_TILE - 1) / GEMM_TILE, (d.m + GEMM_TILE - 1) / GEMM_TILE);
    sgemm_tiled<<<grid, block>>>((int)d.m, (int)d.n, (int)d.k, GEMM_ALPHA, da, db, GEMM_BETA, dc);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(c, dc, c_count * sizeof(float), cudaMemcpyDeviceToHost));

    size_t bad = gemm_first_mismatch(c_count, c, want, tol);
    if (bad < c_count)
        printf("mismatch at C[%zu][%zu]: got %.9g, expected %.9g (tolerance %.3g)\n", bad / d.n,
               bad % d.n, (double)c[bad], want[bad], tol[bad]);

    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dc));
    free(a);
    free(b);
    free(c);
    free(want);
    free(tol);
    return wl_finish(bad >= c_count);
}
