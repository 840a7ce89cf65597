#!/usr/bin/env bash
# Build the locsim microbenchmarks as a standalone CUDA program (ubench/main.cu:
# the kernels of ubench/kernel.cu, the source of the PTX `locsim ubench` runs,
# and a host main that prints the same rows), to run on a real GPU or under
# `locsim exec`:
#
#     tools/ubench-cuda/build.sh [OUT]        # default OUT: build/ubench-cuda
#     ./build/ubench-cuda                     # on a GPU
#     locsim exec --config fermi_gtx480 -- ./build/ubench-cuda   # in the simulator
#
# Device code: SASS for each architecture in $ARCHS (default: 70 80 90, the
# Volta, Ampere and Hopper SMs, each one the toolkit can build; nvcc 13 dropped
# Volta, so with it 70 is left out, said on stderr, and sm_75 stands in as the
# oldest SM it supports) plus compute_75 PTX: the lowest target, which a driver
# JIT-compiles for any other GPU and which `locsim exec` loads.  That PTX is
# ubench/kernel.ptx as tools/gen-ptx.sh makes it (tests/e2e/ubench_cuda.sh
# checks it).  The CUDA runtime is linked shared (-cudart shared), which both a
# GPU and `locsim exec` need.
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
[ -x "$(command -v "$NVCC")" ] || { echo "build.sh: nvcc not found (set NVCC)" >&2; exit 2; }
out=${1:-build/ubench-cuda}
mkdir -p "$(dirname "$out")"
supported=$("$NVCC" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_//p')
gencode=(-gencode arch=compute_75,code=compute_75)
for a in ${ARCHS-70 80 90}; do
  if ! grep -qx "$a" <<<"$supported"; then
    echo "build.sh: nvcc $("$NVCC" --version | grep -o 'release [0-9.]*') cannot build sm_$a: left out" >&2
    [ "$a" = 70 ] && gencode+=(-gencode arch=compute_75,code=sm_75)
    continue
  fi
  gencode+=(-gencode "arch=compute_$a,code=sm_$a")
done
"$NVCC" -O3 -cudart shared "${gencode[@]}" -o "$out" ubench/main.cu
echo "built $out"
