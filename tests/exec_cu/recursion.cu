// Executor test kernels: recursion through .func, and `exit` from inside a callee.
// Regenerate: nvcc -ptx -O3 -arch=compute_75 recursion.cu -o recursion.ptx
__device__ __noinline__ int fib(int n)
{
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int sum_to(int n)
{
    if (n <= 0) return 0;
    return n + sum_to(n - 1);
}

__device__ __noinline__ void maybe_exit(int v)
{
    if (v % 5 == 4) asm volatile("exit;");
}

extern "C" __global__ void fib_and_exit(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    out[t] = fib(v);
    out[32 + t] = sum_to(v);
    maybe_exit(v);
    out[64 + t] = 1000 + t;
}
