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
# Pointers stored inside managed memory need host and device addresses to agree,
# which they do unless the device range could not be mapped (AddressSanitizer builds).
if grep -q 'could not be mapped at its device address' "$WORK/streams.err"; then
  echo "note: managed memory is not identity-mapped in this build; linked-structure check skipped"
else
  run streams --functional -- linked
  [ "$status" = 0 ] && grep -q '^linked list ok: sum = 55$' "$WORK/streams.out" || { show streams; fail "linked list in managed memory"; }
fi
echo "PASS: streams, events, pinned and managed memory"
