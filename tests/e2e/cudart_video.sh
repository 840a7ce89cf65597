#!/usr/bin/env bash
# SIMD video instructions (issue 33, item 4): nvcc's __vabsdiffu4 / __vsadu4 and inline
# vadd4.sat, vsub4 with a mask, vmax2 with selectors, values worked by hand in
# tests/cudart/video.cu, in both modes.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build video "$SRC/tests/cudart/video.cu"
grep -q "vabsdiff4" <("$BUILD/cudart/locsim-fatbin" "$WORK/video") || fail "nvcc no longer emits vabsdiff4 for __vabsdiffu4"
cat > "$WORK/expected" <<'OUT'
video 0: 0x10ef0210
video 1: 0x00000111
video 2: 0x30f10080
video 3: 0x0aef0cf0
video 4: 0x20010c0d
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run video --functional; else run video; fi
  [ "$status" = 0 ] || { show video; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/video.out" || { show video; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: SIMD video instructions, functional and timing"
