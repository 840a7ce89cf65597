// mbarrier objects and cp.async completion on them (issue 33, item 4), as nvcc 13
// emits them from libcu++ (cuda::barrier, cuda::memcpy_async) and from the
// mbarrier primitives of cuda_awbarrier_primitives.h.  Built for compute_80
// (mbarrier.test_wait) and compute_90 (mbarrier.try_wait, arrive with a count).
//
// pipeline: a producer/consumer pipeline over two shared-memory stages.  Warp 0
//   produces: each lane copies 4 ints of a 128-int tile with cuda::memcpy_async
//   (cp.async + cp.async.mbarrier.arrive) onto the stage's `full` barrier, then
//   arrives on it; warps 1..3 consume: they arrive on `full` and wait, compute,
//   then arrive on `empty`, on which the producer arrives and waits before it
//   refills the stage.  Both barriers count all 128 threads.  Block b handles
//   tiles 8b .. 8b+7 of in[i] = i; element j of tile t gives
//       out[128 t + j] = 3 in[128 t + j] - in[128 t + 127 - j] = 256 t + 4 j - 127
//   (tile 0: out[0] = -127, out[127] = 381; tile 5: out[650] = 1280 + 40 - 127 = 1193;
//   tile 15: out[2047] = 3840 + 508 - 127 = 4221).
// pipe: cuda::pipeline over a block (pipeline_shared_state, 2 stages): every
//   thread acquires a stage, copies its int of tile t (cuda::memcpy_async onto the
//   pipeline), commits; then waits for the oldest stage, reads its neighbour's
//   element and releases.  Tiles 0..3 of in[i] = i (128 threads):
//       out2[128 t + j] = 2 in[128 t + (j + 1) % 128] + 1
//   (out2[0] = 3, out2[127] = 1, out2[128] = 259, out2[511] = 769).
// drop: one warp, an mbarrier of 32; lanes 0..7 arrive, lanes 8..31 arrive and
//   drop out, so the next phase completes with the 8 arrivals of lanes 0..7 alone
//   (with the expected count left at 32 it would never complete).  Then phase 1
//   (odd) is over: test_wait_parity(1) is true for lanes 0..7, test_wait_parity(0)
//   (phase 2, current) false.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cuda_awbarrier_primitives.h>
#include "check.h"

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
#define TILE 128
#define STAGES 2
#define TILES_PER_BLOCK 8

__global__ void pipeline(const int *in, int *out) {
    __shared__ int buf[STAGES][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier full[STAGES], empty[STAGES];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++) {
            init(&full[s], blockDim.x);
            init(&empty[s], blockDim.x);
        }
    __syncthreads();
    int first = blockIdx.x * TILES_PER_BLOCK;
    for (int k = 0; k < TILES_PER_BLOCK; k++) {
        int t = first + k, s = k % STAGES;
        if (warp == 0) {
            if (k >= STAGES) empty[s].arrive_and_wait();  // the consumers are done with stage s
            cuda::memcpy_async(&buf[s][4 * lane], &in[TILE * t + 4 * lane], sizeof(int) * 4, full[s]);
            auto token = full[s].arrive();
            (void)token;
        } else {
            full[s].arrive_and_wait();
            for (int j = threadIdx.x - 32; j < TILE; j += blockDim.x - 32)
                out[TILE * t + j] = 3 * buf[s][j] - buf[s][TILE - 1 - j];
            if (k + STAGES < TILES_PER_BLOCK) {
                auto token = empty[s].arrive();
                (void)token;
            }
        }
    }
}

__global__ void pipe(const int *in, int *out) {
    __shared__ int buf[STAGES][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state);
    int j = threadIdx.x, fetched = 0;
    for (int t = 0; t < 4; t++) {
        for (; fetched < 4 && fetched < t + STAGES; fetched++) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetched % STAGES][j], &in[TILE * fetched + j], sizeof(int), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        __syncthreads();  // every thread's copy of the stage has landed
        out[TILE * t + j] = 2 * buf[t % STAGES][(j + 1) % TILE] + 1;
        __syncthreads();  // every thread has read it before the stage is refilled
        pipe.consumer_release();
    }
}

// mbarrier.test_wait.parity (PTX 7.1, sm_80; the header's __mbarrier_test_wait_parity
// is sm_90 only and traps below it)
__device__ int parity_done(__mbarrier_t *b, int parity) {
    unsigned a = (unsigned)__cvta_generic_to_shared(b);
    int done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.s32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(a), "r"(parity)
                 : "memory");
    return done;
}

__global__ void drop(int *out) {
    __shared__ __mbarrier_t b;
    if (threadIdx.x == 0) __mbarrier_init(&b, 32);
    __syncwarp();
    __mbarrier_token_t t = threadIdx.x < 8 ? __mbarrier_arrive(&b) : __mbarrier_arrive_and_drop(&b);
    while (!__mbarrier_test_wait(&b, t)) {
    }
    int done = -1;
    if (threadIdx.x < 8) {
        t = __mbarrier_arrive(&b);
        while (!__mbarrier_test_wait(&b, t)) {
        }
        done = parity_done(&b, 1);
    }
    out[threadIdx.x] = done;
    if (threadIdx.x == 0) out[32] = parity_done(&b, 0);
}

int main() {
    const int n = 2 * TILES_PER_BLOCK * TILE;
    int *in, *out, *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, n * sizeof(int)));
    pipeline<<<2, 128>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 256 * (i / TILE) + 4 * (i % TILE) - 127;
    printf("pipeline: out[0] %d out[127] %d out[650] %d out[2047] %d, %d wrong\n", h[0], h[127], h[650], h[2047],
           bad);
    pipe<<<1, TILE>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, 4 * TILE * sizeof(int), cudaMemcpyDeviceToHost));
    int bad2 = 0;
    for (int i = 0; i < 4 * TILE; i++) bad2 += h[i] != 2 * (TILE * (i / TILE) + (i % TILE + 1) % TILE) + 1;
    printf("pipe: out[0] %d out[127] %d out[128] %d out[511] %d, %d wrong\n", h[0], h[127], h[128], h[511], bad2);
    bad += bad2;
    drop<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, 33 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("drop: lanes 0..7 %d %d, lanes 8..31 %d %d, parity 0 done %d\n", h[0], h[7], h[8], h[31], h[32]);
    free(h);
    return bad != 0;
}
