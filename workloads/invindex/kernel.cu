// invindex: inverted-index construction from a forward index, one thread per document.
//
// ii_count: each thread walks its document's terms and adds one to each term's
// document frequency (global atomics; the common terms are hot spots).  The host
// turns the frequencies into list starts.  ii_scatter: each thread walks its terms
// again, takes the next free place in each term's postings list with an atomic
// cursor and writes its (document, tf) pair there.  Neighbouring threads read
// documents a few hundred bytes apart, and the writes scatter over the whole index.
//
// Stand-alone: ./invindex [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void ii_count(const uint32_t *fstart, const uint32_t *fterm, uint32_t docs, uint32_t *df) {
    const uint32_t d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= docs) return;
    for (uint32_t i = fstart[d]; i < fstart[d + 1]; i++) atomicAdd(&df[fterm[i]], 1u);
}

extern "C" __global__ void ii_scatter(const uint32_t *fstart, const uint32_t *fterm, const uint32_t *ftf,
                                      uint32_t docs, const uint32_t *istart, uint32_t *fill, uint32_t *idoc,
                                      uint32_t *itf) {
    const uint32_t d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= docs) return;
    for (uint32_t i = fstart[d]; i < fstart[d + 1]; i++) {
        const uint32_t t = fterm[i];
        const uint32_t at = istart[t] + atomicAdd(&fill[t], 1u);
        idoc[at] = d;
        itf[at] = ftf[i];
    }
}

int main(int argc, char **argv) {
    uint32_t size = 16;  // the evaluation size (wl_invindex.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, II_MAX_SIZE, &size, &seed);

    ii_csr fwd, want;
    uint32_t docs = ii_num_docs(size);
    if (!ii_generate(docs, seed, &fwd) || !ii_reference(&fwd, &want)) wl_die("out of host memory");
    size_t items = fwd.items, term_bytes = II_TERMS * sizeof(uint32_t);
    uint32_t *df = (uint32_t *)malloc(term_bytes), *istart = (uint32_t *)malloc(term_bytes);
    uint32_t *doc = (uint32_t *)malloc(items * sizeof(uint32_t)), *tf = (uint32_t *)malloc(items * sizeof(uint32_t));
    uint64_t *scratch = (uint64_t *)malloc(items * sizeof(uint64_t));
    if (!df || !istart || !doc || !tf || !scratch) wl_die("out of host memory");

    uint32_t *d_fstart, *d_fterm, *d_ftf, *d_df, *d_istart, *d_fill, *d_idoc, *d_itf;
    CUDA_CHECK(cudaMalloc(&d_fstart, (docs + 1) * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_fterm, items * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_ftf, items * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_df, term_bytes));
    CUDA_CHECK(cudaMalloc(&d_istart, term_bytes));
    CUDA_CHECK(cudaMalloc(&d_fill, term_bytes));
    CUDA_CHECK(cudaMalloc(&d_idoc, items * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_itf, items * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_fstart, fwd.start, (docs + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_fterm, fwd.item, items * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ftf, fwd.tf, items * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_df, 0, term_bytes));
    CUDA_CHECK(cudaMemset(d_fill, 0, term_bytes));
    unsigned blocks = (docs + II_BLOCK - 1) / II_BLOCK;
    ii_count<<<blocks, II_BLOCK>>>(d_fstart, d_fterm, docs, d_df);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(df, d_df, term_bytes, cudaMemcpyDeviceToHost));
    uint32_t run = 0;  // exclusive prefix sum: where each term's list starts
    for (uint32_t t = 0; t < II_TERMS; t++) {
        istart[t] = run;
        run += df[t];
    }
    if (run != items) wl_die("the document frequencies add up to %u postings, expected %zu", run, items);
    CUDA_CHECK(cudaMemcpy(d_istart, istart, term_bytes, cudaMemcpyHostToDevice));
    ii_scatter<<<blocks, II_BLOCK>>>(d_fstart, d_fterm, d_ftf, docs, d_istart, d_fill, d_idoc, d_itf);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(doc, d_idoc, items * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tf, d_itf, items * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    char msg[256];
    int ok = ii_compare(&want, df, doc, tf, scratch, msg, sizeof msg);
    if (!ok) fprintf(stderr, "%s\n", msg);
    cudaFree(d_fstart); cudaFree(d_fterm); cudaFree(d_ftf); cudaFree(d_df);
    cudaFree(d_istart); cudaFree(d_fill); cudaFree(d_idoc); cudaFree(d_itf);
    free(df); free(istart); free(doc); free(tf); free(scratch);
    ii_csr_free(&fwd);
    ii_csr_free(&want);
    return wl_finish(ok);
}
