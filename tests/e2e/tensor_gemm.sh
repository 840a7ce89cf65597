#!/usr/bin/env bash
# The tensor-core GEMM workload (issue 35 item 3, docs/tensor.md): its kernel.cu, an
# ordinary CUDA program built with nvcc for sm_80 (wmma m16n16k16 and mma.sync
# m16n8k16 + ldmatrix), passes its bit-exact check under `locsim exec` in both modes
# with -gpgpu_tensor_core_avail 1, and as `locsim run tensor_gemm`; the timing run
# counts every wmma.mma / mma.sync on the tensor pipeline; on the default (Fermi)
# configuration, which has no tensor cores, the launch is refused with a message
# naming the instruction and the option.
set -euo pipefail
source "$2/tests/cudart/common.sh"
ARCH=compute_80 build tensor_gemm "$SRC/workloads/tensor_gemm/kernel.cu" -O3

for mode in functional timing; do
  if [ $mode = functional ]; then run tensor_gemm --functional -gpgpu_tensor_core_avail 1 -- 1 3
  else run tensor_gemm -gpgpu_tensor_core_avail 1 --json "$WORK/exec.json" -- 1 3; fi
  [ "$status" = 0 ] && grep -q '^PASS$' "$WORK/tensor_gemm.out" || { show tensor_gemm; fail "exec, $mode: did not PASS"; }
done
echo "ok: locsim exec, functional and timing"

# size 1: M = N = 64, K = 64: 4 CTAs of 4 warps; per warp K/16 = 4 k steps, one
# wmma.mma each (tgemm_wmma) and two mma.sync each (tgemm_mma)
python3 - "$WORK/exec.json" <<'PY' || fail "tensor instructions not counted on the tensor pipeline"
import json, sys
d = json.load(open(sys.argv[1]))
ks = d["timing"]["kernels"]
want = [4 * 4 * 4 * 1, 4 * 4 * 4 * 2]
got = [k["stats"].get("warp_insn_tensor") for k in ks]
print("warp_insn_tensor per kernel:", got, "expected", want)
sys.exit(0 if got == want else 1)
PY
echo "ok: warp_insn_tensor counts every wmma.mma and mma.sync"

run tensor_gemm -- 1 3
[ "$status" != 0 ] || { show tensor_gemm; fail "ran without tensor cores"; }
grep -q "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 .*' needs tensor cores.*-gpgpu_tensor_core_avail 0" \
  "$WORK/tensor_gemm.err" || { show tensor_gemm; fail "refusal does not name the instruction and the option"; }
echo "ok: refused on the default configuration, named"

"$LOCSIM" run tensor_gemm --size 1 -gpgpu_tensor_core_avail 1 >"$WORK/run.out" 2>&1 ||
  { cat "$WORK/run.out"; fail "locsim run tensor_gemm did not pass"; }
if "$LOCSIM" run tensor_gemm --size 1 --functional >"$WORK/run0.out" 2>&1; then
  cat "$WORK/run0.out"; fail "locsim run tensor_gemm passed without tensor cores"
fi
grep -q "needs tensor cores" "$WORK/run0.out" || { cat "$WORK/run0.out"; fail "locsim run: no reason given"; }
echo "PASS: tensor_gemm under locsim exec and locsim run, refused without tensor cores"
