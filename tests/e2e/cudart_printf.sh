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
echo "PASS: device printf"
