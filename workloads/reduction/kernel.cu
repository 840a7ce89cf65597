/* reduction: sum of a large int array and count of its non-zero elements.
 *
 * Two passes, the usual way: reduce_partial has each block sum a grid-stride
 * slice and write one partial per block; reduce_final (one block) reduces the
 * partials.  Within a block: warp shuffles (shfl.down) to reduce each warp,
 * shared memory to hand the per-warp results to warp 0, which finishes with a
 * butterfly (shfl.xor).  Non-zero elements are counted with a warp ballot.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ int warp_sum_down(int v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;  /* complete in lane 0 only */
}

__device__ __forceinline__ int warp_sum_xor(int v) {
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(FULL_MASK, v, mask);
    return v;  /* complete in every lane */
}

/* Block-wide reduction of (sum, nonzero).  sum is per thread; nonzero is already
 * a per-warp total (identical in every lane of a warp).  The result is valid in
 * thread 0.  blockDim.x must be a multiple of 32. */
__device__ void block_reduce(int &sum, int &nonzero) {
    __shared__ int warp_sums[32];
    __shared__ int warp_nonzero[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    sum = warp_sum_down(sum);
    if (lane == 0) {
        warp_sums[warp] = sum;
        warp_nonzero[warp] = nonzero;
    }
    __syncthreads();
    if (warp == 0) {
        int nwarps = blockDim.x >> 5;
        sum = lane < nwarps ? warp_sums[lane] : 0;
        nonzero = lane < nwarps ? warp_nonzero[lane] : 0;
        sum = warp_sum_xor(sum);
        nonzero = warp_sum_xor(nonzero);
    }
}

/* Each warp walks the array 32 consecutive elements at a time (a coalesced
 * 128-byte line per trip), with the whole grid as stride.  The trip count is
 * the same for every lane of a warp, so the ballot always sees the full warp. */
extern "C" __global__ void reduce_partial(const int *__restrict__ in, int n, int *block_sums,
                                          int *block_nonzero) {
    int lane = threadIdx.x & 31;
    int stride = blockDim.x * gridDim.x;
    int sum = 0, nonzero = 0;
    for (int base = blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < n; base += stride) {
        int i = base + lane;
        int v = i < n ? in[i] : 0;
        sum += v;
        nonzero += __popc(__ballot_sync(FULL_MASK, v != 0));
    }
    block_reduce(sum, nonzero);
    if (threadIdx.x == 0) {
        block_sums[blockIdx.x] = sum;
        block_nonzero[blockIdx.x] = nonzero;
    }
}

/* One block folds the per-block partials; result[0] = sum, result[1] = count. */
extern "C" __global__ void reduce_final(const int *block_sums, const int *block_nonzero,
                                        int nblocks, int *result) {
    int sum = 0, nonzero = 0;
    for (int i = threadIdx.x; i < nblocks; i += blockDim.x) {
        sum += block_sums[i];
        nonzero += block_nonzero[i];
    }
    /* block_reduce wants the count as a per-warp total. */
    nonzero = warp_sum_xor(nonzero);
    block_reduce(sum, nonzero);
    if (threadIdx.x == 0) {
        result[0] = sum;
        result[1] = nonzero;
    }
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = REDUCTION_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, REDUCTION_MAX_SIZE, &size, &seed);
    uint32_t n = reduction_n(size), grid = reduction_grid(n);
    int *in = (int *)malloc((size_t)n * sizeof(int));
    if (!in) wl_die("out of host memory");
    reduction_gen(n, seed, in);
    int want_sum, want_nonzero;
    reduction_ref(n, in, &want_sum, &want_nonzero);

    int *d_in, *d_sums, *d_nonzero, *d_result;
    CUDA_CHECK(cudaMalloc(&d_in, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sums, grid * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_nonzero, grid * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_result, 2 * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, in, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
    reduce_partial<<<grid, REDUCTION_BLOCK>>>(d_in, (int)n, d_sums, d_nonzero);
    CUDA_CHECK(cudaGetLastError());
    reduce_final<<<1, REDUCTION_BLOCK>>>(d_sums, d_nonzero, (int)grid, d_result);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    int result[2];
    CUDA_CHECK(cudaMemcpy(result, d_result, sizeof result, cudaMemcpyDeviceToHost));

    int ok = result[0] == want_sum && result[1] == want_nonzero;
    if (!ok)
        printf("sum %d (expected %d), non-zero count %d (expected %d)\n", result[0], want_sum,
               result[1], want_nonzero);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_nonzero));
    CUDA_CHECK(cudaFree(d_result));
    free(in);
    return wl_finish(ok);
}
