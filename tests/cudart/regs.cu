// Registers per thread under locsim exec: prints cudaFuncGetAttributes' numRegs of a
// kernel whose unrolled loops need many registers, then runs it.  Built with
// -arch=sm_75 the count must be ptxas's (read from the embedded cubin); the e2e test
// compares it with the `ptxas -v` listing of the same build.
#include "check.h"

__global__ void many(float *a, int n) {
    float s[8];
    for (int i = 0; i < 8; i++) s[i] = a[threadIdx.x * 8 + i] * n;
    float t = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) t += s[i] * s[j] + a[i * n + j];
    a[threadIdx.x] = t;
}

int main() {
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, many));
    printf("numRegs %d\n", attr.numRegs);
    float *d;
    CHECK(cudaMalloc(&d, 64 * 8 * sizeof(float)));
    CHECK(cudaMemset(d, 0, 64 * 8 * sizeof(float)));
    many<<<1, 64>>>(d, 8);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d));
    printf("PASS\n");
    return 0;
}
