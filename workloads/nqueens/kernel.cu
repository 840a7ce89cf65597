// nqueens: N-queens solution counting, one prefix (the first 4 rows) per thread.
//
// nq_solve backtracks over the remaining rows with an explicit stack (the attack
// masks and the untried columns of every open row) instead of recursion: the stack
// is indexed by the depth, a run-time value, so it lives in local memory, and
// threads of a warp diverge as their subtrees differ in shape.  Each thread writes
// its prefix's count.
//
// Stand-alone: ./nqueens [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void nq_solve(const nq_prefix *prefixes, uint32_t *counts, int num_prefixes, int n) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= num_prefixes) return;
    uint32_t st_cols[NQ_MAX_N], st_left[NQ_MAX_N], st_right[NQ_MAX_N], st_avail[NQ_MAX_N];
    const uint32_t all = (1u << n) - 1;
    const int last = n - NQ_PREFIX_ROWS - 1;  // depth of the last row
    uint32_t cols = prefixes[p].cols, left = prefixes[p].left, right = prefixes[p].right;
    uint32_t avail = all & ~(cols | left | right);
    uint32_t count = 0;
    int depth = 0;
    for (;;) {
        if (depth == last) {  // every free column of the last row completes a board
            count += __popc(avail);
            avail = 0;
        }
        if (avail == 0) {  // row exhausted: back to the previous one
            if (depth == 0) break;
            depth--;
            cols = st_cols[depth];
            left = st_left[depth];
            right = st_right[depth];
            avail = st_avail[depth];
            continue;
        }
        uint32_t bit = avail & (0u - avail);
        avail ^= bit;
        st_cols[depth] = cols;
        st_left[depth] = left;
        st_right[depth] = right;
        st_avail[depth] = avail;
        depth++;
        cols |= bit;
        left = ((left | bit) << 1) & all;
        right = (right | bit) >> 1;
        avail = all & ~(cols | left | right);
    }
    counts[p] = count;
}

int main(int argc, char **argv) {
    uint32_t size = 5;  // the evaluation size (wl_nqueens.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, NQ_MAX_SIZE, &size, &seed);

    int n = nq_board(size);
    uint32_t num = 0;
    nq_prefix *list = nq_generate(n, seed, &num);
    uint32_t *counts = (uint32_t *)malloc(num * sizeof(uint32_t));
    if (!list || !counts) wl_die("out of host memory");

    nq_prefix *d_list;
    uint32_t *d_counts;
    CUDA_CHECK(cudaMalloc(&d_list, num * sizeof(nq_prefix)));
    CUDA_CHECK(cudaMalloc(&d_counts, num * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_list, list, num * sizeof(nq_prefix), cudaMemcpyHostToDevice));
    nq_solve<<<(num + NQ_BLOCK - 1) / NQ_BLOCK, NQ_BLOCK>>>(d_list, d_counts, (int)num, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(counts, d_counts, num * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int ok = 1;
    uint64_t total = 0;
    const uint32_t all = (1u << n) - 1;
    for (uint32_t p = 0; p < num && ok; p++) {
        uint32_t want = nq_count(all, n - NQ_PREFIX_ROWS, list[p].cols, list[p].left, list[p].right);
        if (counts[p] != want) {
            fprintf(stderr, "prefix %u: got %u completions, expected %u\n", p, counts[p], want);
            ok = 0;
        }
        total += counts[p];
    }
    if (ok && total != nq_known[n]) {
        fprintf(stderr, "%d queens: got %llu solutions, expected %llu\n", n, (unsigned long long)total,
                (unsigned long long)nq_known[n]);
        ok = 0;
    }
    cudaFree(d_list); cudaFree(d_counts);
    free(list); free(counts);
    return wl_finish(ok);
}
