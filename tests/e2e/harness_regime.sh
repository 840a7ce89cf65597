#!/usr/bin/env bash
# The regime table and results that outlast a machine: a sweep with regime
# probes, the report's Regime section checked against the database (Python
# computes the cells from the stored statistics), the committed results file
# bringing every run to a fresh folder with no database, and runs of an earlier
# model shown as stale until the sweep reruns them.
set -u
locsim=$1
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
for tool in python3 sqlite3; do
  command -v $tool >/dev/null || { echo "SKIP: no $tool (tools/install-deps.sh installs it as root)"; exit 0; }
done
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
q() { sqlite3 "$1" "$2"; }

mkdir -p "$dir/a"
cat >"$dir/a/g.yaml" <<'EOF'
name: reg
configs: [fermi_gtx480]
classes: {X: every workload}
workloads:
  - {name: kmeans, size: 1, class: X}
  - {name: vectoradd, size: 1, class: X, variants: [gto]}
variants:
  lrr: {label: LRR, options: {-gpgpu_scheduler: lrr}}
  gto: {label: GTO, options: {-gpgpu_scheduler: gto}}
regime: {variant: gto, sensitivity: true}
report:
  title: regime test
  sections:
    - text: "GTO mean IPC ${amean(X, gto.gpu_tot_ipc):%.4f}"
EOF
# kmeans x (lrr, gto) + vectoradd x gto, and the three probes where gto runs: 3 + 6
out=$("$locsim" sweep "$dir/a/g.yaml" --dry-run 2>&1)
grep -q "9 runs (9 points)" <<<"$out" || { echo "FAIL: dry run: $out"; fail=1; }
for w in kmeans vectoradd; do
  for p in regime_l1d_4x regime_dram_bw_2x regime_l1d_unbounded; do
    grep -Eq "^$w +size 1 .* $p " <<<"$out" || { echo "FAIL: no $p run of $w planned"; fail=1; }
  done
done
"$locsim" sweep "$dir/a/g.yaml" --jobs 2 >"$dir/log" 2>&1 || { echo "FAIL: sweep"; cat "$dir/log"; exit 1; }
[ -s "$dir/a/results/reg.db.zst" ] || { echo "FAIL: the sweep wrote no results file"; fail=1; }
"$locsim" report "$dir/a/g.yaml" --out "$dir/a/out" >"$dir/rlog" 2>&1 || { echo "FAIL: report"; cat "$dir/rlog"; fail=1; }
md=$dir/a/out/reg.md
grep -q "^## Regime$" "$md" || { echo "FAIL: no Regime section"; fail=1; }
# the probes change what they say: 4x the L1D, twice the DRAM data rate, an unbounded L1D
[ "$(q "$dir/a/g.db" "select value from stat_values where variant='regime_l1d_4x' and workload='kmeans' and kernel=-1 and name='L1D_capacity_bytes'")" = \
  "$(q "$dir/a/g.db" "select 4*value from stat_values where variant='gto' and workload='kmeans' and kernel=-1 and name='L1D_capacity_bytes'")" ] ||
  { echo "FAIL: the 4x-L1D probe does not have 4x the L1D"; fail=1; }
python3 - "$dir/a/g.db" "$md" <<'PY' || fail=1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def stat(w, v, n):
    r = db.execute("select value from stat_values where workload=? and variant=? and kernel=-1 and name=?", (w, v, n)).fetchone()
    return r[0]
rows = {}
lines = open(sys.argv[2]).read().split("## Regime", 1)[1].splitlines()
head = None
for l in lines:
    if l.startswith("| workload"):
        head = [c.strip() for c in l.strip("|").split("|")]
    elif head and l.startswith("| ") and not l.startswith("|---"):
        cells = [c.strip() for c in l.strip("|").split("|")]
        rows[cells[0]] = dict(zip(head, cells))
bad = 0
for w in ("kmeans", "vectoradd"):
    r = rows.get(w)
    if not r:
        print("FAIL: no regime row for", w); bad = 1; continue
    want = {
        "waves": "%.2f" % stat(w, "gto", "gpu_grid_waves"),
        "rows / SMs": "%d / %d" % (stat(w, "gto", "gpu_grid_rows_max"), stat(w, "gto", "gpu_num_sms")),
        "mem stalls": "%.1f%%" % (100 * stat(w, "gto", "issue_stall_memory_frac")),
        "4x L1D": "%+.0f%%" % ((stat(w, "regime_l1d_4x", "gpu_tot_ipc") / stat(w, "gto", "gpu_tot_ipc") - 1) * 100),
        "unbounded L1D": "%+.0f%%" % ((stat(w, "regime_l1d_unbounded", "gpu_tot_ipc") / stat(w, "gto", "gpu_tot_ipc") - 1) * 100),
        "grid": "%d" % stat(w, "gto", "gpu_grid_ctas_max"),
    }
    for k, v in want.items():
        if r.get(k) != v:
            print("FAIL: %s %s: report %r, database %r" % (w, k, r.get(k), v)); bad = 1
    warps = r.get("warps", "").split(" / ")
    if len(warps) != 3 or float(warps[0]) != round(stat(w, "gto", "sm_live_warps_mean"), 1) or \
       int(warps[2]) != stat(w, "gto", "gpu_occ_warps_per_sm"):
        print("FAIL: %s warps %r" % (w, r.get("warps"))); bad = 1
