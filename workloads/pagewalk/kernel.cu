/* pagewalk: each warp walks its own region one 128 B line per load (ref.h).
 *
 * The kernel is the device code locsim simulates (kernel.ptx is generated from
 * this file).  main() below is an ordinary CUDA program doing the same run, for
 * running unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

/* Lane l of warp w reads word l of each line of w's region in turn: one
 * coalesced 128 B line per load, lines in address order. */
extern "C" __global__ void pagewalk(const unsigned *__restrict__ in, unsigned *__restrict__ out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned warp = tid / 32u, lane = tid % 32u;
    const unsigned *p = in + (size_t)warp * PAGEWALK_LINES * PAGEWALK_WORDS_PER_LINE + lane;
    unsigned s = 0;
    for (unsigned i = 0; i < PAGEWALK_LINES; i++) s = s * 31u + p[(size_t)i * PAGEWALK_WORDS_PER_LINE];
    out[tid] = s;
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = PAGEWALK_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, PAGEWALK_MAX_SIZE, &size, &seed);
    uint32_t warps = pagewalk_warps(size), nout = warps * 32u;
    size_t n = pagewalk_words(size);
    uint32_t *in = (uint32_t *)malloc(n * sizeof *in);
    uint32_t *got = (uint32_t *)malloc(nout * sizeof *got), *want = (uint32_t *)malloc(nout * sizeof *want);
    if (!in || !got || !want) wl_die("out of host memory");
    pagewalk_gen(n, seed, in);
    pagewalk_ref(warps, in, want);

    unsigned *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof *in));
    CUDA_CHECK(cudaMalloc(&dout, nout * sizeof *got));
    CUDA_CHECK(cudaMemcpy(din, in, n * sizeof *in, cudaMemcpyHostToDevice));
    pagewalk<<<nout / PAGEWALK_BLOCK, PAGEWALK_BLOCK>>>(din, dout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, dout, nout * sizeof *got, cudaMemcpyDeviceToHost));

    uint32_t bad = pagewalk_first_mismatch(nout, got, want);
    if (bad < nout) printf("mismatch at out[%u]: got %u, expected %u\n", bad, got[bad], want[bad]);

    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dout));
    free(in);
    free(got);
    free(want);
    return wl_finish(bad >= nout);
}
