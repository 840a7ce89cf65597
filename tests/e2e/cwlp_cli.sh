#!/usr/bin/env bash
# CWLP end to end (docs/cwlp.md): a workload under -gpgpu_scheduler cwlp
# -l1d_policy lpc passes its check and reports the LIS/LPC statistics; the
# policy's statistics exist only when it is in use; the run is deterministic.
set -u
locsim=$1
src=$2
cd "$src" || exit 1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.bash"
run_cwlp() { "$locsim" run bfs --size 1 -gpgpu_scheduler cwlp -l1d_policy lpc "$@"; }
check "cwlp + lpc: bfs passes its check" 0 "^PASS$" run_cwlp
check "LIS fraction reported (0..1)" 0 "^L1D_LIS_locality_frac = (0|1)\.[0-9]+$" run_cwlp --stats
check "cwlp picks reported" 0 "^cwlp_reorder_picks = [1-9]" run_cwlp --stats
check "lpc under lrr passes too" 0 "^PASS$" "$locsim" run kmeans --size 1 -gpgpu_scheduler lrr -l1d_policy lpc
check "cwlp takes no arguments" 2 "takes no arguments" "$locsim" run bfs --size 1 -gpgpu_scheduler cwlp:3
# without lpc there are no LPC statistics (nothing defined for what is not in use)
if "$locsim" run bfs --size 1 --stats 2>&1 | grep -q "L1D_LIS"; then echo "FAIL: LIS statistics without lpc"; fail=1
else echo "ok: no LIS statistics without lpc"; fi
# determinism: byte-identical JSON twice
run_cwlp --json "$tmp/a.json" >/dev/null 2>&1 || { echo "FAIL: json run a"; fail=1; }
run_cwlp --json "$tmp/b.json" >/dev/null 2>&1 || { echo "FAIL: json run b"; fail=1; }
if cmp -s "$tmp/a.json" "$tmp/b.json" && grep -q '"L1D_LIS_locality_frac"' "$tmp/a.json"; then echo "ok: JSON identical across runs"
else echo "FAIL: JSON differs between runs (or lacks L1D_LIS_locality_frac)"; fail=1; fi
# the CRN distribution (-l1d_access_analysis): every L1D miss starts exactly one
# run, so the buckets add up to the stream's misses
"$locsim" run kmeans --size 1 -gpgpu_scheduler lrr -l1d_access_analysis 1 --json "$tmp/crn.json" >/dev/null 2>&1 ||
  { echo "FAIL: crn run"; fail=1; }
if python3 - "$tmp/crn.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
runs = sum(t["L1D_CRN_%d" % k] for k in range(16)) + t["L1D_CRN_16plus"]
sys.exit(0 if runs == t["L1D_stream_misses"] and runs > 0 and t["L1D_CRN_16plus"] > 0 else 1)
PY
then echo "ok: CRN buckets add up to the L1D misses"; else echo "FAIL: CRN buckets do not add up"; fail=1; fi
exit $fail
