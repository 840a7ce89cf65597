// kmeans_rd: Rodinia 3.1's GPU kmeans (cuda/kmeans: kmeans_cuda.cu, kmeans_cuda_kernel.cu)
// with Rodinia's memory spaces and launch geometry, for the sharing-aware evaluation
// (issue 30: its CTA scheduler groups grid rows, so the grid's shape matters).
//
// What follows Rodinia:
//   - The points arrive point-major (as in the data file) and are transposed once on
//     the GPU to feature-major (feature f of point p at p + f * n) by an invert kernel
//     launched 1-D on side^2 CTAs of 256 threads (Rodinia's invert_mapping, launched
//     with the padded block count).
//   - Each round the assignment kernel (Rodinia's kmeansPoint) gives every point (one
//     thread each) its nearest centre, reading the features through a 1-D linear
//     texture (tex1Dfetch) and the centres from constant memory (every thread of a
//     warp reads the same centre element: a broadcast).  A warp's fetch of one feature
//     is 32 consecutive floats, one 128-byte line, re-read once per centre.
//   - The assignment grid is Rodinia's square 2-D grid: side x side CTAs of 256
//     threads, side = kmeans_rd_grid_side(n) (ref.h), point id = (blockIdx.y * gridDim.x
//     + blockIdx.x) * 256 + threadIdx.x; the padding CTAs past n do nothing.
//   - The host reads the memberships back after each round and recomputes the centres
//     (Rodinia's CPU_DELTA_REDUCE / CPU_CENTER_REDUCE build; its GPU reductions are off).
// What differs: texture *objects* (CUDA 12 removed the texture references Rodinia
// binds); the distance is written fmaf(diff, diff, dist), which is what nvcc contracts
// Rodinia's `ans += diff * diff` into, so that the CPU reference matches bit for bit;
// the nearest centre starts from index 0 at infinity where Rodinia starts from -1 at
// FLT_MAX (the same result for finite distances); the constant bank holds k x 34
// floats (Rodinia reserves 32 x 34); a fixed number of rounds (kmeans's 3) instead of
// Rodinia's until-converged loop; Rodinia's per-round copies the kernel never reads
// (the old memberships, the centres to global memory) are left out.
//
// Stand-alone: ./kmeans_rd [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ float c_centres[KMEANS_CLUSTERS * KMEANS_FEATURES];

// points (n x nf, point-major) -> features (nf x n, feature-major); int indices as
// Rodinia's (KMEANS_RD_MAX_SIZE keeps n * nf below 2^27).
extern "C" __global__ void kmeans_rd_invert(const float *points, float *features, int n, int nf) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    for (int f = 0; f < nf; f++) features[p + n * f] = points[p * nf + f];
}

extern "C" __global__ void kmeans_rd_point(cudaTextureObject_t features, int nf, int n, int k, int *membership) {
    unsigned block = gridDim.x * blockIdx.y + blockIdx.x;
    unsigned p = block * blockDim.x * blockDim.y + threadIdx.x;
    if (p >= (unsigned)n) return;
    int best = 0;
    float best_dist = INFINITY;
    for (int c = 0; c < k; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nf; f++) {
            float diff = tex1Dfetch<float>(features, (int)p + f * n) - c_centres[c * nf + f];
            dist = fmaf(diff, diff, dist);
        }
        if (dist < best_dist) {  // ties keep the lower index, as the reference
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}

// ---- stand-alone host program ----

static int check_round(int round, const int32_t *got, const int32_t *want, uint32_t n) {
    for (uint32_t p = 0; p < n; p++)
        if (got[p] != want[p]) {
            fprintf(stderr, "round %d: membership[%u]: got %d, expected %d\n", round, p, got[p], want[p]);
            return 0;
        }
    return 1;
}

int main(int argc, char **argv) {
    uint32_t size = KMEANS_RD_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, KMEANS_RD_MAX_SIZE, &size, &seed);
    uint32_t n = kmeans_num_points(size);
    float centres[KMEANS_CLUSTERS * KMEANS_FEATURES];
    float *points = kmeans_generate(n, seed, centres);
    size_t feature_bytes = (size_t)n * KMEANS_FEATURES * sizeof(float);
    float *features = (float *)malloc(feature_bytes), *want_features = (float *)malloc(feature_bytes);
    int32_t *membership = (int32_t *)malloc(n * sizeof(int32_t));
    int32_t *expected = (int32_t *)malloc(n * sizeof(int32_t));
    if (!points || !features || !want_features || !membership || !expected) wl_die("out of host memory");

    float *d_points, *d_features;
    int *d_membership;
    CUDA_CHECK(cudaMalloc(&d_points, feature_bytes));
    CUDA_CHECK(cudaMalloc(&d_features, feature_bytes));
    CUDA_CHECK(cudaMalloc(&d_membership, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_points, points, feature_bytes, cudaMemcpyHostToDevice));

    uint32_t side = kmeans_rd_grid_side(n);
    kmeans_rd_invert<<<side * side, KMEANS_RD_BLOCK>>>(d_points, d_features, (int)n, KMEANS_FEATURES);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(features, d_features, feature_bytes, cudaMemcpyDeviceToHost));
    kmeans_gm_transpose_reference(points, n, want_features);
    int ok = memcmp(features, want_features, feature_bytes) == 0;
    if (!ok) fprintf(stderr, "kmeans_rd_invert: the feature-major copy differs\n");

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_features;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = feature_bytes;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t_features;
    CUDA_CHECK(cudaCreateTextureObject(&t_features, &res, &td, NULL));

    dim3 grid(side, side), block(KMEANS_RD_BLOCK);
    for (int it = 0; it < KMEANS_ITERATIONS && ok; it++) {
        CUDA_CHECK(cudaMemcpyToSymbol(c_centres, centres, sizeof centres));
        kmeans_rd_point<<<grid, block>>>(t_features, KMEANS_FEATURES, (int)n, KMEANS_CLUSTERS, d_membership);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(membership, d_membership, n * sizeof(int), cudaMemcpyDeviceToHost));
        // Check this round before the host uses the memberships (same centres on both sides).
        kmeans_assign_reference(points, n, centres, expected);
        ok = check_round(it, membership, expected, n);
        if (ok) kmeans_update_centres(points, n, membership, centres);
    }
    CUDA_CHECK(cudaDestroyTextureObject(t_features));
    cudaFree(d_points);
    cudaFree(d_features);
    cudaFree(d_membership);
    free(points); free(features); free(want_features); free(membership); free(expected);
    return wl_finish(ok);
}
