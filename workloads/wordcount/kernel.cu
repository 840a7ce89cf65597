// wordcount: MapReduce-style word count into a global hash table with atomics.
//
// wc_map: each thread takes the words that start in its 128-byte segment of the
// text (reading past the segment's end to finish the last one), hashes each with
// FNV-1a and adds one to its slot: the slot is claimed with a 64-bit atomicCAS
// (linear probing on a clash), the count bumped with atomicAdd, and a new key also
// bumps the number of distinct words.  The hot words of a Zipf text send many
// threads to the same few slots.
// wc_lookup: one thread per query word finds its slot and returns its count (0 if
// absent): the order-independent view of the table that the host checks.
//
// Stand-alone: ./wordcount [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

__device__ static inline bool is_letter(uint8_t c) { return c >= 'a' && c <= 'z'; }

extern "C" __global__ void wc_map(const uint8_t *text, uint32_t n, unsigned long long *keys, uint32_t *counts,
                                  uint32_t *distinct) {
    const uint32_t start = (blockIdx.x * blockDim.x + threadIdx.x) * WC_SEG;
    if (start >= n) return;
    const uint32_t end = min(start + WC_SEG, n);
    uint32_t i = start;
    if (i > 0 && is_letter(text[i - 1]))  // the word there belongs to the previous segment
        while (i < end && is_letter(text[i])) i++;
    while (i < end) {
        if (!is_letter(text[i])) {
            i++;
            continue;
        }
        unsigned long long h = 0xcbf29ce484222325ull;
        for (; i < n && is_letter(text[i]); i++) h = (h ^ text[i]) * 0x100000001b3ull;
        const unsigned long long key = h ? h : 1;
        for (uint32_t s = (uint32_t)key & (WC_TABLE - 1);; s = (s + 1) & (WC_TABLE - 1)) {
            unsigned long long old = atomicCAS(&keys[s], 0ull, key);
            if (old == 0 || old == key) {
                if (old == 0) atomicAdd(distinct, 1u);
                atomicAdd(&counts[s], 1u);
                break;
            }
        }
    }
}

extern "C" __global__ void wc_lookup(const unsigned long long *keys, const uint32_t *counts,
                                     const unsigned long long *queries, uint32_t num_queries, uint32_t *out) {
    const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= num_queries) return;
    const unsigned long long key = queries[q];
    uint32_t s = (uint32_t)key & (WC_TABLE - 1);
    while (keys[s] != key && keys[s] != 0) s = (s + 1) & (WC_TABLE - 1);
    out[q] = keys[s] == key ? counts[s] : 0;
}

int main(int argc, char **argv) {
    uint32_t size = 16;  // the evaluation size (wl_wordcount.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WC_MAX_SIZE, &size, &seed);

    uint32_t n = wc_text_len(size);
    wl_vocab vocab;
    wc_answer want;
    uint8_t *text = wc_generate(n, seed, &vocab);
    if (!text || !wc_reference(text, n, &vocab, &want)) wl_die("out of host memory");
    uint32_t *got = (uint32_t *)malloc(want.queries * sizeof(uint32_t)), got_distinct = 0;
    if (!got) wl_die("out of host memory");

    uint8_t *d_text;
    unsigned long long *d_keys, *d_queries;
    uint32_t *d_counts, *d_distinct, *d_out;
    CUDA_CHECK(cudaMalloc(&d_text, n));
    CUDA_CHECK(cudaMalloc(&d_keys, WC_TABLE * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_counts, WC_TABLE * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_distinct, sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_queries, want.queries * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_out, want.queries * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_text, text, n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_queries, want.keys, want.queries * sizeof(uint64_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_keys, 0, WC_TABLE * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_counts, 0, WC_TABLE * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(d_distinct, 0, sizeof(uint32_t)));
    uint32_t threads = (n + WC_SEG - 1) / WC_SEG;
    wc_map<<<(threads + WC_BLOCK - 1) / WC_BLOCK, WC_BLOCK>>>(d_text, n, d_keys, d_counts, d_distinct);
    CUDA_CHECK(cudaGetLastError());
    wc_lookup<<<(want.queries + WC_BLOCK - 1) / WC_BLOCK, WC_BLOCK>>>(d_keys, d_counts, d_queries, want.queries, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&got_distinct, d_distinct, sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got, d_out, want.queries * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int ok = 1;
    if (got_distinct != want.distinct) {
        fprintf(stderr, "distinct words: got %u, expected %u\n", got_distinct, want.distinct);
        ok = 0;
    }
    for (uint32_t q = 0; q < want.queries && ok; q++)
        if (got[q] != want.counts[q]) {
            fprintf(stderr, "query %u: got count %u, expected %u\n", q, got[q], want.counts[q]);
            ok = 0;
        }
    cudaFree(d_text); cudaFree(d_keys); cudaFree(d_counts); cudaFree(d_distinct); cudaFree(d_queries); cudaFree(d_out);
    free(text); free(got);
    wc_answer_free(&want);
    wl_vocab_free(&vocab);
    return wl_finish(ok);
}
