// streamcluster: the pgain step of streaming k-median clustering (facility location).
//
// For one candidate centre x, sc_pgain gives every point a thread: it walks the
// point's SC_DIM features (stored dimension-major, so a warp's loads coalesce and
// each feature of the candidate is staged once per CTA in shared memory), computes
// the weighted distance x_cost, and decides whether the point would switch to x.
// The cost changes are summed per CTA with shared-memory float atomics into one
// accumulator per open centre plus one for the switching points, and each CTA
// writes its partial sums out; the host adds them up, decides, and when x opens
// launches sc_apply to move the affected points.
//
// Stand-alone: ./streamcluster [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

// Dynamic shared memory: dim floats (the candidate) then num_centers + 1 accumulators.
extern "C" __global__ void sc_pgain(const float *__restrict__ coord, const float *__restrict__ weight,
                                    const float *__restrict__ cost, const int *__restrict__ assign,
                                    const int *__restrict__ center_table, int n, int dim, int num_centers,
                                    int candidate, float *__restrict__ x_cost_out,
                                    unsigned char *__restrict__ switch_out, float *__restrict__ block_partials) {
    extern __shared__ float smem[];
    float *cand = smem;
    float *partial = smem + dim;
    for (int d = threadIdx.x; d < dim; d += blockDim.x) cand[d] = coord[(size_t)d * n + candidate];
    for (int c = threadIdx.x; c <= num_centers; c += blockDim.x) partial[c] = 0.0f;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float dist = 0.0f;
        for (int d = 0; d < dim; d++) {
            float diff = coord[(size_t)d * n + i] - cand[d];
            dist += diff * diff;
        }
        float x_cost = dist * weight[i];
        float current = cost[i];
        x_cost_out[i] = x_cost;
        if (x_cost < current) {
            switch_out[i] = 1;
            atomicAdd(&partial[num_centers], x_cost - current);
        } else {
            // What this point would pay extra if its centre closed and it moved to x.
            switch_out[i] = 0;
            atomicAdd(&partial[center_table[assign[i]]], current - x_cost);
        }
    }
    __syncthreads();
    for (int c = threadIdx.x; c <= num_centers; c += blockDim.x)
        block_partials[(size_t)blockIdx.x * (num_centers + 1) + c] = partial[c];
}

// x opened: points that switch, and every point of a closed centre, move to x.
extern "C" __global__ void sc_apply(const unsigned char *__restrict__ switch_in, const float *__restrict__ x_cost,
                                    const unsigned char *__restrict__ closed, const int *__restrict__ center_table,
                                    int *assign, float *cost, int n, int candidate) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (switch_in[i] || closed[center_table[assign[i]]]) {
        assign[i] = candidate;
        cost[i] = x_cost[i];
    }
}

int main(int argc, char **argv) {
    uint32_t size = SC_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, SC_MAX_SIZE, &size, &seed);

    sc_input in;
    if (sc_generate(&in, size, seed) != 0) wl_die("out of host memory");
    int n = in.n;
    unsigned blocks = ((unsigned)n + SC_BLOCK - 1) / SC_BLOCK;
    sc_centers cs, want_cs;
    cs.center_table = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    want_cs.center_table = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    int32_t *assign = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    int32_t *want_assign = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    float *cost = (float *)malloc((size_t)n * sizeof(float));
    float *want_cost = (float *)malloc((size_t)n * sizeof(float));
    float *partials = (float *)malloc((size_t)blocks * (SC_MAX_CENTERS + 1) * sizeof(float));
    if (!cs.center_table || !want_cs.center_table || !assign || !want_assign || !cost || !want_cost ||
        !partials || sc_reference(&in, &want_cs, want_assign, want_cost) != 0) {
        wl_die("out of host memory");
    }
    sc_initial_state(&in, &cs, assign, cost);

    float *d_coord, *d_weight, *d_cost, *d_x_cost, *d_partials;
    int *d_assign, *d_center_table;
    unsigned char *d_switch, *d_closed;
    size_t nf = (size_t)n * sizeof(float), ni = (size_t)n * sizeof(int);
    CUDA_CHECK(cudaMalloc(&d_coord, nf * SC_DIM));
    CUDA_CHECK(cudaMalloc(&d_weight, nf));
    CUDA_CHECK(cudaMalloc(&d_cost, nf));
    CUDA_CHECK(cudaMalloc(&d_x_cost, nf));
    CUDA_CHECK(cudaMalloc(&d_partials, (size_t)blocks * (SC_MAX_CENTERS + 1) * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_assign, ni));
    CUDA_CHECK(cudaMalloc(&d_center_table, ni));
    CUDA_CHECK(cudaMalloc(&d_switch, (size_t)n));
    CUDA_CHECK(cudaMalloc(&d_closed, SC_MAX_CENTERS));
    CUDA_CHECK(cudaMemcpy(d_coord, in.coord, nf * SC_DIM, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_weight, in.weight, nf, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cost, cost, nf, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_assign, assign, ni, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_center_table, cs.center_table, ni, cudaMemcpyHostToDevice));

    for (int t = 0; t < SC_CANDIDATES; t++) {
        int x = in.candidates[t], k = cs.num_centers;
        size_t smem = (size_t)(SC_DIM + k + 1) * sizeof(float);
        sc_pgain<<<blocks, SC_BLOCK, smem>>>(d_coord, d_weight, d_cost, d_assign, d_center_table, n, SC_DIM, k, x,
                                             d_x_cost, d_switch, d_partials);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(partials, d_partials, (size_t)blocks * (k + 1) * sizeof(float), cudaMemcpyDeviceToHost));
        double totals[SC_MAX_CENTERS + 1];
        uint8_t closed[SC_MAX_CENTERS];
        for (int c = 0; c <= k; c++) totals[c] = 0.0;
        for (unsigned b = 0; b < blocks; b++)
            for (int c = 0; c <= k; c++) totals[c] += partials[(size_t)b * (k + 1) + c];
        if (!sc_decide(totals, k, in.z, closed)) continue;
        CUDA_CHECK(cudaMemcpy(d_closed, closed, (size_t)k, cudaMemcpyHostToDevice));
        sc_apply<<<blocks, SC_BLOCK>>>(d_switch, d_x_cost, d_closed, d_center_table, d_assign, d_cost, n, x);
        CUDA_CHECK(cudaGetLastError());
        sc_open(&cs, x, closed);
        CUDA_CHECK(cudaMemcpy(d_center_table, cs.center_table, ni, cudaMemcpyHostToDevice));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(assign, d_assign, ni, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(cost, d_cost, nf, cudaMemcpyDeviceToHost));

    int ok = cs.num_centers == want_cs.num_centers;
    if (!ok) fprintf(stderr, "centres: got %d, expected %d\n", cs.num_centers, want_cs.num_centers);
    for (int i = 0; ok && i < n; i++) {
        if (assign[i] != want_assign[i] || cost[i] != want_cost[i]) {
            fprintf(stderr, "point %d: got centre %d cost %g, expected centre %d cost %g\n", i, assign[i], cost[i],
                    want_assign[i], want_cost[i]);
            ok = 0;
        }
    }
    cudaFree(d_coord); cudaFree(d_weight); cudaFree(d_cost); cudaFree(d_x_cost); cudaFree(d_partials);
    cudaFree(d_assign); cudaFree(d_center_table); cudaFree(d_switch); cudaFree(d_closed);
    free(cs.center_table); free(want_cs.center_table); free(assign); free(want_assign);
    free(cost); free(want_cost); free(partials);
    sc_free(&in);
    return wl_finish(ok);
}
