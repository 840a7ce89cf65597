// One module, several kernels, some using PTX locsim does not implement (issue 33,
// item 5): each of those fails at its own launch with cudaErrorInvalidPtx and a
// message naming the instruction; the module's other kernels still run, before and
// after, and the program ends normally.
//   uses_acube     tex.acube (a layered cube map: texCubemapLayered)
//   plain          v[i] = i + add
// (wmma, then mbarrier, were the examples until each was implemented: docs/tensor.md,
// docs/cp-async.md; a tensor instruction on a configuration without tensor cores is
// refused the same way, test_tensor checks it.)
#include "check.h"

__global__ void uses_acube(cudaTextureObject_t t, float *v) {
    v[threadIdx.x] = texCubemapLayered<float>(t, 1.0f, 0.5f, -0.5f, 0);
}

__global__ void plain(int *v, int add) { v[threadIdx.x] = threadIdx.x + add; }

static int report(const char *what) {
    cudaError_t e = cudaGetLastError();
    printf("%s: %s\n", what, cudaGetErrorName(e));
    return e == cudaErrorInvalidPtx ? 0 : 1;
}

int main() {
    int *v;
    int h[32];
    int bad = 0;
    CHECK(cudaMalloc(&v, 32 * sizeof(int)));
    plain<<<1, 32>>>(v, 100);
    CHECK(cudaGetLastError());
    uses_acube<<<1, 32>>>(0, (float *)v);
    bad |= report("uses_acube");
    CHECK(cudaDeviceSynchronize());  // the refused launches left no sticky error
    CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("plain before: v[0] %d v[31] %d\n", h[0], h[31]);
    plain<<<1, 32>>>(v, 200);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("plain after: v[0] %d v[31] %d\n", h[0], h[31]);
    return bad || h[0] != 200 || h[31] != 231;
}
