#!/usr/bin/env bash
# Device code locsim cannot run (issue 33, item 5): in a module of several kernels,
# a kernel using an unsupported instruction (tex.acube: layered cube maps) fails at its own launch with cudaErrorInvalidPtx and a
# message that names the whole instruction; the module's other kernel runs before
# and after, in both modes, and the program exits 0.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build unsupported "$SRC/tests/cudart/unsupported.cu"

cat > "$WORK/expected" <<'OUT'
uses_acube: cudaErrorInvalidPtx
plain before: v[0] 100 v[31] 131
plain after: v[0] 200 v[31] 231
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run unsupported --functional; else run unsupported; fi
  [ "$status" = 0 ] || { show unsupported; fail "$mode: exit $status (the module must load; only the launches fail)"; }
  diff "$WORK/expected" "$WORK/unsupported.out" || { show unsupported; fail "$mode: output differs (< expected, > got)"; }
  e="$WORK/unsupported.err"
  grep -q "launch of _Z10uses_acubeyPf refused: .*ptx\]:[0-9]*:[0-9]*: tex.acube.v4.f32.f32 is not supported" "$e" ||
    { show unsupported; fail "$mode: tex.acube not named"; }
  ! grep -q "unknown opcode" "$e" || { show unsupported; fail "$mode: an unsupported instruction reported as unknown"; }
done
echo "PASS: unsupported instructions fail only their own kernel's launch, named"
