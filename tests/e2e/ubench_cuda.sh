#!/usr/bin/env bash
# Issue 35 item 5: the microbenchmarks as a standalone CUDA program
# (ubench/main.cu, built by tools/ubench-cuda/build.sh) print the figures
# `locsim ubench` prints.  Checks, where nvcc is installed (skipped otherwise):
#  1. ubench/kernel.ptx, the PTX `locsim ubench` runs, is what nvcc makes of
#     ubench/kernel.cu;
#  2. the standalone binary builds and the PTX in it is that same file (so the
#     simulator's ubench and the program run the same kernels);
#  3. under `locsim exec --config fermi_gtx480` every row it prints, latency
#     and throughput, is within the range `locsim ubench` accepts for that row
#     (configured figure +- its tolerance), and no row of ubench is missing.  The DRAM rows
#     differ by design (main.cu's header): lat.dram.chase must only lie above
#     lat.l2.hit.
# There is no GPU here: nothing checks hardware figures.
set -euo pipefail
source "$2/tests/cudart/common.sh"
cd "$SRC"
bash tools/gen-ptx.sh --check ubench || fail "ubench/kernel.ptx is stale: run tools/gen-ptx.sh ubench"
bash tools/ubench-cuda/build.sh "$WORK/ubench-cuda" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; fail "build.sh failed"; }
"$BUILD/cudart/locsim-fatbin" "$WORK/ubench-cuda" >"$WORK/embedded.ptx" || fail "locsim-fatbin could not read the binary"
# nvcc embeds the PTX without its comments and with its blanks collapsed: compare
# the instructions and directives, token for token
norm() { sed 's|//.*||; s/[[:space:]]\+/ /g; s/^ //; s/ $//' "$1" | grep -v '^$'; }
norm ubench/kernel.ptx >"$WORK/committed.norm"
norm "$WORK/embedded.ptx" >"$WORK/embedded.norm"
[ "$(wc -l <"$WORK/committed.norm")" -gt 1000 ] || fail "ubench/kernel.ptx looks empty"
cmp -s "$WORK/committed.norm" "$WORK/embedded.norm" ||
  fail "the PTX in the standalone binary is not ubench/kernel.ptx: $(diff "$WORK/committed.norm" "$WORK/embedded.norm" | head -3)"
echo "ok: kernel.ptx is fresh and is the PTX of the standalone binary"

"$LOCSIM" ubench --config fermi_gtx480 >"$WORK/ubench.out" 2>&1 || { cat "$WORK/ubench.out"; fail "locsim ubench failed"; }
run ubench-cuda --config fermi_gtx480
[ "$status" = 0 ] || { show ubench-cuda; fail "the standalone program exited $status under locsim exec"; }
# ubench rows: name ... configured measured tolerance verdict (the formula has spaces)
awk -v prog="$WORK/ubench-cuda.out" '
  BEGIN { while ((getline l < prog) > 0) if (l !~ /^#/) { split(l, f, " "); got[f[1]] = f[2] } }
  $NF ~ /^(PASS|FAIL|NO-OPT)$/ && $1 !~ /^lat\.dram\./ {
    name = $1; conf = $(NF-3); meas = $(NF-2); tol = $(NF-1); rows++
    if (!(name in got)) { print "FAIL: " name ": not printed by the standalone program"; bad = 1; next }
    if (tol == "-") { lo = meas - 0.05; hi = meas + 0.05 }
    else if (tol ~ /^\+-[0-9.]+$/) { t = substr(tol, 3) + 0; lo = conf - t; hi = conf + t }
    else if (tol ~ /^\+-[0-9.]+%$/) { t = substr(tol, 3) / 100; lo = conf * (1 - t); hi = conf * (1 + t) }
    else if (tol ~ /^-[0-9.]+%?\.\.\+[0-9.]+%?$/) {
      split(substr(tol, 2), ab, /\.\.\+/)
      lo = ab[1] ~ /%$/ ? conf * (1 - ab[1] / 100) : conf - ab[1]
      hi = ab[2] ~ /%$/ ? conf * (1 + ab[2] / 100) : conf + ab[2]
    }
    else { print "FAIL: " name ": tolerance " tol " not understood"; bad = 1; next }
    v = got[name] + 0
    if (v < lo - 1e-9 || v > hi + 1e-9) { printf "FAIL: %s: standalone %.2f, ubench accepts %.2f..%.2f (ubench measured %s)\n", name, v, lo, hi, meas; bad = 1 }
    else ok++
  }
  END {
    if (rows < 50) { print "FAIL: only " rows " rows from locsim ubench"; bad = 1 }
    if (!("lat.dram.chase" in got) || !("lat.l2.hit" in got) || got["lat.dram.chase"] + 0 <= got["lat.l2.hit"] + 0) {
      print "FAIL: lat.dram.chase (" got["lat.dram.chase"] ") is not above lat.l2.hit (" got["lat.l2.hit"] ")"; bad = 1 }
    if (!bad) printf "ok: %d rows of the standalone program within ubench'"'"'s tolerance; lat.dram.chase %s > lat.l2.hit %s\n", ok, got["lat.dram.chase"], got["lat.l2.hit"]
    exit bad
  }' "$WORK/ubench.out" || { echo "--- locsim ubench"; cat "$WORK/ubench.out"; show ubench-cuda; exit 1; }
