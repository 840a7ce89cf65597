// nn: forward pass of a LeNet-style convolutional network on a batch of digits (the
// structure of the ISPASS-2009 NN benchmark, written here), one launch per layer.
//
// Every grid is (images, unit groups): blockIdx.x is the image, blockIdx.y the
// feature map (layers 1, 2) or group of neurons (layers 3, 4), and a CTA's weights
// are the row blockIdx.y of its layer's weight array, so the CTAs of one grid row (the
// ones launched one after another) all read the same weights and each its own
// image's neurons.  nn_layer1: 13 x 13 threads, a 5 x 5 stride-2 window of the
// 29 x 29 image; nn_layer2: 5 x 5 threads, the window over all 6 layer-1 maps;
// nn_layer3: 20 threads, each a 1250-input dot product (its weight row is read with
// a stride of 1251 words between threads: uncoalesced, as in the original);
// nn_layer4: 10 threads over the 100 hidden units.
//
// Stand-alone: ./nn [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__device__ __forceinline__ float nn_act(float s) { return NN_B * tanhf(NN_A * s); }

extern "C" __global__ void nn_layer1(const float *img, const float *w1, float *l1) {
    const int image = (int)blockIdx.x, map = (int)blockIdx.y, x = (int)threadIdx.x, y = (int)threadIdx.y;
    const float *w = w1 + map * NN_W1;
    const float *in = img + (size_t)image * NN_IN * NN_IN + (2 * y) * NN_IN + 2 * x;
    float s = w[0];
#pragma unroll
    for (int ky = 0; ky < NN_K; ky++)
#pragma unroll
        for (int kx = 0; kx < NN_K; kx++) s = fmaf(in[ky * NN_IN + kx], w[1 + ky * NN_K + kx], s);
    l1[((size_t)image * NN_M1 + map) * NN_S1 * NN_S1 + y * NN_S1 + x] = nn_act(s);
}

extern "C" __global__ void nn_layer2(const float *l1, const float *w2, float *l2) {
    const int image = (int)blockIdx.x, map = (int)blockIdx.y, x = (int)threadIdx.x, y = (int)threadIdx.y;
    const float *w = w2 + map * NN_W2;
    const float *in = l1 + (size_t)image * NN_M1 * NN_S1 * NN_S1 + (2 * y) * NN_S1 + 2 * x;
    float s = w[0];
    for (int m = 0; m < NN_M1; m++)
#pragma unroll
        for (int ky = 0; ky < NN_K; ky++)
#pragma unroll
            for (int kx = 0; kx < NN_K; kx++)
                s = fmaf(in[m * NN_S1 * NN_S1 + ky * NN_S1 + kx], w[1 + (m * NN_K + ky) * NN_K + kx], s);
    l2[(size_t)image * NN_L2 + map * NN_S2 * NN_S2 + y * NN_S2 + x] = nn_act(s);
}

extern "C" __global__ void nn_layer3(const float *l2, const float *w3, float *l3) {
    const int image = (int)blockIdx.x, unit = (int)(blockIdx.y * NN_HGROUP + threadIdx.x);
    const float *w = w3 + (size_t)unit * NN_W3;
    const float *in = l2 + (size_t)image * NN_L2;
    float s = w[0];
    for (int i = 0; i < NN_L2; i++) s = fmaf(in[i], w[1 + i], s);
    l3[(size_t)image * NN_H + unit] = nn_act(s);
}

extern "C" __global__ void nn_layer4(const float *l3, const float *w4, float *l4) {
    const int image = (int)blockIdx.x, unit = (int)(blockIdx.y * NN_OUT + threadIdx.x);
    const float *w = w4 + unit * NN_W4;
    const float *in = l3 + (size_t)image * NN_H;
    float s = w[0];
    for (int i = 0; i < NN_H; i++) s = fmaf(in[i], w[1 + i], s);
    l4[(size_t)image * NN_OUT + unit] = nn_act(s);
}

static float *to_device(const float *h, size_t n) {
    float *d;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

int main(int argc, char **argv) {
    uint32_t size = 16;  // the evaluation size (wl_nn.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, NN_MAX_SIZE, &size, &seed);

    uint32_t images = nn_images(size);
    nn_input in;
    if (!nn_generate(images, seed, &in)) wl_die("out of host memory");
    size_t n1 = (size_t)images * NN_M1 * NN_S1 * NN_S1, n2 = (size_t)images * NN_L2;
    size_t n3 = (size_t)images * NN_H, n4 = (size_t)images * NN_OUT;
    float *h1 = (float *)malloc(n1 * sizeof(float)), *h2 = (float *)malloc(n2 * sizeof(float));
    float *h3 = (float *)malloc(n3 * sizeof(float)), *h4 = (float *)malloc(n4 * sizeof(float));
    if (!h1 || !h2 || !h3 || !h4) wl_die("out of host memory");

    float *d_img = to_device(in.img, (size_t)images * NN_IN * NN_IN);
    float *d_w1 = to_device(in.w1, NN_M1 * NN_W1), *d_w2 = to_device(in.w2, NN_M2 * NN_W2);
    float *d_w3 = to_device(in.w3, (size_t)NN_H * NN_W3), *d_w4 = to_device(in.w4, NN_OUT * NN_W4);
    float *d_l1, *d_l2, *d_l3, *d_l4;
    CUDA_CHECK(cudaMalloc(&d_l1, n1 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_l2, n2 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_l3, n3 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_l4, n4 * sizeof(float)));
    nn_layer1<<<dim3(images, NN_M1), dim3(NN_S1, NN_S1)>>>(d_img, d_w1, d_l1);
    CUDA_CHECK(cudaGetLastError());
    nn_layer2<<<dim3(images, NN_M2), dim3(NN_S2, NN_S2)>>>(d_l1, d_w2, d_l2);
    CUDA_CHECK(cudaGetLastError());
    nn_layer3<<<dim3(images, NN_H / NN_HGROUP), NN_HGROUP>>>(d_l2, d_w3, d_l3);
    CUDA_CHECK(cudaGetLastError());
    nn_layer4<<<dim3(images, 1), NN_OUT>>>(d_l3, d_w4, d_l4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h1, d_l1, n1 * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h2, d_l2, n2 * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h3, d_l3, n3 * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h4, d_l4, n4 * sizeof(float), cudaMemcpyDeviceToHost));

    nn_bad bad;
    int ok = nn_check(&in, images, h1, h2, h3, h4, &bad);
    if (!ok)
        fprintf(stderr, "layer %d, image %u, unit %d: got %.9g, expected %.9g (tolerance %.3g)\n", bad.layer,
                bad.image, bad.unit, bad.got, bad.want, bad.tol);
    cudaFree(d_img); cudaFree(d_w1); cudaFree(d_w2); cudaFree(d_w3); cudaFree(d_w4);
    cudaFree(d_l1); cudaFree(d_l2); cudaFree(d_l3); cudaFree(d_l4);
    nn_free_input(&in);
    free(h1); free(h2); free(h3); free(h4);
    return wl_finish(ok);
}
