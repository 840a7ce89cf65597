// lps: 3-D Laplace solver, Jacobi sweeps of the 7-point stencil (the structure of the
// ISPASS-2009 LPS kernel after Giles' laplace3d, written here).
//
// lps_jacobi: a 32 x 4 CTA owns a 32 x 4 column of the grid and marches up through
// z.  At each plane the CTA stages its 32 x 4 points plus a one-point halo on each
// side in shared memory (the edge threads load the halo), and each thread keeps the
// planes below and above its point in registers.  Boundary points are copied.  The
// halo points are loaded again by the neighbouring CTAs (reuse between CTAs), and the
// plane above is loaded one step before it is staged (reuse within a thread).  One
// launch per sweep, ping-ponging two arrays.
//
// Stand-alone: ./lps [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void lps_jacobi(float *out, const float *in, int nx, int ny, int nz) {
    __shared__ float tile[LPS_BY + 2][LPS_BX + 2];
    const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    const int i = (int)(blockIdx.x * LPS_BX) + tx, j = (int)(blockIdx.y * LPS_BY) + ty;
    const size_t plane = (size_t)nx * ny;
    const float *col = in + (size_t)j * nx + i;
    const bool inner = i > 0 && i < nx - 1 && j > 0 && j < ny - 1;
    float below = 0.0f, cur = col[0];
    for (int k = 0; k < nz; k++) {
        const float *p = col + (size_t)k * plane;
        const float above = k + 1 < nz ? p[plane] : 0.0f;
        tile[ty + 1][tx + 1] = cur;
        if (tx == 0) tile[ty + 1][0] = i > 0 ? p[-1] : 0.0f;
        if (tx == (int)LPS_BX - 1) tile[ty + 1][LPS_BX + 1] = i < nx - 1 ? p[1] : 0.0f;
        if (ty == 0) tile[0][tx + 1] = j > 0 ? p[-nx] : 0.0f;
        if (ty == (int)LPS_BY - 1) tile[LPS_BY + 1][tx + 1] = j < ny - 1 ? p[nx] : 0.0f;
        __syncthreads();
        float v = cur;
        if (inner && k > 0 && k < nz - 1) {
            float s = tile[ty + 1][tx] + tile[ty + 1][tx + 2];
            s = s + tile[ty][tx + 1];
            s = s + tile[ty + 2][tx + 1];
            s = s + below;
            s = s + above;
            v = s * LPS_SIXTH;
        }
        out[(size_t)k * plane + (size_t)j * nx + i] = v;
        __syncthreads();  // the tile is rewritten for the next plane
        below = cur;
        cur = above;
    }
}

int main(int argc, char **argv) {
    uint32_t size = 8;  // the evaluation size (wl_lps.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, LPS_MAX_SIZE, &size, &seed);

    uint32_t nx = LPS_NX, ny = lps_ny(size), nz = LPS_NZ;
    size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);
    float *u = lps_generate(nx, ny, nz, seed);
    float *tmp = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!u || !tmp || !got) wl_die("out of host memory");

    float *d_a, *d_b;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, u, bytes, cudaMemcpyHostToDevice));
    dim3 grid(nx / LPS_BX, ny / LPS_BY), block(LPS_BX, LPS_BY);
    for (int it = 0; it < LPS_ITERS; it++) {
        lps_jacobi<<<grid, block>>>(d_b, d_a, (int)nx, (int)ny, (int)nz);
        CUDA_CHECK(cudaGetLastError());
        float *t = d_a;
        d_a = d_b;
        d_b = t;
    }
    CUDA_CHECK(cudaMemcpy(got, d_a, bytes, cudaMemcpyDeviceToHost));
    const float *want = lps_reference(u, tmp, nx, ny, nz);
    int ok = 1;
    for (size_t p = 0; p < n && ok; p++)
        if (memcmp(&got[p], &want[p], sizeof(float)) != 0) {
            fprintf(stderr, "point (%zu, %zu, %zu): got %.9g, expected %.9g\n", p % nx, p / nx % ny,
                    p / ((size_t)nx * ny), got[p], want[p]);
            ok = 0;
        }
    cudaFree(d_a); cudaFree(d_b);
    free(u); free(tmp); free(got);
    return wl_finish(ok);
}
