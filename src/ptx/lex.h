/* PTX tokenizer.
 *
 * The lexer turns PTX text into tokens on demand.  It knows nothing about
 * instructions: an opcode with modifiers such as "ld.global.u32" arrives as the
 * identifier "ld" followed by the dot-names ".global" and ".u32".  Numbers are
 * decoded here (decimal, hex, octal, binary, 0f/0d hex floats, decimal floats)
 * so the parser only sees values.
 *
 * Every token records its 1-based line and column for diagnostics.  Errors
 * (unterminated comment, malformed number, stray character, over-long token)
 * are reported through lex_error, which the parser turns into a parse failure.
 */
#ifndef LOCSIM_PTX_LEX_H
#define LOCSIM_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

/* Longest number we accept. */
#define LEX_MAX_TOKEN 1024
/* Longest identifier or dot-name.  PTX has no limit and ptxas takes at least
 * 5,000 characters; mangled C++ template names reach 1,500 (CUTLASS), so this is
 * only a bound against absurd input. */
#define LEX_MAX_NAME 65536
/* Longest string literal (.file names, .pragma text). */
#define LEX_MAX_STRING 4096

typedef enum {
    TK_EOF = 0,
    TK_IDENT,    /* name, %reg, $label, _ */
    TK_DOTNAME,  /* .name or .name::sub (directive or modifier); text includes the dot */
    TK_INT,      /* integer literal: magnitude in ival (the sign is a separate '-') */
    TK_FLOAT,    /* floating literal: see fkind */
    TK_STRING,   /* "..." (text excludes the quotes; escapes left as written) */
    TK_PUNCT     /* one of { } ( ) [ ] , ; : + - ! | @ < > = */
} tok_kind;

typedef enum {
    FK_DEC = 0,  /* decimal float: dval */
    FK_F32HEX,   /* 0fXXXXXXXX: fbits holds the 32 IEEE bits */
    FK_F64HEX    /* 0dXXXXXXXXXXXXXXXX: fbits holds the 64 IEEE bits */
} float_kind;

typedef struct {
    uint8_t kind;        /* tok_kind */
    char punct;          /* TK_PUNCT: the character */
    uint8_t fkind;       /* TK_FLOAT: float_kind */
    uint8_t is_unsigned; /* TK_INT: 'U' suffix */
    uint32_t line, col;
    const char *text;    /* points into the source; len bytes (not NUL-terminated) */
    uint32_t len;
    uint64_t ival;       /* TK_INT */
    uint64_t fbits;      /* TK_FLOAT hex forms */
    double dval;         /* TK_FLOAT decimal form */
} token;

typedef struct {
    const char *src;
    size_t len, pos;
    uint32_t line, col;
    /* On a lexical error: message and position, and lex_next returns -1. */
    char errmsg[256];
    uint32_t errline, errcol;
} lexer;

void lex_init(lexer *lx, const char *src, size_t len);
/* Read the next token into *t.  Returns 0, or -1 on a lexical error (see errmsg). */
int lex_next(lexer *lx, token *t);
/* Skip the rest of the current line (for line-oriented directives like .loc). */
void lex_skip_line(lexer *lx);

/* 1 if token t is the punctuation c / the identifier or dot-name s. */
int tok_is_punct(const token *t, char c);
int tok_is(const token *t, const char *s);

#endif
