#!/usr/bin/env bash
# Runs of an earlier model accepted as this model's (locsim sweep --accept):
# the sweep reruns a sample of them, compares every statistic bit for bit and,
# when all are identical, records the pair, so that the sweep counts the
# earlier runs as present and the report shows them without the stale mark;
# the pair travels in the committed results file.  A sample that differs in a
# single statistic is refused, naming it, and the runs stay stale.
set -u
locsim=$1
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 (tools/install-deps.sh installs it as root)"; exit 0; }
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
q() { sqlite3 "$1" "$2"; }

mkdir -p "$dir/a"
cat >"$dir/a/g.yaml" <<'EOF'
name: acc
configs: [fermi_gtx480]
classes: {X: every workload}
workloads:
  - {name: kmeans, size: 1, class: X}
  - {name: vectoradd, size: 1, class: X}
variants:
  lrr: {label: LRR, options: {-gpgpu_scheduler: lrr}}
  gto: {label: GTO, options: {-gpgpu_scheduler: gto}}
report:
  title: accept test
  sections:
    - text: "GTO mean IPC ${amean(X, gto.gpu_tot_ipc):%.4f}"
EOF
"$locsim" sweep "$dir/a/g.yaml" --jobs 2 >/dev/null 2>&1 || { echo "FAIL: the first sweep"; fail=1; }
"$locsim" report "$dir/a/g.yaml" --out "$dir/a/out" >/dev/null 2>&1 || { echo "FAIL: the first report"; fail=1; }
cp "$dir/a/out/acc.md" "$dir/first.md"
cp "$dir/a/g.db" "$dir/fresh.db"
# the simulator "changes": every run becomes an earlier model's (key and version)
q "$dir/a/g.db" "update runs set key = 'old' || substr(key, 4), version = 'v0 model:000000000000'"
rm -f "$dir/a/results/acc.db.zst"
cp "$dir/a/g.db" "$dir/differs.db"
out=$("$locsim" sweep "$dir/a/g.yaml" --dry-run 2>&1)
grep -q "0 in .* already, 4 to run" <<<"$out" || { echo "FAIL: the earlier runs count before any --accept: $out"; fail=1; }

