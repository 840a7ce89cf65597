/* Executor: every kind of kernel fault is reported clearly (compute-sanitizer
 * wording: kind of access, size, kernel and PC, thread, block, address) and ends
 * the launch with the right status -- never a crash or a hang. */
#include "test_exec_util.h"

#include "exec/exec.h"
#include "ptx/ir.h"
#include "runtime/devmem.h"

/* Each kernel takes (in, n) and misbehaves for threads t >= n. */
static const char *faults_ptx = XT_HEADER
    ".shared .align 4 .b8 sm[64];\n"
    ".extern .func (.param .b32 r) mystery(.param .b32 a);\n"
    ".visible .entry oob_read(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r5, [%rd3];\n"
    "  ret;\n"
    "}\n"
    ".visible .entry oob_write(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry misaligned(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.global.u32 %r1, [%rd1+2];\n"
    "  ret;\n"
    "}\n"
    ".visible .entry shared_read(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, sm;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  ld.shared.u32 %r5, [%r4];\n"   /* sm holds 16 words: thread 16 reads past it */
    "  ret;\n"
    "}\n"
    ".visible .entry shared_write_generic(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u64 %rd1, sm;\n"
    "  cvta.shared.u64 %rd2, %rd1;\n"
    "  st.u32 [%rd2+100], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry local_read(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .local .align 4 .b8 depot[16];\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u64 %rd1, depot;\n"
    "  ld.local.u32 %r1, [%rd1+1048576];\n"
    "  ret;\n"
    "}\n"
    ".visible .entry atomic_oob(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  atom.global.add.u32 %r1, [%rd1+4096], 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry trapper(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 5;\n"
    "  @%p1 trap;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry extern_call(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  {\n"
    "  .param .b32 p0;\n"
    "  st.param.b32 [p0], %r1;\n"
    "  .param .b32 r0;\n"
    "  call.uni (r0), mystery, (p0);\n"
    "  ld.param.b32 %r2, [r0];\n"
    "  }\n"
    "  ret;\n"
    "}\n"
    ".visible .entry divergent_bar(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 8;\n"
    "  @%p1 bra SKIP;\n"
    "  bar.sync 0;\n"
    "SKIP:\n"   /* the skipping lanes still have work: they must be waited for */
    "  add.u32 %r2, %r1, 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry warp_sync_mask(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  bar.warp.sync 0x7fffffff;\n" /* lane 31 executes but is not in the mask */
    "  ret;\n"
    "}\n"
    ".visible .entry count_deadlock(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  bar.sync 1, 64;\n"  /* only 32 threads exist */
    "  ret;\n"
    "}\n"
    ".visible .entry crossed_barriers(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra W0;\n"
    "  bar.sync 2, 64;\n"
    "  bra.uni END;\n"
    "W0:\n"
    "  bar.sync 1, 64;\n"
    "END:\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 r) forever(.param .b32 n)\n"
    "{\n"
    "  .local .align 8 .b8 pad[256];\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.b32 %r1, [n];\n"
    "  mov.u64 %rd1, pad;\n"
    "  st.local.u32 [%rd1], %r1;\n"
    "  add.s32 %r2, %r1, 1;\n"
    "  {\n"
    "  .param .b32 p0;\n"
    "  st.param.b32 [p0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call.uni (r0), forever, (p0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  st.param.b32 [r], %r3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry recurse_forever(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, 0;\n"
    "  {\n"
    "  .param .b32 p0;\n"
    "  st.param.b32 [p0], %r1;\n"
    "  .param .b32 r0;\n"
    "  call.uni (r0), forever, (p0);\n"
    "  ld.param.b32 %r2, [r0];\n"
    "  }\n"
    "  ret;\n"
    "}\n";

typedef struct {
    xt t;
    locsim_dptr in;
} fault_fixture;

static int setup(void **state) {
    static fault_fixture f;
    f.t = xt_open(faults_ptx, "faults.ptx");
    f.in = xt_buf(&f.t, NULL, 40 * 4); /* 40 words */
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    fault_fixture *f = *state;
    xt_close(&f->t);
    return 0;
}

static const char *launch_bad(fault_fixture *f, const char *kernel, locsim_dim3 block, locsim_status want) {
    uint32_t n = 40;
    void *args[] = {&f->in, &n};
    locsim_status st = xt_launch3(&f->t, kernel, (locsim_dim3){2, 1, 1}, block, args, 2);
    const char *msg = locsim_last_error(f->t.dev);
    if (st != want) fprintf(stderr, "%s: status %d, want %d: %s\n", kernel, st, want, msg);
    assert_int_equal(st, want);
    return msg;
}

