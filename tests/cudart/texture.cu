// Texture and surface objects through the CUDA runtime: arrays (2-D, layered),
// copies to and from them, linear / pitched memory as textures, filtering,
// gather, surfaces.  Expected values are worked out by hand in the comments
// (the same rules as tests/test_texture.c).
#include "check.h"

__global__ void sample(cudaTextureObject_t t, float *out, float x, float y) { out[0] = tex2D<float>(t, x, y); }

__global__ void gather(cudaTextureObject_t t, float4 *out, float x, float y) { out[0] = tex2Dgather<float4>(t, x, y, 0); }

__global__ void fetch(cudaTextureObject_t t, int *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(t, i - 1);  // i = 0 reads texel -1: 0
}

__global__ void layered(cudaTextureObject_t t, float *out) {
    out[threadIdx.x] = tex2DLayered<float>(t, 0.5f, 1.5f, threadIdx.x);  // texel (0, 1) of each layer
}

__global__ void surf_fill(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite(100 * y + x, s, x * (int)sizeof(int), y);
}

__global__ void surf_clamped(cudaSurfaceObject_t s, int *out) {
    out[0] = surf2Dread<int>(s, 100 * (int)sizeof(int), -5, cudaBoundaryModeClamp);  // -> (w-1, 0)
    out[1] = surf2Dread<int>(s, 100 * (int)sizeof(int), -5, cudaBoundaryModeZero);   // -> 0
}

