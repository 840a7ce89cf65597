/* PTX parser: module structure, directives, declarations and scopes.
 *
 * One pass over the token stream builds the module directly.  Forward references
 * are patched at the end of their scope: branch labels when the function body
 * closes, call targets when the module ends.  Instructions are decoded by insn.c;
 * the control-flow graph and reconvergence points are computed by cfg.c when a
 * function body is complete.
 *
 * Failure: parse_fail() longjmps to ptx_parse(), which frees the partial module
 * and the parser's tables.  The module under construction is kept consistent at
 * every step (counts never exceed initialised array elements) so that
 * ptx_module_free() can release it whatever point the parse reached.
 */
#include "ptx/parse.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* failure and tokens                                                        */
/* ------------------------------------------------------------------------ */

void parse_fail(parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (P->err) {
        snprintf(P->err->file, sizeof(P->err->file), "%s", P->file);
        P->err->line = line;
        P->err->col = col;
        snprintf(P->err->msg, sizeof(P->err->msg), "%s:%u:%u: %s", P->file, line, col, msg);
    }
    longjmp(P->fail, 1);
}

void parse_fail_tok(parser *P, const token *t, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    parse_fail(P, t->line, t->col, "%s", msg);
}

void parse_unsupported(parser *P, const token *t, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (!(P->flags & PTX_PARSE_LAZY) || !P->in_insn || !P->fn)
        parse_fail(P, t->line, t->col, "%s", msg);
    if (!P->fn->unsupported) {
        char full[600];
        snprintf(full, sizeof(full), "%s:%u:%u: %s", P->file, t->line, t->col, msg);
        P->fn->unsupported = strdup(full);
        if (!P->fn->unsupported)
            parse_fail(P, t->line, t->col, "out of memory");
    }
    longjmp(P->insn_fail, 1);
}

/* The instruction's full name as written: the opcode at op and the modifiers
 * that follow it without a space ("wmma.load.c.sync.aligned.row.m16n16k16.shared.f32"). */
static uint32_t full_opcode_len(const parser *P, const token *op)
{
    const char *end = P->lx.src + P->lx.len;
    uint32_t n = 0;
    while (op->text + n < end && n < 200) {
        char ch = op->text[n];
        if (!(isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == ':' || ch == '$' || ch == '%'))
            break;
        n++;
    }
    return n ? n : op->len;
}

void parse_not_supported(parser *P, const token *op, const char *why)
{
    uint32_t n = full_opcode_len(P, op);
    parse_unsupported(P, op, "%.*s is not supported%s%s%s", (int)n, op->text, why ? " (" : "", why ? why : "",
                      why ? ")" : "");
}

/* After parse_unsupported: skip the rest of the statement, up to and including
 * its ';'.  Braces inside it (vector operands such as {%f1, %f2}) are skipped
 * whole; an unbalanced '}' ends the skip without being taken, so the body's
 * structure is kept. */
static void skip_statement(parser *P)
{
    uint32_t depth = 0;
    while (P->tok.kind != TK_EOF) {
        if (depth == 0 && tok_is_punct(&P->tok, ';'))
            break;
        if (tok_is_punct(&P->tok, '{'))
            depth++;
        else if (tok_is_punct(&P->tok, '}')) {
            if (depth == 0)
                return;
            depth--;
        }
        next_token(P);
    }
    if (tok_is_punct(&P->tok, ';'))
        next_token(P);
}

/* One instruction; with PTX_PARSE_LAZY an unsupported one is left out (whatever it
 * had registered — label and call fixups, call sites — is dropped with it). */
static void parse_statement(parser *P)
{
    if (!(P->flags & PTX_PARSE_LAZY)) {
        parse_instruction(P);
        return;
    }
    uint32_t nfixups = P->nfixups, ncfix = P->ncfix, ncalls = P->fn->ncalls, ninsn = P->fn->ninsn;
    if (setjmp(P->insn_fail) == 0) {
        P->in_insn = 1;
        parse_instruction(P);
    } else {
        P->nfixups = nfixups;
        P->ncfix = ncfix;
        P->fn->ncalls = ncalls;
        P->fn->ninsn = ninsn;
        P->in_insn = 0;
        skip_statement(P);
    }
    P->in_insn = 0;
}

const char *tok_text(const token *t, char *buf, size_t bufsz)
{
    switch (t->kind) {
    case TK_EOF:
        snprintf(buf, bufsz, "end of file");
        break;
    case TK_STRING:
        snprintf(buf, bufsz, "string \"%.*s\"", t->len > 40 ? 40 : (int)t->len, t->text);
        break;
    case TK_PUNCT:
        snprintf(buf, bufsz, "'%c'", t->punct);
        break;
    default:
        if (t->len > 64)
            snprintf(buf, bufsz, "'%.64s...'", t->text);
        else
            snprintf(buf, bufsz, "'%.*s'", (int)t->len, t->text);
        break;
    }
    return buf;
}

static void lex_or_fail(parser *P, token *t)
{
    if (lex_next(&P->lx, t) < 0)
        parse_fail(P, P->lx.errline, P->lx.errcol, "%s", P->lx.errmsg);
}

void next_token(parser *P)
{
    if (P->has_ahead) {
        P->tok = P->ahead;
        P->has_ahead = 0;
    } else {
        lex_or_fail(P, &P->tok);
    }
}

const token *peek_token(parser *P)
{
    if (!P->has_ahead) {
        lex_or_fail(P, &P->ahead);
        P->has_ahead = 1;
    }
    return &P->ahead;
}

void expect_punct(parser *P, char c, const char *what)
{
    char buf[96];
    if (!tok_is_punct(&P->tok, c))
        parse_fail_tok(P, &P->tok, "expected %s, found %s", what, tok_text(&P->tok, buf, sizeof buf));
    next_token(P);
}

int accept_punct(parser *P, char c)
{
    if (tok_is_punct(&P->tok, c)) {
        next_token(P);
        return 1;
    }
    return 0;
}

/* Current token must be an identifier; returns it and advances. */
static token expect_ident(parser *P, const char *what)
{
    char buf[96];
    if (P->tok.kind != TK_IDENT)
        parse_fail_tok(P, &P->tok, "expected %s, found %s", what, tok_text(&P->tok, buf, sizeof buf));
    token t = P->tok;
    next_token(P);
    return t;
}

/* A non-negative integer literal that fits in 32 bits. */
static uint32_t expect_u32(parser *P, const char *what)
{
    char buf[96];
    if (P->tok.kind != TK_INT)
        parse_fail_tok(P, &P->tok, "expected %s, found %s", what, tok_text(&P->tok, buf, sizeof buf));
    if (P->tok.ival > UINT32_MAX)
        parse_fail_tok(P, &P->tok, "%s too large: %llu", what, (unsigned long long)P->tok.ival);
    uint32_t v = (uint32_t)P->tok.ival;
    next_token(P);
    return v;
}

/* ------------------------------------------------------------------------ */
/* memory                                                                    */
/* ------------------------------------------------------------------------ */

struct arena_chunk {
    arena_chunk *next;
    size_t used, cap;
    char data[];
};

#define ARENA_CHUNK 65536

static void arena_free(arena *a)
{
    arena_chunk *c = a->head;
    while (c) {
        arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
}

const char *arena_strndup(parser *P, const char *s, size_t n)
{
    arena_chunk *c = P->names.head;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > ARENA_CHUNK ? n + 1 : ARENA_CHUNK;
        c = malloc(sizeof(*c) + cap);
        if (!c)
            parse_fail(P, P->tok.line, P->tok.col, "out of memory");
        c->used = 0;
        c->cap = cap;
        c->next = P->names.head;
        P->names.head = c;
    }
    char *d = c->data + c->used;
    memcpy(d, s, n);
    d[n] = 0;
    c->used += n + 1;
    return d;
}

