#!/usr/bin/env bash
# Builds GPGPU-Sim (gpgpu-sim_distribution, dev branch, 4.2.x) from a checkout that
# lives OUTSIDE this repository, against the installed CUDA 13 toolkit, so that
# tools/gpgpusim/compare.sh can run our workloads under it.  GPGPU-Sim's code is
# never copied into this project: this script only edits the checkout it is given,
# with the small, documented steps below, and then runs its own Makefile.
#
#   tools/gpgpusim/build.sh [--patch-only] /path/to/gpgpu-sim_distribution [CUDA_INSTALL_PATH]
#
# --patch-only applies the edits and stops (to review them: git diff in the checkout).
# Needs: g++, make, bison, flex, zlib1g-dev, xutils-dev (makedepend).  These are not
# in tools/install-deps.sh because the project's tests do not use GPGPU-Sim.
# The steps are idempotent: running the script twice on one checkout is harmless.
# On success the last line printed is the directory holding GPGPU-Sim's libcudart.so.
set -euo pipefail
PATCH_ONLY=0
if [ "${1:-}" = "--patch-only" ]; then PATCH_ONLY=1; shift; fi
SRC=$(readlink -f "${1:?usage: build.sh GPGPUSIM_CHECKOUT [CUDA_INSTALL_PATH]}")
CUDA=${2:-${CUDA_INSTALL_PATH:-/usr/local/cuda}}
if [ ! -f "$SRC/setup_environment" ] || [ ! -d "$SRC/src/cuda-sim" ]; then
  echo "build.sh: $SRC is not a gpgpu-sim_distribution checkout" >&2
  exit 1
fi
[ -x "$CUDA/bin/nvcc" ] || { echo "build.sh: no nvcc in $CUDA/bin" >&2; exit 1; }
for tool in g++ make bison flex makedepend; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing (apt-get install -y g++ make bison flex zlib1g-dev xutils-dev)" >&2; exit 1; }
done
cd "$SRC"

# Each edit carries the marker "locsim build.sh" so that a second run skips it.
marked() { grep -q 'locsim build.sh' "$1"; }

# 1. setup_environment refuses CUDA newer than 11.1 ("not tested"); accept up to 13.1.
sed -i 's/\(CUDA_VERSION_NUMBER -gt \)11100 /\113100 /' setup_environment

# 2. CUDA 12 removed the texture reference API, and with it struct textureReference,
#    which GPGPU-Sim's texture bookkeeping still uses.  Declare it as CUDA 11's
#    texture_types.h did (members and order), in a header of our own, included
#    where abstract_hardware_model.h first needs it.
if ! marked src/abstract_hardware_model.h; then
  cat >src/cuda13_compat.h <<'HDR'
/* Written by locsim's tools/gpgpusim/build.sh.  CUDA 12 removed the texture
 * reference API from its headers; GPGPU-Sim still keeps texture references.
 * The members and their order are those of CUDA 11's struct textureReference. */
#ifndef CUDA13_COMPAT_H
#define CUDA13_COMPAT_H
#include <cuda_runtime_api.h>
#if CUDART_VERSION >= 12000
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
#endif
#endif
HDR
  sed -i '/^struct textureReferenceAttr {/i #include "cuda13_compat.h" /* locsim build.sh: CUDA 12+ removed struct textureReference */' \
    src/abstract_hardware_model.h
fi

# 3. Bison 3.8 writes a comment after each token in ptx.tab.h ("YYEOF = 0, /* "end of
#    file" */"); the Makefile's sed pipeline that turns the tokens into
#    ptx_parser_decode.def copies that comment into a string literal, which does not
#    compile.  Strip C comments first.
if ! grep -q 'grep "=" | sed "s:/' src/cuda-sim/Makefile; then
  sed -i '/ptx.tab.h | grep "=" | sed .s\/^\[ \]/s#grep "=" | #grep "=" | sed "s:/\\*.*\\*/::" | #' src/cuda-sim/Makefile
fi

