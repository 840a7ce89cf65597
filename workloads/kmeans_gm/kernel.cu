// kmeans_gm: the CCWS paper's KMN -- Rodinia's GPU kmeans "slightly modified to use
// global memory in place of both texture and constant memory" (CCWS paper, Sec. 5).
//
// Rodinia's structure (cuda/kmeans): the points arrive point-major, as in the data file;
// one kernel transposes them to feature-major (feature f of point p at f * n + p), then
// each round the assignment kernel gives every point (one thread each) its nearest
// centre.  Rodinia reads the features through a texture and the centres from constant
// memory; here both are plain global loads (ld.global), so both go through the L1D:
//   - a warp's load of one feature is 32 consecutive floats, one 128-byte line, and the
//     warp re-reads the same 34 lines once per centre (reuse within the warp, across
//     the centre loop: the locality CCWS protects);
//   - every thread of a warp loads the same centre element (one line per 32 elements,
//     shared by all warps).
// The host recomputes the centres from the memberships and copies them back to global
// memory before each round; every round's memberships are checked exactly against the
// reference (../kmeans/ref.h) from the same centres.
//
// Two assignment kernels, the same but for the feature loop:
//   kmeans_gm_assign          as nvcc 13 compiles it: the loop (trip count a kernel
//                             argument) unrolled by 4, so four consecutive features --
//                             four loads of one line for a thread's first 32 points --
//                             come from four different load instructions (PCs);
//   kmeans_gm_assign_nounroll `#pragma unroll 1` on that loop, as older nvcc emitted:
//                             one ld.global of the features per iteration, the same PC
//                             for every feature (the CWLP paper's per-PC predictor can
//                             then see a line's reuse).  kernel.ptx shows it: the loop
//                             of kmeans_gm_assign_nounroll has exactly two ld.global.f32
//                             (one feature, one centre element) and one backward branch.
//
// Stand-alone: ./kmeans_gm [--size S] [--seed N]   (runs both kernels; prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// points (n x nf, point-major) -> features (nf x n, feature-major)
extern "C" __global__ void kmeans_gm_transpose(const float *points, float *features, int n, int nf) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    for (int f = 0; f < nf; f++) features[(size_t)f * n + p] = points[(size_t)p * nf + f];
}

// Squared distance of point p to one centre, summed in feature order with fmaf as the
// reference does.  Feature f of point p is at f * n + p, in int as Rodinia indexes it
// (KMEANS_GM_MAX_SIZE keeps n * nf below 2^31).
__device__ __forceinline__ float distance_unrolled(const float *features, int p, int n, const float *centre, int nf) {
    float dist = 0.0f;
    for (int f = 0; f < nf; f++) {  // nvcc's choice: unrolled by 4 (kernel.ptx)
        float diff = features[f * n + p] - centre[f];
        dist = fmaf(diff, diff, dist);
    }
    return dist;
}

__device__ __forceinline__ float distance_rolled(const float *features, int p, int n, const float *centre, int nf) {
    float dist = 0.0f;
#pragma unroll 1
    for (int f = 0; f < nf; f++) {
        float diff = features[f * n + p] - centre[f];
        dist = fmaf(diff, diff, dist);
    }
    return dist;
}

