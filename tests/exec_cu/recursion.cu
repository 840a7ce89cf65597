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

// A callee writing into its caller's local array through a generic pointer, and a
// struct returned by value (a .param .b8 array return).
struct pair { float a; double b; };

__device__ __noinline__ void fill_local(int *buf, int n, int k)
{
    for (int i = 0; i < n; i++) buf[i] = i * k;
}

__device__ __noinline__ pair make_pair(float a, double b)
{
    pair r;
    r.a = a * 2.0f;
    r.b = b + 0.25;
    return r;
}

extern "C" __global__ void locals_and_structs(const int *in, int *out, float *fo, double *dout)
{
    int t = threadIdx.x;
    int buf[16];
    fill_local(buf, 16, t + 1);
    out[t] = buf[in[t] & 15];
    pair p = make_pair((float)t, (double)t);
    fo[t] = p.a;
    dout[t] = p.b;
}
