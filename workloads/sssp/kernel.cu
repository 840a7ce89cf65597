// sssp: single-source shortest paths, Bellman-Ford with a frontier mask (the
// Harish & Narayanan scheme used by GPU graph suites).
//
// Each round runs two kernels over all nodes.  sssp_relax: a node in the frontier
// leaves it and offers cost[v] + w to every out-neighbour with atomicMin on
// updating_cost (read first, so the common "no improvement" case costs no atomic).
// sssp_update: a node whose updating_cost dropped below its cost takes the new
// cost, joins the next frontier and raises the "changed" flag.  The host repeats
// until a round changes nothing; the distances then equal Dijkstra's.
//
// Stand-alone: ./sssp [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void sssp_relax(const int *__restrict__ row_start, const int *__restrict__ adj,
                                      const int *__restrict__ weight, unsigned char *mask, const int *cost,
                                      int *updating_cost, int num_nodes) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !mask[v]) return;
    mask[v] = 0;
    int d = cost[v];
    int end = row_start[v + 1];
    for (int e = row_start[v]; e < end; e++) {
        int u = adj[e];
        int nd = d + weight[e];
        if (nd < updating_cost[u]) atomicMin(&updating_cost[u], nd);
    }
}

extern "C" __global__ void sssp_update(unsigned char *mask, int *cost, const int *updating_cost, int *changed,
                                       int num_nodes) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes) return;
    int uc = updating_cost[v];
    if (uc < cost[v]) {
        cost[v] = uc;
        mask[v] = 1;
        *changed = 1;
    }
}

int main(int argc, char **argv) {
    uint32_t size = SSSP_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, SSSP_MAX_SIZE, &size, &seed);

    sssp_graph g;
    if (sssp_generate(&g, size, seed) != 0) wl_die("out of host memory");
    int n = g.num_nodes;
    size_t ni = (size_t)n * sizeof(int), ne = (size_t)g.num_edges * sizeof(int);
    int32_t *cost = (int32_t *)malloc(ni), *updating = (int32_t *)malloc(ni), *expected = (int32_t *)malloc(ni);
    uint8_t *mask = (uint8_t *)malloc((size_t)n);
    if (!cost || !updating || !expected || !mask || sssp_reference(&g, expected) != 0)
        wl_die("out of host memory");
    sssp_init_state(&g, cost, updating, mask);

    int *d_row_start, *d_adj, *d_weight, *d_cost, *d_updating, *d_changed;
    unsigned char *d_mask;
    CUDA_CHECK(cudaMalloc(&d_row_start, ni + sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_adj, ne));
    CUDA_CHECK(cudaMalloc(&d_weight, ne));
    CUDA_CHECK(cudaMalloc(&d_cost, ni));
    CUDA_CHECK(cudaMalloc(&d_updating, ni));
    CUDA_CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_mask, (size_t)n));
    CUDA_CHECK(cudaMemcpy(d_row_start, g.row_start, ni + sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_adj, g.adj, ne, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_weight, g.weight, ne, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cost, cost, ni, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_updating, updating, ni, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_mask, mask, (size_t)n, cudaMemcpyHostToDevice));

    unsigned blocks = ((unsigned)n + SSSP_BLOCK - 1) / SSSP_BLOCK;
    int changed;
    do {
        changed = 0;
        CUDA_CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
        sssp_relax<<<blocks, SSSP_BLOCK>>>(d_row_start, d_adj, d_weight, d_mask, d_cost, d_updating, n);
        CUDA_CHECK(cudaGetLastError());
        sssp_update<<<blocks, SSSP_BLOCK>>>(d_mask, d_cost, d_updating, d_changed, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    } while (changed);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(cost, d_cost, ni, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (int v = 0; v < n; v++) {
        if (cost[v] != expected[v]) {
            fprintf(stderr, "dist[%d]: got %d, expected %d\n", v, cost[v], expected[v]);
            ok = 0;
            break;
        }
    }
    cudaFree(d_row_start); cudaFree(d_adj); cudaFree(d_weight); cudaFree(d_cost);
    cudaFree(d_updating); cudaFree(d_changed); cudaFree(d_mask);
    free(cost); free(updating); free(expected); free(mask);
    sssp_free(&g);
    return wl_finish(ok);
}
