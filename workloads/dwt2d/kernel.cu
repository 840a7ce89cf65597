// dwt2d: the forward 2-D CDF 5/3 (reversible, integer) wavelet transform of
// Rodinia's dwt2d, three levels, written here as two global-memory passes per
// level (rows, then columns), one thread per coefficient pair (ref.h says why).
//
// Stand-alone: ./dwt2d [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// Row pass over the top-left w x h of src (pitch W): pair i of row y -> dst[y][i]
// (low) and dst[y][w/2 + i] (high).
extern "C" __global__ void dw_rows(int32_t *dst, const int32_t *src, int pitch, int w, int h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= w / 2 || y >= h) return;
    int32_t lo, hi;
    dw_lift(src + (size_t)y * pitch, 1, i, w, &lo, &hi);
    dst[(size_t)y * pitch + i] = lo;
    dst[(size_t)y * pitch + w / 2 + i] = hi;
}

// Column pass: pair j of column x -> dst[j][x] (low) and dst[h/2 + j][x] (high).
extern "C" __global__ void dw_cols(int32_t *dst, const int32_t *src, int pitch, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || j >= h / 2) return;
    int32_t lo, hi;
    dw_lift(src + x, pitch, j, h, &lo, &hi);
    dst[(size_t)j * pitch + x] = lo;
    dst[(size_t)(h / 2 + j) * pitch + x] = hi;
}

int main(int argc, char **argv) {
    uint32_t size = 4;  // the evaluation size (wl_dwt2d.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, DW_MAX_SIZE, &size, &seed);
    uint32_t W = dw_side(size), H = dw_side(size);
    size_t bytes = (size_t)W * H * sizeof(int32_t);
    int32_t *img = dw_generate(W, H, seed);
    int32_t *want = (int32_t *)malloc(bytes), *tmp = (int32_t *)malloc(bytes), *got = (int32_t *)malloc(bytes);
    if (!img || !want || !tmp || !got) wl_die("out of host memory");
    memcpy(want, img, bytes);
    dw_reference(want, tmp, W, H);
    int32_t *d_img, *d_tmp;
    CUDA_CHECK(cudaMalloc(&d_img, bytes));
    CUDA_CHECK(cudaMalloc(&d_tmp, bytes));
    CUDA_CHECK(cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice));
    for (uint32_t l = 0; l < DW_LEVELS; l++) {
        int w = (int)(W >> l), h = (int)(H >> l);
        dim3 block(DW_BX, DW_BY);
        dim3 rgrid((w / 2 + DW_BX - 1) / DW_BX, (h + DW_BY - 1) / DW_BY);
        dim3 cgrid((w + DW_BX - 1) / DW_BX, (h / 2 + DW_BY - 1) / DW_BY);
        dw_rows<<<rgrid, block>>>(d_tmp, d_img, (int)W, w, h);
        CUDA_CHECK(cudaGetLastError());
        dw_cols<<<cgrid, block>>>(d_img, d_tmp, (int)W, w, h);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaMemcpy(got, d_img, bytes, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (size_t i = 0; i < (size_t)W * H; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "coefficient (%zu, %zu): got %d, expected %d\n", i % W, i / W, got[i], want[i]);
            ok = 0;
            break;
        }
    cudaFree(d_img); cudaFree(d_tmp);
    free(img); free(want); free(tmp); free(got);
    return wl_finish(ok);
}
