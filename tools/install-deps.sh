#!/usr/bin/env bash
# Install the Debian packages locsim needs to build and test, when they are missing.
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
if [ "${1:-}" = "--fuzz" ]; then
  command -v clang >/dev/null 2>&1 || need+=(clang)
  have_pkg libclang-rt-14-dev || need+=(libclang-rt-14-dev)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "install-deps: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "install-deps: missing packages: ${need[*]}" >&2
  echo "install-deps: not root, so not installing them; run: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
