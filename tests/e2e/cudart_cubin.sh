#!/usr/bin/env bash
# A binary whose fatbinary holds only cubins (SASS) cannot run: the message says how
# to rebuild with PTX.  -arch=sm_75 embeds PTX too (nvcc adds compute_75), so it runs.
set -euo pipefail
source "$2/tests/cudart/common.sh"
# build() passes -arch=compute_75; these need their own target flags
"$NVCC" -cudart shared -gencode arch=compute_75,code=sm_75 -I"$SRC/tests/cudart" \
  -o "$WORK/cubin_only" "$SRC/tests/cudart/constant.cu"
"$BUILD/cudart/locsim-fatbin" --list "$WORK/cubin_only" | grep -q 'ptx ' && fail "expected no PTX in the cubin-only build"
run cubin_only --functional
[ "$status" != 0 ] || { show cubin_only; fail "cubin-only binary ran"; }
grep -q "locsim: .*cubin_only contains no PTX for its kernels.*rebuild with PTX, e.g. -arch=compute_75 or -gencode arch=compute_75,code=compute_75" \
  "$WORK/cubin_only.err" || { show cubin_only; fail "no rebuild-with-PTX message"; }
[ ! -s "$WORK/cubin_only.out" ] || { show cubin_only; fail "program ran before the error"; }

"$NVCC" -cudart shared -arch=sm_75 -I"$SRC/tests/cudart" -o "$WORK/sm75" "$SRC/tests/cudart/constant.cu"
run sm75 --functional
[ "$status" = 0 ] && grep -q '^PASS$' "$WORK/sm75.out" || { show sm75; fail "-arch=sm_75 build (cubin + PTX) did not run"; }

# Registers per thread: from the sm_75 cubin beside the PTX (what ptxas -v printed for the
# same build), reported by cudaFuncGetAttributes and used by the timing model (no launch
# estimated); a PTX-only build estimates them.
"$NVCC" -cudart shared -arch=sm_75 -Xptxas -v -I"$SRC/tests/cudart" -o "$WORK/regs75" "$SRC/tests/cudart/regs.cu" \
  2>"$WORK/regs75.ptxas"
want=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$WORK/regs75.ptxas" | head -1)
[ -n "$want" ] || { cat "$WORK/regs75.ptxas"; fail "no register count in ptxas -v's listing"; }
run regs75 --json "$WORK/regs75.json"
[ "$status" = 0 ] && grep -q '^PASS$' "$WORK/regs75.out" || { show regs75; fail "-arch=sm_75 regs program did not run"; }
grep -q "^numRegs $want\$" "$WORK/regs75.out" || { show regs75; fail "numRegs is not ptxas's $want"; }
grep -q '"gpu_kernel_regs_estimated": 0[,}]' "$WORK/regs75.json" || { grep -o '"gpu_kernel_regs_estimated": [0-9]*' "$WORK/regs75.json" | head -2; fail "the sm_75 build's launch was estimated"; }
ARCH=compute_75 build regs_ptx "$SRC/tests/cudart/regs.cu"
run regs_ptx --json "$WORK/regs_ptx.json"
[ "$status" = 0 ] || { show regs_ptx; fail "PTX-only regs program did not run"; }
grep -q '"gpu_kernel_regs_estimated": 1[,}]' "$WORK/regs_ptx.json" || fail "the PTX-only build's launch was not counted as estimated"

# relocatable device code: kernels completed by the device linker, which locsim lacks
"$NVCC" -cudart shared -arch=compute_75 -rdc=true -I"$SRC/tests/cudart" -o "$WORK/rdc" "$SRC/tests/cudart/constant.cu"
run rdc --functional
[ "$status" != 0 ] && grep -q "locsim: .*rdc was built with relocatable device code (-rdc=true / -dc): locsim supports neither relocatable device code .* nor dynamic parallelism .*rebuild without -rdc" \
  "$WORK/rdc.err" || { show rdc; fail "-rdc build not explained"; }
"$BUILD/cudart/locsim-fatbin" --list "$WORK/rdc" | grep -q '^section __nv_relfatbin$' || fail "locsim-fatbin does not list __nv_relfatbin"
echo "PASS: cubin-only refused with a rebuild hint; -arch=sm_75 runs from its PTX with the cubin's register counts ($want); -rdc explained"
