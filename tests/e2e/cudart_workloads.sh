#!/usr/bin/env bash
# Every workload's kernel.cu is also an ordinary CUDA program (its own main and CPU
# check): built with nvcc as users build theirs, it prints PASS under `locsim exec`,
# unmodified -- in functional mode at its default (evaluation) size, and in timing
# mode at size 1 with another seed (the cycle-level model is slower; this keeps the
# test short under the sanitizers).  New workload directories are picked up
# automatically.  CUDART_WORKLOADS="bfs kmeans" runs a subset.
set -euo pipefail
source "$2/tests/cudart/common.sh"
names=${CUDART_WORKLOADS:-}
if [ -z "$names" ]; then
  for d in "$SRC"/workloads/*/; do
    [ -f "$d/kernel.cu" ] && grep -q 'int main' "$d/kernel.cu" && names="$names $(basename "$d")"
  done
fi
[ -n "$names" ] || { echo "SKIP: no workloads/*/kernel.cu with a main()"; exit 0; }

# The stand-alone programs take the size and seed either as --size S --seed N or as
# two positional arguments.
small_args() {
  if grep -q -- '"--size"' "$SRC/workloads/$1/kernel.cu"; then echo "--size 1 --seed 2"; else echo "1 2"; fi
}

failed=""
check() {  # check NAME MODE: the last run printed PASS and exited 0
  if [ "$status" = 0 ] && grep -q '^PASS$' "$WORK/$1.out"; then
    echo "ok: $1 ($2)"
  else
    echo "FAIL: $1 ($2): exit $status"
    tail -5 "$WORK/$1.out" "$WORK/$1.err" | sed 's/^/    /'
    failed="$failed $1/$2"
  fi
}
for name in $names; do
  ARCH=$(cat "$SRC/workloads/$name/arch" 2>/dev/null || echo compute_75) build "$name" "$SRC/workloads/$name/kernel.cu" -O3
  # a tensor-core workload runs with the tensor cores the default (Fermi) configuration lacks
  tc=()
  grep -qE '^[[:space:]]*(wmma\.|mma\.sync|ldmatrix\.)' "$SRC/workloads/$name/kernel.ptx" && tc=(-gpgpu_tensor_core_avail 1)
  run "$name" --functional ${tc[@]+"${tc[@]}"}
  check "$name" functional
  # shellcheck disable=SC2046  # the arguments are words
  run "$name" ${tc[@]+"${tc[@]}"} -- $(small_args "$name")
  check "$name" "timing, size 1"
  grep -q '^locsim: gpu_sim_cycle  *[1-9]' "$WORK/$name.err" || { echo "FAIL: $name: no timing statistics"; failed="$failed $name/stats"; }
done
[ -z "$failed" ] || fail "workloads that did not PASS under locsim exec:$failed"
echo "PASS: every stand-alone workload build passes under locsim exec (functional and timing)"
