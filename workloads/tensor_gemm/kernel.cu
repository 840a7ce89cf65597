/* tensor_gemm: D = A x B + C on the tensor cores, f16 inputs, f32 accumulation,
 * computed twice: once through the WMMA API (tgemm_wmma) and once with mma.sync
 * and ldmatrix written as inline PTX (tgemm_mma), each checked against the CPU
 * reference bit for bit (ref.h says why the result is exact).
 *
 * A CTA of 4 warps computes a 32 x 32 tile of D, each warp a 16 x 16 quarter,
 * stepping through K 16 at a time:
 *  - tgemm_wmma: wmma.load of the A tile (row-major) and of the B tile
 *    (column-major) straight from global memory, one m16n16k16 wmma.mma per step;
 *    the accumulator starts as C's tile (wmma.load.c) and ends in D (wmma.store.d);
 *  - tgemm_mma: the warp copies its A and B tiles into shared memory (16 bytes a
 *    lane), reads them into mma fragments with ldmatrix.x4 and issues two
 *    m16n8k16 mma.sync per step (the left and right 16 x 8 halves); the
 *    accumulators are loaded from and stored to C and D in the mma.sync layout.
 *
 * Built for sm_80 (compute_80: mma.sync.m16n8k16 and ldmatrix need it).
 * main() below is an ordinary CUDA program doing the same run.
 */
#include <mma.h>
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

using namespace nvcuda;

extern "C" __global__ void tgemm_wmma(int M, int N, int K, const __half *A, const __half *B, const float *C,
                                      float *D) {
    int warp = threadIdx.x / 32;
    int row = blockIdx.y * TG_TILE + (warp / 2) * 16;
    int col = blockIdx.x * TG_TILE + (warp % 2) * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, C + (size_t)row * N + col, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, A + (size_t)row * K + k, K);
        wmma::load_matrix_sync(fb, B + (size_t)col * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(D + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

/* 16 rows of 16 halves, padded to 24 so that ldmatrix's eight row reads of a
 * matrix fall in different banks (rows stay 16-byte aligned). */
#define TG_SROW 24

static __device__ __forceinline__ void ldmatrix_x4(unsigned r[4], const __half *p) {
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

static __device__ __forceinline__ void mma_16816(float d[4], const unsigned a[4], unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

extern "C" __global__ void tgemm_mma(int M, int N, int K, const __half *A, const __half *B, const float *C,
                                     float *D) {
    __shared__ __align__(16) __half As[4][16][TG_SROW];
    __shared__ __align__(16) __half Bs[4][16][TG_SROW]; /* Bs[w][n][k]: B's columns as rows */
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row = blockIdx.y * TG_TILE + (warp / 2) * 16;
    int col = blockIdx.x * TG_TILE + (warp % 2) * 16;
    int g = lane / 4, q = lane % 4;
    /* accumulators: d[h][i] is element (g + 8 (i / 2), 2 q + i % 2) of half h (columns 8 h ..) */
    float d[2][4];
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < 4; i++)
            d[h][i] = C[(size_t)(row + g + 8 * (i / 2)) * N + col + 8 * h + 2 * q + i % 2];
    for (int k = 0; k < K; k += 16) {
        /* each lane copies 8 halves (16 bytes) of the A tile and of the B tile */
        int r = lane / 2, c = (lane % 2) * 8;
        *(uint4 *)&As[warp][r][c] = *(const uint4 *)&A[(size_t)(row + r) * K + k + c];
        *(uint4 *)&Bs[warp][r][c] = *(const uint4 *)&B[(size_t)(col + r) * K + k + c];
        __syncwarp();
        unsigned a[4], b[4];
        /* A: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15), lane l points at a row of matrix l / 8 */
        ldmatrix_x4(a, &As[warp][lane % 16][(lane / 16) * 8]);
        /* B: matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15) */
        ldmatrix_x4(b, &Bs[warp][(lane / 16) * 8 + lane % 8][((lane / 8) % 2) * 8]);
        mma_16816(d[0], a, b[0], b[1]);
        mma_16816(d[1], a, b[2], b[3]);
        __syncwarp();
    }
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < 4; i++)
            D[(size_t)(row + g + 8 * (i / 2)) * N + col + 8 * h + 2 * q + i % 2] = d[h][i];
}

/* ---- stand-alone host program ---- */

static size_t first_diff(const float *got, const float *want, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) return i;
    return n;
}

int main(int argc, char **argv) {
    uint32_t size = TG_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, TG_MAX_SIZE, &size, &seed);
    tg_dims d = tg_dims_for(size);
    size_t na = (size_t)d.m * d.k, nb = (size_t)d.k * d.n, nc = (size_t)d.m * d.n;
    uint16_t *a = (uint16_t *)malloc(na * 2), *b = (uint16_t *)malloc(nb * 2);
    float *c = (float *)malloc(nc * 4), *want = (float *)malloc(nc * 4), *got = (float *)malloc(nc * 4);
    if (!a || !b || !c || !want || !got) wl_die("out of host memory");
    tg_gen(d, seed, a, b, c);
    tg_ref(d, a, b, c, want);

    __half *da, *db;
    float *dc, *dd;
    CUDA_CHECK(cudaMalloc(&da, na * 2));
    CUDA_CHECK(cudaMalloc(&db, nb * 2));
    CUDA_CHECK(cudaMalloc(&dc, nc * 4));
    CUDA_CHECK(cudaMalloc(&dd, nc * 4));
    CUDA_CHECK(cudaMemcpy(da, a, na * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b, nb * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dc, c, nc * 4, cudaMemcpyHostToDevice));
    dim3 grid(d.n / TG_TILE, d.m / TG_TILE);
    int ok = 1;
    for (int kernel = 0; kernel < 2; kernel++) {
        CUDA_CHECK(cudaMemset(dd, 0, nc * 4));
        if (kernel == 0) tgemm_wmma<<<grid, TG_THREADS>>>((int)d.m, (int)d.n, (int)d.k, da, db, dc, dd);
        else tgemm_mma<<<grid, TG_THREADS>>>((int)d.m, (int)d.n, (int)d.k, da, db, dc, dd);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(got, dd, nc * 4, cudaMemcpyDeviceToHost));
        size_t bad = first_diff(got, want, nc);
        if (bad < nc) {
            printf("%s: mismatch at D[%zu][%zu]: got %.9g, expected %.9g\n", kernel ? "tgemm_mma" : "tgemm_wmma",
                   bad / d.n, bad % d.n, (double)got[bad], (double)want[bad]);
            ok = 0;
        }
    }
    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dc));
    CUDA_CHECK(cudaFree(dd));
    free(a);
    free(b);
    free(c);
    free(want);
    free(got);
    return wl_finish(ok);
}
