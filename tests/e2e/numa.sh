#!/usr/bin/env bash
# The multi-module GPU (docs/numa.md) from the command line:
#  - with one module every NUMA option is inert: the statistics of a run with
#    explicit single-module options (and odd link/placement values) are
#    byte-identical to a plain run's;
#  - on ldesc_numa4 each placement runs a described workload to its PASS, its
#    statistics add up (local + remote = all requests = the zones' requests), the
#    partitioning placements partition the grid, xor does not;
#  - two runs give identical statistics; bad values are refused with the option's name.
set -u
locsim=$1
src=$2
cd "$src" || exit 1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stats_only() {  # the statistics of a --json file (inputs name the options, so they differ)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps([d["kernels"], d["total"]], sort_keys=True))' "$1"
}
stat() {  # stat FILE NAME
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total"][sys.argv[2]])' "$1" "$2"
}
for w in kmeans spmv; do
  "$locsim" run $w --size 1 --json "$tmp/plain.json" >/dev/null 2>&1
  "$locsim" run $w --size 1 -numa_n_modules 1 -numa_placement ldesc -numa_link_bandwidth 1 -numa_link_latency 999 \
    -numa_page_size 4096 -numa_cta_partition 1 --json "$tmp/one.json" >/dev/null 2>&1
  if [ -s "$tmp/plain.json" ] && [ "$(stats_only "$tmp/plain.json")" = "$(stats_only "$tmp/one.json")" ]; then
    echo "ok: $w: one module with explicit NUMA options = plain run"
  else echo "FAIL: $w: a single-module run's statistics changed with the NUMA options"; fail=1; fi
  grep -q numa_ "$tmp/plain.json" && { echo "FAIL: $w: numa_ statistics in a single-module run"; fail=1; }
done
for pl in xor first_touch ldesc; do
  out=$("$locsim" run spmv --size 1 --config ldesc_numa4 -numa_placement $pl --json "$tmp/$pl.json" 2>&1); rc=$?
  if [ $rc -ne 0 ] || ! grep -q "^PASS$" <<<"$out"; then echo "FAIL: spmv -numa_placement $pl: exit $rc"; echo "$out" | tail -3; fail=1; continue; fi
  python3 - "$tmp/$pl.json" "$pl" <<'PY' || fail=1
import json, sys
t = json.load(open(sys.argv[1]))["total"]
pl = sys.argv[2]
loc, rem, all_ = t["numa_local_accesses"], t["numa_remote_accesses"], t["numa_accesses"]
zones = sum(t["numa_zone%d_accesses" % z] for z in range(4))
ok = all_ > 0 and loc + rem == all_ and zones == all_ and rem > 0 and t["numa_link_bytes"] > 0
ok &= abs(t["numa_access_efficiency"] - loc / all_) < 1e-12
part = t["numa_partitioned_kernels"]
ok &= (part == 0) if pl == "xor" else (part > 0)
print(("ok" if ok else "FAIL") + ": spmv %s: %d local + %d remote = %d, zones %d, link %d B, partitioned %d"
      % (pl, loc, rem, all_, zones, t["numa_link_bytes"], part))