static char *xstrndup(parser *P, const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        parse_fail(P, P->tok.line, P->tok.col, "out of memory");
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* Grow *ptr (an array of elem-sized items with capacity *cap) to hold at least
 * need items.  New items are zeroed.  Fails the parse past limit. */
void *xrealloc_array(parser *P, void *ptr, uint32_t *cap, uint32_t need, size_t elem,
                     uint32_t limit, const char *what)
{
    if (need <= *cap)
        return ptr;
    if (need > limit)
        parse_fail(P, P->tok.line, P->tok.col, "too many %s (limit %u)", what, limit);
    uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 8;
    if (ncap < need)
        ncap = need;
    if (ncap > limit)
        ncap = limit;
    void *p = realloc(ptr, (size_t)ncap * elem);
    if (!p)
        parse_fail(P, P->tok.line, P->tok.col, "out of memory");
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *cap = (uint32_t)ncap;
    return p;
}

/* ------------------------------------------------------------------------ */
/* scoped symbol table                                                       */
/* ------------------------------------------------------------------------ */

static uint32_t hash_name(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (uint32_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

/* Rebuild the buckets; entries are inserted in index order so the newest entry
 * of each name stays first in its chain (innermost scope wins). */
static void symtab_rehash(parser *P, uint32_t nbuckets)
{
    symtab *st = &P->syms;
    uint32_t *b = calloc(nbuckets, sizeof(uint32_t));
    if (!b)
        parse_fail(P, P->tok.line, P->tok.col, "out of memory");
    free(st->buckets);
    st->buckets = b;
    st->nbuckets = nbuckets;
    for (uint32_t i = 0; i < st->n; i++) {
        uint32_t slot = st->ents[i].hash & (nbuckets - 1);
        st->ents[i].next = b[slot];
        b[slot] = i + 1;
    }
}

static sym *sym_add(parser *P, const char *name, uint32_t len, sym_kind kind)
{
    symtab *st = &P->syms;
    st->ents = xrealloc_array(P, st->ents, &st->cap, st->n + 1, sizeof(sym), 1u << 26, "symbols");
    if ((st->n + 1) * 4 > st->nbuckets * 3)
        symtab_rehash(P, st->nbuckets ? st->nbuckets * 2 : 256);
    sym *s = &st->ents[st->n];
    memset(s, 0, sizeof(*s));
    s->name = arena_strndup(P, name, len);
    s->len = len;
    s->hash = hash_name(name, len);
    s->depth = (uint16_t)P->depth;
    s->kind = (uint8_t)kind;
    uint32_t slot = s->hash & (st->nbuckets - 1);
    s->next = st->buckets[slot];
    st->buckets[slot] = st->n + 1;
    st->n++;
    return s;
}

/* Drop every symbol added after mark (the newest are at the head of their chains). */
static void symtab_pop(parser *P, uint32_t mark)
{
    symtab *st = &P->syms;
    while (st->n > mark) {
        sym *s = &st->ents[st->n - 1];
        st->buckets[s->hash & (st->nbuckets - 1)] = s->next;
        st->n--;
    }
}

/* Innermost symbol named exactly name[0..len).  which: FIND_ANY, FIND_RANGES
 * (%r<N> prefixes only) or FIND_NAMES (everything but range prefixes: "%r" alone
 * is not a register when only %r<N> is declared). */
enum { FIND_ANY = 0, FIND_RANGES = 1, FIND_NAMES = 2 };

static sym *sym_find(parser *P, const char *name, uint32_t len, int which)
{
    symtab *st = &P->syms;
    if (!st->nbuckets)
        return NULL;
    uint32_t h = hash_name(name, len);
    for (uint32_t i = st->buckets[h & (st->nbuckets - 1)]; i; i = st->ents[i - 1].next) {
        sym *s = &st->ents[i - 1];
        if (s->hash != h || s->len != len || memcmp(s->name, name, len) != 0)
            continue;
        int is_range = s->kind == SYM_VRANGE || s->kind == SYM_PRANGE;
        if ((which == FIND_RANGES && !is_range) || (which == FIND_NAMES && is_range))
            continue;
        return s;
    }
    return NULL;
}

/* Resolve a name: an exact declaration, or an element of a %r<N> range (the name
 * is the range prefix followed by a decimal number without leading zeros).  When
 * both exist the innermost declaration wins; at equal depth the exact name does.
 * *elem receives the range element (0 for exact names). */
sym *sym_lookup(parser *P, const char *name, uint32_t len, uint32_t *elem)
{
    sym *best = sym_find(P, name, len, FIND_NAMES);
    *elem = 0;
    uint32_t digits = 0;
    while (digits < len && name[len - 1 - digits] >= '0' && name[len - 1 - digits] <= '9')
        digits++;
    /* Try every split of the trailing digits: "%r12" may be %r<20> element 12 or
     * %r1<5> element 2 -- the shorter splits only when some range prefix ends in
     * a digit.  Numbers are at most 10 digits (ranges are bounded). */
    uint32_t last = P->digit_prefix_ranges ? 1 : digits;
    for (uint32_t k = digits; k >= last && k >= 1; k--) {
        uint32_t plen = len - k;
        if (plen == 0 || k > 10)
            continue;
        const char *num = name + plen;
        if (num[0] == '0' && k > 1)
            continue;
        uint64_t v = 0;
        for (uint32_t i = 0; i < k; i++)
            v = v * 10 + (uint64_t)(num[i] - '0');
        sym *r = sym_find(P, name, plen, FIND_RANGES);
        if (!r || v >= r->count)
            continue;
        if (!best || r->depth > best->depth) {
            best = r;
            *elem = (uint32_t)v;
        }
    }
    return best;
}

/* A declaration must not clash with another in the same scope. */
static void check_redeclare(parser *P, const token *t, const char *name, uint32_t len)
{
    uint32_t elem;
    sym *s = sym_lookup(P, name, len, &elem);
    if (s && s->depth == P->depth)
        parse_fail_tok(P, t, "'%.*s' redeclared in the same scope", len > 64 ? 64 : (int)len, name);
}

/* ------------------------------------------------------------------------ */
/* labels                                                                    */
/* ------------------------------------------------------------------------ */

static label *label_find_or_add(parser *P, const token *t)
{
    uint32_t h = hash_name(t->text, t->len);
    if (P->label_nbuckets) {
        for (uint32_t i = P->label_buckets[h & (P->label_nbuckets - 1)]; i; i = P->labels[i - 1].next) {
            label *l = &P->labels[i - 1];
            if (l->hash == h && l->len == t->len && memcmp(l->name, t->text, t->len) == 0)
                return l;
        }
    }
    P->labels = xrealloc_array(P, P->labels, &P->labels_cap, P->nlabels + 1, sizeof(label),
                               PTX_MAX_LABELS, "labels");
    if ((P->nlabels + 1) * 4 > P->label_nbuckets * 3) {
        uint32_t nb = P->label_nbuckets ? P->label_nbuckets * 2 : 64;
        uint32_t *b = calloc(nb, sizeof(uint32_t));
        if (!b)
            parse_fail(P, t->line, t->col, "out of memory");
        free(P->label_buckets);
        P->label_buckets = b;
        P->label_nbuckets = nb;
        for (uint32_t i = 0; i < P->nlabels; i++) {
            uint32_t slot = P->labels[i].hash & (nb - 1);
            P->labels[i].next = b[slot];
            b[slot] = i + 1;
        }
    }
    label *l = &P->labels[P->nlabels];
    memset(l, 0, sizeof(*l));
    l->name = arena_strndup(P, t->text, t->len);
    l->len = t->len;
    l->hash = h;
    l->target = UINT32_MAX;
    l->use_line = t->line;
    l->use_col = t->col;
    uint32_t slot = h & (P->label_nbuckets - 1);
    l->next = P->label_buckets[slot];
    P->label_buckets[slot] = P->nlabels + 1;
    P->nlabels++;
    return l;
}

uint32_t label_use(parser *P, const token *t)
{
    label *l = label_find_or_add(P, t);
    return (uint32_t)(l - P->labels);
}

static void label_define(parser *P, const token *t)
{
    label *l = label_find_or_add(P, t);
    if (l->target != UINT32_MAX)
        parse_fail_tok(P, t, "label '%.*s' redefined (first defined at line %u)",
                       t->len > 64 ? 64 : (int)t->len, t->text, l->def_line);
    l->target = P->fn->ninsn;
    l->def_line = t->line;
}

void add_label_fixup(parser *P, uint32_t insn, uint32_t opnd, uint32_t lab)
{
    P->fixups = xrealloc_array(P, P->fixups, &P->fixups_cap, P->nfixups + 1, sizeof(label_fixup),
                               PTX_MAX_INSNS, "branches");
    P->fixups[P->nfixups++] = (label_fixup){insn, opnd, lab};
}

call_fixup *add_call_fixup(parser *P, uint32_t insn, uint32_t call, const token *callee)
{
    P->cfix = xrealloc_array(P, P->cfix, &P->cfix_cap, P->ncfix + 1, sizeof(call_fixup),
                             1u << 24, "calls");
    call_fixup *c = &P->cfix[P->ncfix];
    memset(c, 0, sizeof(*c));
    c->func = P->fn_index;
    c->call = call;
    c->insn = insn;
    c->callee = arena_strndup(P, callee->text, callee->len);
    c->callee_len = callee->len;
    c->line = callee->line;
    c->col = callee->col;
    P->ncfix++;
    return c;
}

static void reset_labels(parser *P)
{
    P->nlabels = 0;
    P->nfixups = 0;
    if (P->label_buckets)
        memset(P->label_buckets, 0, P->label_nbuckets * sizeof(uint32_t));
}

/* ------------------------------------------------------------------------ */
/* types and immediates                                                      */
/* ------------------------------------------------------------------------ */

ptx_type ptx_type_from_name(const char *s, uint32_t len)
{
#define T(n, t) {n, sizeof(n) - 1, t}
    static const struct {
        const char *name;
        uint8_t len;
        ptx_type t;
    } names[] = {
        T(".b8", PTX_T_B8),     T(".b16", PTX_T_B16),   T(".b32", PTX_T_B32),     T(".b64", PTX_T_B64),
        T(".b128", PTX_T_B128), T(".u8", PTX_T_U8),     T(".u16", PTX_T_U16),     T(".u32", PTX_T_U32),
        T(".u64", PTX_T_U64),   T(".s8", PTX_T_S8),     T(".s16", PTX_T_S16),     T(".s32", PTX_T_S32),
        T(".s64", PTX_T_S64),   T(".f16", PTX_T_F16),   T(".f16x2", PTX_T_F16X2), T(".bf16", PTX_T_BF16),
        T(".bf16x2", PTX_T_BF16X2), T(".f32", PTX_T_F32), T(".f64", PTX_T_F64),   T(".pred", PTX_T_PRED),
    };
#undef T
    if (len < 3 || len > 7)
        return PTX_T_NONE;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].len == len && memcmp(names[i].name, s, len) == 0)
            return names[i].t;
    return PTX_T_NONE;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* The numeric value of a literal as a double (for float-typed uses). */
static double literal_as_double(const token *t, int neg)
{
    double d;
    if (t->kind == TK_INT)
        d = (double)t->ival;
    else if (t->fkind == FK_F32HEX)
        d = (double)bits_f32((uint32_t)t->fbits);
    else if (t->fkind == FK_F64HEX)
        d = bits_f64(t->fbits);
    else
        d = t->dval;
    return neg ? -d : d;
}

/* Bits of literal t (preceded by '-' if neg) used as an operand or initializer of
 * type ty.  The rules follow ptxas (CUDA 13), checked case by case:
 *  - integers: 64-bit two's complement, truncated to the type's width (ptxas
 *    accepts `mov.u16 %h, 65536` and stores 0), then zero-extended for unsigned and
 *    bit types, sign-extended for signed ones;
 *  - integers are not allowed for .f32/.f64 (ptxas: "Arguments mismatch");
 *  - 0f / 0d literals give IEEE bits for .f32/.b32 / .f64/.b64 and are converted
 *    between f32 and f64; a '-' before them is a syntax error;
 *  - decimal floats are values: converted for .f32/.f64, IEEE bits for .b32/.b64;
 *  - predicates take an integer, nonzero meaning true. */
int64_t literal_bits(parser *P, const token *t, int neg, ptx_type ty)
{
    char tn[16];
    snprintf(tn, sizeof tn, ".%s", ptx_type_name(ty));
    if (ty == PTX_T_NONE)
        parse_fail_tok(P, t, "immediate not allowed here");
    if (t->kind == TK_FLOAT && t->fkind != FK_DEC && neg)
        parse_fail_tok(P, t, "'-' before a hex float literal (write the sign in its bits)");
    if (ty == PTX_T_PRED) {
        if (t->kind != TK_INT)
            parse_fail_tok(P, t, "predicate immediate must be an integer");
        return t->ival != 0;
    }
    if (ty == PTX_T_F16 || ty == PTX_T_F16X2 || ty == PTX_T_BF16 || ty == PTX_T_BF16X2)
        parse_fail_tok(P, t, "immediate operands are not supported with %s (use a .b16/.b32 bit pattern)", tn);
    if (ty == PTX_T_F32 || ty == PTX_T_F64) {
        if (t->kind == TK_INT)
            parse_fail_tok(P, t, "integer literal used with floating-point type %s (write %s%llu.0 or a hex float)",
                           tn, neg ? "-" : "", (unsigned long long)t->ival);
        if (ty == PTX_T_F64 && t->fkind == FK_F64HEX)
            return (int64_t)t->fbits;
        if (ty == PTX_T_F32 && t->fkind == FK_F32HEX)
            return (int64_t)t->fbits;
        double d = literal_as_double(t, neg);
        return ty == PTX_T_F32 ? (int64_t)f32_bits((float)d) : (int64_t)f64_bits(d);
    }
    unsigned size = ptx_type_size(ty);
    if (size > 8)
        size = 8;
    unsigned bits = size * 8;
    if (t->kind == TK_FLOAT) {
        /* Float literals with bit-size types give the IEEE pattern (mov.b32 %r, 0f3F800000). */
        int is_bit = ty == PTX_T_B32 || ty == PTX_T_B64;
        if (!is_bit)
            parse_fail_tok(P, t, "floating-point literal used with integer type %s", tn);
        if (size == 4) {
            if (t->fkind == FK_F64HEX)
                parse_fail_tok(P, t, "64-bit float literal used with %s", tn);
            return (int64_t)(uint64_t)(t->fkind == FK_F32HEX ? (uint32_t)t->fbits
                                                             : f32_bits((float)literal_as_double(t, neg)));
        }
        if (t->fkind == FK_F32HEX)
            parse_fail_tok(P, t, "32-bit float literal used with %s", tn);
        return (int64_t)(t->fkind == FK_F64HEX ? t->fbits : f64_bits(literal_as_double(t, neg)));
    }
    uint64_t v = neg ? (uint64_t)0 - t->ival : t->ival;
    if (bits < 64) {
        uint64_t mask = (1ull << bits) - 1;
        v &= mask;
        if (ptx_type_is_signed(ty) && (v >> (bits - 1)) & 1)
            v |= ~mask;
    }
    return (int64_t)v;
}

/* ------------------------------------------------------------------------ */
/* scopes, registers, frame                                                  */
/* ------------------------------------------------------------------------ */

static void scope_push(parser *P, const token *at)
{
    if (P->depth >= PTX_MAX_DEPTH)
        parse_fail_tok(P, at, "blocks nested too deeply (limit %d)", PTX_MAX_DEPTH);
    scope_mark *s = &P->scopes[P->depth];
    s->sym_mark = P->syms.n;
    s->vregs = P->vregs_live;
    s->pregs = P->pregs_live;
    s->frame_top = P->frame_top;
    P->depth++;
}

/* Leaving a block frees its names, and its registers and frame bytes for reuse by
 * later blocks: nothing declared inside a { } block is reachable after it. */
static void scope_pop(parser *P)
{
    P->depth--;
    scope_mark *s = &P->scopes[P->depth];
    symtab_pop(P, s->sym_mark);
    P->vregs_live = s->vregs;
    P->pregs_live = s->pregs;
    P->frame_top = s->frame_top;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* Reserve size bytes aligned to align in the current function's frame. */
static uint32_t frame_alloc(parser *P, const token *at, uint64_t size, uint32_t align)
{
    ptx_function *f = P->fn;
    uint64_t off = align_up(P->frame_top, align);
    if (off + size > PTX_MAX_FRAME)
        parse_fail_tok(P, at, "per-thread frame of '%s' too large (limit %u bytes)", f->name, PTX_MAX_FRAME);
    P->frame_top = (uint32_t)(off + size);
    if (P->frame_top > f->frame_size)
        f->frame_size = P->frame_top;
    if (align > f->frame_align)
        f->frame_align = align;
    return (uint32_t)off;
}

/* Allocate count registers (value or predicate) named name (range: name is the
 * prefix, registers name0..name<count-1>).  Returns the first index. */
static uint32_t alloc_regs(parser *P, const token *at, int is_pred, uint32_t count, ptx_type type,
                           const char *name, uint32_t len, int range)
{
    ptx_function *f = P->fn;
    uint32_t *live = is_pred ? &P->pregs_live : &P->vregs_live;
    uint32_t base = *live;
    if ((uint64_t)base + count > PTX_MAX_REGS)
        parse_fail_tok(P, at, "too many %s registers in '%s' (limit %u)", is_pred ? "predicate" : "value",
                       f->name, PTX_MAX_REGS);
    uint32_t have = is_pred ? f->npreds : f->nregs;
    uint32_t fresh = base + count > have ? base + count - have : 0;
    if ((uint64_t)P->module_regs + fresh > PTX_MAX_MODULE_REGS)
        parse_fail_tok(P, at, "too many registers in the module (limit %u)", PTX_MAX_MODULE_REGS);
    P->module_regs += fresh;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t idx = base + i;
        uint32_t *n = is_pred ? &f->npreds : &f->nregs;
        if (idx < *n)
            continue; /* reused index of a closed block: keep its first name */
        /* name, or prefix + decimal index (written by hand: this runs for every
         * register of every %r<N> range) */
        char buf[LEX_MAX_TOKEN + 16];
        size_t blen = len < LEX_MAX_TOKEN ? len : LEX_MAX_TOKEN;
        memcpy(buf, name, blen);
        if (range) {
            char digits[12];
            int nd = 0;
            uint32_t v = i;
            do
                digits[nd++] = (char)('0' + v % 10);
            while ((v /= 10) != 0);
            while (nd)
                buf[blen++] = digits[--nd];
        }
        if (is_pred) {
            f->pred_names = xrealloc_array(P, f->pred_names, &P->pnames_cap, idx + 1, sizeof(char *),
                                           PTX_MAX_REGS, "predicate registers");
            f->pred_names[idx] = xstrndup(P, buf, blen);
        } else {
            f->reg_names = xrealloc_array(P, f->reg_names, &P->vnames_cap, idx + 1, sizeof(char *),
                                          PTX_MAX_REGS, "registers");
            f->reg_types = xrealloc_array(P, f->reg_types, &P->vtypes_cap, idx + 1, 1,
                                          PTX_MAX_REGS, "registers");
            f->reg_names[idx] = xstrndup(P, buf, blen);
            f->reg_types[idx] = (uint8_t)type;
        }
        *n = idx + 1;
    }
    *live = base + count;
    return base;
}

/* .reg .type name[<N>] {, name[<N>]} ; */
static void parse_reg_decl(parser *P)
{
    char buf[96];
    token start = P->tok;
    next_token(P);
    ptx_type type = PTX_T_NONE;
    while (P->tok.kind == TK_DOTNAME) {
        if (tok_is(&P->tok, ".v2") || tok_is(&P->tok, ".v4") || tok_is(&P->tok, ".v8"))
            parse_fail_tok(P, &P->tok, "unsupported: vector registers (%s)", tok_text(&P->tok, buf, sizeof buf));
        ptx_type t = ptx_type_from_name(P->tok.text, P->tok.len);
        if (t == PTX_T_NONE)
            parse_fail_tok(P, &P->tok, "expected a register type, found %s", tok_text(&P->tok, buf, sizeof buf));
        if (type != PTX_T_NONE)
            parse_fail_tok(P, &P->tok, "register declaration has two types");
        type = t;
        next_token(P);
    }
    if (type == PTX_T_NONE)
        parse_fail_tok(P, &start, "expected a type after .reg");
    int is_pred = type == PTX_T_PRED;
    do {
        token name = expect_ident(P, "a register name");
        if (accept_punct(P, '<')) {
            token cnt = P->tok;
            uint32_t n = expect_u32(P, "a register count");
            if (n > PTX_MAX_REG_RANGE)
                parse_fail_tok(P, &cnt, "register range too large: %u (limit %u)", n, PTX_MAX_REG_RANGE);
            expect_punct(P, '>', "'>'");
            if (sym_find(P, name.text, name.len, FIND_RANGES) &&
                sym_find(P, name.text, name.len, FIND_RANGES)->depth == P->depth)
                parse_fail_tok(P, &name, "register range '%.*s<>' redeclared in the same scope",
                               name.len > 64 ? 64 : (int)name.len, name.text);
            uint32_t base = alloc_regs(P, &name, is_pred, n, type, name.text, name.len, 1);
            if (name.text[name.len - 1] >= '0' && name.text[name.len - 1] <= '9')
                P->digit_prefix_ranges = 1;
            sym *s = sym_add(P, name.text, name.len, is_pred ? SYM_PRANGE : SYM_VRANGE);
            s->index = base;
            s->count = n;
            s->type = (uint8_t)type;
        } else {
            check_redeclare(P, &name, name.text, name.len);
            uint32_t idx = alloc_regs(P, &name, is_pred, 1, type, name.text, name.len, 0);
            sym *s = sym_add(P, name.text, name.len, is_pred ? SYM_PREG : SYM_VREG);
            s->index = idx;
            s->type = (uint8_t)type;
        }
    } while (accept_punct(P, ','));
    expect_punct(P, ';', "';' after register declaration");
}

/* ------------------------------------------------------------------------ */
/* variables                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
    ptx_type type;      /* element type */
    uint32_t vecn;      /* .v2/.v4: components, else 1 */
    uint32_t align;     /* .align N, or 0 */
    int is_ptr;         /* .ptr attribute (kernel params) */
    int is_managed;     /* .attribute(.managed): a __managed__ variable */
} decl_spec;

/* [.align N] [.vN] .type [.ptr [.space] [.align N]] -- in any order before the name. */
static void parse_decl_spec(parser *P, decl_spec *d, int allow_ptr)
{
    char buf[96];
    token start = P->tok;
    memset(d, 0, sizeof(*d));
    d->vecn = 1;
    while (P->tok.kind == TK_DOTNAME) {
        token t = P->tok;
        if (tok_is(&t, ".align")) {
            next_token(P);
            token at = P->tok;
            uint32_t a = expect_u32(P, "an alignment");
            if (a == 0 || (a & (a - 1)) || a > 65536)
                parse_fail_tok(P, &at, "alignment must be a power of two up to 65536, found %u", a);
            d->align = a;
            continue;
        }
        if (tok_is(&t, ".v2") || tok_is(&t, ".v4")) {
            d->vecn = t.text[2] - '0';
            next_token(P);
            continue;
        }
        if (tok_is(&t, ".v8"))
            parse_fail_tok(P, &t, "unsupported: .v8 variables");
        if (tok_is(&t, ".attribute")) {
            /* .attribute(.managed) is the one variable attribute nvcc emits */
            next_token(P);
            expect_punct(P, '(', "'(' after .attribute");
            if (!tok_is(&P->tok, ".managed"))
                parse_fail_tok(P, &P->tok, "unsupported: .attribute(%s)", tok_text(&P->tok, buf, sizeof buf));
            next_token(P);
            expect_punct(P, ')', "')' after .attribute(.managed");
            d->is_managed = 1;
            continue;
        }
        if (tok_is(&t, ".ptr")) {
            if (!allow_ptr)
                parse_fail_tok(P, &t, ".ptr is only allowed on kernel parameters");
            d->is_ptr = 1;
            next_token(P);
            /* the pointee's space and alignment: recorded by is_ptr only */
            if (tok_is(&P->tok, ".global") || tok_is(&P->tok, ".shared") || tok_is(&P->tok, ".const") ||
                tok_is(&P->tok, ".local"))
                next_token(P);
            if (tok_is(&P->tok, ".align")) {
                next_token(P);
                expect_u32(P, "an alignment");
            }
            continue;
        }
        ptx_type ty = ptx_type_from_name(t.text, t.len);
        if (ty == PTX_T_NONE)
            parse_fail_tok(P, &t, "unexpected %s in declaration", tok_text(&t, buf, sizeof buf));
        if (d->type != PTX_T_NONE)
            parse_fail_tok(P, &t, "declaration has two types");
        if (ty == PTX_T_PRED)
            parse_fail_tok(P, &t, ".pred is only allowed for registers");
        d->type = ty;
        next_token(P);
    }
    if (d->type == PTX_T_NONE)
        parse_fail_tok(P, &start, "expected a type in declaration, found %s", tok_text(&P->tok, buf, sizeof buf));
}

#define MAX_DIMS 8

typedef struct {
    uint32_t ndims;            /* array dimensions (+1 for a vector type) */
    uint64_t dims[MAX_DIMS + 1];
    int unsized;               /* first dimension is [] */
    uint64_t elem_size;        /* scalar element bytes */
    uint64_t size;             /* total bytes (0 if unsized) */
} var_shape;

/* name[N][M]... after the name; vector types add an innermost dimension. */
static void parse_dims(parser *P, const decl_spec *d, var_shape *vs)
{
    memset(vs, 0, sizeof(*vs));
    vs->elem_size = ptx_type_size(d->type);
    while (tok_is_punct(&P->tok, '[')) {
        token at = P->tok;
        next_token(P);
        if (vs->ndims >= MAX_DIMS)
            parse_fail_tok(P, &at, "too many array dimensions (limit %d)", MAX_DIMS);
        if (tok_is_punct(&P->tok, ']')) {
            if (vs->ndims > 0)
                parse_fail_tok(P, &at, "only the first array dimension may be unsized");
            vs->unsized = 1;
            vs->dims[vs->ndims++] = 0;
        } else {
            token nt = P->tok;
            if (nt.kind != TK_INT)
                parse_fail_tok(P, &nt, "expected an array size");
            if (nt.ival == 0 || nt.ival > PTX_MAX_VAR_BYTES)
                parse_fail_tok(P, &nt, "array size out of range: %llu", (unsigned long long)nt.ival);
            vs->dims[vs->ndims++] = nt.ival;
            next_token(P);
        }
        expect_punct(P, ']', "']'");
    }
    if (d->vecn > 1)
        vs->dims[vs->ndims++] = d->vecn;
    uint64_t total = vs->elem_size;
    for (uint32_t i = 0; i < vs->ndims; i++) {
        if (vs->unsized && i == 0)
            continue;
        if (total > PTX_MAX_VAR_BYTES / vs->dims[i])
            parse_fail_tok(P, &P->tok, "variable too large (limit %llu bytes)",
                           (unsigned long long)PTX_MAX_VAR_BYTES);
        total *= vs->dims[i];
    }
    vs->size = vs->unsized ? 0 : total;
}

/* Bytes covered by one element at dimension level (the stride of that level). */
static uint64_t level_stride(const var_shape *vs, uint32_t level)
{
    uint64_t s = vs->elem_size;
    for (uint32_t i = level + 1; i < vs->ndims; i++)
        s *= vs->dims[i];
    return s;
}

/* Initializer being written into P->m->vars[vi].init. */
typedef struct {
    uint32_t vi;
    var_shape vs;
    ptx_type et;     /* scalar element type */
    uint64_t cap;    /* bytes allocated in init (init_sym, if any, covers cap/8 slots) */
    uint64_t end;    /* highest byte written + 1 */
} init_ctx;

static uint64_t slots_for(uint64_t bytes) { return bytes / 8 + 1; }

/* Make room for bytes [0, end) of the initializer. */
static void init_reserve(parser *P, init_ctx *c, uint64_t end, const token *at)
{
    ptx_var *v = &P->m->vars[c->vi];
    if (end <= c->cap)
        return;
    if (end > PTX_MAX_INIT_BYTES)
        parse_fail_tok(P, at, "initializer too large (limit %u bytes)", PTX_MAX_INIT_BYTES);
    uint64_t ncap = c->cap ? c->cap * 2 : 64;
    while (ncap < end)
        ncap *= 2;
    if (ncap > PTX_MAX_INIT_BYTES)
        ncap = PTX_MAX_INIT_BYTES;
    uint8_t *p = realloc(v->init, ncap);
    if (!p)
        parse_fail_tok(P, at, "out of memory");
    memset(p + c->cap, 0, ncap - c->cap);
    v->init = p;
    if (v->init_sym) {
        uint32_t *q = realloc(v->init_sym, slots_for(ncap) * sizeof(uint32_t));
        if (!q)
            parse_fail_tok(P, at, "out of memory");
        memset(q + slots_for(c->cap), 0, (slots_for(ncap) - slots_for(c->cap)) * sizeof(uint32_t));
        v->init_sym = q;
    }
    c->cap = ncap;
}

static void init_write(parser *P, init_ctx *c, uint64_t off, uint64_t bits, const token *at)
{
    uint64_t n = c->vs.elem_size;
    init_reserve(P, c, off + n, at);
    uint8_t *d = P->m->vars[c->vi].init + off;
    for (uint64_t i = 0; i < n && i < 8; i++)
        d[i] = (uint8_t)(bits >> (8 * i));
    if (off + n > c->end)
        c->end = off + n;
}

/* One scalar initializer: [-]number | sym [+ off] | generic(sym) [+ off]. */
static void init_scalar(parser *P, init_ctx *c, uint64_t off)
{
    char buf[96];
    token at = P->tok;
    if (P->tok.kind == TK_IDENT) {
        int generic = tok_is(&P->tok, "generic") && tok_is_punct(peek_token(P), '(');
        if (generic) {
            next_token(P);
            next_token(P);
        }
        token name = expect_ident(P, "a symbol name");
        if (generic)
            expect_punct(P, ')', "')'");
        uint64_t addend = 0;
        if (accept_punct(P, '+')) {
            if (P->tok.kind != TK_INT)
                parse_fail_tok(P, &P->tok, "expected an offset after '+'");
            addend = P->tok.ival;
            next_token(P);
        }
        uint32_t elem;
        sym *s = sym_lookup(P, name.text, name.len, &elem);
        if (!s || (s->kind != SYM_VAR && s->kind != SYM_FUNC))
            parse_fail_tok(P, &name, "undefined symbol '%.*s' in initializer", name.len > 64 ? 64 : (int)name.len,
                           name.text);
        if (c->vs.elem_size != 8)
            parse_fail_tok(P, &name, "address initializer needs a 64-bit element type, found .%s",
                           ptx_type_name(c->et));
        if (off % 8)
            parse_fail_tok(P, &name, "address initializer at unaligned offset %llu", (unsigned long long)off);
        init_write(P, c, off, addend, &at);
        ptx_var *v = &P->m->vars[c->vi];
        if (!v->init_sym) {
            v->init_sym = calloc(slots_for(c->cap), sizeof(uint32_t));
            if (!v->init_sym)
                parse_fail_tok(P, &at, "out of memory");
        }
        v->init_sym[off / 8] = (s->index + 1) | (s->kind == SYM_FUNC ? PTX_INIT_SYM_FUNC : 0);
        return;
    }
    int neg = accept_punct(P, '-');
    token num = P->tok;
    if (num.kind != TK_INT && num.kind != TK_FLOAT)
        parse_fail_tok(P, &num, "expected an initializer value, found %s", tok_text(&num, buf, sizeof buf));
    uint64_t bits = (uint64_t)literal_bits(P, &num, neg, c->et);
    next_token(P);
    init_write(P, c, off, bits, &at);
}

/* { ... } at dimension level: either all sub-lists (one per element of this
 * level) or all scalars (filling consecutive scalar slots of this level). */
static void init_list(parser *P, init_ctx *c, uint32_t level, uint64_t base, uint32_t nest)
{
    token open = P->tok;
    if (nest > MAX_DIMS + 1)
        parse_fail_tok(P, &open, "initializer braces nested too deeply");
    expect_punct(P, '{', "'{'");
    if (level >= c->vs.ndims)
        parse_fail_tok(P, &open, "too many braces in initializer");
    int sublists = tok_is_punct(&P->tok, '{');
    uint64_t stride = sublists ? level_stride(&c->vs, level) : c->vs.elem_size;
    /* capacity of this list in elements (0 = unbounded: the unsized dimension) */
    uint64_t limit = 0;
    if (!(c->vs.unsized && level == 0))
        limit = sublists ? c->vs.dims[level] : level_stride(&c->vs, level) * c->vs.dims[level] / c->vs.elem_size;
    uint64_t n = 0;
    if (!tok_is_punct(&P->tok, '}')) {
        do {
            if (limit && n >= limit)
                parse_fail_tok(P, &P->tok, "too many initializers (at most %llu here)", (unsigned long long)limit);
            uint64_t off = base + n * stride;
            if (sublists) {
                if (!tok_is_punct(&P->tok, '{'))
                    parse_fail_tok(P, &P->tok, "expected '{' (sub-array initializer)");
                if (level + 1 >= c->vs.ndims)
                    parse_fail_tok(P, &P->tok, "too many braces in initializer");
                init_list(P, c, level + 1, off, nest + 1);
            } else {
                if (tok_is_punct(&P->tok, '{'))
                    parse_fail_tok(P, &P->tok, "unexpected '{' among scalar initializers");
                init_scalar(P, c, off);
            }
            n++;
        } while (accept_punct(P, ','));
    }
    expect_punct(P, '}', "'}' or ',' in initializer");
    if (level == 0 && c->vs.unsized) {
        /* the unsized dimension takes as many whole elements as were given */
        uint64_t outer = level_stride(&c->vs, 0);
        uint64_t bytes = sublists ? n * outer : align_up(n * c->vs.elem_size, outer);
        if (bytes == 0)
            parse_fail_tok(P, &open, "empty initializer for an unsized array");
        c->vs.size = bytes;
    }
}

/* '=' initializer for var vi (current token is after '='). */
static void parse_initializer(parser *P, uint32_t vi, const var_shape *vs, ptx_type et)
{
    init_ctx c;
    memset(&c, 0, sizeof(c));
    c.vi = vi;
    c.vs = *vs;
    c.et = et;
    token at = P->tok;
    if (!vs->unsized)
        init_reserve(P, &c, vs->size, &at);
    if (tok_is_punct(&P->tok, '{')) {
        if (vs->ndims == 0)
            parse_fail_tok(P, &at, "braced initializer for a scalar variable");
        init_list(P, &c, 0, 0, 0);
    } else {
        if (vs->ndims != 0)
            parse_fail_tok(P, &at, "expected '{' to initialize an array");
        init_scalar(P, &c, 0);
    }
    ptx_var *v = &P->m->vars[vi];
    if (vs->unsized) {
        v->size = c.vs.size;
        init_reserve(P, &c, v->size, &at);
    }
    P->init_total += v->size;
    if (P->init_total > PTX_MAX_INIT_TOTAL)
        parse_fail_tok(P, &at, "initialized data too large (limit %u bytes per module)", PTX_MAX_INIT_TOTAL);
}

static ptx_space space_from_directive(const token *t)
{
    if (tok_is(t, ".global")) return PTX_SPACE_GLOBAL;
    if (tok_is(t, ".const")) return PTX_SPACE_CONST;
    if (tok_is(t, ".shared") || tok_is(t, ".shared::cta")) return PTX_SPACE_SHARED;
    if (tok_is(t, ".local")) return PTX_SPACE_LOCAL;
    if (tok_is(t, ".param")) return PTX_SPACE_PARAM;
    return PTX_SPACE_NONE;
}

static uint32_t new_module_var(parser *P, const token *name, ptx_space space, const decl_spec *d,
                               const var_shape *vs, int is_extern)
{
    if (d->is_managed && space != PTX_SPACE_GLOBAL)
        parse_fail_tok(P, name, ".attribute(.managed) is only allowed on .global variables");
    ptx_module *m = P->m;
    m->vars = xrealloc_array(P, m->vars, &P->vars_cap, m->nvars + 1, sizeof(ptx_var), PTX_MAX_VARS,
                             "variables");
    ptx_var *v = &m->vars[m->nvars];
    memset(v, 0, sizeof(*v));
    v->name = xstrndup(P, name->text, name->len);
    v->space = (uint8_t)space;
    v->type = (uint8_t)d->type;
    v->is_extern = (uint8_t)is_extern;
    v->is_managed = (uint8_t)d->is_managed;
    v->align = d->align ? d->align : (uint32_t)(vs->elem_size * d->vecn);
    v->size = vs->size;
    v->line = name->line;
    return m->nvars++;
}

/* A state-space variable declaration: the current token is the space directive
 * (.global/.const/.shared/.local/.param).  At module scope every variable is a
 * module variable; inside a function, .local and .param variables live in the
 * frame and .shared/.global/.const ones are module variables visible only in
 * their scope (nvcc "demotes" kernel-private __shared__ arrays this way). */
static void parse_var_decl(parser *P, int is_extern)
{
    token sp = P->tok;
    ptx_space space = space_from_directive(&sp);
    int in_func = P->fn != NULL;
    if (!in_func && space == PTX_SPACE_LOCAL)
        parse_fail_tok(P, &sp, "unsupported: module-scope .local variable");
    if (!in_func && space == PTX_SPACE_PARAM)
        parse_fail_tok(P, &sp, "unsupported: module-scope .param variable");
    next_token(P);
    decl_spec d;
    parse_decl_spec(P, &d, 0);
    do {
        token name = expect_ident(P, "a variable name");
        var_shape vs;
        parse_dims(P, &d, &vs);
        check_redeclare(P, &name, name.text, name.len);
        int has_init = tok_is_punct(&P->tok, '=');
        if (vs.unsized && !has_init && !(is_extern && space != PTX_SPACE_LOCAL && space != PTX_SPACE_PARAM))
            parse_fail_tok(P, &name, "unsized array '%.*s' needs an initializer or .extern",
                           name.len > 64 ? 64 : (int)name.len, name.text);
        if (space == PTX_SPACE_LOCAL || space == PTX_SPACE_PARAM) {
            if (has_init)
                parse_fail_tok(P, &P->tok, "%s variables cannot be initialized",
                               space == PTX_SPACE_LOCAL ? ".local" : ".param");
            uint32_t align = d.align ? d.align : (uint32_t)(vs.elem_size * d.vecn);
            if (align == 0)
                align = 1;
            uint32_t off = frame_alloc(P, &name, vs.size, align);
            sym *s = sym_add(P, name.text, name.len, space == PTX_SPACE_LOCAL ? SYM_LOCAL : SYM_PARAM);
            s->offset = off;
            s->size = vs.size;
            s->type = (uint8_t)d.type;
            continue;
        }
        if (has_init && space == PTX_SPACE_SHARED)
            parse_fail_tok(P, &P->tok, ".shared variables cannot be initialized");
        if (has_init && is_extern)
            parse_fail_tok(P, &P->tok, ".extern variables cannot be initialized");
        uint32_t vi = new_module_var(P, &name, space, &d, &vs, is_extern);
        if (accept_punct(P, '='))
            parse_initializer(P, vi, &vs, d.type);
        sym *s = sym_add(P, name.text, name.len, SYM_VAR);
        s->index = vi;
        s->type = (uint8_t)d.type;
        s->size = P->m->vars[vi].size;
    } while (accept_punct(P, ','));
    expect_punct(P, ';', "';' after variable declaration");
}

/* ------------------------------------------------------------------------ */
/* functions                                                                 */
/* ------------------------------------------------------------------------ */

/* One formal: .param [.align N] .type [.ptr ...] name [dims] */
static void parse_formal(parser *P, int is_entry, int is_ret)
{
    char buf[96];
    /* .reg formals: a .func only (ptxas needs them for more than one return value) */
    int is_reg = tok_is(&P->tok, ".reg");
    if (is_reg && is_entry)
        parse_fail_tok(P, &P->tok, "kernel parameters must be .param, not .reg");
    if (!is_reg && !tok_is(&P->tok, ".param"))
        parse_fail_tok(P, &P->tok, "expected '.param', found %s", tok_text(&P->tok, buf, sizeof buf));
    token space_tok = P->tok;
    next_token(P);
    decl_spec d;
    parse_decl_spec(P, &d, is_entry);
    if (is_reg && (d.type == PTX_T_PRED || ptx_type_size(d.type) == 0 || ptx_type_size(d.type) > 8 || d.vecn > 1))
        parse_fail_tok(P, &space_tok, "unsupported: .reg parameter of this type (scalar integer, bit or float only)");
    token name = expect_ident(P, "a parameter name");
    var_shape vs;
    parse_dims(P, &d, &vs);
    if (vs.unsized)
        parse_fail_tok(P, &name, "parameter '%.*s' must have a size", name.len > 64 ? 64 : (int)name.len, name.text);
    if (is_reg && vs.size != ptx_type_size(d.type))
        parse_fail_tok(P, &name, "a .reg parameter cannot be an array");
    uint32_t limit = is_entry ? PTX_MAX_KPARAMS : PTX_MAX_FPARAMS + PTX_MAX_FRETS;
    P->sparams = xrealloc_array(P, P->sparams, &P->sparams_cap, P->nsparams + 1,
                                sizeof(struct scratch_param), limit, "parameters");
    struct scratch_param *sp = &P->sparams[P->nsparams++];
    sp->name = arena_strndup(P, name.text, name.len);
    sp->len = name.len;
    sp->type = (uint8_t)d.type;
    sp->is_ptr = (uint8_t)d.is_ptr;
    sp->is_ret = (uint8_t)is_ret;
    sp->is_reg = (uint8_t)is_reg;
    sp->size = vs.size;
    sp->align = d.align ? d.align : (uint32_t)(vs.elem_size * d.vecn);
    if (sp->align == 0)
        sp->align = 1;
    sp->line = name.line;
    sp->col = name.col;
}

/* '(' [formal {, formal}] ')' */
static void parse_formal_list(parser *P, int is_entry, int is_ret)
{
    expect_punct(P, '(', "'('");
    if (!tok_is_punct(&P->tok, ')')) {
        do
            parse_formal(P, is_entry, is_ret);
        while (accept_punct(P, ','));
    }
    expect_punct(P, ')', "')' after parameter list");
}

static void parse_dim3_directive(parser *P, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        out[i] = expect_u32(P, "a thread count");
        if (!accept_punct(P, ','))
            break;
    }
}

