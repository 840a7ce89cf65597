#!/usr/bin/env bash
# locsim ccws-eval: a smoke run (--quick, one workload) writes the report and its
# results file, --report-only renders the same report from the results file, and
# bad arguments get clear errors.
set -u
locsim=$1
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

if ! "$locsim" ccws-eval --quick --workloads kmeans --out "$dir/r.md" --notes /nonexistent >"$dir/log" 2>&1; then
  echo "FAIL: ccws-eval --quick exited non-zero"; tail -5 "$dir/log"; exit 1
fi
for section in "## Side by side with the paper" "## Cache sensitivity" "## Performance" "## L1D misses" \
               "## Locality breakdown" "## Static warp limiting" "## K_throttle sweep" "## Victim tag array" \
               "## What CCWS did" "| HCS | kmeans |"; do
  grep -qF -- "$section" "$dir/r.md" || { echo "FAIL: report lacks '$section'"; fail=1; }
done
[ -s "$dir/r-runs.tsv" ] || { echo "FAIL: no results file r-runs.tsv"; fail=1; }
# 5 main runs, SWL N=8 and N=2, K 1 and 64, VTA 4 and 64 (N=32, K=8 and 16 entries are reused)
n=$(grep -vc '^#' "$dir/r-runs.tsv")
[ "$n" -eq 11 ] || { echo "FAIL: results file has $n runs, expected 11"; fail=1; }
cp "$dir/r.md" "$dir/first.md"
if ! "$locsim" ccws-eval --quick --workloads kmeans --out "$dir/r.md" --notes /nonexistent --report-only >"$dir/log2" 2>&1; then
  echo "FAIL: --report-only exited non-zero"; tail -3 "$dir/log2"; fail=1
fi
cmp -s "$dir/r.md" "$dir/first.md" || { echo "FAIL: --report-only rendered a different report"; fail=1; }
grep -q "0 runs" "$dir/log2" || { echo "FAIL: --report-only simulated something"; fail=1; }

out=$("$locsim" ccws-eval --workloads nosuch 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "'nosuch' is not one of the paper's workloads" <<<"$out" || { echo "FAIL: unknown workload: $out"; fail=1; }
out=$("$locsim" ccws-eval --bogus 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown option '--bogus'" <<<"$out" || { echo "FAIL: unknown option: $out"; fail=1; }
out=$("$locsim" ccws-eval --quick --workloads kmeans --out "$dir/x.md" --results "$dir/missing.tsv" --report-only 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot read" <<<"$out" || { echo "FAIL: missing results file: $out"; fail=1; }

[ $fail -eq 0 ] && echo "ok: ccws-eval"
exit $fail
