/* memc: memcached-style GET lookups in a set-associative hash table.
 *
 * One thread per request (the MemcachedGPU design): hash the request's key,
 * scan the MEMC_WAYS slots of its set for a matching signature, then confirm
 * with a byte-by-byte key comparison against the item before returning its
 * value.  Key lengths differ, signatures rarely collide and most but not all
 * requests hit, so warps diverge in every loop: the irregular, pointer-chasing
 * access pattern of a key-value store.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

__device__ __forceinline__ uint32_t key_hash(const uint8_t *key, uint32_t len) {
    uint32_t h = 0;
    for (uint32_t i = 0; i < len; i++) {
        h += key[i];
        h += h << 10;
        h ^= h >> 6;
    }
    h += h << 3;
    h ^= h >> 11;
    h += h << 15;
    return h;
}

__device__ __forceinline__ bool keys_equal(const uint8_t *a, const uint8_t *b, uint32_t len) {
    for (uint32_t i = 0; i < len; i++)
        if (a[i] != b[i]) return false;
    return true;
}

extern "C" __global__ void memc_get(const memc_request *__restrict__ reqs, int nreq,
                                    const memc_slot *__restrict__ table, uint32_t set_mask,
                                    const memc_item *__restrict__ items, uint64_t *__restrict__ values,
                                    uint32_t *__restrict__ hits) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nreq) return;
    const memc_request *req = &reqs[q];
    uint32_t len = req->keylen;
    uint32_t h = key_hash(req->key, len);
    uint32_t sig = h ? h : 1u;
    const memc_slot *set = table + (size_t)(h & set_mask) * MEMC_WAYS;

    uint64_t value = 0;
    uint32_t hit = 0;
    for (int w = 0; w < MEMC_WAYS; w++) {
        memc_slot slot = set[w];
        if (slot.sig != sig) continue;
        const memc_item *it = &items[slot.item];
        if (it->keylen == len && keys_equal(it->key, req->key, len)) {
            value = it->value;
            hit = 1;
            break;
        }
    }
    values[q] = value;
    hits[q] = hit;
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = MEMC_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, MEMC_MAX_SIZE, &size, &seed);
    memc_input in;
    in.nkeys = memc_nkeys(size);
    in.nreq = memc_nreq(size);
    in.nsets = memc_nsets(in.nkeys);
    size_t items_bytes = (size_t)in.nkeys * sizeof(memc_item);
    size_t table_bytes = (size_t)in.nsets * MEMC_WAYS * sizeof(memc_slot);
    size_t reqs_bytes = (size_t)in.nreq * sizeof(memc_request);
    in.items = (memc_item *)malloc(items_bytes);
    in.table = (memc_slot *)malloc(table_bytes);
    in.reqs = (memc_request *)malloc(reqs_bytes);
    uint64_t *values = (uint64_t *)malloc(in.nreq * sizeof(uint64_t));
    uint64_t *want_values = (uint64_t *)malloc(in.nreq * sizeof(uint64_t));
    uint32_t *hits = (uint32_t *)malloc(in.nreq * sizeof(uint32_t));
    uint32_t *want_hits = (uint32_t *)malloc(in.nreq * sizeof(uint32_t));
    if (!in.items || !in.table || !in.reqs || !values || !want_values || !hits || !want_hits)
        wl_die("out of host memory");
    memc_build(&in, seed);
    memc_gen_requests(&in, seed);
    memc_ref(&in, want_values, want_hits);

    memc_item *d_items;
    memc_slot *d_table;
    memc_request *d_reqs;
    uint64_t *d_values;
    uint32_t *d_hits;
    CUDA_CHECK(cudaMalloc(&d_items, items_bytes));
    CUDA_CHECK(cudaMalloc(&d_table, table_bytes));
    CUDA_CHECK(cudaMalloc(&d_reqs, reqs_bytes));
    CUDA_CHECK(cudaMalloc(&d_values, in.nreq * sizeof(uint64_t)));
    CUDA_CHECK(cudaMalloc(&d_hits, in.nreq * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_items, in.items, items_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_table, in.table, table_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_reqs, in.reqs, reqs_bytes, cudaMemcpyHostToDevice));
    int blocks = (int)((in.nreq + MEMC_BLOCK - 1) / MEMC_BLOCK);
    memc_get<<<blocks, MEMC_BLOCK>>>(d_reqs, (int)in.nreq, d_table, in.nsets - 1, d_items, d_values, d_hits);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(values, d_values, in.nreq * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hits, d_hits, in.nreq * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    uint32_t bad = in.nreq, nhits = 0;
    for (uint32_t q = 0; q < in.nreq; q++) {
        nhits += want_hits[q];
        if (bad == in.nreq && (hits[q] != want_hits[q] || values[q] != want_values[q])) bad = q;
    }
    if (bad < in.nreq)
        printf("request %u: got hit %u value %llx, expected hit %u value %llx\n", bad, hits[bad],
               (unsigned long long)values[bad], want_hits[bad], (unsigned long long)want_values[bad]);
    printf("%u of %u requests hit\n", nhits, in.nreq);

    CUDA_CHECK(cudaFree(d_items));
    CUDA_CHECK(cudaFree(d_table));
    CUDA_CHECK(cudaFree(d_reqs));
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_hits));
    free(in.items);
    free(in.table);
    free(in.reqs);
    free(values);
    free(want_values);
    free(hits);
    free(want_hits);
    return wl_finish(bad >= in.nreq);
}