/* Performance directives and attributes between the header and the body. */
static void parse_function_attrs(parser *P, ptx_function *f)
{
    char buf[96];
    while (P->tok.kind == TK_DOTNAME) {
        token t = P->tok;
        next_token(P);
        if (tok_is(&t, ".maxntid"))
            parse_dim3_directive(P, f->maxntid);
        else if (tok_is(&t, ".reqntid"))
            parse_dim3_directive(P, f->reqntid);
        else if (tok_is(&t, ".minnctapersm"))
            f->minnctapersm = expect_u32(P, "a CTA count");
        else if (tok_is(&t, ".maxnctapersm"))
            expect_u32(P, "a CTA count"); /* deprecated, no effect */
        else if (tok_is(&t, ".maxnreg"))
            f->maxnreg = expect_u32(P, "a register count");
        else if (tok_is(&t, ".noreturn"))
            ;
        else if (tok_is(&t, ".pragma")) {
            while (P->tok.kind == TK_STRING)
                next_token(P);
            expect_punct(P, ';', "';' after .pragma");
        } else
            parse_fail_tok(P, &t, "unsupported function directive %s", tok_text(&t, buf, sizeof buf));
    }
}

static ptx_param *commit_params(parser *P, int is_ret, uint32_t *count)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < P->nsparams; i++)
        n += P->sparams[i].is_ret == is_ret;
    *count = 0;
    if (n == 0)
        return NULL;
    ptx_param *ps = calloc(n, sizeof(ptx_param));
    if (!ps)
        parse_fail(P, P->tok.line, P->tok.col, "out of memory");
    return ps;
}

