/* lavamd: particle interactions over a cube of boxes, lavaMD style.
 *
 * One block per home box, one thread per home particle.  For each neighbour box
 * (the home box first) the block stages that box's particles in shared memory;
 * each thread first scans them and records in a per-thread candidate list the
 * ones within the cutoff radius (a small Verlet-style neighbour list), then
 * evaluates the interaction only for those.  The list is indexed by a running
 * count, so nvcc places it in local memory: ld.local/st.local traffic that
 * goes through the L1 like global data.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void lavamd_forces(const float4 *__restrict__ particles, const int *__restrict__ nbr_count,
                                         const int *__restrict__ nbr_list, float4 *__restrict__ forces, float a2,
                                         float cutoff2) {
    __shared__ float4 other[LAVAMD_PAR];
    int box = blockIdx.x, tid = threadIdx.x;
    bool active = tid < LAVAMD_PAR;
    float4 me = active ? particles[box * LAVAMD_PAR + tid] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float fv = 0.0f, fx = 0.0f, fy = 0.0f, fz = 0.0f;
    int close[LAVAMD_PAR];
    int nboxes = nbr_count[box];

    for (int k = 0; k < nboxes; k++) {
        int nb = nbr_list[box * LAVAMD_MAX_NBRS + k];
        __syncthreads();  /* everyone is done with the previous box */
        if (active) other[tid] = particles[nb * LAVAMD_PAR + tid];
        __syncthreads();
        if (!active) continue;

        int nclose = 0;
        for (int j = 0; j < LAVAMD_PAR; j++) {
            float dx = other[j].x - me.x, dy = other[j].y - me.y, dz = other[j].z - me.z;
            if (dx * dx + dy * dy + dz * dz < cutoff2) close[nclose++] = j;
        }
        for (int c = 0; c < nclose; c++) {
            float4 o = other[close[c]];
            float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
            float r2 = dx * dx + dy * dy + dz * dz;
            float vij = expf(-a2 * r2);
            float fs = 2.0f * vij;
            fv += o.w * vij;
            fx += o.w * (fs * dx);
            fy += o.w * (fs * dy);
            fz += o.w * (fs * dz);
        }
    }
    if (active) forces[box * LAVAMD_PAR + tid] = make_float4(fv, fx, fy, fz);
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = LAVAMD_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, LAVAMD_MAX_SIZE, &size, &seed);
    uint32_t b1 = lavamd_boxes1d(size), nboxes = b1 * b1 * b1, npar = nboxes * LAVAMD_PAR;
    lavamd_particle *p = (lavamd_particle *)malloc(npar * sizeof(lavamd_particle));
    float *got = (float *)malloc(npar * 4 * sizeof(float));
    double *want = (double *)malloc(npar * 4 * sizeof(double)), *tol = (double *)malloc(npar * 4 * sizeof(double));
    int *count = (int *)malloc(nboxes * sizeof(int)), *list = (int *)malloc(nboxes * LAVAMD_MAX_NBRS * sizeof(int));
    if (!p || !got || !want || !tol || !count || !list) wl_die("out of host memory");
    lavamd_gen(b1, seed, p);
    lavamd_neighbours(b1, count, list);
    lavamd_ref(b1, p, count, list, want, tol);

    float4 *d_particles, *d_forces;
    int *d_count, *d_list;
    CUDA_CHECK(cudaMalloc(&d_particles, npar * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_forces, npar * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_count, nboxes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_list, nboxes * LAVAMD_MAX_NBRS * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_particles, p, npar * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_count, count, nboxes * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_list, list, nboxes * LAVAMD_MAX_NBRS * sizeof(int), cudaMemcpyHostToDevice));
    lavamd_forces<<<nboxes, LAVAMD_BLOCK>>>(d_particles, d_count, d_list, d_forces, LAVAMD_A2, LAVAMD_CUTOFF2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_forces, npar * sizeof(float4), cudaMemcpyDeviceToHost));

    uint32_t bad = lavamd_first_mismatch(npar * 4, got, want, tol);
    if (bad < npar * 4)
        printf("mismatch at particle %u component %u: got %.9g, expected %.9g (tolerance %.3g)\n", bad / 4,
               bad % 4, (double)got[bad], want[bad], tol[bad]);

    CUDA_CHECK(cudaFree(d_particles));
    CUDA_CHECK(cudaFree(d_forces));
    CUDA_CHECK(cudaFree(d_count));
    CUDA_CHECK(cudaFree(d_list));
    free(p);
    free(got);
    free(want);
    free(tol);
    free(count);
    free(list);
    return wl_finish(bad >= npar * 4);
}
