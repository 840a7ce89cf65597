// __constant__ and __device__ variables reached through the symbol API:
// cudaMemcpyToSymbol (with an offset), cudaMemcpyFromSymbol, cudaGetSymbolAddress,
// cudaGetSymbolSize, and a __device__ variable with a static initializer.
#include "check.h"

__constant__ float coeff[8];
__constant__ int scale;
__device__ int bias = 1000;   // initialized in the PTX: must be 1000 before any copy
__device__ int counter;

// out[i] = coeff[i % 8] * scale + bias; counts the threads in `counter`.
__global__ void apply(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = coeff[i % 8] * scale + bias;
        atomicAdd(&counter, 1);
    }
}

int main() {
    const int n = 100;
    float h_coeff[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7};
    int h_scale = 3;
    // coeff[0..3] in one copy, coeff[4..7] with an offset of 16 bytes
    CHECK(cudaMemcpyToSymbol(coeff, h_coeff, 4 * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(coeff, h_coeff + 4, 4 * sizeof(float), 4 * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(scale, &h_scale, sizeof h_scale, 0, cudaMemcpyHostToDevice));

    int h_bias = 0;
    CHECK(cudaMemcpyFromSymbol(&h_bias, bias, sizeof h_bias));
    printf("bias before: %d\n", h_bias);

    size_t size = 0;
    CHECK(cudaGetSymbolSize(&size, coeff));
    printf("sizeof coeff: %zu\n", size);

    float *d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    apply<<<4, 32>>>(d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float out[n];
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(out[i] == h_coeff[i % 8] * 3 + 1000);
    printf("out[0] = %.1f, out[9] = %.1f, out[99] = %.1f\n", out[0], out[9], out[99]);

    // the symbol's address works as an ordinary device pointer
    int *d_counter;
    CHECK(cudaGetSymbolAddress((void **)&d_counter, counter));
    int h_counter = 0;
    CHECK(cudaMemcpy(&h_counter, d_counter, sizeof h_counter, cudaMemcpyDeviceToHost));
    printf("counter: %d\n", h_counter);

    // a copy past the end of a symbol is refused
    EXPECT(cudaMemcpyToSymbol(scale, &h_scale, sizeof h_scale, 4) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    // a host address that is no symbol
    EXPECT(cudaMemcpyToSymbol(&h_scale, &h_scale, sizeof h_scale) == cudaErrorInvalidSymbol);
    EXPECT(cudaGetLastError() == cudaErrorInvalidSymbol);
    EXPECT(cudaGetLastError() == cudaSuccess);
    CHECK(cudaFree(d_out));
    printf("PASS\n");
    return 0;
}
