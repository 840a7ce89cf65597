// Device printf: vprintf with an argument buffer in the local depot.
#include <cstdio>
extern "C" __global__ void hello(int n, float x, double d, const char *s)
{
    int t = threadIdx.x;
    if (t < n)
        printf("thread %d of %d: x=%f d=%g s=%s\n", t, blockDim.x, x, d, s);
    printf("done\n");
}
