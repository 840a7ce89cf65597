#!/usr/bin/env bash
# Parallel simulation (-sim_threads, docs/timing-core.md "Parallel simulation"):
#  - the --json report is byte-identical at 1, 2 and 3 threads (tools/same-stats.sh
#    --threads) on the cases where SMs share the most: global atomics (histogram),
#    an atomic worklist between CTAs (gc), the 64-SM multi-module GPU with
#    first-touch placement (order-dependent page placement on the requests), CCWS
#    on ccws_gtx285, the sharing-aware CTA scheduler and cache policies on
#    sharing_fermi, and a kernel that must step serially (cp.async: gemm_async);
#    and the paths that stop a parallel run early, where the memory ticks held
#    for the next parallel cycle must run first: a cycle cap in mid-kernel
#    (kmeans -gpgpu_max_cycle) and a per-kernel timing window (mvt -timing_window_insn);
#  - the thread count is no part of a sweep's point: two variants that differ only
#    in -sim_threads are one run;
#  - a thread count outside 1..256 is refused with the option's name.
set -u
locsim=$1
src=$2
cd "$src" || exit 1
export LOCSIM_CONFIG_DIR=$src/configs
# Waiting threads sleep instead of spinning: on a loaded machine (tests run in
# parallel) spinning only steals the time the other threads need.  It changes
# no result.
export OMP_WAIT_POLICY=passive
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

out=$(bash tools/same-stats.sh "$locsim" "$locsim" --size 1 --threads 2,3 histogram gc \
      "kmeans --config ldesc_numa4 -numa_placement first_touch" \
      "bfs --config ccws_gtx285 -gpgpu_scheduler ccws" \
      "spmv --config sharing_fermi -cta_scheduler bcs -l1d_policy sharing -l2_policy sharing" gemm_async \
      "kmeans -gpgpu_max_cycle 20000" "mvt -timing_window_insn 40000" 2>&1)
rc=$?
echo "$out"
n=$(grep -c '^same ' <<<"$out")
if [ $rc -ne 0 ] || [ "$n" -ne 16 ]; then
    echo "FAIL: reports differ between thread counts (or a run failed): $n of 16 identical"
    fail=1
else echo "ok: 8 runs x 2 thread counts byte-identical to one thread"; fi

cat >"$dir/s.yaml" <<'YAML'
configs: [fermi_gtx480]
timeout: 300
classes: {A: any}
workloads:
  - {name: histogram, size: 1, class: A, variants: [one, two]}
variants:
  one: {options: {-gpgpu_scheduler: gto}}
  two: {options: {-gpgpu_scheduler: gto, -sim_threads: 2}}
YAML
out=$("$locsim" sweep "$dir/s.yaml" --dry-run 2>&1)
if grep -q "1 runs (2 points)" <<<"$out"; then echo "ok: -sim_threads is no part of a sweep point"
else echo "FAIL: -sim_threads changed the sweep point: $out"; fail=1; fi

for bad in 0 257 x; do
    out=$("$locsim" run histogram --size 1 -sim_threads $bad 2>&1) && { echo "FAIL: -sim_threads $bad accepted"; fail=1; }
    grep -q "sim_threads" <<<"$out" || { echo "FAIL: -sim_threads $bad: the error does not name the option: $out"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: bad thread counts refused"
exit $fail
