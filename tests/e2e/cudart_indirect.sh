#!/usr/bin/env bash
# Indirect calls (issue 33, item 4): C++ virtual functions and a __device__ table of
# function pointers (.callprototype, call through a register, function addresses in a
# .global initializer), lanes of one warp calling different functions at one call;
# values worked by hand in tests/cudart/indirect.cu; both modes.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build indirect "$SRC/tests/cudart/indirect.cu"
grep -q "callprototype" <("$BUILD/cudart/locsim-fatbin" "$WORK/indirect") || fail "nvcc emitted no indirect call"
cat > "$WORK/expected" <<'OUT'
virtual: v[0] 1 v[1] 2 v[2] 4 v[63] 64
table: v[0] 3 v[1] -2 v[2] 6 v[3] 6
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run indirect --functional; else run indirect; fi
  [ "$status" = 0 ] || { show indirect; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/indirect.out" || { show indirect; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: indirect calls (virtual functions, function-pointer table), functional and timing"
