// Source of regs_sm75.cubin, the register-count fixture of test_cudart_fatbin:
//   nvcc -cubin -arch=sm_75 -Xptxas -v regs_sm75.cu -o regs_sm75.cubin 2> regs_sm75.ptxas
// (nvcc 13.0).  ptxas gives `big` 64 registers and `small` 8 (regs_sm75.ptxas).
extern "C" __global__ void small(float *a) { a[threadIdx.x] += 1.0f; }
extern "C" __global__ void big(float *a, int n) {
    float s[8];
    for (int i = 0; i < 8; i++) s[i] = a[threadIdx.x * 8 + i] * n;
    float t = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) t += s[i] * s[j] + a[i * n + j];
    a[threadIdx.x] = t;
}
