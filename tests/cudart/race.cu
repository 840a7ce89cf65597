// Telling a race between CTAs from a simulator bug (issue 33, item 8): run the
// program under several -functional_cta_order values; a race-free program prints
// the same, a racy one does not.
//   chain (racy): block b reads flag[b - 1] (0 for block 0) and writes it + 1 to
//     flag[b], with nothing ordering the blocks.  Linear order: 1, 2, .., 8 (last 8);
//     reverse order: every block reads 0 before its predecessor runs (last 1).
//   sum (race-free): block b adds b + 1 to a total with atomicAdd: 36 in any order.
#include "check.h"

__global__ void chain(int *flag) {
    if (threadIdx.x == 0) {
        int prev = blockIdx.x ? ((volatile int *)flag)[blockIdx.x - 1] : 0;
        flag[blockIdx.x] = prev + 1;
    }
}

__global__ void sum(int *total) {
    if (threadIdx.x == 0) atomicAdd(total, blockIdx.x + 1);
}

int main() {
    int *flag, *total, h[8], t;
    CHECK(cudaMalloc(&flag, sizeof h));
    CHECK(cudaMalloc(&total, sizeof t));
    CHECK(cudaMemset(flag, 0, sizeof h));
    CHECK(cudaMemset(total, 0, sizeof t));
    chain<<<8, 32>>>(flag);
    sum<<<8, 32>>>(total);
    CHECK(cudaMemcpy(h, flag, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost));
    printf("chain: last flag %d\nsum: %d\n", h[7], t);
    return 0;
}
