#!/usr/bin/env bash
# __constant__ / __device__ variables through cudaMemcpyToSymbol and friends.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build constant "$SRC/tests/cudart/constant.cu"
cat > "$WORK/expected" <<'OUT'
bias before: 1000
sizeof coeff: 32
out[0] = 1001.5, out[9] = 1003.0, out[99] = 1009.0
counter: 100
PASS
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run constant --functional; else run constant --config fermi_gtx480; fi
  [ "$status" = 0 ] || { show constant; fail "constant ($mode) exited with $status"; }
  diff "$WORK/expected" "$WORK/constant.out" || { show constant; fail "constant ($mode): unexpected output"; }
done
echo "PASS: constant memory program, functional and timing"
