// lib: LIBOR market model Monte Carlo, one path per thread (the structure of the
// ISPASS-2009 LIB kernel after Giles' code, written here).
//
// lib_portfolio: each thread copies its path's Gaussian increments into a per-thread
// array, evolves its forward rates in place (lib_path_calc), then values the swaption
// portfolio (lib_portfolio_value) with two more per-thread arrays.  The arrays are
// indexed by loop counters whose bounds come from constant memory, so, as in the
// original, they live in local memory: most of the kernel's memory traffic is
// per-thread local loads and stores (L1-resident when it fits), with the model's
// parameters read from constant memory and __expf / __fdividef on the SFU.
//
// Stand-alone: ./lib [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ int c_n, c_nmat, c_nopt;
__constant__ int c_maturities[LIB_NOPT];
__constant__ float c_delta, c_swaprates[LIB_NOPT], c_lambda[LIB_N];

__device__ void lib_path_calc(float *L, const float *z) {
    for (int n = 0; n < c_nmat; n++) {
        const float sqez = sqrtf(c_delta) * z[n];
        float v = 0.0f;
        for (int i = n + 1; i < c_n; i++) {
            const float lam = c_lambda[i - n - 1], con1 = c_delta * lam;
            v += __fdividef(con1 * L[i], 1.0f + c_delta * L[i]);
            L[i] = L[i] * __expf(con1 * v + lam * (sqez - 0.5f * con1));
        }
    }
}

__device__ float lib_portfolio_value(const float *L) {
    float B[LIB_N], S[LIB_N];
    float b = 1.0f, s = 0.0f, value = 0.0f;
    for (int n = c_nmat; n < c_n; n++) {
        b = b / (1.0f + c_delta * L[n]);
        s = s + c_delta * b;
        B[n - c_nmat] = b;
        S[n - c_nmat] = s;
    }
    for (int k = 0; k < c_nopt; k++) {
        const int j = c_maturities[k] - 1;
        const float swapval = B[j] + c_swaprates[k] * S[j] - 1.0f;
        if (swapval < 0.0f) value += -100.0f * swapval;
    }
    for (int n = 0; n < c_nmat; n++) value = value / (1.0f + c_delta * L[n]);
    return value;
}

extern "C" __global__ void lib_portfolio(float *values, const float *z, const float *l0, int paths) {
    const int path = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (path >= paths) return;
    float L[LIB_N], zp[LIB_NMAT];
    for (int i = 0; i < c_n; i++) L[i] = l0[i];
    for (int n = 0; n < c_nmat; n++) zp[n] = z[(size_t)n * paths + path];
    lib_path_calc(L, zp);
    values[path] = lib_portfolio_value(L);
}

int main(int argc, char **argv) {
    uint32_t size = 16;  // the evaluation size (wl_lib.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, LIB_MAX_SIZE, &size, &seed);

    uint32_t paths = lib_paths(size);
    lib_market m;
    float *z = lib_generate(paths, seed, &m);
    float *got = (float *)malloc(paths * sizeof(float));
    if (!z || !got) wl_die("out of host memory");

    float *d_values, *d_z, *d_l0;
    CUDA_CHECK(cudaMalloc(&d_values, paths * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_z, (size_t)paths * LIB_NMAT * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_l0, sizeof m.l0));
    CUDA_CHECK(cudaMemcpy(d_z, z, (size_t)paths * LIB_NMAT * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_l0, m.l0, sizeof m.l0, cudaMemcpyHostToDevice));
    const int n = LIB_N, nmat = LIB_NMAT, nopt = LIB_NOPT;
    const float delta = LIB_DELTA;
    CUDA_CHECK(cudaMemcpyToSymbol(c_n, &n, sizeof n));
    CUDA_CHECK(cudaMemcpyToSymbol(c_nmat, &nmat, sizeof nmat));
    CUDA_CHECK(cudaMemcpyToSymbol(c_nopt, &nopt, sizeof nopt));
    CUDA_CHECK(cudaMemcpyToSymbol(c_delta, &delta, sizeof delta));
    CUDA_CHECK(cudaMemcpyToSymbol(c_maturities, m.maturities, sizeof m.maturities));
    CUDA_CHECK(cudaMemcpyToSymbol(c_swaprates, m.swaprates, sizeof m.swaprates));
    CUDA_CHECK(cudaMemcpyToSymbol(c_lambda, m.lambda, sizeof m.lambda));
    lib_portfolio<<<(paths + LIB_BLOCK - 1) / LIB_BLOCK, LIB_BLOCK>>>(d_values, d_z, d_l0, (int)paths);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_values, paths * sizeof(float), cudaMemcpyDeviceToHost));

    double want = 0.0;
    int64_t bad = lib_first_bad(&m, z, paths, got, &want);
    if (bad >= 0)
        fprintf(stderr, "path %lld: got %.9g, expected %.9g (tolerance %g)\n", (long long)bad, got[bad], want,
                LIB_TOL);
    cudaFree(d_values); cudaFree(d_z); cudaFree(d_l0);
    free(z); free(got);
    return wl_finish(bad < 0);
}
