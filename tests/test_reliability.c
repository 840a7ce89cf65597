/* Issue 10 (reliability): configurations the model cannot represent are refused at
 * load time with the reason; a simulator resource deadlock is told apart from a
 * program's barrier deadlock; device memory is bounded by -device_memory_mb; a
 * kernel using an unsupported instruction fails at its own launch when the module
 * is loaded lazily, and the module's other kernels run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing_util.h"

static void config_refused(const char *const *ov, const char *expect) {
    int n = 0;
    while (ov[n]) n++;
    locsim_config *cfg = NULL;
    char err[1024] = "";
    assert_int_equal(locsim_config_load("fermi_gtx480", n, (char **)ov, &cfg, err, sizeof err), LOCSIM_ERR_CONFIG);
    assert_null(cfg);
    if (!strstr(err, expect)) fail_msg("message '%s' lacks '%s'", err, expect);
}

/* The two inputs that crashed (SIGSEGV in the L2), a clock ratio that made a 0.02 s
 * run endless, and more SMs than the model has, whose reason was dropped. */
static void test_config_time_checks(void **state) {
    (void)state;
    config_refused((const char *[]){"-gpgpu_cache:dl2", "N:64:64:8,L:B:m:W:L,A:32:4,4:0,32", NULL},
                   "-gpgpu_cache:dl1: its 128-byte lines are longer than the L2's 64-byte lines");
    config_refused((const char *[]){"-gpgpu_cache:dl1", "S:32:256:4,L:L:m:N:H,A:32:8,8", NULL},
                   "-gpgpu_cache:dl1: its 256-byte lines are longer than the L2's");
    config_refused((const char *[]){"-gpgpu_clock_domains", "700:700:700:0.001", NULL},
                   "the core clock (700 MHz) is 700000 times the DRAM clock (0.001 MHz)");
    config_refused((const char *[]){"-gpgpu_n_clusters", "1024", "-gpgpu_n_cores_per_cluster", "8", NULL},
                   "= 8192 SMs; locsim simulates at most 4096");
    /* the valid form of the first crash's geometry loads */
    locsim_config *cfg = NULL;
    char err[1024];
    const char *ok[] = {"-gpgpu_cache:dl1", "S:32:256:4,L:L:m:N:H,A:32:8,8", "-gpgpu_cache:dl2",
                        "N:64:256:8,L:B:m:W:L,A:32:4,4:0,32"};
    assert_int_equal(locsim_config_load("fermi_gtx480", 4, (char **)ok, &cfg, err, sizeof err), LOCSIM_OK);
    locsim_config_free(cfg);
}

static const char copy_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry copy(.param .u64 a)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [a];\n  cvta.to.global.u64 %rd1, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n  mad.lo.s32 %r1, %r2, 64, %r1;\n  mul.wide.u32 %rd2, %r1, 132;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r3, [%rd3];\n  add.s32 %r3, %r3, 1;\n"
    "  st.global.u32 [%rd3], %r3;\n  ret;\n}\n"
    /* warp 0 waits at barrier 0, warp 1 at barrier 1: neither is ever complete */
    ".visible .entry half_barrier(.param .u64 a)\n{\n  .reg .b32 %r<2>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 32;\n  @%p1 bra ONE;\n  bar.sync 0;\n  ret;\n"
    "ONE:\n  bar.sync 1;\n  ret;\n}\n";

/* A barrier half the CTA never reaches is the program's error, and the message
 * says so (the simulator's own resource deadlock is tests/e2e/reliab_cli.sh). */
static void test_barrier_deadlock_message(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    locsim_kernel *k = tdev_kernel(&t, copy_ptx, "half_barrier");
    locsim_dptr a;
    assert_int_equal(locsim_malloc(t.dev, &a, 256), LOCSIM_OK);
    void *args[] = {&a};
    locsim_status st = locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){64, 1, 1}, 0, args, 1);
    const char *msg = locsim_last_error(t.dev);
    if (st == LOCSIM_OK || !strstr(msg, "barrier") || strstr(msg, "resource deadlock"))
        fail_msg("barrier deadlock (status %d) reported as: %s", st, msg);
    tdev_close(&t);
}

