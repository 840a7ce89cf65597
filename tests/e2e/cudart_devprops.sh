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
grep -q '^smem/block=49152 regs/block=32768 threads/sm=1536 clock_khz=700000 ' "$WORK/devprops.out" ||
  { show devprops; fail "fermi_gtx480 figures"; }

# another configuration, and an override on top of it
run devprops --functional --config ccws_gtx285
grep -q '^sm_75 sms=30 warp=32 max_threads=1024 ' "$WORK/devprops.out" || { show devprops; fail "ccws_gtx285: 30 SMs"; }
grep -q '^smem/block=16384 regs/block=16384 threads/sm=1024 clock_khz=1300000 ' "$WORK/devprops.out" ||
  { show devprops; fail "ccws_gtx285 figures"; }
grep -q '^name=locsim ccws_gtx285 (functional)$' "$WORK/devprops.out" || { show devprops; fail "ccws_gtx285 name"; }
run devprops --functional --config ccws_gtx285 -gpgpu_n_clusters 12
grep -q '^sm_75 sms=12 ' "$WORK/devprops.out" || { show devprops; fail "-gpgpu_n_clusters 12 override"; }

# a configuration that does not exist / a bad override: named, before the program runs
run devprops --functional --config no_such_gpu
[ "$status" != 0 ] && grep -q 'no_such_gpu' "$WORK/devprops.err" || { show devprops; fail "unknown config accepted"; }
[ ! -s "$WORK/devprops.out" ] || { show devprops; fail "program ran with an unknown config"; }
run devprops --functional -gpgpu_n_clusters many
[ "$status" != 0 ] && grep -q 'gpgpu_n_clusters' "$WORK/devprops.err" || { show devprops; fail "bad override accepted"; }
echo "PASS: device properties from the configuration"