/* Copy the scratch formals into f (names, sizes), and lay them out: kernel params
 * in the parameter buffer, .func returns then formals at the start of the frame. */
static void install_params(parser *P, ptx_function *f)
{
    for (uint32_t i = 0; i < f->nparams; i++)
        free(f->params[i].name);
    free(f->params);
    f->params = NULL;
    f->nparams = 0;
    for (uint32_t i = 0; i < f->nrets; i++)
        free(f->rets[i].name);
    free(f->rets);
    f->rets = NULL;
    f->nrets = 0;

    uint32_t nret = 0, npar = 0;
    f->rets = commit_params(P, 1, &f->nrets);
    f->params = commit_params(P, 0, &f->nparams);
    uint64_t off = 0, maxalign = 1;
    for (int pass = 0; pass < 2; pass++) {
        /* .func frame: returns first, then formals; .entry: formals only */
        int want_ret = pass == 0;
        for (uint32_t i = 0; i < P->nsparams; i++) {
            struct scratch_param *sp = &P->sparams[i];
            if (sp->is_ret != want_ret)
                continue;
            ptx_param *p = want_ret ? &f->rets[nret] : &f->params[npar];
            p->name = xstrndup(P, sp->name, sp->len);
            if (want_ret)
                f->nrets = ++nret;
            else
                f->nparams = ++npar;
            p->type = sp->type;
            p->size = (uint32_t)sp->size;
            p->align = sp->align;
            p->is_ptr = sp->is_ptr;
            p->is_reg = sp->is_reg;
            off = align_up(off, sp->align);
            p->offset = (uint32_t)off;
            off += sp->size;
            if (sp->align > maxalign)
                maxalign = sp->align;
            uint64_t limit = f->is_entry ? PTX_MAX_KPARAM_BYTES : PTX_MAX_FRAME;
            if (off > limit)
                parse_fail(P, sp->line, sp->col, "parameters of '%s' too large (limit %llu bytes)", f->name,
                           (unsigned long long)limit);
        }
    }
    if (f->is_entry)
        f->kparam_size = (uint32_t)align_up(off, maxalign);
}

