// cudaDeviceReset: __device__ variables get their initial values again, allocations
// made before are gone, and the device works as before.
#include "check.h"

__device__ int launches = 7;

__global__ void count() { launches++; }

int main() {
    count<<<1, 1>>>();
    count<<<1, 1>>>();
    int n = 0;
    CHECK(cudaMemcpyFromSymbol(&n, launches, sizeof n));
    printf("launches = %d\n", n);
    int *d;
    CHECK(cudaMalloc(&d, 16));
    CHECK(cudaDeviceReset());
    CHECK(cudaMemcpyFromSymbol(&n, launches, sizeof n));
    printf("launches after reset = %d\n", n);
    EXPECT(cudaFree(d) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaMalloc(&d, 16));
    CHECK(cudaMemset(d, 0, 16));
    count<<<1, 1>>>();
    CHECK(cudaMemcpyFromSymbol(&n, launches, sizeof n));
    printf("after one more launch = %d\n", n);
    CHECK(cudaFree(d));
    CHECK(cudaDeviceReset());  // as many programs do just before they exit
    printf("PASS\n");
    return 0;
}
