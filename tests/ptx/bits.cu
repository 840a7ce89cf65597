// Integer and bit intrinsics: brev/clz/popc/bfind/bfe/bfi/prmt/funnel shifts, hi/wide multiplies, carries.
#include <cstdint>
extern "C" __global__ void bits(const unsigned *in, unsigned *out, unsigned long long *o64, int *os)
{
    int t = threadIdx.x;
    unsigned x = in[t], y = in[t + 1];
    unsigned long long X = ((unsigned long long)x << 32) | y;
    unsigned r = __brev(x) + __clz(x) + __popc(y) + __ffs(x) + __byte_perm(x, y, 0x5410);
    r += __funnelshift_l(x, y, t) + __funnelshift_r(x, y, t) + __funnelshift_lc(x, y, t) + __funnelshift_rc(x, y, 5);
    r += __umulhi(x, y) + (unsigned)__mulhi((int)x, (int)y) + __usad(x, y, r) + __sad((int)x, (int)y, 3);
    r += __clzll(X) + __popcll(X) + __ffsll(X) + (unsigned)__brevll(X);
    r += (x >> (t & 7)) & 0x3f;  /* bfe */
    r = (r & ~0xf0u) | ((y << 4) & 0xf0u);  /* bfi */
    unsigned long long w = (unsigned long long)x * y + X;
    w += __umul64hi(X, w);
    w += (unsigned long long)__mul64hi((long long)X, (long long)w);
    int s = (int)x / (int)(y | 1) + (int)x % (int)(y | 1) + x / (y | 1) + x % (y | 1);
    s += abs((int)x) + min((int)x, (int)y) + max(x, y) + __mul24((int)x, (int)y) + __umul24(x, y);
    s += __hadd((int)x, (int)y) + __rhadd((int)x, (int)y) + __uhadd(x, y);
    long long l = (long long)X / (long long)(w | 1) + (long long)(X % (w | 1)) + llabs((long long)w);
    unsigned __int128 big = (unsigned __int128)X * w;
    o64[t] = w + (unsigned long long)(big >> 64) + (unsigned long long)l;
    out[t] = r;
    os[t] = s + __dp4a((int)x, (int)y, s) + __dp2a_lo((int)x, (int)y, s);
}