sys.exit(bad)
PY

# a fresh machine: the spec and the committed results, no database
mkdir -p "$dir/b/results"
cp "$dir/a/g.yaml" "$dir/b/"
cp "$dir/a/results/reg.db.zst" "$dir/b/results/"
out=$("$locsim" sweep "$dir/b/g.yaml" --dry-run 2>&1)
grep -q "9 in .* already, 0 to run (dry run)" <<<"$out" || { echo "FAIL: a dry run ignores the committed results: $out"; fail=1; }
[ -e "$dir/b/g.db" ] && { echo "FAIL: the dry run created the database"; fail=1; }
# spec errors name file:line
printf 'configs: [fermi_gtx480]\nworkloads: [{name: vectoradd, size: 1}]\nvariants: {a: {}}\nregime: {variant: b}\n' >"$dir/bad.yaml"
out=$("$locsim" sweep "$dir/bad.yaml" --dry-run 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "bad.yaml:4: regime: variant: no variant 'b'" <<<"$out" || { echo "FAIL: unknown regime variant: $out"; fail=1; }
printf 'configs: [fermi_gtx480]\nworkloads: [{name: vectoradd, size: 1}]\nregime: {sensitivity: maybe}\n' >"$dir/bad.yaml"
out=$("$locsim" sweep "$dir/bad.yaml" --dry-run 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "bad.yaml:3: regime: sensitivity: expected true or false" <<<"$out" || { echo "FAIL: bad sensitivity: $out"; fail=1; }
out=$("$locsim" sweep "$dir/b/g.yaml" --jobs 2 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "9 runs merged from" <<<"$out" && grep -q "9 in .* already, 0 to run" <<<"$out" ||
  { echo "FAIL: the committed results did not carry the runs to a new database: $out"; fail=1; }
[ "$(q "$dir/b/g.db" "select count(*) from runs where point is not null and length(point) = 64")" = 9 ] ||
  { echo "FAIL: runs without their point"; fail=1; }
"$locsim" report "$dir/b/g.yaml" --out "$dir/b/out" >/dev/null 2>&1 || { echo "FAIL: report from the merged runs"; fail=1; }
cmp -s "$dir/a/out/reg.md" "$dir/b/out/reg.md" || { echo "FAIL: the report differs on the new machine"; diff "$dir/a/out/reg.md" "$dir/b/out/reg.md" | head; fail=1; }

# an earlier model's runs (the simulator changed: their keys no longer match) are stale
rm -f "$dir/b/results/reg.db.zst"
q "$dir/b/g.db" "update runs set key = 'old' || substr(key, 4), version = 'v0 model:000000000000' where variant = 'gto'"
"$locsim" report "$dir/b/g.yaml" --out "$dir/b/out" >"$dir/slog" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "values come from runs of an earlier model (.v0 model:000000000000.; shown with" "$dir/slog" ||
  { echo "FAIL: stale runs not reported (rc $rc)"; cat "$dir/slog"; fail=1; }
grep -q "^GTO mean IPC [0-9.]*†$" "$dir/b/out/reg.md" || { echo "FAIL: a stale value lacks its dagger"; grep "GTO mean IPC" "$dir/b/out/reg.md"; fail=1; }
grep -q "come from runs of an earlier model (\`v0 model:000000000000\`)" "$dir/b/out/reg.md" || { echo "FAIL: no stale note in the document"; fail=1; }
out=$("$locsim" sweep "$dir/b/g.yaml" --jobs 2 2>&1)
grep -q "7 in .* already, 2 to run" <<<"$out" || { echo "FAIL: the sweep does not rerun the stale runs: $out"; fail=1; }
"$locsim" report "$dir/b/g.yaml" --out "$dir/b/out" >/dev/null 2>&1 || { echo "FAIL: report still stale after the rerun"; fail=1; }
grep -q "†" "$dir/b/out/reg.md" && { echo "FAIL: daggers after the rerun"; fail=1; }

[ $fail -eq 0 ] && echo "ok: regime table, committed results, stale runs"
exit $fail
