// atax: PolyBench's ATAX (y = A^T (A x)) in two kernels, written here after
// PolyBench/GPU's structure: a row-per-thread product, then a column-per-thread one.
//
// Stand-alone: ./atax [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void ax_kernel1(const float *a, const float *x, float *tmp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *row = a + (size_t)i * n;
    float s = 0.0f;
    for (int j = 0; j < n; j++) s = fmaf(row[j], x[j], s);
    tmp[i] = s;
}

extern "C" __global__ void ax_kernel2(const float *a, const float *tmp, float *y, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    float s = 0.0f;
    for (int i = 0; i < n; i++) s = fmaf(a[(size_t)i * n + j], tmp[i], s);
    y[j] = s;
}

int main(int argc, char **argv) {
    uint32_t size = 8;  // the evaluation size (wl_atax.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, AX_MAX_SIZE, &size, &seed);

    uint32_t n = ax_order(size);
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    float *a, *x;
    if (!ax_generate(n, seed, &a, &x)) wl_die("out of host memory");
    float *tmp = (float *)malloc(vbytes), *y = (float *)malloc(vbytes), *got = (float *)malloc(vbytes);
    if (!tmp || !y || !got) wl_die("out of host memory");
    ax_reference(a, x, n, tmp, y);

    float *d_a, *d_x, *d_tmp, *d_y;
    CUDA_CHECK(cudaMalloc(&d_a, mbytes));
    CUDA_CHECK(cudaMalloc(&d_x, vbytes));
    CUDA_CHECK(cudaMalloc(&d_tmp, vbytes));
    CUDA_CHECK(cudaMalloc(&d_y, vbytes));
    CUDA_CHECK(cudaMemcpy(d_a, a, mbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x, vbytes, cudaMemcpyHostToDevice));
    dim3 grid((n + AX_THREADS - 1) / AX_THREADS), block(AX_THREADS);
    ax_kernel1<<<grid, block>>>(d_a, d_x, d_tmp, (int)n);
    CUDA_CHECK(cudaGetLastError());
    ax_kernel2<<<grid, block>>>(d_a, d_tmp, d_y, (int)n);
    CUDA_CHECK(cudaGetLastError());

    int ok = 1;
    const char *names[2] = { "A x", "A^T (A x)" };
    const float *want[2] = { tmp, y };
    float *dev[2] = { d_tmp, d_y };
    for (int p = 0; p < 2 && ok; p++) {
        CUDA_CHECK(cudaMemcpy(got, dev[p], vbytes, cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < n; i++)
            if (memcmp(&got[i], &want[p][i], sizeof(float)) != 0) {
                fprintf(stderr, "%s: element %u: got %.9g, expected %.9g\n", names[p], i, got[i], want[p][i]);
                ok = 0;
                break;
            }
    }
    cudaFree(d_a); cudaFree(d_x); cudaFree(d_tmp); cudaFree(d_y);
    free(a); free(x); free(tmp); free(y); free(got);
    return wl_finish(ok);
}
