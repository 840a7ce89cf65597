#!/usr/bin/env bash
# __managed__ variables, and cudaDeviceReset (statistics survive it).
set -euo pipefail
source "$2/tests/cudart/common.sh"
build reset "$SRC/tests/cudart/reset.cu"
run reset --functional
[ "$status" = 0 ] || { show reset; fail "reset exited with $status"; }
diff "$SRC/tests/cudart/reset.expected" "$WORK/reset.out" || { show reset; fail "reset: output differs (< expected, > got)"; }
grep -q '^locsim: _Z5countv  *3 ' "$WORK/reset.err" || { show reset; fail "statistics lost across cudaDeviceReset"; }

build managed "$SRC/tests/cudart/managed.cu"
run managed --functional
if [ "$status" != 0 ] && grep -q "unexpected '.attribute'" "$WORK/managed.err"; then
  # The PTX front end does not read `.attribute(.managed)` yet: see
  # docs/bugs/cudart-managed-attribute.md.  This check runs as soon as it does.
  echo "SKIP (known bug, docs/bugs/cudart-managed-attribute.md): __managed__ variables; cudaDeviceReset checked"
  exit 0
fi
[ "$status" = 0 ] || { show managed; fail "managed exited with $status"; }
diff "$SRC/tests/cudart/managed.expected" "$WORK/managed.out" || { show managed; fail "managed: output differs (< expected, > got)"; }
echo "PASS: __managed__ variables and cudaDeviceReset"
