/* CUDA graphs: built node by node (cudaGraphAdd*Node) or captured from streams
 * (cudaStreamBeginCapture .. cudaStreamEndCapture), instantiated and launched.
 *
 * Work runs in program order here (launch.c, memory.c), so a graph is kept as its
 * nodes in the order they were added: a node's dependencies must exist when it is
 * added, so that order is a topological order, and running the nodes one after
 * another in it is one of the schedules a GPU may choose.  A kernel node holds a
 * copy of its arguments (taken when the node is added, as CUDA does), a memcpy or
 * memset node its pointers (read when the graph runs).
 *
 * Capture: while a stream captures, kernel launches, cudaMemcpyAsync,
 * cudaMemsetAsync and cudaLaunchHostFunc on it add nodes instead of running.
 * cudaEventRecord on a capturing stream and cudaStreamWaitEvent on another stream
 * bring that stream into the same capture (fork / join); cudaStreamEndCapture on the
 * stream that began it ends the capture of every stream in it.  Other asynchronous
 * copies on a capturing stream are refused with cudaErrorStreamCaptureUnsupported. */
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "runtime/runtime.h"

/* The runtime calls a launched graph's nodes make (each takes the runtime's lock). */
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t stream);

enum { NODE_EMPTY, NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST };

struct CUgraphNode_st {
    int kind;
    /* kernel */
    const void *func;
    dim3 grid, block;
    size_t smem;
    uint8_t *args;        /* the arguments back to back, at offsets[i] */
    size_t *offsets;
    uint32_t nargs;
    /* memcpy / memset */
    void *dst;
    const void *src;
    size_t count, pitch, width, height;
    cudaMemcpyKind kind_copy;
    unsigned value, elem;
    /* host */
    void (*fn)(void *);
    void *data;
};

#define GRAPH_MAGIC 0x47525048u  /* "GRPH" */
#define EXEC_MAGIC 0x47455845u   /* "GEXE" */
struct CUgraph_st {
    unsigned magic;
    cudaGraphNode_t *nodes;
    size_t n, cap;
};
struct CUgraphExec_st {
    unsigned magic;
    struct CUgraph_st g;  /* a copy: later changes to the graph do not reach it */
};

/* ---- graphs and nodes ---- */

static int valid_graph(cudaGraph_t g) { return g && g->magic == GRAPH_MAGIC; }

static void node_free(cudaGraphNode_t n) {
    if (!n) return;
    free(n->args);
    free(n->offsets);
    free(n);
}

static cudaGraph_t graph_new(void) {
    cudaGraph_t g = calloc(1, sizeof *g);
    if (g) g->magic = GRAPH_MAGIC;
    return g;
}

static void graph_clear(struct CUgraph_st *g) {
    for (size_t i = 0; i < g->n; i++) node_free(g->nodes[i]);
    free(g->nodes);
    g->nodes = NULL;
    g->n = g->cap = 0;
}

/* Append n (owned by g from now on). */
static cudaError_t graph_add(struct CUgraph_st *g, cudaGraphNode_t n, cudaGraphNode_t *out) {
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        cudaGraphNode_t *p = realloc(g->nodes, cap * sizeof *p);
        if (!p) {
            node_free(n);
            return cudaErrorMemoryAllocation;
        }
        g->nodes = p;
        g->cap = cap;
    }
    g->nodes[g->n++] = n;
    if (out) *out = n;
    return cudaSuccess;
}

/* Dependencies must be nodes of g (already added: see the top). */
static int deps_ok(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps) {
    if (ndeps && !deps) return 0;
    for (size_t i = 0; i < ndeps; i++) {
        size_t j = 0;
        while (j < g->n && g->nodes[j] != deps[i]) j++;
        if (j == g->n) return 0;
    }
    return 1;
}

/* A deep copy of node n (its argument block included). */
static cudaGraphNode_t node_copy(const struct CUgraphNode_st *n) {
    cudaGraphNode_t c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *n;
    c->args = NULL;
    c->offsets = NULL;
    if (n->kind != NODE_KERNEL || n->nargs == 0) return c;
    size_t bytes = n->offsets[n->nargs];
    c->args = malloc(bytes ? bytes : 1);
    c->offsets = malloc((n->nargs + 1) * sizeof *c->offsets);
    if (!c->args || !c->offsets) {
        node_free(c);
        return NULL;
    }
    memcpy(c->args, n->args, bytes);
    memcpy(c->offsets, n->offsets, (n->nargs + 1) * sizeof *c->offsets);
    return c;
}

