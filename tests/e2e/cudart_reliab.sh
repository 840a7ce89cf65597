#!/usr/bin/env bash
# Reliability of `locsim exec` (issue 10), with one program (tests/cudart/reliab.cu):
# device assert -> cudaErrorAssert with file/line/block/thread; cooperative launch runs; a kernel with an unsupported instruction fails at its own
# launch while the others run; cudaMalloc beyond -device_memory_mb fails and
# cudaMemGetInfo says what is left; a corrupted fatbin is a clear error, not SIGSEGV;
# a kernel that never ends is stopped by -gpgpu_max_cycle, shows progress on a
# non-terminal stderr, and SIGTERM gives partial statistics; the program never
# outlives locsim (SIGKILL), and -quiet hides progress.
set -euo pipefail
source "$2/tests/cudart/common.sh"
# alive PID: running (a zombie waiting for a reaper that is not its parent is dead)
alive() { [ -r "/proc/$1/stat" ] && ! awk '{exit $3 == "Z" ? 0 : 1}' "/proc/$1/stat"; }
build reliab "$SRC/tests/cudart/reliab.cu"

run reliab --functional -- assert
[ "$status" = 0 ] || { show reliab; fail "assert: expected cudaErrorAssert"; }
grep -q "reliab.cu:18: void checked(int \*, int): block: \[1,0,0\], thread: \[5,0,0\] Assertion \`i != bad\` failed." \
  "$WORK/reliab.err" || { show reliab; fail "assert: message lacks file/line/block/thread"; }

run reliab --functional -- coop
[ "$status" = 0 ] || { show reliab; fail "coop: the cooperative launch did not run grid.sync()"; }

run reliab --functional -- lazy
[ "$status" = 0 ] || { show reliab; fail "lazy: the other kernel did not run"; }
grep -q "launch of _Z12uses_pmeventPi refused: .*ptx\]:[0-9]*:[0-9]*: pmevent is not supported" "$WORK/reliab.err" ||
  { show reliab; fail "lazy: unsupported instruction not named at its launch"; }

# 64 MiB of device memory: 40 MiB fits, a second 40 MiB does not (checked in the program)
run reliab --functional -device_memory_mb 64 -- malloc
[ "$status" = 0 ] || { show reliab; fail "malloc: capacity or cudaMemGetInfo wrong"; }
grep -q "total 64 MiB, free 64 -> 24 -> 64 MiB" "$WORK/reliab.out" || { show reliab; fail "malloc: figures"; }

# the cap ends the timing simulation and says so; the never-ending kernel then
# runs on functionally (until the functional hang guard), so stop it once seen
"$LOCSIM" exec -gpgpu_max_cycle 20000 -- "$WORK/reliab" spin > "$WORK/cap.out" 2> "$WORK/cap.err" &
pid=$!
for _ in $(seq 120); do grep -q "timing simulation stopped" "$WORK/cap.err" && break; sleep 0.5; done
kill -KILL $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
grep -q "kernel '_Z4spinPVi': timing simulation stopped at cycle 20000 by -gpgpu_max_cycle" "$WORK/cap.err" ||
  { cat "$WORK/cap.err"; fail "max_cycle"; }

# corrupted fatbin: the module fatbin's entries size (header bytes 8..15) made huge
# (the runtime once read that far and died of SIGSEGV with nothing on stderr)
cp "$WORK/reliab" "$WORK/corrupt"
python3 - "$WORK/corrupt" <<'PY'
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
def sh(i): return struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    s = sh(i)
    name = d[stroff + s[0]:d.index(b'\0', stroff + s[0])]
    if name == b'.nv_fatbin':  # fatbins back to back; corrupt the first with entries
        pos = 0
        while pos + 16 <= s[5]:
            hdr, = struct.unpack_from('<H', d, s[4] + pos + 6)
            size, = struct.unpack_from('<Q', d, s[4] + pos + 8)
            if size:
                struct.pack_into('<Q', d, s[4] + pos + 8, 0x0000ffff00000000)
                break
            pos += (hdr + size + 7) & ~7
open(p, 'wb').write(d)
PY
run corrupt --functional -- plain
[ "$status" = 1 ] || { show corrupt; fail "corrupted fatbin: exit status $status, expected 1"; }
grep -q "malformed device code (fatbin 0): fatbin says [0-9]* bytes of entries, only [0-9]* available" \
  "$WORK/corrupt.err" || { show corrupt; fail "corrupted fatbin: no clear message"; }

# progress on a non-terminal stderr (one line per ~10 s), then SIGTERM: partial statistics
"$LOCSIM" exec -- "$WORK/reliab" spin > "$WORK/spin.out" 2> "$WORK/spin.err" &
pid=$!
for _ in $(seq 60); do grep -q "locsim: kernel _Z4spinPVi: [0-9]* cycles" "$WORK/spin.err" && break; sleep 0.5; done
grep -q "locsim: kernel _Z4spinPVi: [0-9]* cycles, [0-9]* thread insns, .* M insn/s, [0-9]* s (-gpgpu_max_cycle N or -gpgpu_max_insn N ends the timing simulation" \
  "$WORK/spin.err" || { kill -9 $pid; cat "$WORK/spin.err"; fail "no progress line after 30 s"; }
child=$(pgrep -P $pid || true)
kill -TERM $pid
set +e; wait $pid; status=$?; set -e
[ "$status" = 143 ] || { cat "$WORK/spin.err"; fail "SIGTERM: locsim exit status $status, expected 143"; }
grep -q "stopped by signal 15 (Terminated): statistics so far" "$WORK/spin.err" || { cat "$WORK/spin.err"; fail "no partial statistics"; }
grep -Eq "locsim: _Z4spinPVi +1 +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]*" "$WORK/spin.err" ||
  { cat "$WORK/spin.err"; fail "partial statistics lack the interrupted kernel's counts"; }
[ -z "$child" ] || ! alive "$child" || fail "the program outlived locsim after SIGTERM"

# SIGKILL to locsim: the program dies too (PR_SET_PDEATHSIG); -quiet: no progress line
"$LOCSIM" exec -quiet -- "$WORK/reliab" spin > "$WORK/kill.out" 2> "$WORK/kill.err" &
pid=$!
for _ in $(seq 40); do child=$(pgrep -P $pid || true); [ -n "$child" ] && grep -q started "$WORK/kill.out" && break; sleep 0.5; done
sleep 11
kill -9 $pid
set +e; wait $pid; set -e
sleep 1
[ -n "$child" ] || fail "no child process found"
! alive "$child" || { kill -9 "$child"; fail "the program outlived locsim after SIGKILL"; }
! grep -q "locsim: kernel _Z4spinPVi" "$WORK/kill.err" || { cat "$WORK/kill.err"; fail "-quiet printed progress"; }
echo "PASS: assert, cooperative launch, lazy unsupported kernel, memory capacity, corrupted fatbin, max_cycle, progress, SIGTERM, SIGKILL, -quiet"
