# Sourced by tests/e2e/cudart_*.sh: CTest runs them as `bash script <locsim> <source dir>`.
# Sets LOCSIM, SRC, BUILD (the locsim binary's directory), WORK (a scratch directory
# removed at exit) and NVCC, and skips the test (exit 0, with a line saying why) when
# nvcc is not installed.
LOCSIM=$(readlink -f "$1")
SRC=$(readlink -f "$2")
BUILD=$(dirname "$LOCSIM")
NVCC=${NVCC:-}
if [ -z "$NVCC" ]; then
  if command -v nvcc >/dev/null 2>&1; then NVCC=$(command -v nvcc)
  elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
  fi
fi
if [ -z "$NVCC" ] || [ ! -x "$NVCC" ]; then
  echo "SKIP: nvcc not found${NVCC:+ (NVCC=$NVCC is not executable)}; install the CUDA toolkit or set NVCC --" \
    "$(basename "$0") needs it to build CUDA programs"
  exit 0
fi
if [ ! -f "$BUILD/cudart/libcudart.so.13" ]; then
  echo "FAIL: $BUILD/cudart/libcudart.so.13 is missing (build the locsim_cudart target)"
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# build OUT SOURCE [nvcc flags...]: an ordinary CUDA program, as users build them
# (for $ARCH, default compute_75).
build() {
  local out=$1 src=$2
  shift 2
  "$NVCC" -cudart shared -arch="${ARCH:-compute_75}" -I"$SRC/workloads/common" -I"$SRC/tests/cudart" \
    -o "$WORK/$out" "$src" "$@" >"$WORK/$out.build.log" 2>&1 || { cat "$WORK/$out.build.log"; fail "nvcc could not build $src"; }
}

# run NAME [locsim exec options] -- ARGS: runs $WORK/NAME under locsim exec with stdout
# in $WORK/NAME.out, stderr in $WORK/NAME.err, and the exit status in $status.
run() {
  local name=$1
  shift
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  set +e
  "$LOCSIM" exec "${opts[@]}" -- "$WORK/$name" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  status=$?
  set -e
}

# show NAME: the program's output, for a failure report
show() { echo "--- stdout of $1"; cat "$WORK/$1.out"; echo "--- stderr of $1"; cat "$WORK/$1.err"; }
