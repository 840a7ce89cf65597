#!/usr/bin/env bash
# Warp-level .sync instructions (issue 33), in both modes; the program checks every
# value against hand-worked figures (tests/cudart/warp.cu):
# - item 1: per-lane member masks, cooperative groups' tiled_partition(block, 16)
#   (static and dynamic) -- tile.sync, shfl_down/shfl_up/shfl, ballot/any/all, match_any;
# - item 7: the samples' two-stage reduction, whose second stage shuffles from lanes
#   that do not execute the shfl (0 on GPUs).
set -euo pipefail
source "$2/tests/cudart/common.sh"
build warp "$SRC/tests/cudart/warp.cu"
cat > "$WORK/expected" <<'OUT'
tile 0: sum 120 ballot 0xaaaa any 0 all 1 dyn sum 120
tile 1: sum 376 ballot 0xaaaa any 1 all 1 dyn sum 376
tile 2: sum 632 ballot 0xaaaa any 0 all 0 dyn sum 632
tile 3: sum 888 ballot 0xaaaa any 0 all 0 dyn sum 888
two-stage reduction: 32 threads 496, 64 threads 2016
PASS
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run warp --functional; else run warp; fi
  [ "$status" = 0 ] || { show warp; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/warp.out" || { show warp; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: per-lane member masks (tiled_partition 16) and shfl from idle lanes, functional and timing"
