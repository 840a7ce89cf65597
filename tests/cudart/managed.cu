// __managed__ variables: the host reads and writes them directly, kernels too, with
// and without passing their address.
#include "check.h"

__managed__ int table[4] = {1, 2, 3, 4};
__managed__ float total;

// the first two entries through the argument, the last two through the variable
__global__ void bump(int *t) {
    int i = threadIdx.x;
    if (i < 2) t[i] *= 10;
    else table[i] *= 100;
    if (i == 0) total += 1.5f;
}

int main() {
    printf("initial: %d %d %d %d total=%.1f\n", table[0], table[1], table[2], table[3], total);
    table[0] = 5;  // a host write before the launch reaches the kernel
    bump<<<1, 4>>>(table);
    CHECK(cudaDeviceSynchronize());
    printf("after one launch: %d %d %d %d total=%.1f\n", table[0], table[1], table[2], table[3], total);
    bump<<<1, 4>>>(table);
    CHECK(cudaDeviceSynchronize());
    printf("after two launches: %d %d %d %d total=%.1f\n", table[0], table[1], table[2], table[3], total);
    printf("PASS\n");
    return 0;
}