int main() {
    // 4 x 4 float array, T[x, y] = 10 y + x
    float host[16];
    for (int i = 0; i < 16; i++) host[i] = (float)(10 * (i / 4) + i % 4);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, 4, 4));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, host, 4 * sizeof(float), 4 * sizeof(float), 4, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc back;
    CHECK(cudaGetChannelDesc(&back, arr));
    EXPECT(back.x == 32 && back.y == 0 && back.f == cudaChannelFormatKindFloat);

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
    float *dout, out;
    CHECK(cudaMalloc(&dout, 64));
    // (1.3, 2.75): alpha = 205/256, beta = 64/256 -> 22.5 + 0.80078125
    sample<<<1, 1>>>(tex, dout, 1.3f, 2.75f);
    CHECK(cudaMemcpy(&out, dout, sizeof out, cudaMemcpyDeviceToHost));
    printf("linear clamp (1.3, 2.75) = %.8f\n", out);
    EXPECT(out == 23.30078125f);
    float4 g;
    gather<<<1, 1>>>(tex, (float4 *)dout, 1.3f, 2.75f);  // texels (0,3) (1,3) (1,2) (0,2)
    CHECK(cudaMemcpy(&g, dout, sizeof g, cudaMemcpyDeviceToHost));
    printf("gather (1.3, 2.75) = %g %g %g %g\n", g.x, g.y, g.z, g.w);
    EXPECT(g.x == 30 && g.y == 31 && g.z == 21 && g.w == 20);
    cudaResourceDesc rback;
    CHECK(cudaGetTextureObjectResourceDesc(&rback, tex));
    EXPECT(rback.resType == cudaResourceTypeArray && rback.res.array.array == arr);
    CHECK(cudaDestroyTextureObject(tex));

    // normalized wrap at (0.0625, 0.96875): texels (3,3) (0,3) (3,0) (0,0) -> 19.5
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.normalizedCoords = 1;
    CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
    sample<<<1, 1>>>(tex, dout, 0.0625f, 0.96875f);
    CHECK(cudaMemcpy(&out, dout, sizeof out, cudaMemcpyDeviceToHost));
    printf("linear wrap normalized (0.0625, 0.96875) = %g\n", out);
    EXPECT(out == 19.5f);
    CHECK(cudaDestroyTextureObject(tex));
    // the deprecated 1-D copies: 6 floats from (2, 1) on wrap into row 2
    float six[6] = {-1, -2, -3, -4, -5, -6}, row2[4];
    CHECK(cudaMemcpyToArray(arr, 2 * sizeof(float), 1, six, sizeof six, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(row2, sizeof row2, arr, 0, 2, sizeof row2, 1, cudaMemcpyDeviceToHost));
    printf("row 2 after cudaMemcpyToArray: %g %g %g %g\n", row2[0], row2[1], row2[2], row2[3]);
    EXPECT(row2[0] == -3 && row2[3] == -6);
    CHECK(cudaFreeArray(arr));

    // tex1Dfetch on cudaMalloc memory
    int ints[5] = {7, 8, 9, 10, 11}, *dints, got[6];
    CHECK(cudaMalloc(&dints, sizeof ints));
    CHECK(cudaMemcpy(dints, ints, sizeof ints, cudaMemcpyHostToDevice));
    cudaResourceDesc lin = {};
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = dints;
    lin.res.linear.desc = cudaCreateChannelDesc<int>();
    lin.res.linear.sizeInBytes = sizeof ints;
    cudaTextureDesc pt = {};
    pt.readMode = cudaReadModeElementType;
    CHECK(cudaCreateTextureObject(&tex, &lin, &pt, NULL));
    int *dgot;
    CHECK(cudaMalloc(&dgot, sizeof got));
    fetch<<<1, 6>>>(tex, dgot, 6);
    CHECK(cudaMemcpy(got, dgot, sizeof got, cudaMemcpyDeviceToHost));
    printf("tex1Dfetch -1..4: %d %d %d %d %d %d\n", got[0], got[1], got[2], got[3], got[4], got[5]);
    EXPECT(got[0] == 0 && got[1] == 7 && got[5] == 11);
    CHECK(cudaDestroyTextureObject(tex));

    // layered 2 x 2 x 3 layers through cudaMemcpy3D: texel (0, 1) of layer l = 100 l + 10
    float lay[12];
    for (int i = 0; i < 12; i++) lay[i] = (float)(100 * (i / 4) + 10 * ((i / 2) % 2) + i % 2);
    CHECK(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(2, 2, 3), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(lay, 2 * sizeof(float), 2, 2);
    p.dstArray = arr;
    p.extent = make_cudaExtent(2, 2, 3);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    rd.res.array.array = arr;
    pt.filterMode = cudaFilterModePoint;
    CHECK(cudaCreateTextureObject(&tex, &rd, &pt, NULL));
    float lout[3];
    layered<<<1, 3>>>(tex, dout);
    CHECK(cudaMemcpy(lout, dout, sizeof lout, cudaMemcpyDeviceToHost));
    printf("layered (0,1): %g %g %g\n", lout[0], lout[1], lout[2]);
    EXPECT(lout[0] == 10 && lout[1] == 110 && lout[2] == 210);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(arr));

    // a 5 x 3 int surface written by a kernel, read back by copy and by surf2Dread
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    CHECK(cudaMallocArray(&arr, &id, 5, 3, cudaArraySurfaceLoadStore));
    cudaResourceDesc sd = {};
    sd.resType = cudaResourceTypeArray;
    sd.res.array.array = arr;
    cudaSurfaceObject_t surf;
    CHECK(cudaCreateSurfaceObject(&surf, &sd));
    surf_fill<<<1, dim3(8, 4)>>>(surf, 5, 3);
    CHECK(cudaGetLastError());
    int grid[15];
    CHECK(cudaMemcpy2DFromArray(grid, 5 * sizeof(int), arr, 0, 0, 5 * sizeof(int), 3, cudaMemcpyDeviceToHost));
    printf("surface row 2: %d %d %d %d %d\n", grid[10], grid[11], grid[12], grid[13], grid[14]);
    EXPECT(grid[14] == 204 && grid[6] == 101);
    surf_clamped<<<1, 1>>>(surf, dgot);
    CHECK(cudaMemcpy(got, dgot, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("surf2Dread (100, -5): clamp %d, zero %d\n", got[0], got[1]);
    EXPECT(got[0] == 4 && got[1] == 0);
    CHECK(cudaDestroySurfaceObject(surf));
    CHECK(cudaFreeArray(arr));
    printf("PASS\n");
    return 0;
}
