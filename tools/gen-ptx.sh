#!/usr/bin/env bash
# Regenerate workloads/*/kernel.ptx and ubench/kernel.ptx from kernel.cu with the flags the project uses.
# With --check, regenerate into a temporary file and fail if it differs from the
# committed one (the committed PTX must match its source).
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
# compute_75 unless the workload's directory has an `arch` file naming another
# (workloads/gemm_async: compute_80, for cp.async)
FLAGS=(-ptx -O3 -Iworkloads/common)
arch_of() { if [ -f "$1/arch" ]; then cat "$1/arch"; else echo compute_75; fi; }
check=0; [ "${1:-}" = "--check" ] && { check=1; shift; }
dirs=("$@"); [ ${#dirs[@]} -eq 0 ] && dirs=(workloads/*/ ubench/)
status=0
for d in "${dirs[@]}"; do
  d=${d%/}
  [ -f "$d/kernel.cu" ] || continue
  if [ $check -eq 1 ]; then
    tmp=$(mktemp --suffix=.ptx)
    "$NVCC" "${FLAGS[@]}" -arch="$(arch_of "$d")" "$d/kernel.cu" -o "$tmp"
    if ! cmp -s "$tmp" "$d/kernel.ptx"; then echo "STALE: $d/kernel.ptx does not match $d/kernel.cu"; status=1; fi
    rm -f "$tmp"
  else
    "$NVCC" "${FLAGS[@]}" -arch="$(arch_of "$d")" "$d/kernel.cu" -o "$d/kernel.ptx"
    echo "generated $d/kernel.ptx"
  fi
done
exit $status
