// ray: Whitted-style ray tracing of a small scene, one pixel per thread (the
// structure of the ISPASS-2009 RAY benchmark, written here).
//
// ray_render: each thread of a 16 x 8 CTA traces its pixel's primary ray against
// every object of the scene in constant memory, casts a shadow ray to each light
// (leaving the loop at the first occluder) and follows up to two reflections; the
// tracer is ref.h's (shared with the CPU reference).  Warps diverge on what their
// rays hit, on shadows and on the number of bounces; memory traffic is one 12-byte
// store per pixel, the scene being read through the constant cache.
//
// Stand-alone: ./ray [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

__constant__ ray_scene c_scene;

extern "C" __global__ void ray_render(float *rgb, int w, int h) {
    const int px = (int)(blockIdx.x * RAY_BX + threadIdx.x), py = (int)(blockIdx.y * RAY_BY + threadIdx.y);
    rv3 c = ray_trace(&c_scene, rv(RAY_EYE_X, RAY_EYE_Y, RAY_EYE_Z),
                      ray_primary_dir((uint32_t)px, (uint32_t)py, (uint32_t)w, (uint32_t)h));
    float *o = rgb + 3 * ((size_t)py * w + px);
    o[0] = c.x;
    o[1] = c.y;
    o[2] = c.z;
}

int main(int argc, char **argv) {
    uint32_t size = 8;  // the evaluation size (wl_ray.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, RAY_MAX_SIZE, &size, &seed);

    uint32_t w = ray_width(size), h = ray_height(size);
    size_t bytes = (size_t)w * h * 3 * sizeof(float);
    ray_scene sc;
    ray_make_scene(seed, &sc);
    float *want = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!want || !got) wl_die("out of host memory");
    ray_reference(&sc, w, h, want);

    float *d_rgb;
    CUDA_CHECK(cudaMalloc(&d_rgb, bytes));
    CUDA_CHECK(cudaMemcpyToSymbol(c_scene, &sc, sizeof sc));
    ray_render<<<dim3(w / RAY_BX, h / RAY_BY), dim3(RAY_BX, RAY_BY)>>>(d_rgb, (int)w, (int)h);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_rgb, bytes, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (size_t i = 0; i < (size_t)w * h * 3 && ok; i++)
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
            fprintf(stderr, "pixel (%zu, %zu) channel %zu: got %.9g, expected %.9g\n", i / 3 % w, i / 3 / w, i % 3,
                    got[i], want[i]);
            ok = 0;
        }
    cudaFree(d_rgb);
    free(want); free(got);
    return wl_finish(ok);
}