/* Do two headers of the same function agree (count and size of each formal)? */
static int params_match(const parser *P, const ptx_function *f)
{
    uint32_t np = 0, nr = 0;
    for (uint32_t i = 0; i < P->nsparams; i++) {
        const struct scratch_param *sp = &P->sparams[i];
        if (sp->is_ret) {
            if (nr >= f->nrets || f->rets[nr].size != sp->size)
                return 0;
            nr++;
        } else {
            if (np >= f->nparams || f->params[np].size != sp->size)
                return 0;
            np++;
        }
    }
    return np == f->nparams && nr == f->nrets;
}

/* Find or create the function named name; handle redeclaration. */
static uint32_t declare_function(parser *P, const token *name, int is_entry, int has_body, int is_extern,
                                 int is_visible)
{
    ptx_module *m = P->m;
    uint32_t elem;
    sym *s = sym_lookup(P, name->text, name->len, &elem);
    uint32_t fi;
    if (s && s->kind == SYM_FUNC) {
        fi = s->index;
        ptx_function *f = &m->funcs[fi];
        if (has_body && P->fdefined[fi])
            parse_fail_tok(P, name, "redefinition of function '%s' (first defined at line %u)", f->name, f->line);
        if (f->is_entry != is_entry || !params_match(P, f))
            parse_fail_tok(P, name, "declaration of '%s' conflicts with the one at line %u", f->name, f->line);
        if (has_body) {
            f->line = name->line;
            install_params(P, f); /* the definition's parameter names are the ones in scope */
        }
    } else {
        if (s)
            parse_fail_tok(P, name, "'%.*s' redeclared as a function", name->len > 64 ? 64 : (int)name->len,
                           name->text);
        m->funcs = xrealloc_array(P, m->funcs, &P->funcs_cap, m->nfuncs + 1, sizeof(ptx_function),
                                  PTX_MAX_FUNCS, "functions");
        P->fdefined = xrealloc_array(P, P->fdefined, &P->fdefined_cap, m->nfuncs + 1, 1, PTX_MAX_FUNCS,
                                     "functions");
        fi = m->nfuncs;
        ptx_function *f = &m->funcs[fi];
        memset(f, 0, sizeof(*f));
        f->name = xstrndup(P, name->text, name->len);
        f->is_entry = is_entry;
        f->line = name->line;
        m->nfuncs++;
        install_params(P, f);
        sym *fs = sym_add(P, name->text, name->len, SYM_FUNC);
        fs->index = fi;
    }
    ptx_function *f = &m->funcs[fi];
    f->is_visible |= is_visible;
    if (is_extern)
        f->is_extern = 1;
    if (has_body) {
        f->is_extern = 0;
        P->fdefined[fi] = 1;
    }
    return fi;
}

