/* The runtime API end to end on small hand-written kernels: memory, symbols,
 * launches, and every kind of bad input the host or a kernel can produce. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "locsim/locsim.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

/* out[i] = in[i] * 2 + k for i < n; k is a __constant__, scale a __device__ variable */
static const char *scale_ptx = HEADER
    ".const .align 4 .u32 k;\n"
    ".global .align 4 .u32 scale = 2;\n"
    ".visible .entry scale_add(.param .u64 out, .param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [in];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mul.wide.u32 %rd4, %r5, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  ld.global.u32 %r6, [%rd5];\n"
    "  ld.global.u32 %r9, [scale];\n"
    "  ld.const.u32 %r7, [k];\n"
    "  mad.lo.s32 %r8, %r6, %r9, %r7;\n"
    "  cvta.to.global.u64 %rd6, %rd1;\n"
    "  add.s64 %rd7, %rd6, %rd4;\n"
    "  st.global.u32 [%rd7], %r8;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

typedef struct {
    locsim_device *dev;
    locsim_module *mod;
    locsim_kernel *k;
} fixture;

static int setup(void **state) {
    static fixture f;
    memset(&f, 0, sizeof f);
    if (locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &f.dev) != LOCSIM_OK) return -1;
    locsim_set_memcheck(f.dev, 1);
    if (locsim_module_load_ptx(f.dev, scale_ptx, strlen(scale_ptx), "scale.ptx", &f.mod) != LOCSIM_OK) {
        fprintf(stderr, "load failed: %s\n", locsim_last_error(f.dev));
        return -1;
    }
    if (locsim_module_get_kernel(f.mod, "scale_add", &f.k) != LOCSIM_OK) return -1;
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    locsim_device_destroy(f->dev);
    return 0;
}

static void test_launch_computes_with_symbols(void **state) {
    fixture *f = *state;
    enum { N = 1000 };
    uint32_t in[N], out[N];
    for (uint32_t i = 0; i < N; i++) in[i] = i * 3;
    locsim_dptr din, dout;
    assert_int_equal(locsim_malloc(f->dev, &din, sizeof in), LOCSIM_OK);
    assert_int_equal(locsim_malloc(f->dev, &dout, sizeof out), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(f->dev, din, in, sizeof in), LOCSIM_OK);
    assert_int_equal(locsim_memset(f->dev, dout, 0xff, sizeof out), LOCSIM_OK);
    uint32_t k = 5, three = 3;
    assert_int_equal(locsim_memcpy_to_symbol(f->mod, "k", &k, 4, 0), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_to_symbol(f->mod, "scale", &three, 4, 0), LOCSIM_OK);
    uint32_t n = N;
    void *args[] = {&dout, &din, &n};
    /* 4 CTAs of 256 threads: the last 24 threads are past n and must not write */
    assert_int_equal(locsim_launch(f->k, (locsim_dim3){4, 1, 1}, (locsim_dim3){256, 1, 1}, 0, args, 3), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_dtoh(f->dev, out, dout, sizeof out), LOCSIM_OK);
    for (uint32_t i = 0; i < N; i++) assert_int_equal(out[i], in[i] * 3 + 5);
    locsim_counters c;
    locsim_get_counters(f->dev, &c);
    assert_int_equal(c.kernels, 1);
    /* Every thread executes the 8 instructions before the guarded bra.  The bra
     * counts only for the 24 threads past n, whose guard is true (a thread whose
     * guard is false does not count, as GPGPU-Sim's set_not_active drops it from
     * the instruction's active count); they then run only the ret (10 in all).
     * The 1000 threads in range run 10 more and ret (8 + 10 + 1 = 19 in all):
     * 1000*19 + 24*10. */
    assert_int_equal(c.thread_insns, 1000u * 19u + 24u * 10u);
    uint32_t back = 0;
    assert_int_equal(locsim_memcpy_from_symbol(f->mod, "scale", &back, 4, 0), LOCSIM_OK);
    assert_int_equal(back, 3);
    assert_int_equal(locsim_free(f->dev, din), LOCSIM_OK);
    assert_int_equal(locsim_free(f->dev, dout), LOCSIM_OK);
}

