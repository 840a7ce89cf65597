#!/usr/bin/env bash
# The replacement libcudart.so.13 against NVIDIA's: the same soname and symbol version
# node, every function NVIDIA's exports (so no program fails to load), and the ABI
# types/constants of cudart/cudart.h laid out exactly as CUDA 13's headers lay them out.
set -euo pipefail
source "$2/tests/cudart/common.sh"
CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
REAL=$CUDA_HOME/lib64/libcudart.so.13
OURS=$BUILD/cudart/libcudart.so.13
[ -f "$CUDA_HOME/include/cuda_runtime_api.h" ] && [ -f "$REAL" ] ||
  { echo "SKIP: no CUDA headers/libcudart.so.13 under $CUDA_HOME"; exit 0; }

# soname and version node
readelf -d "$OURS" | grep -q 'SONAME.*\[libcudart.so.13\]' || fail "soname of $OURS is not libcudart.so.13"
readelf -V "$OURS" | grep -q 'Name: libcudart.so.13' || fail "$OURS defines no version node libcudart.so.13"

# every exported function of the real runtime, exported by ours under that version
exports() { objdump -T "$1" | awk '($2 == "g" || $2 == "w") && $4 == ".text" {print $(NF-1), $NF}' | LC_ALL=C sort -u; }
exports "$REAL" > "$WORK/real.txt"
exports "$OURS" > "$WORK/ours.txt"
missing=$(LC_ALL=C comm -23 "$WORK/real.txt" "$WORK/ours.txt")
[ -z "$missing" ] || fail "functions NVIDIA's libcudart exports that ours lacks (or not at version libcudart.so.13):
$missing"
# nothing of the simulator leaks out: only cuda* / __cuda* names, and the three
# Locality Descriptor entry points include/locsim/locsim_ldesc.h looks up (docs/ldesc.md)
leaked=$(objdump -T "$OURS" | awk '$4 == ".text" {print $NF}' | grep -v -E '^(__)?cuda' |
         grep -v -x -E '__locsim_ldesc_(attach|detach|clear)' || true)
[ -z "$leaked" ] || fail "symbols other than the CUDA runtime's are exported: $leaked"

# struct layouts and constant values
CC=${CC:-cc}
$CC -Wall -Wextra -DWITH_CUDA_HEADERS -I"$CUDA_HOME/include" "$SRC/tests/cudart/abi_layout.c" -o "$WORK/abi_cuda"
$CC -Wall -Wextra -I"$SRC/cudart" -I"$SRC/include" "$SRC/tests/cudart/abi_layout.c" -o "$WORK/abi_ours"
"$WORK/abi_cuda" > "$WORK/abi_cuda.txt"
"$WORK/abi_ours" > "$WORK/abi_ours.txt"
diff "$WORK/abi_cuda.txt" "$WORK/abi_ours.txt" || fail "cudart/cudart.h differs from CUDA's headers (above: < CUDA, > ours)"
echo "PASS: soname, version node, $(wc -l < "$WORK/real.txt") exported functions, $(wc -l < "$WORK/abi_ours.txt") ABI facts"
