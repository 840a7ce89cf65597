#!/usr/bin/env bash
# Runs our own workloads (workloads/*/kernel.cu, each an ordinary CUDA program with
# its own main) under GPGPU-Sim (built by tools/gpgpusim/build.sh) and under
# `locsim exec`, both on the GTX480 (Fermi) configuration, with the LRR and the GTO
# warp scheduler, and prints a Markdown table: cycles, instructions, IPC, L1D/L2
# miss rates, DRAM traffic and the LRR/GTO cycle ratio per program, then the
# summary figures issue 8 sets targets for (mean absolute cycle error, geometric-
# mean cycle ratio, Pearson r of IPC, instruction-count ratio, LRR-vs-GTO signs).
#
#   tools/gpgpusim/compare.sh GPGPUSIM_CHECKOUT [--locsim build/locsim]
#       [--work DIR] [--workloads "bfs gemm ..."] [--size S] [--timeout SEC] [--speed R]
#
# --speed R measures speed instead (issue 32's side-by-side ratio): R rounds, each
# running every program once under GPGPU-Sim and once under locsim (GTO),
# alternating program by program so that the machine's drift hits both alike, no
# log reused; each run's CPU time (perf's task-clock) and peak resident memory
# (/usr/bin/time) are recorded, a program's figure is the smallest of its R rounds, and
# tools/gpgpusim/speed.awk prints the table and the median, minimum, maximum and
# total CPU-time ratios (programs that failed under either simulator are listed,
# not counted).
#
# GPGPU-Sim runs are slow (0.1-0.5 M thread-instructions/s), so their logs are kept
# in DIR/gpgpusim/ and reused while the program binary (its md5), the size and the
# GPGPU-Sim library are unchanged: a second comparison after a locsim change only
# re-runs locsim.  Every run is niced and runs alone (the machine is shared).
#
# What the GPGPU-Sim side runs, and why (see tools/gpgpusim/README.md):
#  - configs/tested-cfgs/SM2_GTX480 of the given checkout, copied into a run
#    directory, less its two power-model lines (-power_simulation_enabled 1 and
#    -gpuwattch_xml_file, an option GPGPU-Sim 4.2 no longer knows), with these
#    lines appended (later lines win in GPGPU-Sim's parser):
#      -gpgpu_scheduler lrr|gto
#      -gpgpu_ptx_force_max_capability 75  nvcc 13 emits compute_75 PTX at the
#      -gpgpu_occupancy_sm_number 75       oldest; its ptxas has no sm_20 to count
#                                          registers for, so counts are sm_75's
#      -power_simulation_enabled 0         built without AccelWattch
#  - the environment setup_environment gives CUDA >= 6 programs
#    (CUOBJDUMP_SIM_FILE, PTX_SIM_USE_PTX_FILE, PTX_SIM_KERNELFILE), and a
#    CUDA_INSTALL_PATH of its own whose bin/ holds tools/gpgpusim/ptxas (nvcc 13's
#    ptxas, its -v report trimmed to what GPGPU-Sim parses) and
#    tools/gpgpusim/cuobjdump (this toolkit ships no cuobjdump; the stand-in reads
#    the PTX with locsim's fatbin reader).
set -euo pipefail
usage() { sed -n '10,11p' "$0" | sed 's/^# //'; exit 2; }
[ $# -ge 1 ] || usage
GPGPUSIM=$(readlink -f "$1")
shift
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
LOCSIM=$SRC/build/locsim
WORK=${TMPDIR:-/tmp}/locsim-gpgpusim-compare
NAMES=""
SIZE=1
TIMEOUT=900
SPEED=0
CUDA=${CUDA_INSTALL_PATH:-/usr/local/cuda}
while [ $# -gt 0 ]; do
  case "$1" in
    --locsim) LOCSIM=$(readlink -f "$2"); shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --workloads) NAMES=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --speed) SPEED=$2; shift 2 ;;
    *) usage ;;
  esac