/* A kernel node: the arguments are copied now, by the sizes of the kernel's
 * parameters. */
static cudaError_t kernel_node(const void *func, dim3 grid, dim3 block, size_t smem, void **args,
                               cudaGraphNode_t *out) {
    cr_function *f = cr_find_function(func);
    if (!f) return cudaErrorInvalidDeviceFunction;
    cudaError_t e;
    locsim_kernel *k = cr_function_kernel(f, &e);
    if (!k) return e;
    const ptx_function *fn = k->fn;
    if (fn->nparams && !args) return cudaErrorInvalidValue;
    cudaGraphNode_t n = calloc(1, sizeof *n);
    size_t *off = calloc(fn->nparams + 1, sizeof *off);
    if (!n || !off) {
        free(n);
        free(off);
        return cudaErrorMemoryAllocation;
    }
    for (uint32_t i = 0; i < fn->nparams; i++) off[i + 1] = off[i] + fn->params[i].size;
    n->args = malloc(off[fn->nparams] ? off[fn->nparams] : 1);
    if (!n->args) {
        free(off);
        free(n);
        return cudaErrorMemoryAllocation;
    }
    for (uint32_t i = 0; i < fn->nparams; i++) {
        if (!args[i]) {
            free(n->args);
            free(off);
            free(n);
            return cudaErrorInvalidValue;
        }
        memcpy(n->args + off[i], args[i], fn->params[i].size);
    }
    n->kind = NODE_KERNEL;
    n->func = func;
    n->grid = grid;
    n->block = block;
    n->smem = smem;
    n->offsets = off;
    n->nargs = fn->nparams;
    *out = n;
    return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags) {
    if (!graph || flags) return cr_record(cudaErrorInvalidValue);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    *graph = graph_new();
    return cr_leave(*graph ? cudaSuccess : cudaErrorMemoryAllocation);
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!valid_graph(graph)) return cr_leave(cudaErrorInvalidValue);
    graph_clear(graph);
    graph->magic = 0;
    free(graph);
    return cr_leave(cudaSuccess);
}

/* The checks every cudaGraphAdd*Node makes; then cr_leave(add(node)). */
#define ADD_NODE_PROLOGUE(out, graph, deps, ndeps)                                                        \
    cudaError_t e = cr_enter();                                                                         \
    if (e != cudaSuccess) return cr_leave(e);                                                           \
    if (!(out) || !valid_graph(graph) || !deps_ok(graph, deps, ndeps)) return cr_leave(cudaErrorInvalidValue)

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t ndeps, const struct cudaKernelNodeParams *p) {
    ADD_NODE_PROLOGUE(node, graph, deps, ndeps);
    if (!p || p->extra) return cr_leave(cudaErrorInvalidValue);  /* the "extra" argument format: not here */
    cudaGraphNode_t n;
    e = kernel_node(p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, &n);
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(graph_add(graph, n, node));
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t ndeps, void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
    ADD_NODE_PROLOGUE(node, graph, deps, ndeps);
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cr_leave(cudaErrorMemoryAllocation);
    n->kind = NODE_MEMCPY, n->dst = dst, n->src = src, n->count = count, n->kind_copy = kind;
    return cr_leave(graph_add(graph, n, node));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t ndeps, const struct cudaMemsetParams *p) {
    ADD_NODE_PROLOGUE(node, graph, deps, ndeps);
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || p->height == 0 ||
        (p->height > 1 && p->pitch < p->width * p->elementSize))
        return cr_leave(cudaErrorInvalidValue);
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cr_leave(cudaErrorMemoryAllocation);
    n->kind = NODE_MEMSET, n->dst = p->dst, n->pitch = p->pitch, n->value = p->value, n->elem = p->elementSize;
    n->width = p->width, n->height = p->height;
    return cr_leave(graph_add(graph, n, node));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                 size_t ndeps, const struct cudaHostNodeParams *p) {
    ADD_NODE_PROLOGUE(node, graph, deps, ndeps);
    if (!p || !p->fn) return cr_leave(cudaErrorInvalidValue);
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cr_leave(cudaErrorMemoryAllocation);
    n->kind = NODE_HOST, n->fn = p->fn, n->data = p->userData;
    return cr_leave(graph_add(graph, n, node));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                  size_t ndeps) {
    ADD_NODE_PROLOGUE(node, graph, deps, ndeps);
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cr_leave(cudaErrorMemoryAllocation);
    n->kind = NODE_EMPTY;
    return cr_leave(graph_add(graph, n, node));
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!valid_graph(graph) || !count) return cr_leave(cudaErrorInvalidValue);
    if (nodes)
        for (size_t i = 0; i < *count && i < graph->n; i++) nodes[i] = graph->nodes[i];
    *count = graph->n;
    return cr_leave(cudaSuccess);
}

