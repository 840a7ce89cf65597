#!/usr/bin/env bash
# Install the Debian packages locsim needs to build and test, when they are missing.
# (chromium and slurm-wlm are only for tests of the harness: they SKIP without them.)
# Run by `make run` / `make test`.  As root it installs with apt-get; otherwise it
# names the packages to install and stops.
set -euo pipefail
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
have_pkg libcmocka-dev || [ -f /usr/include/cmocka.h ] || need+=(libcmocka-dev)
have_pkg libzstd-dev || [ -f /usr/include/zstd.h ] || need+=(libzstd-dev)
# the evaluation harness (src/harness/): YAML specs, SQLite results
have_pkg libyaml-dev || [ -f /usr/include/yaml.h ] || need+=(libyaml-dev)
have_pkg libsqlite3-dev || [ -f /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
# its tests: the sqlite3 shell and python3 read the results; Chromium opens the HTML
# report headless; Slurm (slurmctld + slurmd, munge) runs a sweep as a job array
# (optional: as another user the tests that need them say SKIP)
want=()
command -v sqlite3 >/dev/null 2>&1 || want+=(sqlite3)
command -v python3 >/dev/null 2>&1 || want+=(python3)
command -v chromium >/dev/null 2>&1 || want+=(chromium)
command -v slurmctld >/dev/null 2>&1 || want+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || want+=(munge)
if [ "${1:-}" = "--fuzz" ]; then
  command -v clang >/dev/null 2>&1 || need+=(clang)
  have_pkg libclang-rt-14-dev || need+=(libclang-rt-14-dev)
  # clang's OpenMP runtime: -sim_threads (src/sim/gpu.c) is built with OpenMP
  have_pkg libomp-14-dev || need+=(libomp-14-dev)
fi
if [ "$(id -u)" -eq 0 ]; then
  all=(${need[@]+"${need[@]}"} ${want[@]+"${want[@]}"})
  [ ${#all[@]} -eq 0 ] && exit 0
  echo "install-deps: installing ${all[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${all[@]}" >/dev/null
  exit 0
fi
[ ${#want[@]} -eq 0 ] || echo "install-deps: optional packages for some tests (they SKIP without them): ${want[*]}" >&2
[ ${#need[@]} -eq 0 ] && exit 0
echo "install-deps: missing packages: ${need[*]}" >&2
echo "install-deps: not root, so not installing them; run: sudo apt-get install ${need[*]}" >&2
exit 1
