#!/usr/bin/env bash
# Streams, events, pinned (zero-copy) and managed memory, async copies, host callbacks.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build streams "$SRC/tests/cudart/streams.cu"
run streams --functional
[ "$status" = 0 ] || { show streams; fail "streams exited with $status"; }
cat > "$WORK/expected" <<'OUT'
pinned round trip ok: pinned[10] = 21.0
zero-copy ok: pinned[10] = 20.0
managed ok: m[0] = 20.0, m[1] = 3.5
PASS
OUT
diff "$WORK/expected" "$WORK/streams.out" || { show streams; fail "streams: unexpected output"; }
grep -q 'functional mode has no simulated time; cudaEventElapsedTime reports 0 ms' "$WORK/streams.err" ||
  { show streams; fail "no note about event timing in functional mode"; }
grep -q '^event ms 0.000000000$' "$WORK/streams.err" || { show streams; fail "functional mode: elapsed time not 0"; }

# timing mode: the events bracket one kernel (the copies take no simulated time), so
# the elapsed time is that kernel's simulated cycles at the core clock (700 MHz)
run streams --json "$WORK/streams.json"
[ "$status" = 0 ] && grep -q '^PASS$' "$WORK/streams.out" || { show streams; fail "streams in timing mode"; }
python3 - "$WORK/streams.json" "$WORK/streams.err" <<'PY' || { show streams; fail "event time is not the kernel's simulated time"; }
import json, re, sys
s = json.load(open(sys.argv[1]))
cycles = s["timing"]["kernels"][0]["stats"]["gpu_sim_cycle"]
ms = float(re.search(r"event ms ([0-9.]+)", open(sys.argv[2]).read()).group(1))
want = cycles / 700000.0
assert cycles > 0 and abs(ms - want) <= 1e-6 * want, (ms, want, cycles)
PY
# Pointers stored inside managed memory need host and device addresses to agree,
# which they do unless the device range could not be mapped (AddressSanitizer builds).
if grep -q 'could not be mapped at its device address' "$WORK/streams.err"; then
  echo "note: managed memory is not identity-mapped in this build; linked-structure check skipped"
else
  run streams --functional -- linked
  [ "$status" = 0 ] && grep -q '^linked list ok: sum = 55$' "$WORK/streams.out" || { show streams; fail "linked list in managed memory"; }
fi
echo "PASS: streams, events, pinned and managed memory"