/* ---- instantiation and launch ---- */

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags) {
    (void)flags;  /* auto-free on launch, upload, device launch, priority: nothing to do here */
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!exec || !valid_graph(graph)) return cr_leave(cudaErrorInvalidValue);
    struct CUgraphExec_st *x = calloc(1, sizeof *x);
    if (!x) return cr_leave(cudaErrorMemoryAllocation);
    x->magic = EXEC_MAGIC;
    for (size_t i = 0; i < graph->n; i++) {
        cudaGraphNode_t c = node_copy(graph->nodes[i]);
        if (!c || graph_add(&x->g, c, NULL) != cudaSuccess) {
            graph_clear(&x->g);
            free(x);
            return cr_leave(cudaErrorMemoryAllocation);
        }
    }
    *exec = x;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags) {
    return cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!exec || exec->magic != EXEC_MAGIC) return cr_leave(cudaErrorInvalidValue);
    graph_clear(&exec->g);
    exec->magic = 0;
    free(exec);
    return cr_leave(cudaSuccess);
}

/* A memset node: elements of 1, 2 or 4 bytes, row by row. */
static cudaError_t run_memset(const struct CUgraphNode_st *n) {
    if (n->elem == 1) return cudaMemset2D(n->dst, n->height > 1 ? n->pitch : n->width, (int)n->value, n->width,
                                          n->height);
    size_t bytes = n->width * n->elem;
    uint8_t *row = malloc(bytes ? bytes : 1);
    if (!row) return cudaErrorMemoryAllocation;
    for (size_t i = 0; i < n->width; i++) memcpy(row + i * n->elem, &n->value, n->elem);  /* little-endian */
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; r < n->height && e == cudaSuccess; r++)
        e = cudaMemcpy((uint8_t *)n->dst + r * n->pitch, row, bytes, cudaMemcpyHostToDevice);
    free(row);
    return e;
}

static cudaError_t run_node(const struct CUgraphNode_st *n) {
    switch (n->kind) {
    case NODE_KERNEL: {
        void *argv[512];
        if (n->nargs > 512) return cudaErrorInvalidValue;
        for (uint32_t i = 0; i < n->nargs; i++) argv[i] = n->args + n->offsets[i];
        return cudaLaunchKernel(n->func, n->grid, n->block, argv, n->smem, NULL);
    }
    case NODE_MEMCPY: return cudaMemcpy(n->dst, n->src, n->count, n->kind_copy);
    case NODE_MEMSET: return run_memset(n);
    case NODE_HOST: n->fn(n->data); return cudaSuccess;
    default: return cudaSuccess;
    }
}

/* The nodes run now, in order, outside the runtime's lock (each takes it). */
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!exec || exec->magic != EXEC_MAGIC) return cr_leave(cudaErrorInvalidValue);
    if (cr_capture_graph(stream)) {
        cr_warn("cudaGraphLaunch on a capturing stream (a child graph) is not supported by locsim");
        return cr_leave(cudaErrorStreamCaptureUnsupported);
    }
    cr_leave(cudaSuccess);
    for (size_t i = 0; i < exec->g.n; i++) {
        e = run_node(exec->g.nodes[i]);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) { return cudaGraphLaunch(exec, stream); }

/* ---- stream capture ---- */

#define MAX_CAPTURE 64
static struct {
    cudaStream_t stream;
    cudaGraph_t graph;
    int origin;           /* began the capture (cudaStreamEndCapture is called on it) */
} captures[MAX_CAPTURE];
static struct {
    cudaEvent_t event;
    cudaGraph_t graph;
} captured_events[MAX_CAPTURE];

static int capture_slot(cudaStream_t s) {
    for (int i = 0; i < MAX_CAPTURE; i++)
        if (captures[i].graph && captures[i].stream == s) return i;
    return -1;
}

