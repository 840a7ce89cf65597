// storehash: StoreGPU-style MD5 of fixed-size chunks, one thread per chunk.
//
// sh_hash walks its 1 KB chunk as 16 MD5 blocks of 16 little-endian words, then
// the padding block (a chunk is a whole number of blocks, so that block holds only
// the 0x80 marker and the length in bits).  Neighbouring threads read addresses a
// chunk apart, so every warp-wide load touches 32 lines, and a thread comes back
// to the same 128-byte line for 32 consecutive word loads.
//
// Stand-alone: ./storehash [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void sh_hash(const uint32_t *buf, uint32_t *digests, int chunks) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= chunks) return;
    const uint32_t *words = buf + (size_t)c * (SH_CHUNK / 4);
    uint32_t h[4], m[16];
    md5_init(h);
    for (int b = 0; b < (int)(SH_CHUNK / 64); b++) {
#pragma unroll
        for (int i = 0; i < 16; i++) m[i] = words[b * 16 + i];
        md5_block(h, m);
    }
#pragma unroll
    for (int i = 0; i < 16; i++) m[i] = 0;
    m[0] = 0x80u;                 // the marker byte right after the data
    m[14] = SH_CHUNK * 8u;        // length in bits, low word (the high word m[15] is 0)
    md5_block(h, m);
#pragma unroll
    for (int i = 0; i < 4; i++) digests[(size_t)c * 4 + i] = h[i];
}

int main(int argc, char **argv) {
    uint32_t size = 48;  // the evaluation size (wl_storehash.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, SH_MAX_SIZE, &size, &seed);
    const char *bad = md5_self_test();
    if (bad) wl_die("the CPU MD5 fails RFC 1321's test vector \"%s\"", bad);

    uint32_t chunks = sh_num_chunks(size);
    size_t bytes = (size_t)chunks * SH_CHUNK, digest_bytes = (size_t)chunks * 4 * sizeof(uint32_t);
    uint8_t *buf = sh_generate(chunks, seed);
    uint32_t *got = (uint32_t *)malloc(digest_bytes);
    if (!buf || !got) wl_die("out of host memory");

    uint32_t *d_buf, *d_digests;
    CUDA_CHECK(cudaMalloc(&d_buf, bytes));
    CUDA_CHECK(cudaMalloc(&d_digests, digest_bytes));
    CUDA_CHECK(cudaMemcpy(d_buf, buf, bytes, cudaMemcpyHostToDevice));
    sh_hash<<<(chunks + SH_BLOCK - 1) / SH_BLOCK, SH_BLOCK>>>(d_buf, d_digests, (int)chunks);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_digests, digest_bytes, cudaMemcpyDeviceToHost));

    int ok = 1;
    for (uint32_t c = 0; c < chunks && ok; c++) {
        uint32_t want[4];
        md5(buf + (size_t)c * SH_CHUNK, SH_CHUNK, want);
        if (memcmp(want, &got[(size_t)c * 4], sizeof want) != 0) {
            char hex_got[33], hex_want[33];
            md5_hex(&got[(size_t)c * 4], hex_got);
            md5_hex(want, hex_want);
            fprintf(stderr, "chunk %u: got %s, expected %s\n", c, hex_got, hex_want);
            ok = 0;
        }
    }
    cudaFree(d_buf); cudaFree(d_digests);
    free(buf); free(got);
    return wl_finish(ok);
}
