#!/usr/bin/env bash
# mbarrier objects and cp.async completion on them (issue 33, item 4): a
# cuda::barrier producer/consumer pipeline fed by cuda::memcpy_async (cp.async +
# cp.async.mbarrier.arrive), a cuda::pipeline over a block, and the __mbarrier_*
# primitives with arrive_drop
# (tests/cudart/mbarrier.cu, values worked by hand there), built for compute_80
# (mbarrier.test_wait) and compute_90 (mbarrier.try_wait, arrive with a count),
# each run in functional and timing mode.
set -euo pipefail
source "$2/tests/cudart/common.sh"
cat > "$WORK/expected" <<'OUT'
pipeline: out[0] -127 out[127] 381 out[650] 1193 out[2047] 4221, 0 wrong
pipe: out[0] 3 out[127] 1 out[128] 259 out[511] 769, 0 wrong
drop: lanes 0..7 1 1, lanes 8..31 -1 -1, parity 0 done 0
OUT
for arch in 80 90; do
  ARCH=compute_$arch build mbarrier$arch "$SRC/tests/cudart/mbarrier.cu" -std=c++17
  ptx=$("$BUILD/cudart/locsim-fatbin" "$WORK/mbarrier$arch")
  grep -q "cp.async.mbarrier.arrive" <<<"$ptx" || fail "compute_$arch: nvcc emitted no cp.async.mbarrier.arrive"
  grep -q "mbarrier.arrive_drop" <<<"$ptx" || fail "compute_$arch: nvcc emitted no mbarrier.arrive_drop"
  wait=$([ $arch = 80 ] && echo test_wait || echo try_wait)
  grep -q "mbarrier.$wait" <<<"$ptx" || fail "compute_$arch: nvcc emitted no mbarrier.$wait"
  for mode in functional timing; do
    if [ $mode = functional ]; then run mbarrier$arch --functional; else run mbarrier$arch; fi
    [ "$status" = 0 ] || { show mbarrier$arch; fail "compute_$arch $mode: exit $status"; }
    diff "$WORK/expected" "$WORK/mbarrier$arch.out" || { show mbarrier$arch; fail "compute_$arch $mode: output differs (< expected, > got)"; }
  done
done
echo "PASS: cuda::barrier pipeline with memcpy_async, cuda::pipeline and mbarrier primitives, compute_80 and compute_90, functional and timing"
