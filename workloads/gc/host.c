/* gc on locsim: the same run as kernel.cu's main(), through the locsim API. */
#include <stdlib.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr heap, roots, marks, list[2], count, live;
} gc_device_arrays;

static wl_result compare(wl_ctx *ctx, uint32_t bitmap_words, const uint32_t *got, const uint32_t *want,
                         uint64_t live, uint64_t want_live) {
    for (uint32_t w = 0; w < bitmap_words; w++) {
        if (got[w] != want[w])
            return wl_fail(ctx, "mark bitmap word %u (heap words %u..%u) = %08x, expected %08x", w, w * 32,
                           w * 32 + 31, got[w], want[w]);
    }
    if (live != want_live)
        return wl_fail(ctx, "live words = %llu, expected %llu", (unsigned long long)live,
                       (unsigned long long)want_live);
    return WL_PASS;
}

static wl_result run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, GC_MAX_SIZE)) return WL_ERROR;
    wl_result result = WL_ERROR;
    gc_input in;
    in.nobj = gc_nobj(ctx->size);
    in.nroots = gc_nroots(in.nobj);
    in.words = 0;
    in.heap = (uint32_t *)malloc(gc_heap_capacity(in.nobj) * sizeof(uint32_t));
    in.roots = (uint32_t *)malloc(in.nroots * sizeof(uint32_t));
    uint32_t *want = NULL, *got = NULL;
    locsim_module *mod = NULL;
    gc_device_arrays d = {0, 0, 0, {0, 0}, 0, 0};
    if (!in.heap || !in.roots || gc_gen(&in, ctx->seed) != 0) {
        result = wl_out_of_memory(ctx);
        goto out;
    }
    uint32_t bitmap_words = gc_bitmap_words(in.words);
    uint64_t want_live;
    want = (uint32_t *)malloc(bitmap_words * sizeof(uint32_t));
    got = (uint32_t *)malloc(bitmap_words * sizeof(uint32_t));
    if (!want || !got || gc_ref(&in, want, &want_live) < 0) {
        result = wl_out_of_memory(ctx);
        goto out;
    }

    mod = wl_load_module(ctx);
    if (!mod) goto out;
    locsim_kernel *k_roots, *k_step;
    WL_TRY(ctx, locsim_module_get_kernel(mod, "gc_mark_roots", &k_roots));
    WL_TRY(ctx, locsim_module_get_kernel(mod, "gc_mark_step", &k_step));
    size_t list_bytes = (size_t)in.nobj * sizeof(uint32_t);
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.heap, in.words * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.roots, in.nroots * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.marks, bitmap_words * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.list[0], list_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.list[1], list_bytes));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.count, sizeof(uint32_t)));
    WL_TRY(ctx, locsim_malloc(ctx->dev, &d.live, sizeof(uint64_t)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d.heap, in.heap, in.words * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_memcpy_htod(ctx->dev, d.roots, in.roots, in.nroots * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_memset(ctx->dev, d.marks, 0, bitmap_words * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_memset(ctx->dev, d.count, 0, sizeof(uint32_t)));
    WL_TRY(ctx, locsim_memset(ctx->dev, d.live, 0, sizeof(uint64_t)));

    locsim_dim3 block = {GC_BLOCK, 1, 1};
    int nroots_arg = (int)in.nroots;
    void *root_args[] = {&d.roots, &nroots_arg, &d.marks, &d.list[0], &d.count};
    locsim_dim3 root_grid = {(in.nroots + GC_BLOCK - 1) / GC_BLOCK, 1, 1};
    WL_TRY(ctx, locsim_launch(k_roots, root_grid, block, 0, root_args, 5));
    uint32_t count;
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, &count, d.count, sizeof count));
    int cur = 0;
    uint64_t greyed = count;
    while (count > 0) {
        /* Each object is greyed at most once; more means the marking is broken
         * (and without this check a broken run could loop for ever). */
        if (greyed > in.nobj) {
            result = wl_fail(ctx, "%llu objects greyed, but the heap has only %u",
                             (unsigned long long)greyed, in.nobj);
            goto out;
        }
        WL_TRY(ctx, locsim_memset(ctx->dev, d.count, 0, sizeof(uint32_t)));
        int count_arg = (int)count;
        void *step_args[] = {&d.heap, &d.marks, &d.list[cur], &count_arg, &d.list[1 - cur], &d.count, &d.live};
        locsim_dim3 grid = {(count + GC_BLOCK - 1) / GC_BLOCK, 1, 1};
        WL_TRY(ctx, locsim_launch(k_step, grid, block, 0, step_args, 7));
        WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, &count, d.count, sizeof count));
        greyed += count;
        cur = 1 - cur;
    }
    uint64_t live;
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, got, d.marks, bitmap_words * sizeof(uint32_t)));
    WL_TRY(ctx, locsim_memcpy_dtoh(ctx->dev, &live, d.live, sizeof live));
    result = compare(ctx, bitmap_words, got, want, live, want_live);

out:
    WL_FREE_BUFFERS(ctx->dev, &d.live, &d.count, &d.list[1], &d.list[0], &d.marks, &d.roots, &d.heap);
    if (mod) locsim_module_unload(mod);
    free(in.heap);
    free(in.roots);
    free(want);
    free(got);
    return result;
}

const workload wl_gc = {
    "gc",
    "GC mark phase: worklist BFS over a heap graph, atomicOr mark bitmap, atomic worklist push, host loop; "
    "--size S: S*16384+123 objects",
    GC_DEFAULT_SIZE,
    {1, 2},
    run,
    GC_MAX_SIZE,
};
