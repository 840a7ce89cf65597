// Device code the simulator cannot run: the inline assembly is not PTX.  nvcc embeds
// it unchecked (a compute_75 build does not assemble the PTX), so the runtime must
// reject it at start-up, naming the line, before main() runs.
#include <cstdio>

__global__ void k(int *p) {
    asm volatile("no_such_opcode.b32 %%r0;");
    *p = 1;
}

int main() {
    printf("main ran\n");
    int *d;
    cudaMalloc(&d, 4);
    k<<<1, 1>>>(d);
    return cudaDeviceSynchronize();
}
