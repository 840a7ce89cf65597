// __constant__ tables, __device__ globals with initializers, static and dynamic shared memory.
__constant__ float c_coef[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, 3.5f, 1e-3f, 2.0f};
__constant__ int c_n;
__device__ int g_table[4] = {1, 2, 3, 4};
__device__ double g_scale = 2.5;
__device__ int *g_ptr = g_table;
__device__ unsigned long long g_counter;

extern "C" __global__ void with_const(const float *in, float *out)
{
    extern __shared__ float dyn[];
    __shared__ float tile[32][33];
    int t = threadIdx.x;
    dyn[t] = in[t] * c_coef[t & 7];
    tile[t & 31][t >> 5] = dyn[t] + g_table[t & 3] + *g_ptr;
    __syncthreads();
    float s = 0;
    for (int k = 0; k < c_n; k++) s += dyn[(t + k) % blockDim.x] * tile[k & 31][t & 31];
    out[t] = s * (float)g_scale;
    atomicAdd(&g_counter, 1ull);
}

extern "C" __global__ void dyn_double(double *out)
{
    extern __shared__ double ddyn[];
    ddyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = ddyn[blockDim.x - 1 - threadIdx.x];
}
