#!/usr/bin/env bash
# Every workload's kernel.cu is also an ordinary CUDA program (its own main and CPU
# check): built with nvcc as users build theirs, it prints PASS under `locsim exec`,
# unmodified.  New workload directories are picked up automatically.
# Set CUDART_WORKLOADS="bfs kmeans" to run a subset, CUDART_WORKLOAD_MODES="functional
# timing" to choose the modes (default: functional).
set -euo pipefail
source "$2/tests/cudart/common.sh"
modes=${CUDART_WORKLOAD_MODES:-functional}
names=${CUDART_WORKLOADS:-}
if [ -z "$names" ]; then
  for d in "$SRC"/workloads/*/; do
    [ -f "$d/kernel.cu" ] && grep -q 'int main' "$d/kernel.cu" && names="$names $(basename "$d")"
  done
fi
[ -n "$names" ] || { echo "SKIP: no workloads/*/kernel.cu with a main()"; exit 0; }
failed=""
for name in $names; do
  build "$name" "$SRC/workloads/$name/kernel.cu" -O3
  for mode in $modes; do
    opt=()
    [ "$mode" = functional ] && opt=(--functional)
    run "$name" "${opt[@]}"
    if [ "$status" = 0 ] && grep -q '^PASS$' "$WORK/$name.out"; then
      echo "ok: $name ($mode)"
    else
      echo "FAIL: $name ($mode): exit $status"
      tail -5 "$WORK/$name.out" "$WORK/$name.err" | sed 's/^/    /'
      failed="$failed $name/$mode"
    fi
  done
done
[ -z "$failed" ] || fail "workloads that did not PASS under locsim exec:$failed"
echo "PASS: every stand-alone workload build passes under locsim exec"
