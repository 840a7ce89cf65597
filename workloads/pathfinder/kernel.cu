/* pathfinder: minimum-cost path through a grid, dynamic programming row by row.
 *
 * Ghost-zone ("pyramid") blocking: each launch advances up to PATHFINDER_PYRAMID
 * rows.  A block loads PATHFINDER_BLOCK consecutive columns of the current cost
 * row into shared memory, PATHFINDER_PYRAMID of them on each side belonging to
 * its neighbours; every step the band of columns it can still compute correctly
 * shrinks by one on each side, and after the last step it writes back only the
 * middle PATHFINDER_OWNED columns, which are still exact.  Steps are separated by
 * barriers because each one reads its neighbours' results from shared memory.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

/* Advance the cost row `src` (row start_row) by `steps` rows into `dst`. */
extern "C" __global__ void pathfinder_rows(const int *__restrict__ wall, const int *__restrict__ src,
                                           int *__restrict__ dst, int cols, int start_row, int steps) {
    __shared__ int prev[PATHFINDER_BLOCK];
    __shared__ int cur[PATHFINDER_BLOCK];
    int tx = threadIdx.x;
    int col = blockIdx.x * PATHFINDER_OWNED - PATHFINDER_PYRAMID + tx;
    bool in_grid = col >= 0 && col < cols;
    if (in_grid) prev[tx] = src[col];
    __syncthreads();

    for (int i = 0; i < steps; i++) {
        /* After step i only threads at least i+1 away from the block's edges have
         * seen correct neighbours; the grid edges use their own column twice. */
        bool computes = in_grid && tx > i && tx < PATHFINDER_BLOCK - 1 - i;
        if (computes) {
            int up = prev[tx];
            int left = col > 0 ? prev[tx - 1] : up;
            int right = col < cols - 1 ? prev[tx + 1] : up;
            int best = min(min(left, up), right);
            cur[tx] = wall[(size_t)(start_row + i + 1) * cols + col] + best;
        }
        __syncthreads();
        if (computes) prev[tx] = cur[tx];
        __syncthreads();
    }

    if (in_grid && tx >= PATHFINDER_PYRAMID && tx < PATHFINDER_BLOCK - PATHFINDER_PYRAMID)
        dst[col] = prev[tx];
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = PATHFINDER_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, PATHFINDER_MAX_SIZE, &size, &seed);
    uint32_t rows = pathfinder_rows(size), cols = pathfinder_cols(size);
    size_t wall_bytes = (size_t)rows * cols * sizeof(int), row_bytes = (size_t)cols * sizeof(int);
    int *wall = (int *)malloc(wall_bytes), *prev = (int *)malloc(row_bytes);
    int *cur = (int *)malloc(row_bytes), *got = (int *)malloc(row_bytes);
    if (!wall || !prev || !cur || !got) wl_die("out of host memory");
    pathfinder_gen(rows, cols, seed, wall);
    int *want;
    pathfinder_ref(rows, cols, wall, prev, cur, &want);

    int *d_wall, *d_row[2];
    CUDA_CHECK(cudaMalloc(&d_wall, wall_bytes));
    CUDA_CHECK(cudaMalloc(&d_row[0], row_bytes));
    CUDA_CHECK(cudaMalloc(&d_row[1], row_bytes));
    CUDA_CHECK(cudaMemcpy(d_wall, wall, wall_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_row[0], wall, row_bytes, cudaMemcpyHostToDevice));
    int src = 0;
    for (uint32_t r = 0; r + 1 < rows; r += PATHFINDER_PYRAMID) {
        int steps = (int)(rows - 1 - r < PATHFINDER_PYRAMID ? rows - 1 - r : PATHFINDER_PYRAMID);
        pathfinder_rows<<<pathfinder_grid(cols), PATHFINDER_BLOCK>>>(d_wall, d_row[src], d_row[1 - src],
                                                                     (int)cols, (int)r, steps);
        CUDA_CHECK(cudaGetLastError());
        src = 1 - src;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_row[src], row_bytes, cudaMemcpyDeviceToHost));

    uint32_t bad = cols;
    for (uint32_t c = 0; c < cols && bad == cols; c++)
        if (got[c] != want[c]) bad = c;
    if (bad < cols) printf("mismatch at column %u: got %d, expected %d\n", bad, got[bad], want[bad]);

    CUDA_CHECK(cudaFree(d_wall));
    CUDA_CHECK(cudaFree(d_row[0]));
    CUDA_CHECK(cudaFree(d_row[1]));
    free(wall);
    free(prev);
    free(cur);
    free(got);
    return wl_finish(bad >= cols);
}