done
die() { echo "compare.sh: $*" >&2; exit 1; }
[ -x "$LOCSIM" ] || die "no locsim binary at $LOCSIM (build it, or pass --locsim)"
FATBIN=$(dirname "$LOCSIM")/cudart/locsim-fatbin
[ -x "$FATBIN" ] || die "no $FATBIN (build the locsim-fatbin target)"
libs=("$GPGPUSIM"/lib/*/*/release/libcudart.so)
GS_LIB=$(dirname "${libs[0]}")
[ -f "$GS_LIB/libcudart.so.13" ] || die "no GPGPU-Sim libcudart.so.13 under $GPGPUSIM/lib (run tools/gpgpusim/build.sh $GPGPUSIM)"
CFG=$GPGPUSIM/configs/tested-cfgs/SM2_GTX480
[ -f "$CFG/gpgpusim.config" ] || die "no $CFG/gpgpusim.config"
NVCC=$CUDA/bin/nvcc
[ -x "$NVCC" ] || die "no nvcc at $NVCC"
case "$SPEED" in ''|*[!0-9]*) die "--speed takes a number of rounds, not '$SPEED'" ;; esac
TIME=/usr/bin/time
if [ "$SPEED" != 0 ]; then
  [ -x "$TIME" ] || die "--speed needs GNU time at $TIME (apt-get install -y time)"
  command -v perf >/dev/null || die "--speed needs perf (apt-get install -y linux-perf)"
fi
# A timed run: GNU time for the peak resident memory, perf's task-clock (the CPU
# time of the program and its children, in ms to 0.01; GNU time prints CPU seconds
# only to 0.01 s, and locsim runs at size 1 take 0.02-0.15 s).  "LOG" is replaced
# by the run's log file.
TIMER=("$TIME" -f "max_rss_kb %M" -o LOG.time perf stat -x, -e task-clock -o LOG.perf)

mkdir -p "$WORK/bin" "$WORK/gpgpusim" "$WORK/locsim" "$WORK/cuda/bin"
WORK=$(readlink -f "$WORK")
ln -sf "$HERE/ptxas" "$WORK/cuda/bin/ptxas"
ln -sf "$HERE/cuobjdump" "$WORK/cuda/bin/cuobjdump"
GS_KEY=$(md5sum "$GS_LIB/libcudart.so" "$CFG/gpgpusim.config" "$HERE/ptxas" "$HERE/cuobjdump" | md5sum | cut -c1-12)

