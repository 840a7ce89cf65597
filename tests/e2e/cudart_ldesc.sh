#!/usr/bin/env bash
# Locality Descriptors from a CUDA program (include/locsim/locsim_ldesc.h,
# cudart/ldesc.c, docs/ldesc.md):
#  - without locsim's runtime the header's calls are no-ops that return 0
#    (a C program linked against nothing of ours; runs even without nvcc);
#  - under `locsim exec` an annotated program gets the same output with and
#    without its descriptors, and the descriptors reach the CTA scheduler
#    (cta_sched_clusters) and the L1D policy (bypasses, per-descriptor counts);
#  - an invalid descriptor is refused with cudaErrorInvalidValue and the reason.
set -euo pipefail
SRC=$(readlink -f "$2")
NOOP=$(mktemp -d)
trap 'rm -rf "$NOOP"' EXIT
cc -std=c11 -Wall -Werror -I"$SRC/include/locsim" -o "$NOOP/noop" "$SRC/tests/cudart/ldesc_noop.c"
got=$("$NOOP/noop")
[ "$got" = "active=0 attach=0 id=-1 detach=0 clear=0" ] || { echo "FAIL: no-op path printed: $got"; exit 1; }
rm -rf "$NOOP"
trap - EXIT

source "$2/tests/cudart/common.sh"
cat > "$WORK/hist.cu" <<'CU'
// A histo-like kernel: every CTA of a grid column reads the same 512-word slice of
// `table` (inter-CTA sharing: C-Tile = one column of the grid), each thread streams
// its own word of `in` once (NO_REUSE).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "locsim_ldesc.h"
#define GX 8
#define GY 4
#define SLICE 512
__global__ void hist(const int *table, const int *in, int *out) {
    int col = blockIdx.x, t = threadIdx.x;
    int gid = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + t;
    int acc = in[gid];
    for (int r = 0; r < 2; r++)   // the second pass re-reads the slice, shifted a line: L1 hits
        for (int k = 0; k < SLICE; k += 64) acc += table[col * SLICE + (k + t + 32 * r) % SLICE] * (r + 1);
    out[gid] = acc;
}
int main(int argc, char **argv) {
    int annotate = argc > 1 && !strcmp(argv[1], "annotate"), bad = argc > 1 && !strcmp(argv[1], "bad");
    const int n = GX * GY * 64;
    int *h_table = (int *)malloc(GX * SLICE * sizeof(int)), *h_in = (int *)malloc(n * sizeof(int));
    int *h_out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < GX * SLICE; i++) h_table[i] = (i * 7) % 13;
    for (int i = 0; i < n; i++) h_in[i] = i % 5;
    int *table, *in, *out;
    cudaMalloc(&table, GX * SLICE * sizeof(int));
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(table, h_table, GX * SLICE * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    if (annotate || bad) {
        locsim_ldesc t = locsimLdescMake(table, GX * SLICE * sizeof(int), LOCSIM_LDESC_INTER_THREAD, sizeof(int));
        t.data_tile.x = SLICE;
        t.compute_tile.y = GY;      // a C-Tile is one grid column
        t.stride = 1;
        t.priority = 1;
        if (bad) t.compute_tile.x = 0;
        int id, e = locsimLdescAttach(&t, &id);
        printf("table: attach=%d id=%d active=%d\n", e, id, locsimLdescActive());
        if (bad) return e == cudaErrorInvalidValue && cudaGetLastError() == cudaErrorInvalidValue ? 3 : 4;
        locsim_ldesc s = locsimLdescMake(in, n * sizeof(int), LOCSIM_LDESC_NO_REUSE, sizeof(int));
        e = locsimLdescAttach(&s, &id);
        printf("in: attach=%d id=%d\n", e, id);
    }
    hist<<<dim3(GX, GY), 64>>>(table, in, out);
    cudaMemcpy(h_out, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < n; i++) sum += (long)h_out[i] * (i % 17 + 1);
    printf("checksum %ld\n", sum);
    return 0;
}
CU
build hist "$WORK/hist.cu" -I"$SRC/include/locsim"
opts=(-cta_scheduler ldesc -l1d_policy ldesc)
run hist --json "$WORK/plain.json" "${opts[@]}" -- plain
[ "$status" = 0 ] || { show hist; fail "plain run failed"; }
cp "$WORK/hist.out" "$WORK/plain.out"
run hist --json "$WORK/ann.json" "${opts[@]}" -- annotate
[ "$status" = 0 ] || { show hist; fail "annotated run failed"; }
grep -q '^table: attach=0 id=0 active=1$' "$WORK/hist.out" || { show hist; fail "table descriptor not attached"; }
grep -q '^in: attach=0 id=1$' "$WORK/hist.out" || { show hist; fail "input descriptor not attached"; }
# a descriptor never changes the results
plain_sum=$(grep '^checksum' "$WORK/plain.out")
ann_sum=$(grep '^checksum' "$WORK/hist.out")
[ -n "$plain_sum" ] && [ "$plain_sum" = "$ann_sum" ] || fail "results differ: '$plain_sum' vs '$ann_sum'"
stat() {  # stat FILE NAME: the timing model's total of a statistic in a --json file
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(d["timing"]["total"][sys.argv[2]]))' "$1" "$2"
}
# Clusters: the grid is 8 x 4 on 15 SMs; the C-Tile (1,4,1) gives 8 tiles < 15, so
# Algorithm 1 halves it to (1,2,1): 16 clusters.
[ "$(stat "$WORK/ann.json" cta_sched_clusters)" = 16 ] || fail "cta_sched_clusters $(stat "$WORK/ann.json" cta_sched_clusters), expected 16"
[ "$(stat "$WORK/plain.json" cta_sched_clusters)" = 0 ] || fail "clusters formed without descriptors"
# NO_REUSE: misses on `in` allocate nothing; the table's reuse shows as hits of descriptor 0
[ "$(stat "$WORK/ann.json" ldesc_d1_l1_bypasses)" -gt 0 ] || fail "no L1 bypass for the NO_REUSE input"
[ "$(stat "$WORK/ann.json" ldesc_d0_l1_hits)" -gt 0 ] || fail "no per-descriptor L1 hits on the table"
[ "$(stat "$WORK/plain.json" ldesc_l1_accesses)" = 0 ] || fail "described accesses counted without descriptors"
# an invalid descriptor: cudaErrorInvalidValue and the reason on stderr
run hist "${opts[@]}" -- bad
[ "$status" = 3 ] || { show hist; fail "bad descriptor: status $status, expected 3"; }
grep -q 'compute_tile (0,4,1): every dimension must be at least 1 CTA' "$WORK/hist.err" || { show hist; fail "no reason given"; }
echo "PASS"
