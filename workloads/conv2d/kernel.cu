// conv2d: PolyBench's 2-D convolution (3 x 3, fixed coefficients), one thread per
// pixel, written here after PolyBench/GPU's structure.
//
// Stand-alone: ./conv2d [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void c2_kernel(float *out, const float *in, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
        size_t i = (size_t)y * w + x;
        out[i] = C2_STENCIL(in + i, (ptrdiff_t)w);
    }
}

int main(int argc, char **argv) {
    uint32_t size = 6;  // the evaluation size (wl_conv2d.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, C2_MAX_SIZE, &size, &seed);

    uint32_t w = c2_side(size), h = c2_side(size);
    size_t bytes = (size_t)w * h * sizeof(float);
    float *in = c2_generate(w, h, seed);
    float *want = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!in || !want || !got) wl_die("out of host memory");
    c2_reference(in, w, h, want);

    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0, bytes));
    dim3 grid(w / C2_BX, h / C2_BY), block(C2_BX, C2_BY);
    c2_kernel<<<grid, block>>>(d_out, d_in, (int)w, (int)h);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_out, bytes, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
            fprintf(stderr, "pixel (%zu, %zu): got %.9g, expected %.9g\n", i % w, i / w, got[i], want[i]);
            ok = 0;
            break;
        }
    cudaFree(d_in); cudaFree(d_out);
    free(in); free(want); free(got);
    return wl_finish(ok);
}
