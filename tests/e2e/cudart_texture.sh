#!/usr/bin/env bash
# An ordinary CUDA program using texture and surface objects (arrays, copies,
# filtering, gather, tex1Dfetch, layered textures, surfaces), functional and timing.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build texture "$SRC/tests/cudart/texture.cu"
for mode in --functional --json; do
  if [ "$mode" = --json ]; then run texture --json "$WORK/texture.json"; else run texture "$mode"; fi
  [ "$status" = 0 ] || { show texture; fail "texture ($mode) exited with $status"; }
  diff "$SRC/tests/cudart/texture.expected" "$WORK/texture.out" ||
    { show texture; fail "texture ($mode): output differs (< expected, > got)"; }
done
# timing mode sends the 5 texture fetches through the texture cache (GPGPU-Sim's
# L1T statistics): sample x2, gather, tex1Dfetch, layered
grep -q '"L1T_total_cache_accesses": 5[,}]' "$WORK/texture.json" ||
  { grep -o '"L1T_total_cache_accesses": [0-9]*' "$WORK/texture.json"; fail "expected 5 L1T accesses in timing mode"; }
echo "PASS: texture and surface objects through the CUDA runtime"
