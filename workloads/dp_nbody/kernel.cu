/* dp_nbody: all-pairs gravitational n-body step in double precision.
 *
 * nbody_accel is the classic shared-memory tiled all-pairs kernel: each thread
 * owns one body; the block stages NBODY_TILE bodies at a time in shared memory
 * (one per thread, coalesced), and every thread accumulates their pull on its
 * body before the next tile is loaded.  nbody_integrate then advances velocities
 * and positions (symplectic Euler).  The host runs NBODY_STEPS steps.
 *
 * main() below is an ordinary CUDA program doing the same run, for running
 * unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void nbody_accel(int n, const double *__restrict__ x, const double *__restrict__ y,
                                       const double *__restrict__ z, const double *__restrict__ m,
                                       double *__restrict__ ax, double *__restrict__ ay,
                                       double *__restrict__ az, double eps2) {
    __shared__ double tile_x[NBODY_TILE], tile_y[NBODY_TILE], tile_z[NBODY_TILE], tile_m[NBODY_TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    /* Threads past the end still help load tiles; they just store nothing. */
    double xi = i < n ? x[i] : 0.0, yi = i < n ? y[i] : 0.0, zi = i < n ? z[i] : 0.0;
    double sx = 0.0, sy = 0.0, sz = 0.0;

    for (int base = 0; base < n; base += NBODY_TILE) {
        int j = base + threadIdx.x;
        tile_x[threadIdx.x] = j < n ? x[j] : 0.0;
        tile_y[threadIdx.x] = j < n ? y[j] : 0.0;
        tile_z[threadIdx.x] = j < n ? z[j] : 0.0;
        tile_m[threadIdx.x] = j < n ? m[j] : 0.0;
        __syncthreads();
        int count = min(NBODY_TILE, n - base);
        for (int k = 0; k < count; k++) {
            double dx = tile_x[k] - xi, dy = tile_y[k] - yi, dz = tile_z[k] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + eps2;
            double inv_r = rsqrt(r2);
            double f = tile_m[k] * inv_r * inv_r * inv_r;
            sx += dx * f;
            sy += dy * f;
            sz += dz * f;
        }
        __syncthreads();
    }
    if (i < n) {
        ax[i] = sx;
        ay[i] = sy;
        az[i] = sz;
    }
}

extern "C" __global__ void nbody_integrate(int n, double *x, double *y, double *z, double *vx, double *vy,
                                           double *vz, const double *ax, const double *ay,
                                           const double *az, double dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double nvx = vx[i] + ax[i] * dt, nvy = vy[i] + ay[i] * dt, nvz = vz[i] + az[i] * dt;
    vx[i] = nvx;
    vy[i] = nvy;
    vz[i] = nvz;
    x[i] += nvx * dt;
    y[i] += nvy * dt;
    z[i] += nvz * dt;
}

/* ---- stand-alone host program ---- */

enum { X, Y, Z, M, VX, VY, VZ, AX, AY, AZ, NARRAYS };

int main(int argc, char **argv) {
    uint32_t size = NBODY_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, NBODY_MAX_SIZE, &size, &seed);
    uint32_t n = nbody_n(size);
    size_t bytes = (size_t)n * sizeof(double);
    double *h[NARRAYS];
    for (int a = 0; a < NARRAYS; a++) {
        h[a] = (double *)malloc(bytes);
        if (!h[a]) wl_die("out of host memory");
    }
    /* Two states from the same seed: one for the device, one the reference advances. */
    nbody_state dev_in, want;
    dev_in.n = want.n = n;
    dev_in.x = h[X]; dev_in.y = h[Y]; dev_in.z = h[Z]; dev_in.m = h[M];
    dev_in.vx = h[VX]; dev_in.vy = h[VY]; dev_in.vz = h[VZ];
    double *w[7];
    for (int a = 0; a < 7; a++) {
        w[a] = (double *)malloc(bytes);
        if (!w[a]) wl_die("out of host memory");
    }
    want.x = w[0]; want.y = w[1]; want.z = w[2]; want.m = w[3];
    want.vx = w[4]; want.vy = w[5]; want.vz = w[6];
    nbody_gen(&dev_in, seed);
    nbody_gen(&want, seed);
    nbody_ref(&want, h[AX], h[AY], h[AZ]);

    double *d[NARRAYS];
    for (int a = 0; a < NARRAYS; a++) CUDA_CHECK(cudaMalloc(&d[a], bytes));
    for (int a = X; a <= VZ; a++) CUDA_CHECK(cudaMemcpy(d[a], h[a], bytes, cudaMemcpyHostToDevice));
    int blocks = (int)((n + NBODY_TILE - 1) / NBODY_TILE);
    for (int step = 0; step < NBODY_STEPS; step++) {
        nbody_accel<<<blocks, NBODY_TILE>>>((int)n, d[X], d[Y], d[Z], d[M], d[AX], d[AY], d[AZ], NBODY_EPS2);
        CUDA_CHECK(cudaGetLastError());
        nbody_integrate<<<blocks, NBODY_TILE>>>((int)n, d[X], d[Y], d[Z], d[VX], d[VY], d[VZ], d[AX], d[AY],
                                                d[AZ], NBODY_DT);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int a = X; a <= VZ; a++) CUDA_CHECK(cudaMemcpy(h[a], d[a], bytes, cudaMemcpyDeviceToHost));

    /* Compare x, y, z, vx, vy, vz (the masses do not change). */
    const int cmp[6] = {X, Y, Z, VX, VY, VZ};
    const double *ref[6] = {want.x, want.y, want.z, want.vx, want.vy, want.vz};
    int ok = 1;
    for (int c = 0; c < 6 && ok; c++) {
        for (uint32_t i = 0; i < n; i++) {
            if (!nbody_close(h[cmp[c]][i], ref[c][i])) {
                printf("mismatch in array %d at body %u: got %.17g, expected %.17g\n", c, i, h[cmp[c]][i],
                       ref[c][i]);
                ok = 0;
                break;
            }
        }
    }

    for (int a = 0; a < NARRAYS; a++) {
        CUDA_CHECK(cudaFree(d[a]));
        free(h[a]);
    }
    for (int a = 0; a < 7; a++) free(w[a]);
    return wl_finish(ok);
}
