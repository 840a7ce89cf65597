#!/usr/bin/env bash
# Regenerate the nvcc-generated test PTX in this directory from its CUDA snippets,
# with the project's flags (syntax.ptx is hand-written and not regenerated).
# With --check, fail if a committed .ptx differs from what nvcc emits now.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
status=0
for cu in *.cu; do
  out=${cu%.cu}.ptx
  if [ "${1:-}" = "--check" ]; then
    tmp=$(mktemp --suffix=.ptx)
    "$NVCC" -ptx -O3 -arch=compute_75 "$cu" -o "$tmp"
    cmp -s "$tmp" "$out" || { echo "STALE: tests/ptx/$out"; status=1; }
    rm -f "$tmp"
  else
    "$NVCC" -ptx -O3 -arch=compute_75 "$cu" -o "$out"
    echo "generated tests/ptx/$out"
  fi
done
exit $status
