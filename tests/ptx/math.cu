// Math-library functions as nvcc 13 lowers them (fma polynomials, approx SFU ops).
#include <math.h>
extern "C" __global__ void math_f32(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float r = logf(x) + expf(x) + sinf(x) + cosf(x) + sqrtf(x) + 1.0f / x;
    r += tanhf(x) + rsqrtf(x) + __logf(x) + __expf(x) + __sinf(x) + __cosf(x);
    r += powf(x, 1.5f) + fminf(x, r) + fmaxf(x, r) + copysignf(r, x) + truncf(x) + floorf(x) + ceilf(x) + rintf(x);
    r += __fdividef(r, x) + __saturatef(x) + exp2f(x) + log2f(x) + fabsf(-x);
    out[i] = r / x;
}

extern "C" __global__ void math_f64(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i];
    double r = exp(x) + log(x) + pow(x, 2.5) + sqrt(x) + 1.0 / x + sin(x) + fabs(x);
    r += fmin(x, r) + fmax(x, r) + floor(x) + ceil(x) + trunc(x) + rint(x) + rsqrt(x);
    out[i] = r / x;
}

extern "C" __global__ void convert(const double *in, int *oi, unsigned *ou, long long *ol,
                                   float *of, unsigned short *oh, signed char *oc)
{
    int i = threadIdx.x;
    double x = in[i];
    float f = (float)x;
    oi[i] = (int)x + __float2int_rn(f) + __float2int_rz(f) + __float2int_rd(f) + __float2int_ru(f);
    ou[i] = (unsigned)f + __double2uint_rn(x);
    ol[i] = (long long)x + __double2ll_rd(x) + (long long)f;
    of[i] = (float)ol[i] + __int2float_rz(oi[i]) + __uint2float_ru(ou[i]) + __ll2float_rn(ol[i]) + __double2float_rz(x);
    oh[i] = (unsigned short)x;
    oc[i] = (signed char)f;
}
