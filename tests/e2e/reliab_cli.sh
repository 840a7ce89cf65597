#!/usr/bin/env bash
# Bad input to `locsim run` gets a clear error before any simulation (issue 10):
# cache geometries the memory system cannot represent, clock ratios that would take
# forever, too many SMs, --json paths that cannot be written, --size above the
# workload's maximum; the JSON report records every input that determined it; a
# simulator resource deadlock is not blamed on the program.
set -euo pipefail
LOCSIM=$1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect_error "what the message must contain" locsim args...: exit status 2, nothing simulated
expect_error() {
  local want=$1; shift
  set +e; "$LOCSIM" "$@" > "$W/out" 2> "$W/err"; local st=$?; set -e
  [ "$st" = 2 ] || { cat "$W/out" "$W/err"; fail "$*: exit status $st, expected 2"; }
  grep -qF -- "$want" "$W/err" || { cat "$W/err"; fail "$*: message lacks '$want'"; }
  ! grep -q gpu_sim_cycle "$W/out" || fail "$*: statistics printed"
}
expect_error "-gpgpu_cache:dl1: its 128-byte lines are longer than the L2's 64-byte lines" \
  run vectoradd -gpgpu_cache:dl2 N:64:64:8,L:B:m:W:L,A:32:4,4:0,32
expect_error "-gpgpu_cache:dl1: its 256-byte lines are longer than the L2" run vectoradd -gpgpu_cache:dl1 S:32:256:4,L:L:m:N:H,A:32:8,8
expect_error "is 700000 times the DRAM clock" run vectoradd -gpgpu_clock_domains 700:700:700:0.001
expect_error "8192 SMs; locsim simulates at most 4096" run vectoradd -gpgpu_n_clusters 1024 -gpgpu_n_cores_per_cluster 8
expect_error "cannot write the statistics to $W: Is a directory" run vectoradd --size 1 --json "$W"
expect_error "cannot write the statistics to $W/missing/s.json: No such file or directory" run vectoradd --size 1 --json "$W/missing/s.json"
expect_error "--json needs a file name" run vectoradd --size 1 --json ""
expect_error "vectoradd: --size 999999 is too large (max" run vectoradd --size 999999
# /dev/full: found when the report is written, with the system's reason
set +e; "$LOCSIM" run vectoradd --size 1 -quiet --json /dev/full > "$W/out" 2> "$W/err"; st=$?; set -e
[ "$st" = 1 ] && grep -q "cannot write the statistics to /dev/full: No space left on device" "$W/err" ||
  { cat "$W/err"; fail "/dev/full"; }
# the JSON report names its inputs
"$LOCSIM" run vectoradd --size 1 --seed 7 -gpgpu_scheduler lrr --json "$W/s.json" > /dev/null
python3 - "$W/s.json" <<'PY' || fail "JSON inputs"
import json, sys
i = json.load(open(sys.argv[1]))["inputs"]
assert i["workload"] == "vectoradd" and i["size"] == 1 and i["seed"] == 7, i
assert i["config"] == "fermi_gtx480" and i["options"] == ["-gpgpu_scheduler", "lrr"], i
assert len(i["config_hash"]) == 16 and i["version"], i
PY
# same inputs, same hash; another option value, another hash
"$LOCSIM" run vectoradd --size 1 --seed 7 -gpgpu_scheduler gto --json "$W/t.json" > /dev/null
python3 - "$W/s.json" "$W/t.json" <<'PY' || fail "config_hash does not follow the configuration"
import json, sys
a, b = (json.load(open(p))["inputs"]["config_hash"] for p in sys.argv[1:])
assert a != b, (a, b)
PY
# A write-back cache with a one-entry miss queue can never accept a miss that evicts a
# dirty line (write-back + fetch): refused when the configuration is read, at either
# level (the L2 case used to run forever without a deadlock report, issue 34).
expect_error "a write-back cache needs a miss queue of at least 2 entries" \
  run vectoradd --size 1 -gpgpu_cache:dl1 N:32:128:4,L:B:m:W:L,A:32:8,1
expect_error "-gpgpu_cache:dl2: bad cache configuration 'S:1:128:1,L:B:m:L:L,A:1:1,1:0,32': a write-back cache needs" \
  run vectoradd --size 1 -gpgpu_cache:dl2 S:1:128:1,L:B:m:L:L,A:1:1,1:0,32
echo "PASS: config-time checks, --json paths, --size, JSON inputs, write-back miss queues"
