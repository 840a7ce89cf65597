// nw: Needleman-Wunsch alignment scores, tiled along anti-diagonals.
//
// The (len+1)^2 score matrix is cut into 16x16 tiles; tiles on one anti-diagonal of
// the tile grid are independent, so the host launches nw_diagonal once per tile
// diagonal, with one 16-thread CTA per tile.  A CTA stages its tile's substitution
// scores and the scores above and left of the tile in shared memory, then sweeps the
// tile's 31 cell anti-diagonals (thread tx owns row tx; a barrier after each
// diagonal; most diagonals leave some threads idle) and writes the tile back.
//
// Stand-alone: ./nw [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void nw_diagonal(int *score, const int *ref, int len, int penalty, int diag) {
    __shared__ int s_score[NW_TILE + 1][NW_TILE + 1];
    __shared__ int s_ref[NW_TILE][NW_TILE];
    int tiles = len / NW_TILE;
    int first_row = diag < tiles ? 0 : diag - tiles + 1;  // tile row of CTA 0 on this diagonal
    int tile_row = first_row + blockIdx.x;
    int tile_col = diag - tile_row;
    int row0 = tile_row * NW_TILE, col0 = tile_col * NW_TILE;  // cell (row0+1, col0+1) is the tile's first
    int w = len + 1;
    int tx = threadIdx.x;

    for (int r = 0; r < NW_TILE; r++) s_ref[r][tx] = ref[(row0 + r) * len + col0 + tx];
    s_score[0][tx + 1] = score[row0 * w + col0 + 1 + tx];
    s_score[tx + 1][0] = score[(row0 + 1 + tx) * w + col0];
    if (tx == 0) s_score[0][0] = score[row0 * w + col0];
    __syncthreads();

    for (int d = 0; d < 2 * NW_TILE - 1; d++) {
        int c = d - tx;  // this thread's column on cell diagonal d
        if (c >= 0 && c < NW_TILE) {
            int match = s_score[tx][c] + s_ref[tx][c];
            int del = s_score[tx][c + 1] - penalty;
            int ins = s_score[tx + 1][c] - penalty;
            s_score[tx + 1][c + 1] = max(match, max(del, ins));
        }
        __syncthreads();
    }

    for (int r = 0; r < NW_TILE; r++) score[(row0 + 1 + r) * w + col0 + 1 + tx] = s_score[r + 1][tx + 1];
}

int main(int argc, char **argv) {
    uint32_t size = 24;  // the evaluation size (wl_nw.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    nw_problem p;
    if (nw_generate(&p, size, seed) != 0) wl_die("out of host memory");
    int len = p.len, w = len + 1, tiles = len / NW_TILE;
    size_t score_bytes = (size_t)w * w * sizeof(int), ref_bytes = (size_t)len * len * sizeof(int);
    int *got = (int *)malloc(score_bytes), *expected = (int *)malloc(score_bytes);
    if (!got || !expected) wl_die("out of host memory");
    nw_reference(&p, expected);

    int *d_score, *d_ref;
    CUDA_CHECK(cudaMalloc(&d_score, score_bytes));
    CUDA_CHECK(cudaMalloc(&d_ref, ref_bytes));
    CUDA_CHECK(cudaMemcpy(d_score, p.score, score_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ref, p.ref, ref_bytes, cudaMemcpyHostToDevice));
    for (int diag = 0; diag < 2 * tiles - 1; diag++) {
        int first_row = diag < tiles ? 0 : diag - tiles + 1, last_row = diag < tiles ? diag : tiles - 1;
        nw_diagonal<<<last_row - first_row + 1, NW_TILE>>>(d_score, d_ref, len, NW_PENALTY, diag);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_score, score_bytes, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (size_t k = 0; k < (size_t)w * w; k++) {
        if (got[k] != expected[k]) {
            fprintf(stderr, "score[%zu][%zu]: got %d, expected %d\n", k / w, k % w, got[k], expected[k]);
            ok = 0;
            break;
        }
    }
    cudaFree(d_score); cudaFree(d_ref);
    free(got); free(expected);
    nw_free(&p);
    return wl_finish(ok);
}
