#!/usr/bin/env bash
# __constant__ / __device__ variables through cudaMemcpyToSymbol and friends.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build constant "$SRC/tests/cudart/constant.cu"
run constant --functional
[ "$status" = 0 ] || { show constant; fail "constant exited with $status"; }
cat > "$WORK/expected" <<'OUT'
bias before: 1000
sizeof coeff: 32
out[0] = 1001.5, out[9] = 1003.0, out[99] = 1009.0
counter: 100
PASS
OUT
diff "$WORK/expected" "$WORK/constant.out" || { show constant; fail "constant: unexpected output"; }
echo "PASS: constant memory program"
