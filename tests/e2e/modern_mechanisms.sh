#!/usr/bin/env bash
# Issue 35 item 6: every mechanism of the five papers runs on a modern,
# A100-sized GPU (108 SMs, 64 warps and 4 schedulers per SM, 128 KB L1D, 40 MB
# L2 in 80 slices, 40 DRAM channels) and the workload still passes its own
# output check.  Every name registered as a warp scheduler, CTA scheduler,
# cache replacement policy, prefetcher and DRAM scheduler is run: the names are
# read from the registries (the error locsim gives for an unknown name lists
# them), so a mechanism registered later is run too, or fails here until this
# script knows what it needs.  Each run: a small input, --json; it must print
# PASS, exit 0, and report 108 SMs; every prefetcher must have issued prefetches
# (in one of its runs at least) and the CTA schedulers' grid must have more CTAs
# than the GPU has SMs.
# The configuration is configs/ampere_a100.cfg (LOCSIM_MODERN_CONFIG picks
# another, such as tests/configs/ampere_like.cfg).  Its address map puts each
# next 128 B line in another L2 slice, and a slice prefetches only its own
# lines, so without more every L2 prefetcher's candidates were foreign (hotspot
# --size 5, next-line: 31,270 candidates, all foreign, 0 issued); the L2
# prefetcher runs hand them to their slice (-l2_prefetch_forward 8: one
# crossbar traversal's latency, docs/wsmp.md).
set -u
locsim=$1
src=$2
cd "$src" || exit 1
cfg=${LOCSIM_MODERN_CONFIG:-}
if [ -z "$cfg" ]; then
  cfg=configs/ampere_a100.cfg
fi
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stat() {  # stat NAME: a total of the last run (the "total" object, the JSON's last, indented 4)
  local v
  v=$(grep "^    \"$1\": " "$tmp/r.json" | tail -1 | sed 's/.*: //; s/,$//')
  echo "${v:-missing}"
}

# registered OPTION: the names the error for an unknown one lists ("(expected a, b, c)")
registered() {
  "$locsim" run vectoradd --size 1 --config "$cfg" "$1" no_such_mechanism 2>&1 |
    sed -n 's/.*(expected \(.*\)).*/\1/p' | tr ', ' '\n\n' | grep -vx '[01]' | grep .
}

# run LABEL WORKLOAD SIZE [options...]: one self-checked run
run() {
  local label=$1 w=$2 s=$3
  shift 3
  rm -f "$tmp/r.json"
  local out rc
  out=$("$locsim" run "$w" --size "$s" --config "$cfg" "$@" --json "$tmp/r.json" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^PASS$' <<<"$out"; then
    echo "FAIL: $label: $w --size $s $*: exit $rc"
    echo "$out" | tail -5
    fail=1
    return 1
  fi
  local sms
  sms=$(stat gpu_num_sms)
  [ "$sms" = 108 ] || { echo "FAIL: $label: gpu_num_sms $sms, expected the configuration's 108"; fail=1; return 1; }
  echo "ok: $label ($w --size $s $*: $(stat gpu_tot_sim_cycle) cycles)"
}

# A scheduler that takes arguments, with the papers' ones.
sched_spec() {
  case $1 in
    two_level_active) echo "two_level_active:2:gto:gto" ;;  # Narasiman et al.'s fetch groups, GTO in and across
    warp_limiting) echo "warp_limiting:gto:8" ;;  # static warp limiting (CCWS paper), 8 warps: one CTA of hotspot
    *) echo "$1" ;;
  esac
}

# The Locality Descriptor's CTA scheduler, L1D policy and L1D prefetcher act on
# the descriptors a program's host code attaches: one run of doitgen (its A and
# C4 are COACCESSED REGULAR: the stride rule prefetches them) under all three.
used=" "
if run "Locality Descriptor: -cta_scheduler ldesc -l1d_policy ldesc -l1d_prefetcher ldesc" doitgen 1 \
  -cta_scheduler ldesc -l1d_policy ldesc -l1d_prefetcher ldesc; then
  used+="cta:ldesc l1:ldesc pf:ldesc "
  k=$(stat L1D_prefetch_issued)
  [ "$k" != missing ] && [ "$k" -gt 0 ] || { echo "FAIL: the ldesc prefetcher issued no prefetch ($k)"; fail=1; }
fi