sys.exit(0 if ok else 1)
PY
done
# LDesc-Placement: ldesc's data placement without its CTA partition: nothing is
# partitioned, yet the data is not where xor puts it
"$locsim" run spmv --size 1 --config ldesc_numa4 -numa_placement ldesc -numa_cta_partition 0 --json "$tmp/lp.json" >/dev/null 2>&1
p=$(stat "$tmp/lp.json" numa_partitioned_kernels); z=$(stat "$tmp/lp.json" numa_zone0_accesses); zx=$(stat "$tmp/xor.json" numa_zone0_accesses)
if [ "$p" = 0 ] && [ -n "$z" ] && [ "$z" != "$zx" ]; then echo "ok: LDesc-Placement: no partition, zone 0 gets $z requests (xor: $zx)"
else echo "FAIL: LDesc-Placement: partitioned $p, zone 0 $z requests (xor $zx)"; fail=1; fi
# Idle zones: with -numa_cta_steal 0 no CTA runs outside its zone; first_touch's
# equal chunks leave the zones that finish first something to take with 1 (the
# default) once the other zones' SMs are full (transpose --size 2: 512 CTAs; a grid
# the zones' SMs hold at once, as spmv --size 1's, leaves nothing to steal)
"$locsim" run transpose --size 2 --config ldesc_numa4 -numa_placement first_touch --json "$tmp/ft_steal.json" >/dev/null 2>&1
"$locsim" run transpose --size 2 --config ldesc_numa4 -numa_placement first_touch -numa_cta_steal 0 --json "$tmp/strict.json" >/dev/null 2>&1
s0=$(stat "$tmp/strict.json" numa_stolen_ctas); s1=$(stat "$tmp/ft_steal.json" numa_stolen_ctas)
if [ "$s0" = 0 ] && [ -n "$s1" ] && [ "$s1" -gt 0 ]; then echo "ok: first_touch: $s1 CTAs stolen, none with -numa_cta_steal 0"
else echo "FAIL: stolen CTAs: $s1 with stealing, $s0 without"; fail=1; fi
"$locsim" run spmv --size 1 --config ldesc_numa4 -numa_placement ldesc --json "$tmp/again.json" >/dev/null 2>&1
if cmp -s "$tmp/ldesc.json" "$tmp/again.json"; then echo "ok: two runs give identical JSON"
else echo "FAIL: two ldesc_numa4 runs differ"; fail=1; fi
# The monolithic twin is at least as fast as the 4-module GPU: transpose --size 2
# (512 CTAs, every access remote 3 times in 4 under xor) with the same placement
# and zone mapping over one crossbar (-numa_flat_fabric 1).  Before remote packets
# crossed their own module's crossbar, the 4-module run (6916 cycles, non-sectored
# L2) beat even the -numa_n_modules 1 twin (8099): the links entered the far
# crossbar through an extra port per destination.
cyc() { stat "$1" gpu_tot_sim_cycle; }
"$locsim" run transpose --size 2 --config ldesc_numa4 -gpgpu_perf_sim_memcpy 0 --json "$tmp/t4.json" >/dev/null 2>&1
"$locsim" run transpose --size 2 --config ldesc_numa4 -gpgpu_perf_sim_memcpy 0 -numa_flat_fabric 1 --json "$tmp/tflat.json" >/dev/null 2>&1
c4=$(cyc "$tmp/t4.json"); cf=$(cyc "$tmp/tflat.json"); lf=$(stat "$tmp/tflat.json" numa_link_bytes)
if [ -n "$c4" ] && [ -n "$cf" ] && [ "$cf" -le "$c4" ] && [ "$lf" = 0 ]; then echo "ok: transpose: flat twin $cf <= 4 modules $c4 cycles, no link bytes"
else echo "FAIL: transpose: flat twin $cf cycles, 4 modules $c4 (link bytes of the twin: $lf)"; fail=1; fi
o=$("$locsim" run vectoradd --size 1 -numa_link_topology mesh 2>&1) && { echo "FAIL: -numa_link_topology mesh accepted"; fail=1; }
grep -q "numa_link_topology.*mesh" <<<"$o" || { echo "FAIL: -numa_link_topology mesh: $o"; fail=1; }
# the local/remote ubench rows on the whole GPU: all pass, remote slower than local
o=$("$locsim" ubench --config ldesc_numa4 --only lat.numa,thr.numa 2>&1); rc=$?
npass=$(grep -c "^[lt][ah][tr]\.numa\..* PASS$" <<<"$o")
loc=$(awk '$1 == "lat.numa.local" {print $(NF-2)}' <<<"$o"); rem=$(awk '$1 == "lat.numa.remote" {print $(NF-2)}' <<<"$o")
if [ $rc = 0 ] && [ "$npass" = 4 ] && python3 -c "import sys; sys.exit(0 if float('$rem') > float('$loc') else 1)"; then
  echo "ok: ubench lat.numa/thr.numa: 4 PASS, remote $rem > local $loc cycles"
else echo "FAIL: ubench lat.numa/thr.numa (exit $rc, $npass PASS)"; echo "$o" | tail -6; fail=1; fi
o=$("$locsim" run vectoradd --size 1 -numa_placement bogus 2>&1) && { echo "FAIL: -numa_placement bogus accepted"; fail=1; }
grep -q "numa_placement.*bogus" <<<"$o" || { echo "FAIL: -numa_placement bogus: $o"; fail=1; }
o=$("$locsim" run vectoradd --size 1 -numa_n_modules 3 2>&1) && { echo "FAIL: -numa_n_modules 3 accepted"; fail=1; }
grep -q "numa_n_modules" <<<"$o" || { echo "FAIL: -numa_n_modules 3: $o"; fail=1; }
o=$("$locsim" run vectoradd --size 1 -numa_n_modules 4 2>&1) && { echo "FAIL: 15 SMs over 4 modules accepted"; fail=1; }
grep -q "divide evenly" <<<"$o" || { echo "FAIL: -numa_n_modules 4 on 15 SMs: $o"; fail=1; }
[ $fail = 0 ] && echo "PASS"
exit $fail
