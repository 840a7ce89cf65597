/* gemm_async: the same problem, inputs, reference and tolerance as gemm (see
 * ../gemm/ref.h); only the kernel differs (cp.async double buffering). */
#ifndef WL_GEMM_ASYNC_REF_H
#define WL_GEMM_ASYNC_REF_H

#include "../gemm/ref.h"

#endif
