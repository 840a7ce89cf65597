// Memory laid out as a driver does (issue 33, item 6).  Rodinia's srad_v2 loads its
// north neighbour J[i - cols] in every block row, also in row 0, where that is
// 4 * cols bytes below its first allocation, and then uses J[i] there instead.  On
// a GPU the read is harmless: user allocations never start at the bottom of the
// context's mapped memory.  The same pattern, cols = 128 (512 B below J):
//   north[i] = row == 0 ? J[i] : J[i - cols],  J[i] = i
// so north[i] = i in row 0 and i - 128 elsewhere.
#include "check.h"

__global__ void north(const float *J, float *out, int cols) {
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = J[i - cols];  // below J itself in row 0 (as srad_v2 loads it)
    __syncthreads();
    if (i < cols) s[threadIdx.x] = J[i];
    __syncthreads();
    out[i] = s[threadIdx.x];
}

int main() {
    const int rows = 4, cols = 128, n = rows * cols;
    float *J, *out, h[n];
    CHECK(cudaMalloc(&J, n * sizeof(float)));  // the program's first allocation
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    for (int i = 0; i < n; i++) h[i] = (float)i;
    CHECK(cudaMemcpy(J, h, sizeof h, cudaMemcpyHostToDevice));
    north<<<n / 128, 128>>>(J, out, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) bad |= h[i] != (float)(i < cols ? i : i - cols);
    printf("north: out[0] %g out[127] %g out[128] %g out[511] %g: %s\n", h[0], h[127], h[128], h[511],
           bad ? "FAIL" : "PASS");
    return bad;
}
