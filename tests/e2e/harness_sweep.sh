#!/usr/bin/env bash
# locsim sweep: a small spec runs each run once, in its own process, into SQLite;
# failing runs are recorded with their message while the others finish; a second
# sweep runs nothing; a sweep killed with SIGKILL loses no finished run, leaves no
# half-written run and no orphan, and its rerun completes the set without
# duplicates; bad specs and bad databases are refused before any run, and a
# refused database file is left byte for byte as it was.
set -u
locsim=$1
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
fail=0
dir=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; rm -rf "$dir"' EXIT
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 command (apt-get install sqlite3)"; exit 0; }
q() { sqlite3 "$1" "$2"; }

cat >"$dir/s.yaml" <<'EOF'
configs: [ccws_gtx285]
timeout: 300
classes: {HCS: highly cache-sensitive, CI: cache-insensitive, X: external}
workloads:
  - {name: kmeans, size: 1, class: HCS}
  - {name: backprop, size: 1, class: CI, variants: [lrr, gto, cut]}
  - {id: broken, exec: [/bin/sh, -c, "echo boom >&2; exit 3"], class: X, variants: [gto]}
variants:
  lrr: {options: {-gpgpu_scheduler: lrr}}
  gto: {options: {-gpgpu_scheduler: gto}}
  cut: {options: {-gpgpu_scheduler: gto, -gpgpu_max_insn: 1000}}
grids:
  swl: {values: [32, 4], options: {-gpgpu_scheduler: "warp_limiting:gto:{}"}, same: {32: gto}}
EOF
# kmeans x (lrr, gto, cut, swl_4; swl_32 is gto's run) + backprop x (lrr, gto, cut) + broken x gto = 8 runs
out=$("$locsim" sweep "$dir/s.yaml" --dry-run 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "8 runs (9 points), 0 in .* already, 8 to run" <<<"$out" || { echo "FAIL: dry run: $out"; fail=1; }
[ -e "$dir/s.db" ] && { echo "FAIL: --dry-run created the database"; fail=1; }

"$locsim" sweep "$dir/s.yaml" --jobs 2 >"$dir/log" 2>&1; rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a sweep with failed runs exited $rc, expected 1"; cat "$dir/log"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) from runs")" = 8 ] || { echo "FAIL: expected 8 runs stored"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) from runs where status='ok'")" = 5 ] || { echo "FAIL: expected 6 ok runs"; q "$dir/s.db" "select workload,variant,status,message from runs"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) from runs where status='capped' and variant='cut' and message like 'stopped by -gpgpu_max_insn at cycle %'")" = 2 ] ||
  { echo "FAIL: the -gpgpu_max_insn runs are not 'capped' with where the cap stopped them"; q "$dir/s.db" "select workload,variant,status,message from runs"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) from stat_values where variant='cut' and kernel=-1 and name='gpu_tot_sim_insn' and value >= 1000 and value < 1000 + 30*8*32")" = 2 ] ||
  { echo "FAIL: a capped run's statistics are not those of the timed part"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) from runs where workload='broken' and status='error' and message like '%exit status%'")" = 1 ] ||
  { echo "FAIL: the broken program is not an error with its exit status"; q "$dir/s.db" "select message from runs where workload='broken'"; fail=1; }
# every ok run has its totals; kmeans runs 3 kernels, so it has per-kernel statistics too
[ "$(q "$dir/s.db" "select count(*) from runs r where status='ok' and (select count(*) from stats s where s.run=r.id and s.kernel=-1) < 100")" = 0 ] ||
  { echo "FAIL: an ok run lacks its statistics"; fail=1; }
[ "$(q "$dir/s.db" "select count(distinct kernel) from stat_values where workload='kmeans' and variant='gto' and kernel >= 0")" -ge 2 ] ||
  { echo "FAIL: no per-kernel statistics"; fail=1; }
