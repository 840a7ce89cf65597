// Warp-level .sync instructions (issue 33):
// - item 1, per-lane member masks: cooperative groups' tiled_partition(block, 16)
//   gives lanes 0-15 the mask 0x0000ffff and lanes 16-31 the mask 0xffff0000 at the
//   same instruction (bar.warp.sync, shfl.sync, vote.sync, match.sync).  64 threads,
//   in[i] = i; every value below is worked by hand in the comments.
// - item 7, shfl.sync reading lanes that do not execute it: the vendor samples'
//   two-stage reduction (second stage in lanes tid < blockDim/32 only, mask from a
//   ballot, shuffling down from lanes 16..1) is right on GPUs, which give 0 for
//   such lanes.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

struct Out {
    int sum[4];        // per tile t (threads 16t..16t+15): 16*16t + (0+..+15) = 256t + 120
    unsigned ballot[4];  // ballot(odd rank): ranks 1,3,..,15 -> 0xaaaa in every tile
    int any[4];        // any(i == 20): only tile 1 (threads 16..31)
    int all[4];        // all(i < 40): tiles 0 and 1 (threads 0..31); tile 2 holds 40..47
    unsigned match[64];  // match_any(i / 4): the 4 ranks sharing i/4: 0xf << (rank & ~3)
    int scan[64];      // inclusive prefix sum inside the tile, by shfl_up: r(r+1)/2 + 16t(r+1)
    int bcast[64];     // shfl(v, 5): rank 5's value, 16t + 5
};

__global__ void tiles(Out *o) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int i = threadIdx.x, r = tile.thread_rank(), t = i / 16;
    int v = i;
    tile.sync();
    for (int d = 8; d > 0; d /= 2) v += tile.shfl_down(v, d);
    if (r == 0) o->sum[t] = v;
    unsigned b = tile.ballot(r & 1);
    int any = tile.any(i == 20), all = tile.all(i < 40);
    if (r == 0) {
        o->ballot[t] = b;
        o->any[t] = any;
        o->all[t] = all;
    }
    o->match[i] = tile.match_any(i / 4);
    int s = i;
    for (int d = 1; d < 16; d *= 2) {
        int u = tile.shfl_up(s, d);
        if (r >= d) s += u;
    }
    tile.sync();
    o->scan[i] = s;
    o->bcast[i] = tile.shfl(i, 5);
}

// The same through the dynamic-size API (cg::tiled_partition(block, 16)).
__global__ void dyn_tiles(int *sum) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 16);
    tile.sync();
    __shared__ int acc[4];
    if (tile.thread_rank() == 0) acc[threadIdx.x / 16] = 0;
    tile.sync();
    atomicAdd(&acc[threadIdx.x / 16], (int)threadIdx.x);
    tile.sync();
    if (tile.thread_rank() == 0) sum[threadIdx.x / 16] = acc[threadIdx.x / 16];
}

// The two-stage block reduction of the vendor samples' default kernel: each warp
// reduces by shfl_down over the full warp, lane 0 stores the warp's sum, then the
// first blockDim/32 lanes reduce those sums with the mask ballot(tid < warps) --
// 0x1 for 32 threads, 0x3 for 64 -- still shuffling down by 16, 8, 4, 2, 1 from
// lanes that do not execute the shfl.  in[i] = i: 32 threads give 0+..+31 = 496,
// 64 give 0+..+63 = 2016 (with the stale registers of the idle lanes, more).
__global__ void two_stage(const int *in, int *out) {
    __shared__ int sdata[32];
    unsigned tid = threadIdx.x;
    int sum = in[tid];
    for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffff, sum, d);
    if (tid % 32 == 0) sdata[tid / 32] = sum;
    __syncthreads();
    unsigned warps = blockDim.x / 32;
    unsigned mask = __ballot_sync(0xffffffff, tid < warps);
    if (tid < warps) {
        sum = sdata[tid];
        for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(mask, sum, d);
    }
    if (tid == 0) *out = sum;
}

int main() {
    Out *d, h;
    int *dsum, hsum[4];
    CHECK(cudaMalloc(&d, sizeof(Out)));
    CHECK(cudaMalloc(&dsum, sizeof hsum));
    CHECK(cudaMemset(d, 0xff, sizeof(Out)));
    tiles<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    dyn_tiles<<<1, 64>>>(dsum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hsum, dsum, sizeof hsum, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < 4; t++) {
        printf("tile %d: sum %d ballot 0x%x any %d all %d dyn sum %d\n", t, h.sum[t], h.ballot[t], h.any[t], h.all[t],
               hsum[t]);
        bad |= h.sum[t] != 256 * t + 120 || h.ballot[t] != 0xaaaa || h.any[t] != (t == 1) || h.all[t] != (t < 2) ||
               hsum[t] != 256 * t + 120;
    }
    for (int i = 0; i < 64; i++) {
        int r = i % 16, t = i / 16;
        if (h.match[i] != (0xfu << (r & ~3)) || h.scan[i] != r * (r + 1) / 2 + 16 * t * (r + 1) ||
            h.bcast[i] != 16 * t + 5) {
            printf("thread %d: match 0x%x scan %d bcast %d\n", i, h.match[i], h.scan[i], h.bcast[i]);
            bad = 1;
        }
    }
    int *din, *dred, in[64], red[2];
    for (int i = 0; i < 64; i++) in[i] = i;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dred, sizeof red));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    two_stage<<<1, 32>>>(din, dred);
    two_stage<<<1, 64>>>(din, dred + 1);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(red, dred, sizeof red, cudaMemcpyDeviceToHost));
    printf("two-stage reduction: 32 threads %d, 64 threads %d\n", red[0], red[1]);
    bad |= red[0] != 496 || red[1] != 2016;
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad;
}
