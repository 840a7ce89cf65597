/* spmv: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * A square CSR matrix with irregular rows: most rows hold 4..32 non-zeros, about 2%
 * are long (64..255: the power-law tail of real matrices), about 1% are empty.  70% of
 * the columns fall within +-SPMV_BAND of the diagonal (locality in x), the rest
 * anywhere.  Column indices are sorted within a row, as CSR producers emit them. */
#ifndef WL_SPMV_REF_H
#define WL_SPMV_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define SPMV_ROWS_PER_SIZE 512u
#define SPMV_BAND 256u
#define SPMV_SCALAR_BLOCK 128u   /* scalar kernel: one row per thread */
#define SPMV_VECTOR_BLOCK 128u   /* vector kernel: one row per warp, 4 rows per CTA */
#define SPMV_WARP 32u

typedef struct {
    int32_t num_rows;   /* = number of columns */
    int32_t nnz;
    int32_t *row_ptr;   /* num_rows + 1 */
    int32_t *cols;      /* nnz */
    float *vals;        /* nnz */
    float *x;           /* num_rows */
} spmv_problem;

/* rows = 512 * size + 19 (neither a multiple of a CTA nor of 4 rows) */
static inline int32_t spmv_num_rows(uint32_t size) { return (int32_t)(SPMV_ROWS_PER_SIZE * size + 19u); }

static inline uint32_t spmv_row_length(wl_rng *r) {
    uint32_t kind = wl_rng_below(r, 100);
    if (kind == 0) return 0;
    if (kind <= 2) return 64u + wl_rng_below(r, 192);
    return 4u + wl_rng_below(r, 29);
}

static inline int32_t spmv_column(wl_rng *r, int32_t row, int32_t n) {
    if (wl_rng_below(r, 10) < 7) {
        int64_t c = (int64_t)row + (int64_t)wl_rng_below(r, 2 * SPMV_BAND + 1) - (int64_t)SPMV_BAND;
        if (c < 0) c = -c;
        if (c >= n) c = 2 * (int64_t)(n - 1) - c;
        return (int32_t)c;
    }
    return (int32_t)wl_rng_below(r, (uint32_t)n);
}

static inline void spmv_sort_ints(int32_t *a, int32_t len) {
    for (int32_t i = 1; i < len; i++) {
        int32_t v = a[i], j = i;
        while (j > 0 && a[j - 1] > v) { a[j] = a[j - 1]; j--; }
        a[j] = v;
    }
}

static inline void spmv_free(spmv_problem *p) {
    free(p->row_ptr); free(p->cols); free(p->vals); free(p->x);
    memset(p, 0, sizeof *p);
}

/* Returns 0, or -1 on out-of-memory (p is then empty). */
static inline int spmv_generate(spmv_problem *p, uint32_t size, uint64_t seed) {
    wl_rng r;
    int32_t n = spmv_num_rows(size);
    memset(p, 0, sizeof *p);
    wl_rng_seed(&r, seed);
    p->num_rows = n;
    p->row_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    p->x = (float *)malloc((size_t)n * sizeof(float));
    if (!p->row_ptr || !p->x) { spmv_free(p); return -1; }
    p->row_ptr[0] = 0;
    for (int32_t i = 0; i < n; i++) p->row_ptr[i + 1] = p->row_ptr[i] + (int32_t)spmv_row_length(&r);
    p->nnz = p->row_ptr[n];
    p->cols = (int32_t *)malloc(((size_t)p->nnz + 1) * sizeof(int32_t));
    p->vals = (float *)malloc(((size_t)p->nnz + 1) * sizeof(float));
    if (!p->cols || !p->vals) { spmv_free(p); return -1; }
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = p->row_ptr[i]; j < p->row_ptr[i + 1]; j++) p->cols[j] = spmv_column(&r, i, n);
        spmv_sort_ints(&p->cols[p->row_ptr[i]], p->row_ptr[i + 1] - p->row_ptr[i]);
    }
    for (int32_t j = 0; j < p->nnz; j++) p->vals[j] = 2.0f * wl_rng_float(&r) - 1.0f;
    for (int32_t i = 0; i < n; i++) p->x[i] = 2.0f * wl_rng_float(&r) - 1.0f;
    return 0;
}

/* Reference row i in double (exact to ~1e-16 relative, far below float rounding),
 * with the sum of |a_ij * x_j| the error bound needs. */
static inline void spmv_reference_row(const spmv_problem *p, int32_t i, double *sum, double *abs_sum) {
    double s = 0.0, m = 0.0;
    for (int32_t j = p->row_ptr[i]; j < p->row_ptr[i + 1]; j++) {
        double prod = (double)p->vals[j] * (double)p->x[p->cols[j]];
        s += prod;
        m += fabs(prod);
    }
    *sum = s;
    *abs_sum = m;
}

/* Tolerance for a float result of row i.  A float dot product whose longest chain
 * of dependent roundings has d operations is within gamma_d * sum|a_ij x_j| of the
 * exact value (gamma_d = d u / (1 - d u), u = 2^-24; an fma contraction only removes
 * roundings).  The scalar kernel's chain is k products/adds for k non-zeros; the
 * vector kernel's is ceil(k/32) + 5 shuffle levels <= k + 5.  d = k + 8 covers both
 * with margin, and 1e-30 absorbs the exact zeros of empty rows. */
static inline double spmv_tolerance(int32_t row_len, double abs_sum) {
    double du = (double)(row_len + 8) * (1.0 / 16777216.0);
    return du / (1.0 - du) * abs_sum + 1e-30;
}

/* Returns the first row whose result is out of tolerance, or -1 if all are fine. */
static inline int32_t spmv_first_mismatch(const spmv_problem *p, const float *y, double *expected) {
    for (int32_t i = 0; i < p->num_rows; i++) {
        double s, m;
        spmv_reference_row(p, i, &s, &m);
        if (!(fabs((double)y[i] - s) <= spmv_tolerance(p->row_ptr[i + 1] - p->row_ptr[i], m))) {
            *expected = s;
            return i;
        }
    }
    return -1;
}

#endif
