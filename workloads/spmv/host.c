/* spmv on locsim: the same two launches as kernel.cu's main(), each result checked
 * row by row against a double-precision reference within a rounding-error bound
 * (see spmv_tolerance in ref.h).
 *
 * Measured at the default size 64, seed 1: 73.0 M thread instructions
 * (gpu_sim_insn).  Working set: 32787 rows, ~684 K non-zeros: 5.5 MB of CSR, x = 128 KB gathered. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr row_ptr, cols, vals, x, y_scalar, y_vector;
} spmv_device;

static wl_result spmv_simulate(wl_ctx *ctx, locsim_module *mod, const spmv_problem *p, spmv_device *d,
                               float *y_scalar, float *y_vector) {
    locsim_device *dev = ctx->dev;
    size_t n = (size_t)p->num_rows, nnz = (size_t)p->nnz;
    WL_CHECK(ctx, locsim_malloc(dev, &d->row_ptr, (n + 1) * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->cols, nnz * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->vals, nnz * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->x, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->y_scalar, n * sizeof(float)));
    WL_CHECK(ctx, locsim_malloc(dev, &d->y_vector, n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->row_ptr, p->row_ptr, (n + 1) * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->cols, p->cols, nnz * sizeof(int32_t)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->vals, p->vals, nnz * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->x, p->x, n * sizeof(float)));
    /* Locality Descriptors (docs/ldesc.md; the paper's Table 2 gives SPMV INTRA_THREAD
     * and INTER_THREAD COACCESSED IRREGULAR): x is gathered by every thread through
     * cols (one D-Tile, the whole vector, shared by the whole grid); the matrix rows
     * (cols, vals) are walked by their own thread across loop iterations. */
    locsim_ldesc dx = wl_ldesc(d->x, n * sizeof(float), LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    dx.data_tile.x = (uint32_t)n;
    dx.compute_tile.x = UINT32_MAX;   /* the whole grid (clamped to it) */
    dx.pattern = LOCSIM_LDESC_IRREGULAR;
    dx.priority = 1;
    locsim_ldesc dcols = wl_ldesc(d->cols, nnz * sizeof(int32_t), LOCSIM_LDESC_INTRA_THREAD, sizeof(int32_t));
    locsim_ldesc dvals = wl_ldesc(d->vals, nnz * sizeof(float), LOCSIM_LDESC_INTRA_THREAD, sizeof(float));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dx, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dcols, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dvals, NULL));

    locsim_kernel *scalar, *vector;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "spmv_scalar", &scalar));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "spmv_vector", &vector));
    int32_t num_rows = p->num_rows;
    locsim_dim3 scalar_grid = { ((uint32_t)n + SPMV_SCALAR_BLOCK - 1) / SPMV_SCALAR_BLOCK, 1, 1 };
    locsim_dim3 scalar_block = { SPMV_SCALAR_BLOCK, 1, 1 };
    locsim_dim3 vector_grid = { ((uint32_t)n * SPMV_WARP + SPMV_VECTOR_BLOCK - 1) / SPMV_VECTOR_BLOCK, 1, 1 };
    locsim_dim3 vector_block = { SPMV_VECTOR_BLOCK, 1, 1 };
    void *scalar_args[] = { &num_rows, &d->row_ptr, &d->cols, &d->vals, &d->x, &d->y_scalar };
    void *vector_args[] = { &num_rows, &d->row_ptr, &d->cols, &d->vals, &d->x, &d->y_vector };
    WL_CHECK(ctx, locsim_launch(scalar, scalar_grid, scalar_block, 0, scalar_args, 6));
    WL_CHECK(ctx, locsim_launch(vector, vector_grid, vector_block, 0, vector_args, 6));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, y_scalar, d->y_scalar, n * sizeof(float)));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, y_vector, d->y_vector, n * sizeof(float)));
    return WL_PASS;
}

static wl_result spmv_check(wl_ctx *ctx, const char *what, const spmv_problem *p, const float *y) {
    double expected;
    int32_t row = spmv_first_mismatch(p, y, &expected);
    if (row < 0) return WL_PASS;
    return wl_fail(ctx, "%s: y[%d]: got %.9g, expected %.9g", what, row, (double)y[row], expected);
}

static wl_result spmv_run(wl_ctx *ctx) {
    spmv_problem p;
    if (spmv_generate(&p, ctx->size, ctx->seed) != 0) return wl_out_of_memory(ctx);
    float *y_scalar = (float *)malloc((size_t)p.num_rows * sizeof(float));
    float *y_vector = (float *)malloc((size_t)p.num_rows * sizeof(float));
    wl_result r = WL_ERROR;
    if (!y_scalar || !y_vector) {
        r = wl_out_of_memory(ctx);
    } else {
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            spmv_device d;
            memset(&d, 0, sizeof d);
            r = spmv_simulate(ctx, mod, &p, &d, y_scalar, y_vector);
            WL_FREE_BUFFERS(ctx->dev, &d.row_ptr, &d.cols, &d.vals, &d.x, &d.y_scalar, &d.y_vector);
            locsim_module_unload(mod);
        }
    }
    if (r == WL_PASS) r = spmv_check(ctx, "spmv_scalar", &p, y_scalar);
    if (r == WL_PASS) r = spmv_check(ctx, "spmv_vector", &p, y_vector);
    free(y_scalar); free(y_vector);
    spmv_free(&p);
    return r;
}

const workload wl_spmv = {
    "spmv",
    "CSR sparse matrix-vector product, scalar (row/thread) and vector (row/warp, shfl) kernels; size S = 512*S+19 rows",
    64,
    { 1, 2 },
    spmv_run,
    0,   /* max_size: no fixed limit */
};