# the stored numbers are the run's: gpu_tot_sim_insn of kmeans/gto equals what locsim run prints
want=$("$locsim" run kmeans --size 1 --config ccws_gtx285 -gpgpu_scheduler gto 2>/dev/null | awk '$1=="gpu_sim_insn"{print $2}')
got=$(q "$dir/s.db" "select cast(value as integer) from stat_values where workload='kmeans' and variant='gto' and kernel=-1 and name='gpu_tot_sim_insn'")
[ -n "$want" ] && [ "$want" = "$got" ] || { echo "FAIL: stored gpu_tot_sim_insn $got, locsim run says $want"; fail=1; }

# idempotent: nothing to run, nothing added
before=$(q "$dir/s.db" "select count(*) || ' ' || max(id) from runs")
out=$("$locsim" sweep "$dir/s.yaml" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "8 in .* already.*, 0 to run" <<<"$out" || { echo "FAIL: second sweep: rc $rc: $out"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) || ' ' || max(id) from runs")" = "$before" ] || { echo "FAIL: the second sweep changed the runs"; fail=1; }
# --retry-failed reruns the failed run (capped runs are complete), replacing its record
out=$("$locsim" sweep "$dir/s.yaml" --retry-failed 2>&1)
grep -q "1 to run" <<<"$out" || { echo "FAIL: --retry-failed: $out"; fail=1; }
[ "$(q "$dir/s.db" "select count(*) from runs")" = 8 ] || { echo "FAIL: --retry-failed duplicated runs"; fail=1; }

# SIGKILL in the middle: six runs, one at a time
cat >"$dir/k.yaml" <<'EOF'
configs: [ccws_gtx285]
workloads:
  - {name: kmeans, size: 1, seeds: [1, 2, 3, 4, 5, 6]}
variants:
  gto: {options: {-gpgpu_scheduler: gto}}
EOF
"$locsim" sweep "$dir/k.yaml" --jobs 1 >"$dir/klog" 2>&1 &
sweep=$!
for _ in $(seq 600); do
  n=$(q "$dir/k.db" "select count(*) from runs" 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 2 ] && break
  sleep 0.1
done
child=$(pgrep -P $sweep | head -1)
kill -9 $sweep
wait $sweep 2>/dev/null
# the run dies with the sweep (a zombie waiting for its new parent to reap it counts as dead)
alive() { [ -n "$child" ] && [ -e /proc/$child ] && [ "$(awk '{print $3}' /proc/$child/stat 2>/dev/null)" != Z ]; }
for _ in $(seq 50); do alive || break; sleep 0.1; done
alive && { echo "FAIL: a run outlived the killed sweep"; fail=1; }
k=$(q "$dir/k.db" "select count(*) from runs")
[ "$k" -ge 2 ] && [ "$k" -lt 6 ] || { echo "FAIL: after SIGKILL $k runs stored (expected 2..5: the test kills too late?)"; fail=1; }
[ "$(q "$dir/k.db" "select count(*) from runs r where (select count(*) from stats s where s.run=r.id and s.kernel=-1) < 100")" = 0 ] ||
  { echo "FAIL: a half-written run after SIGKILL"; fail=1; }
out=$("$locsim" sweep "$dir/k.yaml" --jobs 2 2>&1); rc=$?
grep -q "$k in .* already, $((6 - k)) to run" <<<"$out" && [ $rc -eq 0 ] || { echo "FAIL: resume after SIGKILL: $out"; fail=1; }
[ "$(q "$dir/k.db" "select count(*) || ' ' || count(distinct key) || ' ' || count(distinct seed) from runs")" = "6 6 6" ] ||
  { echo "FAIL: after the resume: $(q "$dir/k.db" "select count(*), count(distinct key) from runs")"; fail=1; }

# a run over its CPU-time limit is stopped and stored as a timeout (bfs at size 32 takes
# about 3 s of CPU in the release build, several times that under the sanitizers; the
# limit is 1 s: at size 4 a quiet machine finished in 0.92 s and the check failed;
# rusage read 0.89 s for a run stopped at the 1 s limit on a loaded machine, so >= 0.8)
cat >"$dir/t.yaml" <<'EOF'
configs: [ccws_gtx285]
timeout: 1
workloads:
  - {name: bfs, size: 32}
