#!/usr/bin/env bash
# locsim ubench on the Volta/Ampere/Hopper configurations (issue 35): the
# simulated pointer chases (L1 hit, L2 hit, far L2 half, DRAM) must come within
# 10% of the published load-to-use latencies (the pub.* rows; the figures and
# their sources are cmd_ubench.c's published_latencies table), and the lat.*
# rows must still match the configuration's own options.  The command exits 1
# on any FAIL.
set -u
locsim=$1
src=$2
status=0
for entry in volta_v100:3 ampere_a100:4 hopper_h100:4; do
  name=${entry%%:*}
  want=${entry##*:}
  out=$("$locsim" ubench --config "$src/configs/$name.cfg" --only lat.l1d.hit,lat.l2,lat.dram.rowmiss,pub 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: locsim ubench --config $name exited $rc"
    echo "$out"
    status=1
    continue
  fi
  # every published figure of the configuration has its row, and each passed
  npub=$(echo "$out" | grep -cE '^pub\..* PASS$')
  if [ "$npub" -ne "$want" ]; then
    echo "FAIL: $name: $npub pub.* rows passed, expected $want"
    echo "$out"
    status=1
  fi
  if echo "$out" | grep -qE ' FAIL$'; then
    echo "FAIL: $name: a row failed"
    echo "$out"
    status=1
  fi
  echo "ok: $name"
  echo "$out" | grep -E '^(lat|pub)\.'
done
# The published rows compare with the hardware, not with the options: a
# configuration whose L1 latency is doubled must fail pub.l1d.hit (while
# lat.l1d.hit, which follows the option, still passes).
out=$("$locsim" ubench --config "$src/configs/volta_v100.cfg" --only lat.l1d.hit,pub.l1d -gpgpu_l1_latency 58 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a doubled L1 latency exited $rc, expected 1"; echo "$out"; status=1; }
echo "$out" | grep -qE '^pub\.l1d\.hit .* FAIL$' || { echo "FAIL: pub.l1d.hit did not fail"; echo "$out"; status=1; }
echo "$out" | grep -qE '^lat\.l1d\.hit .* PASS$' || { echo "FAIL: lat.l1d.hit did not follow the option"; status=1; }
# A configuration without published figures has no pub.* rows to ask for.
if "$locsim" ubench --config fermi_gtx480 --only pub >/dev/null 2>&1; then
  echo "FAIL: --only pub on fermi_gtx480 (no published figures) was accepted"; status=1
fi
exit $status