static void test_initialised_global_variable(void **state) {
    fixture *f = *state;
    locsim_dptr addr;
    size_t size;
    assert_int_equal(locsim_module_get_symbol(f->mod, "scale", &addr, &size), LOCSIM_OK);
    assert_int_equal(size, 4);
    uint32_t v = 0;
    assert_int_equal(locsim_memcpy_dtoh(f->dev, &v, addr, 4), LOCSIM_OK);
    assert_true(v == 2 || v == 3); /* 2 from the initialiser, 3 if the launch test ran first */
}

static void test_bad_host_calls(void **state) {
    fixture *f = *state;
    locsim_kernel *k;
    assert_int_equal(locsim_module_get_kernel(f->mod, "nope", &k), LOCSIM_ERR_NOT_FOUND);
    assert_non_null(strstr(locsim_last_error(f->dev), "'nope'"));
    assert_int_equal(locsim_module_get_symbol(f->mod, "missing", NULL, NULL), LOCSIM_ERR_NOT_FOUND);
    uint32_t n = 1;
    locsim_dptr p = 0;
    void *args[] = {&p, &p, &n};
    assert_int_equal(locsim_launch(f->k, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 0, args, 2), LOCSIM_ERR_LAUNCH);
    assert_non_null(strstr(locsim_last_error(f->dev), "2 arguments given, the kernel takes 3"));
    assert_int_equal(locsim_launch(f->k, (locsim_dim3){1, 1, 1}, (locsim_dim3){1025, 1, 1}, 0, args, 3), LOCSIM_ERR_LAUNCH);
    assert_int_equal(locsim_launch(f->k, (locsim_dim3){0, 1, 1}, (locsim_dim3){32, 1, 1}, 0, args, 3), LOCSIM_ERR_LAUNCH);
    assert_int_equal(locsim_launch(f->k, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 1u << 20, args, 3),
                     LOCSIM_ERR_LAUNCH);
    uint32_t big[2];
    assert_int_equal(locsim_memcpy_to_symbol(f->mod, "k", big, 8, 0), LOCSIM_ERR_INVALID);
    locsim_dptr d;
    assert_int_equal(locsim_malloc(f->dev, &d, 16), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(f->dev, d, big, 32), LOCSIM_ERR_INVALID); /* past the end */
    assert_int_equal(locsim_free(f->dev, d + 4), LOCSIM_ERR_INVALID);
    assert_int_equal(locsim_free(f->dev, d), LOCSIM_OK);
}

/* A kernel reading past the end of its buffer is reported like compute-sanitizer:
 * kind of access, size, kernel, thread, block and address. */
static void test_out_of_bounds_read_is_reported(void **state) {
    fixture *f = *state;
    locsim_dptr din, dout;
    /* out is big enough; in (allocated last, so nothing follows it) holds 64
     * elements: thread 0 of block 1 is the first to read past its end. */
    assert_int_equal(locsim_malloc(f->dev, &dout, 128 * 4), LOCSIM_OK);
    assert_int_equal(locsim_malloc(f->dev, &din, 64 * 4), LOCSIM_OK);
    uint32_t n = 100;
    void *args[] = {&dout, &din, &n};
    assert_int_equal(locsim_launch(f->k, (locsim_dim3){2, 1, 1}, (locsim_dim3){64, 1, 1}, 0, args, 3),
                     LOCSIM_ERR_KERNEL_FAULT);
    const char *msg = locsim_last_error(f->dev);
    assert_non_null(strstr(msg, "__global__"));
    assert_non_null(strstr(msg, "read"));
    assert_null(strstr(msg, "write"));
    assert_non_null(strstr(msg, "size 4"));
    assert_non_null(strstr(msg, "scale_add"));
    assert_non_null(strstr(msg, "thread (0,0,0)"));
    assert_non_null(strstr(msg, "block (1,0,0)"));
    char addr[32];
    snprintf(addr, sizeof addr, "%llx", (unsigned long long)(din + 64 * 4));
    assert_non_null(strstr(msg, addr));
}

