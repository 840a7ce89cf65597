// Cubemap textures (issue 33, item 4: tex.cube).  Six 2x2 float faces; texel (i, j)
// of face f holds 10 f + 2 j + i.  A direction picks the face of its largest
// component and (s, t) on it (programming guide, cubemap table), read at
// u = (s/m + 1)/2 * 2, v = (t/m + 1)/2 * 2:
//   ( 1,  .5, -.5) face 0: s = -z = .5, t = -y = -.5 -> texel (1, 0):  1
//   (-1,  .5, -.5) face 1: s =  z = -.5, t = -y = -.5 -> (0, 0):      10
//   (.5,   1,  .5) face 2: s =  x = .5,  t =  z = .5  -> (1, 1):      23
//   (.5,  -1,  .5) face 3: s =  x = .5,  t = -z = -.5 -> (1, 0):      31
//   (-.5, .5,   1) face 4: s =  x = -.5, t = -y = -.5 -> (0, 0):      40
//   (-.5,-.5,  -1) face 5: s = -x = .5,  t = -y = .5  -> (1, 1):      53
//   ( 2,   1,  -1) the first direction scaled: 1
// and with linear filtering, (1, 0, 0) is face 0's centre: u = v = 1, so texels
// (0..1, 0..1) weigh 1/4 each: (0 + 1 + 2 + 3) / 4 = 1.5.
#include "check.h"

__global__ void fetch(cudaTextureObject_t point, cudaTextureObject_t linear, const float4 *dir, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = texCubemap<float>(point, dir[i].x, dir[i].y, dir[i].z);
    if (i == n) out[i] = texCubemap<float>(linear, 1.0f, 0.0f, 0.0f);
}

static cudaTextureObject_t make_object(cudaArray_t arr, cudaTextureFilterMode filter) {
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = filter;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    return t;
}

int main() {
    float faces[6][2][2];
    for (int f = 0; f < 6; f++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) faces[f][j][i] = 10.0f * f + 2.0f * j + i;
    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    // a cubemap must be square with six faces
    cudaError_t e = cudaMalloc3DArray(&arr, &ch, make_cudaExtent(2, 3, 6), cudaArrayCubemap);
    printf("non-square cubemap: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CHECK(cudaMalloc3DArray(&arr, &ch, make_cudaExtent(2, 2, 6), cudaArrayCubemap));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(faces, 2 * sizeof(float), 2, 2);
    p.dstArray = arr;
    p.extent = make_cudaExtent(2, 2, 6);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    const int n = 7;
    float4 dirs[n] = {{1, .5f, -.5f, 0},  {-1, .5f, -.5f, 0}, {.5f, 1, .5f, 0}, {.5f, -1, .5f, 0},
                      {-.5f, .5f, 1, 0}, {-.5f, -.5f, -1, 0}, {2, 1, -1, 0}};
    float4 *ddir;
    float *dout, out[n + 1];
    CHECK(cudaMalloc(&ddir, sizeof dirs));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(ddir, dirs, sizeof dirs, cudaMemcpyHostToDevice));
    fetch<<<1, 32>>>(make_object(arr, cudaFilterModePoint), make_object(arr, cudaFilterModeLinear), ddir, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i <= n; i++) printf("cube %d: %g\n", i, out[i]);
    return 0;
}
