#!/usr/bin/env bash
# Many launches in a loop; the statistics count every one of them (JSON report).
set -euo pipefail
source "$2/tests/cudart/common.sh"
build loop "$SRC/tests/cudart/loop.cu"
run loop --functional --json "$WORK/stats.json"
[ "$status" = 0 ] || { show loop; fail "loop exited with $status"; }
cat > "$WORK/expected" <<'OUT'
after 1000 launches: v[0] = 1000, v[299] = 1000
after 10 ping-pong steps: v[0] = 1024000
after cudaLaunchKernel: v[0] = 1024001
PASS
OUT
diff "$WORK/expected" "$WORK/loop.out" || { show loop; fail "loop: unexpected output"; }
# 1001 launches of increment (1000 + cudaLaunchKernel), 10 of neighbour_sum
python3 - "$WORK/stats.json" <<'PY' || fail "statistics JSON is wrong: $(cat "$WORK/stats.json")"
import json, sys
s = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in s["kernels"]}
assert s["mode"] == "functional", s["mode"]
assert k["_Z9incrementPii"]["launches"] == 1001, k
assert k["_Z13neighbour_sumPKiPii"]["launches"] == 10, k
assert s["total"]["launches"] == 1011
assert s["total"]["gpu_sim_insn"] == sum(x["gpu_sim_insn"] for x in s["kernels"]) > 0
PY
# with --json, nothing is printed on stderr
[ ! -s "$WORK/loop.err" ] || { show loop; fail "stderr not empty with --json"; }
echo "PASS: 1011 launches"
