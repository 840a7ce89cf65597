#!/usr/bin/env bash
# Hostile arguments to the CUDA runtime (issue 34), one program (tests/cudart/hostile.cu):
# pitches near 2^63 or above the device's maximum and cudaMallocPitch widths of 2^32
# and SIZE_MAX are errors (they crashed, or returned success with no memory); a
# destroyed stream or event, or a NULL event, is an invalid handle (a second
# cudaStreamDestroy read freed memory); cudaLimitPrintfFifoSize and
# cudaLimitStackSize are honoured; `exec --json FILE` never destroys an earlier FILE.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build hostile "$SRC/tests/cudart/hostile.cu"

for mode in pitch handles; do
  run hostile --functional -- $mode
  [ "$status" = 0 ] && grep -q "^$mode: ok" "$WORK/hostile.out" || { show hostile; fail "$mode"; }
  ! grep -qi "AddressSanitizer\|runtime error" "$WORK/hostile.err" || { show hostile; fail "$mode: sanitizer report"; }
done

# printf FIFO of 4096 bytes: 78 of the first kernel's 1000 lines of 52 bytes fit, the
# rest are dropped and counted; the next launch starts empty (its 2 lines appear)
run hostile --functional -- fifo
[ "$status" = 0 ] || { show hostile; fail "fifo"; }
[ "$(grep -c '^line ' "$WORK/hostile.out")" = 80 ] || { show hostile; fail "fifo: expected 78 + 2 lines"; }
grep -q "warning: kernel '_Z6chattyi': 922 device printf call(s) dropped: .* 4096-byte printf FIFO" "$WORK/hostile.err" ||
  { show hostile; fail "fifo: no warning"; }

# cudaLimitStackSize: 1 KB is too little for 200 frames, 64 KB is enough, above 16 MB is refused
run hostile --functional -- stack 1024
grep -q "stack 1024: cudaErrorIllegalAddress" "$WORK/hostile.out" && grep -q "Stack overflow: local memory exhausted" \
  "$WORK/hostile.err" || { show hostile; fail "stack 1 KB"; }
run hostile --functional -- stack 65536
grep -q "stack 65536: cudaSuccess" "$WORK/hostile.out" && grep -q "^sum 20300" "$WORK/hostile.out" ||
  { show hostile; fail "stack 64 KB"; }
run hostile --functional -- stack 100000000
grep -q "cudaLimitStackSize, 100000000): a per-thread stack of 100000000 bytes: locsim allows at most 16777216" \
  "$WORK/hostile.err" || { show hostile; fail "stack 100 MB"; }

# exec --json: an earlier FILE survives a run that fails before writing it (the
# path check used to truncate it), and a run that writes it replaces it whole
echo '{"earlier": 1}' > "$WORK/s.json"
set +e; "$LOCSIM" exec --json "$WORK/s.json" -- "$WORK/no-such-program" > /dev/null 2>&1; set -e
[ "$(cat "$WORK/s.json")" = '{"earlier": 1}' ] || fail "exec --json: the earlier file was destroyed"
run hostile --functional --json "$WORK/s.json" -- handles
[ "$status" = 0 ] && python3 -c "import json,sys; json.load(open(sys.argv[1]))['kernels']" "$WORK/s.json" ||
  { show hostile; cat "$WORK/s.json"; fail "exec --json: not replaced by the new statistics"; }
[ -z "$(ls "$WORK" | grep 's.json.tmp')" ] || fail "exec --json: temporary file left behind"
# functional mode does not honour the timing model's caps: refused, not ignored
run hostile --functional -gpgpu_max_insn 1000 -- handles
[ "$status" = 2 ] && grep -q "gpgpu_max_insn caps the timing model: functional mode (--functional) does not honour it" \
  "$WORK/hostile.err" || { show hostile; fail "exec --functional -gpgpu_max_insn"; }
echo "PASS: pitches, handles, printf FIFO, stack size, exec --json, functional caps"