static void skip_rest_of_line(parser *P);
static void parse_body(parser *P);

/* .entry / .func: the current token is the directive. */
static void parse_function(parser *P, int is_extern, int is_visible)
{
    char buf[96];
    int is_entry = tok_is(&P->tok, ".entry");
    next_token(P);
    P->nsparams = 0;
    if (!is_entry && tok_is_punct(&P->tok, '('))
        parse_formal_list(P, 0, 1);
    token name = expect_ident(P, "a function name");
    if (tok_is_punct(&P->tok, '('))
        parse_formal_list(P, is_entry, 0);
    uint32_t nformals = 0, nrets = 0;
    for (uint32_t i = 0; i < P->nsparams; i++) {
        nrets += P->sparams[i].is_ret;
        nformals += !P->sparams[i].is_ret;
    }
    if (!is_entry && nformals > PTX_MAX_FPARAMS)
        parse_fail_tok(P, &name, "unsupported: more than %d parameters in .func '%.*s'", PTX_MAX_FPARAMS,
                       name.len > 64 ? 64 : (int)name.len, name.text);
    if (nrets > PTX_MAX_FRETS)
        parse_fail_tok(P, &name, "unsupported: more than %d return parameters", PTX_MAX_FRETS);

    /* attributes come before the body or ';', but we need the function record to
     * store them: parse into a temporary and copy */
    ptx_function attrs;
    memset(&attrs, 0, sizeof(attrs));
    parse_function_attrs(P, &attrs);
    int has_body = tok_is_punct(&P->tok, '{');
    if (!has_body && !tok_is_punct(&P->tok, ';'))
        parse_fail_tok(P, &P->tok, "expected '{' or ';' after function header, found %s",
                       tok_text(&P->tok, buf, sizeof buf));
    if (has_body && is_extern)
        parse_fail_tok(P, &P->tok, ".extern function '%.*s' cannot have a body",
                       name.len > 64 ? 64 : (int)name.len, name.text);
    uint32_t fi = declare_function(P, &name, is_entry, has_body, is_extern, is_visible);
    ptx_function *f = &P->m->funcs[fi];
    /* a definition without performance directives keeps its prototype's */
    if (attrs.maxntid[0])
        memcpy(f->maxntid, attrs.maxntid, sizeof(f->maxntid));
    if (attrs.reqntid[0])
        memcpy(f->reqntid, attrs.reqntid, sizeof(f->reqntid));
    if (attrs.minnctapersm)
        f->minnctapersm = attrs.minnctapersm;
    if (attrs.maxnreg)
        f->maxnreg = attrs.maxnreg;
    if (!has_body) {
        next_token(P); /* ';' */
        return;
    }

    /* body: formals are in scope (depth 1), the braces open depth 2 */
    P->fn = f;
    P->fn_index = fi;
    P->insns_cap = P->calls_cap = 0;
    P->vnames_cap = P->vtypes_cap = P->pnames_cap = 0;
    P->vregs_live = P->pregs_live = 0;
    P->frame_top = 0;
    f->frame_size = 0;
    f->frame_align = 1;
    reset_labels(P);
    scope_push(P, &P->tok);
    if (f->is_entry) {
        for (uint32_t i = 0; i < f->nparams; i++) {
            sym *dup = sym_find(P, f->params[i].name, (uint32_t)strlen(f->params[i].name), 0);
            if (dup && dup->depth == P->depth)
                parse_fail(P, f->line, 1, "parameter '%s' declared twice", f->params[i].name);
            sym *s = sym_add(P, f->params[i].name, (uint32_t)strlen(f->params[i].name), SYM_KPARAM);
            s->offset = f->params[i].offset;
            s->size = f->params[i].size;
            s->type = f->params[i].type;
        }
    } else {
        /* returns and formals occupy the start of the frame */
        for (int r = 0; r < 2; r++) {
            ptx_param *ps = r ? f->params : f->rets;
            uint32_t n = r ? f->nparams : f->nrets;
            for (uint32_t i = 0; i < n; i++) {
                if (sym_find(P, ps[i].name, (uint32_t)strlen(ps[i].name), 0) &&
                    sym_find(P, ps[i].name, (uint32_t)strlen(ps[i].name), 0)->depth == P->depth)
                    parse_fail(P, f->line, 1, "parameter '%s' declared twice", ps[i].name);
                uint32_t nlen = (uint32_t)strlen(ps[i].name);
                if (ps[i].is_reg) { /* a register of the callee, set by the call */
                    ps[i].reg = alloc_regs(P, &P->tok, 0, 1, (ptx_type)ps[i].type, ps[i].name, nlen, 0);
                    sym *s = sym_add(P, ps[i].name, nlen, SYM_VREG);
                    s->index = ps[i].reg;
                    s->type = ps[i].type;
                    continue;
                }
                sym *s = sym_add(P, ps[i].name, nlen, SYM_PARAM);
                s->offset = ps[i].offset;
                s->size = ps[i].size;
                s->type = ps[i].type;
                uint32_t end = ps[i].offset + ps[i].size;
                if (end > P->frame_top)
                    P->frame_top = end;
                if (ps[i].align > f->frame_align)
                    f->frame_align = ps[i].align;
            }
        }
        f->frame_size = P->frame_top;
    }
    parse_body(P);
}

