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
after cudaLaunchKernelEx: v[0] = 1024002
PASS
OUT
diff "$WORK/expected" "$WORK/loop.out" || { show loop; fail "loop: unexpected output"; }
# 1002 launches of increment (1000 + cudaLaunchKernel + cudaLaunchKernelEx), 10 of neighbour_sum
python3 - "$WORK/stats.json" <<'PY' || fail "statistics JSON is wrong: $(cat "$WORK/stats.json")"
import json, sys
s = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in s["kernels"]}
assert s["mode"] == "functional", s["mode"]
assert k["_Z9incrementPii"]["launches"] == 1002, k
assert k["_Z13neighbour_sumPKiPii"]["launches"] == 10, k
assert s["total"]["launches"] == 1012
assert s["total"]["gpu_sim_insn"] == sum(x["gpu_sim_insn"] for x in s["kernels"]) > 0
PY
# with --json, nothing is printed on stderr
[ ! -s "$WORK/loop.err" ] || { show loop; fail "stderr not empty with --json"; }
# timing mode: the timing model's statistics have one entry per launch
run loop --json "$WORK/timing.json"
[ "$status" = 0 ] && diff -q "$WORK/expected" "$WORK/loop.out" >/dev/null || { show loop; fail "loop (timing)"; }
python3 - "$WORK/timing.json" <<'PY' || fail "timing statistics JSON is wrong"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["mode"] == "timing", s["mode"]
assert s["total"]["launches"] == 1012 and s["total"]["gpu_sim_cycle"] > 0, s["total"]
assert len(s["timing"]["kernels"]) == 1012, len(s["timing"]["kernels"])
assert s["timing"]["total"]["gpu_tot_sim_cycle"] == s["total"]["gpu_sim_cycle"], (s["timing"]["total"], s["total"])
PY
# deterministic: the same program and configuration give bit-identical statistics
cp "$WORK/timing.json" "$WORK/timing1.json"
run loop --json "$WORK/timing.json"
cmp -s "$WORK/timing1.json" "$WORK/timing.json" || fail "two timing runs gave different statistics"
echo "PASS: 1012 launches, functional and timing, deterministic"
