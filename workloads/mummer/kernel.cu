// mummer: longest exact matches of short reads in a reference, through its suffix
// array, one thread per read (MUMmerGPU's mapping of reads to threads).
//
// mum_match: for each start position q of its read, the thread binary-searches the
// suffix array for read[q..] (each step compares the read with one suffix of the
// reference, base by base) and keeps the longer match of the two suffixes around
// the insertion point.  The suffix array and reference are read at data-dependent
// places all over megabytes; the thread's own read is re-read at every step.
//
// Stand-alone: ./mummer [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void mum_match(const uint8_t *g, uint32_t n, const uint32_t *sa, const uint8_t *reads,
                                     uint32_t num_reads, uint32_t *len_out, uint32_t *pos_out) {
    const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= num_reads) return;
    const uint8_t *read = reads + (size_t)r * MUM_READ_LEN;
    for (uint32_t q = 0; q < MUM_STARTS; q++) {
        uint32_t pos;
        uint32_t len = mum_search(g, n, sa, read + q, MUM_READ_LEN - q, &pos);
        len_out[(size_t)r * MUM_STARTS + q] = len;
        pos_out[(size_t)r * MUM_STARTS + q] = pos;
    }
}

int main(int argc, char **argv) {
    uint32_t size = 24;  // the evaluation size (wl_mummer.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, MUM_MAX_SIZE, &size, &seed);

    uint32_t n = mum_ref_len(size), nr = mum_num_reads(size);
    size_t outs = (size_t)nr * MUM_STARTS;
    uint8_t *g, *reads;
    if (!mum_generate(n, nr, seed, &g, &reads)) wl_die("out of host memory");
    uint32_t *sa = mum_suffix_array(g, n);
    uint32_t *len = (uint32_t *)malloc(outs * sizeof(uint32_t)), *pos = (uint32_t *)malloc(outs * sizeof(uint32_t));
    if (!sa || !len || !pos) wl_die("out of host memory");

    uint8_t *d_g, *d_reads;
    uint32_t *d_sa, *d_len, *d_pos;
    CUDA_CHECK(cudaMalloc(&d_g, n));
    CUDA_CHECK(cudaMalloc(&d_sa, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_reads, (size_t)nr * MUM_READ_LEN));
    CUDA_CHECK(cudaMalloc(&d_len, outs * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_pos, outs * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_g, g, n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_sa, sa, n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_reads, reads, (size_t)nr * MUM_READ_LEN, cudaMemcpyHostToDevice));
    mum_match<<<(nr + MUM_BLOCK - 1) / MUM_BLOCK, MUM_BLOCK>>>(d_g, n, d_sa, d_reads, nr, d_len, d_pos);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(len, d_len, outs * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(pos, d_pos, outs * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int ok = 1;
    for (size_t i = 0; i < outs && ok; i++) {
        uint32_t r = (uint32_t)(i / MUM_STARTS), q = (uint32_t)(i % MUM_STARTS), want_pos;
        const uint8_t *p = reads + (size_t)r * MUM_READ_LEN + q;
        uint32_t want = mum_search(g, n, sa, p, MUM_READ_LEN - q, &want_pos);
        if (len[i] != want || pos[i] != want_pos) {
            fprintf(stderr, "read %u, start %u: got a match of %u at %u, expected %u at %u\n", r, q, len[i], pos[i],
                    want, want_pos);
            ok = 0;
        }
    }
    cudaFree(d_g); cudaFree(d_sa); cudaFree(d_reads); cudaFree(d_len); cudaFree(d_pos);
    free(g); free(reads); free(sa); free(len); free(pos);
    return wl_finish(ok);
}
