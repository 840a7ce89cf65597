#!/usr/bin/env bash
# Cubemap textures (issue 33, item 4): cudaMalloc3DArray(cudaArrayCubemap) and tex.cube
# (texCubemap), point and linear, values worked by hand in tests/cudart/cubemap.cu,
# in both modes.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build cubemap "$SRC/tests/cudart/cubemap.cu"
cat > "$WORK/expected" <<'OUT'
non-square cubemap: cudaErrorInvalidValue
cube 0: 1
cube 1: 10
cube 2: 23
cube 3: 31
cube 4: 40
cube 5: 53
cube 6: 1
cube 7: 1.5
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run cubemap --functional; else run cubemap; fi
  [ "$status" = 0 ] || { show cubemap; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/cubemap.out" || { show cubemap; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: cubemap textures (tex.cube), functional and timing"
