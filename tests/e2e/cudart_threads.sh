#!/usr/bin/env bash
# Several host threads calling the runtime at once; the last error is per thread.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build threads "$SRC/tests/cudart/threads.cu"
for mode in functional timing; do
  if [ $mode = functional ]; then run threads --functional; else run threads; fi
  [ "$status" = 0 ] || { show threads; fail "threads ($mode) exited with $status"; }
  diff "$SRC/tests/cudart/threads.expected" "$WORK/threads.out" || { show threads; fail "threads ($mode): output differs"; }
  grep -q '^locsim: _Z3addPiii  *800 ' "$WORK/threads.err" || { show threads; fail "threads ($mode): expected 800 launches"; }
done
echo "PASS: concurrent host threads"
