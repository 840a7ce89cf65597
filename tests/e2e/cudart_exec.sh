#!/usr/bin/env bash
# `locsim exec` itself: it passes the program its arguments, environment and exit
# status (signals as 128+n), chooses the library, and rejects bad usage clearly.
set -euo pipefail
source "$2/tests/cudart/common.sh"
cat > "$WORK/exitcode.cu" <<'CU'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__global__ void nothing() {}
int main(int argc, char **argv) {
    nothing<<<1, 1>>>();
    cudaDeviceSynchronize();
    printf("argc=%d", argc);
    for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
    printf("\nmode=%s\n", getenv("LOCSIM_MODE") ? getenv("LOCSIM_MODE") : "(unset)");
    fflush(stdout);
    if (argc > 1 && !strcmp(argv[1], "kill")) raise(SIGTERM);
    return argc > 1 ? atoi(argv[1]) : 0;
}
CU
build exitcode "$WORK/exitcode.cu"
run exitcode --functional -- 7 "two words"
[ "$status" = 7 ] || { show exitcode; fail "exit status $status, expected 7"; }
grep -q '^argc=3 \[7\] \[two words\]$' "$WORK/exitcode.out" || { show exitcode; fail "arguments not passed"; }
grep -q '^mode=functional$' "$WORK/exitcode.out" || { show exitcode; fail "LOCSIM_MODE not set"; }
grep -q '^locsim: _Z7nothingv  *1 ' "$WORK/exitcode.err" || { show exitcode; fail "no per-kernel statistics"; }
run exitcode --functional -- kill
[ "$status" = $((128 + 15)) ] || { show exitcode; fail "killed by SIGTERM: status $status, expected 143"; }
# without --, the first non-option word is the program
set +e
"$LOCSIM" exec --functional "$WORK/exitcode" 0 > "$WORK/nodash.out" 2>&1; rc=$?
set -e
[ "$rc" = 0 ] || fail "exec without -- failed: $(cat "$WORK/nodash.out")"
# bad usage
expect_error() {  # expect_error PATTERN ARGS...: locsim exec ARGS exits 2 (or 127) naming the problem
  local pattern=$1; shift
  set +e
  "$LOCSIM" exec "$@" > "$WORK/bad.out" 2>&1; local rc=$?
  set -e
  [ "$rc" != 0 ] || fail "locsim exec $* succeeded"
  grep -q -- "$pattern" "$WORK/bad.out" || fail "locsim exec $*: expected /$pattern/, got: $(cat "$WORK/bad.out")"
}
expect_error "no program given" --functional
expect_error "no program given" --functional --
expect_error "unknown option '--bogus'" --bogus -- "$WORK/exitcode"
expect_error "--json needs a value" --json
expect_error "cannot run $WORK/nosuch" -- "$WORK/nosuch"
# nvcc's default links the CUDA runtime statically: such a program would never load
# our library, so it is explained instead of run
"$NVCC" -arch=compute_75 -o "$WORK/static" "$WORK/exitcode.cu"
expect_error "linked into it statically (nvcc's default); rebuild it with -cudart shared" -- "$WORK/static"
# any program is run as is, with our library first on its library path
printf '#!/bin/sh\necho "lib=$LD_LIBRARY_PATH"\nexit 4\n' > "$WORK/script.sh"
chmod +x "$WORK/script.sh"
set +e
"$LOCSIM" exec -- "$WORK/script.sh" > "$WORK/script.out" 2>&1; rc=$?
set -e
[ "$rc" = 4 ] || fail "script exit status $rc"
grep -q "^lib=$BUILD/cudart" "$WORK/script.out" || fail "LD_LIBRARY_PATH does not start with $BUILD/cudart: $(cat "$WORK/script.out")"
echo "PASS: locsim exec arguments, status, signals, environment and usage errors"
