#!/usr/bin/env bash
# The PTX embedded in nvcc-built binaries, as locsim-fatbin (and the runtime) extract
# it, is the PTX `nvcc -ptx` writes for the same source: zstd-compressed (nvcc 13's
# default), --no-compress, and with several targets (the lowest is chosen).
set -euo pipefail
source "$2/tests/cudart/common.sh"
FATBIN=$BUILD/cudart/locsim-fatbin
SRCFILE=$SRC/tests/cudart/constant.cu
# nvcc strips comments and indentation when it embeds PTX: compare what remains.
normalize() { sed -e 's://.*$::' -e 's/[[:space:]]\+/ /g' -e 's/^ //' -e 's/ $//' "$1" | grep -v '^$'; }
"$NVCC" -ptx -arch=compute_75 -I"$SRC/tests/cudart" "$SRCFILE" -o "$WORK/ref75.ptx"
"$NVCC" -ptx -arch=compute_80 -I"$SRC/tests/cudart" "$SRCFILE" -o "$WORK/ref80.ptx"
normalize "$WORK/ref75.ptx" > "$WORK/ref75.norm"
grep -q '^.target sm_75$' "$WORK/ref75.norm" || fail "reference PTX has no .target sm_75"

check() {  # check NAME: the extracted PTX of $WORK/NAME equals the compute_75 reference
  "$FATBIN" "$WORK/$1" > "$WORK/$1.ptx" || fail "locsim-fatbin failed on $1"
  normalize "$WORK/$1.ptx" > "$WORK/$1.norm"
  diff "$WORK/ref75.norm" "$WORK/$1.norm" > "$WORK/$1.diff" || { head -20 "$WORK/$1.diff"; fail "$1: extracted PTX differs from nvcc -ptx"; }
}
build compressed "$SRCFILE"
"$FATBIN" --list "$WORK/compressed" | grep -q 'ptx   sm_75 version 9.0 .*(zstd)' || fail "expected a zstd PTX entry in the default build"
check compressed
build plain "$SRCFILE" --no-compress
"$FATBIN" --list "$WORK/plain" | grep 'ptx ' | grep -q -v zstd || fail "expected an uncompressed PTX entry with --no-compress"
check plain
build multi "$SRCFILE" -gencode arch=compute_80,code=compute_80 -gencode arch=compute_75,code=compute_75
[ "$("$FATBIN" --list "$WORK/multi" | grep -c 'ptx ')" = 2 ] || fail "expected two PTX entries"
check multi
# a binary that is not an nvcc product
"$FATBIN" /bin/sh > /dev/null 2> "$WORK/sh.err" && fail "locsim-fatbin accepted /bin/sh"
grep -q 'not a 64-bit ELF with a .nv_fatbin section' "$WORK/sh.err" || fail "unexpected message: $(cat "$WORK/sh.err")"
echo "PASS: compressed, plain and multi-target PTX extracted as nvcc -ptx writes it"
