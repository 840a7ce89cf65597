#!/usr/bin/env bash
# Sharing-aware data management (docs/sharing.md) from the command line: a
# workload under qx_adpt + the sharing L1/L2 policies passes its own output
# check (a policy never changes what a program computes), its statistics are
# bit-identical across two runs, the statistics of the mechanism are there, and
# bad combinations are refused with a clear message.
set -u
locsim=$1
src=$2
cd "$src" || exit 1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(run srad --size 1 --config sharing_fermi -cta_scheduler qx_adpt -l1d_policy sharing -l2_policy sharing
     -sharing_dead_block 1)
out=$("$locsim" "${run[@]}" --stats --json "$tmp/a.json" 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -q "^PASS$" <<<"$out"; then echo "FAIL: srad under qx_adpt + sharing: exit $rc"; echo "$out" | tail -5; fail=1
else echo "ok: srad under qx_adpt + sharing passes its check"; fi
for stat in sharers_per_block cta_neighbour_same_sm_frac cta_sm_imbalance sm_insn_imbalance L1D_bypassed_fills \
            L1D_mshr_hits_shared L2_compulsory_misses L2_compulsory_miss_frac dram_traffic_bytes; do
  grep -qE "^$stat = [0-9]" <<<"$out" || { echo "FAIL: no statistic $stat"; fail=1; }
done
# the L1 really bypassed shared lines (srad's stencil rows are read by several SMs)
grep -qE "^L1D_bypassed_fills = [1-9]" <<<"$out" || { echo "FAIL: no L1D bypass in srad"; fail=1; }
"$locsim" "${run[@]}" --json "$tmp/b.json" >/dev/null 2>&1
if cmp -s "$tmp/a.json" "$tmp/b.json"; then echo "ok: two runs give identical JSON"
else echo "FAIL: two runs differ"; fail=1; fi
# L2 MPKI both ways: lib's ld.local misses bypass the L2 under the sharing policy;
# they are L2 misses (L2_MPKI) and are left out of L2_MPKI_no_bypass
o=$("$locsim" run lib --size 1 --config sharing_fermi -l1d_policy sharing -l2_policy sharing --stats 2>&1)
stat() { sed -n "s/^$1 = \([0-9.e+-]*\).*/\1/p" <<<"$o" | head -1; }
m=$(stat L2_total_cache_misses); nb=$(stat L2_total_cache_misses_no_bypass); by=$(stat L2_bypassed_fills)
if [ -z "$m" ] || [ -z "$nb" ] || [ -z "$by" ] || [ "$by" -le 0 ] || [ $((nb + by)) -ne "$m" ]; then
  echo "FAIL: lib under sharing: misses '$m' != no_bypass '$nb' + bypassed '$by' (bypassed must be > 0)"; fail=1
elif ! awk -v a="$(stat L2_MPKI_no_bypass)" -v b="$(stat L2_MPKI)" 'BEGIN { exit !(a < b) }'; then
  echo "FAIL: L2_MPKI_no_bypass not below L2_MPKI on lib"; fail=1
else echo "ok: lib: $by of $m L2 misses were bypasses; L2_MPKI_no_bypass < L2_MPKI"; fi
# -sharing_detect_stores and -sharing_kernel_reset act (srad stores to lines other SMs load, over several kernels)
# (compared on statistics: the JSON's configuration dump differs anyway)
keys='^(gpu_tot_sim_cycle|L1D_bypassed_fills|L1D_total_cache_misses|L2_total_cache_misses) = '
base=$("$locsim" "${run[@]}" --stats 2>&1 | grep -E "$keys")
for opt in sharing_detect_stores sharing_kernel_reset; do
  v=$("$locsim" "${run[@]}" -$opt 1 --stats 2>&1 | grep -E "$keys")
  if [ -z "$v" ] || [ "$v" = "$base" ]; then echo "FAIL: -$opt 1 changed none of: $keys"; fail=1; fi
done
echo "ok: -sharing_detect_stores 1 and -sharing_kernel_reset 1 change srad's statistics"
# every CTA scheduler runs the workload correctly
for s in bcs q8 q16 qx q8_adpt q16_adpt; do
  o=$("$locsim" run hotspot --size 1 --config sharing_fermi -cta_scheduler $s 2>&1)
  grep -q "^PASS$" <<<"$o" || { echo "FAIL: hotspot under $s"; echo "$o" | tail -3; fail=1; }
done
echo "ok: hotspot passes under every CTA scheduler"
# the L1 decides at the fill: an allocate-on-miss L1D is refused, not silently ignored
o=$("$locsim" run srad --size 1 --config fermi_gtx480 -l1d_policy sharing 2>&1); rc=$?
if [ $rc -ne 2 ] || ! grep -q "must allocate on fill" <<<"$o"; then echo "FAIL: sharing L1 on an 'm' L1D: exit $rc: $o"; fail=1
else echo "ok: sharing on an allocate-on-miss L1D is refused"; fi
o=$("$locsim" run srad --size 1 -sharing_dead_block 2 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "sharing_dead_block" <<<"$o" || { echo "FAIL: -sharing_dead_block 2 accepted"; fail=1; }
for opt in sharing_detect_stores sharing_kernel_reset; do
  o=$("$locsim" run srad --size 1 -$opt 2 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -q "$opt" <<<"$o" || { echo "FAIL: -$opt 2 accepted"; fail=1; }
done
o=$("$locsim" run srad --size 1 -cta_scheduler q32 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "qx_adpt" <<<"$o" || { echo "FAIL: unknown CTA scheduler: $o"; fail=1; }
exit $fail
