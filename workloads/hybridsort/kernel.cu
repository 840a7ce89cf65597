// hybridsort: bucket sort by splitters, then a sort of each bucket (the structure of
// Rodinia's hybridsort, written here).  Four launches:
//
// hy_count:   each CTA histograms its 1024 keys into the buckets in shared memory
//             (binary search of the splitters, staged in shared memory; shared
//             atomics) and writes its counts bucket-major, counts[bucket][cta].
// hy_offsets: one CTA, a thread per bucket: the bucket's total, an exclusive scan of
//             the totals in shared memory, then every CTA's write cursor per bucket.
// hy_scatter: each CTA moves its keys to their buckets through shared atomic cursors
//             (the order inside a bucket depends on the atomics' order).
// hy_sort:    one CTA per bucket: a bitonic sort of the bucket in shared memory
//             (padded to a power of two), written back in place of the bucket.
//
// Stand-alone: ./hybridsort [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

#define HY_MAXB 1024  // buckets at HY_MAX_SIZE

extern "C" __global__ void hy_count(const float *keys, const float *splitters, unsigned *counts, int nb) {
    __shared__ float sp[HY_MAXB];
    __shared__ unsigned hist[HY_MAXB];
    for (int i = (int)threadIdx.x; i < nb; i += (int)blockDim.x) {
        hist[i] = 0;
        if (i < nb - 1) sp[i] = splitters[i];
    }
    __syncthreads();
    const size_t base = (size_t)blockIdx.x * HY_BLOCK * HY_PER_THREAD + threadIdx.x;
    for (int k = 0; k < (int)HY_PER_THREAD; k++)
        atomicAdd(&hist[hy_bucket(sp, (uint32_t)nb, keys[base + k * HY_BLOCK])], 1u);
    __syncthreads();
    for (int i = (int)threadIdx.x; i < nb; i += (int)blockDim.x) counts[(size_t)i * gridDim.x + blockIdx.x] = hist[i];
}

extern "C" __global__ void hy_offsets(const unsigned *counts, unsigned *cursors, unsigned *starts, unsigned *sizes,
                                      int nblocks) {
    __shared__ unsigned scan[2][HY_MAXB];
    const int b = (int)threadIdx.x, nb = (int)blockDim.x;
    const unsigned *row = counts + (size_t)b * nblocks;
    unsigned total = 0;
    for (int k = 0; k < nblocks; k++) total += row[k];
    scan[0][b] = total;
    __syncthreads();
    int src = 0;
    for (int off = 1; off < nb; off <<= 1) {  // inclusive Hillis-Steele scan
        unsigned v = scan[src][b];
        if (b >= off) v += scan[src][b - off];
        scan[src ^ 1][b] = v;
        src ^= 1;
        __syncthreads();
    }
    unsigned run = scan[src][b] - total;
    starts[b] = run;
    sizes[b] = total;
    for (int k = 0; k < nblocks; k++) {
        cursors[(size_t)b * nblocks + k] = run;
        run += row[k];
    }
}

extern "C" __global__ void hy_scatter(const float *keys, const float *splitters, const unsigned *cursors, float *out,
                                      int nb) {
    __shared__ float sp[HY_MAXB];
    __shared__ unsigned cur[HY_MAXB];
    for (int i = (int)threadIdx.x; i < nb; i += (int)blockDim.x) {
        cur[i] = cursors[(size_t)i * gridDim.x + blockIdx.x];
        if (i < nb - 1) sp[i] = splitters[i];
    }
    __syncthreads();
    const size_t base = (size_t)blockIdx.x * HY_BLOCK * HY_PER_THREAD + threadIdx.x;
    for (int k = 0; k < (int)HY_PER_THREAD; k++) {
        const float x = keys[base + k * HY_BLOCK];
        out[atomicAdd(&cur[hy_bucket(sp, (uint32_t)nb, x)], 1u)] = x;
    }
}

extern "C" __global__ void hy_sort(const float *buckets, const unsigned *starts, const unsigned *sizes, float *out) {
    __shared__ float t[HY_CAP];
    const unsigned start = starts[blockIdx.x], n = sizes[blockIdx.x];
    unsigned p = 1;
    while (p < n) p <<= 1;
    for (unsigned i = threadIdx.x; i < p; i += blockDim.x) t[i] = i < n ? buckets[start + i] : __int_as_float(0x7f800000);
    __syncthreads();
    for (unsigned k = 2; k <= p; k <<= 1)
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            for (unsigned i = threadIdx.x; i < p; i += blockDim.x) {
                const unsigned ixj = i ^ j;
                if (ixj > i) {
                    const float a = t[i], c = t[ixj];
                    if ((a > c) == ((i & k) == 0)) {
                        t[i] = c;
                        t[ixj] = a;
                    }
                }
            }
            __syncthreads();
        }
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) out[start + i] = t[i];
}

int main(int argc, char **argv) {
    uint32_t size = 10;  // the evaluation size (wl_hybridsort.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, HY_MAX_SIZE, &size, &seed);

    uint32_t n = hy_keys(size), nb = hy_buckets(size), nblk = hy_blocks(size), which = 0;
    float *sp = (float *)malloc(nb * sizeof(float));
    float *keys = sp ? hy_generate(n, nb, seed, sp) : NULL, *got = (float *)malloc(n * sizeof(float));
    if (!keys || !got) wl_die("out of host memory");
    uint32_t largest = hy_largest_bucket(keys, n, sp, nb, &which);
    if (largest > HY_CAP) wl_die("bucket %u would hold %u keys, more than %u: pick another seed", which, largest, HY_CAP);

    float *d_keys, *d_sp, *d_tmp, *d_out;
    unsigned *d_counts, *d_cursors, *d_starts, *d_sizes;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sp, nb * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_tmp, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_counts, (size_t)nb * nblk * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_cursors, (size_t)nb * nblk * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_starts, nb * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_sizes, nb * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_keys, keys, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_sp, sp, (nb - 1) * sizeof(float), cudaMemcpyHostToDevice));
    hy_count<<<nblk, HY_BLOCK>>>(d_keys, d_sp, d_counts, (int)nb);
    CUDA_CHECK(cudaGetLastError());
    hy_offsets<<<1, nb>>>(d_counts, d_cursors, d_starts, d_sizes, (int)nblk);
    CUDA_CHECK(cudaGetLastError());
    hy_scatter<<<nblk, HY_BLOCK>>>(d_keys, d_sp, d_cursors, d_tmp, (int)nb);
    CUDA_CHECK(cudaGetLastError());
    hy_sort<<<nb, HY_SORT_BLOCK>>>(d_tmp, d_starts, d_sizes, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    qsort(keys, n, sizeof(float), hy_cmp);
    int ok = 1;
    for (uint32_t i = 0; i < n && ok; i++)
        if (memcmp(&got[i], &keys[i], sizeof(float)) != 0) {
            fprintf(stderr, "position %u: got %.9g, expected %.9g\n", i, got[i], keys[i]);
            ok = 0;
        }
    cudaFree(d_keys); cudaFree(d_sp); cudaFree(d_tmp); cudaFree(d_out);
    cudaFree(d_counts); cudaFree(d_cursors); cudaFree(d_starts); cudaFree(d_sizes);
    free(sp); free(keys); free(got);
    return wl_finish(ok);
}
