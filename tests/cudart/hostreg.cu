// cudaHostRegister (issue 33, item 3): the program's own host memory, registered,
// is used by kernels through the host pointer itself (unified addressing) and
// through cudaHostGetDevicePointer; the host sees the kernels' writes when the
// launch returns.  Errors: registering an overlapping range, unregistering twice.
// Also cudaStreamAttachMemAsync on managed memory (accepted, no effect).
#include <stdlib.h>
#include "check.h"

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }
__global__ void plus(int *v, int k) { v[threadIdx.x] += k; }

int main() {
    int *h = (int *)malloc(64 * sizeof(int));
    for (int i = 0; i < 64; i++) h[i] = i;
    CHECK(cudaHostRegister(h, 64 * sizeof(int), cudaHostRegisterDefault));
    cudaError_t e = cudaHostRegister(h + 8, 8 * sizeof(int), 0);
    printf("overlapping register: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    int attr = 0;
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrHostRegisterSupported, 0));
    printf("host register supported: %d\n", attr);
    twice<<<1, 64>>>(h);  // the host pointer itself
    CHECK(cudaDeviceSynchronize());
    printf("after twice: h[1] %d h[63] %d\n", h[1], h[63]);  // 2, 126
    int *dp;
    CHECK(cudaHostGetDevicePointer((void **)&dp, h, 0));
    h[0] = 1000;  // a host write before the launch is seen by the kernel
    plus<<<1, 64>>>(dp, 1);
    CHECK(cudaDeviceSynchronize());
    printf("after plus: h[0] %d h[1] %d h[63] %d\n", h[0], h[1], h[63]);  // 1001, 3, 127
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, h));
    printf("pointer type: %d\n", (int)pa.type);  // cudaMemoryTypeHost = 1
    CHECK(cudaHostUnregister(h));
    e = cudaHostUnregister(h);
    printf("second unregister: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    int *m;
    CHECK(cudaMallocManaged(&m, 64 * sizeof(int), cudaMemAttachGlobal));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
    m[5] = 5;
    twice<<<1, 64, 0, s>>>(m);
    CHECK(cudaStreamSynchronize(s));
    printf("managed after attach: m[5] %d\n", m[5]);  // 10
    free(h);
    return 0;
}
