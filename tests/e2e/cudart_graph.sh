#!/usr/bin/env bash
# CUDA graphs (issue 33, item 3): a graph captured from a stream and replayed three
# times (memset, two kernels with arguments copied at capture, a host node, a copy
# out), a capture that forks to a second stream and joins through events, and a
# graph built node by node; values worked by hand in tests/cudart/graph.cu, in both
# modes.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build graph "$SRC/tests/cudart/graph.cu"
cat > "$WORK/expected" <<'OUT'
capturing: 1
capturing after the end: 0
nothing ran during the capture: 100 
captured nodes: 5
graph launch: (0 + 5) * 3: 15 
graph launch: (0 + 5) * 3: 15 
graph launch: (0 + 5) * 3: 15 
host node calls: 3
second stream capturing after the end: 0
fork/join, d: 15 + 1 + 1: 17 
fork/join, d2: 2 x (7 + 1): 16 
built graph: 7 + 1: 8 
capture on the legacy stream: cudaErrorStreamCaptureUnsupported
end without begin: cudaErrorIllegalState
PASS
OUT
for mode in functional timing; do
  if [ $mode = functional ]; then run graph --functional; else run graph; fi
  [ "$status" = 0 ] || { show graph; fail "$mode: exit $status"; }
  diff "$WORK/expected" "$WORK/graph.out" || { show graph; fail "$mode: output differs (< expected, > got)"; }
done
echo "PASS: CUDA graphs (stream capture with fork/join, explicit nodes), functional and timing"
