/* vectoradd: c = a + b over float vectors with a grid-stride loop.
 *
 * The kernel is the device code locsim simulates (kernel.ptx is generated from
 * this file).  main() below is an ordinary CUDA program doing the same run, for
 * running unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

/* The grid is sized to the machine, not the data: each thread walks the
 * vectors with a stride of the whole grid, so consecutive threads touch
 * consecutive words (coalesced) on every trip. */
extern "C" __global__ void vectoradd(const float *__restrict__ a, const float *__restrict__ b,
                                     float *__restrict__ c, int n) {
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = VECTORADD_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, VECTORADD_MAX_SIZE, &size, &seed);
    uint32_t n = vectoradd_n(size);
    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    float *c = (float *)malloc(bytes), *want = (float *)malloc(bytes);
    if (!a || !b || !c || !want) wl_die("out of host memory");
    vectoradd_gen(n, seed, a, b);
    vectoradd_ref(n, a, b, want);

    float *da, *db, *dc;
    CUDA_CHECK(cudaMalloc(&da, bytes));
    CUDA_CHECK(cudaMalloc(&db, bytes));
    CUDA_CHECK(cudaMalloc(&dc, bytes));
    CUDA_CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    vectoradd<<<vectoradd_grid(n), VECTORADD_BLOCK>>>(da, db, dc, (int)n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

    uint32_t bad = vectoradd_first_mismatch(n, c, want);
    if (bad < n)
        printf("mismatch at c[%u]: got %.9g, expected %.9g\n", bad, (double)c[bad], (double)want[bad]);

    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dc));
    free(a);
    free(b);
    free(c);
    free(want);
    return wl_finish(bad >= n);
}
