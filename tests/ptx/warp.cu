// Warp intrinsics: shfl, vote, match, activemask, sync variants, barrier flavours.
extern "C" __global__ void warp_ops(const int *in, int *out, float *fo, double *dout)
{
    int t = threadIdx.x;
    int v = in[t];
    unsigned m = __activemask();
    int s = __shfl_sync(0xffffffff, v, 3);
    s += __shfl_up_sync(0xffffffff, v, 1);
    s += __shfl_down_sync(0xffffffff, v, 2);
    s += __shfl_xor_sync(0xffffffff, v, 4);
    s += __shfl_down_sync(0x0000ffff, v, 1, 16);
    float f = __shfl_xor_sync(0xffffffff, (float)v, 1);
    double d = __shfl_sync(0xffffffff, (double)v, 0);
    s += __all_sync(m, v > 0) + __any_sync(m, v < 0) + __popc(__ballot_sync(m, v & 1));
    s += __uni_sync(m, v == 0);
    s += __match_any_sync(m, v) + __match_all_sync(m, v, &s);
    unsigned lt; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt)); s += lt;
    __syncwarp();
    __syncthreads();
    s += __syncthreads_count(v > 2) + __syncthreads_and(v > 1) + __syncthreads_or(v > 3);
    out[t] = s;
    fo[t] = f;
    dout[t] = d;
}
