#!/usr/bin/env bash
# Sweep limits and hygiene: a run that blocks without using CPU is stopped at
# the wall-clock limit; a program under `locsim exec` stopped at the CPU-time
# limit (exit status 128 + SIGXCPU) is a timeout, not an error; --db "" is
# refused by sweep and report; the temporary folder of a sweep killed with
# SIGKILL is removed by the next sweep (and a live sweep's folder is not); two
# sweeps on one database share the work; a run that a full disk kept out of the
# database is not counted as stored.
set -u
locsim=$1
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 (tools/install-deps.sh installs it as root)"; exit 0; }
fail=0
dir=$(mktemp -d)
trap 'umount "$dir/small" 2>/dev/null; rm -rf "$dir" /tmp/locsim-sweep-4194305-e2etst /tmp/locsim-sweep-$$-e2etst' EXIT
q() { sqlite3 "$1" "$2"; }

cat >"$dir/l.yaml" <<'EOF'
configs: [fermi_gtx480]
timeout: 1
wall_timeout: 8
workloads:
  - {id: spin, exec: [/bin/sh, -c, "while :; do :; done"]}
  - {id: sleeper, exec: [/bin/sleep, "60"]}
EOF
# a dead sweep's folder (pid 4194305 is above the kernel's PID_MAX_LIMIT) and a live one's
mkdir -p /tmp/locsim-sweep-4194305-e2etst /tmp/locsim-sweep-$$-e2etst
touch /tmp/locsim-sweep-4194305-e2etst/run-0.json /tmp/locsim-sweep-$$-e2etst/run-0.json
start=$(date +%s)
"$locsim" sweep "$dir/l.yaml" --jobs 2 >"$dir/log" 2>&1
took=$(( $(date +%s) - start ))
[ "$(q "$dir/l.db" "select status || ' ' || (message like 'stopped at the wall-clock limit of 8 s (it had used % s of CPU time)') || ' ' || (cpu_s < 1) from runs where workload = 'sleeper'")" = \
  "timeout 1 1" ] ||
  { echo "FAIL: a blocked run: $(q "$dir/l.db" "select * from runs where workload = 'sleeper'")"; fail=1; }
[ "$(q "$dir/l.db" "select status || ': ' || (message like '%stopped at the limit of 1 s of CPU time%') from runs where workload = 'spin'")" = \
  "timeout: 1" ] || { echo "FAIL: exec at the CPU limit: $(q "$dir/l.db" "select status, message from runs where workload = 'spin'")"; fail=1; }
[ "$took" -lt 40 ] || { echo "FAIL: the sweep took $took s"; fail=1; }
[ -e /tmp/locsim-sweep-4194305-e2etst ] && { echo "FAIL: a dead sweep's folder was left"; fail=1; }
[ -e /tmp/locsim-sweep-$$-e2etst/run-0.json ] || { echo "FAIL: a live sweep's folder was removed"; fail=1; }

out=$("$locsim" sweep "$dir/l.yaml" --db "" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q -- "--db needs a file name, got an empty string" <<<"$out" || { echo "FAIL: sweep --db '': $out"; fail=1; }
out=$("$locsim" report "$dir/l.yaml" --db "" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q -- "--db needs a name, got an empty string" <<<"$out" || { echo "FAIL: report --db '': $out"; fail=1; }

# two sweeps on one database: each run is made once, the later sweep leaves the
# earlier one's runs to it and says so, and no claim is left behind
printf 'configs: [fermi_gtx480]\nworkloads:\n  - {name: kmeans, size: 2, seeds: [1, 2, 3, 4, 5, 6]}\n' >"$dir/two.yaml"
"$locsim" sweep "$dir/two.yaml" --jobs 1 >"$dir/a.log" 2>&1 &
first=$!
sleep 0.5
"$locsim" sweep "$dir/two.yaml" --jobs 1 >"$dir/b.log" 2>&1
wait $first
ran=$(cat "$dir/a.log" "$dir/b.log" | sed -n 's/^locsim sweep: \([0-9]*\) runs in .*/\1/p' | awk '{n += $1} END {print n + 0}')
[ "$ran" = 6 ] || { echo "FAIL: two sweeps ran $ran runs for 6 points"; cat "$dir/a.log" "$dir/b.log"; fail=1; }
grep -q "runs left to another sweep on .*two.db (pid [0-9]*)" "$dir/a.log" "$dir/b.log" ||
  { echo "FAIL: neither sweep said it left runs to the other"; cat "$dir/a.log" "$dir/b.log"; fail=1; }
[ "$(q "$dir/two.db" "select count(*) || ' ' || count(distinct key) from runs") $(q "$dir/two.db" "select count(*) from claims")" = "6 6 0" ] ||
  { echo "FAIL: runs or claims after two sweeps"; fail=1; }

# a full disk: the run that could not be stored is not counted as stored (the
# count printed equals the runs in the database); needs root for a small tmpfs
if mkdir -p "$dir/small" && mount -t tmpfs -o size=256k tmpfs "$dir/small" 2>/dev/null; then
  printf 'configs: [fermi_gtx480]\nworkloads:\n  - {name: kmeans, size: 1, seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}\n' >"$dir/full.yaml"
  "$locsim" sweep "$dir/full.yaml" --jobs 1 --db "$dir/small/f.db" >"$dir/full.log" 2>&1; rc=$?
  stored=$(sed -n 's/^locsim sweep: \([0-9]*\) runs stored, 1 finished but could not be stored, \([0-9]*\) not run$/\1/p' "$dir/full.log")
  have=$(q "$dir/small/f.db" "select count(*) from runs" 2>/dev/null)
  [ $rc -eq 2 ] && grep -q "full" "$dir/full.log" && [ -n "$stored" ] && [ "$stored" = "$have" ] ||
    { echo "FAIL: full disk: rc $rc, printed '$stored' stored, the database has '$have'"; tail -4 "$dir/full.log"; fail=1; }
  umount "$dir/small"
else
  echo "SKIP: full disk (no tmpfs mount here)"
fi

[ $fail -eq 0 ] && echo "ok: sweep limits (wall clock, exec at the CPU limit), --db '', dead sweeps' folders, two sweeps on one database"
exit $fail
