// spmv: y = A x for a CSR matrix, two classic kernels.
//
// spmv_scalar: one thread per row walks the row's non-zeros (simple, but the threads
// of a warp read far-apart parts of cols/vals and diverge on row length).
// spmv_vector: one warp per row; lanes stride through the row together (coalesced
// cols/vals), then combine their partial sums with a shfl.down reduction.
// Both gather x through the column indices.
//
// Stand-alone: ./spmv [--size S] [--seed N]   (prints PASS or FAIL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "wl_cuda.h"

extern "C" __global__ void spmv_scalar(int num_rows, const int *row_ptr, const int *cols, const float *vals,
                                       const float *x, float *y) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= num_rows) return;
    float sum = 0.0f;
    int end = row_ptr[row + 1];
    for (int j = row_ptr[row]; j < end; j++) sum += vals[j] * x[cols[j]];
    y[row] = sum;
}

extern "C" __global__ void spmv_vector(int num_rows, const int *row_ptr, const int *cols, const float *vals,
                                       const float *x, float *y) {
    int lane = threadIdx.x & (SPMV_WARP - 1);
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / SPMV_WARP;
    if (row >= num_rows) return;  // uniform per warp: the whole warp leaves together
    float sum = 0.0f;
    int end = row_ptr[row + 1];
    for (int j = row_ptr[row] + lane; j < end; j += SPMV_WARP) sum += vals[j] * x[cols[j]];
    for (int offset = SPMV_WARP / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
}

static int check(const char *what, const spmv_problem *p, const float *y) {
    double expected;
    int32_t row = spmv_first_mismatch(p, y, &expected);
    if (row < 0) return 1;
    fprintf(stderr, "%s: y[%d]: got %.9g, expected %.9g\n", what, row, y[row], expected);
    return 0;
}

int main(int argc, char **argv) {
    uint32_t size = 64;  // the evaluation size (wl_spmv.default_size)
    uint64_t seed = 1;
    wl_parse_args(argc, argv, WL_SIZE_LIMIT, &size, &seed);

    spmv_problem p;
    if (spmv_generate(&p, size, seed) != 0) wl_die("out of host memory");
    int n = p.num_rows;
    float *y_scalar = (float *)malloc((size_t)n * sizeof(float));
    float *y_vector = (float *)malloc((size_t)n * sizeof(float));
    if (!y_scalar || !y_vector) wl_die("out of host memory");

    int *d_row_ptr, *d_cols;
    float *d_vals, *d_x, *d_y_scalar, *d_y_vector;
    CUDA_CHECK(cudaMalloc(&d_row_ptr, ((size_t)n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cols, (size_t)p.nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_vals, (size_t)p.nnz * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_x, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y_scalar, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y_vector, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_row_ptr, p.row_ptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cols, p.cols, (size_t)p.nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_vals, p.vals, (size_t)p.nnz * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, p.x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));

    unsigned scalar_blocks = ((unsigned)n + SPMV_SCALAR_BLOCK - 1) / SPMV_SCALAR_BLOCK;
    unsigned vector_blocks = ((unsigned)n * SPMV_WARP + SPMV_VECTOR_BLOCK - 1) / SPMV_VECTOR_BLOCK;
    spmv_scalar<<<scalar_blocks, SPMV_SCALAR_BLOCK>>>(n, d_row_ptr, d_cols, d_vals, d_x, d_y_scalar);
    CUDA_CHECK(cudaGetLastError());
    spmv_vector<<<vector_blocks, SPMV_VECTOR_BLOCK>>>(n, d_row_ptr, d_cols, d_vals, d_x, d_y_vector);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(y_scalar, d_y_scalar, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(y_vector, d_y_vector, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));

    int ok = check("spmv_scalar", &p, y_scalar) && check("spmv_vector", &p, y_vector);
    cudaFree(d_row_ptr); cudaFree(d_cols); cudaFree(d_vals); cudaFree(d_x);
    cudaFree(d_y_scalar); cudaFree(d_y_vector);
    free(y_scalar); free(y_vector);
    spmv_free(&p);
    return wl_finish(ok);
}
