// hotspot: transient thermal simulation of a die, a 5-point stencil in time.
//
// Each 16x16 CTA loads a tile of temperatures and powers into shared memory, with a
// ghost zone of `steps` cells on every side, and advances it `steps` time steps
// without touching global memory (the valid region shrinks by one cell per step,
// with a barrier between steps), then writes its (16 - 2*steps)^2 interior.  The
// host ping-pongs two temperature buffers across launches.
//
// Stand-alone: ./hotspot [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void hotspot_step(const float *power, const float *temp_in, float *temp_out, int n,
                                        int steps, float cx, float cy, float cz, float cp, float amb) {
    __shared__ float temp_tile[HOTSPOT_TILE][HOTSPOT_TILE];
    __shared__ float power_tile[HOTSPOT_TILE][HOTSPOT_TILE];
    __shared__ float next_tile[HOTSPOT_TILE][HOTSPOT_TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int out_side = HOTSPOT_TILE - 2 * steps;
    // This thread's cell: the tile starts `steps` cells before its output region.
    int row = blockIdx.y * out_side + ty - steps;
    int col = blockIdx.x * out_side + tx - steps;
    bool on_die = row >= 0 && row < n && col >= 0 && col < n;
    if (on_die) {
        temp_tile[ty][tx] = temp_in[row * n + col];
        power_tile[ty][tx] = power[row * n + col];
    }
    __syncthreads();

    // Neighbours inside the tile; at the die edge the cell stands in for the missing one.
    int north = row == 0 ? ty : ty - 1, south = row == n - 1 ? ty : ty + 1;
    int west = col == 0 ? tx : tx - 1, east = col == n - 1 ? tx : tx + 1;
    bool computed = false;
    for (int s = 1; s <= steps; s++) {
        // After s steps only cells at least s away from the tile border are exact.
        computed = on_die && ty >= s && ty < HOTSPOT_TILE - s && tx >= s && tx < HOTSPOT_TILE - s;
        if (computed) {
            float t = temp_tile[ty][tx];
            float delta = cp * power_tile[ty][tx] +
                          cy * (temp_tile[north][tx] + temp_tile[south][tx] - 2.0f * t) +
                          cx * (temp_tile[ty][east] + temp_tile[ty][west] - 2.0f * t) + cz * (amb - t);
            next_tile[ty][tx] = t + delta;
        }
        __syncthreads();
        if (computed) temp_tile[ty][tx] = next_tile[ty][tx];
        __syncthreads();
    }
    if (computed) temp_out[row * n + col] = temp_tile[ty][tx];
}

int main(int argc, char **argv) {
    uint32_t size = 16;  // the evaluation size (wl_hotspot.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    int n = hotspot_side(size);
    size_t bytes = (size_t)n * n * sizeof(float);
    float *power = (float *)malloc(bytes), *temp = (float *)malloc(bytes);
    float *expected = (float *)malloc(bytes), *scratch = (float *)malloc(bytes);
    if (!power || !temp || !expected || !scratch) wl_die("out of host memory");
    hotspot_generate(n, seed, power, temp);
    hotspot_coeffs c = hotspot_coefficients(n);
    memcpy(expected, temp, bytes);
    hotspot_reference(n, &c, power, expected, scratch);

    float *d_power, *d_temp[2];
    CUDA_CHECK(cudaMalloc(&d_power, bytes));
    CUDA_CHECK(cudaMalloc(&d_temp[0], bytes));
    CUDA_CHECK(cudaMalloc(&d_temp[1], bytes));
    CUDA_CHECK(cudaMemcpy(d_power, power, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_temp[0], temp, bytes, cudaMemcpyHostToDevice));

    int src = 0;
    for (int done = 0; done < HOTSPOT_STEPS; done += HOTSPOT_PYRAMID) {
        int steps = HOTSPOT_STEPS - done < HOTSPOT_PYRAMID ? HOTSPOT_STEPS - done : HOTSPOT_PYRAMID;
        int out_side = HOTSPOT_TILE - 2 * steps;
        dim3 grid((n + out_side - 1) / out_side, (n + out_side - 1) / out_side);
        dim3 block(HOTSPOT_TILE, HOTSPOT_TILE);
        hotspot_step<<<grid, block>>>(d_power, d_temp[src], d_temp[1 - src], n, steps, c.cx, c.cy, c.cz, c.cp,
                                      c.amb);
        CUDA_CHECK(cudaGetLastError());
        src = 1 - src;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(temp, d_temp[src], bytes, cudaMemcpyDeviceToHost));

    int64_t bad = hotspot_first_mismatch(n, temp, expected);
    if (bad >= 0)
        fprintf(stderr, "temp[%lld]: got %.9g, expected %.9g\n", (long long)bad, temp[bad], expected[bad]);
    cudaFree(d_power); cudaFree(d_temp[0]); cudaFree(d_temp[1]);
    free(power); free(temp); free(expected); free(scratch);
    return wl_finish(bad < 0);
}
