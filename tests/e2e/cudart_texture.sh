#!/usr/bin/env bash
# An ordinary CUDA program using texture and surface objects (arrays, copies,
# filtering, gather, tex1Dfetch, layered textures, surfaces), functional and timing.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build texture "$SRC/tests/cudart/texture.cu"
for mode in --functional ""; do
  run texture $mode
  [ "$status" = 0 ] || { show texture; fail "texture ${mode:-timing} exited with $status"; }
  diff "$SRC/tests/cudart/texture.expected" "$WORK/texture.out" ||
    { show texture; fail "texture ${mode:-timing}: output differs (< expected, > got)"; }
done
# timing mode reports the texture cache (GPGPU-Sim's L1T statistics)
grep -q "L1T_total_cache_accesses" "$WORK/texture.err" || { show texture; fail "no L1T statistics in timing mode"; }
echo "PASS: texture and surface objects through the CUDA runtime"
