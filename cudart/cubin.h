/* What a cubin (the SASS nvcc embeds beside the PTX) tells a simulator that runs
 * the PTX: how many registers ptxas gave each kernel, which GPGPU-Sim also takes
 * from ptxas rather than estimating.
 *
 * In a CUDA cubin every function's code is an ELF section `.text.<mangled name>`
 * whose sh_info field holds the register count in its top 8 bits (and the index of
 * the function's symbol in the low 24).  Checked against `ptxas -v` on nvcc 13 for
 * sm_75 (tests/cudart/data/regs_sm75.*).
 */
#ifndef LOCSIM_CUDART_CUBIN_H
#define LOCSIM_CUDART_CUBIN_H

#include <stddef.h>
#include <stdint.h>

/* Called for each function of the cubin: name (not NUL-terminated), its length
 * and ptxas's register count.  Non-zero stops the walk. */
typedef int (*cubin_regs_fn)(void *ctx, const char *name, size_t len, uint32_t regs);

/* Walk the functions of the cubin ELF img.  0 when the walk completed (or fn
 * stopped it: fn's value), -1 when img is not a well-formed 64-bit ELF. */
int cubin_function_regs(const unsigned char *img, size_t size, cubin_regs_fn fn, void *ctx);

#endif
