#!/usr/bin/env bash
# The CCWS evaluation through the harness (experiments/ccws.yaml), as a smoke test:
# the spec is checked whole (every workload, variant and option of the real
# evaluation) by a dry run; then a copy cut down to kmeans at size 1 with short
# grids (the old `ccws-eval --quick`) is swept and reported.  The report has every
# section of docs/results/ccws.md, Best-SWL is the best N of the grid's runs, and
# rendering twice gives the same bytes.
set -u
locsim=$1
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
command -v python3 >/dev/null && command -v sqlite3 >/dev/null || { echo "SKIP: needs python3 and sqlite3"; exit 0; }
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$src"
out=$("$locsim" sweep experiments/ccws.yaml --db "$dir/none.db" --dry-run 2>&1); rc=$?
# 125 (110 + the regime probes) + issue 28's ablation: 6 variants x 4 HCS workloads
[ $rc -eq 0 ] && grep -q "experiments/ccws.yaml: 149 runs" <<<"$out" || { echo "FAIL: dry run of the full spec: $out" | head -3; fail=1; }
python3 - "$src/experiments/ccws.yaml" "$dir/q.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read()
keep = []
for line in s.split("\n"):
    if line.startswith("  - {name:") or line.startswith("  - {id:"):
        if "name: kmeans" not in line or "id:" in line:
            continue
        line = line.replace("size: 64", "size: 1")
    keep.append(line)
s = "\n".join(keep)
s = s.replace("values: [32, 8, 6, 5, 4]", "values: [32, 8, 2]")
s = s.replace("values: [2, 8, 32]", "values: [1, 8, 64]")
s = s.replace("name: ccws\n", "name: q\n").replace("workloads: [bfs_prev, bfs]", "workloads: [kmeans]")
cut = s.index("exclude:")
s = s[:cut] + s[s.index("report:"):]
s = s.replace("    - include: docs/results/ccws-notes.md\n", "")
open(sys.argv[2], "w").write(s)
PY
# 29 runs: 23 variants (5 schedulers, issue 17's ablation's 11, issue 28's 6, GTO
# and CCWS without the analysis), SWL 8 and 2, K 1 and 64, VTA 4 and 64
out=$("$locsim" sweep "$dir/q.yaml" --jobs 2 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "29 runs" <<<"$out" || { echo "FAIL: sweep: $out"; fail=1; }
"$locsim" report "$dir/q.yaml" --out "$dir/a" >"$dir/log" 2>&1 || { echo "FAIL: report"; cat "$dir/log"; fail=1; }
"$locsim" report "$dir/q.yaml" --out "$dir/b" >/dev/null 2>&1
cmp -s "$dir/a/q.md" "$dir/b/q.md" && cmp -s "$dir/a/q.html" "$dir/b/q.html" || { echo "FAIL: two renderings differ"; fail=1; }
for section in "## Side by side with the paper" "## Cache sensitivity" "## Performance" "## L1D misses" \
               "## Locality breakdown" "## Locality with an unbounded L1D" "## Static warp limiting" \
               "## K_throttle sweep" "## Victim tag array" "## What CCWS did" "## Ablation (issue 17)" "## Ablation (issue 28)" \
               "## Ablation, inputs" "| HCS | kmeans |" "| CCWS over GTO, HCS (HMEAN IPC) | +63% |"; do
  grep -qF -- "$section" "$dir/a/q.md" || { echo "FAIL: report lacks '$section'"; fail=1; }
done
grep -Eq "^\|.*\b(missing|FAIL)\b" "$dir/a/q.md" && { echo "FAIL: values missing or failed"; fail=1; }
# Best-SWL: the N with the highest IPC among N = 32 (GTO), 8, 2 (ties keep the larger N)
best=$(sqlite3 "$dir/q.db" "select variant from stat_values where kernel = -1 and name = 'gpu_tot_ipc' and variant in ('gto', 'swl_8', 'swl_2')
       order by value desc, case variant when 'gto' then 0 when 'swl_8' then 1 else 2 end limit 1")
n=$(case $best in gto) echo 32;; swl_8) echo 8;; swl_2) echo 2;; esac)
grep -q "^| kmeans | .* | $n |$" "$dir/a/q.md" || { echo "FAIL: Best-SWL N is not $n"; grep "^| kmeans |" "$dir/a/q.md"; fail=1; }
# a recipe error names file:line
sed 's/        columns:/        colums:/' "$dir/q.yaml" >"$dir/bad.yaml"
out=$("$locsim" report "$dir/bad.yaml" --db "$dir/q.db" --out "$dir/c" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "bad.yaml:[0-9]*: unknown key 'colums' in a table" <<<"$out" || { echo "FAIL: bad recipe: $out"; fail=1; }
[ $fail -eq 0 ] && echo "ok: the CCWS evaluation through the harness"
exit $fail
