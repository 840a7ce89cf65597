/* doitgen on locsim: the same two launches as kernel.cu's main(); sum and the
 * overwritten A are compared bit for bit with the reference.
 *
 * NR = 4*S, NQ = NP = 64 (ref.h says why). */
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "workload.h"

typedef struct {
    locsim_dptr a, c4, sum;
} dg_device;

static wl_result dg_simulate(wl_ctx *ctx, locsim_module *mod, const float *a, const float *c4, uint32_t rows,
                             dg_device *d, float *got_sum, float *got_a) {
    locsim_device *dev = ctx->dev;
    size_t bytes = (size_t)rows * DG_NP * sizeof(float), cbytes = DG_NP * DG_NP * sizeof(float);
    WL_CHECK(ctx, locsim_malloc(dev, &d->a, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->sum, bytes));
    WL_CHECK(ctx, locsim_malloc(dev, &d->c4, cbytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->a, a, bytes));
    WL_CHECK(ctx, locsim_memcpy_htod(dev, d->c4, c4, cbytes));
    /* Locality Descriptors (docs/ldesc.md; Table 2: DT INTER_THREAD COACCESSED REGULAR,
     * NO_REUSE).  C4 (NP x NP) is read whole by every CTA, a warp reading one row
     * segment C4[k][p..p+31] per loop iteration and the next row at the next: one
     * D-Tile for the whole grid, stride NP elements (a row), priority 1.  A's rows are
     * broadcast to the threads of one (r, q) row, i.e. shared by the grid.x CTAs of one
     * grid row: D-Tile = DG_BY rows of NP, C-Tile = a grid row, the k-th grid row
     * reading the k-th D-Tile (map y = 1), walked one element per iteration (stride 1),
     * priority 0 (Algorithm 1 merges its C-Tile into C4's clusters).  sum is written
     * once by dg_sum and read once by dg_copy: NO_REUSE. */
    locsim_ldesc dc4 = wl_ldesc(d->c4, cbytes, LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    dc4.data_tile = (locsim_dim3){ DG_NP, DG_NP, 1 };
    dc4.compute_tile = (locsim_dim3){ UINT32_MAX, UINT32_MAX, 1 };   /* the whole grid */
    dc4.stride = DG_NP;
    dc4.priority = 1;
    locsim_ldesc da = wl_ldesc(d->a, bytes, LOCSIM_LDESC_INTER_THREAD, sizeof(float));
    da.data_tile = (locsim_dim3){ DG_NP, DG_BY, 1 };
    da.compute_tile = (locsim_dim3){ UINT32_MAX, 1, 1 };           /* a grid row */
    da.map = (locsim_dim3){ 0, 1, 0 };
    da.stride = 1;
    locsim_ldesc ds = wl_ldesc(d->sum, bytes, LOCSIM_LDESC_NO_REUSE, sizeof(float));
    /* CTA (bx, by) writes the DG_BX x DG_BY block (bx, by) of sum, DG_NP elements a
     * row (NUMA placement, docs/numa.md) */
    ds.data_tile = (locsim_dim3){ DG_BX, DG_BY, 1 };
    ds.map = (locsim_dim3){ 1, 2, 0 };
    ds.stride = DG_NP;
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &dc4, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &da, NULL));
    WL_CHECK(ctx, locsim_ldesc_attach(dev, &ds, NULL));
    locsim_kernel *ksum, *kcopy;
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "dg_sum", &ksum));
    WL_CHECK(ctx, locsim_module_get_kernel(mod, "dg_copy", &kcopy));
    int32_t ri = (int32_t)rows;
    locsim_dim3 grid = { DG_NP / DG_BX, rows / DG_BY, 1 }, block = { DG_BX, DG_BY, 1 };
    void *args1[] = { &d->sum, &d->a, &d->c4, &ri };
    void *args2[] = { &d->a, &d->sum, &ri };
    WL_CHECK(ctx, locsim_launch(ksum, grid, block, 0, args1, 4));
    WL_CHECK(ctx, locsim_launch(kcopy, grid, block, 0, args2, 3));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_sum, d->sum, bytes));
    WL_CHECK(ctx, locsim_memcpy_dtoh(dev, got_a, d->a, bytes));
    return WL_PASS;
}

/* bit-for-bit: the kernels perform the reference's float operations */
static wl_result dg_compare(wl_ctx *ctx, const char *what, const float *got, const float *want, size_t n) {
    size_t i = wl_first_float_diff(got, want, n);
    if (i < n)
        return wl_fail(ctx, "%s[%zu][%zu][%zu]: got %.9g, expected %.9g", what, i / (DG_NQ * DG_NP),
                       i / DG_NP % DG_NQ, i % DG_NP, got[i], want[i]);
    return WL_PASS;
}

static wl_result dg_run(wl_ctx *ctx) {
    if (!wl_size_ok(ctx, DG_MAX_SIZE)) return WL_ERROR;
    uint32_t nr = dg_nr(ctx->size), rows = nr * DG_NQ;
    size_t n = (size_t)rows * DG_NP, bytes = n * sizeof(float);
    float *a = NULL, *c4 = NULL;
    int have = dg_generate(nr, ctx->seed, &a, &c4);
    float *want_a = malloc(bytes), *want_sum = malloc(bytes), *got_sum = malloc(bytes), *got_a = malloc(bytes);
    wl_result r = WL_ERROR;
    if (!have || !want_a || !want_sum || !got_sum || !got_a) {
        r = wl_out_of_memory(ctx);
    } else {
        memcpy(want_a, a, bytes);
        dg_reference(want_a, c4, nr, want_sum);
        locsim_module *mod = wl_load_module(ctx);
        if (mod) {
            dg_device d;
            memset(&d, 0, sizeof d);
            r = dg_simulate(ctx, mod, a, c4, rows, &d, got_sum, got_a);
            WL_FREE_BUFFERS(ctx->dev, &d.a, &d.c4, &d.sum);
            locsim_module_unload(mod);
        }
        if (r == WL_PASS) r = dg_compare(ctx, "sum", got_sum, want_sum, n);
        if (r == WL_PASS) r = dg_compare(ctx, "A", got_a, want_a, n);
    }
    free(a); free(c4); free(want_a); free(want_sum); free(got_sum); free(got_a);
    return r;
}

const workload wl_doitgen = {
    "doitgen",
    "PolyBench DOITGEN, sum over s of A[r][q][s] C4[s][p] then copy back; size S = NR 4*S x NQ 64 x NP 64",
    6,
    { 1, 2 },
    dg_run,
    DG_MAX_SIZE,
};
