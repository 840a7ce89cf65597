#!/usr/bin/env bash
# Device memory laid out as a driver does (issue 33, item 6): a kernel reading 512 B
# below the program's first allocation (Rodinia srad_v2's pattern, tests/cudart/below.cu)
# runs to the end with default settings, in both modes; the reads are counted as
# out-of-bounds accesses, and -memcheck 1 still reports the first of them.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build below "$SRC/tests/cudart/below.cu"
for mode in functional timing; do
  if [ $mode = functional ]; then run below --functional; else run below; fi
  [ "$status" = 0 ] || { show below; fail "$mode: exit $status (a read below the first allocation must run)"; }
  grep -q "^north: out\[0\] 0 out\[127\] 127 out\[128\] 0 out\[511\] 383: PASS$" "$WORK/below.out" ||
    { show below; fail "$mode: wrong values"; }
  grep -q "kernel '_Z5northPKfPfi' made 128 out-of-bounds global access(es) inside mapped device memory" "$WORK/below.err" ||
    { show below; fail "$mode: the 128 reads below J not counted"; }
done
run below --functional -memcheck 1
[ "$status" != 0 ] || { show below; fail "-memcheck 1: the read below the allocation not reported"; }
grep -q "Address 0xfffffe00 is out of bounds" "$WORK/below.err" || { show below; fail "-memcheck 1: no report of 0xfffffe00"; }
echo "PASS: a read below the first allocation runs (mapped, as on a GPU) and is counted"