# accepted: two reruns, identical, the pair recorded; the other two runs count
out=$("$locsim" sweep "$dir/a/g.yaml" --accept --sample 2 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "model 000000000000 made 4 runs this model lacks; rerunning 2 of them" <<<"$out" &&
  [ "$(grep -c ": identical ([0-9]* statistics)" <<<"$out")" = 2 ] && grep -q "accepted as [0-9a-f]\{12\}: 2 reruns" <<<"$out" ||
  { echo "FAIL: --accept (rc $rc): $out"; fail=1; }
# the sample: the longest run first, then another variant's
[ "$(q "$dir/a/g.db" "select count(distinct variant) from runs where version not like 'v0 %'")" = 2 ] ||
  { echo "FAIL: the sample does not span both variants"; q "$dir/a/g.db" "select workload, variant, version from runs"; fail=1; }
[ "$(q "$dir/a/g.db" "select earlier || ' ' || runs_rerun from model_equivalence")" = "000000000000 2" ] ||
  { echo "FAIL: the pair is not recorded"; q "$dir/a/g.db" "select * from model_equivalence"; fail=1; }
out=$("$locsim" sweep "$dir/a/g.yaml" --dry-run 2>&1)
grep -q "2 runs by earlier models accepted as this one's" <<<"$out" && grep -q "4 in .* already, 0 to run" <<<"$out" ||
  { echo "FAIL: the accepted runs do not count: $out"; fail=1; }
"$locsim" report "$dir/a/g.yaml" --out "$dir/a/out" >"$dir/rlog" 2>&1; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: report exits $rc with accepted runs"; cat "$dir/rlog"; fail=1; }
grep -q "†" "$dir/a/out/acc.md" && { echo "FAIL: an accepted value has the stale mark"; fail=1; }
grep -q "2 runs were made by earlier models accepted as this one" "$dir/a/out/acc.md" &&
  grep -q "model \`000000000000\` accepted as \`[0-9a-f]\{12\}\` (this model) on .*: 2 of its runs rerun, [0-9]* statistics compared, all identical" "$dir/a/out/acc.md" ||
  { echo "FAIL: the report does not name the acceptance"; tail -5 "$dir/a/out/acc.md"; fail=1; }
a=$(grep "GTO mean IPC" "$dir/first.md"); b=$(grep "GTO mean IPC" "$dir/a/out/acc.md")
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: values changed: '$a' vs '$b'"; fail=1; }
# the pair travels in the committed results file
mkdir -p "$dir/b/results"
cp "$dir/a/g.yaml" "$dir/b/"
cp "$dir/a/results/acc.db.zst" "$dir/b/results/"
out=$("$locsim" sweep "$dir/b/g.yaml" --dry-run 2>&1)
grep -q "4 in .* already, 0 to run" <<<"$out" || { echo "FAIL: a fresh folder does not take the accepted runs: $out"; fail=1; }

# refused: one statistic of every earlier run differs
q "$dir/differs.db" "update stats set value = value + 1 where kernel = -1 and stat = (select id from stat_names where name = 'gpu_tot_sim_cycle')"
mkdir -p "$dir/c"
cp "$dir/a/g.yaml" "$dir/c/"
cp "$dir/differs.db" "$dir/c/g.db"
out=$("$locsim" sweep "$dir/c/g.yaml" --accept --sample 1 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "gpu_tot_sim_cycle [0-9]*, then [0-9]*" <<<"$out" && grep -q "model 000000000000 NOT accepted (0 of 1 reruns identical)" <<<"$out" ||
  { echo "FAIL: a differing rerun was not refused (rc $rc): $out"; fail=1; }
[ "$(q "$dir/c/g.db" "select count(*) from model_equivalence")" = 0 ] || { echo "FAIL: a refused pair was recorded"; fail=1; }
out=$("$locsim" sweep "$dir/c/g.yaml" --dry-run 2>&1)
grep -q "1 in .* already, 3 to run" <<<"$out" || { echo "FAIL: refused runs do not stay stale: $out"; fail=1; }
# the options are checked
out=$("$locsim" sweep "$dir/c/g.yaml" --accept --sample 0 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "\-\-sample expects an integer 1..1000, got '0'" <<<"$out" || { echo "FAIL: --sample 0: $out"; fail=1; }
out=$("$locsim" sweep "$dir/c/g.yaml" --accept --dry-run 2>&1); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: --accept --dry-run exits $rc: $out"; fail=1; }

# runs stored under the first key scheme (key and point hashed the whole option
# dump, so a new option made every point new) are carried over to their
# points: an earlier model's when its command line is the planned one (then
# proven by --accept), this model's only when its scheme-1 key is the one this
# binary computes (a config file changed since would fail that)
mkdir -p "$dir/d"
cp "$dir/a/g.yaml" "$dir/d/"
cp "$dir/fresh.db" "$dir/d/g.db"
q "$dir/d/g.db" "update runs set key = 'k1' || substr(key, 3), point = 'p1' || substr(point, 3);
  update runs set version = 'v0 model:111111111111' where variant = 'lrr';
  update runs set command = command || ' -gpgpu_max_insn 5' where variant = 'lrr' and workload = 'vectoradd'"
out=$("$locsim" sweep "$dir/d/g.yaml" --dry-run 2>&1)
grep -q "^locsim sweep: 1 runs stored under the first key scheme carried over" <<<"$out" &&
  grep -q "0 in .* already, 4 to run" <<<"$out" || { echo "FAIL: scheme-1 runs, dry run: $out"; fail=1; }
[ "$(q "$dir/d/g.db" "select count(*) from runs where key like 'k1%'")" = 4 ] || { echo "FAIL: a dry run changed the database"; fail=1; }
out=$("$locsim" sweep "$dir/d/g.yaml" --accept --sample 1 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "model 111111111111 made 1 runs this model lacks" <<<"$out" &&
  grep -q "kmeans size 1 lrr: identical" <<<"$out" || { echo "FAIL: --accept of a carried-over run (rc $rc): $out"; fail=1; }
[ "$(q "$dir/d/g.db" "select workload || ' ' || variant from runs where key like 'k1%' order by 1" | tr '\n' ,)" = "kmeans gto,vectoradd gto,vectoradd lrr," ] ||
  { echo "FAIL: the wrong runs were carried over"; q "$dir/d/g.db" "select key, workload, variant, version from runs"; fail=1; }
out=$("$locsim" sweep "$dir/d/g.yaml" --dry-run 2>&1)
grep -q "1 in .* already, 3 to run" <<<"$out" || { echo "FAIL: after carrying over and accepting: $out"; fail=1; }

# two earlier models already proven one (a recorded pair) are sampled and
# accepted as one: --sample 2 reruns 2 runs in all, not 2 of each
mkdir -p "$dir/e"
cp "$dir/a/g.yaml" "$dir/e/"
cp "$dir/fresh.db" "$dir/e/g.db"
q "$dir/e/g.db" "update runs set key = 'k2' || substr(key, 3);
  update runs set version = 'v0 model:aaaaaaaaaaaa' where variant = 'lrr';
  update runs set version = 'v0 model:bbbbbbbbbbbb' where variant = 'gto';
  insert into model_equivalence values('aaaaaaaaaaaa', 'bbbbbbbbbbbb', 1, 1, '', '2026-11-29T00:00:00Z')"
out=$("$locsim" sweep "$dir/e/g.yaml" --accept --sample 2 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$(grep -c "rerunning" <<<"$out")" = 1 ] && grep -q "model aaaaaaaaaaaa made 4 runs this model lacks; rerunning 2 of them" <<<"$out" ||
  { echo "FAIL: two models of one class were not accepted as one (rc $rc): $out"; fail=1; }
out=$("$locsim" sweep "$dir/e/g.yaml" --dry-run 2>&1)
grep -q "4 in .* already, 0 to run" <<<"$out" || { echo "FAIL: after accepting a class: $out"; fail=1; }

[ $fail -eq 0 ] && echo "ok: earlier runs accepted by sampled reruns, refused when a statistic differs; scheme-1 runs carried over; a class of models accepted once"
exit $fail
