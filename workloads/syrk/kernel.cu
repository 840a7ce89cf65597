// syrk: PolyBench's SYRK (C = alpha A A^T + beta C), one thread per element of C,
// written here after PolyBench/GPU's structure (a 32 x 8 CTA, the sum over k in a
// loop of global loads).
//
// Stand-alone: ./syrk [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void sk_kernel(const float *a, float *c, int n, float alpha, float beta) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    const float *ai = a + (size_t)i * n, *aj = a + (size_t)j * n;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum = fmaf(ai[k], aj[k], sum);
    c[(size_t)i * n + j] = fmaf(alpha, sum, beta * c[(size_t)i * n + j]);
}

int main(int argc, char **argv) {
    uint32_t size = 6;  // the evaluation size (wl_syrk.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, SK_MAX_SIZE, &size, &seed);

    uint32_t n = sk_order(size);
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a, *c, alpha, beta;
    if (!sk_generate(n, seed, &a, &c, &alpha, &beta)) wl_die("out of host memory");
    float *want = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!want || !got) wl_die("out of host memory");
    memcpy(want, c, bytes);
    sk_reference(a, want, n, alpha, beta);

    float *d_a, *d_c;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));
    dim3 grid((n + SK_BX - 1) / SK_BX, (n + SK_BY - 1) / SK_BY), block(SK_BX, SK_BY);
    sk_kernel<<<grid, block>>>(d_a, d_c, (int)n, alpha, beta);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_c, bytes, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (size_t i = 0; i < (size_t)n * n; i++)
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
            fprintf(stderr, "C[%zu][%zu]: got %.9g, expected %.9g\n", i / n, i % n, got[i], want[i]);
            ok = 0;
            break;
        }
    cudaFree(d_a); cudaFree(d_c);
    free(a); free(c); free(want); free(got);
    return wl_finish(ok);
}
