// bfs: level-synchronous breadth-first search on a CSR graph with frontier masks.
//
// Each level runs two kernels over all nodes: bfs_expand visits the out-edges of
// every node in the frontier and marks unvisited neighbours for the next frontier;
// bfs_update turns those marks into the new frontier, marks them visited and raises
// a "changed" flag.  The host loops until a level changes nothing.  One thread per
// node: most threads of a level find their node outside the frontier and exit, the
// others walk adjacency lists of very different lengths through scattered memory.
//
// Stand-alone: ./bfs [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void bfs_expand(const int *row_start, const int *adj, unsigned char *frontier,
                                      unsigned char *next, const unsigned char *visited, int *level,
                                      int num_nodes) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !frontier[v]) return;
    frontier[v] = 0;
    // Every frontier node has the same level, so concurrent writers of level[u]
    // all store the same value.
    int next_level = level[v] + 1;
    int end = row_start[v + 1];
    for (int e = row_start[v]; e < end; e++) {
        int u = adj[e];
        if (!visited[u]) {
            level[u] = next_level;
            next[u] = 1;
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *frontier, unsigned char *next, unsigned char *visited,
                                      int *changed, int num_nodes) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !next[v]) return;
    frontier[v] = 1;
    visited[v] = 1;
    next[v] = 0;
    *changed = 1;
}

int main(int argc, char **argv) {
    uint32_t size = 64;  // the evaluation size (wl_bfs.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    bfs_graph g;
    if (bfs_generate(&g, size, seed) != 0) wl_die("out of host memory");
    int n = g.num_nodes;
    int32_t *level = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    int32_t *expected = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    uint8_t *frontier = (uint8_t *)malloc((size_t)n);
    uint8_t *next = (uint8_t *)malloc((size_t)n);
    uint8_t *visited = (uint8_t *)malloc((size_t)n);
    if (!level || !expected || !frontier || !next || !visited || bfs_reference(&g, expected) != 0)
        wl_die("out of host memory");
    bfs_init_state(&g, level, frontier, next, visited);

    int *d_row_start, *d_adj, *d_level, *d_changed;
    unsigned char *d_frontier, *d_next, *d_visited;
    CUDA_CHECK(cudaMalloc(&d_row_start, ((size_t)n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_adj, (size_t)g.num_edges * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_level, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_frontier, (size_t)n));
    CUDA_CHECK(cudaMalloc(&d_next, (size_t)n));
    CUDA_CHECK(cudaMalloc(&d_visited, (size_t)n));
    CUDA_CHECK(cudaMemcpy(d_row_start, g.row_start, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_adj, g.adj, (size_t)g.num_edges * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_level, level, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_frontier, frontier, (size_t)n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_next, next, (size_t)n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_visited, visited, (size_t)n, cudaMemcpyHostToDevice));

    unsigned blocks = ((unsigned)n + BFS_BLOCK - 1) / BFS_BLOCK;
    int changed;
    do {
        changed = 0;
        CUDA_CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
        bfs_expand<<<blocks, BFS_BLOCK>>>(d_row_start, d_adj, d_frontier, d_next, d_visited, d_level, n);
        CUDA_CHECK(cudaGetLastError());
        bfs_update<<<blocks, BFS_BLOCK>>>(d_frontier, d_next, d_visited, d_changed, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    } while (changed);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(level, d_level, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));

    int ok = 1;
    for (int v = 0; v < n; v++) {
        if (level[v] != expected[v]) {
            fprintf(stderr, "level[%d]: got %d, expected %d\n", v, level[v], expected[v]);
            ok = 0;
            break;
        }
    }
    cudaFree(d_row_start); cudaFree(d_adj); cudaFree(d_level); cudaFree(d_changed);
    cudaFree(d_frontier); cudaFree(d_next); cudaFree(d_visited);
    free(level); free(expected); free(frontier); free(next); free(visited);
    bfs_free(&g);
    return wl_finish(ok);
}
