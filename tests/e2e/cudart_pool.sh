#!/usr/bin/env bash
# Stream-ordered allocation and memory pools (issue 33, item 2): an allocator loop of
# cudaMallocAsync / kernel / cudaFreeAsync, pool attributes (release threshold, memory
# in use, high-water mark), a pool of one's own; the persisting-L2 hints (limit, a stream's
# access-policy window: accepted and read back); both modes (tests/cudart/pool.cu).
set -euo pipefail
source "$2/tests/cudart/common.sh"
build pool "$SRC/tests/cudart/pool.cu"
cat > "$WORK/expected" <<'OUT'
memory pools supported: 1
release threshold kept: 1
allocator loop: values right, in use after 0, high-water 10240
own pool in use: 12288
own pool in use after freeing: 0
persisting L2 max > 0: 1, window max > 0: 1
persisting limit kept: 1, window read back: 1048576 bytes, hit ratio 0.5, persisting 1
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run pool --functional; else run pool; fi
  [ "$status" = 0 ] || { show pool; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/pool.out" || { show pool; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: cudaMallocAsync / cudaFreeAsync and memory pools, functional and timing"
