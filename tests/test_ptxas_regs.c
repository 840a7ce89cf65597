/* Registers per thread from ptxas's listing (src/runtime/ptxas_info.c), as
 * GPGPU-Sim takes them: the parser on hand-written listings, and a timing run
 * whose occupancy charges the listing's count (the liveness estimate from the
 * PTX only when no listing was given, and then counted as such). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/runtime.h"
#include "timing_util.h"

typedef struct {
    char names[4][32];
    uint32_t regs[4];
    int n;
} seen;

static int record(void *ctx, const char *name, size_t len, uint32_t regs) {
    seen *s = ctx;
    if (!strncmp(name, "nosuch", len)) return -1;
    snprintf(s->names[s->n], sizeof s->names[s->n], "%.*s", (int)len, name);
    s->regs[s->n++] = regs;
    return 0;
}

/* ptxas 13.0's listing of workloads/bfs/kernel.ptx for sm_75, as tools/gen-ptx.sh
 * records it: two entries, 7 and 20 registers. */
static const char bfs_listing[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'bfs_update' for 'sm_75'\n"
    "ptxas info    : Function properties for bfs_update\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 7 registers, used 0 barriers, 388 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'bfs_expand' for 'sm_75'\n"
    "ptxas info    : Function properties for bfs_expand\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 20 registers, used 0 barriers, 404 bytes cmem[0]\n";

static void test_listing_gives_each_entry_its_count(void **state) {
    (void)state;
    seen s = {0};
    char err[256] = "";
    assert_int_equal(ptxas_listing_parse(bfs_listing, strlen(bfs_listing), "bfs.ptxas", record, &s, err, sizeof err), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.names[0], "bfs_update");
    assert_int_equal(s.regs[0], 7);
    assert_string_equal(s.names[1], "bfs_expand");
    assert_int_equal(s.regs[1], 20);
}

/* Bad listings name file:line and what was expected. */
static void test_bad_listings_name_the_line(void **state) {
    (void)state;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"ptxas info    : Compiling entry function 'k' for 'sm_75'\nptxas info    : Used many registers\n",
         "x.ptxas:2: expected \"Used N registers\""},
        {"ptxas info    : 0 bytes gmem\nptxas info    : Used 12 registers, used 0 barriers\n",
         "x.ptxas:2: a register count before any \"Compiling entry function\" line"},
        {"ptxas info    : Compiling entry function '' for 'sm_75'\n",
         "x.ptxas:1: expected 'NAME' after \"Compiling entry function\""},
        {"ptxas info    : Compiling entry function 'nosuch' for 'sm_75'\n\nptxas info    : Used 3 registers\n",
         "x.ptxas:3: no kernel 'nosuch' in the module"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        seen s = {0};
        char err[256] = "";
        assert_int_equal(ptxas_listing_parse(bad[i].text, strlen(bad[i].text), "x.ptxas", record, &s, err, sizeof err),
                         -1);
        assert_string_equal(err, bad[i].msg);
    }
}

/* One store per thread: the liveness estimate is a handful of registers. */
static const char *const store_ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry store(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

/* The listing says 40: occupancy charges 40 registers per thread and the launch is
 * not an estimate.  Without it the estimate (at most the 8 declared registers:
 * 4 + 4) is charged and counted in gpu_kernel_regs_estimated.  A listing naming a
 * kernel the module lacks is refused.  With the listing and -gpgpu_ptxas_registers 0
 * (the ablation's switch) the estimate is charged again, as without it. */
static void test_timing_charges_the_listing(void **state) {
    (void)state;
    for (int mode = 0; mode <= 2; mode++) {
        int with = mode >= 1, use = mode == 1;
        const char *off[] = {"-gpgpu_ptxas_registers", "0", NULL};
        tdev t;
        tdev_open(&t, "ccws_gtx285", mode == 2 ? off : NULL);
        locsim_kernel *k = tdev_kernel(&t, store_ptx, "store");
        if (with) {
            static const char listing[] = "ptxas info    : Compiling entry function 'store' for 'sm_75'\n"
                                          "ptxas info    : Used 40 registers, used 0 barriers\n";
            assert_int_equal(locsim_module_set_ptxas_listing(t.mod, listing, strlen(listing), "store.ptxas"),
                             LOCSIM_OK);
            static const char other[] = "ptxas info    : Compiling entry function 'load' for 'sm_75'\n"
                                        "ptxas info    : Used 9 registers\n";
            assert_int_equal(locsim_module_set_ptxas_listing(t.mod, other, strlen(other), "other.ptxas"),
                             LOCSIM_ERR_PARSE);
            assert_non_null(strstr(locsim_last_error(t.dev), "other.ptxas:2: no kernel 'load'"));
        }
        locsim_dptr out = tdev_alloc(&t, NULL, 256 * 4);
        void *args[] = {&out};
        tdev_launch(&t, k, 1, 256, args, 1);
        double regs = tdev_stat(&t, "gpu_kernel_regs_per_thread", 0);
        if (use) {
            assert_true(regs == 40);
            assert_true(tdev_stat(&t, "gpu_kernel_regs_estimated", 0) == 0);
        } else {
            assert_true(regs >= 1 && regs <= 8);
            assert_true(tdev_stat(&t, "gpu_kernel_regs_estimated", 0) == 1);
        }
        tdev_close(&t);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listing_gives_each_entry_its_count),
        cmocka_unit_test(test_bad_listings_name_the_line),
        cmocka_unit_test(test_timing_charges_the_listing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