/* Block (16,4): thread (8,2,0) is linear thread 40, the first past the 40 words. */
static void test_global_read_out_of_bounds(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "oob_read", (locsim_dim3){16, 4, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __global__ read of size 4 bytes");
    xt_assert_contains(msg, "at oob_read+PC 7 (line");
    xt_assert_contains(msg, "of faults.ptx)");
    xt_assert_contains(msg, "by thread (8,2,0) in block (0,0,0)");
    char addr[64];
    snprintf(addr, sizeof addr, "Address 0x%llx is out of bounds", (unsigned long long)(f->in + 160));
    xt_assert_contains(msg, addr);
}

static void test_global_write_out_of_bounds(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "oob_write", (locsim_dim3){64, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __global__ write of size 4 bytes");
    xt_assert_contains(msg, "by thread (40,0,0) in block (0,0,0)");
}

static void test_misaligned_access(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "misaligned", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __global__ read of size 4 bytes");
    char addr[64];
    snprintf(addr, sizeof addr, "Address 0x%llx is misaligned", (unsigned long long)(f->in + 2));
    xt_assert_contains(msg, addr);
}

static void test_shared_out_of_bounds(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "shared_read", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __shared__ read of size 4 bytes");
    xt_assert_contains(msg, "by thread (16,0,0)");
    xt_assert_contains(msg, "Address 0x40 is out of bounds"); /* 16 words = 64 bytes */
    msg = launch_bad(f, "shared_write_generic", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __shared__ write of size 4 bytes");
    xt_assert_contains(msg, "by thread (0,0,0)");
    xt_assert_contains(msg, "Address 0x64 is out of bounds"); /* offset 100 */
}

static void test_local_out_of_bounds(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "local_read", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __local__ read of size 4 bytes");
    xt_assert_contains(msg, "Address 0x100000 is out of bounds");
}

static void test_atomic_out_of_bounds(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "atomic_oob", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Invalid __global__ atomic of size 4 bytes");
}

static void test_trap(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "trapper", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "trap instruction executed");
    xt_assert_contains(msg, "by thread (5,0,0) in block (0,0,0)");
}

static void test_unsupported_extern_function(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "extern_call", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_UNSUPPORTED);
    xt_assert_contains(msg, "unsupported external function 'mystery'");
}

static void test_divergent_barrier(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "divergent_bar", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_DEADLOCK);
    xt_assert_contains(msg, "Barrier error detected. Divergent thread(s) in warp");
    /* lanes 8..31 arrived; lane 0 is the first that did not */
    xt_assert_contains(msg, "by thread (0,0,0) in block (0,0,0)");
}

static void test_warp_sync_mask(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "warp_sync_mask", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "bar.warp.sync executed by lane 31, which is not in its membermask 0x7fffffff");
}

static void test_barrier_deadlocks(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "count_deadlock", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_DEADLOCK);
    xt_assert_contains(msg, "Barrier deadlock in kernel count_deadlock, block (0,0,0)");
    xt_assert_contains(msg, "barrier 1 (64 threads expected, 32 arrived)");
    msg = launch_bad(f, "crossed_barriers", (locsim_dim3){64, 1, 1}, LOCSIM_ERR_DEADLOCK);
    xt_assert_contains(msg, "barrier 1 (64 threads expected, 32 arrived)");
    xt_assert_contains(msg, "barrier 2 (64 threads expected, 32 arrived)");
}

static void test_stack_overflow(void **state) {
    fault_fixture *f = *state;
    const char *msg = launch_bad(f, "recurse_forever", (locsim_dim3){32, 1, 1}, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "Stack overflow");
    xt_assert_contains(msg, "forever");
}

/* The watchdog is a launch parameter: drive the executor directly with a small one. */
static void test_watchdog_stops_runaway_loop(void **state) {
    (void)state;
    static const char *ptx = XT_HEADER
        ".visible .entry spin()\n"
        "{\n"
        "  .reg .b32 %r<4>;\n"
        "  mov.u32 %r1, 0;\n"
        "LOOP:\n"
        "  add.s32 %r1, %r1, 1;\n"
        "  bra.uni LOOP;\n"
        "}\n";
    ptx_error err;
    ptx_module *m = ptx_parse(ptx, strlen(ptx), "spin.ptx", &err);
    if (!m) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(m);
    devmem *mem = devmem_create();
    assert_non_null(mem);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.mod = m;
    L.kernel = &m->funcs[ptx_find_function(m, "spin")];
    L.grid = (locsim_dim3){1, 1, 1};
    L.block = (locsim_dim3){64, 1, 1};
    L.mem = mem;
    L.smid_count = 1;
    L.watchdog_insns = 5000;
    exec_cta *cta = exec_cta_create(&L, 0, 0);
    assert_non_null(cta);
    uint64_t ti = 0, wi = 0;
    assert_int_equal(exec_cta_run(cta, &ti, &wi), LOCSIM_ERR_DEADLOCK);
    const exec_fault *fl = exec_cta_fault(cta);
    assert_non_null(fl);
    xt_assert_contains(fl->msg, "Watchdog");
    xt_assert_contains(fl->msg, "spin");
    assert_int_equal(wi, 5001); /* the instruction that crossed the limit is counted */
    exec_cta_destroy(cta);
    devmem_destroy(mem);
    ptx_module_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_read_out_of_bounds),
        cmocka_unit_test(test_global_write_out_of_bounds),
        cmocka_unit_test(test_misaligned_access),
        cmocka_unit_test(test_shared_out_of_bounds),
        cmocka_unit_test(test_local_out_of_bounds),
        cmocka_unit_test(test_atomic_out_of_bounds),
        cmocka_unit_test(test_trap),
        cmocka_unit_test(test_unsupported_extern_function),
        cmocka_unit_test(test_divergent_barrier),
        cmocka_unit_test(test_warp_sync_mask),
        cmocka_unit_test(test_barrier_deadlocks),
        cmocka_unit_test(test_stack_overflow),
        cmocka_unit_test(test_watchdog_stops_runaway_loop),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
