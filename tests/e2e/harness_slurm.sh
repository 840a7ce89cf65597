#!/usr/bin/env bash
# locsim sweep --slurm / --collect against a real single-node Slurm: munged,
# slurmctld and slurmd started here on localhost (private sockets, ports and
# state directory), a small sweep submitted as a job array, its shards collected
# twice (the second adds nothing), and the collected statistics equal to those of
# the same sweep run locally.  Says SKIP (and passes) where Slurm cannot be
# started: not root, or slurm-wlm / munge not installed.
set -u
locsim=$(readlink -f "$1")
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
[ "$(id -u)" -eq 0 ] || { echo "SKIP: Slurm needs root to start slurmd here"; exit 0; }
for tool in slurmctld slurmd sbatch squeue sinfo munged sqlite3; do
  command -v $tool >/dev/null || { echo "SKIP: no $tool (apt-get install slurm-wlm munge sqlite3)"; exit 0; }
done
fail=0
dir=$(mktemp -d)
chmod 755 "$dir"
pids=()
cleanup() {
  for f in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  sleep 1
  for f in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
  done
  rm -rf "$dir"
}
trap cleanup EXIT
skip() { echo "SKIP: $*"; exit 0; }

# munge with its own key and socket
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge.key"
mkdir -p "$dir/munge"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge.seed" 2>"$dir/munged.err" ||
  skip "munged does not start: $(tail -1 "$dir/munged.err")"

host=$(hostname -s)
base=$(( 20000 + ($$ % 20000) ))
cpus=$(nproc)
mkdir -p "$dir/state" "$dir/spool"
cat >"$dir/slurm.conf" <<EOF
ClusterName=locsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmctldParameters=enable_configless
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=locsim Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" -i 2>"$dir/ctld.err" || skip "slurmctld does not start: $(tail -2 "$dir/ctld.err")"
slurmd -f "$SLURM_CONF" -N "$host" 2>"$dir/slurmd.err" || skip "slurmd does not start: $(tail -2 "$dir/slurmd.err")"
up=0
for _ in $(seq 60); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
  case "$state" in idle*|mix*|alloc*) up=1; break ;; esac
  sleep 1
done
[ $up -eq 1 ] || skip "the Slurm node did not come up (state '$state'): $(tail -3 "$dir/slurmd.log" 2>/dev/null)"

cat >"$dir/s.yaml" <<'EOF'
configs: [ccws_gtx285]
workloads:
  - {name: kmeans, size: 1, seeds: [1, 2]}
variants:
  lrr: {options: {-gpgpu_scheduler: lrr}}
  gto: {options: {-gpgpu_scheduler: gto}}
EOF
cd "$dir"
out=$("$locsim" sweep s.yaml --slurm --partition locsim --time 10 --array-max 2 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "submitted job [0-9]*: 4 runs as a job array" <<<"$out" || { echo "FAIL: --slurm: $out"; exit 1; }
job=$(sed -n 's/.*submitted job \([0-9]*\).*/\1/p' <<<"$out")
for _ in $(seq 300); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || { echo "FAIL: job $job still queued after 300 s"; squeue; fail=1; }
n=$(ls s.db.slurm/batch-*/shards/*.db 2>/dev/null | wc -l)
[ "$n" -eq 4 ] || { echo "FAIL: $n shards, expected 4"; cat s.db.slurm/batch-*/task-*.out 2>/dev/null | tail -5; fail=1; }
# nothing in the database yet; collect
[ "$(sqlite3 s.db "select count(*) from runs" 2>/dev/null || echo 0)" = 0 ] || { echo "FAIL: --slurm wrote runs"; fail=1; }
out=$("$locsim" sweep s.yaml --collect 2>&1)
grep -q "collected 4 shards .*: 4 new runs" <<<"$out" || { echo "FAIL: --collect: $out"; fail=1; }
out=$("$locsim" sweep s.yaml --collect 2>&1)
grep -q "collected 4 shards .*: 0 new runs" <<<"$out" || { echo "FAIL: second --collect: $out"; fail=1; }
[ "$(sqlite3 s.db "select count(*) || ' ' || count(distinct key) from runs where status = 'ok'")" = "4 4" ] ||
  { echo "FAIL: runs after collect: $(sqlite3 s.db "select workload, variant, status, message from runs")"; fail=1; }
out=$("$locsim" sweep s.yaml 2>&1)
grep -q "4 in .* already, 0 to run" <<<"$out" || { echo "FAIL: the collected runs are not the spec's runs: $out"; fail=1; }
# the same sweep locally: the same keys and the same statistics, value for value
"$locsim" sweep s.yaml --db local.db --jobs 2 >/dev/null 2>&1
q="select key, kernel, name, value from stat_values order by key, kernel, name"
cmp -s <(sqlite3 s.db "$q") <(sqlite3 local.db "$q") && [ "$(sqlite3 s.db "select count(*) from stats")" -gt 400 ] ||
  { echo "FAIL: Slurm runs differ from local runs"; fail=1; }

[ $fail -eq 0 ] && echo "ok: harness Slurm round trip (job $job)"
exit $fail
