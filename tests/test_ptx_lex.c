/* PTX tokenizer: every token kind, number syntax, positions and lexical errors. */
#include "ptx_test.h"

#include "ptx/lex.h"

/* Lex src expecting exactly one token before EOF. */
static token lex_one(const char *src)
{
    lexer lx;
    token t, end;
    lex_init(&lx, src, strlen(src));
    if (lex_next(&lx, &t) != 0)
        fail_msg("lex error on \"%s\": %s", src, lx.errmsg);
    if (lex_next(&lx, &end) != 0 || end.kind != TK_EOF)
        fail_msg("more than one token in \"%s\"", src);
    return t;
}

/* Lex src expecting a lexical error at line:col containing want. */
static void lex_fails(const char *src, uint32_t line, uint32_t col, const char *want)
{
    lexer lx;
    token t;
    lex_init(&lx, src, strlen(src));
    for (int i = 0; i < 100; i++) {
        if (lex_next(&lx, &t) != 0) {
            if (!strstr(lx.errmsg, want))
                fail_msg("expected \"%s\", got \"%s\"", want, lx.errmsg);
            assert_int_equal(lx.errline, line);
            assert_int_equal(lx.errcol, col);
            return;
        }
        if (t.kind == TK_EOF)
            break;
    }
    fail_msg("expected a lexical error in \"%s\"", src);
}

static void test_integers(void **state)
{
    (void)state;
    token t = lex_one("1234");
    assert_int_equal(t.kind, TK_INT);
    assert_int_equal(t.ival, 1234);
    assert_int_equal(lex_one("0x7fFF").ival, 0x7fff);
    assert_int_equal(lex_one("0XAB").ival, 0xab);
    assert_int_equal(lex_one("017").ival, 15);       /* octal */
    assert_int_equal(lex_one("0b1011").ival, 11);    /* binary */
    assert_int_equal(lex_one("0").ival, 0);
    t = lex_one("4294967295U");
    assert_int_equal(t.ival, 4294967295u);
    assert_int_equal(t.is_unsigned, 1);
    assert_true(lex_one("18446744073709551615").ival == UINT64_MAX);
    assert_true(lex_one("0xFFFFFFFFFFFFFFFF").ival == UINT64_MAX);
}

static void test_floats(void **state)
{
    (void)state;
    token t = lex_one("0f3F800000");
    assert_int_equal(t.kind, TK_FLOAT);
    assert_int_equal(t.fkind, FK_F32HEX);
    assert_int_equal(t.fbits, 0x3F800000u);
    t = lex_one("0dC000000000000001");
    assert_int_equal(t.fkind, FK_F64HEX);
    assert_true(t.fbits == 0xC000000000000001ull);
    t = lex_one("1.5");
    assert_int_equal(t.fkind, FK_DEC);
    assert_true(t.dval == 1.5);
    assert_true(lex_one("2.5e-3").dval == 2.5e-3);
    assert_true(lex_one("1e3").dval == 1000.0);
    assert_true(lex_one(".25").dval == 0.25);
    /* "9.0" is the .version number */
    t = lex_one("9.0");
    assert_int_equal(t.kind, TK_FLOAT);
    assert_int_equal(t.len, 3);
}

static void test_names(void **state)
{
    (void)state;
    token t = lex_one("%rd12");
    assert_int_equal(t.kind, TK_IDENT);
    assert_int_equal(t.len, 5);
    t = lex_one("$L__BB0_2");
    assert_int_equal(t.kind, TK_IDENT);
    assert_int_equal(t.len, 9);
    t = lex_one("_");
    assert_int_equal(t.kind, TK_IDENT);
    t = lex_one(".shared::cta");
    assert_int_equal(t.kind, TK_DOTNAME);
    assert_true(tok_is(&t, ".shared::cta"));
    t = lex_one(".L2::128B");
    assert_true(tok_is(&t, ".L2::128B"));
    t = lex_one("\"a \\\"quoted\\\" name\"");
    assert_int_equal(t.kind, TK_STRING);
    assert_int_equal(t.len, 17);

    /* %tid.x is a name followed by a dot-name */
    lexer lx;
    lex_init(&lx, "%tid.x", 6);
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_true(tok_is(&t, "%tid"));
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_true(tok_is(&t, ".x"));
}

static void test_positions_and_comments(void **state)
{
    (void)state;
    const char *src = "// line comment\n  add /* block\n comment */ .s32\n\t[%r1+-8];";
    lexer lx;
    token t;
    lex_init(&lx, src, strlen(src));
    uint32_t want_line[] = {2, 3, 4, 4, 4, 4, 4, 4, 4};
    uint32_t want_col[] = {3, 13, 2, 3, 6, 7, 8, 9, 10};
    const char *want_text[] = {"add", ".s32", "[", "%r1", "+", "-", "8", "]", ";"};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(lex_next(&lx, &t), 0);
        assert_int_equal(t.line, want_line[i]);
        assert_int_equal(t.col, want_col[i]);
        assert_int_equal(t.len, strlen(want_text[i]));
        assert_memory_equal(t.text, want_text[i], t.len);
    }
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_int_equal(t.kind, TK_EOF);
}

static void test_not_nul_terminated(void **state)
{
    (void)state;
    /* the lexer must stop at len even when more text follows in memory */
    const char src[] = "0x1234 trailing";
    lexer lx;
    token t;
    lex_init(&lx, src, 4);
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_int_equal(t.ival, 0x12);
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_int_equal(t.kind, TK_EOF);
}

static void test_lex_errors(void **state)
{
    (void)state;
    lex_fails("add\n  /* never closed", 2, 3, "unterminated comment");
    lex_fails("0f3F80", 1, 1, "expected 8 hex digits");
    lex_fails("0d3FF0", 1, 1, "expected 16 hex digits");
    lex_fails("089", 1, 1, "malformed octal literal");
    lex_fails("0x", 1, 1, "expected digits");
    lex_fails("123abc", 1, 1, "malformed number");
    lex_fails("18446744073709551616", 1, 1, "does not fit in 64 bits");
    lex_fails("1e+", 1, 1, "malformed number");
    lex_fails("1.5e", 1, 1, "expected exponent digits");
    lex_fails("x # y", 1, 3, "unexpected character '#'");
    lex_fails("\"open string\nnext", 1, 1, "unterminated string");
    const char nul[] = {'a', ' ', 0, 'b'};
    lexer lx;
    token t;
    lex_init(&lx, nul, sizeof nul);
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_int_equal(lex_next(&lx, &t), -1);
    assert_non_null(strstr(lx.errmsg, "unexpected byte 0x00"));
    assert_int_equal(lx.errcol, 3);

    /* a name of LEX_MAX_NAME characters lexes (real CUTLASS names reach 1,494);
     * one more is refused */
    char *longname = malloc(LEX_MAX_NAME + 2);
    assert_non_null(longname);
    memset(longname, 'a', LEX_MAX_NAME);
    longname[LEX_MAX_NAME] = 0;
    lex_init(&lx, longname, LEX_MAX_NAME);
    assert_int_equal(lex_next(&lx, &t), 0);
    assert_int_equal(t.kind, TK_IDENT);
    assert_int_equal(t.len, LEX_MAX_NAME);
    longname[LEX_MAX_NAME] = 'a';
    longname[LEX_MAX_NAME + 1] = 0;
    lex_fails(longname, 1, 1, "name too long");
    free(longname);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_positions_and_comments),
        cmocka_unit_test(test_not_nul_terminated),
        cmocka_unit_test(test_lex_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