if [ -z "$NAMES" ]; then
  for d in "$SRC"/workloads/*/; do
    [ -f "$d/kernel.cu" ] && grep -q 'int main' "$d/kernel.cu" && NAMES="$NAMES $(basename "$d")"
  done
fi

# The stand-alone programs take the size and seed as --size S --seed N or as S N.
args_of() {
  if grep -q -- '"--size"' "$SRC/workloads/$1/kernel.cu"; then echo "--size $SIZE --seed 1"; else echo "$SIZE 1"; fi
}

# build NAME: the program as users build theirs (as tests/e2e/cudart_workloads.sh does).
build() {
  local out=$WORK/bin/$1 src=$SRC/workloads/$1/kernel.cu
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ] || [ -n "$(find "$SRC/workloads/common" -newer "$out" -print -quit)" ]; then
    nice -n 19 "$NVCC" -cudart shared -arch=compute_75 -O3 -I"$SRC/workloads/common" -o "$out" "$src" \
      >"$out.build.log" 2>&1 || { cat "$out.build.log" >&2; return 1; }
  fi
}

# gpgpusim_run NAME SCHED LOG [TIMED]: one GPGPU-Sim run of the program, its output
# in LOG; with TIMED, its CPU time goes to LOG.perf and its peak memory to LOG.time
# (both removed first: a run that fails to start leaves none, not an old one).
gpgpusim_run() {
  local name=$1 sched=$2 log=$3 timed=${4:-}
  local dir=$WORK/gpgpusim/run.$name.$sched
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$CFG"/*.icnt "$dir/"
  grep -v -e '^-gpuwattch_xml_file' -e '^-power_simulation_enabled' "$CFG/gpgpusim.config" >"$dir/gpgpusim.config"
  printf '%s\n' "# appended by locsim tools/gpgpusim/compare.sh" "-gpgpu_scheduler $sched" \
    "-gpgpu_ptx_force_max_capability 75" "-gpgpu_occupancy_sm_number 75" "-power_simulation_enabled 0" \
    >>"$dir/gpgpusim.config"
  local start=$SECONDS status=0 timer=()
  rm -f "$log.perf" "$log.time"
  [ -z "$timed" ] || timer=("${TIMER[@]/#LOG/$log}")
  # shellcheck disable=SC2046  # the arguments are words
  (cd "$dir" && env LD_LIBRARY_PATH="$GS_LIB" CUDA_INSTALL_PATH="$WORK/cuda" PTXAS_CUDA_INSTALL_PATH="$WORK/cuda" \
    LOCSIM_FATBIN="$FATBIN" LOCSIM_REAL_PTXAS="$CUDA/bin/ptxas" \
    CUOBJDUMP_SIM_FILE=jj PTX_SIM_USE_PTX_FILE=1.ptx PTX_SIM_KERNELFILE=_1.ptx nice -n 19 "${timer[@]}" \
    timeout "$TIMEOUT" "$WORK/bin/$name" $(args_of "$name")) >"$log" 2>&1 || status=$?
  echo "gpgpusim_exit_status $status" >>"$log"
  echo "gpgpusim_wall_seconds $((SECONDS - start))" >>"$log"
  rm -rf "$dir"
}

# run_gpgpusim NAME SCHED: GPGPU-Sim's log in $WORK/gpgpusim/NAME.SCHED.log (reused
# while the key matches).
run_gpgpusim() {
  local name=$1 sched=$2 log=$WORK/gpgpusim/$1.$2.log
  local key
  key="$(md5sum <"$WORK/bin/$name" | cut -c1-12) size=$SIZE lib=$GS_KEY"
  if [ -f "$log" ] && [ "$(cat "$log.key" 2>/dev/null)" = "$key" ]; then return 0; fi
  gpgpusim_run "$name" "$sched" "$log"
  echo "$key" >"$log.key"
}

# run_locsim NAME SCHED [LOG [TIMED]]: as gpgpusim_run, under `locsim exec`.
run_locsim() {
  local name=$1 sched=$2 log=${3:-$WORK/locsim/$1.$2.log} timed=${4:-} status=0 start=$SECONDS timer=()
  rm -f "$log.perf" "$log.time"
  [ -z "$timed" ] || timer=("${TIMER[@]/#LOG/$log}")
  # shellcheck disable=SC2046
  nice -n 19 "${timer[@]}" "$LOCSIM" exec --config fermi_gtx480 -gpgpu_scheduler "$sched" -- "$WORK/bin/$name" \
    $(args_of "$name") >"$log" 2>&1 || status=$?
  echo "locsim_exit_status $status" >>"$log"
  echo "locsim_wall_seconds $((SECONDS - start))" >>"$log"
}

# One line of figures from a log: status cycles insn ipc l1d_miss l2_miss dram_rd dram_wr wall
gpgpusim_figures() {
  awk '
    # Each kernel exit prints the totals so far; the last dump holds the program totals.
    # DRAM requests are the sum over channels of n_rd and n_write in that dump.
    /^gpu_tot_sim_cycle = / { cyc = $3; rd = 0; wr = 0 }
    /^gpu_tot_sim_insn = / { insn = $3 }
    /^n_cmd=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "n_rd") rd += kv[2]; if (kv[1] == "n_write") wr += kv[2] } }
    /^gpu_tot_ipc = / { ipc = $3 }
    /^[ \t]*L1D_total_cache_miss_rate = / { l1 = $3 }
    /^[ \t]*L2_total_cache_miss_rate = / { l2 = $3 }
    /^PASS$/ { pass = 1 }
    /^FAIL$/ { wrong = 1 }
    /^gpgpusim_exit_status / { st = $2 }
    /^gpgpusim_wall_seconds / { wall = $2 }
    END {
      # "wrong": simulated to the end, but the program found its results wrong.
      ok = (st == 0 && pass && cyc != "") ? "ok" : (wrong && cyc != "") ? "wrong" : "fail"
      printf "%s %s %s %s %s %s %s %s %s\n", ok, cyc, insn, ipc, l1 == "" ? "-" : l1, l2 == "" ? "-" : l2,
        rd == "" ? "-" : rd, wr == "" ? "-" : wr, wall
    }' "$1"
}
locsim_figures() {
  awk '
    /^locsim: gpu_sim_cycle / { cyc = $3 }
    /^locsim: total / { insn = $4 }
    /^locsim: gpu_ipc / { ipc = $3 }
    /^locsim: L1D_total_cache_miss_rate / { l1 = $3 }
    /^locsim: L2_total_cache_miss_rate / { l2 = $3 }
    /^locsim: dram_reads / { rd = $3 }
    /^locsim: dram_writes / { wr = $3 }
    /^PASS$/ { pass = 1 }
    /^FAIL$/ { wrong = 1 }
    /^locsim_exit_status / { st = $2 }
    /^locsim_wall_seconds / { wall = $2 }
    END {
      ok = (st == 0 && pass && cyc != "") ? "ok" : (wrong && cyc != "") ? "wrong" : "fail"
      printf "%s %s %s %s %s %s %s %s %s\n", ok, cyc, insn, ipc, l1 == "" ? "-" : l1, l2 == "" ? "-" : l2,
        rd == "" ? "-" : rd, wr == "" ? "-" : wr, wall
    }' "$1"
}

LOCSIM_COMMIT=$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no 2>/dev/null)" ] || LOCSIM_COMMIT="$LOCSIM_COMMIT (modified)"

# cpu_line SIM NAME ROUND LOG: "NAME ROUND SIM ok|fail CPU_S RSS_KB INSN" for speed.awk
cpu_line() {
  local sim=$1 name=$2 round=$3 log=$4 figures cpu rss
  if [ "$sim" = gs ]; then figures=$(gpgpusim_figures "$log"); else figures=$(locsim_figures "$log"); fi
  cpu=$(awk -F, '$3 == "task-clock" { printf "%.4f", $1 / 1000 }' "$log.perf" 2>/dev/null)
  rss=$(awk '/^max_rss_kb / { print $2 }' "$log.time" 2>/dev/null)
  # shellcheck disable=SC2086  # the figures are words
  set -- $figures
  echo "$name $round $sim $1 ${cpu:--} ${rss:--} ${3:--}"
}

if [ "$SPEED" != 0 ]; then
  SPD=$WORK/speed.txt
  : >"$SPD"
  mkdir -p "$WORK/speed"
  BUILT=""
  for name in $NAMES; do
    if build "$name"; then BUILT="$BUILT $name"; else echo "$name 0 build fail" >>"$SPD"; fi
  done
  for round in $(seq 1 "$SPEED"); do
    for name in $BUILT; do
      echo "compare.sh: speed round $round/$SPEED: $name" >&2
      gpgpusim_run "$name" gto "$WORK/speed/$name.gs.log" timed
      cpu_line gs "$name" "$round" "$WORK/speed/$name.gs.log" >>"$SPD"
      run_locsim "$name" gto "$WORK/speed/$name.ls.log" timed
      cpu_line ls "$name" "$round" "$WORK/speed/$name.ls.log" >>"$SPD"
    done
  done
  awk -v commit="$LOCSIM_COMMIT" -v size="$SIZE" -v rounds="$SPEED" -f "$HERE/speed.awk" "$SPD"
  exit 0
fi

FIG=$WORK/figures.txt
: >"$FIG"
for name in $NAMES; do
  if ! build "$name"; then
    echo "$name build fail" >>"$FIG"
    continue
  fi
  for sched in gto lrr; do
    echo "compare.sh: $name ($sched): GPGPU-Sim" >&2
    run_gpgpusim "$name" "$sched"
    echo "compare.sh: $name ($sched): locsim" >&2
    run_locsim "$name" "$sched"
    echo "$name $sched gs $(gpgpusim_figures "$WORK/gpgpusim/$name.$sched.log")" >>"$FIG"
    echo "$name $sched ls $(locsim_figures "$WORK/locsim/$name.$sched.log")" >>"$FIG"
  done
done

awk -v commit="$LOCSIM_COMMIT" -v size="$SIZE" -f "$HERE/table.awk" "$FIG"
