#!/usr/bin/env bash
# Cooperative launch and grid.sync() (issue 33, item 2): three grid-wide phases, twice
# per launch, two launches; a grid larger than can be resident is refused with
# cudaErrorCooperativeLaunchTooLarge; grid.sync() in a plain launch traps (no workspace, as
# on a GPU); both modes
# (tests/cudart/coop.cu, values worked by hand there).
set -euo pipefail
source "$2/tests/cudart/common.sh"
build coop "$SRC/tests/cudart/coop.cu"
cat > "$WORK/expected" <<'OUT'
cooperative launch supported: 1
launch 0: totals 131328 131840
launch 1: totals 131328 131840
too large: cudaErrorCooperativeLaunchTooLarge
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run coop --functional; else run coop; fi
  [ "$status" = 0 ] || { show coop; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/coop.out" || { show coop; fail "$mode: output differs (< expected, > got)"; }
done
run coop --functional -- plain
grep -q "grid.sync in a plain launch: cudaError" "$WORK/coop.out" || { show coop; fail "plain launch: no error"; }
grep -q "trap instruction executed" "$WORK/coop.err" || { show coop; fail "plain launch did not trap"; }
echo "PASS: cooperative launch with grid.sync(), functional and timing"
