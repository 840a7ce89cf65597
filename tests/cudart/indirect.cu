// Indirect calls (issue 33, item 4): virtual functions and a table of device function
// pointers, with lanes of one warp calling different functions at the same call.
// 64 threads; every value is worked by hand:
//   virtual:  lane i calls Base::f (i + 1) for i % 3 == 0, Twice::f (2i) for 1, Square::f (i*i) for 2
//   table:    ops[i % 4](i, 3): add (i + 3), sub (i - 3), mul (3i), and a repeat of add
#include "check.h"

struct Base {
    __device__ virtual int f(int x) { return x + 1; }
};
struct Twice : Base {
    __device__ int f(int x) override { return 2 * x; }
};
struct Square : Base {
    __device__ int f(int x) override { return x * x; }
};

__global__ void virtual_calls(int *v) {
    Base b;
    Twice t;
    Square s;
    int i = threadIdx.x;
    Base *p = i % 3 == 0 ? &b : i % 3 == 1 ? static_cast<Base *>(&t) : static_cast<Base *>(&s);
    v[i] = p->f(i);
}

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
typedef int (*op_t)(int, int);
__device__ op_t ops[4] = {op_add, op_sub, op_mul, op_add};

__global__ void table_calls(int *v) {
    int i = threadIdx.x;
    v[i] = ops[i % 4](i, 3);
}

int main() {
    int *d, h[64];
    CHECK(cudaMalloc(&d, sizeof h));
    virtual_calls<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 64; i++) bad |= h[i] != (i % 3 == 0 ? i + 1 : i % 3 == 1 ? 2 * i : i * i);
    printf("virtual: v[0] %d v[1] %d v[2] %d v[63] %d%s\n", h[0], h[1], h[2], h[63], bad ? " (wrong)" : "");
    table_calls<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad2 = 0;
    for (int i = 0; i < 64; i++) bad2 |= h[i] != (i % 4 == 1 ? i - 3 : i % 4 == 2 ? 3 * i : i + 3);
    printf("table: v[0] %d v[1] %d v[2] %d v[3] %d%s\n", h[0], h[1], h[2], h[3], bad2 ? " (wrong)" : "");
    return bad | bad2;
}
