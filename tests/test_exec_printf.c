/* Executor: device printf (vprintf), captured through a temporary file. */
#include "test_exec_util.h"

/* Everything the stream received, NUL-terminated (caller frees). */
static char *slurp(FILE *f) {
    fflush(f);
    long n = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)n + 1, 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    return buf;
}

/* tests/exec_cu/printf.cu, as nvcc 13 compiles it: conversions with flags, widths,
 * precisions and length modifiers, arguments packed in the local depot. */
static void test_nvcc_printf_conversions(void **state) {
    (void)state;
    char *ptx = xt_read_source("tests/exec_cu/printf.ptx");
    xt t = xt_open(ptx, "printf.ptx");
    free(ptx);
    FILE *f = tmpfile();
    assert_non_null(f);
    locsim_set_printf_stream(t.dev, f);
    int32_t n = -7;
    double x = 1.5;
    void *args[] = {&n, &x};
    xt_run(&t, "hello", 1, 32, args, 2);
    char *got = slurp(f);
    /* lanes 0..2 print in lane order; x*t = 0, 1.5, 3 with %5.2f; t << 40 as %lld;
     * 255+t in hex and 8+t in octal; then lane 0's second line and lane 31's third */
    static const char *want =
        "t=0 n=-7 u=0 x= 0.00 e=1.500e+00 g=1.5 c=a s=str ll=0 hex=ff/FF oct=10 p%\n"
        "t=1 n=-7 u=1000000000 x= 1.50 e=1.500e+00 g=1.5 c=b s=str ll=1099511627776 hex=100/100 oct=11 p%\n"
        "t=2 n=-7 u=2000000000 x= 3.00 e=1.500e+00 g=1.5 c=c s=str ll=2199023255552 hex=101/101 oct=12 p%\n"
        "42   |00042|+42|end|18446744073709551615|     abc|\n"
        "no args\n";
    if (strcmp(got, want) != 0) fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
    assert_string_equal(got, want);
    free(got);
    fclose(f);
    xt_close(&t);
}

/* vprintf called by hand: it returns the number of arguments parsed, -1 for a NULL
 * format (as CUDA's printf does). */
static const char *ret_ptx = XT_HEADER
    ".global .align 1 .b8 fmt[7] = {37, 100, 32, 37, 100, 10, 0};\n" /* "%d %d\n" */
    ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
    ".visible .entry pr(.param .u64 out)\n"
    "{\n"
    "  .local .align 8 .b8 depot[8];\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u64 %rd2, depot;\n"
    "  cvta.local.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 7;\n"
    "  st.local.v2.u32 [%rd2], {%r1, %r2};\n"
    "  mov.u64 %rd4, fmt;\n"
    "  cvta.global.u64 %rd5, %rd4;\n"
    "  {\n"
    "  .param .b64 param0;\n  st.param.b64 [param0], %rd5;\n"
    "  .param .b64 param1;\n  st.param.b64 [param1], %rd3;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), vprintf, (param0, param1);\n"
    "  ld.param.b32 %r3, [retval0];\n"
    "  }\n"
    "  mov.u64 %rd6, 0;\n"
    "  {\n"
    "  .param .b64 param0;\n  st.param.b64 [param0], %rd6;\n"
    "  .param .b64 param1;\n  st.param.b64 [param1], %rd6;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), vprintf, (param0, param1);\n"
    "  ld.param.b32 %r4, [retval0];\n"
    "  }\n"
    "  mul.wide.u32 %rd7, %r1, 8;\n"
    "  add.s64 %rd8, %rd1, %rd7;\n"
    "  st.global.v2.u32 [%rd8], {%r3, %r4};\n"
    "  ret;\n"
    "}\n";

static void test_vprintf_return_value(void **state) {
    (void)state;
    xt t = xt_open(ret_ptx, "pr.ptx");
    FILE *f = tmpfile();
    assert_non_null(f);
    locsim_set_printf_stream(t.dev, f);
    locsim_dptr out = xt_buf(&t, NULL, 2 * 8);
    void *args[] = {&out};
    xt_run(&t, "pr", 1, 2, args, 1);
    int32_t r[2][2];
    xt_get(&t, r, out, sizeof r);
    for (int l = 0; l < 2; l++) {
        assert_int_equal(r[l][0], 2);  /* two arguments parsed */
        assert_int_equal(r[l][1], -1); /* NULL format */
    }
    char *got = slurp(f);
    assert_string_equal(got, "0 7\n1 7\n");
    free(got);
    fclose(f);
    xt_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvcc_printf_conversions),
        cmocka_unit_test(test_vprintf_return_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
