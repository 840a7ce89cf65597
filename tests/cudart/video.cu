// SIMD video instructions (issue 33, item 4), as nvcc emits them for the SIMD
// intrinsics (vabsdiff4 merge and accumulate forms) and as hand-written inline PTX
// uses them (other operations, selectors, masks).  Every value is worked by hand:
//   a = 0x10F07F80: bytes 80 7F F0 10 (element 0 first), signed -128 127 -16 16
//   b = 0x20018190: bytes 90 81 01 20, signed -112 -127 1 32
//   c = 0x0A0B0C0D
#include "check.h"

__device__ unsigned vadd4_sat_s(unsigned a, unsigned b, unsigned c) {
    unsigned d;
    asm("vadd4.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
__device__ unsigned vsub4_masked(unsigned a, unsigned b, unsigned c) {
    unsigned d;
    asm("vsub4.s32.s32.s32 %0.b20, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
__device__ unsigned vmax2_selected(unsigned a, unsigned b, unsigned c) {
    unsigned d;
    asm("vmax2.u32.u32.u32 %0.h1, %1.h32, %2.h10, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__global__ void video(const unsigned *in, unsigned *out) {
    unsigned a = in[0], b = in[1], c = in[2];
    out[0] = __vabsdiffu4(a, b);  // vabsdiff4.u32.u32.u32
    out[1] = __vsadu4(a, b);      // vabsdiff4.u32.u32.u32.add with c = 0
    out[2] = vadd4_sat_s(a, b, c);
    out[3] = vsub4_masked(a, b, c);
    out[4] = vmax2_selected(a, b, c);
}

int main() {
    unsigned h[5], in[3] = {0x10F07F80u, 0x20018190u, 0x0A0B0C0Du};
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof h));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    video<<<1, 1>>>(din, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    // |80-90| |7F-81| |F0-01| |10-20| = 10 02 EF 10; their sum 0x111;
    // -240 -> -128, 0, -15, 48 saturated; elements 0, 2 of a-b (-16, -17), 1, 3 of c;
    // half-word 1 = max(b's 2001, a's 10F0), half-word 0 = c's 0C0D
    const unsigned want[5] = {0x10EF0210u, 0x111u, 0x30F10080u, 0x0AEF0CF0u, 0x20010C0Du};
    int bad = 0;
    for (int i = 0; i < 5; i++) {
        printf("video %d: 0x%08x%s\n", i, h[i], h[i] == want[i] ? "" : " (wrong)");
        bad |= h[i] != want[i];
    }
    return bad;
}
