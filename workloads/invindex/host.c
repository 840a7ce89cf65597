/* invindex on locsim: the same launches as kernel.cu's main() (count, host prefix
 * sum, scatter); the document frequencies and every postings list (as a set,
 * sorted by document) are compared with the reference.
 *
 * 256*S documents (ref.h).  Measured at the default size 16, seed 1: 5.1 M thread
 * instructions, 0.77 M cycles on fermi_gtx480 (timing mode; the atomics dominate).
 * Working set: 1.4 MB forward index, as large an inverted one. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr fstart, fterm, ftf, df, istart, fill, idoc, itf;
} ii_device;

typedef struct {
    uint32_t *df, *istart, *doc, *tf;
} ii_result;

static wl_result ii_simulate(wl_ctx *ctx, locsim_module *mod, const ii_csr *fwd, ii_device *d, ii_result *out) {
    locsim_device *dev = ctx->dev;
    uint32_t docs = fwd->lists;
    size_t items = fwd->items, term_bytes = II_TERMS * sizeof(uint32_t);
    WL_CHECK(ctx, locsim_malloc(dev, &d->fstart, (docs + 1) * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->fterm, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->ftf, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->df, term_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->istart, term_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->fill, term_bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->idoc, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->itf, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->fstart, fwd->start, (docs + 1) * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->fterm, fwd->item, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->ftf, fwd->tf, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memset(dev, d->df, 0, term_bytes));
    WL_CHECK(ctx, locsim_memset(dev, d->fill, 0, term_bytes));
    locsim_kernel *count, *scatter;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ii_count", &count));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "ii_scatter", &scatter));
    locsim_dim3 grid = { (docs + II_BLOCK - 1) / II_BLOCK, 1, 1 }, block = { II_BLOCK, 1, 1 };
    void *count_args[] = { &d->fstart, &d->fterm, &docs, &d->df };
    WL_CHECK(ctx, locsim_launch(count, grid, block, 0, count_args, 4));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, out->df, d->df, term_bytes));
    uint64_t run = 0; /* exclusive prefix sum: where each term's list starts */
    for (uint32_t t = 0; t < II_TERMS; t++) {
        out->istart[t] = (uint32_t)run;
        run += out->df[t];
    }
    if (run != items)
        return wl_fail(ctx, "the document frequencies add up to %llu postings, expected %zu", (unsigned long long)run,
                       items);
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->istart, out->istart, term_bytes));
    void *scatter_args[] = { &d->fstart, &d->fterm, &d->ftf, &docs, &d->istart, &d->fill, &d->idoc, &d->itf };
    WL_CHECK(ctx, locsim_launch(scatter, grid, block, 0, scatter_args, 8));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, out->doc, d->idoc, items * sizeof(uint32_t)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, out->tf, d->itf, items * sizeof(uint32_t)));
    return WL_PASS;
}

static wl_result ii_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, II_MAX_SIZE)) return WL_ERROR;
    ii_csr fwd, want;
    if (!ii_generate(ii_num_docs(ctx->size), ctx->seed, &fwd)) return wl_out_of_memory(ctx);
    if (!ii_reference(&fwd, &want)) {
        ii_csr_free(&fwd);
        return wl_out_of_memory(ctx);
    }
    size_t items = fwd.items;
    ii_result out = { malloc(II_TERMS * sizeof(uint32_t)), malloc(II_TERMS * sizeof(uint32_t)),
                      malloc(items * sizeof(uint32_t)), malloc(items * sizeof(uint32_t)) };
    uint64_t *scratch = malloc(items * sizeof(uint64_t));
    wl_result r = WL_ERROR;
    if (!out.df || !out.istart || !out.doc || !out.tf || !scratch) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            ii_device d;
            memset(&d, 0, sizeof d);
            r = ii_simulate(ctx, mod, &fwd, &d, &out);
            WL_FREE_BUFFERS(ctx->dev, &d.fstart, &d.fterm, &d.ftf, &d.df, &d.istart, &d.fill, &d.idoc, &d.itf);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS && !ii_compare(&want, out.df, out.doc, out.tf, scratch, ctx->detail, sizeof ctx->detail))
            r = WL_FAIL;
    }
    free(out.df); free(out.istart); free(out.doc); free(out.tf); free(scratch);
    ii_csr_free(&fwd);
    ii_csr_free(&want);
    return r;
}

const workload wl_invindex = {
    "invindex",
    "inverted index from a Zipf forward index: atomic document counts, host scan, atomic scatter; 256*S docs",
    16,
    { 1, 2 },
    ii_run,
    II_MAX_SIZE,
};
