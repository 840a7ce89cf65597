// lud: blocked LU decomposition (no pivoting) with shared-memory tiles.
//
// For each diagonal tile k the host launches three kernels:
//   lud_diagonal  (1 CTA, 16 threads): factors tile (k,k) in shared memory;
//   lud_perimeter (one CTA per remaining tile, 32 threads = one warp): the first
//                 half-warp solves L(k,k) U(k,j) = A(k,j) for the tile right of the
//                 diagonal (a column per thread), the second half solves
//                 L(i,k) U(k,k) = A(i,k) for the tile below it (a row per thread), so
//                 the warp diverges into two different triangular solves;
//   lud_internal  (one 16x16 CTA per trailing tile): A(i,j) -= L(i,k) U(k,j), both
//                 factors staged in shared memory.
// The matrix behaves as if padded with the identity to whole tiles (see ref.h).
//
// Stand-alone: ./lud [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// Element (r, c) of the identity-padded matrix.
__device__ inline float load_padded(const float *a, int n, int r, int c) {
    if (r < n && c < n) return a[r * n + c];
    return r == c ? 1.0f : 0.0f;
}

__device__ inline void store_inside(float *a, int n, int r, int c, float x) {
    if (r < n && c < n) a[r * n + c] = x;
}

extern "C" __global__ void lud_diagonal(float *a, int n, int k) {
    __shared__ float tile[LUD_BS][LUD_BS];
    int t = threadIdx.x;
    int base = k * LUD_BS;
    for (int r = 0; r < LUD_BS; r++) tile[r][t] = load_padded(a, n, base + r, base + t);
    __syncthreads();
    // Right-looking elimination; thread t owns row t.
    for (int p = 0; p < LUD_BS - 1; p++) {
        if (t > p) tile[t][p] /= tile[p][p];
        __syncthreads();
        if (t > p) {
            float l = tile[t][p];
            for (int c = p + 1; c < LUD_BS; c++) tile[t][c] -= l * tile[p][c];
        }
        __syncthreads();
    }
    for (int r = 0; r < LUD_BS; r++) store_inside(a, n, base + r, base + t, tile[r][t]);
}

extern "C" __global__ void lud_perimeter(float *a, int n, int k) {
    __shared__ float diag[LUD_BS][LUD_BS];
    __shared__ float row_tile[LUD_BS][LUD_BS];   // tile (k, j): becomes U(k, j)
    __shared__ float col_tile[LUD_BS][LUD_BS];   // tile (j, k): becomes L(j, k)
    int t = threadIdx.x;
    int col = t % LUD_BS, half = t / LUD_BS;
    int kb = k * LUD_BS, jb = (k + 1 + blockIdx.x) * LUD_BS;
    for (int r = half; r < LUD_BS; r += 2) {
        diag[r][col] = load_padded(a, n, kb + r, kb + col);
        row_tile[r][col] = load_padded(a, n, kb + r, jb + col);
        col_tile[r][col] = load_padded(a, n, jb + r, kb + col);
    }
    __syncthreads();

    if (half == 0) {
        // Forward substitution with the unit lower triangle, down column `col`.
        for (int r = 1; r < LUD_BS; r++) {
            float x = row_tile[r][col];
            for (int p = 0; p < r; p++) x -= diag[r][p] * row_tile[p][col];
            row_tile[r][col] = x;
        }
    } else {
        // Row `col` of the tile below: solve x U(k,k) = a, left to right.
        for (int c = 0; c < LUD_BS; c++) {
            float x = col_tile[col][c];
            for (int p = 0; p < c; p++) x -= col_tile[col][p] * diag[p][c];
            col_tile[col][c] = x / diag[c][c];
        }
    }
    __syncthreads();

    for (int r = half; r < LUD_BS; r += 2) {
        store_inside(a, n, kb + r, jb + col, row_tile[r][col]);
        store_inside(a, n, jb + r, kb + col, col_tile[r][col]);
    }
}

extern "C" __global__ void lud_internal(float *a, int n, int k) {
    __shared__ float left[LUD_BS][LUD_BS];   // L(i, k)
    __shared__ float top[LUD_BS][LUD_BS];    // U(k, j)
    int tx = threadIdx.x, ty = threadIdx.y;
    int kb = k * LUD_BS;
    int row = (k + 1 + blockIdx.y) * LUD_BS + ty;
    int col = (k + 1 + blockIdx.x) * LUD_BS + tx;
    left[ty][tx] = load_padded(a, n, row, kb + tx);
    top[ty][tx] = load_padded(a, n, kb + ty, col);
    __syncthreads();
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int p = 0; p < LUD_BS; p++) sum += left[ty][p] * top[p][tx];
        a[row * n + col] -= sum;
    }
}

int main(int argc, char **argv) {
    uint32_t size = LUD_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, LUD_MAX_SIZE, &size, &seed);

    int32_t n;
    float *a = lud_generate(size, seed, &n);
    if (!a) wl_die("out of host memory");
    size_t bytes = (size_t)n * n * sizeof(float);
    float *lu = (float *)malloc(bytes);
    if (!lu) wl_die("out of host memory");

    float *d_a;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    int tiles = lud_tiles(n);
    for (int k = 0; k < tiles; k++) {
        lud_diagonal<<<1, LUD_BS>>>(d_a, n, k);
        CUDA_CHECK(cudaGetLastError());
        int rest = tiles - k - 1;
        if (rest == 0) break;
        lud_perimeter<<<rest, 2 * LUD_BS>>>(d_a, n, k);
        CUDA_CHECK(cudaGetLastError());
        lud_internal<<<dim3(rest, rest), dim3(LUD_BS, LUD_BS)>>>(d_a, n, k);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(lu, d_a, bytes, cudaMemcpyDeviceToHost));

    int32_t bi = 0, bj = 0;
    double got = 0.0, want = 0.0;
    int ok = lud_check(n, a, lu, &bi, &bj, &got, &want);
    if (!ok) fprintf(stderr, "(L*U)[%d][%d]: got %.9g, expected %.9g\n", bi, bj, got, want);
    cudaFree(d_a);
    free(a); free(lu);
    return wl_finish(ok);
}
