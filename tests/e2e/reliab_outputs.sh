#!/usr/bin/env bash
# Issue 34, the command line: output files are written whole or not at all, write
# errors on the standard output are errors, a partition queue never overflows, and
# misleading messages say what is wrong.
set -euo pipefail
LOCSIM=$1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect_error STATUS "words" locsim args...
expect_error() {
  local want_st=$1 want=$2; shift 2
  set +e; "$LOCSIM" "$@" > "$W/out" 2> "$W/err"; local st=$?; set -e
  [ "$st" = "$want_st" ] || { cat "$W/out" "$W/err"; fail "$*: exit status $st, expected $want_st"; }
  grep -qF -- "$want" "$W/err" || { cat "$W/err"; fail "$*: message lacks '$want'"; }
}

# --json FILE: a run that fails (here: a size the workload refuses, found after the
# file was opened) or is killed leaves an earlier FILE as it was; a good run replaces it
echo '{"earlier": 1}' > "$W/s.json"
expect_error 2 "--size 999999 is too large" run vectoradd --json "$W/s.json" --size 999999
[ "$(cat "$W/s.json")" = '{"earlier": 1}' ] || fail "--json: a failed run destroyed the earlier file"
"$LOCSIM" run kmeans --size 64 -quiet --json "$W/s.json" > /dev/null 2>&1 & pid=$!
sleep 1; kill -KILL $pid; wait $pid 2>/dev/null || true
[ "$(cat "$W/s.json")" = '{"earlier": 1}' ] || fail "--json: a killed run destroyed the earlier file"
rm -f "$W"/s.json.tmp.*   # what SIGKILL leaves behind: a temporary, never the result
"$LOCSIM" run vectoradd --size 1 -quiet --json "$W/s.json" > /dev/null
python3 -c "import json,sys; json.load(open(sys.argv[1]))['inputs']" "$W/s.json" || fail "--json: not replaced"
[ -z "$(ls "$W" | grep 'tmp')" ] || fail "--json: temporary file left behind"

# the standard output: a full disk and a closed pipe are errors, with the reason
set +e; "$LOCSIM" run vectoradd --size 1 -quiet > /dev/full 2> "$W/err"; st=$?; set -e
[ "$st" = 1 ] && grep -q "locsim: error writing the standard output: No space left on device" "$W/err" ||
  { cat "$W/err"; fail "stdout on /dev/full: status $st"; }
python3 - "$LOCSIM" <<'PY' || fail "stdout on a closed pipe"
import os, subprocess, sys
r, w = os.pipe()
os.close(r)                       # nobody will ever read
p = subprocess.run([sys.argv[1], "list"], stdout=w, stderr=subprocess.PIPE)
assert p.returncode == 1, p
assert b"error writing the standard output: Broken pipe" in p.stderr, p.stderr
PY

# a partition queue overflowed (tq_push never checked; the L2 woke more requests
# at a fill than the room it had checked for): now a normal run
set +e; "$LOCSIM" run vectoradd --size 1 -quiet -gpgpu_memory_partition_indexing 1 -icnt_flit_size 4 \
  -gpgpu_cache:dl2 S:1:128:1,L:T:f:L:L,A:64:8,2:0,32 > "$W/out" 2> "$W/err"; st=$?; set -e
[ "$st" = 0 ] && grep -q "^PASS" "$W/out" || { cat "$W/out" "$W/err"; fail "partition queue reproducer: status $st"; }

# misleading messages
# a config path of 1100 characters: the reason is not cut off; of 5000: too long, said so
long=$W/$(printf 'd%.0s' $(seq 1 1100)).cfg
expect_error 2 "$(printf 'd%.0s' $(seq 1 90)).cfg: cannot read config file: File name too long" \
  run vectoradd --size 1 --config "$long"
long=$W/$(printf 'd%.0s' $(seq 1 5000)).cfg
expect_error 2 "config path too long: 50" run vectoradd --size 1 --config "$long"
expect_error 2 "--only 'lat.nosuch' matches no measurement" ubench --only lat.l2,lat.nosuch
grep -q "the measurements are: lat.iadd" "$W/err" || { cat "$W/err"; fail "ubench --only: names not listed"; }
! grep -q "passed" "$W/out" || fail "ubench --only: ran something"
"$LOCSIM" --help-options > "$W/help"
grep -A3 -- "^  -l1d_policy " "$W/help" | grep -q "registered: lru, fifo, lpc, sharing, ldesc" || fail "help: l1d_policy"
grep -A3 -- "^  -l2_prefetcher " "$W/help" | grep -q "registered: nextline, stride, ldesc, spp, spp_ppf" ||
  fail "help: l2_prefetcher"
grep -A3 -- "^  -cta_scheduler " "$W/help" | grep -q "registered: rr, bcs, .*ldesc" || fail "help: cta_scheduler"
grep -A3 -- "^  -gpgpu_dram_scheduler " "$W/help" | grep -q "registered: fifo, frfcfs, mfq" || fail "help: dram"
echo "PASS: --json whole or not at all, stdout write errors, partition queues, config path, ubench --only, help"
