#!/usr/bin/env bash
# Device printf: exact output, interleaved in order with the host's own printf.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build printf "$SRC/tests/cudart/printf.cu"
run printf --functional
[ "$status" = 0 ] || { show printf; fail "printf exited with $status"; }
diff "$SRC/tests/cudart/printf.expected" "$WORK/printf.out" || { show printf; fail "printf: output differs (< expected, > got)"; }
# statistics go to stderr, never into the program's stdout
grep -q '^locsim: total' "$WORK/printf.err" || { show printf; fail "no statistics on stderr"; }
# timing mode interleaves warps, but one warp's lanes print in lane order
run printf
[ "$status" = 0 ] || { show printf; fail "printf (timing) exited with $status"; }
diff "$SRC/tests/cudart/printf.expected" "$WORK/printf.out" || { show printf; fail "printf (timing): output differs"; }
grep -q '^locsim: gpu_sim_cycle  *[1-9]' "$WORK/printf.err" || { show printf; fail "no timing statistics"; }
echo "PASS: device printf, functional and timing"
