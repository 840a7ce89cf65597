// Every kind of atomic: global, shared, generic; int, float, double; red forms (unused result).
__shared__ unsigned s_counts[64];
extern "C" __global__ void atomics(int *gi, unsigned *gu, float *gf, double *gd,
                                   unsigned long long *gl, int *generic_ptr, int *out)
{
    int t = threadIdx.x;
    int r = 0;
    r += atomicAdd(gi, 1);
    r += atomicSub(gi + 1, 2);
    r += atomicMin(gi + 2, t);
    r += atomicMax(gi + 3, t);
    r += atomicAnd(gi + 4, t);
    r += atomicOr(gi + 5, t);
    r += atomicXor(gi + 6, t);
    r += atomicExch(gi + 7, t);
    r += atomicCAS(gi + 8, t, t + 1);
    r += atomicInc(gu, 17u);
    r += atomicDec(gu + 1, 17u);
    r += (int)atomicMin(gu + 2, (unsigned)t);
    r += (int)atomicMax(gu + 3, (unsigned)t);
    r += (int)atomicAdd(gf, 1.5f);
    r += (int)atomicExch(gf + 1, 2.5f);
    r += (int)atomicAdd(gd, 1.0);
    r += (int)atomicAdd(gl, 1ull);
    r += (int)atomicCAS(gl + 1, 1ull, 2ull);
    r += (int)atomicExch(gl + 2, 3ull);
    r += (int)atomicMin((long long *)gl + 3, (long long)t);
    r += (int)atomicMax(gl + 4, (unsigned long long)t);
    r += (int)atomicAnd(gl + 5, 7ull);
    r += (int)atomicOr(gl + 6, 7ull);
    r += (int)atomicXor(gl + 7, 7ull);
    r += atomicAdd_block(gi + 9, 1);
    r += atomicAdd_system(gi + 10, 1);
    r += atomicAdd(s_counts + (t & 63), 1u);
    r += atomicCAS(s_counts + 1, 0u, 1u);
    r += atomicMax(generic_ptr, t);
    // results unused: red
    atomicAdd(gi + 11, 1);
    atomicAdd(gf + 2, 1.0f);
    atomicMin(gi + 12, t);
    atomicOr(s_counts + 2, 1u);
    atomicAdd(gd + 1, 2.0);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    __syncthreads();
    out[t] = r + s_counts[t & 63];
}
