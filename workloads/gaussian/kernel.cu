// gaussian: Gaussian elimination without pivoting, one launch pair per pivot (the
// structure of Rodinia's gaussian, written here).
//
// ge_fan1: one thread per row below pivot t computes its multiplier.
// ge_fan2: a 2-D grid over the whole matrix, every pivot; a thread whose element is
// outside the trailing (N-1-t) x (N-t) block returns at once.  As t grows, more and
// more of each launch's threads do nothing: the divergent, shrinking work the
// sharing-aware paper shows (its Fig. 7).  Every CTA re-reads the pivot row and its
// rows' multipliers: data shared across CTAs.  Unlike Rodinia (4 x 4 CTAs, x down a
// column) x runs along a row here, so a warp's accesses are coalesced.
//
// Stand-alone: ./gaussian [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void ge_fan1(float *m, const float *a, int n, int t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t) return;
    int row = i + 1 + t;
    m[(size_t)row * n + t] = a[(size_t)row * n + t] / a[(size_t)t * n + t];
}

extern "C" __global__ void ge_fan2(const float *m, float *a, float *b, int n, int t) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;  // column offset from t
    int r = blockIdx.y * blockDim.y + threadIdx.y;    // row offset from t + 1
    if (r >= n - 1 - t) return;
    if (col >= n - t) return;
    int row = r + 1 + t;
    float mi = m[(size_t)row * n + t];
    a[(size_t)row * n + col + t] = fmaf(-mi, a[(size_t)t * n + col + t], a[(size_t)row * n + col + t]);
    if (col == 0) b[row] = fmaf(-mi, b[t], b[row]);
}

int main(int argc, char **argv) {
    uint32_t size = 7;  // the evaluation size (wl_gaussian.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, GE_MAX_SIZE, &size, &seed);

    uint32_t n = ge_order(size);
    size_t mbytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    float *a, *b;
    if (!ge_generate(n, seed, &a, &b)) wl_die("out of host memory");
    float *ra = (float *)malloc(mbytes), *rb = (float *)malloc(vbytes), *rm = (float *)calloc((size_t)n * n, 4);
    float *got = (float *)malloc(mbytes);
    if (!ra || !rb || !rm || !got) wl_die("out of host memory");
    memcpy(ra, a, mbytes);
    memcpy(rb, b, vbytes);
    ge_reference(ra, rb, rm, n);

    float *d_a, *d_b, *d_m;
    CUDA_CHECK(cudaMalloc(&d_a, mbytes));
    CUDA_CHECK(cudaMalloc(&d_b, vbytes));
    CUDA_CHECK(cudaMalloc(&d_m, mbytes));
    CUDA_CHECK(cudaMemcpy(d_a, a, mbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, vbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_m, 0, mbytes));
    dim3 grid1((n + GE_FAN1_THREADS - 1) / GE_FAN1_THREADS), block1(GE_FAN1_THREADS);
    dim3 grid2(n / GE_TILE, n / GE_TILE), block2(GE_TILE, GE_TILE);
    for (int t = 0; t + 1 < (int)n; t++) {
        ge_fan1<<<grid1, block1>>>(d_m, d_a, (int)n, t);
        CUDA_CHECK(cudaGetLastError());
        ge_fan2<<<grid2, block2>>>(d_m, d_a, d_b, (int)n, t);
        CUDA_CHECK(cudaGetLastError());
    }

    int ok = 1;
    const char *names[3] = { "matrix", "multipliers", "right-hand side" };
    const float *want[3] = { ra, rm, rb };
    float *dev[3] = { d_a, d_m, d_b };
    size_t count[3] = { (size_t)n * n, (size_t)n * n, n };
    for (int p = 0; p < 3 && ok; p++) {
        CUDA_CHECK(cudaMemcpy(got, dev[p], count[p] * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < count[p]; i++)
            if (memcmp(&got[i], &want[p][i], sizeof(float)) != 0) {
                fprintf(stderr, "%s: element %zu (row %zu): got %.9g, expected %.9g\n", names[p], i, i / n, got[i],
                        want[p][i]);
                ok = 0;
                break;
            }
    }
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_m);
    free(a); free(b); free(ra); free(rb); free(rm); free(got);
    return wl_finish(ok);
}
