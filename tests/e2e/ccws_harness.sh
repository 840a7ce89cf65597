#!/usr/bin/env bash
# The CCWS evaluation through the harness (experiments/ccws.yaml), as a smoke test:
# the spec is checked whole (every workload, variant and option of the real
# evaluation) by a dry run; then a copy cut down to the two KMNs at size 1 with
# short grids (the old `ccws-eval --quick`) is swept and reported.  The report has every
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
# 13 workloads: 13 variants and the SWL grid's 15 points on each, the K and VTA
# grids' 14 and the ablation on HCS, the regime probes: 389
[ $rc -eq 0 ] && grep -q "experiments/ccws.yaml: 389 runs" <<<"$out" || { echo "FAIL: dry run of the full spec: $out" | head -3; fail=1; }
python3 - "$src/experiments/ccws.yaml" "$dir/q.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read()
keep = []
for line in s.split("\n"):
    if line.startswith("  - {name:") or line.startswith("  - {id:"):
        # KMN (kmeans_gm, HCS) and KMN2 (kmeans), each at size 1
        if not (line.startswith("  - {name: kmeans_gm,") or line.startswith("  - {name: kmeans,")):
            continue
        line = line.replace("size: 761", "size: 1").replace("size: 1000", "size: 1")
    keep.append(line)
s = "\n".join(keep)
for full, short in (("values: [32, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28]", "values: [32, 8, 2]"),
                    ("values: [1, 2, 4, 8, 16, 32, 64, 128]\n    options: {-gpgpu_scheduler: ccws, -ccws_k",
                     "values: [1, 8, 64]\n    options: {-gpgpu_scheduler: ccws, -ccws_k"),
                    ("values: [1, 2, 4, 8, 16, 32, 64, 128]", "values: [4, 16, 64]"),
                    ("options_for: {1: {-ccws_vta_assoc: 1}, 2: {-ccws_vta_assoc: 2}, 4: {-ccws_vta_assoc: 4}}",
                     "options_for: {4: {-ccws_vta_assoc: 4}}")):
    assert full in s, full
    s = s.replace(full, short, 1)
s = s.replace("name: ccws\n", "name: q\n")
cut = s.index("exclude:")
s = s[:cut] + s[s.index("report:"):]
s = s.replace("    - include: docs/results/ccws-notes.md\n", "")
open(sys.argv[2], "w").write(s)
PY
# 38 runs: 2 workloads x (13 variants: 5 schedulers, issue 28's 6, the two with
# 64 K registers; SWL 8 and 2, K 1 and 64, VTA 4 and 64), the exclusions cut
out=$("$locsim" sweep "$dir/q.yaml" --jobs 2 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "38 runs" <<<"$out" || { echo "FAIL: sweep: $out"; fail=1; }
"$locsim" report "$dir/q.yaml" --out "$dir/a" >"$dir/log" 2>&1 || { echo "FAIL: report"; cat "$dir/log"; fail=1; }
"$locsim" report "$dir/q.yaml" --out "$dir/b" >/dev/null 2>&1
cmp -s "$dir/a/q.md" "$dir/b/q.md" && cmp -s "$dir/a/q.html" "$dir/b/q.html" || { echo "FAIL: two renderings differ"; fail=1; }
for section in "## Side by side with the paper" "## Cache sensitivity" "## Performance" "## L1D misses" \
               "## Locality breakdown" "## Locality with an unbounded L1D" "## Static warp limiting" \
               "## K_throttle sweep" "## Victim tag array" "## What CCWS did" "## Ablation (issue 28)" \
               "## Ablation, what moved" "## Occupancy sensitivity" "| HCS | kmeans_gm |" "| KMN2 | kmeans |" \
               "| CCWS over GTO, HCS (HMEAN IPC) | +63% |"; do
  grep -qF -- "$section" "$dir/a/q.md" || { echo "FAIL: report lacks '$section'"; fail=1; }
done
grep -Eq "^\|.*\b(missing|FAIL)\b" "$dir/a/q.md" && { echo "FAIL: values missing or failed"; fail=1; }
# Best-SWL: the N with the highest IPC among N = 32 (GTO), 8, 2 (ties keep the larger N)
best=$(sqlite3 "$dir/q.db" "select variant from stat_values where kernel = -1 and name = 'gpu_tot_ipc' and workload = 'kmeans_gm' and variant in ('gto', 'swl_8', 'swl_2')
       order by value desc, case variant when 'gto' then 0 when 'swl_8' then 1 else 2 end limit 1")
n=$(case $best in gto) echo 32;; swl_8) echo 8;; swl_2) echo 2;; esac)
grep -q "^| kmeans_gm | .* | $n |$" "$dir/a/q.md" || { echo "FAIL: Best-SWL N is not $n"; grep "^| kmeans_gm |" "$dir/a/q.md"; fail=1; }
# a recipe error names file:line
sed 's/        columns:/        colums:/' "$dir/q.yaml" >"$dir/bad.yaml"
out=$("$locsim" report "$dir/bad.yaml" --db "$dir/q.db" --out "$dir/c" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "bad.yaml:[0-9]*: unknown key 'colums' in a table" <<<"$out" || { echo "FAIL: bad recipe: $out"; fail=1; }
[ $fail -eq 0 ] && echo "ok: the CCWS evaluation through the harness"
exit $fail
