// knn: distances from a query point to every record, one thread per record (the
// structure of Rodinia's nearest neighbour kernel, written here); the host picks the
// nearest records from the distances.
//
// Stand-alone: ./knn [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void knn_distances(const float2 *rec, float *dist, int n, float qlat, float qlng) {
    const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const float2 r = rec[i];
    dist[i] = knn_distance(r.x, r.y, qlat, qlng);
}

int main(int argc, char **argv) {
    uint32_t size = 16;  // the evaluation size (wl_knn.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, KNN_MAX_SIZE, &size, &seed);

    uint32_t n = knn_records(size);
    float qlat, qlng;
    float *rec = knn_generate(n, seed, &qlat, &qlng), *got = (float *)malloc(n * sizeof(float));
    if (!rec || !got) wl_die("out of host memory");
    float2 *d_rec;
    float *d_dist;
    CUDA_CHECK(cudaMalloc(&d_rec, (size_t)n * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_dist, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_rec, rec, (size_t)n * sizeof(float2), cudaMemcpyHostToDevice));
    knn_distances<<<(n + KNN_BLOCK - 1) / KNN_BLOCK, KNN_BLOCK>>>(d_rec, d_dist, (int)n, qlat, qlng);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_dist, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));

    int ok = 1;
    for (uint32_t i = 0; i < n && ok; i++) {
        float want = knn_distance(rec[2 * i], rec[2 * i + 1], qlat, qlng);
        if (memcmp(&got[i], &want, sizeof want) != 0) {
            fprintf(stderr, "record %u: got %.9g, expected %.9g\n", i, got[i], want);
            ok = 0;
        }
    }
    if (ok) {
        uint32_t best[KNN_K];
        knn_select(got, n, best);
        for (int k = 0; k < KNN_K; k++)
            printf("%d: record %u (%.3f, %.3f) at %.4f\n", k, best[k], rec[2 * best[k]], rec[2 * best[k] + 1],
                   got[best[k]]);
    }
    cudaFree(d_rec); cudaFree(d_dist);
    free(rec); free(got);
    return wl_finish(ok);
}
