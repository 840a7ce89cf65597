#!/usr/bin/env bash
# Every entry point of NVIDIA's libcudart.so.13 (cudart/entry-points.txt, written by
# cudart/gen-stubs.sh) must be exported by our replacement, implemented or as a stub that
# names itself; a missing one would be a dynamic-loader error in the user's program.
# Usage: check-exports.sh path/to/libcudart.so.13 path/to/entry-points.txt
set -euo pipefail
lib=$1 list=$2
[ -s "$list" ] || { echo "check-exports: $list is missing or empty" >&2; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | LC_ALL=C sort -u)
missing=$(LC_ALL=C comm -23 <(LC_ALL=C sort -u "$list") <(echo "$exported"))
if [ -n "$missing" ]; then
  echo "check-exports: $lib does not export these CUDA runtime entry points:" >&2
  echo "$missing" >&2
  exit 1
fi
echo "check-exports: all $(wc -l < "$list") entry points exported"
