#!/usr/bin/env bash
# Device queries answer from the simulated GPU: one device, compute capability 7.5,
# the configuration's SM count, consistent between properties and attributes.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build devprops "$SRC/tests/cudart/devprops.cu"
run devprops --functional
[ "$status" = 0 ] || { show devprops; fail "devprops exited with $status"; }
grep -q '^devices=1 current=0$' "$WORK/devprops.out" || { show devprops; fail "device count/current"; }
grep -q '^name=locsim ' "$WORK/devprops.out" || { show devprops; fail "device name"; }
grep -q '^sm_75 sms=[1-9][0-9]* warp=32 max_threads=1024 dims=1024x1024x64 grid=2147483647x65535x65535$' "$WORK/devprops.out" ||
  { show devprops; fail "geometry"; }
grep -q '^runtime=13000 driver=13000$' "$WORK/devprops.out" || { show devprops; fail "versions"; }
grep -q '^PASS$' "$WORK/devprops.out" || { show devprops; fail "no PASS"; }
echo "PASS: device properties"