cudaGraph_t cr_capture_graph(cudaStream_t stream) {
    if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return NULL;
    int i = capture_slot(stream);
    return i < 0 ? NULL : captures[i].graph;
}

static cudaError_t capture_join(cudaStream_t s, cudaGraph_t g, int origin) {
    for (int i = 0; i < MAX_CAPTURE; i++)
        if (!captures[i].graph) {
            captures[i].stream = s, captures[i].graph = g, captures[i].origin = origin;
            return cudaSuccess;
        }
    return cudaErrorMemoryAllocation;
}

void cr_capture_event_record(cudaEvent_t ev, cudaStream_t s) {
    cudaGraph_t g = cr_capture_graph(s);
    int free_slot = -1;
    for (int i = 0; i < MAX_CAPTURE; i++) {
        if (captured_events[i].graph && captured_events[i].event == ev) {
            captured_events[i].graph = g;  /* recorded again: what it stands for now */
            return;
        }
        if (!captured_events[i].graph && free_slot < 0) free_slot = i;
    }
    if (g && free_slot >= 0) captured_events[free_slot].event = ev, captured_events[free_slot].graph = g;
}

cudaError_t cr_capture_event_wait(cudaStream_t s, cudaEvent_t ev) {
    for (int i = 0; i < MAX_CAPTURE; i++)
        if (captured_events[i].graph && captured_events[i].event == ev) {
            cudaGraph_t g = captured_events[i].graph, mine = cr_capture_graph(s);
            if (mine == g) return cudaSuccess;
            if (mine) return cudaErrorStreamCaptureUnsupported;  /* joining two captures */
            if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread)
                return cudaErrorStreamCaptureUnsupported;
            return capture_join(s, g, 0);
        }
    return cudaSuccess;
}

cudaError_t cr_capture_kernel(cudaGraph_t g, const void *func, dim3 grid, dim3 block, size_t smem, void **args) {
    cudaGraphNode_t n;
    cudaError_t e = kernel_node(func, grid, block, smem, args, &n);
    return e == cudaSuccess ? graph_add(g, n, NULL) : e;
}

cudaError_t cr_capture_memcpy(cudaGraph_t g, void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cudaErrorMemoryAllocation;
    n->kind = NODE_MEMCPY, n->dst = dst, n->src = src, n->count = count, n->kind_copy = kind;
    return graph_add(g, n, NULL);
}

cudaError_t cr_capture_memset(cudaGraph_t g, void *dst, int value, size_t count) {
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cudaErrorMemoryAllocation;
    n->kind = NODE_MEMSET, n->dst = dst, n->value = (unsigned)value & 0xff, n->elem = 1, n->width = count;
    n->height = 1, n->pitch = count;
    return graph_add(g, n, NULL);
}

cudaError_t cr_capture_host(cudaGraph_t g, void (*fn)(void *), void *data) {
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cudaErrorMemoryAllocation;
    n->kind = NODE_HOST, n->fn = fn, n->data = data;
    return graph_add(g, n, NULL);
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed) return cr_leave(cudaErrorInvalidValue);
    if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return cr_leave(cudaErrorStreamCaptureUnsupported);  /* as CUDA: not the legacy stream */
    if (cr_capture_graph(stream)) return cr_leave(cudaErrorIllegalState);
    cudaGraph_t g = graph_new();
    if (!g) return cr_leave(cudaErrorMemoryAllocation);
    e = capture_join(stream, g, 1);
    if (e != cudaSuccess) free(g);
    return cr_leave(e);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!graph) return cr_leave(cudaErrorInvalidValue);
    int i = capture_slot(stream);
    if (i < 0 || !captures[i].origin) return cr_leave(cudaErrorIllegalState);
    cudaGraph_t g = captures[i].graph;
    for (int j = 0; j < MAX_CAPTURE; j++) {
        if (captures[j].graph == g) captures[j].graph = NULL;
        if (captured_events[j].graph == g) captured_events[j].graph = NULL;
    }
    *graph = g;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status) {
    if (!status) return cr_record(cudaErrorInvalidValue);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    *status = cr_capture_graph(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    return cudaStreamBeginCapture(stream, mode);
}
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *graph) {
    return cudaStreamEndCapture(stream, graph);
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *status) {
    return cudaStreamIsCapturing(stream, status);
}
