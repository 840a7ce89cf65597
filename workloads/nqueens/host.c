/* nqueens on locsim: the same launch as kernel.cu's main(); every prefix's count is
 * compared with the CPU count of that prefix, and the total with the published
 * number of solutions.
 *
 * N = size + 7 (ref.h).  Measured at the default size 5 (N = 12), seed 1: 47.9 M thread
 * instructions, 2.07 M cycles on fermi_gtx480 (timing mode; the warps diverge as their
 * subtrees differ).  Working set: 4080 prefixes (48 KB) and 256 bytes of local-memory
 * stack per thread. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr list, counts;
} nq_device;

static wl_result nq_simulate(wl_ctx *ctx, locsim_module *mod, const nq_prefix *list, uint32_t num, int n,
                             nq_device *d, uint32_t *counts) {
    locsim_device *dev = ctx->dev;
    WL_CHECK(ctx, locsim_malloc(dev, &d->list, num * sizeof(nq_prefix)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->counts, num * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->list, list, num * sizeof(nq_prefix)));
    locsim_kernel *solve;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "nq_solve", &solve));
    int32_t num_prefixes = (int32_t)num, board = n;
    void *args[] = { &d->list, &d->counts, &num_prefixes, &board };
    locsim_dim3 grid = { (num + NQ_BLOCK - 1) / NQ_BLOCK, 1, 1 }, block = { NQ_BLOCK, 1, 1 };
    WL_CHECK(ctx, locsim_launch(solve, grid, block, 0, args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, counts, d->counts, num * sizeof(uint32_t)));
    return WL_PASS;
}

static wl_result nq_check(wl_ctx *ctx, const nq_prefix *list, uint32_t num, int n, const uint32_t *counts) {
    const uint32_t all = (1u << n) - 1;
    uint64_t total = 0;
    for (uint32_t p = 0; p < num; p++) {
        uint32_t want = nq_count(all, n - NQ_PREFIX_ROWS, list[p].cols, list[p].left, list[p].right);
        if (counts[p] != want)
            return wl_fail(ctx, "prefix %u: got %u completions, expected %u", p, counts[p], want);
        total += counts[p];
    }
    if (total != nq_known[n])
        return wl_fail(ctx, "%d queens: got %llu solutions, expected %llu", n, (unsigned long long)total,
                       (unsigned long long)nq_known[n]);
    return WL_PASS;
}

static wl_result nq_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, NQ_MAX_SIZE)) return WL_ERROR;
    int n = nq_board(ctx->size);
    uint32_t num = 0;
    nq_prefix *list = nq_generate(n, ctx->seed, &num);
    uint32_t *counts = list ? malloc(num * sizeof(uint32_t)) : NULL;
    wl_result r = WL_ERROR;
    if (!list || !counts) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            nq_device d;
            memset(&d, 0, sizeof d);
            r = nq_simulate(ctx, mod, list, num, n, &d, counts);
            WL_FREE_BUFFERS(ctx->dev, &d.list, &d.counts);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = nq_check(ctx, list, num, n, counts);
    }
    free(list); free(counts);
    return r;
}

const workload wl_nqueens = {
    "nqueens",
    "N-queens counting, bitboard backtracking with a local-memory stack, one 4-row prefix per thread; N = S+7",
    5,
    { 1, 2 },
    nq_run,
    NQ_MAX_SIZE,
};