# Every other name in combined runs, to keep the test short (each run of the
# 108-SM GPU costs about a third of a second of CPU before the program starts):
# run i takes name i (mod the list's length) of each kind, so every name runs
# at least once and the longest list sets the number of runs.  hotspot at size 5:
# 121 CTAs in 11 rows (more than one per SM: the CTA schedulers have rows to
# group), stencil reuse in the L1D; copies leave the L2 cold
# (-gpgpu_perf_sim_memcpy 0) so that its 40 MB does not hold the whole input
# before the kernels start and the L2 prefetchers see misses to learn from.
mapfile -t W < <(registered -gpgpu_scheduler)
mapfile -t C < <(registered -cta_scheduler | grep -vx ldesc)
mapfile -t P < <(registered -l1d_policy | grep -vx ldesc)
mapfile -t F < <(registered -l2_prefetcher | grep -vx ldesc)
mapfile -t D < <(registered -gpgpu_dram_scheduler)
[ ${#W[@]} -ge 7 ] && [ ${#C[@]} -ge 8 ] && [ ${#P[@]} -ge 4 ] && [ ${#F[@]} -ge 4 ] && [ ${#D[@]} -ge 3 ] ||
  { echo "FAIL: registries read short: ${#W[@]} warp, ${#C[@]} CTA schedulers, ${#P[@]} policies, ${#F[@]} prefetchers, ${#D[@]} DRAM schedulers"; exit 1; }
runs=0 issued=""
for n in ${#W[@]} ${#C[@]} ${#P[@]} ${#F[@]} ${#D[@]}; do [ "$n" -gt $runs ] && runs=$n; done
for ((i = 0; i < runs; i++)); do
  w=${W[i % ${#W[@]}]} c=${C[i % ${#C[@]}]} l1=${P[i % ${#P[@]}]} l2=${P[(i + 1) % ${#P[@]}]}
  f=${F[i % ${#F[@]}]} d=${D[i % ${#D[@]}]}
  # what a scheduler needs beside its name (the papers' pairings, docs/<paper>.md)
  case $w in
    cwlp) l1=lpc ;;   # CWLP reads the LPC policy's locality signal (docs/cwlp.md)
    wsmp) d=mfq ;;    # its latency tolerance sigma comes from the MFQ DRAM scheduler (docs/wsmp.md)
  esac
  if run "warp $w, CTA $c, L1D $l1, L2 $l2, L2 prefetcher $f, DRAM $d" hotspot 5 -gpgpu_perf_sim_memcpy 0 \
    -gpgpu_scheduler "$(sched_spec "$w")" -cta_scheduler "$c" -l1d_policy "$l1" -l2_policy "$l2" \
    -l2_prefetcher "$f" -l2_prefetch_forward 8 -gpgpu_dram_scheduler "$d"; then
    used+="w:$w cta:$c l1:$l1 l2:$l2 pf:$f d:$d "
    k=$(stat gpu_grid_ctas_max)
    [ "$k" -gt 108 ] || { echo "FAIL: $k CTAs, not more than the SMs"; fail=1; }
    # a prefetcher must issue prefetches in at least one of its runs (SPP may
    # find no confident pattern at so small an input under some orders of CTAs)
    k=$(stat L2_prefetch_issued)
    [ "$k" != missing ] && [ "$k" -gt 0 ] && issued+="$f "
  fi
done
# SPP learns in each slice's own address space, and at hotspot --size 5 the
# A100's 160 slices leave it too few lines per slice for a confident path (0
# candidates): a prefetcher that issued nothing there gets one streaming run
# (vectoradd --size 8: SPP issues 1,741 prefetches) and must issue there.
for f in "${F[@]}"; do
  [[ " $issued" == *" $f "* ]] && continue
  if run "L2 prefetcher $f on a stream" vectoradd 8 -gpgpu_perf_sim_memcpy 0 -l2_prefetcher "$f" -l2_prefetch_forward 8; then
    k=$(stat L2_prefetch_issued)
    [ "$k" != missing ] && [ "$k" -gt 0 ] && issued+="$f "
  fi
  [[ " $issued" == *" $f "* ]] || { echo "FAIL: L2 prefetcher $f issued no prefetch in any run"; fail=1; }
done

# every registered name ran (and passed) somewhere
for x in "${W[@]/#/w:}" "${C[@]/#/cta:}" cta:ldesc "${P[@]/#/l1:}" l1:ldesc "${P[@]/#/l2:}" "${F[@]/#/pf:}" pf:ldesc "${D[@]/#/d:}"; do
  [[ $used == *" $x "* ]] || { echo "FAIL: $x did not run (or failed)"; fail=1; }
done
[ $fail = 0 ] && echo "ok: every mechanism ran and self-checked on the 108-SM configuration ($cfg)"
exit $fail
