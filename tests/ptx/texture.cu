// Texture and surface objects as nvcc 13 lowers them (tests/test_ptx_files.c):
// tex.{1d,2d,3d,a1d,a2d} with f32 / s32 coordinates, tex.level / tex.grad,
// tld4 (tex2Dgather), suld.b / sust.b in the three boundary modes, and txq / suq
// through inline PTX (CUDA has no intrinsic for them).
#include <cuda_runtime.h>

__global__ void tex_forms(cudaTextureObject_t t, cudaTextureObject_t lin, float4 *o, int *oi, float x, float y,
                          float z, int i, int layer) {
    o[0] = tex2D<float4>(t, x, y);
    o[1] = make_float4(tex1D<float>(t, x), tex1Dfetch<float>(lin, i), tex3D<float>(t, x, y, z),
                       tex1DLayered<float>(t, x, layer));
    o[2] = make_float4(tex2DLayered<float>(t, x, y, layer), tex2DLod<float>(t, x, y, 1.5f),
                       tex2DGrad<float>(t, x, y, make_float2(1, 0), make_float2(0, 1)), 0.0f);
    o[3] = tex2Dgather<float4>(t, x, y, 1);
    int2 v = tex1Dfetch<int2>(lin, i);
    oi[0] = v.x + v.y + tex2D<unsigned char>(t, x, y) + tex1D<short>(t, x) + tex3D<int>(t, x, y, z);
}

__global__ void surf_forms(cudaSurfaceObject_t s, float *o, int x, int y, int z, float v, uchar4 c) {
    surf2Dwrite(v, s, x * 4, y);
    surf1Dwrite(c, s, x * 4, cudaBoundaryModeZero);
    o[0] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
    short2 h = surf3Dread<short2>(s, x * 4, y, z);
    float4 l = surf2DLayeredread<float4>(s, x * 16, y, z);
    surf2DLayeredwrite(l, s, x * 16, y, z, cudaBoundaryModeTrap);
    o[1] = h.x + h.y + l.w;
}

__global__ void queries(cudaTextureObject_t t, cudaSurfaceObject_t s, int *o) {
    int w, h, d, n, m;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
    asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(n) : "l"(t));
    asm("txq.addr_mode_0.b32 %0, [%1];" : "=r"(m) : "l"(t));
    asm("suq.depth.b32 %0, [%1];" : "=r"(d) : "l"(s));
    o[0] = w + h + d + n + m;
}
