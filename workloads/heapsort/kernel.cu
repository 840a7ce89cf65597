// heapsort: per-thread heap sort of fixed-size segments in global memory (the WSMP
// paper's self-made heap sort benchmark, per-thread version, written here).
//
// hs_sort: thread t sorts keys[t * HS_SEG .. (t + 1) * HS_SEG) in place: heapify by
// sifting down every inner node, then HS_SEG - 1 times move the maximum to the end and
// sift the new root down.  The sift loops are data-dependent (divergent trip counts
// and addresses); a warp's lanes work in 32 separate segments.
//
// Stand-alone: ./heapsort [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// Sift a[root] down the max-heap a[0..end).
__device__ void hs_sift_down(uint32_t *a, int root, int end) {
    const uint32_t v = a[root];
    for (;;) {
        int child = 2 * root + 1;
        if (child >= end) break;
        uint32_t c = a[child];
        if (child + 1 < end) {
            const uint32_t c2 = a[child + 1];
            if (c2 > c) {
                child++;
                c = c2;
            }
        }
        if (c <= v) break;
        a[root] = c;
        root = child;
    }
    a[root] = v;
}

extern "C" __global__ void hs_sort(uint32_t *keys, int segments) {
    const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (t >= segments) return;
    uint32_t *a = keys + (size_t)t * HS_SEG;
    for (int i = (int)HS_SEG / 2 - 1; i >= 0; i--) hs_sift_down(a, i, (int)HS_SEG);
    for (int end = (int)HS_SEG - 1; end > 0; end--) {
        const uint32_t top = a[0];
        a[0] = a[end];
        a[end] = top;
        hs_sift_down(a, 0, end);
    }
}

int main(int argc, char **argv) {
    uint32_t size = 12;  // the evaluation size (wl_heapsort.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, HS_MAX_SIZE, &size, &seed);

    uint32_t segments = hs_segments(size);
    size_t n = (size_t)segments * HS_SEG, bytes = n * sizeof(uint32_t);
    uint32_t *keys = hs_generate(segments, seed), *got = (uint32_t *)malloc(bytes);
    if (!keys || !got) wl_die("out of host memory");

    uint32_t *d_keys;
    CUDA_CHECK(cudaMalloc(&d_keys, bytes));
    CUDA_CHECK(cudaMemcpy(d_keys, keys, bytes, cudaMemcpyHostToDevice));
    hs_sort<<<(segments + HS_BLOCK - 1) / HS_BLOCK, HS_BLOCK>>>(d_keys, (int)segments);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_keys, bytes, cudaMemcpyDeviceToHost));
    hs_reference(keys, segments);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        if (got[i] != keys[i]) {
            fprintf(stderr, "segment %zu, position %zu: got %u, expected %u\n", i / HS_SEG, i % HS_SEG, got[i],
                    keys[i]);
            ok = 0;
        }
    cudaFree(d_keys);
    free(keys); free(got);
    return wl_finish(ok);
}
