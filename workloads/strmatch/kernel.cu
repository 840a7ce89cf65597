// strmatch: count every occurrence of 16 short keys in a text, and find the first.
//
// Each thread scans the start positions of one 128-byte segment of the text (and
// reads up to 15 bytes past its end for the keys that start inside it): for each
// position it compares the text byte with every key's first byte and walks the
// rest of the keys that agree.  The keys live in constant memory.  Neighbouring
// threads read bytes 128 apart, so a warp-wide load touches 32 lines and each
// thread returns to its own line for 128 consecutive loads.  A thread keeps its
// counts in registers and adds them to the global totals with atomics at the end.
//
// Stand-alone: ./strmatch [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ uint8_t c_keys[SM_PATTERNS][SM_MAX_LEN];
__constant__ uint32_t c_lens[SM_PATTERNS];

extern "C" __global__ void sm_scan(const uint8_t *text, uint32_t n, uint32_t *count, uint32_t *first) {
    const uint32_t start = (blockIdx.x * blockDim.x + threadIdx.x) * SM_SEG;
    if (start >= n) return;
    const uint32_t end = min(start + SM_SEG, n);
    uint32_t cnt[SM_PATTERNS], fst[SM_PATTERNS];
#pragma unroll
    for (int k = 0; k < SM_PATTERNS; k++) {
        cnt[k] = 0;
        fst[k] = SM_NONE;
    }
    for (uint32_t i = start; i < end; i++) {
        const uint8_t c = text[i];
#pragma unroll
        for (int k = 0; k < SM_PATTERNS; k++) {
            if (c != c_keys[k][0]) continue;
            const uint32_t len = c_lens[k];
            if (i + len > n) continue;
            uint32_t j = 1;
            while (j < len && text[i + j] == c_keys[k][j]) j++;
            if (j == len && cnt[k]++ == 0) fst[k] = i;
        }
    }
#pragma unroll
    for (int k = 0; k < SM_PATTERNS; k++)
        if (cnt[k]) {
            atomicAdd(&count[k], cnt[k]);
            atomicMin(&first[k], fst[k]);
        }
}

int main(int argc, char **argv) {
    uint32_t size = 32;  // the evaluation size (wl_strmatch.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, SM_MAX_SIZE, &size, &seed);

    uint32_t n = sm_text_len(size);
    sm_patterns pat;
    uint8_t *text = sm_generate(n, seed, &pat);
    if (!text) wl_die("out of host memory");
    uint32_t want_count[SM_PATTERNS], want_first[SM_PATTERNS], got_count[SM_PATTERNS], got_first[SM_PATTERNS];
    sm_reference(text, n, &pat, want_count, want_first);

    uint8_t *d_text;
    uint32_t *d_count, *d_first;
    CUDA_CHECK(cudaMalloc(&d_text, n));
    CUDA_CHECK(cudaMalloc(&d_count, sizeof got_count));
    CUDA_CHECK(cudaMalloc(&d_first, sizeof got_first));
    CUDA_CHECK(cudaMemcpy(d_text, text, n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_count, 0, sizeof got_count));
    CUDA_CHECK(cudaMemset(d_first, 0xff, sizeof got_first));
    CUDA_CHECK(cudaMemcpyToSymbol(c_keys, pat.key, sizeof pat.key));
    CUDA_CHECK(cudaMemcpyToSymbol(c_lens, pat.len, sizeof pat.len));
    uint32_t threads = (n + SM_SEG - 1) / SM_SEG;
    sm_scan<<<(threads + SM_BLOCK - 1) / SM_BLOCK, SM_BLOCK>>>(d_text, n, d_count, d_first);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got_count, d_count, sizeof got_count, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got_first, d_first, sizeof got_first, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (int k = 0; k < SM_PATTERNS && ok; k++)
        if (got_count[k] != want_count[k] || got_first[k] != want_first[k]) {
            fprintf(stderr, "key %d (\"%.*s\"): got %u occurrences, first at %u; expected %u, first at %u\n", k,
                    (int)pat.len[k], (const char *)pat.key[k], got_count[k], got_first[k], want_count[k],
                    want_first[k]);
            ok = 0;
        }
    cudaFree(d_text); cudaFree(d_count); cudaFree(d_first);
    free(text);
    return wl_finish(ok);
}
