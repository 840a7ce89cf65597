#!/usr/bin/env bash
# Errors as a real GPU reports them: a launch with too many threads per block gives
# cudaErrorInvalidConfiguration from cudaGetLastError, once; API misuse its error
# codes; a kernel fault is sticky; an unsupported runtime call names itself.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build errors "$SRC/tests/cudart/errors.cu"

for mode in functional timing; do
  if [ $mode = functional ]; then run errors --functional; else run errors; fi
  [ "$status" = 0 ] || { show errors; fail "errors ($mode) exited with $status"; }
  diff "$SRC/tests/cudart/errors.expected" "$WORK/errors.out" || { show errors; fail "errors ($mode): output differs (< expected, > got)"; }
done

# a kernel fault: reported on stderr (kernel, thread, address), sticky afterwards
run errors --functional -- fault
[ "$status" = 3 ] || { show errors; fail "fault run exited with $status, expected the program's 3"; }
cat > "$WORK/fault.expected" <<'OUT'
synchronize: cudaErrorIllegalAddress (an illegal memory access was encountered)
memcpy after fault: cudaErrorIllegalAddress (an illegal memory access was encountered)
get last error: cudaErrorIllegalAddress (an illegal memory access was encountered)
get last error again: cudaErrorIllegalAddress (an illegal memory access was encountered)
OUT
diff "$WORK/fault.expected" "$WORK/errors.out" || { show errors; fail "fault: output differs"; }
grep -q 'locsim: kernel _Z9store_farPi failed' "$WORK/errors.err" || { show errors; fail "fault not reported on stderr"; }

# a runtime call locsim does not implement: named, non-zero exit
run errors --functional -- unsupported
[ "$status" != 0 ] || { show errors; fail "unsupported call did not fail"; }
grep -q 'locsim: unsupported CUDA runtime call cudaIpcGetMemHandle' "$WORK/errors.err" || { show errors; fail "unsupported call not named"; }
grep -q 'not reached' "$WORK/errors.out" && fail "program continued after an unsupported call"
# device code the PTX front end rejects: file:line message and a way to see the PTX
build badptx "$SRC/tests/cudart/badptx.cu"
run badptx --functional
[ "$status" = 1 ] || { show badptx; fail "bad PTX: exit $status, expected 1"; }
grep -q "^locsim: cannot load the PTX embedded in .*badptx: .*badptx\[compute_75 ptx\]:[0-9]*:[0-9]*: unknown opcode 'no_such_opcode'" \
  "$WORK/badptx.err" || { show badptx; fail "bad PTX: no file:line message"; }
grep -q "locsim-fatbin .*badptx" "$WORK/badptx.err" || { show badptx; fail "bad PTX: no hint to extract the PTX"; }
[ ! -s "$WORK/badptx.out" ] || { show badptx; fail "main() ran despite bad PTX"; }
line=$(sed -n "s/.*ptx\]:\([0-9]*\):.*/\1/p" "$WORK/badptx.err")
"$BUILD/cudart/locsim-fatbin" "$WORK/badptx" | sed -n "${line}p" | grep -q no_such_opcode ||
  fail "bad PTX: line $line of the extracted PTX is not the bad instruction"
echo "PASS: launch errors, API errors, sticky fault, unsupported call, bad PTX"
