/* sssp: input generation and CPU reference (Dijkstra), shared by host.c (C11) and
 * kernel.cu's main (C++).
 *
 * A directed graph with positive integer weights in CSR form (row_start/adj/weight,
 * int32 as in most CUDA graph codes), shaped like a road network: most edges join
 * nearby node ids (within +-SSSP_LOCAL_SPAN), a quarter go anywhere (highways), and
 * out-degrees vary from 1 to 8, so the threads of a warp walk adjacency lists of
 * different lengths.  Distances are exact integers, so the device result must equal
 * Dijkstra's bit for bit; unreachable nodes keep SSSP_INF.
 *
 * --size S means n = 1000*S + 13 nodes (~4.5 edges per node). */
#ifndef WL_SSSP_REF_H
#define WL_SSSP_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define SSSP_BLOCK 256u
#define SSSP_LOCAL_SPAN 48u
#define SSSP_MAX_WEIGHT 100u
#define SSSP_INF 0x3fffffff          /* "unreached"; INF + a weight still fits an int */
#define SSSP_DEFAULT_SIZE 48u
#define SSSP_MAX_SIZE 200000u        /* n and the edge count stay below 2^31 */

typedef struct {
    int32_t num_nodes;
    int32_t num_edges;
    int32_t source;
    int32_t *row_start;   /* num_nodes + 1 */
    int32_t *adj;         /* num_edges */
    int32_t *weight;      /* num_edges, 1..SSSP_MAX_WEIGHT */
} sssp_graph;

static inline void sssp_free(sssp_graph *g) {
    free(g->row_start);
    free(g->adj);
    free(g->weight);
    memset(g, 0, sizeof *g);
}

static inline int32_t sssp_edge_target(wl_rng *r, int32_t from, int32_t n) {
    if (wl_rng_below(r, 4) != 0) {
        int64_t off = (int64_t)wl_rng_below(r, 2 * SSSP_LOCAL_SPAN + 1) - (int64_t)SSSP_LOCAL_SPAN;
        int64_t to = ((int64_t)from + off) % n;
        return (int32_t)(to < 0 ? to + n : to);
    }
    return (int32_t)wl_rng_below(r, (uint32_t)n);
}

/* Fills g; returns 0, or -1 when out of memory or size is too large (g is then empty). */
static inline int sssp_generate(sssp_graph *g, uint32_t size, uint64_t seed) {
    wl_rng r;
    memset(g, 0, sizeof *g);
    if (size < 1 || size > SSSP_MAX_SIZE) return -1;
    int32_t n = (int32_t)(1000u * size + 13u);
    wl_rng_seed(&r, seed);
    g->num_nodes = n;
    g->row_start = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!g->row_start) return -1;
    g->row_start[0] = 0;
    for (int32_t v = 0; v < n; v++) g->row_start[v + 1] = g->row_start[v] + 1 + (int32_t)wl_rng_below(&r, 8);
    g->num_edges = g->row_start[n];
    g->adj = (int32_t *)malloc((size_t)g->num_edges * sizeof(int32_t));
    g->weight = (int32_t *)malloc((size_t)g->num_edges * sizeof(int32_t));
    if (!g->adj || !g->weight) {
        sssp_free(g);
        return -1;
    }
    for (int32_t v = 0; v < n; v++) {
        for (int32_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
            g->adj[e] = sssp_edge_target(&r, v, n);
            g->weight[e] = 1 + (int32_t)wl_rng_below(&r, SSSP_MAX_WEIGHT);
        }
    }
    g->source = (int32_t)wl_rng_below(&r, (uint32_t)n);
    return 0;
}

/* Initial device state: cost = updating_cost = INF except the source's 0; only the
 * source is in the frontier mask. */
static inline void sssp_init_state(const sssp_graph *g, int32_t *cost, int32_t *updating_cost, uint8_t *mask) {
    for (int32_t v = 0; v < g->num_nodes; v++) {
        cost[v] = updating_cost[v] = SSSP_INF;
        mask[v] = 0;
    }
    cost[g->source] = updating_cost[g->source] = 0;
    mask[g->source] = 1;
}

/* ---- reference: Dijkstra with a binary min-heap of (distance, node), lazy deletion ---- */
typedef struct { int32_t dist, node; } sssp_heap_item;

static inline int sssp_item_less(sssp_heap_item a, sssp_heap_item b) {
    return a.dist < b.dist || (a.dist == b.dist && a.node < b.node);
}

static inline void sssp_heap_push(sssp_heap_item *heap, size_t *len, sssp_heap_item it) {
    size_t i = (*len)++;
    while (i > 0 && sssp_item_less(it, heap[(i - 1) / 2])) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = it;
}

static inline sssp_heap_item sssp_heap_pop(sssp_heap_item *heap, size_t *len) {
    sssp_heap_item top = heap[0], last = heap[--*len];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= *len) break;
        if (child + 1 < *len && sssp_item_less(heap[child + 1], heap[child])) child++;
        if (!sssp_item_less(heap[child], last)) break;
        heap[i] = heap[child];
        i = child;
    }
    if (*len > 0) heap[i] = last;
    return top;
}

/* dist[v] = length of the shortest path from the source, SSSP_INF if unreachable.
 * Returns 0, or -1 when out of memory.  Each edge pushes at most once, so the heap
 * never holds more than num_edges + 1 items. */
static inline int sssp_reference(const sssp_graph *g, int32_t *dist) {
    size_t len = 0;
    sssp_heap_item *heap = (sssp_heap_item *)malloc(((size_t)g->num_edges + 1) * sizeof(sssp_heap_item));
    if (!heap) return -1;
    for (int32_t v = 0; v < g->num_nodes; v++) dist[v] = SSSP_INF;
    dist[g->source] = 0;
    sssp_heap_item start = { 0, g->source };
    sssp_heap_push(heap, &len, start);
    while (len > 0) {
        sssp_heap_item it = sssp_heap_pop(heap, &len);
        if (it.dist != dist[it.node]) continue;   /* stale entry */
        for (int32_t e = g->row_start[it.node]; e < g->row_start[it.node + 1]; e++) {
            int32_t u = g->adj[e], d = it.dist + g->weight[e];
            if (d < dist[u]) {
                dist[u] = d;
                sssp_heap_item next = { d, u };
                sssp_heap_push(heap, &len, next);
            }
        }
    }
    free(heap);
    return 0;
}

#endif