/* 64 MiB of device memory: 40 MiB fits, a second 40 MiB does not, and after the
 * free all 64 MiB are available again (sizes count whole 256-byte granules). */
static void test_device_memory_capacity(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", (const char *[]){"-device_memory_mb", "64", NULL});
    size_t free_b, total;
    locsim_mem_get_info(t.dev, &free_b, &total);
    assert_int_equal(total, 64u << 20);
    assert_int_equal(free_b, 64u << 20);
    locsim_dptr a, b = 0, c;
    assert_int_equal(locsim_malloc(t.dev, &a, 40u << 20), LOCSIM_OK);
    assert_int_equal(locsim_malloc(t.dev, &b, 40u << 20), LOCSIM_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(locsim_last_error(t.dev), "-device_memory_mb 64"));
    assert_int_equal(locsim_malloc(t.dev, &c, 1), LOCSIM_OK);  /* one granule */
    locsim_mem_get_info(t.dev, &free_b, &total);
    assert_int_equal(free_b, (24u << 20) - 256);
    assert_int_equal(locsim_free(t.dev, a), LOCSIM_OK);
    assert_int_equal(locsim_free(t.dev, c), LOCSIM_OK);
    locsim_mem_get_info(t.dev, &free_b, &total);
    assert_int_equal(free_b, 64u << 20);
    tdev_close(&t);
}

static const char lazy_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".func helper()\n{\n  pmevent 1;\n  ret;\n}\n"
    ".visible .entry bad(.param .u64 a)\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %envreg3;\n  ret;\n}\n"
    ".visible .entry calls_bad()\n{\n  call.uni helper, ();\n  ret;\n}\n"
    ".visible .entry good(.param .u64 a)\n{\n  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [a];\n  mov.u32 %r1, 5;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";

static void test_lazy_unsupported(void **state) {
    (void)state;
    locsim_device *dev;
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
    locsim_module *mod = NULL;
    /* strict loading (the default) refuses the module */
    assert_int_equal(locsim_module_load_ptx(dev, lazy_ptx, strlen(lazy_ptx), "lazy.ptx", &mod),
                     LOCSIM_ERR_UNSUPPORTED);
    assert_int_equal(locsim_module_load_ptx_ex(dev, lazy_ptx, strlen(lazy_ptx), "lazy.ptx",
                                               LOCSIM_LOAD_LAZY_UNSUPPORTED, &mod), LOCSIM_OK);
    locsim_dptr a;
    assert_int_equal(locsim_malloc(dev, &a, 256), LOCSIM_OK);
    void *args[] = {&a};
    locsim_kernel *k;
    locsim_dim3 one = {1, 1, 1}, warp = {32, 1, 1};
    assert_int_equal(locsim_module_get_kernel(mod, "bad", &k), LOCSIM_OK);
    assert_int_equal(locsim_launch(k, one, warp, 0, args, 1), LOCSIM_ERR_UNSUPPORTED);
    /* the unsupported special register is reported at its line and column */
    assert_non_null(strstr(locsim_last_error(dev), "lazy.ptx:12:16: unsupported special register '%envreg3'"));
    assert_int_equal(locsim_module_get_kernel(mod, "calls_bad", &k), LOCSIM_OK);
    assert_int_equal(locsim_launch(k, one, warp, 0, NULL, 0), LOCSIM_ERR_UNSUPPORTED);
    assert_non_null(strstr(locsim_last_error(dev), "lazy.ptx:6:3: pmevent is not supported"));
    assert_int_equal(locsim_module_get_kernel(mod, "good", &k), LOCSIM_OK);
    assert_int_equal(locsim_launch(k, one, warp, 0, args, 1), LOCSIM_OK);
    uint32_t v = 0;
    assert_int_equal(locsim_memcpy_dtoh(dev, &v, a, 4), LOCSIM_OK);
    assert_int_equal(v, 5);
    locsim_device_destroy(dev);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_time_checks),
        cmocka_unit_test(test_barrier_deadlock_message),
        cmocka_unit_test(test_device_memory_capacity),
        cmocka_unit_test(test_lazy_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
