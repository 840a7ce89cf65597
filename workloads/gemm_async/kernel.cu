/* gemm_async: tiled SGEMM C = alpha * A * B + beta * C whose tiles are copied from
 * global to shared memory with cp.async (sm_80+), double-buffered.
 *
 * Same problem, tiles and summation order as workloads/gemm, so the same
 * tolerance applies; the difference is the copy: each thread issues the copies of
 * tile t+1 with __pipeline_memcpy_async (cp.async.ca.shared.global, 4 bytes; an
 * element outside the matrices is a zero-fill copy: src-size 0) into the buffer
 * not being read, commits them as one group, then waits for all but that newest
 * group (__pipeline_wait_prior(1) = cp.async.wait_group 1): tile t has landed
 * while tile t+1 is still in flight.  Built for compute_80 (workloads/gemm_async/arch).
 *
 * main() below is an ordinary CUDA program doing the same run.
 */
#include <cuda_pipeline.h>
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

/* Issue the copies of K-tile t into buffer b: one element of A and one of B per thread. */
static __device__ __forceinline__ void stage(float (*As)[GEMM_TILE], float (*Bs)[GEMM_TILE], int M, int N, int K,
                                             const float *A, const float *B, int row, int col, int t) {
    int tx = threadIdx.x, ty = threadIdx.y;
    int ka = t * GEMM_TILE + tx, kb = t * GEMM_TILE + ty;
    bool ina = row < M && ka < K, inb = kb < K && col < N;
    /* outside the matrix: nothing is read (zero fill of all 4 bytes); the source
     * pointer stays a valid one all the same */
    __pipeline_memcpy_async(&As[ty][tx], ina ? &A[(size_t)row * K + ka] : A, sizeof(float), ina ? 0 : sizeof(float));
    __pipeline_memcpy_async(&Bs[ty][tx], inb ? &B[(size_t)kb * N + col] : B, sizeof(float), inb ? 0 : sizeof(float));
}

extern "C" __global__ void sgemm_async(int M, int N, int K, float alpha, const float *__restrict__ A,
                                       const float *__restrict__ B, float beta, float *C) {
    __shared__ float As[2][GEMM_TILE][GEMM_TILE];
    __shared__ float Bs[2][GEMM_TILE][GEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * GEMM_TILE + ty;
    int col = blockIdx.x * GEMM_TILE + tx;
    int ntiles = (K + GEMM_TILE - 1) / GEMM_TILE;
    float acc = 0.0f;

    stage(As[0], Bs[0], M, N, K, A, B, row, col, 0);
    __pipeline_commit();
    for (int t = 0; t < ntiles; t++) {
        int cur = t & 1;
        if (t + 1 < ntiles) stage(As[cur ^ 1], Bs[cur ^ 1], M, N, K, A, B, row, col, t + 1);
        __pipeline_commit();      /* an empty group on the last tile keeps the count uniform */
        __pipeline_wait_prior(1); /* tile t has landed (this thread's copies) */
        __syncthreads();          /* ... and every other thread's */
#pragma unroll
        for (int k = 0; k < GEMM_TILE; k++) acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();          /* buffer cur is refilled by the next iteration's copies */
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
    sgemm_async<<<grid, block>>>((int)d.m, (int)d.n, (int)d.k, GEMM_ALPHA, da, db, GEMM_BETA, dc);
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
