/* The host side of a gemm run, shared by gemm and gemm_async (defined in gemm/host.c):
 * both solve the same problem with the same inputs and check; only the kernel differs. */
#ifndef WL_GEMM_RUN_H
#define WL_GEMM_RUN_H

#include "workload.h"

/* Generate the inputs for ctx->size, launch `kernel_name` from ctx's module on one
 * (N/16, M/16) grid of 16 x 16 blocks, and check C against the CPU reference. */
wl_result gemm_run_kernel(wl_ctx *ctx, const char *kernel_name);

#endif
