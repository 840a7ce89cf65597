// Executor test kernel: device printf with many conversions.
// Regenerate: nvcc -ptx -O3 -arch=compute_75 printf.cu -o printf.ptx
#include <cstdio>

extern "C" __global__ void hello(int n, double x)
{
    int t = threadIdx.x;
    if (t < 3) {
        printf("t=%d n=%i u=%u x=%5.2f e=%.3e g=%g c=%c s=%s ll=%lld hex=%x/%X oct=%o p%%\n",
               t, n, (unsigned)t * 1000000000u, x * t, x, x, 'a' + t, "str", (long long)t << 40,
               255 + t, 255 + t, 8 + t);
    }
    if (t == 0) printf("%-5d|%05d|%+d|%s|%lu|%8.3s|\n", 42, 42, 42, "end", 18446744073709551615ul, "abcdef");
    if (t == 31) printf("no args\n");
}
