#!/usr/bin/env bash
# kmeans_rd (docs/workloads.md): Rodinia's launch geometry and memory spaces, seen
# from the statistics.  At --size 5 (1513 points: 6 CTAs of 256 needed, so Rodinia's
# square grid is 3 x 3) the invert kernel is 1-D (9 CTAs, 1 row) and each of the three
# assignment kernels is 3 x 3 (3 rows); the assignment kernels read the features
# through the texture cache (L1T accesses) and make no global read at the L1D (only
# the membership stores reach it).  On 2 SMs (-gpgpu_n_clusters 2) qx_adpt groups:
# rows 0 and 1 (3 CTAs each) go to one SM each before it turns round-robin (one group
# left < 2 SMs), so each assignment kernel has at least 4 neighbouring CTAs on the
# same SM; under rr it has fewer.
set -u
locsim=$1
src=$2
cd "$src" || exit 1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in rr qx_adpt; do
  out=$("$locsim" run kmeans_rd --size 5 --config sharing_fermi -gpgpu_n_clusters 2 -cta_scheduler $s \
        --json "$tmp/$s.json" 2>&1); rc=$?
  if [ $rc -ne 0 ] || ! grep -q "^PASS$" <<<"$out"; then
    echo "FAIL: kmeans_rd --size 5 under $s: exit $rc"; echo "$out" | tail -5; fail=1
  fi
done
[ $fail -eq 0 ] || exit 1
python3 - "$tmp/rr.json" "$tmp/qx_adpt.json" <<'PY' || fail=1
import json, sys
rr, qx = (json.load(open(p))["kernels"] for p in sys.argv[1:3])
bad = []
def want(what, got, expected):
    if got != expected:
        bad.append("%s: got %r, expected %r" % (what, got, expected))
want("kernels", [k["name"] for k in qx], ["kmeans_rd_invert"] + ["kmeans_rd_point"] * 3)
for i, k in enumerate(qx):
    s = k["stats"]
    rows, ctas = (1, 9) if i == 0 else (3, 9)
    want("kernel %d gpu_grid_rows_max" % i, s.get("gpu_grid_rows_max"), rows)
    want("kernel %d gpu_grid_ctas_max" % i, s.get("gpu_grid_ctas_max"), ctas)
    if i == 0:
        continue
    if not s.get("L1T_total_cache_accesses", 0) > 0:
        bad.append("kernel %d: no texture-cache accesses" % i)
    reads = sum(v for n, v in s.items() if n.startswith("L1D_cache_stats_breakdown[GLOBAL_ACC_R]"))
    want("kernel %d global reads at the L1D" % i, reads, 0)
    same_qx, same_rr = s.get("cta_neighbours_same_sm", -1), rr[i]["stats"].get("cta_neighbours_same_sm", -1)
    if not (same_qx >= 4 and same_qx > same_rr):
        bad.append("kernel %d: same-SM neighbours qx_adpt %d, rr %d (want >= 4 and above rr)" % (i, same_qx, same_rr))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
[ $fail -eq 0 ] && echo "PASS: kmeans_rd has Rodinia's grid, reads features through the texture cache, and qx_adpt groups its rows"
exit $fail
