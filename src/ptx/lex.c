/* PTX tokenizer: see lex.h. */
#include "ptx/lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lex_init(lexer *lx, const char *src, size_t len)
{
    memset(lx, 0, sizeof(*lx));
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
}

static int lex_fail(lexer *lx, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->errmsg, sizeof(lx->errmsg), fmt, ap);
    va_end(ap);
    lx->errline = line;
    lx->errcol = col;
    return -1;
}

static int peek_char(const lexer *lx, size_t ahead)
{
    size_t p = lx->pos + ahead;
    return p < lx->len ? (unsigned char)lx->src[p] : -1;
}

static void advance(lexer *lx)
{
    if (lx->pos >= lx->len)
        return;
    if (lx->src[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static int is_ident_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int hex_value(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void lex_skip_line(lexer *lx)
{
    while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
        advance(lx);
}

/* Skip whitespace and comments.  Returns -1 on an unterminated block comment. */
static int skip_space(lexer *lx)
{
    for (;;) {
        int c = peek_char(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '/' && peek_char(lx, 1) == '/') {
            lex_skip_line(lx);
        } else if (c == '/' && peek_char(lx, 1) == '*') {
            uint32_t line = lx->line, col = lx->col;
            advance(lx);
            advance(lx);
            for (;;) {
                if (lx->pos >= lx->len)
                    return lex_fail(lx, line, col, "unterminated comment '/*'");
                if (peek_char(lx, 0) == '*' && peek_char(lx, 1) == '/') {
                    advance(lx);
                    advance(lx);
                    break;
                }
                advance(lx);
            }
        } else {
            return 0;
        }
    }
}

/* Digits of the given base starting at the current position, accumulated into
 * *out with overflow detection.  Returns the number of digits, or -1 on overflow. */
static int scan_digits(lexer *lx, unsigned base, uint64_t *out)
{
    uint64_t v = 0;
    int n = 0, overflow = 0;
    for (;;) {
        int d = hex_value(peek_char(lx, 0));
        if (d < 0 || (unsigned)d >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            overflow = 1;
        v = v * base + (uint64_t)d;
        advance(lx);
        n++;
    }
    *out = v;
    return overflow ? -1 : n;
}

/* 0fXXXXXXXX or 0dXXXXXXXXXXXXXXXX: exactly 8 / 16 hex digits. */
static int lex_hex_float(lexer *lx, token *t, int is_double)
{
    int want = is_double ? 16 : 8;
    uint64_t bits = 0;
    advance(lx); /* 0 */
    advance(lx); /* f or d */
    int n = 0;
    while (hex_value(peek_char(lx, 0)) >= 0) {
        if (n < want)
            bits = (bits << 4) | (uint64_t)hex_value(peek_char(lx, 0));
        n++;
        advance(lx);
    }
    if (n != want)
        return lex_fail(lx, t->line, t->col, "malformed %s float literal: expected %d hex digits after '0%c'",
                        is_double ? "double" : "single", want, is_double ? 'd' : 'f');
    t->kind = TK_FLOAT;
    t->fkind = is_double ? FK_F64HEX : FK_F32HEX;
    t->fbits = bits;
    return 0;
}

/* Decimal float: digits [. digits] [e [+-] digits]; the caller has seen that
 * it is not a plain integer. */
static int lex_dec_float(lexer *lx, token *t, size_t start)
{
    while (is_digit(peek_char(lx, 0)))
        advance(lx);
    if (peek_char(lx, 0) == '.') {
        advance(lx);
        while (is_digit(peek_char(lx, 0)))
            advance(lx);
    }
    int c = peek_char(lx, 0);
    if (c == 'e' || c == 'E') {
        advance(lx);
        c = peek_char(lx, 0);
        if (c == '+' || c == '-')
            advance(lx);
        if (!is_digit(peek_char(lx, 0)))
            return lex_fail(lx, t->line, t->col, "malformed float literal: expected exponent digits");
        while (is_digit(peek_char(lx, 0)))
            advance(lx);
    }
    size_t n = lx->pos - start;
    if (n >= LEX_MAX_TOKEN)
        return lex_fail(lx, t->line, t->col, "number too long (max %d characters)", LEX_MAX_TOKEN);
    char buf[LEX_MAX_TOKEN];
    memcpy(buf, lx->src + start, n);
    buf[n] = 0;
    t->kind = TK_FLOAT;
    t->fkind = FK_DEC;
    t->dval = strtod(buf, NULL);
    return 0;
}

/* Is the text at the current position (after an integer's digits) the rest of a
 * decimal float?  "1.5", "1e3", "2.": yes.  "1.x": no (a dot-name follows). */
static int float_continues(const lexer *lx)
{
    int c = peek_char(lx, 0);
    if (c == 'e' || c == 'E') {
        int d = peek_char(lx, 1);
        return is_digit(d) || ((d == '+' || d == '-') && is_digit(peek_char(lx, 2)));
    }
    if (c != '.')
        return 0;
    int d = peek_char(lx, 1);
    return is_digit(d) || !is_ident_start(d);
}

static int lex_number(lexer *lx, token *t)
{
    size_t start = lx->pos;
    int c0 = peek_char(lx, 0), c1 = peek_char(lx, 1);
    uint64_t v = 0;
    int n;

    t->kind = TK_INT;
    if (c0 == '0' && (c1 == 'f' || c1 == 'F'))
        return lex_hex_float(lx, t, 0);
    if (c0 == '0' && (c1 == 'd' || c1 == 'D'))
        return lex_hex_float(lx, t, 1);
    if (c0 == '.')
        return lex_dec_float(lx, t, start);
    if (c0 == '0' && (c1 == 'x' || c1 == 'X')) {
        advance(lx);
        advance(lx);
        n = scan_digits(lx, 16, &v);
    } else if (c0 == '0' && (c1 == 'b' || c1 == 'B')) {
        advance(lx);
        advance(lx);
        n = scan_digits(lx, 2, &v);
    } else {
        /* decimal or octal: scan as decimal first to see whether it is a float */
        size_t save_pos = lx->pos;
        uint32_t save_col = lx->col;
        n = scan_digits(lx, 10, &v);
        if (float_continues(lx)) {
            lx->pos = save_pos;
            lx->col = save_col;
            return lex_dec_float(lx, t, start);
        }
        if (c0 == '0' && lx->pos - start > 1) {
            /* octal: re-scan with base 8; a digit 8/9 is an error */
            lx->pos = save_pos;
            lx->col = save_col;
            n = scan_digits(lx, 8, &v);
            if (is_digit(peek_char(lx, 0)))
                return lex_fail(lx, t->line, t->col, "malformed octal literal: digit '%c'",
                                peek_char(lx, 0));
        }
    }
    if (n < 0)
        return lex_fail(lx, t->line, t->col, "integer literal does not fit in 64 bits");
    if (n == 0)
        return lex_fail(lx, t->line, t->col, "malformed integer literal: expected digits");
    if (peek_char(lx, 0) == 'U') {
        t->is_unsigned = 1;
        advance(lx);
    }
    if (is_ident_char(peek_char(lx, 0)))
        return lex_fail(lx, t->line, t->col, "malformed number: unexpected '%c'", peek_char(lx, 0));
    t->ival = v;
    return 0;
}

static int lex_string(lexer *lx, token *t)
{
    advance(lx); /* opening quote */
    size_t start = lx->pos;
    for (;;) {
        int c = peek_char(lx, 0);
        if (c < 0 || c == '\n')
            return lex_fail(lx, t->line, t->col, "unterminated string literal");
        if (c == '"')
            break;
        if (c == '\\' && peek_char(lx, 1) >= 0 && peek_char(lx, 1) != '\n')
            advance(lx);
        advance(lx);
        if (lx->pos - start > LEX_MAX_STRING)
            return lex_fail(lx, t->line, t->col, "string literal too long (max %d characters)",
                            LEX_MAX_STRING);
    }
    t->kind = TK_STRING;
    t->text = lx->src + start;
    t->len = (uint32_t)(lx->pos - start);
    advance(lx); /* closing quote */
    return 0;
}

/* Identifier or dot-name body: [A-Za-z0-9_$] and, in dot-names, "::" joints
 * (.shared::cta, .L2::128B). */
static int lex_name(lexer *lx, token *t, int dotted)
{
    size_t start = lx->pos;
    advance(lx); /* first character (or the dot) */
    for (;;) {
        int c = peek_char(lx, 0);
        if (is_ident_char(c))
            advance(lx);
        else if (dotted && c == ':' && peek_char(lx, 1) == ':' && is_ident_char(peek_char(lx, 2))) {
            advance(lx);
            advance(lx);
        } else
            break;
    }
    size_t n = lx->pos - start;
    if (n > LEX_MAX_NAME)
        return lex_fail(lx, t->line, t->col, "name too long (max %d characters)", LEX_MAX_NAME);
    t->kind = dotted ? TK_DOTNAME : TK_IDENT;
    t->text = lx->src + start;
    t->len = (uint32_t)n;
    return 0;
}

int lex_next(lexer *lx, token *t)
{
    memset(t, 0, sizeof(*t));
    if (skip_space(lx) < 0)
        return -1;
    t->line = lx->line;
    t->col = lx->col;
    t->text = lx->src + lx->pos;
    if (lx->pos >= lx->len) {
        t->kind = TK_EOF;
        t->len = 0;
        return 0;
    }
    size_t start = lx->pos;
    int c = peek_char(lx, 0);
    int rc;
    if (is_ident_start(c)) {
        rc = lex_name(lx, t, 0);
    } else if (c == '.' && is_ident_start(peek_char(lx, 1)) && peek_char(lx, 1) != '%') {
        rc = lex_name(lx, t, 1);
    } else if (is_digit(c) || (c == '.' && is_digit(peek_char(lx, 1)))) {
        rc = lex_number(lx, t);
        if (rc == 0 && lx->pos - start > LEX_MAX_TOKEN)
            rc = lex_fail(lx, t->line, t->col, "number too long (max %d characters)", LEX_MAX_TOKEN);
        if (rc == 0) {
            t->text = lx->src + start;
            t->len = (uint32_t)(lx->pos - start);
        }
    } else if (c == '"') {
        rc = lex_string(lx, t);
    } else if (c && strchr("{}()[],;:+-!|@<>=", c)) {
        advance(lx);
        t->kind = TK_PUNCT;
        t->punct = (char)c;
        t->len = 1;
        rc = 0;
    } else if (c >= 0x20 && c < 0x7f) {
        rc = lex_fail(lx, t->line, t->col, "unexpected character '%c'", c);
    } else {
        rc = lex_fail(lx, t->line, t->col, "unexpected byte 0x%02x", (unsigned)c);
    }
    return rc;
}

int tok_is_punct(const token *t, char c)
{
    return t->kind == TK_PUNCT && t->punct == c;
}

int tok_is(const token *t, const char *s)
{
    size_t n = strlen(s);
    return (t->kind == TK_IDENT || t->kind == TK_DOTNAME) && t->len == n && memcmp(t->text, s, n) == 0;
}
