/* bfs: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The graph is directed, in CSR form (row_start/adj, int32 like most CUDA graph
 * codes).  It mixes two kinds of edges so that the access pattern is irregular but
 * not uniformly random, as in road/social graphs: about half the edges go to a node
 * within +-BFS_LOCAL_SPAN of the source node (locality), the rest anywhere.  Out-degrees
 * are mostly 2..12 (mean ~7) with a few hubs of 64..255 edges, so the threads of a
 * warp do very different amounts of work. */
#ifndef WL_BFS_REF_H
#define WL_BFS_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define BFS_NODES_PER_SIZE 2000u   /* nodes = size * 2000 + 11 (not a multiple of a block) */
#define BFS_BLOCK 256u             /* threads per CTA */
#define BFS_LOCAL_SPAN 64u         /* "near" edges stay within +-64 nodes */
#define BFS_HUB_PERCENT 1u         /* share of nodes with a high out-degree */

typedef struct {
    int32_t num_nodes;
    int32_t num_edges;
    int32_t source;
    int32_t *row_start;  /* num_nodes + 1 entries */
    int32_t *adj;        /* num_edges entries */
} bfs_graph;

static inline int32_t bfs_num_nodes(uint32_t size) {
    return (int32_t)(size * BFS_NODES_PER_SIZE + 11u);
}

static inline uint32_t bfs_out_degree(wl_rng *r) {
    if (wl_rng_below(r, 100) < BFS_HUB_PERCENT) return 64u + wl_rng_below(r, 192);
    return 2u + wl_rng_below(r, 11);
}

static inline int32_t bfs_edge_target(wl_rng *r, int32_t from, int32_t n) {
    if (wl_rng_below(r, 2) == 0) {
        int64_t off = (int64_t)wl_rng_below(r, 2 * BFS_LOCAL_SPAN + 1) - (int64_t)BFS_LOCAL_SPAN;
        int64_t to = ((int64_t)from + off) % n;
        return (int32_t)(to < 0 ? to + n : to);
    }
    return (int32_t)wl_rng_below(r, (uint32_t)n);
}

/* Fills g; returns 0, or -1 when out of memory (g is then empty). */
static inline int bfs_generate(bfs_graph *g, uint32_t size, uint64_t seed) {
    wl_rng r;
    int32_t n = bfs_num_nodes(size);
    memset(g, 0, sizeof *g);
    wl_rng_seed(&r, seed);
    g->num_nodes = n;
    g->row_start = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!g->row_start) return -1;
    /* First pass: degrees (so adj can be allocated once). */
    g->row_start[0] = 0;
    for (int32_t v = 0; v < n; v++) g->row_start[v + 1] = g->row_start[v] + (int32_t)bfs_out_degree(&r);
    g->num_edges = g->row_start[n];
    g->adj = (int32_t *)malloc((size_t)g->num_edges * sizeof(int32_t));
    if (!g->adj) {
        free(g->row_start);
        memset(g, 0, sizeof *g);
        return -1;
    }
    for (int32_t v = 0; v < n; v++)
        for (int32_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) g->adj[e] = bfs_edge_target(&r, v, n);
    g->source = (int32_t)wl_rng_below(&r, (uint32_t)n);
    return 0;
}

static inline void bfs_free(bfs_graph *g) {
    free(g->row_start);
    free(g->adj);
    memset(g, 0, sizeof *g);
}

/* Initial device state: only the source is in the frontier and visited; levels are
 * -1 (unreached) except the source's 0. */
static inline void bfs_init_state(const bfs_graph *g, int32_t *level, uint8_t *frontier,
                                  uint8_t *next, uint8_t *visited) {
    for (int32_t v = 0; v < g->num_nodes; v++) {
        level[v] = -1;
        frontier[v] = next[v] = visited[v] = 0;
    }
    level[g->source] = 0;
    frontier[g->source] = 1;
    visited[g->source] = 1;
}

/* Reference: queue-based BFS.  level[v] = hops from the source, -1 if unreachable.
 * Returns 0, or -1 when out of memory. */
static inline int bfs_reference(const bfs_graph *g, int32_t *level) {
    int32_t *queue = (int32_t *)malloc((size_t)g->num_nodes * sizeof(int32_t));
    int32_t head = 0, tail = 0;
    if (!queue) return -1;
    for (int32_t v = 0; v < g->num_nodes; v++) level[v] = -1;
    level[g->source] = 0;
    queue[tail++] = g->source;
    while (head < tail) {
        int32_t v = queue[head++];
        for (int32_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
            int32_t u = g->adj[e];
            if (level[u] < 0) {
                level[u] = level[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    free(queue);
    return 0;
}

#endif
