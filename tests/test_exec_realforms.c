/* PTX forms seen in real third-party files (issue 9, item 6): each was checked
 * against ptxas 13 (`ptxas -arch=sm_75 file.ptx`) before being accepted here, and
 * each is run, not only parsed:
 *   - single-element vector data operands:  ld.global.u32 {%r2}, [...]
 *   - identifiers longer than 1024 characters (a CUTLASS name has 1,494)
 *   - register ranges above 65,536:         .reg .b32 %r<70000>
 *   - calls with more than 2 return values (.reg return parameters)
 *   - WARP_SZ (PTX's predefined integer constant, 32)
 *   - generic access to a .shared variable by name: ld.u32 %r, [sm+4]
 * and the one form ptxas refuses that locsim used to accept: st.const
 * ("State space incorrect for instruction 'st'"). */
#include "test_exec_util.h"

static const char *forms_ptx = XT_HEADER
    ".shared .align 4 .b32 sm[8];\n"
    ".func (.reg .b32 a, .reg .b32 b, .reg .b32 c) three(.reg .b32 x)\n"
    "{\n"
    "  mov.b32 a, x;\n"
    "  add.s32 b, x, 1;\n"
    "  mul.lo.s32 c, x, 3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry forms(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<70000>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.global.u32 [%rd1], 41;\n"
    "  ld.global.u32 {%r2}, [%rd1];\n"         /* 41 */
    "  add.u32 %r2, %r2, 1;\n"                 /* 42 */
    "  st.global.u32 [%rd1], { %r2 };\n"       /* out[0] = 42 */
    "  mov.u32 %r3, WARP_SZ;\n"                /* 32 */
    "  add.u32 %r4, %r3, WARP_SZ;\n"           /* 64 */
    "  st.global.u32 [%rd1+4], %r3;\n  st.global.u32 [%rd1+8], %r4;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  st.shared.u32 [sm+4], 7;\n"
    "  ld.u32 %r6, [sm+4];\n"                  /* generic by name: 7 */
    "  st.u32 [sm+8], 9;\n"                    /* generic store by name */
    "  atom.add.u32 %r7, [sm+8], 1;\n"         /* returns 9, sm[2] = 10 */
    "  ld.shared.u32 %r8, [sm+8];\n"           /* 10 */
    "  st.global.u32 [%rd1+12], %r6;\n  st.global.u32 [%rd1+16], %r7;\n"
    "  st.global.u32 [%rd1+20], %r8;\n"
    "  mov.u32 %r69999, 5;\n"                  /* the last register of the range */
    "  call (%r9, %r10, %r11), three, (%r69999);\n" /* 5, 6, 15 */
    "  st.global.v2.u32 [%rd1+24], {%r9, %r10};\n"
    "  st.global.u32 [%rd1+32], %r11;\n"
    "  ret;\n"
    "}\n";

static void test_real_forms_run(void **state) {
    (void)state;
    xt t = xt_open(forms_ptx, "forms.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 36);
    void *args[] = {&out};
    xt_run(&t, "forms", 1, 1, args, 1);
    uint32_t r[9];
    xt_get(&t, r, out, sizeof r);
    assert_int_equal(r[0], 42);
    assert_int_equal(r[1], 32);
    assert_int_equal(r[2], 64);
    assert_int_equal(r[3], 7);
    assert_int_equal(r[4], 9);
    assert_int_equal(r[5], 10);
    assert_int_equal(r[6], 5);
    assert_int_equal(r[7], 6);
    assert_int_equal(r[8], 15);
    xt_close(&t);
}

/* A kernel whose (mangled-looking) name and parameter name are 1,494 characters. */
static void test_long_identifier(void **state) {
    (void)state;
    enum { N = 1494 };
    char *name = malloc(N + 1);
    assert_non_null(name);
    name[0] = '_', name[1] = 'Z';
    for (int i = 2; i < N; i++) name[i] = (char)('a' + i % 26);
    name[N] = 0;
    size_t cap = 4 * N + 512;
    char *ptx = malloc(cap);
    assert_non_null(ptx);
    snprintf(ptx, cap,
             XT_HEADER ".visible .entry %s(.param .u64 %s_param_0)\n{\n  .reg .b64 %%rd<2>;\n"
                       "  ld.param.u64 %%rd1, [%s_param_0];\n  st.global.u32 [%%rd1], 1494;\n  ret;\n}\n",
             name, name, name);
    xt t = xt_open(ptx, "long.ptx");
    locsim_dptr out = xt_buf(&t, NULL, 4);
    void *args[] = {&out};
    locsim_kernel *k;
    assert_int_equal(locsim_module_get_kernel(t.mod, name, &k), LOCSIM_OK);
    assert_int_equal(locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){1, 1, 1}, 0, args, 1), LOCSIM_OK);
    uint32_t r;
    xt_get(&t, &r, out, 4);
    assert_int_equal(r, 1494);
    xt_close(&t);
    free(ptx);
    free(name);
}

/* Forms ptxas refuses are refused here too, with file:line:col. */
static void expect_load_error(const char *body, const char *want) {
    char src[2048];
    snprintf(src, sizeof src,
             XT_HEADER ".const .align 4 .b32 cv[4];\n.shared .align 4 .b32 sm[4];\n"
                       ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<4>;\n  .reg .f32 %%f<4>;\n  %s\n"
                       "  ret;\n}\n",
             body);
    locsim_device *dev;
    assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
    locsim_module *mod;
    locsim_status st = locsim_module_load_ptx(dev, src, strlen(src), "bad.ptx", &mod);
    assert_int_not_equal(st, LOCSIM_OK);
    const char *msg = locsim_last_error(dev);
    xt_assert_contains(msg, "bad.ptx:10:");
    xt_assert_contains(msg, want);
    locsim_device_destroy(dev);
}

static void test_ptxas_refusals(void **state) {
    (void)state;
    expect_load_error("st.const.u32 [cv], 1;", "cannot write the read-only .const space");
    /* ptxas: "State space mismatch between instruction and address" */
    expect_load_error("ld.u32 %r1, [cv+4];", "generic access to .const variable 'cv'");
    /* ptxas: "Vector operand is not allowed for instruction 'add'" */
    expect_load_error("add.u32 %r1, {%r2}, 1;", "unexpected vector operand");
    /* ptxas: "Argument vector size mismatch for instruction 'st'" */
    expect_load_error("st.shared.v2.u32 [sm], {%r1};", "vector operand has 1 elements");
    /* ptxas: "Arguments mismatch for instruction 'mov'" */
    expect_load_error("mov.f32 %f1, WARP_SZ;", "WARP_SZ is an integer constant");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_forms_run),
        cmocka_unit_test(test_long_identifier),
        cmocka_unit_test(test_ptxas_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
