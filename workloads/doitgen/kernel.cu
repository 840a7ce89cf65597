// doitgen: PolyBench's DOITGEN, a product kernel then a copy-back kernel, our own
// GPU port (one thread per output element).
//
// Stand-alone: ./doitgen [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// rows = NR * NQ rows (r, q) of NP elements
extern "C" __global__ void dg_sum(float *sum, const float *a, const float *c4, int rows) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int rq = blockIdx.y * blockDim.y + threadIdx.y;
    if (rq >= rows || p >= (int)DG_NP) return;
    const float *arow = a + (size_t)rq * DG_NP;
    float s = 0.0f;
    for (int k = 0; k < (int)DG_NP; k++) s = fmaf(arow[k], c4[k * DG_NP + p], s);
    sum[(size_t)rq * DG_NP + p] = s;
}

extern "C" __global__ void dg_copy(float *a, const float *sum, int rows) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int rq = blockIdx.y * blockDim.y + threadIdx.y;
    if (rq >= rows || p >= (int)DG_NP) return;
    a[(size_t)rq * DG_NP + p] = sum[(size_t)rq * DG_NP + p];
}

int main(int argc, char **argv) {
    uint32_t size = 6;  // the evaluation size (wl_doitgen.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, DG_MAX_SIZE, &size, &seed);

    uint32_t nr = dg_nr(size), rows = nr * DG_NQ;
    size_t bytes = (size_t)rows * DG_NP * sizeof(float), cbytes = DG_NP * DG_NP * sizeof(float);
    float *a, *c4;
    if (!dg_generate(nr, seed, &a, &c4)) wl_die("out of host memory");
    float *want_a = (float *)malloc(bytes), *want_sum = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!want_a || !want_sum || !got) wl_die("out of host memory");
    memcpy(want_a, a, bytes);
    dg_reference(want_a, c4, nr, want_sum);

    float *d_a, *d_c4, *d_sum;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_sum, bytes));
    CUDA_CHECK(cudaMalloc(&d_c4, cbytes));
    CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c4, c4, cbytes, cudaMemcpyHostToDevice));
    dim3 grid(DG_NP / DG_BX, rows / DG_BY), block(DG_BX, DG_BY);
    dg_sum<<<grid, block>>>(d_sum, d_a, d_c4, (int)rows);
    CUDA_CHECK(cudaGetLastError());
    dg_copy<<<grid, block>>>(d_a, d_sum, (int)rows);
    CUDA_CHECK(cudaGetLastError());

    int ok = 1;
    const char *names[2] = { "sum", "A" };
    const float *want[2] = { want_sum, want_a };
    float *dev[2] = { d_sum, d_a };
    for (int p = 0; p < 2 && ok; p++) {
        CUDA_CHECK(cudaMemcpy(got, dev[p], bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < (size_t)rows * DG_NP; i++)
            if (memcmp(&got[i], &want[p][i], sizeof(float)) != 0) {
                fprintf(stderr, "%s[%zu][%zu][%zu]: got %.9g, expected %.9g\n", names[p], i / (DG_NQ * DG_NP),
                        i / DG_NP % DG_NQ, i % DG_NP, got[i], want[p][i]);
                ok = 0;
                break;
            }
    }
    cudaFree(d_a); cudaFree(d_c4); cudaFree(d_sum);
    free(a); free(c4); free(want_a); free(want_sum); free(got);
    return wl_finish(ok);
}