EOF
"$locsim" sweep "$dir/t.yaml" >/dev/null 2>&1
[ "$(q "$dir/t.db" "select status || ' ' || (cpu_s >= 0.8) || ' ' || (message like '%CPU time%') from runs")" = "timeout 1 1" ] ||
  { echo "FAIL: CPU-time limit: $(q "$dir/t.db" "select status, cpu_s, message from runs")"; fail=1; }

# bad specs: rejected with file:line before anything runs
printf 'configs: [ccws_gtx285]\nworkloads: [{name: kmeans, size: 1}]\nvariants:\n  x: {options: {-gpgpu_no_such: 1}}\n' >"$dir/bad.yaml"
out=$("$locsim" sweep "$dir/bad.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "bad.yaml:4: unknown option '-gpgpu_no_such'" <<<"$out" || { echo "FAIL: unknown option: $out"; fail=1; }
[ -e "$dir/bad.db" ] && { echo "FAIL: a rejected spec created its database"; fail=1; }
printf 'configs: [ccws_gtx285]\nworkloads: [{name: kmeans, size: 1}]\nvariant: {}\n' >"$dir/bad2.yaml"
out=$("$locsim" sweep "$dir/bad2.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "bad2.yaml:3: unknown key 'variant' in the spec (expected one of:" <<<"$out" || { echo "FAIL: unknown key: $out"; fail=1; }

# bad databases: refused, never written
echo "my notes, not a database" >"$dir/notes.txt"
cp "$dir/notes.txt" "$dir/notes.orig"
out=$("$locsim" sweep "$dir/s.yaml" --db "$dir/notes.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "not a readable SQLite database" <<<"$out" && cmp -s "$dir/notes.txt" "$dir/notes.orig" ||
  { echo "FAIL: text file as --db: $out"; fail=1; }
cp "$dir/s.db" "$dir/corrupt.db"
q "$dir/corrupt.db" "pragma wal_checkpoint(truncate)" >/dev/null
size=$(stat -c %s "$dir/corrupt.db")
dd if=/dev/urandom of="$dir/corrupt.db" bs=1 seek=$((size / 2)) count=3000 conv=notrunc 2>/dev/null
cp "$dir/corrupt.db" "$dir/corrupt.orig"
out=$("$locsim" sweep "$dir/s.yaml" --db "$dir/corrupt.db" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qi "corrupt\|malformed\|not a readable" <<<"$out" && cmp -s "$dir/corrupt.db" "$dir/corrupt.orig" ||
  { echo "FAIL: corrupt database: rc $rc: $out"; fail=1; }
# locked: another process holds an exclusive transaction
(printf 'BEGIN EXCLUSIVE;\nSELECT 1;\n'; sleep 15; printf 'COMMIT;\n') | sqlite3 "$dir/k.db" >/dev/null &
holder=$!
sleep 1
out=$(timeout 30 "$locsim" sweep "$dir/k.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "locked by another process" <<<"$out" || { echo "FAIL: locked database: rc $rc: $out"; fail=1; }
kill $holder 2>/dev/null; wait $holder 2>/dev/null; holder=
# read-only: only meaningful for a user the permissions bind (root writes anyway)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  ro=$(mktemp -d); chmod 755 "$ro"; cp "$dir/k.db" "$dir/k.yaml" "$ro/"; chmod 444 "$ro/k.db"; cp "$ro/k.db" "$dir/ro.orig"
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$locsim" sweep "$ro/k.yaml" 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -q "read-only" <<<"$out" && cmp -s "$ro/k.db" "$dir/ro.orig" || { echo "FAIL: read-only database: rc $rc: $out"; fail=1; }
  rm -rf "$ro"
fi

[ $fail -eq 0 ] && echo "ok: harness sweep"
exit $fail
