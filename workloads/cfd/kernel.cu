// cfd: one finite-volume Euler solver on an unstructured mesh (Rodinia-cfd-like).
//
// Per iteration the host saves the variables, launches cfd_step_factor (local time
// step from the cell size and the fastest wave speed), then CFD_RK Runge-Kutta
// stages of cfd_compute_flux + cfd_time_step.  cfd_compute_flux is the heavy one:
// a thread per cell gathers its four neighbours' five variables through the
// neighbour index array (scattered loads), recomputes their velocity, pressure and
// speed of sound (div, sqrt), and sums the central fluxes plus artificial viscosity
// over the faces; wall faces add pressure only, far-field faces use the free-stream
// state held in __constant__ memory.
//
// Stand-alone: ./cfd [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ float cfd_ff_flux[CFD_NVAR][3];   // far-field flux contribution of each variable

__device__ inline float3 load_momentum(const float *variables, int n, int i) {
    return make_float3(variables[(CFD_MOMENTUM + 0) * n + i], variables[(CFD_MOMENTUM + 1) * n + i],
                       variables[(CFD_MOMENTUM + 2) * n + i]);
}

__device__ inline float3 velocity_of(float density, float3 momentum) {
    return make_float3(momentum.x / density, momentum.y / density, momentum.z / density);
}

__device__ inline float speed_sqd_of(float3 velocity) {
    return velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
}

__device__ inline float pressure_of(float density, float energy, float speed_sqd) {
    return (CFD_GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
}

__device__ inline float sound_of(float density, float pressure) { return sqrtf(CFD_GAMMA * pressure / density); }

// Flux contributions of the momentum components and of the energy (one 3-vector each);
// the density's flux contribution is the momentum itself.
__device__ inline void flux_contributions(float3 momentum, float energy, float pressure, float3 velocity,
                                          float3 &fc_mx, float3 &fc_my, float3 &fc_mz, float3 &fc_energy) {
    fc_mx = make_float3(momentum.x * velocity.x + pressure, momentum.x * velocity.y, momentum.x * velocity.z);
    fc_my = make_float3(momentum.y * velocity.x, momentum.y * velocity.y + pressure, momentum.y * velocity.z);
    fc_mz = make_float3(momentum.z * velocity.x, momentum.z * velocity.y, momentum.z * velocity.z + pressure);
    float ep = energy + pressure;
    fc_energy = make_float3(velocity.x * ep, velocity.y * ep, velocity.z * ep);
}

extern "C" __global__ void cfd_step_factor(int n, const float *__restrict__ variables,
                                           const float *__restrict__ areas, float *__restrict__ step_factors) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float density = variables[CFD_DENSITY * n + i];
    float3 velocity = velocity_of(density, load_momentum(variables, n, i));
    float speed_sqd = speed_sqd_of(velocity);
    float pressure = pressure_of(density, variables[CFD_ENERGY * n + i], speed_sqd);
    step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + sound_of(density, pressure)));
}

