#!/usr/bin/env bash
# Computes locsim's default energies from GPUWattch's GTX480 model (docs/energy.md).
#
#   tools/gpuwattch/run.sh GPGPUSIM_GIT [WORKDIR]
#
# GPGPUSIM_GIT: a clone of https://github.com/gpgpu-sim/gpgpu-sim_distribution
# (a work tree or a bare repository) holding commit $COMMIT below.  Nothing of
# it enters this repository: the script exports GPGPU-Sim's McPAT
# (src/gpuwattch/, as GPUWattch modified it) and the GTX480 config into WORKDIR
# (default /tmp/gpuwattch-gtx480), compiles McPAT there, links our driver
# gw_energy.cc against it and runs it on configs/tested-cfgs/SM2_GTX480/
# gpuwattch_gtx480.xml.  The driver's output (what GPUWattch charges per event,
# its constant powers, McPAT's leakage and the locsim figures derived from
# them) is printed and kept in WORKDIR/gw_energy.out; tools/gpuwattch/
# gtx480.out is that output at $COMMIT.
#
# Needs g++ and zlib (zlib1g-dev).  About 30 C++ files: ~5 min on one core;
# the run itself takes about a minute (CACTI sizes every array twice).
set -euo pipefail
COMMIT=90ec3399763d7c8512cfe7dc193473086c38ca38 # gpgpu-sim_distribution, 2020-10-18 (4.0.x, dev)
SRC=${1:?usage: run.sh GPGPUSIM_GIT [WORKDIR]}
WORK=${2:-/tmp/gpuwattch-gtx480}
HERE=$(cd "$(dirname "$0")" && pwd)
CXX=${CXX:-g++}
command -v "${CXX%% *}" >/dev/null || { echo "run.sh: no $CXX" >&2; exit 1; }

mkdir -p "$WORK/obj"
git -C "$SRC" archive "$COMMIT" src/gpuwattch src/gpgpu-sim/visualizer.h configs/tested-cfgs/SM2_GTX480 |
  tar -x -C "$WORK"

# McPAT's sources as its own makefile (src/gpuwattch/mcpat.mk) lists them,
# less its main.cc (our driver is the program).
MCPAT="XML_Parse array basic_components core interconnect iocontrollers logic memoryctrl noc processor
       sharedcache xmlParser gpgpu_sim_wrapper"
CACTI="Ucache arbiter area bank basic_circuit cacti_interface component crossbar decoder htree2 io mat
       nuca parameter router subarray technology uca wire"
cd "$WORK/src/gpuwattch"
compile() { # file object optimisation
  [ -f "$2" ] && [ "$2" -nt "$1" ] && return 0
  echo "  CXX $1" >&2
  nice -n 10 $CXX "$3" -w -DNTHREADS=1 -Icacti -c "$1" -o "$2"
}
for f in $MCPAT; do compile "$f.cc" "$WORK/obj/$f.o" -O2; done
for f in $CACTI; do
  # Ucache.cc's calc_time_mt_wrapper (a pthread body) falls off its end
  # without returning; GCC 8 and later treat that as unreachable when
  # optimising and the thread crashes.  Unoptimised it returns garbage that
  # nobody reads, as in the compilers GPGPU-Sim was written for.
  opt=-O2; [ "$f" = Ucache ] && opt=-O0
  compile "cacti/$f.cc" "$WORK/obj/$f.o" "$opt"
done
nice -n 10 $CXX -O2 -Wall -DNTHREADS=1 -I. -Icacti -c "$HERE/gw_energy.cc" -o "$WORK/gw_energy.o" 2>&1 |
  grep -v "^In file\|^ *from\|src/gpuwattch" >&2 || true
$CXX -o "$WORK/gw_energy" "$WORK/gw_energy.o" "$WORK"/obj/*.o -lz -lm -pthread

cd "$WORK/configs/tested-cfgs/SM2_GTX480"
rm -f "$WORK/power_report.log"
"$WORK/gw_energy" gpuwattch_gtx480.xml "$WORK/power_report.log" >"$WORK/gw_energy.out" 2>"$WORK/gw_energy.err" || {
  cat "$WORK/gw_energy.err" >&2
  exit 1
}
cat "$WORK/gw_energy.out"
