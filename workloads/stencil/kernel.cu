// stencil: WRF-like "weather prediction" tracer transport on a 3-D grid.
//
// Each time step advects a tracer q with the wind (first-order upwind, so the
// branch taken depends on the local wind direction), diffuses it horizontally
// (5-point Laplacian) and vertically (4th-order hyperdiffusion over k-2..k+2).
// The host runs WP_STEPS steps, ping-ponging two buffers.
//
// Work decomposition, as in WRF-style GPU dynamics codes: a CTA owns a 32x4 tile of
// vertical columns and marches up the levels.  At each level the tile's plane of q,
// plus a one-point halo, is staged in shared memory (the x/y neighbours are shared by
// adjacent threads); the vertical neighbours k-2..k+2 and the wind are read straight
// from global memory: they were touched by the same thread a few levels ago, so they
// hit in L1 only if the cache holds several planes of every resident warp.
//
// Stand-alone: ./stencil [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void wp_transport_step(const float *__restrict__ q, float *__restrict__ q_next,
                                             const float *__restrict__ u, const float *__restrict__ v,
                                             const float *__restrict__ w, int nx, int ny, int nz,
                                             float cx, float cy, float cz, float kh, float kv) {
    __shared__ float plane[WP_TILE_Y + 2][WP_TILE_X + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.x * WP_TILE_X + tx;
    int j = blockIdx.y * WP_TILE_Y + ty;
    // Threads of a ragged edge tile that fall outside the grid still stage (clamped)
    // values and reach every barrier; they just do not compute or store.
    bool inside = i < nx && j < ny;
    int ic = min(i, nx - 1), jc = min(j, ny - 1);
    int im = max(ic - 1, 0), ip = min(i + 1, nx - 1);
    int jm = max(jc - 1, 0), jp = min(j + 1, ny - 1);
    size_t plane_size = (size_t)nx * ny;
    size_t col = (size_t)jc * nx + ic;

    for (int k = 0; k < nz; k++) {
        const float *qk = q + (size_t)k * plane_size;
        plane[ty + 1][tx + 1] = qk[col];
        if (tx == 0) plane[ty + 1][0] = qk[(size_t)jc * nx + im];
        if (tx == WP_TILE_X - 1) plane[ty + 1][WP_TILE_X + 1] = qk[(size_t)jc * nx + ip];
        if (ty == 0) plane[0][tx + 1] = qk[(size_t)jm * nx + ic];
        if (ty == WP_TILE_Y - 1) plane[WP_TILE_Y + 1][tx + 1] = qk[(size_t)jp * nx + ic];
        __syncthreads();

        if (inside) {
            float c = plane[ty + 1][tx + 1];
            float xm = plane[ty + 1][tx], xp = plane[ty + 1][tx + 2];
            float ym = plane[ty][tx + 1], yp = plane[ty + 2][tx + 1];
            float zm = q[(size_t)max(k - 1, 0) * plane_size + col];
            float zp = q[(size_t)min(k + 1, nz - 1) * plane_size + col];
            float zm2 = q[(size_t)max(k - 2, 0) * plane_size + col];
            float zp2 = q[(size_t)min(k + 2, nz - 1) * plane_size + col];
            size_t at = (size_t)k * plane_size + col;
            float uu = u[at], vv = v[at], ww = w[at];
            float adv = cx * (uu > 0.0f ? uu * (c - xm) : uu * (xp - c)) +
                        cy * (vv > 0.0f ? vv * (c - ym) : vv * (yp - c)) +
                        cz * (ww > 0.0f ? ww * (c - zm) : ww * (zp - c));
            float hdiff = kh * (xm + xp + ym + yp - 4.0f * c);
            float vdiff = kv * (zm2 - 4.0f * zm + 6.0f * c - 4.0f * zp + zp2);
            q_next[at] = c - adv + hdiff - vdiff;
        }
        // The next level overwrites the plane: wait until everyone has read it.
        __syncthreads();
    }
}

int main(int argc, char **argv) {
    uint32_t size = WP_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WP_MAX_SIZE, &size, &seed);

    wp_input in;
    if (wp_generate(&in, size, seed) != 0) wl_die("out of host memory");
    size_t n = wp_points(&in);
    size_t bytes = n * sizeof(float);
    float *result = (float *)malloc(bytes);
    float *expected = (float *)malloc(bytes);
    if (!result || !expected || wp_reference(&in, expected) != 0) wl_die("out of host memory");

    float *d_q[2], *d_u, *d_v, *d_w;
    CUDA_CHECK(cudaMalloc(&d_q[0], bytes));
    CUDA_CHECK(cudaMalloc(&d_q[1], bytes));
    CUDA_CHECK(cudaMalloc(&d_u, bytes));
    CUDA_CHECK(cudaMalloc(&d_v, bytes));
    CUDA_CHECK(cudaMalloc(&d_w, bytes));
    CUDA_CHECK(cudaMemcpy(d_q[0], in.q, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_u, in.u, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, in.v, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_w, in.w, bytes, cudaMemcpyHostToDevice));

    dim3 block(WP_TILE_X, WP_TILE_Y);
    dim3 grid((in.nx + WP_TILE_X - 1) / WP_TILE_X, (in.ny + WP_TILE_Y - 1) / WP_TILE_Y);
    for (int s = 0; s < WP_STEPS; s++) {
        wp_transport_step<<<grid, block>>>(d_q[s % 2], d_q[(s + 1) % 2], d_u, d_v, d_w, in.nx, in.ny, in.nz,
                                           WP_CX, WP_CY, WP_CZ, WP_KH, WP_KV);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(result, d_q[WP_STEPS % 2], bytes, cudaMemcpyDeviceToHost));

    size_t bad = wp_first_mismatch(n, result, expected);
    if (bad < n) fprintf(stderr, "q[%zu]: got %.9g, expected %.9g\n", bad, result[bad], expected[bad]);
    cudaFree(d_q[0]); cudaFree(d_q[1]); cudaFree(d_u); cudaFree(d_v); cudaFree(d_w);
    free(result); free(expected);
    wp_free(&in);
    return wl_finish(bad == n);
}
