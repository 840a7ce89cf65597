#!/usr/bin/env bash
# The timing model from the command line: statistics, JSON, overrides, compare,
# and clear errors for bad configurations.
set -u
locsim=$1
src=$2
cd "$src" || exit 1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.bash"
check "timing run prints cycles" 0 "gpu_sim_cycle +[1-9]" "$locsim" run vectoradd --size 1
check "timing run prints IPC" 0 "gpu_ipc +[0-9]" "$locsim" run vectoradd --size 1 --config fermi_gtx480
check "timing run PASS" 0 "^PASS$" "$locsim" run histogram --size 1 -gpgpu_scheduler lrr
check "config by path" 0 "^PASS$" "$locsim" run vectoradd --size 1 --config configs/ccws_gtx285.cfg
check "all statistics" 0 "L2_total_cache_misses = " "$locsim" run vectoradd --size 1 --stats
check "unknown config" 2 "unknown config 'nosuch'" "$locsim" run vectoradd --size 1 --config nosuch
check "unknown option" 2 "gpgpu_n_clusterz" "$locsim" run vectoradd --size 1 -gpgpu_n_clusterz 4
check "out of range" 2 "gpgpu_n_clusters" "$locsim" run vectoradd --size 1 -gpgpu_n_clusters 0
check "unknown scheduler" 2 "unknown warp scheduler 'fastest'" "$locsim" run vectoradd --size 1 -gpgpu_scheduler fastest
check "bad scheduler args" 2 "two_level_active expects" "$locsim" run vectoradd --size 1 -gpgpu_scheduler two_level_active:0:gto:gto
check "cycle cap ends the timing part, exit 0" 0 "timing simulation stopped at cycle 1000 by -gpgpu_max_cycle" "$locsim" run vectoradd --size 1 -gpgpu_max_cycle 1000
check "cycle cap: the rest runs functionally and checks" 0 "^PASS$" "$locsim" run vectoradd --size 1 -gpgpu_max_cycle 1000
check "cycle cap: statistics of what ran" 0 "^gpu_sim_cycle +1000$" "$locsim" run vectoradd --size 1 -gpgpu_max_cycle 1000
# nw at cycle 3000 sleeps through an idle stretch: the loop would jump to 3014 (measured) unless it stops at the cap
check "cycle cap exact across an idle jump" 0 "^gpu_sim_cycle +3000$" "$locsim" run nw --size 1 -gpgpu_max_cycle 3000
check "CTA cap" 0 "stopped_by +-gpgpu_max_cta at cycle [1-9][0-9]*, [1-9][0-9]* thread instructions, in kernel 0" "$locsim" run vectoradd --size 2 -gpgpu_max_cta 3
check "help-options lists the scheduler" 0 "gpgpu_scheduler" "$locsim" --help-options
check "compare table" 0 "^vectoradd +\\| +[0-9.]+ +[0-9.]+ +\\| +[0-9.]+" "$locsim" compare vectoradd --size 1 --sched lrr,gto
check "compare needs workloads" 2 "needs workload names" "$locsim" compare --sched lrr

# the per-kernel timing window: the program still checks; each kernel times at most N
"$locsim" run kmeans --size 2 -timing_window_insn 100000 -timing_warmup_insn 20000 --json "$tmp/w.json" >"$tmp/w.out" 2>&1 &&
  grep -q "^PASS$" "$tmp/w.out" || { echo "FAIL: windowed run"; cat "$tmp/w.out"; fail=1; }
python3 - "$tmp/w.json" <<'PY' && echo "ok: window: timed <= N per kernel, the whole kernel executed" || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ks = d["kernels"]
ok = len(ks) == 3 and d["stop"] is None
for k in ks:
    s = k["stats"]
    ok &= 100000 - 15 * 2 * 32 < s["gpu_sim_insn"] <= 100000 and s["gpu_ff_insn"] > 0
    ok &= s["gpu_exec_insn"] == s["gpu_sim_insn"] + s["gpu_ff_insn"] == ks[0]["stats"]["gpu_exec_insn"]
    ok &= s["gpu_timing_windows_closed"] == 1 and s["gpu_warmup_ctas"] >= 1
if not ok:
    print("FAIL: window statistics", [(k["stats"]["gpu_sim_insn"], k["stats"]["gpu_ff_insn"]) for k in ks])
sys.exit(0 if ok else 1)
PY

# the stuck-simulation check: instruction fetches and data 200 000 L2 cycles away
# leave nothing issued and no reply for over 65 536 cycles, which -gpgpu_deadlock_cycles
# 1000 calls stuck, saying what waits; the default limit (10 M cycles) lets it finish
check "stuck simulation stopped with a report" 1 "the simulation is stuck: no instruction issued and no reply reached an SM from cycle 0 to 65536 .*SM 0: 4 CTAs, 32 live warps" \
  "$locsim" run vectoradd --size 1 -gpgpu_perf_sim_memcpy 0 -dram_latency 100000 -gpgpu_l2_rop_latency 100000 -gpgpu_deadlock_cycles 1000
check "slow memory is not stuck by default" 0 "^PASS$" \
  "$locsim" run vectoradd --size 1 -gpgpu_perf_sim_memcpy 0 -dram_latency 100000 -gpgpu_l2_rop_latency 100000
check "the check can be off" 0 "^PASS$" \
  "$locsim" run vectoradd --size 1 -gpgpu_perf_sim_memcpy 0 -dram_latency 100000 -gpgpu_l2_rop_latency 100000 -gpgpu_deadlock_cycles 1000 -gpgpu_deadlock_detect 0

# determinism: the same run twice writes byte-identical JSON
"$locsim" run bfs --size 1 --json "$tmp/a.json" >/dev/null 2>&1 || { echo "FAIL: json run a"; fail=1; }
"$locsim" run bfs --size 1 --json "$tmp/b.json" >/dev/null 2>&1 || { echo "FAIL: json run b"; fail=1; }
if cmp -s "$tmp/a.json" "$tmp/b.json" && grep -q '"gpu_sim_cycle"' "$tmp/a.json"; then echo "ok: JSON identical across runs"
else echo "FAIL: JSON differs between runs (or lacks gpu_sim_cycle)"; fail=1; fi
# a different scheduler is a different simulation
"$locsim" run bfs --size 1 --json "$tmp/c.json" -gpgpu_scheduler lrr >/dev/null 2>&1
if cmp -s "$tmp/a.json" "$tmp/c.json"; then echo "FAIL: -gpgpu_scheduler lrr changed nothing"; fail=1; else echo "ok: override takes effect"; fi
exit $fail
