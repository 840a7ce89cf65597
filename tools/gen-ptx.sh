#!/usr/bin/env bash
# Regenerate workloads/*/kernel.ptx and ubench/kernel.ptx from kernel.cu with the flags the project uses,
# and beside each workload's kernel.ptx its ptxas listing, kernel.ptxas (`ptxas -v` for the PTX's own target,
# sm_75 for compute_75): the registers per thread of each kernel are taken from it, as GPGPU-Sim
# takes them from ptxas's output (docs/timing-core.md).
# With --check, regenerate into temporary files and fail if they differ from the
# committed ones (the committed PTX and listing must match their source).
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
PTXAS=${PTXAS:-$(dirname "$(command -v "$NVCC")")/ptxas}
# ptxas -v writes its listing to stderr; the compile time line varies from run to run
listing() { "$PTXAS" -v -arch="sm_${1#compute_}" "$2" -o /dev/null 2>&1 | grep -v "Compile time"; }
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
    if [ "$d" != ubench ] && ! cmp -s <(listing "$(arch_of "$d")" "$d/kernel.ptx") "$d/kernel.ptxas"; then
      echo "STALE: $d/kernel.ptxas is not ptxas's listing of $d/kernel.ptx"; status=1
    fi
    rm -f "$tmp"
  else
    "$NVCC" "${FLAGS[@]}" -arch="$(arch_of "$d")" "$d/kernel.cu" -o "$d/kernel.ptx"
    [ "$d" = ubench ] || listing "$(arch_of "$d")" "$d/kernel.ptx" >"$d/kernel.ptxas"
    echo "generated $d/kernel.ptx (and kernel.ptxas for a workload)"
  fi
done
exit $status