// The body of both kernels; ROLLED picks the feature loop (resolved at compile time).
template <bool ROLLED>
__device__ __forceinline__ void assign(const float *features, const float *centres, int *membership, int n,
                                       int nf, int k) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    int best = 0;
    float best_dist = INFINITY;
    for (int c = 0; c < k; c++) {
        const float *centre = centres + c * nf;
        float dist = ROLLED ? distance_rolled(features, p, n, centre, nf)
                            : distance_unrolled(features, p, n, centre, nf);
        if (dist < best_dist) {  // ties keep the lower index, as the reference
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}

extern "C" __global__ void kmeans_gm_assign(const float *features, const float *centres, int *membership, int n,
                                            int nf, int k) {
    assign<false>(features, centres, membership, n, nf, k);
}

extern "C" __global__ void kmeans_gm_assign_nounroll(const float *features, const float *centres,
                                                     int *membership, int n, int nf, int k) {
    assign<true>(features, centres, membership, n, nf, k);
}

static int check_round(const char *kernel, int round, const int32_t *got, const int32_t *want, uint32_t n) {
    for (uint32_t p = 0; p < n; p++)
        if (got[p] != want[p]) {
            fprintf(stderr, "%s, round %d: membership[%u]: got %d, expected %d\n", kernel, round, p, got[p], want[p]);
            return 0;
        }
    return 1;
}

// One whole clustering (transpose, then the rounds) with one of the assignment kernels.
static int cluster(int rolled, uint32_t n, uint64_t seed) {
    const char *kernel = rolled ? "kmeans_gm_assign_nounroll" : "kmeans_gm_assign";
    float centres[KMEANS_CLUSTERS * KMEANS_FEATURES];
    float *points = kmeans_generate(n, seed, centres);
    size_t feature_bytes = (size_t)n * KMEANS_FEATURES * sizeof(float);
    float *features = (float *)malloc(feature_bytes);
    float *want_features = (float *)malloc(feature_bytes);
    int32_t *membership = (int32_t *)malloc(n * sizeof(int32_t));
    int32_t *expected = (int32_t *)malloc(n * sizeof(int32_t));
    if (!points || !features || !want_features || !membership || !expected) wl_die("out of host memory");

    float *d_points, *d_features, *d_centres;
    int *d_membership;
    CUDA_CHECK(cudaMalloc(&d_points, feature_bytes));
    CUDA_CHECK(cudaMalloc(&d_features, feature_bytes));
    CUDA_CHECK(cudaMalloc(&d_centres, sizeof centres));
    CUDA_CHECK(cudaMalloc(&d_membership, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_points, points, feature_bytes, cudaMemcpyHostToDevice));

    unsigned blocks = (n + KMEANS_GM_BLOCK - 1) / KMEANS_GM_BLOCK;
    kmeans_gm_transpose<<<blocks, KMEANS_GM_BLOCK>>>(d_points, d_features, (int)n, KMEANS_FEATURES);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(features, d_features, feature_bytes, cudaMemcpyDeviceToHost));
    kmeans_gm_transpose_reference(points, n, want_features);
    int ok = memcmp(features, want_features, feature_bytes) == 0;
    if (!ok) fprintf(stderr, "kmeans_gm_transpose: the feature-major copy differs\n");
    for (int it = 0; it < KMEANS_ITERATIONS && ok; it++) {
        CUDA_CHECK(cudaMemcpy(d_centres, centres, sizeof centres, cudaMemcpyHostToDevice));
        if (rolled)
            kmeans_gm_assign_nounroll<<<blocks, KMEANS_GM_BLOCK>>>(d_features, d_centres, d_membership, (int)n,
                                                                   KMEANS_FEATURES, KMEANS_CLUSTERS);
        else
            kmeans_gm_assign<<<blocks, KMEANS_GM_BLOCK>>>(d_features, d_centres, d_membership, (int)n,
                                                          KMEANS_FEATURES, KMEANS_CLUSTERS);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(membership, d_membership, n * sizeof(int), cudaMemcpyDeviceToHost));
        // Check this round before the host uses the memberships (same centres on both sides).
        kmeans_assign_reference(points, n, centres, expected);
        ok = check_round(kernel, it, membership, expected, n);
        if (ok) kmeans_update_centres(points, n, membership, centres);
    }
    cudaFree(d_points);
    cudaFree(d_features);
    cudaFree(d_centres);
    cudaFree(d_membership);
    free(points); free(features); free(want_features); free(membership); free(expected);
    return ok;
}

int main(int argc, char **argv) {
    uint32_t size = KMEANS_GM_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, KMEANS_GM_MAX_SIZE, &size, &seed);
    uint32_t n = kmeans_gm_num_points(size);
    int ok = cluster(0, n, seed);
    if (ok) ok = cluster(1, n, seed);
    return wl_finish(ok);
}
