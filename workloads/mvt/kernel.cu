// mvt: PolyBench's MVT (x1 += A y1, x2 += A^T y2) in two kernels, written here after
// PolyBench/GPU's structure: a row-per-thread product, then a column-per-thread one.
//
// Stand-alone: ./mvt [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void mv_kernel1(const float *a, const float *y1, float *x1, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *row = a + (size_t)i * n;
    float s = x1[i];
    for (int j = 0; j < n; j++) s = fmaf(row[j], y1[j], s);
    x1[i] = s;
}

extern "C" __global__ void mv_kernel2(const float *a, const float *y2, float *x2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = x2[i];
    for (int j = 0; j < n; j++) s = fmaf(a[(size_t)j * n + i], y2[j], s);
    x2[i] = s;
}

int main(int argc, char **argv) {
    uint32_t size = 8;  // the evaluation size (wl_mvt.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, MV_MAX_SIZE, &size, &seed);

    uint32_t n = mv_order(size);
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    mv_data d;
    if (!mv_generate(n, seed, &d)) wl_die("out of host memory");
    float *x1 = (float *)malloc(vbytes), *x2 = (float *)malloc(vbytes), *got = (float *)malloc(vbytes);
    if (!x1 || !x2 || !got) wl_die("out of host memory");
    mv_reference(&d, x1, x2);

    float *d_a, *d_x1, *d_x2, *d_y1, *d_y2;
    CUDA_CHECK(cudaMalloc(&d_a, mbytes));
    CUDA_CHECK(cudaMalloc(&d_x1, vbytes));
    CUDA_CHECK(cudaMalloc(&d_x2, vbytes));
    CUDA_CHECK(cudaMalloc(&d_y1, vbytes));
    CUDA_CHECK(cudaMalloc(&d_y2, vbytes));
    CUDA_CHECK(cudaMemcpy(d_a, d.a, mbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x1, d.x1, vbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x2, d.x2, vbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y1, d.y1, vbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y2, d.y2, vbytes, cudaMemcpyHostToDevice));
    dim3 grid((n + MV_THREADS - 1) / MV_THREADS), block(MV_THREADS);
    mv_kernel1<<<grid, block>>>(d_a, d_y1, d_x1, (int)n);
    CUDA_CHECK(cudaGetLastError());
    mv_kernel2<<<grid, block>>>(d_a, d_y2, d_x2, (int)n);
    CUDA_CHECK(cudaGetLastError());

    int ok = 1;
    const char *names[2] = { "x1 + A y1", "x2 + A^T y2" };
    const float *want[2] = { x1, x2 };
    float *dev[2] = { d_x1, d_x2 };
    for (int p = 0; p < 2 && ok; p++) {
        CUDA_CHECK(cudaMemcpy(got, dev[p], vbytes, cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < n; i++)
            if (memcmp(&got[i], &want[p][i], sizeof(float)) != 0) {
                fprintf(stderr, "%s: element %u: got %.9g, expected %.9g\n", names[p], i, got[i], want[p][i]);
                ok = 0;
                break;
            }
    }
    cudaFree(d_a); cudaFree(d_x1); cudaFree(d_x2); cudaFree(d_y1); cudaFree(d_y2);
    mv_free(&d);
    free(x1); free(x2); free(got);
    return wl_finish(ok);
}
