// backprop: training of a two-layer perceptron, the GPU doing the input layer.
//
// bp_layer_forward: a 16x16 CTA covers 16 inputs x 16 hidden units.  Row ty stages
// its input in shared memory, every thread multiplies one weight by it, and the 16
// products of each hidden unit are summed by a shared-memory tree (barrier per
// level); the CTA writes one partial sum per hidden unit.
// bp_adjust_weights: the same tiling; every thread updates one weight with the
// learning-rate term and the momentum of its previous change.
// The host finishes the sums and does the small output layer (see ref.h).
//
// Stand-alone: ./backprop [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void bp_layer_forward(const float *input, const float *w, float *partial, int n_in) {
    __shared__ float input_tile[BP_TILE];
    __shared__ float prod[BP_TILE][BP_HIDDEN];
    int tx = threadIdx.x, ty = threadIdx.y;  // tx: hidden unit, ty: input within the tile
    int i = blockIdx.x * BP_TILE + ty;
    if (tx == 0) input_tile[ty] = i < n_in ? input[i] : 0.0f;
    __syncthreads();
    prod[ty][tx] = i < n_in ? w[i * BP_HIDDEN + tx] * input_tile[ty] : 0.0f;
    __syncthreads();
    for (int stride = BP_TILE / 2; stride > 0; stride >>= 1) {
        if (ty < stride) prod[ty][tx] += prod[ty + stride][tx];
        __syncthreads();
    }
    if (ty == 0) partial[blockIdx.x * BP_HIDDEN + tx] = prod[0][tx];
}

extern "C" __global__ void bp_adjust_weights(const float *input, const float *delta, float *w, float *oldw,
                                             int n_in, float eta, float momentum) {
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.x * BP_TILE + ty;
    if (i >= n_in) return;
    int k = i * BP_HIDDEN + tx;
    float dw = fmaf(eta * delta[tx], input[i], momentum * oldw[k]);
    w[k] += dw;
    oldw[k] = dw;
}

int main(int argc, char **argv) {
    uint32_t size = 128;  // the evaluation size (wl_backprop.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    bp_net net, ref;
    if (bp_generate(&net, size, seed) != 0 || bp_generate(&ref, size, seed) != 0) wl_die("out of host memory");
    int n = net.n_in, tiles = bp_num_tiles(n);
    size_t per_step = (size_t)tiles * BP_HIDDEN, nw = (size_t)n * BP_HIDDEN;
    float *partials = (float *)malloc(BP_STEPS * per_step * sizeof(float));
    float *expected_partials = (float *)malloc(BP_STEPS * per_step * sizeof(float));
    if (!partials || !expected_partials) wl_die("out of host memory");
    bp_reference(&ref, expected_partials);

    float *d_input, *d_w, *d_oldw, *d_partial, *d_delta;
    CUDA_CHECK(cudaMalloc(&d_input, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_w, nw * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_oldw, nw * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_partial, per_step * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_delta, BP_HIDDEN * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_w, net.w, nw * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_oldw, net.oldw, nw * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(BP_HIDDEN, BP_TILE);
    for (int s = 0; s < BP_STEPS; s++) {
        const float *input = net.inputs + (size_t)s * n;
        float *partial = partials + s * per_step;
        CUDA_CHECK(cudaMemcpy(d_input, input, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
        bp_layer_forward<<<tiles, block>>>(d_input, d_w, d_partial, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(partial, d_partial, per_step * sizeof(float), cudaMemcpyDeviceToHost));
        bp_host_step(&net, partial, net.targets[s]);
        CUDA_CHECK(cudaMemcpy(d_delta, net.hidden_delta, BP_HIDDEN * sizeof(float), cudaMemcpyHostToDevice));
        bp_adjust_weights<<<tiles, block>>>(d_input, d_delta, d_w, d_oldw, n, bp_input_eta(n), BP_MOMENTUM);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(net.w, d_w, nw * sizeof(float), cudaMemcpyDeviceToHost));

    int ok = 1;
    for (size_t k = 0; k < BP_STEPS * per_step && ok; k++) {
        if (!bp_close(partials[k], expected_partials[k])) {
            fprintf(stderr, "partial[%zu]: got %.9g, expected %.9g\n", k, partials[k], expected_partials[k]);
            ok = 0;
        }
    }
    for (size_t k = 0; k < nw && ok; k++) {
        if (!bp_close(net.w[k], ref.w[k])) {
            fprintf(stderr, "w[%zu]: got %.9g, expected %.9g\n", k, net.w[k], ref.w[k]);
            ok = 0;
        }
    }
    cudaFree(d_input); cudaFree(d_w); cudaFree(d_oldw); cudaFree(d_partial); cudaFree(d_delta);
    free(partials); free(expected_partials);
    bp_free(&net); bp_free(&ref);
    return wl_finish(ok);
}