static void test_malformed_ptx_names_file_and_line(void **state) {
    fixture *f = *state;
    static const char *bad = HEADER ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, ;\n  ret;\n}\n";
    locsim_module *m;
    assert_int_equal(locsim_module_load_ptx(f->dev, bad, strlen(bad), "bad.ptx", &m), LOCSIM_ERR_PARSE);
    assert_non_null(strstr(locsim_last_error(f->dev), "bad.ptx:7:"));
    static const char *unknown = HEADER ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  frobnicate.u32 %r1, 1;\n  ret;\n}\n";
    locsim_status st = locsim_module_load_ptx(f->dev, unknown, strlen(unknown), "unk.ptx", &m);
    assert_true(st == LOCSIM_ERR_PARSE || st == LOCSIM_ERR_UNSUPPORTED);
    assert_non_null(strstr(locsim_last_error(f->dev), "unk.ptx:7:"));
    assert_non_null(strstr(locsim_last_error(f->dev), "frobnicate"));
}

/* Lanes 0..15 wait at bar.sync while lanes 16..31 skip it and still have work to
 * do after it: a divergent barrier is an error (compute-sanitizer synccheck), never
 * a hang.  (Lanes that skip straight to a lone ret would simply have exited.) */
static void test_divergent_barrier_is_reported(void **state) {
    fixture *f = *state;
    static const char *ptx = HEADER ".visible .entry divbar()\n{\n"
                             "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n"
                             "  mov.u32 %r1, %tid.x;\n"
                             "  setp.ge.u32 %p1, %r1, 16;\n"
                             "  @%p1 bra SKIP;\n"
                             "  bar.sync 0;\n"
                             "SKIP:\n"
                             "  add.u32 %r1, %r1, 1;\n"
                             "  ret;\n}\n";
    locsim_module *m;
    locsim_kernel *k;
    assert_int_equal(locsim_module_load_ptx(f->dev, ptx, strlen(ptx), "divbar.ptx", &m), LOCSIM_OK);
    assert_int_equal(locsim_module_get_kernel(m, "divbar", &k), LOCSIM_OK);
    locsim_status st = locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){64, 1, 1}, 0, NULL, 0);
    assert_int_equal(st, LOCSIM_ERR_DEADLOCK);
    assert_non_null(strstr(locsim_last_error(f->dev), "arrier"));
    locsim_module_unload(m);
}

/* The common `if (i >= n) return; ... __syncthreads();` shape: lanes that return
 * early have left, so the rest of the warp meets the barrier alone, legally. */
static void test_barrier_after_early_return(void **state) {
    fixture *f = *state;
    static const char *ptx = HEADER ".visible .entry early(.param .u64 out)\n{\n"
                             "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
                             "  ld.param.u64 %rd1, [out];\n"
                             "  mov.u32 %r1, %tid.x;\n"
                             "  setp.ge.u32 %p1, %r1, 40;\n"
                             "  @%p1 bra DONE;\n"
                             "  bar.sync 0;\n"
                             "  mul.wide.u32 %rd2, %r1, 4;\n"
                             "  add.s64 %rd3, %rd1, %rd2;\n"
                             "  st.global.u32 [%rd3], %r1;\n"
                             "DONE:\n"
                             "  ret;\n}\n";
    locsim_module *m;
    locsim_kernel *k;
    assert_int_equal(locsim_module_load_ptx(f->dev, ptx, strlen(ptx), "early.ptx", &m), LOCSIM_OK);
    assert_int_equal(locsim_module_get_kernel(m, "early", &k), LOCSIM_OK);
    locsim_dptr d;
    assert_int_equal(locsim_malloc(f->dev, &d, 64 * 4), LOCSIM_OK);
    assert_int_equal(locsim_memset(f->dev, d, 0xff, 64 * 4), LOCSIM_OK);
    void *args[] = {&d};
    /* 64 threads: warp 1 splits at lane 8 (thread 40) */
    locsim_status st = locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){64, 1, 1}, 0, args, 1);
    if (st != LOCSIM_OK) fail_msg("%s", locsim_last_error(f->dev));
    uint32_t out[64];
    assert_int_equal(locsim_memcpy_dtoh(f->dev, out, d, sizeof out), LOCSIM_OK);
    for (uint32_t i = 0; i < 64; i++) assert_int_equal(out[i], i < 40 ? i : 0xffffffffu);
    locsim_free(f->dev, d);
    locsim_module_unload(m);
}

