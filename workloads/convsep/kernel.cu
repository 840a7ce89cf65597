// convsep: separable convolution, a row pass then a column pass (the structure of
// the CUDA SDK's convolutionSeparable, written here).
//
// conv_rows: a 32 x 4 CTA stages 4 image rows of 4 * 32 output columns plus one
// 32-column halo step on each side (the apron the 17-tap filter reaches into) in
// shared memory, then each thread computes its 4 outputs from the tile.
// conv_cols: a 32 x 8 CTA stages a 32-column strip of 4 * 8 output rows plus one
// 8-row halo step above and below, column-major with one word of padding (no
// bank conflicts down a column), and each thread computes 4 outputs.
// The filter taps live in constant memory, read by all threads at the same address.
// Every halo is re-read by the neighbouring CTA: the reuse across CTAs that a
// 16 KB L1D can keep or lose.
//
// Stand-alone: ./convsep [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ float c_taps[CONV_TAPS];

extern "C" __global__ void conv_rows(float *out, const float *in, int w) {
    __shared__ float tile[CONV_ROW_BY][(CONV_ROW_STEPS + 2) * CONV_ROW_BX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    // column of this thread's first (left halo) load; negative in the first CTA column
    const int x0 = ((int)blockIdx.x * (int)CONV_ROW_STEPS - 1) * (int)CONV_ROW_BX + tx;
    const float *row = in + (size_t)(blockIdx.y * CONV_ROW_BY + ty) * w;
    for (int s = 0; s < (int)CONV_ROW_STEPS + 2; s++) {
        int x = x0 + s * (int)CONV_ROW_BX;
        tile[ty][tx + s * CONV_ROW_BX] = x >= 0 && x < w ? row[x] : 0.0f;
    }
    __syncthreads();
    float *out_row = out + (size_t)(blockIdx.y * CONV_ROW_BY + ty) * w;
    for (int s = 1; s <= (int)CONV_ROW_STEPS; s++) {
        const int t = tx + s * CONV_ROW_BX;
        float sum = 0.0f;
#pragma unroll
        for (int k = -CONV_RADIUS; k <= CONV_RADIUS; k++) sum = fmaf(tile[ty][t + k], c_taps[CONV_RADIUS - k], sum);
        out_row[x0 + s * (int)CONV_ROW_BX] = sum;
    }
}

extern "C" __global__ void conv_cols(float *out, const float *in, int w, int h) {
    __shared__ float tile[CONV_COL_BX][(CONV_COL_STEPS + 2) * CONV_COL_BY + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * CONV_COL_BX + tx;
    // row of this thread's first (upper halo) load; negative in the first CTA row
    const int y0 = ((int)blockIdx.y * (int)CONV_COL_STEPS - 1) * (int)CONV_COL_BY + ty;
    for (int s = 0; s < (int)CONV_COL_STEPS + 2; s++) {
        int y = y0 + s * (int)CONV_COL_BY;
        tile[tx][ty + s * CONV_COL_BY] = y >= 0 && y < h ? in[(size_t)y * w + x] : 0.0f;
    }
    __syncthreads();
    for (int s = 1; s <= (int)CONV_COL_STEPS; s++) {
        const int t = ty + s * CONV_COL_BY;
        float sum = 0.0f;
#pragma unroll
        for (int k = -CONV_RADIUS; k <= CONV_RADIUS; k++) sum = fmaf(tile[tx][t + k], c_taps[CONV_RADIUS - k], sum);
        out[(size_t)(y0 + s * (int)CONV_COL_BY) * w + x] = sum;
    }
}

int main(int argc, char **argv) {
    uint32_t size = 6;  // the evaluation size (wl_convsep.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, CONV_MAX_SIZE, &size, &seed);

    uint32_t w = conv_width(size), h = conv_height(size);
    size_t bytes = (size_t)w * h * sizeof(float);
    float taps[CONV_TAPS];
    float *img = conv_generate(w, h, seed, taps);
    float *tmp = (float *)malloc(bytes), *expected = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!img || !tmp || !expected || !got) wl_die("out of host memory");
    conv_reference(img, w, h, taps, tmp, expected);

    float *d_in, *d_tmp, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_tmp, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, img, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_taps, taps, sizeof taps));
    dim3 row_grid(w / (CONV_ROW_BX * CONV_ROW_STEPS), h / CONV_ROW_BY), row_block(CONV_ROW_BX, CONV_ROW_BY);
    dim3 col_grid(w / CONV_COL_BX, h / (CONV_COL_BY * CONV_COL_STEPS)), col_block(CONV_COL_BX, CONV_COL_BY);
    conv_rows<<<row_grid, row_block>>>(d_tmp, d_in, (int)w);
    CUDA_CHECK(cudaGetLastError());
    conv_cols<<<col_grid, col_block>>>(d_out, d_tmp, (int)w, (int)h);
    CUDA_CHECK(cudaGetLastError());

    int ok = 1;
    const char *names[2] = { "row pass", "column pass" };
    const float *want[2] = { tmp, expected };
    float *planes[2] = { d_tmp, d_out };
    for (int p = 0; p < 2 && ok; p++) {
        CUDA_CHECK(cudaMemcpy(got, planes[p], bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (memcmp(&got[i], &want[p][i], sizeof(float)) != 0) {
                fprintf(stderr, "%s: pixel (%zu, %zu): got %.9g, expected %.9g\n", names[p], i % w, i / w,
                        got[i], want[p][i]);
                ok = 0;
                break;
            }
    }
    cudaFree(d_in); cudaFree(d_tmp); cudaFree(d_out);
    free(img); free(tmp); free(expected); free(got);
    return wl_finish(ok);
}
