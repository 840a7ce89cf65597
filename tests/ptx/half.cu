// f16 / bf16 conversions and arithmetic.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void halfs(const float *in, __half *h, __nv_bfloat16 *b, float *out)
{
    int t = threadIdx.x;
    float x = in[t];
    __half hx = __float2half(x);
    __half hy = __float2half_rz(x * 2.0f);
    __half hz = __hadd(hx, hy);
    hz = __hmul(hz, hx);
    hz = __hfma(hx, hy, hz);
    __half2 h2 = __halves2half2(hx, hy);
    h2 = __hmul2(h2, h2);
    __nv_bfloat16 bx = __float2bfloat16(x);
    __nv_bfloat16 by = __float2bfloat16_rz(x + 1.0f);
    h[t] = __hadd(hz, __low2half(h2));
    b[t] = __float2bfloat16(__bfloat162float(bx) * __bfloat162float(by));
    out[t] = __half2float(hz) + __low2float(h2) + __high2float(h2) + (__hlt(hx, hy) ? 1.0f : 0.0f)
             + __half2float(__hmax(hx, hy)) + (float)__half2int_rn(hx) + __half2float(__int2half_rn(t));
}
