/* texwarp: an affine image warp through texture objects, written through a
 * surface object (ref.h describes the computation).
 *
 * The kernel is the device code locsim simulates (kernel.ptx is generated from
 * this file).  main() below is an ordinary CUDA program doing the same run, for
 * running unmodified under locsim's libcudart replacement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ref.h"
#include "wl_cuda.h"

/* img: bilinear, clamp, unnormalized; pat: point, wrap, normalized, u8 read as
 * [0, 1]; out: a float surface of the output size. */
extern "C" __global__ void texwarp(cudaTextureObject_t img, cudaTextureObject_t pat, cudaSurfaceObject_t out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= w) return;
    float fx = (float)x, fy = (float)y;
    float u = 0.75f * fx + 0.125f * fy + TEXWARP_U0, v = -0.125f * fx + 0.75f * fy + TEXWARP_V0;
    float a = tex2D<float>(img, u, v);
    float b = tex2D<float>(pat, (fx + 0.5f) * 0.0625f, (fy + 0.5f) * 0.0625f);
    surf2Dwrite(a * (0.5f + b), out, x * (int)sizeof(float), y);
}

/* ---- stand-alone host program ---- */

int main(int argc, char **argv) {
    uint32_t size = TEXWARP_DEFAULT_SIZE;
    uint64_t seed = 1;
    wl_parse_args(argc, argv, TEXWARP_MAX_SIZE, &size, &seed);
    uint32_t w = texwarp_w(size);
    size_t n = (size_t)w * w;
    float *img = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
    float *want = (float *)malloc(n * sizeof(float));
    uint8_t pat[TEXWARP_PAT * TEXWARP_PAT];
    if (!img || !got || !want) wl_die("out of host memory");
    texwarp_gen(w, seed, img, pat);
    texwarp_ref(w, img, pat, want);

    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>(), fu = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a_img, a_pat, a_out;
    CUDA_CHECK(cudaMallocArray(&a_img, &ff, w, w));
    CUDA_CHECK(cudaMallocArray(&a_pat, &fu, TEXWARP_PAT, TEXWARP_PAT));
    CUDA_CHECK(cudaMallocArray(&a_out, &ff, w, w, cudaArraySurfaceLoadStore));
    CUDA_CHECK(cudaMemcpy2DToArray(a_img, 0, 0, img, w * sizeof(float), w * sizeof(float), w, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy2DToArray(a_pat, 0, 0, pat, TEXWARP_PAT, TEXWARP_PAT, TEXWARP_PAT, cudaMemcpyHostToDevice));

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t_img, t_pat;
    res.res.array.array = a_img;
    CUDA_CHECK(cudaCreateTextureObject(&t_img, &res, &td, NULL));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeNormalizedFloat;
    td.normalizedCoords = 1;
    res.res.array.array = a_pat;
    CUDA_CHECK(cudaCreateTextureObject(&t_pat, &res, &td, NULL));
    cudaSurfaceObject_t s_out;
    res.res.array.array = a_out;
    CUDA_CHECK(cudaCreateSurfaceObject(&s_out, &res));

    dim3 block(TEXWARP_BLOCK_X, TEXWARP_BLOCK_Y), grid((w + block.x - 1) / block.x, (w + block.y - 1) / block.y);
    texwarp<<<grid, block>>>(t_img, t_pat, s_out, (int)w);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy2DFromArray(got, w * sizeof(float), a_out, 0, 0, w * sizeof(float), w, cudaMemcpyDeviceToHost));

    uint32_t bad = texwarp_first_mismatch((uint32_t)n, got, want);
    if (bad < n)
        printf("mismatch at out[%u]: got %.9g, expected %.9g\n", bad, (double)got[bad], (double)want[bad]);

    CUDA_CHECK(cudaDestroySurfaceObject(s_out));
    CUDA_CHECK(cudaDestroyTextureObject(t_pat));
    CUDA_CHECK(cudaDestroyTextureObject(t_img));
    CUDA_CHECK(cudaFreeArray(a_out));
    CUDA_CHECK(cudaFreeArray(a_pat));
    CUDA_CHECK(cudaFreeArray(a_img));
    free(img);
    free(got);
    free(want);
    return wl_finish(bad >= n);
}
