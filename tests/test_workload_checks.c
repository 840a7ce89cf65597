/* Each workload's check can fail: the workload runs with its committed kernel.ptx
 * altered in one place (a mutation that still parses and runs but computes
 * something else), and must report WL_FAIL with a reason, not pass and not crash.
 * A check that passed a wrong kernel would pass anything.
 *
 * The mutations name text in the committed PTX; if the PTX is regenerated and the
 * text moves, the test says which mutation no longer applies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"
#include "workload.h"

typedef struct {
    const char *name;     /* the test's name */
    const char *workload;
    const char *find;     /* first occurrence is replaced */
    const char *replace;
    const char *why;      /* what the altered kernel gets wrong */
} mutation;

static const mutation mutations[] = {
    { "convsep", "convsep", "[c_taps+60]", "[c_taps+64]", "the row pass reads tap 15 where tap 16 belongs" },
    { "nqueens", "nqueens", "popc.b32", "clz.b32", "the last row counts leading zeros instead of free columns" },
    { "storehash", "storehash", "-680876936;", "-680876935;", "MD5's first round constant is off by one" },
    { "strmatch", "strmatch", "atom.global.add.u32", "atom.global.max.u32",
      "key 0's per-thread counts are maxed, not summed" },
    { "wordcount", "wordcount", "%r26, [%rd33], 1;", "%r26, [%rd33], 2;", "wc_map counts every word twice" },
    { "invindex/count", "invindex", "atom.global.add.u32", "atom.global.max.u32",
      "ii_count keeps 1 per term instead of counting documents" },
    { "invindex/scatter", "invindex", "[%rd30], %r1;", "[%rd30], %r13;",
      "ii_scatter writes the list cursor where the document id belongs" },
    { "bptree", "bptree", "mul.wide.u32 \t%rd76, %r43, 4;", "mul.wide.u32 \t%rd76, %r43, 0;",
      "a found key returns the first record, not its own" },
    { "mummer", "mummer", "setp.lt.u16 \t%p40, %rs4, %rs3;", "setp.gt.u16 \t%p40, %rs4, %rs3;",
      "the binary search orders bases backwards" },
    { "cp", "cp", "rsqrt.approx.f32 \t%f92, %f91;", "sqrt.approx.f32 \t%f92, %f91;",
      "one of a thread's points adds q * r instead of q / r" },
    { "lib", "lib", "sqrt.rn.f32 \t%f2, %f1;", "mov.f32 \t%f2, %f1;",
      "the Brownian increment is scaled by delta, not sqrt(delta)" },
    { "lps", "lps", "mul.f32 \t%f93, %f57, 0f3E2AAAAB;", "mul.f32 \t%f93, %f57, 0f3E2AAAAC;",
      "the stencil's 1/6 is one ulp too large (the check is bit for bit)" },
    { "ray", "ray", "setp.lt.f32 \t%p37, %f736, %f170;", "setp.gt.f32 \t%p37, %f736, %f170;",
      "sphere 0 shadows points from beyond the light instead of before it" },
    { "nn", "nn", "mul.lo.s32 \t%r7, %r1, 151;", "mul.lo.s32 \t%r7, %r1, 150;",
      "layer 2's weight rows are 150 words apart instead of 151: map m reads shifted weights" },
    { "heapsort", "heapsort", "setp.gt.u32 \t%p4, %r35, %r47;", "setp.lt.u32 \t%p4, %r35, %r47;",
      "heapify sifts towards the smaller child, so the heap is not a max-heap" },
    { "hybridsort", "hybridsort", "setp.gt.f32 \t%p9, %f4, %f3;", "setp.lt.f32 \t%p9, %f4, %f3;",
      "hy_sort's bitonic compare-exchange is reversed: buckets come out descending" },
    { "knn", "knn", "fma.rn.f32 \t%f10, %f7, %f7, %f9;", "fma.rz.f32 \t%f10, %f7, %f7, %f9;",
      "the distance's fma rounds toward zero, not to nearest (an ulp; the check is bit for bit)" },
    { "gaussian", "gaussian", "neg.f32 \t%f1, %f2;", "mov.f32 \t%f1, %f2;",
      "ge_fan2 adds the pivot row's multiple instead of subtracting it" },
    { "mriq", "mriq", "ld.const.f32 \t%f20, [%rd28+4];", "ld.const.f32 \t%f20, [%rd28];",
      "the phase uses a sample's kx where its ky belongs" },
    { "syrk", "syrk", "mul.f32 \t%f28, %f27, %f9;", "mul.f32 \t%f28, %f27, %f8;",
      "the old C is scaled by alpha instead of beta" },
    { "atax", "atax", "ld.global.f32 \t%f15, [%rd32+4];", "ld.global.f32 \t%f15, [%rd32+8];",
      "ax_kernel2 reads tmp[i + 2] where tmp[i + 1] belongs" },
    { "mvt", "mvt", "ld.global.f32 \t%f27, [%rd5];", "mov.f32 \t%f27, 0f00000000;",
      "mv_kernel1 starts from 0 instead of the old x1" },
    { "transpose", "transpose", "ld.shared.f32 \t%f6, [%r19+32];", "ld.shared.f32 \t%f6, [%r19+36];",
      "the second write-out reads the tile's next column" },
    { "scalarprod", "scalarprod", "ld.shared.f32 \t%f31, [%r51+2048];", "ld.shared.f32 \t%f31, [%r51+2044];",
      "the first tree level adds the wrong partner" },
    { "conv2d", "conv2d", "mul.f32 \t%f2, %f1, 0f3E4CCCCD;", "mul.f32 \t%f2, %f1, 0f3E800000;",
      "the corner tap is 0.25 instead of 0.2" },
    { "doitgen", "doitgen", "ld.global.f32 \t%f6, [%rd9+4];", "ld.global.f32 \t%f6, [%rd9+8];",
      "dg_sum reads A[r][q][2] where A[r][q][1] belongs" },
    { "srad2", "srad2", "mul.f32 \t%f26, %f25, 0fBD800000;", "mul.f32 \t%f26, %f25, 0fBD000000;",
      "the coefficient weighs the squared Laplacian by 1/32 instead of 1/16" },
    { "dwt2d", "dwt2d", "shr.s32 \t%r58, %r57, 2;", "shr.s32 \t%r58, %r57, 1;",
      "dw_rows' update step divides by 2 instead of 4" },
    { "pf", "pf", "add.f32 \t%f9, %f8, 0fC0000000;", "add.f32 \t%f9, %f8, 0fBF800000;",
      "pf_likelihood moves the particles by -1 in y instead of -2" },
    { "kmeans_gm", "kmeans_gm", "ld.global.f32 \t%f22, [%rd33+-8];", "ld.global.f32 \t%f22, [%rd33+-4];",
      "kmeans_gm_assign's unrolled loop subtracts centre element f+1 from feature f" },
    { "kmeans_gm_nounroll", "kmeans_gm_nounroll", "add.s64 \t%rd18, %rd18, %rd2;", "add.s64 \t%rd18, %rd18, 4;",
      "kmeans_gm_assign_nounroll steps to the next point instead of the next feature" },
    { "kmeans_gm_transpose", "kmeans_gm", "ld.global.f32 \t%f2, [%rd36+-4];", "ld.global.f32 \t%f2, [%rd36+-8];",
      "kmeans_gm_transpose copies a point's feature 0 where its feature 1 belongs" },
    { "kmeans_rd/invert", "kmeans_rd", "st.global.f32 \t[%rd21], %f2;", "st.global.f32 \t[%rd21], %f1;",
      "kmeans_rd_invert writes a point's feature 0 where its feature 1 belongs" },
    { "kmeans_rd/point", "kmeans_rd", "ld.const.f32 \t%f33, [%rd14+4];", "ld.const.f32 \t%f33, [%rd14+8];",
      "kmeans_rd_point's unrolled loop subtracts centre element f+2 from feature f+1" },
    { "tensor_gemm/wmma", "tensor_gemm", "wmma.load.b.sync.aligned.col", "wmma.load.b.sync.aligned.row",
      "tgemm_wmma reads its column-major B tiles as row-major: it multiplies by B's transposed blocks" },
    { "tensor_gemm/mma", "tensor_gemm", "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "tgemm_mma's A fragments are loaded transposed" },
};

/* ptx with the first `find` replaced by `replace` (malloc'd; NULL if absent). */
static char *mutate(const char *ptx, size_t len, const mutation *m, size_t *out_len) {
    const char *hit = NULL;
    size_t flen = strlen(m->find), rlen = strlen(m->replace);
    for (size_t i = 0; i + flen <= len && !hit; i++)
        if (memcmp(ptx + i, m->find, flen) == 0) hit = ptx + i;
    if (!hit) return NULL;
    size_t before = (size_t)(hit - ptx);
    char *out = malloc(len - flen + rlen + 1);
    assert_non_null(out);
    memcpy(out, ptx, before);
    memcpy(out + before, m->replace, rlen);
    memcpy(out + before + rlen, hit + flen, len - before - flen);
    *out_len = len - flen + rlen;
    out[*out_len] = 0;
    return out;
}

static void broken_kernel_fails(void **state) {
    const mutation *m = *state;
    const workload_entry *e = workload_find(m->workload);
    assert_non_null(e);
    size_t len = 0;
    char *ptx = mutate(e->ptx, *e->ptx_len, m, &len);
    if (!ptx) fail_msg("%s: the mutation text '%s' is not in its kernel.ptx any more", m->workload, m->find);
    workload_entry broken = { e->wl, ptx, &len, e->ptxas, e->ptxas_len, e->dir };
    locsim_device *dev = NULL;
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
    locsim_set_memcheck(dev, 1);
    char detail[512] = "";
    wl_result r = workload_run(&broken, dev, e->wl->test_sizes[0], 1, detail, sizeof detail);
    locsim_device_destroy(dev);
    printf("%-16s %s: %s -> %s\n", m->name, m->why, r == WL_FAIL ? "FAIL" : "not FAIL", detail);
    free(ptx);
    assert_int_equal(r, WL_FAIL);
    assert_true(detail[0] != 0);
}

int main(void) {
    enum { N = sizeof mutations / sizeof mutations[0] };
    struct CMUnitTest tests[N];
    for (size_t i = 0; i < N; i++) {
        tests[i].name = mutations[i].name;
        tests[i].test_func = broken_kernel_fails;
        tests[i].setup_func = NULL;
        tests[i].teardown_func = NULL;
        tests[i].initial_state = (void *)&mutations[i];
    }
    return _cmocka_run_group_tests("workload_checks", tests, N, NULL, NULL);
}
