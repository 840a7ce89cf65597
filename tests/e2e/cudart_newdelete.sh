#!/usr/bin/env bash
# Device malloc/free and C++ new/delete (issue 33, item 4): objects made with new,
# called through virtual functions and deleted; a heap of 4 MiB set with
# cudaLimitMallocHeapSize runs out after 4 blocks of 1 MiB (malloc returns NULL),
# is whole again after the frees, and cannot be resized after a launch used it
# (tests/cudart/newdelete.cu, values worked by hand there); both modes.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build newdelete "$SRC/tests/cudart/newdelete.cu"
ptx=$("$BUILD/cudart/locsim-fatbin" "$WORK/newdelete")
grep -q "call.uni (retval0),\s*malloc\|malloc," <<<"$ptx" || fail "nvcc emitted no call of malloc"
grep -q "callprototype" <<<"$ptx" || fail "nvcc emitted no indirect (virtual) call"
cat > "$WORK/expected" <<'OUT'
shapes: out[0] 0 out[1] 3 out[2] 4 out[63] 189, 0 wrong, 0 misaligned, 0 overlapping
hog: heap 4194304 bytes, 4 blocks of 1 MiB, one again after freeing: 1
limit after launch: cudaErrorInvalidValue
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run newdelete --functional; else run newdelete; fi
  [ "$status" = 0 ] || { show newdelete; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/newdelete.out" || { show newdelete; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: device new/delete with virtual functions, malloc returning NULL when the heap is full, functional and timing"
