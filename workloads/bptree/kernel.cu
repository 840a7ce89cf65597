// bptree: B+tree search, one CTA per query and one thread per key slot (the
// structure of Rodinia's b+tree findK).
//
// bt_find: from the root, every thread reads its key slot and the next; the one
// whose range holds the query writes its child into shared memory (slot 0's child
// is the default: the query is below every key), and after a barrier the CTA
// moves down.  At the leaf the thread holding the query's key reads its record.
// Every query reads the root and the upper levels again (reuse across CTAs that a
// small L1D keeps or loses); the leaves are spread over megabytes.
//
// Stand-alone: ./bptree [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void bt_find(const uint32_t *key, const uint32_t *child, const uint32_t *records,
                                   uint32_t root, uint32_t levels, const uint32_t *queries, uint32_t *out) {
    __shared__ uint32_t next;
    const uint32_t q = queries[blockIdx.x], t = threadIdx.x;
    uint32_t node = root;
    for (uint32_t level = 0; level < levels; level++) {
        const uint32_t *row = key + (size_t)node * (BT_ORDER + 1);
        if (t == 0) next = child[(size_t)node * BT_ORDER];
        __syncthreads();
        if (row[t] <= q && q < row[t + 1]) next = child[(size_t)node * BT_ORDER + t];
        __syncthreads();
        node = next;
        __syncthreads();  // everyone has read next before thread 0 resets it
    }
    if (t == 0) out[blockIdx.x] = BT_NONE;
    __syncthreads();
    if (key[(size_t)node * (BT_ORDER + 1) + t] == q) out[blockIdx.x] = records[child[(size_t)node * BT_ORDER + t]];
}

int main(int argc, char **argv) {
    uint32_t size = 64;  // the evaluation size (wl_bptree.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, BT_MAX_SIZE, &size, &seed);

    bt_data data;
    bt_tree tree;
    uint32_t *queries, nq = bt_num_queries(size);
    if (!bt_generate(bt_num_keys(size), nq, seed, &data, &queries) || !bt_build(&data, &tree))
        wl_die("out of host memory");
    uint32_t *got = (uint32_t *)malloc(nq * sizeof(uint32_t));
    if (!got) wl_die("out of host memory");

    size_t key_bytes = (size_t)tree.nodes * (BT_ORDER + 1) * sizeof(uint32_t);
    size_t child_bytes = (size_t)tree.nodes * BT_ORDER * sizeof(uint32_t);
    uint32_t *d_key, *d_child, *d_records, *d_queries, *d_out;
    CUDA_CHECK(cudaMalloc(&d_key, key_bytes));
    CUDA_CHECK(cudaMalloc(&d_child, child_bytes));
    CUDA_CHECK(cudaMalloc(&d_records, data.n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_queries, nq * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_out, nq * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_key, tree.key, key_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_child, tree.child, child_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_records, data.records, data.n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_queries, queries, nq * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bt_find<<<nq, BT_ORDER>>>(d_key, d_child, d_records, tree.root, tree.levels, d_queries, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_out, nq * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int ok = 1;
    for (uint32_t q = 0; q < nq && ok; q++) {
        uint32_t want = bt_lookup(&data, queries[q]);
        if (got[q] != want) {
            fprintf(stderr, "query %u (key %u): got record %u, expected %u\n", q, queries[q], got[q], want);
            ok = 0;
        }
    }
    cudaFree(d_key); cudaFree(d_child); cudaFree(d_records); cudaFree(d_queries); cudaFree(d_out);
    bt_data_free(&data);
    bt_tree_free(&tree);
    free(queries); free(got);
    return wl_finish(ok);
}