/* Patch branch targets once every label of the function is known. */
static void resolve_labels(parser *P)
{
    ptx_function *f = P->fn;
    for (uint32_t i = 0; i < P->nfixups; i++) {
        label_fixup *fx = &P->fixups[i];
        label *l = &P->labels[fx->label];
        if (l->target == UINT32_MAX)
            parse_fail(P, l->use_line, l->use_col, "undefined label '%.*s' in '%s'",
                       l->len > 64 ? 64 : (int)l->len, l->name, f->name);
        f->insns[fx->insn].opnd[fx->opnd].imm = l->target;
    }
}

/* Statements of a function body until its closing brace. */
static void parse_body(parser *P)
{
    char buf[96];
    uint32_t body_depth = P->depth; /* the function scope; '{' opens body_depth + 1 */
    scope_push(P, &P->tok);
    next_token(P); /* '{' */
    for (;;) {
        token t = P->tok;
        if (tok_is_punct(&t, '}')) {
            scope_pop(P);
            next_token(P);
            if (P->depth == body_depth)
                break;
            continue;
        }
        if (tok_is_punct(&t, '{')) {
            scope_push(P, &t);
            next_token(P);
            continue;
        }
        if (t.kind == TK_EOF)
            parse_fail_tok(P, &t, "unexpected end of file in function '%s': expected '}'", P->fn->name);
        if (t.kind == TK_DOTNAME) {
            if (tok_is(&t, ".reg"))
                parse_reg_decl(P);
            else if (space_from_directive(&t) != PTX_SPACE_NONE)
                parse_var_decl(P, 0);
            else if (tok_is(&t, ".extern") && space_from_directive(peek_token(P)) == PTX_SPACE_SHARED) {
                next_token(P); /* .extern .shared inside a body: dynamic shared memory */
                parse_var_decl(P, 1);
            }
            else if (tok_is(&t, ".loc") || tok_is(&t, ".file"))
                skip_rest_of_line(P);
            else if (tok_is(&t, ".pragma")) {
                next_token(P);
                while (P->tok.kind == TK_STRING)
                    next_token(P);
                expect_punct(P, ';', "';' after .pragma");
            } else if (tok_is(&t, ".callprototype")) {
                /* the type of an indirect call (label: .callprototype (ret) _ (params);):
                 * the callee found at run time gives the sizes, so nothing is kept */
                skip_statement(P);
            }
            else if (tok_is(&t, ".calltargets"))   /* the table of a call with a list of possible targets */
                parse_fail_tok(P, &t, "unsupported: a call's .calltargets table (calls through a register run)");
            else if (tok_is(&t, ".branchtargets"))   /* the table of a brx.idx */
                parse_fail_tok(P, &t, "unsupported: brx.idx (indirect branch; its .branchtargets table)");
            else
                parse_fail_tok(P, &t, "unexpected directive %s in function body", tok_text(&t, buf, sizeof buf));
            continue;
        }
        if (t.kind == TK_IDENT && tok_is_punct(peek_token(P), ':')) {
            label_define(P, &t);
            next_token(P);
            next_token(P);
            continue;
        }
        if (t.kind == TK_IDENT || tok_is_punct(&t, '@')) {
            parse_statement(P);
            continue;
        }
        parse_fail_tok(P, &t, "expected an instruction, found %s", tok_text(&t, buf, sizeof buf));
    }
    resolve_labels(P);
    if (ptx_build_cfg(P->fn) < 0)
        parse_fail(P, P->fn->line, 1, "out of memory building the control-flow graph of '%s'", P->fn->name);
    ptx_live live;
    ptx_find_zero_regs(P->fn, &live); /* out of memory: unknown, every register is zeroed */
    int slots = ptx_assign_reg_slots(P->fn, &live);
    ptx_live_free(&live);
    if (slots < 0) parse_fail(P, P->fn->line, 1, "out of memory assigning the registers of '%s'", P->fn->name);
    scope_pop(P); /* the formals */
    P->fn = NULL;
}

/* ------------------------------------------------------------------------ */
/* module                                                                    */
/* ------------------------------------------------------------------------ */

/* Line-oriented debug directives (.loc, .file): ignore the rest of their line. */
static void skip_rest_of_line(parser *P)
{
    uint32_t line = P->tok.line;
    if (P->has_ahead) {
        if (P->ahead.line != line) {
            next_token(P);
            return;
        }
        P->has_ahead = 0;
    }
    if (P->lx.line == line)
        lex_skip_line(&P->lx);
    next_token(P);
}

