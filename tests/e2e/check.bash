# Sourced by the e2e scripts (not a test itself: CMake globs *.sh only).
# check <description> <expected exit> <pattern in output> <command...>
# runs the command, prints ok/FAIL, and sets the caller's fail=1 on a failure.
check() {
  local what=$1 want=$2 pattern=$3; shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne "$want" ]; then echo "FAIL: $what: exit $rc, expected $want"; echo "$out" | tail -5; fail=1; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL: $what: output lacks /$pattern/"; echo "$out" | tail -5; fail=1; return; fi
  echo "ok: $what"
}
