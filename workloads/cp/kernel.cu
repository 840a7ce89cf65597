// cp: Coulombic potential on a 2-D lattice slice by direct summation (the structure
// of the ISPASS-2009 / Parboil CP kernel, written here).
//
// cp_energy: a 16 x 8 CTA covers 128 x 8 lattice points; each thread owns 8 points
// of one row, 16 points apart (so a warp's stores are coalesced), and loops over the
// launch's chunk of atoms in constant memory: every thread of a warp reads the same
// atom (a constant-cache broadcast), computes dy^2 + dz^2 once and then one rsqrt per
// point.  Each launch adds its chunk's potential into the grid.  Compute-bound: a few
// global accesses per thread per launch against 5 instructions per point and atom.
//
// Stand-alone: ./cp [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ float4 c_atoms[CP_CHUNK];  // x, y, dz^2, q

extern "C" __global__ void cp_energy(float *energy, int w, int natoms) {
    const int xi0 = (int)(blockIdx.x * CP_BX * CP_UNROLL + threadIdx.x);
    const int yi = (int)(blockIdx.y * CP_BY + threadIdx.y);
    const float cx = CP_SPACING * (float)xi0, cy = CP_SPACING * (float)yi;
    const float step = CP_SPACING * (float)CP_BX;
    float e[CP_UNROLL];
#pragma unroll
    for (int k = 0; k < (int)CP_UNROLL; k++) e[k] = 0.0f;
    for (int i = 0; i < natoms; i++) {
        const float4 a = c_atoms[i];
        const float dy = cy - a.y;
        const float dyz = fmaf(dy, dy, a.z);
        const float dx0 = cx - a.x;
#pragma unroll
        for (int k = 0; k < (int)CP_UNROLL; k++) {
            const float dx = fmaf((float)k, step, dx0);
            e[k] = fmaf(a.w, rsqrtf(fmaf(dx, dx, dyz)), e[k]);
        }
    }
    float *row = energy + (size_t)yi * w + xi0;
#pragma unroll
    for (int k = 0; k < (int)CP_UNROLL; k++) row[k * CP_BX] += e[k];
}

int main(int argc, char **argv) {
    uint32_t size = 8;  // the evaluation size (wl_cp.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, CP_MAX_SIZE, &size, &seed);

    uint32_t w = CP_WIDTH, h = cp_height(size), natoms = cp_atoms(size);
    size_t points = (size_t)w * h;
    float *atoms = cp_generate(natoms, w, h, seed);
    double *pot = (double *)malloc(points * sizeof(double)), *tol = (double *)malloc(points * sizeof(double));
    float *got = (float *)calloc(points, sizeof(float));
    if (!atoms || !pot || !tol || !got) wl_die("out of host memory");
    cp_reference(atoms, natoms, w, h, pot, tol);

    float *d_energy;
    CUDA_CHECK(cudaMalloc(&d_energy, points * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_energy, got, points * sizeof(float), cudaMemcpyHostToDevice));  // zeros
    dim3 grid(w / (CP_BX * CP_UNROLL), h / CP_BY), block(CP_BX, CP_BY);
    for (uint32_t first = 0; first < natoms; first += CP_CHUNK) {
        uint32_t n = natoms - first < CP_CHUNK ? natoms - first : CP_CHUNK;
        CUDA_CHECK(cudaMemcpyToSymbol(c_atoms, atoms + 4 * (size_t)first, n * 4 * sizeof(float)));
        cp_energy<<<grid, block>>>(d_energy, (int)w, (int)n);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaMemcpy(got, d_energy, points * sizeof(float), cudaMemcpyDeviceToHost));
    int64_t bad = cp_first_bad(got, pot, tol, points);
    if (bad >= 0)
        fprintf(stderr, "point (%lld, %lld): got %.9g, expected %.9g (tolerance %.3g)\n", (long long)(bad % w),
                (long long)(bad / w), got[bad], pot[bad], tol[bad]);
    cudaFree(d_energy);
    free(atoms); free(pot); free(tol); free(got);
    return wl_finish(bad < 0);
}
