// scalarprod: dot products of many vector pairs, written here after the structure of
// the CUDA SDK's scalarProd (partial sums per thread, then a shared-memory tree).
//
// Stand-alone: ./scalarprod [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void sp_kernel(float *out, const float *a, const float *b, int pairs) {
    __shared__ float acc[SP_ACCUM];
    for (int v = blockIdx.x; v < pairs; v += gridDim.x) {
        const float *va = a + (size_t)v * SP_ELEMS, *vb = b + (size_t)v * SP_ELEMS;
        for (int p = threadIdx.x; p < (int)SP_ACCUM; p += blockDim.x) {
            float s = 0.0f;
            for (int i = p; i < (int)SP_ELEMS; i += SP_ACCUM) s = fmaf(va[i], vb[i], s);
            acc[p] = s;
        }
        for (int stride = SP_ACCUM / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int p = threadIdx.x; p < stride; p += blockDim.x) acc[p] += acc[p + stride];
        }
        __syncthreads();
        if (threadIdx.x == 0) out[v] = acc[0];
        __syncthreads();  // acc is refilled for the next pair
    }
}

int main(int argc, char **argv) {
    uint32_t size = 4;  // the evaluation size (wl_scalarprod.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, SP_MAX_SIZE, &size, &seed);

    uint32_t pairs = sp_pairs(size);
    size_t bytes = (size_t)pairs * SP_ELEMS * sizeof(float);
    float *a, *b;
    if (!sp_generate(pairs, seed, &a, &b)) wl_die("out of host memory");
    float *acc = (float *)malloc(SP_ACCUM * sizeof(float)), *want = (float *)malloc(pairs * sizeof(float));
    float *got = (float *)malloc(pairs * sizeof(float));
    if (!acc || !want || !got) wl_die("out of host memory");
    sp_reference(a, b, pairs, acc, want);

    float *d_a, *d_b, *d_out;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, pairs * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    sp_kernel<<<pairs < SP_CTAS ? pairs : SP_CTAS, SP_THREADS>>>(d_out, d_a, d_b, (int)pairs);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_out, pairs * sizeof(float), cudaMemcpyDeviceToHost));

    int ok = 1;
    for (uint32_t v = 0; v < pairs; v++)
        if (memcmp(&got[v], &want[v], sizeof(float)) != 0) {
            fprintf(stderr, "pair %u: got %.9g, expected %.9g\n", v, got[v], want[v]);
            ok = 0;
            break;
        }
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_out);
    free(a); free(b); free(acc); free(want); free(got);
    return wl_finish(ok);
}
