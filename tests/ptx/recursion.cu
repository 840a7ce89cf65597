// Recursion and non-inlined device functions: .func with params, return values, call frames.
__device__ __noinline__ int fib(int n)
{
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}

struct pair { float a; double b; };

__device__ __noinline__ pair make_pair(float a, double b, const int *p)
{
    pair r; r.a = a * p[0]; r.b = b + p[1];
    return r;
}

__device__ __noinline__ void fill_local(int *buf, int n)
{
    for (int i = 0; i < n; i++) buf[i] = i * i;
}

extern "C" __global__ void recurse(const int *in, int *out, float *fo, double *dout)
{
    int t = threadIdx.x;
    int local_buf[16];
    fill_local(local_buf, 16);
    out[t] = fib(in[t]) + local_buf[in[t] & 15];
    pair p = make_pair((float)t, (double)t, in);
    fo[t] = p.a;
    dout[t] = p.b;
}
