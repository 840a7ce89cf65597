// transpose: the CUDA SDK's coalesced matrix transpose with a padded shared tile,
// written here after its structure.
//
// Stand-alone: ./transpose [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// in: w x h (row-major, w columns), out: h x w
extern "C" __global__ void tr_kernel(float *out, const float *in, int w, int h) {
    __shared__ float tile[TR_TILE][TR_TILE + 1];  // + 1: a tile column spans all 32 banks
    int x = blockIdx.x * TR_TILE + threadIdx.x;
    int y = blockIdx.y * TR_TILE + threadIdx.y;
    for (int i = 0; i < (int)TR_TILE; i += TR_ROWS) tile[threadIdx.y + i][threadIdx.x] = in[(size_t)(y + i) * w + x];
    __syncthreads();
    // the tile's column threadIdx.x becomes output row blockIdx.x * 32 + threadIdx.y + i
    x = blockIdx.y * TR_TILE + threadIdx.x;
    y = blockIdx.x * TR_TILE + threadIdx.y;
    for (int i = 0; i < (int)TR_TILE; i += TR_ROWS) out[(size_t)(y + i) * h + x] = tile[threadIdx.x][threadIdx.y + i];
}

int main(int argc, char **argv) {
    uint32_t size = 4;  // the evaluation size (wl_transpose.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, TR_MAX_SIZE, &size, &seed);

    uint32_t w = tr_width(size), h = tr_height(size);
    size_t bytes = (size_t)w * h * sizeof(float);
    float *in = tr_generate(w, h, seed);
    float *want = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!in || !want || !got) wl_die("out of host memory");
    tr_reference(in, w, h, want);

    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    dim3 grid(w / TR_TILE, h / TR_TILE), block(TR_TILE, TR_ROWS);
    tr_kernel<<<grid, block>>>(d_out, d_in, (int)w, (int)h);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_out, bytes, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
            fprintf(stderr, "out[%zu][%zu]: got %.9g, expected %.9g\n", i / h, i % h, got[i], want[i]);
            ok = 0;
            break;
        }
    cudaFree(d_in); cudaFree(d_out);
    free(in); free(want); free(got);
    return wl_finish(ok);
}