/* .section name { ... }: debug sections, skipped by brace matching. */
static void skip_section(parser *P)
{
    token start = P->tok;
    next_token(P);
    if (P->tok.kind != TK_DOTNAME && P->tok.kind != TK_IDENT)
        parse_fail_tok(P, &P->tok, "expected a section name after .section");
    next_token(P);
    if (!tok_is_punct(&P->tok, '{'))
        parse_fail_tok(P, &P->tok, "expected '{' after .section name");
    /* Contents may hold anything (DWARF); skip tokens, counting braces. */
    uint32_t depth = 1;
    while (depth) {
        next_token(P);
        if (P->tok.kind == TK_EOF)
            parse_fail_tok(P, &start, "unterminated .section (missing '}')");
        if (tok_is_punct(&P->tok, '{'))
            depth++;
        else if (tok_is_punct(&P->tok, '}'))
            depth--;
    }
    next_token(P);
}

static void parse_version(parser *P)
{
    next_token(P);
    token v = P->tok;
    unsigned major = 0, minor = 0;
    int ok = 0;
    if (v.kind == TK_FLOAT && v.fkind == FK_DEC && v.len < 16) {
        char s[16];
        memcpy(s, v.text, v.len);
        s[v.len] = 0;
        char tail;
        ok = sscanf(s, "%u.%u%c", &major, &minor, &tail) == 2;
    }
    if (!ok)
        parse_fail_tok(P, &v, "expected a version number like 9.0 after .version");
    if (major < 1 || major > 9)
        parse_fail_tok(P, &v, "unsupported PTX version %u.%u (this front end reads PTX ISA 1.0 to 9.x)", major,
                       minor);
    P->m->version_major = major;
    P->m->version_minor = minor;
    next_token(P);
}

static void parse_target(parser *P)
{
    char buf[96];
    next_token(P);
    do {
        token t = expect_ident(P, "a target name");
        unsigned sm = 0;
        char s[32];
        if (t.len < sizeof(s)) {
            memcpy(s, t.text, t.len);
            s[t.len] = 0;
        } else {
            s[0] = 0;
        }
        if ((sscanf(s, "sm_%u", &sm) == 1 || sscanf(s, "compute_%u", &sm) == 1) && sm > 0)
            P->m->target_sm = sm;
        else if (!strcmp(s, "debug") || !strcmp(s, "texmode_unified") || !strcmp(s, "texmode_independent"))
            ;
        else if (!strcmp(s, "map_f64_to_f32"))
            parse_fail_tok(P, &t, "unsupported: .target map_f64_to_f32");
        else
            parse_fail_tok(P, &t, "unknown target %s", tok_text(&t, buf, sizeof buf));
    } while (accept_punct(P, ','));
}

static void parse_toplevel(parser *P)
{
    char buf[96];
    int is_extern = 0, is_visible = 0;
    token t = P->tok;
    if (t.kind != TK_DOTNAME)
        parse_fail_tok(P, &t, "expected a directive, found %s", tok_text(&t, buf, sizeof buf));
    if (tok_is(&t, ".version"))
        parse_fail_tok(P, &t, "duplicate .version directive");
    if (tok_is(&t, ".target"))
        parse_fail_tok(P, &t, "duplicate .target directive");
    if (tok_is(&t, ".address_size")) {
        next_token(P);
        token at = P->tok;
        uint32_t n = expect_u32(P, "an address size");
        if (n != 64)
            parse_fail_tok(P, &at, "unsupported: .address_size %u (only 64)", n);
        P->m->address_size = n;
        return;
    }
    if (tok_is(&t, ".file") || tok_is(&t, ".loc")) {
        skip_rest_of_line(P);
        return;
    }
    if (tok_is(&t, ".section")) {
        skip_section(P);
        return;
    }
    if (tok_is(&t, ".pragma")) {
        next_token(P);
        while (P->tok.kind == TK_STRING)
            next_token(P);
        expect_punct(P, ';', "';' after .pragma");
        return;
    }
    /* linkage prefixes */
    while (P->tok.kind == TK_DOTNAME) {
        if (tok_is(&P->tok, ".visible"))
            is_visible = 1;
        else if (tok_is(&P->tok, ".extern"))
            is_extern = 1;
        else if (tok_is(&P->tok, ".weak") || tok_is(&P->tok, ".common"))
            is_visible = 1;
        else
            break;
        next_token(P);
    }
    t = P->tok;
    if (tok_is(&t, ".entry") || tok_is(&t, ".func")) {
        parse_function(P, is_extern, is_visible);
        return;
    }
    if (space_from_directive(&t) != PTX_SPACE_NONE) {
        parse_var_decl(P, is_extern); /* visibility is a linker matter: ignored */
        return;
    }
    if (tok_is(&t, ".callprototype"))
        parse_fail_tok(P, &t, ".callprototype is not supported (indirect calls)");
    if (t.kind == TK_DOTNAME)
        parse_fail_tok(P, &t, "unsupported directive %s", tok_text(&t, buf, sizeof buf));
    parse_fail_tok(P, &t, "expected a directive, found %s", tok_text(&t, buf, sizeof buf));
}

/* Bind every call to its callee now that all functions are declared. */
static void resolve_calls(parser *P)
{
    ptx_module *m = P->m;
    for (uint32_t i = 0; i < P->ncfix; i++) {
        call_fixup *c = &P->cfix[i];
        sym *s = sym_find(P, c->callee, c->callee_len, 0);
        if (!s || s->kind != SYM_FUNC)
            parse_fail(P, c->line, c->col, "call to undeclared function '%.*s'",
                       c->callee_len > 64 ? 64 : (int)c->callee_len, c->callee);
        ptx_function *callee = &m->funcs[s->index];
        ptx_function *caller = &m->funcs[c->func];
        ptx_call *call = &caller->calls[c->call];
        if (callee->is_entry)
            parse_fail(P, c->line, c->col, "cannot call kernel '%s'", callee->name);
        if (call->nargs != callee->nparams)
            parse_fail(P, c->line, c->col, "call to '%s' passes %u arguments, it takes %u", callee->name,
                       call->nargs, callee->nparams);
        if (call->nrets != 0 && call->nrets != callee->nrets)
            parse_fail(P, c->line, c->col, "call to '%s' expects %u return values, it returns %u",
                       callee->name, call->nrets, callee->nrets);
        for (uint32_t a = 0; a < call->nargs; a++)
            if (c->arg_size[a] != callee->params[a].size)
                parse_fail(P, c->line, c->col, "argument %u of call to '%s' is %llu bytes, the parameter is %u",
                           a + 1, callee->name, (unsigned long long)c->arg_size[a], callee->params[a].size);
        for (uint32_t r = 0; r < call->nrets; r++)
            if (c->ret_size[r] != callee->rets[r].size)
                parse_fail(P, c->line, c->col, "return value %u of call to '%s' is %llu bytes, the function returns %u",
                           r + 1, callee->name, (unsigned long long)c->ret_size[r], callee->rets[r].size);
        call->func = s->index;
        caller->insns[c->insn].opnd[0].imm = s->index;
    }
}

static void parse_module(parser *P)
{
    next_token(P);
    while (tok_is(&P->tok, ".file") || tok_is(&P->tok, ".loc"))
        skip_rest_of_line(P);
    if (!tok_is(&P->tok, ".version"))
        parse_fail_tok(P, &P->tok, "expected '.version' at the start of the module");
    parse_version(P);
    while (tok_is(&P->tok, ".file") || tok_is(&P->tok, ".loc"))
        skip_rest_of_line(P);
    /* ptxas: "Missing .target directive at start of file" */
    if (!tok_is(&P->tok, ".target"))
        parse_fail_tok(P, &P->tok, "expected '.target' after .version");
    parse_target(P);
    while (P->tok.kind != TK_EOF)
        parse_toplevel(P);
    resolve_calls(P);
    for (uint32_t i = 0; i < P->m->nfuncs; i++)
        if (!P->fdefined[i])
            P->m->funcs[i].is_extern = 1; /* declared only: must be provided by the runtime */
}

static void parser_cleanup(parser *P)
{
    arena_free(&P->names);
    free(P->syms.ents);
    free(P->syms.buckets);
    free(P->labels);
    free(P->label_buckets);
    free(P->fixups);
    free(P->cfix);
    free(P->fdefined);
    free(P->sparams);
}

/* The only setjmp: a failure anywhere in the parse returns -1 here.  Kept apart
 * from ptx_parse so no local variable lives across the longjmp. */
static int run_parse(parser *P, const char *file)
{
    if (setjmp(P->fail) != 0)
        return -1;
    P->m->source_name = xstrndup(P, file, strlen(file));
    parse_module(P);
    return 0;
}

ptx_module *ptx_parse(const char *text, size_t len, const char *source_name, ptx_error *err)
{
    return ptx_parse_ex(text, len, source_name, 0, err);
}

ptx_module *ptx_parse_ex(const char *text, size_t len, const char *source_name, unsigned flags, ptx_error *err)
{
    ptx_error dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof(*err));
    const char *file = source_name ? source_name : "<ptx>";
    if (len && !text) {
        snprintf(err->file, sizeof(err->file), "%s", file);
        snprintf(err->msg, sizeof(err->msg), "%s: no text", file);
        return NULL;
    }
    parser *P = calloc(1, sizeof(parser));
    if (P)
        P->m = calloc(1, sizeof(ptx_module));
    if (!P || !P->m) {
        free(P);
        snprintf(err->file, sizeof(err->file), "%s", file);
        snprintf(err->msg, sizeof(err->msg), "%s: out of memory", file);
        return NULL;
    }
    P->file = file;
    P->err = err;
    P->flags = flags;
    P->m->address_size = 64;
    lex_init(&P->lx, text ? text : "", len);
    /* Everything the parse allocates hangs off P (see parse.h), so a failure
     * anywhere leaves nothing to unwind but P itself. */
    ptx_module *result = NULL;
    if (run_parse(P, file) == 0) {
        result = P->m;
        P->m = NULL;
    }
    parser_cleanup(P);
    ptx_module_free(P->m);
    free(P);
    return result;
}
