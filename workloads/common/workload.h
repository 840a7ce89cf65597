/* The workload interface: each workloads/<name>/host.c defines one `workload`
 * named wl_<name>.  The build embeds workloads/<name>/kernel.ptx and generates a
 * registry (workload_table) from the directory list, so adding a workload is
 * adding a directory.  A directory's `variants` file may name further workloads
 * that its host.c also defines (wl_<variant>), run on the same module: another
 * kernel of kernel.cu with the same host code (kmeans_gm_nounroll).
 *
 * A workload generates its input deterministically from (size, seed), runs its
 * kernels on ctx->dev, and checks the output against a CPU reference.
 */
#ifndef LOCSIM_WORKLOAD_H
#define LOCSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "locsim/locsim.h"

/* WL_BAD_SIZE: --size above the workload's maximum (wl_size_ok); nothing ran. */
typedef enum { WL_PASS = 0, WL_FAIL = 1, WL_ERROR = 2, WL_BAD_SIZE = 3 } wl_result;

typedef struct {
    locsim_device *dev;
    uint32_t size;          /* problem scale, >= 1; meaning documented per workload */
    uint64_t seed;
    const char *ptx;        /* the embedded kernel.ptx */
    size_t ptx_len;
    const char *ptxas;      /* the embedded kernel.ptxas (ptxas -v listing; may be empty) */
    size_t ptxas_len;
    const char *name;
    const char *dir;        /* workloads/<dir>/ holds its kernel.ptx (name, unless a variant) */
    char detail[512];       /* why it failed (first mismatch, or the locsim error) */
    int bad_size;           /* wl_size_ok refused ctx->size */
} wl_ctx;

typedef struct {
    const char *name;
    const char *description;     /* one line, shown by `locsim list` */
    uint32_t default_size;       /* used when --size is not given (the evaluation size) */
    uint32_t test_sizes[2];      /* two small sizes the test suite runs (fast under ASan) */
    wl_result (*run)(wl_ctx *ctx);
    /* The largest --size the workload takes (its run refuses larger ones,
     * wl_size_ok), so that a sweep spec is checked before anything runs; 0:
     * no fixed limit (the host's memory is). */
    uint32_t max_size;
} workload;

typedef struct {
    const workload *wl;
    const char *ptx;
    const size_t *ptx_len;
    const char *ptxas;          /* ptxas -v listing of the PTX: registers per thread */
    const size_t *ptxas_len;
    const char *dir;            /* workloads/<dir>/: the module's directory; NULL = wl->name */
} workload_entry;

extern const workload_entry workload_table[];  /* generated; ends with a NULL wl */

const workload_entry *workload_find(const char *name);
size_t workload_count(void);
/* Whether the workload's PTX has tensor-core instructions (wmma, mma, ldmatrix):
 * it then runs only on a configuration with -gpgpu_tensor_core_avail 1, and the
 * runners that load a Fermi/GT200 configuration for every workload add that option
 * for it (docs/tensor.md). */
int workload_uses_tensor_cores(const workload_entry *e);

/* Run one workload on dev: fills a ctx and calls wl->run. */
wl_result workload_run(const workload_entry *e, locsim_device *dev, uint32_t size, uint64_t seed,
                       char *detail, size_t detail_size);

/* ---- helpers for host.c files ---- */
/* Load the embedded PTX as a module; on error writes ctx->detail and returns NULL. */
locsim_module *wl_load_module(wl_ctx *ctx);
/* Record a locsim error in ctx->detail; returns WL_ERROR. */
wl_result wl_error(wl_ctx *ctx, locsim_status st, const char *what);
/* Record a mismatch (printf-style) in ctx->detail; returns WL_FAIL. */
wl_result wl_fail(wl_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The first i < n at which got[i] and want[i] differ bit for bit, or n when
 * none does: the exact check of kernels that perform the reference's float
 * operations in the reference's order. */
size_t wl_first_float_diff(const float *got, const float *want, size_t n);
/* WL_PASS when got[0..n) equals want[0..n) bit for bit; otherwise records
 * "<what>: element i: got G, expected W" for the first difference (WL_FAIL). */
wl_result wl_check_floats_exact(wl_ctx *ctx, const char *what, const float *got, const float *want, size_t n);

/* Record "out of host memory" in ctx->detail; returns WL_ERROR. */
wl_result wl_out_of_memory(wl_ctx *ctx);
/* Whether ctx->size is at most max; if not, records "--size S is too large (max M)"
 * in ctx->detail and returns 0. */
int wl_size_ok(wl_ctx *ctx, uint32_t max);

/* Free the device buffers *bufs[0..n) that were allocated (non-zero), in that
 * order, and zero them: cleanup code can run from any point of a run. */
void wl_free_buffers(locsim_device *dev, locsim_dptr *const *bufs, size_t n);
/* WL_FREE_BUFFERS(dev, &d_a, &d_b, ...): wl_free_buffers over the listed buffers. */
#define WL_FREE_BUFFERS(dev, ...)                                          \
    wl_free_buffers((dev), (locsim_dptr *const[]){__VA_ARGS__},            \
                    sizeof((locsim_dptr *const[]){__VA_ARGS__}) / sizeof(locsim_dptr *))

/* Check a call; on error record it and return WL_ERROR from the calling function. */
/* A Locality Descriptor (docs/ldesc.md) for [base, base + size): the given type
 * and element size; tiles of one element / one CTA, map (1,0,0), COACCESSED,
 * REGULAR, stride 0, priority 0.  The caller sets what else it knows and attaches
 * it with locsim_ldesc_attach.  Descriptors are hints: they never change results. */
locsim_ldesc wl_ldesc(locsim_dptr base, uint64_t size, uint32_t type, uint32_t elem_size);

#define WL_CHECK(ctx, call)                                            \
    do {                                                               \
        locsim_status wl_st_ = (call);                                 \
        if (wl_st_ != LOCSIM_OK) return wl_error((ctx), wl_st_, #call); \
    } while (0)

/* Check a call; on error record it in the caller's `wl_result result` and jump
 * to the caller's `out:` label (its cleanup code). */
#define WL_TRY(ctx, call)                                \
    do {                                                 \
        locsim_status wl_st_ = (call);                   \
        if (wl_st_ != LOCSIM_OK) {                       \
            result = wl_error((ctx), wl_st_, #call);     \
            goto out;                                    \
        }                                                \
    } while (0)

#endif
