#!/usr/bin/env bash
# A library-heavy program: thrust::sort of 5000 keys (CUB radix sort) runs unmodified,
# functionally and under the timing model.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build thrust_sort "$SRC/tests/cudart/thrust_sort.cu"
run thrust_sort --functional
[ "$status" = 0 ] || { show thrust_sort; fail "thrust_sort exited with $status"; }
grep -qx "PASS sorted 5000" "$WORK/thrust_sort.out" || { show thrust_sort; fail "thrust_sort: unexpected output"; }
run thrust_sort --json "$WORK/timing.json"
[ "$status" = 0 ] || { show thrust_sort; fail "thrust_sort (timing) exited with $status"; }
grep -qx "PASS sorted 5000" "$WORK/thrust_sort.out" || { show thrust_sort; fail "thrust_sort (timing): unexpected output"; }
echo "PASS: thrust::sort, functional and timing"
