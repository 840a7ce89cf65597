#!/usr/bin/env bash
# The committed workloads/*/kernel.ptx must be what nvcc generates from kernel.cu.
# Skipped (with a message) where nvcc is not installed.
set -u
src=$2
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "SKIP: nvcc not found; cannot check that kernel.ptx matches kernel.cu"
  exit 0
fi
bash "$src/tools/gen-ptx.sh" --check
