// histogram: 256-bin histogram of 8-bit samples, two ways.
//
// hist_global: every sample is an atomicAdd on the global histogram (contended
// global atomics).  hist_shared: each CTA builds a private histogram in shared
// memory with shared atomics, then merges its non-zero bins into the global one,
// the usual privatisation.  Both read the packed samples with a grid-stride loop,
// one 32-bit word (four samples) per iteration.
//
// Stand-alone: ./histogram [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void hist_global(const unsigned *data, unsigned num_words, unsigned *hist) {
    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < num_words; i += stride) {
        unsigned word = data[i];
        atomicAdd(&hist[word & 0xffu], 1u);
        atomicAdd(&hist[(word >> 8) & 0xffu], 1u);
        atomicAdd(&hist[(word >> 16) & 0xffu], 1u);
        atomicAdd(&hist[word >> 24], 1u);
    }
}

extern "C" __global__ void hist_shared(const unsigned *data, unsigned num_words, unsigned *hist) {
    __shared__ unsigned local_hist[HIST_BINS];
    for (unsigned b = threadIdx.x; b < HIST_BINS; b += blockDim.x) local_hist[b] = 0;
    __syncthreads();

    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < num_words; i += stride) {
        unsigned word = data[i];
        atomicAdd(&local_hist[word & 0xffu], 1u);
        atomicAdd(&local_hist[(word >> 8) & 0xffu], 1u);
        atomicAdd(&local_hist[(word >> 16) & 0xffu], 1u);
        atomicAdd(&local_hist[word >> 24], 1u);
    }
    __syncthreads();

    for (unsigned b = threadIdx.x; b < HIST_BINS; b += blockDim.x) {
        unsigned count = local_hist[b];
        if (count != 0) atomicAdd(&hist[b], count);
    }
}

static int compare(const char *what, const unsigned *got, const unsigned *expected) {
    for (int b = 0; b < HIST_BINS; b++) {
        if (got[b] != expected[b]) {
            fprintf(stderr, "%s: bin %d: got %u, expected %u\n", what, b, got[b], expected[b]);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv) {
    uint32_t size = 128;  // the evaluation size (wl_histogram.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    uint32_t words = hist_num_words(size);
    uint32_t *data = hist_generate(words, seed);
    if (!data) wl_die("out of host memory");
    unsigned expected[HIST_BINS], got_global[HIST_BINS], got_shared[HIST_BINS];
    hist_reference(data, words, expected);

    unsigned *d_data, *d_hist_global, *d_hist_shared;
    CUDA_CHECK(cudaMalloc(&d_data, (size_t)words * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_hist_global, HIST_BINS * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_hist_shared, HIST_BINS * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_data, data, (size_t)words * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_hist_global, 0, HIST_BINS * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_hist_shared, 0, HIST_BINS * sizeof(unsigned)));

    unsigned blocks = hist_num_blocks(words);
    hist_global<<<blocks, HIST_BLOCK>>>(d_data, words, d_hist_global);
    CUDA_CHECK(cudaGetLastError());
    hist_shared<<<blocks, HIST_BLOCK>>>(d_data, words, d_hist_shared);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got_global, d_hist_global, sizeof got_global, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got_shared, d_hist_shared, sizeof got_shared, cudaMemcpyDeviceToHost));

    int ok = compare("hist_global", got_global, expected) && compare("hist_shared", got_shared, expected);
    cudaFree(d_data); cudaFree(d_hist_global); cudaFree(d_hist_shared);
    free(data);
    return wl_finish(ok);
}
