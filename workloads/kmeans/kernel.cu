// kmeans: Lloyd's algorithm, assignment step on the GPU, centre update on the host.
//
// kmeans_assign gives each point (one thread each) the index of its nearest centre.
// Features are point-major, so a thread re-reads its own point's F features once per
// centre (intra-thread reuse across a 136-byte stride between neighbouring threads:
// the access pattern that makes kmeans cache-sensitive).  The centres live in
// constant memory, read by all threads at the same address, as in the classic GPU
// implementations.  The host recomputes the centres from the memberships and
// copies them back to the constant bank before each round.
//
// Stand-alone: ./kmeans [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ float c_centres[KMEANS_CLUSTERS * KMEANS_FEATURES];

extern "C" __global__ void kmeans_assign(const float *features, int *membership, int num_points,
                                         int num_features, int num_clusters) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= num_points) return;
    const float *point = features + (size_t)p * num_features;
    int best = 0;
    float best_dist = INFINITY;
    for (int c = 0; c < num_clusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < num_features; f++) {
            float diff = point[f] - c_centres[c * num_features + f];
            dist = fmaf(diff, diff, dist);
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}

int main(int argc, char **argv) {
    uint32_t size = 64;  // the evaluation size (wl_kmeans.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    uint32_t n = kmeans_num_points(size);
    float centres[KMEANS_CLUSTERS * KMEANS_FEATURES];
    float *features = kmeans_generate(n, seed, centres);
    int32_t *membership = (int32_t *)malloc(n * sizeof(int32_t));
    int32_t *expected = (int32_t *)malloc(n * sizeof(int32_t));
    if (!features || !membership || !expected) wl_die("out of host memory");

    float *d_features;
    int *d_membership;
    size_t feature_bytes = (size_t)n * KMEANS_FEATURES * sizeof(float);
    CUDA_CHECK(cudaMalloc(&d_features, feature_bytes));
    CUDA_CHECK(cudaMalloc(&d_membership, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_features, features, feature_bytes, cudaMemcpyHostToDevice));

    unsigned blocks = (n + KMEANS_BLOCK - 1) / KMEANS_BLOCK;
    int ok = 1;
    for (int it = 0; it < KMEANS_ITERATIONS && ok; it++) {
        CUDA_CHECK(cudaMemcpyToSymbol(c_centres, centres, sizeof centres));
        kmeans_assign<<<blocks, KMEANS_BLOCK>>>(d_features, d_membership, (int)n, KMEANS_FEATURES,
                                                KMEANS_CLUSTERS);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(membership, d_membership, n * sizeof(int), cudaMemcpyDeviceToHost));
        // Check this round before the host uses the memberships (same centres on both sides).
        kmeans_assign_reference(features, n, centres, expected);
        for (uint32_t p = 0; p < n; p++) {
            if (membership[p] != expected[p]) {
                fprintf(stderr, "iteration %d: membership[%u]: got %d, expected %d\n", it, p, membership[p],
                        expected[p]);
                ok = 0;
                break;
            }
        }
        if (ok) kmeans_update_centres(features, n, membership, centres);
    }
    cudaFree(d_features);
    cudaFree(d_membership);
    free(features); free(membership); free(expected);
    return wl_finish(ok);
}
