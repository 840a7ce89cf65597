/* Out-of-bounds global accesses with memcheck off (the default) and on (issue 9,
 * item 3; docs/memcheck.md).
 *
 * Layout the expected values rest on (devmem.c): the heap starts at 0x100000000,
 * allocations are 256-byte aligned and padded to 256 bytes, and memory is mapped
 * in 2 MiB granules that hold a byte of a live allocation.  So with
 *   a = malloc(100)  -> 0x100000000 (bytes 100..255 are padding)
 *   b = malloc(256)  -> 0x100000100
 * a read of a+128 is outside every allocation but inside the mapped granule
 * [0x100000000, 0x100200000); a read of a-16 (0xfffffff0) is in the driver's region
 * below the heap (the 16 MiB [0xff000000, 0x100000000), mapped as on a GPU); a read
 * of a - 16 MiB - 16 (0xfefffff0) is below that, where nothing is mapped; a read of
 * a+3 MiB is in the next granule, empty. */
#include "test_exec_util.h"

static const char *oob_ptx = XT_HEADER
    ".visible .entry rd(.param .u64 p, .param .u64 out, .param .u64 off)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  ld.param.u64 %rd3, [off];\n"
    "  add.u64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r1, [%rd4];\n"          /* every lane reads the same word */
    "  mov.u32 %r2, %tid.x;\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n"
    "  add.u64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r1;\n"
    "  ret;\n"
    "}\n";

typedef struct {
    xt t;
    locsim_dptr a, b;
} oob_fix;

static void oob_open(oob_fix *f, int memcheck) {
    f->t = xt_open(oob_ptx, "oob.ptx");
    locsim_set_memcheck(f->t.dev, memcheck);
    assert_int_equal(locsim_malloc(f->t.dev, &f->a, 100), LOCSIM_OK);
    f->b = xt_buf(&f->t, NULL, 256);
    assert_int_equal(f->a, 0x100000000ull);
    assert_int_equal(f->b, 0x100000100ull);
    uint32_t seven[25];
    for (int i = 0; i < 25; i++) seven[i] = 7;
    assert_int_equal(locsim_memcpy_htod(f->t.dev, f->a, seven, sizeof seven), LOCSIM_OK);
}

static locsim_status oob_read(oob_fix *f, int64_t off) {
    void *args[] = {&f->a, &f->b, &off};
    return xt_launch(&f->t, "rd", 1, 32, args, 3);
}

static void test_mapped_read_runs_and_counts(void **state) {
    (void)state;
    oob_fix f;
    oob_open(&f, 0);
    locsim_counters c;
    assert_int_equal(oob_read(&f, 4), LOCSIM_OK); /* in bounds: a[1] = 7 */
    locsim_get_counters(f.t.dev, &c);
    assert_int_equal(c.oob_accesses, 0);
    uint32_t r[32];
    xt_get(&f.t, r, f.b, sizeof r);
    assert_int_equal(r[31], 7);
    /* a+128: padding of a, never written: reads 0; 32 lanes -> 32 accesses */
    assert_int_equal(oob_read(&f, 128), LOCSIM_OK);
    xt_get(&f.t, r, f.b, sizeof r);
    for (int l = 0; l < 32; l++) assert_int_equal(r[l], 0);
    locsim_get_counters(f.t.dev, &c);
    assert_int_equal(c.oob_accesses, 32);
    /* a + 2 MiB - 4: last word of the granule, still mapped: 32 more */
    assert_int_equal(oob_read(&f, (2 << 20) - 4), LOCSIM_OK);
    locsim_get_counters(f.t.dev, &c);
    assert_int_equal(c.oob_accesses, 64);
    /* a-16: the driver's region below the heap, mapped, never written: reads 0 */
    assert_int_equal(oob_read(&f, -16), LOCSIM_OK);
    xt_get(&f.t, r, f.b, sizeof r);
    for (int l = 0; l < 32; l++) assert_int_equal(r[l], 0);
    locsim_get_counters(f.t.dev, &c);
    assert_int_equal(c.oob_accesses, 96);
    xt_close(&f.t);
}

static void test_unmapped_read_is_illegal_address(void **state) {
    (void)state;
    oob_fix f;
    oob_open(&f, 0);
    /* below the driver's region under the heap */
    assert_int_equal(oob_read(&f, -(16 << 20) - 16), LOCSIM_ERR_KERNEL_FAULT);
    const char *msg = locsim_last_error(f.t.dev);
    xt_assert_contains(msg, "Address 0xfefffff0 is out of bounds and not in mapped device memory");
    assert_int_equal(oob_read(&f, 3 << 20), LOCSIM_ERR_KERNEL_FAULT); /* next granule: empty */
    xt_assert_contains(locsim_last_error(f.t.dev), "Address 0x100300000 is out of bounds and not in mapped");
    locsim_counters c;
    locsim_get_counters(f.t.dev, &c);
    assert_int_equal(c.oob_accesses, 0);
    xt_close(&f.t);
}

/* Freeing a keeps its granule mapped while another live allocation is in it. */
static void test_mapping_follows_live_allocations(void **state) {
    (void)state;
    oob_fix f;
    oob_open(&f, 0);
    locsim_dptr c2;
    assert_int_equal(locsim_malloc(f.t.dev, &c2, 4096), LOCSIM_OK); /* 0x100000200: the output now */
    f.b = c2;
    assert_int_equal(oob_read(&f, 128), LOCSIM_OK);
    assert_int_equal(locsim_free(f.t.dev, f.a), LOCSIM_OK);
    /* a is gone, c2 is still in the granule: a+128 stays mapped */
    assert_int_equal(oob_read(&f, 128), LOCSIM_OK);
    xt_close(&f.t);
}

static void test_memcheck_stops_at_first(void **state) {
    (void)state;
    oob_fix f;
    oob_open(&f, 1);
    assert_int_equal(oob_read(&f, 128), LOCSIM_ERR_KERNEL_FAULT);
    const char *msg = locsim_last_error(f.t.dev);
    xt_assert_contains(msg, "========= Invalid __global__ read of size 4 bytes");
    xt_assert_contains(msg, "by thread (0,0,0) in block (0,0,0)");
    xt_assert_contains(msg, "Address 0x100000080 is out of bounds");
    locsim_counters c;
    locsim_get_counters(f.t.dev, &c);
    assert_int_equal(c.oob_accesses, 0);
    xt_close(&f.t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapped_read_runs_and_counts),
        cmocka_unit_test(test_unmapped_read_is_illegal_address),
        cmocka_unit_test(test_mapping_follows_live_allocations),
        cmocka_unit_test(test_memcheck_stops_at_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
