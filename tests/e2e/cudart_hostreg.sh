#!/usr/bin/env bash
# cudaHostRegister / cudaHostUnregister / cudaStreamAttachMemAsync (issue 33, item 3):
# registered host memory used by kernels through its own pointer and through
# cudaHostGetDevicePointer, the errors a driver gives, in both modes
# (tests/cudart/hostreg.cu).
set -euo pipefail
source "$2/tests/cudart/common.sh"
build hostreg "$SRC/tests/cudart/hostreg.cu"
cat > "$WORK/expected" <<'OUT'
overlapping register: cudaErrorHostMemoryAlreadyRegistered
host register supported: 1
after twice: h[1] 2 h[63] 126
after plus: h[0] 1001 h[1] 3 h[63] 127
pointer type: 1
second unregister: cudaErrorHostMemoryNotRegistered
managed after attach: m[5] 10
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run hostreg --functional; else run hostreg; fi
  [ "$status" = 0 ] || { show hostreg; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/hostreg.out" || { show hostreg; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: cudaHostRegister and cudaStreamAttachMemAsync, functional and timing"
