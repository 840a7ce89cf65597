// Host threads using the runtime at the same time: launches with their own
// configurations, and a last error that belongs to the thread that made it.
#include <thread>
#include "check.h"

__global__ void add(int *v, int n, int x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += x;
}

static void worker(int id, int *result) {
    const int n = 256;
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    for (int k = 0; k < 200; k++) add<<<2, 128>>>(d, n, id + 1);
    CHECK(cudaGetLastError());
    int h[n];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= h[i] == 200 * (id + 1);
    CHECK(cudaFree(d));
    *result = ok;
}

int main() {
    int ok[4] = {0, 0, 0, 0};
    std::thread t[4];
    for (int i = 0; i < 4; i++) t[i] = std::thread(worker, i, &ok[i]);
    for (int i = 0; i < 4; i++) t[i].join();
    for (int i = 0; i < 4; i++) EXPECT(ok[i]);
    printf("4 threads x 200 launches ok\n");

    // a bad launch in one thread is not another thread's last error
    cudaError_t seen_by_other = cudaErrorUnknown;
    std::thread bad([] { add<<<1, 2048>>>(nullptr, 0, 0); });
    bad.join();
    std::thread other([&] { seen_by_other = cudaGetLastError(); });
    other.join();
    printf("other thread sees: %s\n", cudaGetErrorName(seen_by_other));
    printf("main thread sees: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("PASS\n");
    return 0;
}