/* Shared memory is laid out per kernel: two kernels with 30 KB arrays each use
 * 30 KB, not 60 (both must launch under the 48 KB limit), and dynamic shared
 * memory starts after the static part of the kernel that names it. */
static void test_shared_memory_is_per_kernel(void **state) {
    fixture *f = *state;
    static const char *ptx = HEADER
        ".shared .align 4 .b8 big_a[30720];\n"
        ".shared .align 4 .b8 big_b[30720];\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".visible .entry ka(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, big_a;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
        ".visible .entry kb(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, big_b;\n  mov.u32 %r2, dyn;\n"
        "  st.global.v2.u32 [%rd1], {%r1, %r2};\n  ret;\n}\n";
    locsim_module *m;
    locsim_kernel *ka, *kb;
    assert_int_equal(locsim_module_load_ptx(f->dev, ptx, strlen(ptx), "smem.ptx", &m), LOCSIM_OK);
    assert_int_equal(locsim_module_get_kernel(m, "ka", &ka), LOCSIM_OK);
    assert_int_equal(locsim_module_get_kernel(m, "kb", &kb), LOCSIM_OK);
    locsim_kernel_info ia, ib;
    assert_int_equal(locsim_kernel_get_info(ka, &ia), LOCSIM_OK);
    assert_int_equal(locsim_kernel_get_info(kb, &ib), LOCSIM_OK);
    assert_int_equal(ia.static_smem_bytes, 30720);
    assert_int_equal(ib.static_smem_bytes, 30720);
    locsim_dptr d;
    assert_int_equal(locsim_malloc(f->dev, &d, 8), LOCSIM_OK);
    void *args[] = {&d};
    assert_int_equal(locsim_launch(ka, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 0, args, 1), LOCSIM_OK);
    uint32_t got[2];
    assert_int_equal(locsim_memcpy_dtoh(f->dev, got, d, 4), LOCSIM_OK);
    assert_int_equal(got[0], 0); /* big_a is ka's only array: offset 0 */
    assert_int_equal(locsim_launch(kb, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 1024, args, 1), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_dtoh(f->dev, got, d, 8), LOCSIM_OK);
    assert_int_equal(got[0], 0);     /* big_b is kb's only static array */
    assert_int_equal(got[1], 30720); /* dynamic memory after it (16-byte aligned) */
    /* 30 KB static + 20 KB dynamic exceeds 48 KB: refused */
    assert_int_equal(locsim_launch(kb, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 20480, args, 1),
                     LOCSIM_ERR_LAUNCH);
    locsim_free(f->dev, d);
    locsim_module_unload(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_computes_with_symbols),
        cmocka_unit_test(test_initialised_global_variable),
        cmocka_unit_test(test_bad_host_calls),
        cmocka_unit_test(test_out_of_bounds_read_is_reported),
        cmocka_unit_test(test_malformed_ptx_names_file_and_line),
        cmocka_unit_test(test_divergent_barrier_is_reported),
        cmocka_unit_test(test_barrier_after_early_return),
        cmocka_unit_test(test_shared_memory_is_per_kernel),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