# 4. libcuda/cuda_runtime_api.cc:
#  a. CUDA 13 dropped cudaDeviceProp::clockRate: set it only for older CUDA.
#  b. CUDA 12+ host stubs launch with __cudaGetKernel (once per stub) and
#     __cudaLaunchKernel instead of cudaLaunchKernel: add both, forwarding to
#     GPGPU-Sim's own launch with the host stub's address as the kernel handle (the
#     key __cudaRegisterFunction registered).
if ! marked libcuda/cuda_runtime_api.cc; then
  sed -i 's|^\(\s*\)prop->clockRate = the_gpu->shader_clock();|#if CUDART_VERSION < 13000 /* locsim build.sh: CUDA 13 dropped cudaDeviceProp::clockRate */\n\1prop->clockRate = the_gpu->shader_clock();\n#endif|' \
    libcuda/cuda_runtime_api.cc
  sed -i '/^void CUDARTAPI __cudaRegisterFatBinaryEnd(void \*\*fatCubinHandle) {/i \
/* locsim build.sh: CUDA 12+ host stubs look a kernel up with __cudaGetKernel and\
 * launch it with __cudaLaunchKernel; the handle is the host stub address. */\
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun) {\
  *kernel = (cudaKernel_t)hostFun;\
  return g_last_cudaError = cudaSuccess;\
}\
cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,\
                                         void **args, size_t sharedMem, cudaStream_t stream) {\
  return cudaLaunchKernelInternal((const char *)kernel, gridDim, blockDim, (const void **)args,\
                                  sharedMem, stream);\
}\
' libcuda/cuda_runtime_api.cc
fi
#  c. __cudaPushCallConfiguration (which every <<<...>>> launch calls) has no return
#     statement; with gcc 12 at -O3 control then runs on into whatever code follows
#     and the program recurses until it crashes.  Return 0 (success), as CUDA does.
if ! grep -q 'return 0; /\* locsim build.sh' libcuda/cuda_runtime_api.cc; then
  sed -i '/^unsigned CUDARTAPI __cudaPushCallConfiguration(/,/^}/s|^}|  return 0; /* locsim build.sh: it fell off its end */\n}|' \
    libcuda/cuda_runtime_api.cc
fi
grep -q '__cudaLaunchKernel(cudaKernel_t' libcuda/cuda_runtime_api.cc ||
  { echo "build.sh: could not add __cudaLaunchKernel (has cuda_runtime_api.cc changed?)" >&2; exit 1; }

# 5. Built without AccelWattch (the power model; GPGPUSIM_POWER_MODEL unset below),
#    gpu-sim.cc still calls the power wrapper's get_scaling_coeffs, which only exists
#    with it.  Return no coefficients then (they are only read when
#    -power_simulation_enabled is 1, which compare.sh turns off).
if ! marked src/gpgpu-sim/gpu-sim.cc; then
  sed -i 's|^\(\s*\)return m_gpgpusim_wrapper->get_scaling_coeffs();|#ifdef GPGPUSIM_POWER_MODEL\n\1return m_gpgpusim_wrapper->get_scaling_coeffs();\n#else /* locsim build.sh: no AccelWattch, no coefficients */\n\1return NULL;\n#endif|' \
    src/gpgpu-sim/gpu-sim.cc
fi

# 6. Programs built by nvcc 13 ask for symbols of version "libcudart.so.13"; the
#    library's version script must define that version (as it does 9.0-11.0).
grep -q '^libcudart.so.13{' linux-so-version.txt || printf 'libcudart.so.13{\n};\n' >>linux-so-version.txt

[ "$PATCH_ONLY" = 0 ] || exit 0

# Build (release, no power model, no OpenCL), niced: the machine is shared.
# setup_environment runs git to name the build, which fails in a checkout without
# history (git archive); it is not written for -e, -u or pipefail.
set +e +u +o pipefail
export CUDA_INSTALL_PATH=$CUDA
# shellcheck disable=SC1091
source ./setup_environment >/dev/null
unset GPGPUSIM_POWER_MODEL
set -euo pipefail
[ -n "${GPGPUSIM_SETUP_ENVIRONMENT_WAS_RUN+x}" ] || { echo "build.sh: setup_environment failed" >&2; exit 1; }
nice -n 19 make -j"${JOBS:-2}"

# The Makefile links libcudart.so.N for N up to 11.0; nvcc 13 programs load .so.13.
libs=(lib/*/cuda-*/release/libcudart.so)
[ -f "${libs[0]}" ] || { echo "build.sh: make built no libcudart.so" >&2; exit 1; }
LIB=$(dirname "${libs[0]}")
ln -sf libcudart.so "$LIB/libcudart.so.13"
echo "$SRC/$LIB"