extern "C" __global__ void cfd_compute_flux(int n, const int *__restrict__ neighbours,
                                            const float *__restrict__ normals, const float *__restrict__ variables,
                                            float *__restrict__ fluxes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float density_i = variables[CFD_DENSITY * n + i];
    float3 momentum_i = load_momentum(variables, n, i);
    float energy_i = variables[CFD_ENERGY * n + i];
    float3 velocity_i = velocity_of(density_i, momentum_i);
    float speed_sqd_i = speed_sqd_of(velocity_i);
    float speed_i = sqrtf(speed_sqd_i);
    float pressure_i = pressure_of(density_i, energy_i, speed_sqd_i);
    float sound_i = sound_of(density_i, pressure_i);
    float3 fc_i_mx, fc_i_my, fc_i_mz, fc_i_energy;
    flux_contributions(momentum_i, energy_i, pressure_i, velocity_i, fc_i_mx, fc_i_my, fc_i_mz, fc_i_energy);

    float flux_density = 0.0f, flux_energy = 0.0f;
    float3 flux_momentum = make_float3(0.0f, 0.0f, 0.0f);
    for (int f = 0; f < CFD_FACES; f++) {
        int nb = neighbours[f * n + i];
        float3 normal = make_float3(normals[(f * 3 + 0) * n + i], normals[(f * 3 + 1) * n + i],
                                    normals[(f * 3 + 2) * n + i]);
        if (nb >= 0) {
            float density_nb = variables[CFD_DENSITY * n + nb];
            float3 momentum_nb = load_momentum(variables, n, nb);
            float energy_nb = variables[CFD_ENERGY * n + nb];
            float3 velocity_nb = velocity_of(density_nb, momentum_nb);
            float speed_sqd_nb = speed_sqd_of(velocity_nb);
            float pressure_nb = pressure_of(density_nb, energy_nb, speed_sqd_nb);
            float sound_nb = sound_of(density_nb, pressure_nb);
            float3 fc_nb_mx, fc_nb_my, fc_nb_mz, fc_nb_energy;
            flux_contributions(momentum_nb, energy_nb, pressure_nb, velocity_nb, fc_nb_mx, fc_nb_my, fc_nb_mz,
                               fc_nb_energy);

            // Artificial viscosity, scaled by the face area and the local wave speeds.
            float len = sqrtf(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
            float visc = len * CFD_SMOOTHING * 0.5f * (speed_i + sqrtf(speed_sqd_nb) + sound_i + sound_nb);
            flux_density += visc * (density_i - density_nb);
            flux_momentum.x += visc * (momentum_i.x - momentum_nb.x);
            flux_momentum.y += visc * (momentum_i.y - momentum_nb.y);
            flux_momentum.z += visc * (momentum_i.z - momentum_nb.z);
            flux_energy += visc * (energy_i - energy_nb);

            // Central flux through the face, one normal component at a time.
            float half = 0.5f * normal.x;
            flux_density += half * (momentum_i.x + momentum_nb.x);
            flux_momentum.x += half * (fc_i_mx.x + fc_nb_mx.x);
            flux_momentum.y += half * (fc_i_my.x + fc_nb_my.x);
            flux_momentum.z += half * (fc_i_mz.x + fc_nb_mz.x);
            flux_energy += half * (fc_i_energy.x + fc_nb_energy.x);
            half = 0.5f * normal.y;
            flux_density += half * (momentum_i.y + momentum_nb.y);
            flux_momentum.x += half * (fc_i_mx.y + fc_nb_mx.y);
            flux_momentum.y += half * (fc_i_my.y + fc_nb_my.y);
            flux_momentum.z += half * (fc_i_mz.y + fc_nb_mz.y);
            flux_energy += half * (fc_i_energy.y + fc_nb_energy.y);
            half = 0.5f * normal.z;
            flux_density += half * (momentum_i.z + momentum_nb.z);
            flux_momentum.x += half * (fc_i_mx.z + fc_nb_mx.z);
            flux_momentum.y += half * (fc_i_my.z + fc_nb_my.z);
            flux_momentum.z += half * (fc_i_mz.z + fc_nb_mz.z);
            flux_energy += half * (fc_i_energy.z + fc_nb_energy.z);
        } else if (nb == CFD_WALL) {
            flux_momentum.x += normal.x * pressure_i;
            flux_momentum.y += normal.y * pressure_i;
            flux_momentum.z += normal.z * pressure_i;
        } else {  // far field
            float nd[3] = { normal.x, normal.y, normal.z };
            float own[CFD_NVAR][3] = {
                { momentum_i.x, momentum_i.y, momentum_i.z },
                { fc_i_mx.x, fc_i_mx.y, fc_i_mx.z },
                { fc_i_my.x, fc_i_my.y, fc_i_my.z },
                { fc_i_mz.x, fc_i_mz.y, fc_i_mz.z },
                { fc_i_energy.x, fc_i_energy.y, fc_i_energy.z },
            };
            for (int d = 0; d < 3; d++) {
                float h = 0.5f * nd[d];
                flux_density += h * (own[CFD_DENSITY][d] + cfd_ff_flux[CFD_DENSITY][d]);
                flux_momentum.x += h * (own[CFD_MOMENTUM + 0][d] + cfd_ff_flux[CFD_MOMENTUM + 0][d]);
                flux_momentum.y += h * (own[CFD_MOMENTUM + 1][d] + cfd_ff_flux[CFD_MOMENTUM + 1][d]);
                flux_momentum.z += h * (own[CFD_MOMENTUM + 2][d] + cfd_ff_flux[CFD_MOMENTUM + 2][d]);
                flux_energy += h * (own[CFD_ENERGY][d] + cfd_ff_flux[CFD_ENERGY][d]);
            }
        }
    }
    fluxes[CFD_DENSITY * n + i] = flux_density;
    fluxes[(CFD_MOMENTUM + 0) * n + i] = flux_momentum.x;
    fluxes[(CFD_MOMENTUM + 1) * n + i] = flux_momentum.y;
    fluxes[(CFD_MOMENTUM + 2) * n + i] = flux_momentum.z;
    fluxes[CFD_ENERGY * n + i] = flux_energy;
}

extern "C" __global__ void cfd_time_step(int stage, int n, const float *__restrict__ old_variables,
                                         float *__restrict__ variables, const float *__restrict__ step_factors,
                                         const float *__restrict__ fluxes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float factor = step_factors[i] / (float)(CFD_RK + 1 - stage);
    for (int v = 0; v < CFD_NVAR; v++) variables[v * n + i] = old_variables[v * n + i] - factor * fluxes[v * n + i];
}

int main(int argc, char **argv) {
    uint32_t size = CFD_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, CFD_MAX_SIZE, &size, &seed);

    cfd_input in;
    if (cfd_generate(&in, size, seed) != 0) wl_die("out of host memory");
    int n = in.n;
    size_t nv = (size_t)n * CFD_NVAR * sizeof(float);
    float *result = (float *)malloc(nv), *expected = (float *)malloc(nv);
    if (!result || !expected || cfd_reference(&in, expected) != 0) wl_die("out of host memory");
    cfd_far_field ff;
    cfd_far_field_init(&ff);
    CUDA_CHECK(cudaMemcpyToSymbol(cfd_ff_flux, ff.flux, sizeof ff.flux));

    float *d_variables, *d_old, *d_fluxes, *d_normals, *d_areas, *d_step;
    int *d_neighbours;
    CUDA_CHECK(cudaMalloc(&d_variables, nv));
    CUDA_CHECK(cudaMalloc(&d_old, nv));
    CUDA_CHECK(cudaMalloc(&d_fluxes, nv));
    CUDA_CHECK(cudaMalloc(&d_normals, (size_t)n * CFD_FACES * 3 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_areas, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_step, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_neighbours, (size_t)n * CFD_FACES * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_variables, in.variables, nv, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_normals, in.normals, (size_t)n * CFD_FACES * 3 * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_areas, in.areas, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_neighbours, in.neighbours, (size_t)n * CFD_FACES * sizeof(int), cudaMemcpyHostToDevice));

    unsigned blocks = ((unsigned)n + CFD_BLOCK - 1) / CFD_BLOCK;
    for (int it = 0; it < CFD_ITERATIONS; it++) {
        CUDA_CHECK(cudaMemcpy(d_old, d_variables, nv, cudaMemcpyDeviceToDevice));
        cfd_step_factor<<<blocks, CFD_BLOCK>>>(n, d_variables, d_areas, d_step);
        CUDA_CHECK(cudaGetLastError());
        for (int stage = 0; stage < CFD_RK; stage++) {
            cfd_compute_flux<<<blocks, CFD_BLOCK>>>(n, d_neighbours, d_normals, d_variables, d_fluxes);
            CUDA_CHECK(cudaGetLastError());
            cfd_time_step<<<blocks, CFD_BLOCK>>>(stage, n, d_old, d_variables, d_step, d_fluxes);
            CUDA_CHECK(cudaGetLastError());
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(result, d_variables, nv, cudaMemcpyDeviceToHost));

    size_t bad = cfd_first_mismatch((size_t)n * CFD_NVAR, result, expected);
    if (bad < (size_t)n * CFD_NVAR)
        fprintf(stderr, "variable %zu of cell %zu: got %.9g, expected %.9g\n", bad / n, bad % n, result[bad],
                expected[bad]);
    cudaFree(d_variables); cudaFree(d_old); cudaFree(d_fluxes); cudaFree(d_normals);
    cudaFree(d_areas); cudaFree(d_step); cudaFree(d_neighbours);
    free(result); free(expected);
    cfd_free(&in);
    int ok = bad == (size_t)n * CFD_NVAR;
    return wl_finish(ok);
}
