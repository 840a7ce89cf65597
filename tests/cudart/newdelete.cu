// Device malloc/free and C++ new/delete (issue 33, item 4), with virtual functions
// on the objects new made.  Every value is worked by hand:
// shapes: 64 threads; thread i makes a Square(i) (area i*i) when i is even, a
//   Rect(i, 3) (area 3i) when odd, calls the virtual area() and deletes it (a
//   virtual destructor, then free).  out[0] 0, out[1] 3, out[2] 4, out[63] 189.
//   Each block address is 16-byte aligned and no two live blocks overlap.
// hog: one thread takes 1 MiB blocks until malloc returns NULL: with the heap set
//   to 4 MiB before the first launch (cudaLimitMallocHeapSize) that is 4 blocks;
//   it frees them, takes one again (the heap is whole again), frees it and free(NULL).
//   Setting the limit after a launch that used the heap is cudaErrorInvalidValue.
#include "check.h"

struct Shape {
    __device__ virtual ~Shape() {}
    __device__ virtual int area() const = 0;
};
struct Square : Shape {
    int s;
    __device__ explicit Square(int s) : s(s) {}
    __device__ int area() const override { return s * s; }
};
struct Rect : Shape {
    int w, h;
    __device__ Rect(int w, int h) : w(w), h(h) {}
    __device__ int area() const override { return w * h; }
};

__global__ void shapes(int *out, unsigned long long *addr) {
    int i = threadIdx.x;
    Shape *p = i % 2 ? static_cast<Shape *>(new Rect(i, 3)) : static_cast<Shape *>(new Square(i));
    out[i] = p ? p->area() : -1;
    addr[i] = (unsigned long long)p;
    __syncthreads();  // every object is alive here: their blocks must be distinct
    delete p;
}

__global__ void hog(int *out) {
    void *blocks[64];
    int n = 0;
    while (n < 64 && (blocks[n] = malloc(1 << 20)) != NULL) n++;
    out[0] = n;
    for (int i = 0; i < n; i++) free(blocks[i]);
    void *again = malloc(1 << 20);
    out[1] = again != NULL;
    free(again);
    free(NULL);
}

int main() {
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20));
    size_t heap = 0;
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    int *out, h[64];
    unsigned long long *addr, a[64];
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMalloc(&addr, sizeof a));
    shapes<<<1, 64>>>(out, addr);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(a, addr, sizeof a, cudaMemcpyDeviceToHost));
    int wrong = 0, misaligned = 0, overlap = 0;
    for (int i = 0; i < 64; i++) {
        wrong += h[i] != (i % 2 ? 3 * i : i * i);
        misaligned += a[i] % 16 != 0;
        for (int j = 0; j < i; j++) overlap += a[i] < a[j] + 16 && a[j] < a[i] + 16;  // both objects are 16 B
    }
    printf("shapes: out[0] %d out[1] %d out[2] %d out[63] %d, %d wrong, %d misaligned, %d overlapping\n", h[0], h[1],
           h[2], h[63], wrong, misaligned, overlap);
    hog<<<1, 1>>>(out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("hog: heap %zu bytes, %d blocks of 1 MiB, one again after freeing: %d\n", heap, h[0], h[1]);
    cudaError_t late = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
    printf("limit after launch: %s\n", cudaGetErrorName(late));
    return wrong || misaligned || overlap;
}
