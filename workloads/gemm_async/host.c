/* gemm_async on locsim: the same run as kernel.cu's main(), through the locsim API; the
 * host side is gemm's (inputs, launch shape and check are the same), with this kernel. */
#include "../gemm/run.h"
#include "ref.h"

static wl_result run(wl_ctx *ctx) { return gemm_run_kernel(ctx, "sgemm_async"); }

const workload wl_gemm_async = {
    "gemm_async",
    "tiled SGEMM as gemm, tiles copied with cp.async (sm_80), double-buffered; "
    "--size S: M=32S+19, N=32S+13, K=16S+5",
    GEMM_DEFAULT_SIZE,
    {1, 2},
    run,
    0,   /* max_size: no fixed limit */
};
