/* gc: the mark phase of a tracing garbage collector, breadth-first.
 *
 * The grey set is a worklist of object offsets.  gc_mark_roots greys the roots;
 * each gc_mark_step launch blackens the current worklist: one thread per object
 * reads its header, walks its pointer fields, and for each referenced object
 * sets its bit in the mark bitmap with atomicOr.  The thread whose atomicOr
 * flipped the bit owns the object and appends it to the next worklist (atomicAdd
 * on the list's length).  The host relaunches until a step produces no new grey
 * objects.  Pointer chasing over a large heap: scattered loads, atomics on
 * shared bitmap words, a frontier whose size changes every step.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

/* Mark object p; if this thread marked it first, push it onto the worklist. */
__device__ __forceinline__ void grey(uint32_t p, uint32_t *marks, uint32_t *worklist, uint32_t *count) {
    uint32_t bit = 1u << (p & 31);
    uint32_t *word = &marks[p >> 5];
    if (*word & bit) return;  /* already marked: skip the atomic (a stale 0 only costs one) */
    uint32_t old = atomicOr(word, bit);
    if (old & bit) return;    /* another thread won the race */
    uint32_t slot = atomicAdd(count, 1u);
    worklist[slot] = p;
}

extern "C" __global__ void gc_mark_roots(const uint32_t *__restrict__ roots, int nroots, uint32_t *marks,
                                         uint32_t *worklist, uint32_t *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nroots) grey(roots[i], marks, worklist, count);
}

extern "C" __global__ void gc_mark_step(const uint32_t *__restrict__ heap, uint32_t *marks,
                                        const uint32_t *__restrict__ in_list, int in_count,
                                        uint32_t *out_list, uint32_t *out_count,
                                        unsigned long long *live_words) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= in_count) return;
    uint32_t obj = in_list[i];
    uint32_t hdr = heap[obj];
    atomicAdd(live_words, (unsigned long long)(hdr >> 16));
    uint32_t nptrs = hdr & 0xffffu;
    for (uint32_t f = 1; f <= nptrs; f++) {
        uint32_t p = heap[obj + f];
        if (p != 0) grey(p, marks, out_list, out_count);
    }
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = GC_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, GC_MAX_SIZE, &size, &seed);
    gc_input in;
    in.nobj = gc_nobj(size);
    in.nroots = gc_nroots(in.nobj);
    in.heap = (uint32_t *)malloc(gc_heap_capacity(in.nobj) * sizeof(uint32_t));
    in.roots = (uint32_t *)malloc(in.nroots * sizeof(uint32_t));
    if (!in.heap || !in.roots || gc_gen(&in, seed) != 0) wl_die("out of host memory");
    uint32_t bitmap_words = gc_bitmap_words(in.words);
    uint32_t *want = (uint32_t *)malloc(bitmap_words * sizeof(uint32_t));
    uint32_t *got = (uint32_t *)malloc(bitmap_words * sizeof(uint32_t));
    uint64_t want_live;
    if (!want || !got || gc_ref(&in, want, &want_live) < 0) wl_die("out of host memory");

    uint32_t *d_heap, *d_roots, *d_marks, *d_list[2], *d_count;
    unsigned long long *d_live;
    size_t list_bytes = (size_t)in.nobj * sizeof(uint32_t);
    CUDA_CHECK(cudaMalloc(&d_heap, in.words * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_roots, in.nroots * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_marks, bitmap_words * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_list[0], list_bytes));
    CUDA_CHECK(cudaMalloc(&d_list[1], list_bytes));
    CUDA_CHECK(cudaMalloc(&d_count, sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_live, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_heap, in.heap, in.words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_roots, in.roots, in.nroots * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_marks, 0, bitmap_words * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(d_count, 0, sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(d_live, 0, sizeof(unsigned long long)));

    gc_mark_roots<<<(in.nroots + GC_BLOCK - 1) / GC_BLOCK, GC_BLOCK>>>(d_roots, (int)in.nroots, d_marks,
                                                                      d_list[0], d_count);
    CUDA_CHECK(cudaGetLastError());
    uint32_t count;
    CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    int cur = 0, steps = 0;
    uint64_t greyed = count;
    while (count > 0) {
        /* Each object is greyed at most once: more means broken marking. */
        if (greyed > in.nobj) {
            printf("%llu objects greyed, but the heap has only %u\nFAIL\n", (unsigned long long)greyed, in.nobj);
            return 1;
        }
        CUDA_CHECK(cudaMemset(d_count, 0, sizeof(uint32_t)));
        gc_mark_step<<<(count + GC_BLOCK - 1) / GC_BLOCK, GC_BLOCK>>>(d_heap, d_marks, d_list[cur], (int)count,
                                                                     d_list[1 - cur], d_count, d_live);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
        greyed += count;
        cur = 1 - cur;
        steps++;
    }
    unsigned long long live;
    CUDA_CHECK(cudaMemcpy(got, d_marks, bitmap_words * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&live, d_live, sizeof live, cudaMemcpyDeviceToHost));

    uint32_t bad = bitmap_words;
    for (uint32_t w = 0; w < bitmap_words && bad == bitmap_words; w++)
        if (got[w] != want[w]) bad = w;
    int ok = bad == bitmap_words && live == want_live;
    if (bad < bitmap_words)
        printf("mark bitmap word %u (heap words %u..%u): got %08x, expected %08x\n", bad, bad * 32,
               bad * 32 + 31, got[bad], want[bad]);
    else if (live != want_live)
        printf("live words %llu, expected %llu\n", live, (unsigned long long)want_live);
    printf("%d mark steps, %llu live words of %llu\n", steps, (unsigned long long)want_live,
           (unsigned long long)in.words);

    CUDA_CHECK(cudaFree(d_heap));
    CUDA_CHECK(cudaFree(d_roots));
    CUDA_CHECK(cudaFree(d_marks));
    CUDA_CHECK(cudaFree(d_list[0]));
    CUDA_CHECK(cudaFree(d_list[1]));
    CUDA_CHECK(cudaFree(d_count));
    CUDA_CHECK(cudaFree(d_live));
    free(in.heap);
    free(in.roots);
    free(want);
    free(got);
    return wl_finish(ok);
}
