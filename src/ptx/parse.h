/* Internal interface of the PTX front end (not for users of the IR).
 *
 * parser.c owns the parse: module structure, directives, declarations, scopes.
 * insn.c decodes one instruction statement into a ptx_insn.  cfg.c builds the
 * control-flow graph of a finished function and sets the reconvergence points.
 *
 * Errors: parse_fail() formats "file:line:col: message" into the caller's
 * ptx_error and longjmps back to ptx_parse(), which frees everything.  So every
 * allocation made during a parse must be reachable from the parser (the module
 * being built, or the parser's own tables) at all times: never hold a malloc'd
 * pointer only in a local variable across a call that can fail.
 */
#ifndef LOCSIM_PTX_PARSE_H
#define LOCSIM_PTX_PARSE_H

#include <setjmp.h>
#include <stdint.h>

#include "ptx/ir.h"
#include "ptx/lex.h"

/* ---- bounds: nothing in the input may make us allocate without limit ---- */
#define PTX_MAX_FUNCS        65536     /* functions per module */
#define PTX_MAX_VARS         (1u << 20)/* variables per module */
#define PTX_MAX_INSNS        (1u << 22)/* instructions per function */
#define PTX_MAX_REGS         (1u << 18)/* value (or predicate) registers per function */
#define PTX_MAX_REG_RANGE    PTX_MAX_REGS /* %r<N>: N per declaration (real files
                                          declare %r<70000>; ptxas takes 10^6) */
#define PTX_MAX_MODULE_REGS  (1u << 20)/* named registers in the whole module (each has
                                          a name string: bounds memory for tiny inputs
                                          declaring huge ranges in many functions) */
#define PTX_MAX_DEPTH        64        /* nesting of { } blocks */
#define PTX_MAX_KPARAMS      4096      /* kernel parameters */
#define PTX_MAX_FPARAMS      16        /* .func formals (ptx_call.args is 16 wide) */
#define PTX_MAX_FRETS        PTX_CALL_MAX_RETS /* .func return parameters (ptx_call.rets) */
#define PTX_MAX_VAR_BYTES    (1ull << 40) /* declared size of one variable */
#define PTX_MAX_INIT_BYTES   (16u << 20)  /* initialized bytes of one variable */
#define PTX_MAX_INIT_TOTAL   (64u << 20)  /* initialized bytes of the whole module */
#define PTX_MAX_FRAME        (1u << 24)   /* per-thread frame bytes of one function */
#define PTX_MAX_KPARAM_BYTES (1u << 16)   /* kernel parameter buffer */
#define PTX_MAX_MODS         16        /* modifiers on one opcode */
#define PTX_MAX_LABELS       (1u << 22)

/* ---- string arena: names used only while parsing (symbol tables) ---- */
typedef struct arena_chunk arena_chunk;
typedef struct {
    arena_chunk *head;
} arena;

/* ---- scoped symbol table ---------------------------------------------- */
typedef enum {
    SYM_VREG,    /* value register: index */
    SYM_PREG,    /* predicate register: index */
    SYM_VRANGE,  /* %r<count>: name is the prefix, registers index..index+count-1 */
    SYM_PRANGE,  /* same for predicates */
    SYM_LOCAL,   /* function-scope .local variable: frame offset */
    SYM_PARAM,   /* .param in the frame (.func formal/return, call-site param): frame offset */
    SYM_KPARAM,  /* kernel parameter: offset in the kernel parameter buffer */
    SYM_VAR,     /* module variable (also function-scope .shared/.global/.const): index */
    SYM_FUNC     /* function: index */
} sym_kind;

typedef struct {
    const char *name;   /* in the parser's arena */
    uint32_t len, hash;
    uint32_t next;      /* next entry in the same hash bucket, +1 (0 = end) */
    uint16_t depth;     /* scope depth: 0 module, 1 function, 2.. blocks */
    uint8_t kind;       /* sym_kind */
    uint8_t type;       /* declared ptx_type */
    uint32_t index;     /* register base / var / func index */
    uint32_t count;     /* ranges: number of registers */
    uint32_t offset;    /* LOCAL/PARAM/KPARAM: byte offset */
    uint64_t size;      /* LOCAL/PARAM/KPARAM: bytes */
} sym;

typedef struct {
    sym *ents;
    uint32_t n, cap;
    uint32_t *buckets;  /* entry index + 1, 0 = empty */
    uint32_t nbuckets;  /* power of two */
} symtab;

/* ---- labels of the function being parsed ------------------------------ */
typedef struct {
    const char *name;
    uint32_t len, hash;
    uint32_t next;      /* bucket chain, +1 */
    uint32_t target;    /* instruction index, or UINT32_MAX while undefined */
    uint32_t use_line, use_col; /* first use, for "undefined label" */
    uint32_t def_line;
} label;

typedef struct {
    uint32_t insn, opnd, label;
} label_fixup;

/* A call whose callee is resolved at the end of the module (a .func may be
 * called before its declaration is complete). */
typedef struct {
    uint32_t func, call, insn; /* caller function, call index and instruction in it */
    const char *callee;        /* arena */
    uint32_t callee_len;
    uint32_t line, col;
    uint64_t arg_size[PTX_MAX_FPARAMS], ret_size[PTX_MAX_FRETS]; /* call-site .param sizes */
} call_fixup;

/* A formal parameter while its function header is parsed. */
struct scratch_param {
    const char *name;          /* arena */
    uint32_t len;
    uint8_t type, is_ptr, is_ret, is_reg;
    uint64_t size;
    uint32_t align;
    uint32_t line, col;
};

/* Per-scope state restored when a { } block closes. */
typedef struct {
    uint32_t sym_mark;         /* symtab entries to keep */
    uint32_t vregs, pregs;     /* live register counts (indices are reused after the block) */
    uint32_t frame_top;        /* frame cursor */
} scope_mark;

typedef struct parser {
    lexer lx;
    token tok;                 /* current token */
    token ahead;               /* one token of lookahead, valid if has_ahead */
    int has_ahead;
    const char *file;          /* source name for messages */
    ptx_error *err;
    jmp_buf fail;
    unsigned flags;            /* PTX_PARSE_LAZY */
    int in_insn;               /* insn_fail is armed (an instruction is being decoded) */
    jmp_buf insn_fail;         /* parse_unsupported: back to parse_body, statement left out */

    ptx_module *m;
    uint32_t funcs_cap, vars_cap;
    uint64_t init_total;       /* initializer bytes so far */

    arena names;               /* parse-time strings */
    symtab syms;
    int digit_prefix_ranges;   /* some %name<N> prefix ends in a digit (see sym_lookup) */
    uint32_t module_regs;      /* registers named so far, all functions */

    /* function being defined (NULL outside a body) */
    ptx_function *fn;
    uint32_t fn_index;
    uint32_t insns_cap, calls_cap;
    uint32_t vnames_cap, vtypes_cap, pnames_cap;
    uint32_t vregs_live, pregs_live; /* next free register index */
    uint32_t frame_top;
    scope_mark scopes[PTX_MAX_DEPTH + 2];
    uint32_t depth;            /* 0 module, 1 function body, 2.. blocks */

    label *labels;
    uint32_t nlabels, labels_cap;
    uint32_t *label_buckets;
    uint32_t label_nbuckets;
    label_fixup *fixups;
    uint32_t nfixups, fixups_cap;

    call_fixup *cfix;
    uint32_t ncfix, cfix_cap;

    uint8_t *fdefined;         /* per function: body seen */
    uint32_t fdefined_cap;

    /* scratch for a function header being parsed (names in the arena) */
    struct scratch_param *sparams;
    uint32_t nsparams, sparams_cap;
} parser;

/* ---- parser.c helpers used by insn.c ---- */
_Noreturn void parse_fail(parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void parse_fail_tok(parser *P, const token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An unsupported (but well-formed) instruction or special register at t: a parse
 * failure, or with PTX_PARSE_LAZY inside an instruction, recorded on the function
 * (the statement is left out; launching the function then fails). */
_Noreturn void parse_unsupported(parser *P, const token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* parse_unsupported with the message "<name> is not supported[ (why)]", the name
 * being the opcode at op with the modifiers written after it. */
_Noreturn void parse_not_supported(parser *P, const token *op, const char *why);
void next_token(parser *P);
const token *peek_token(parser *P);
void expect_punct(parser *P, char c, const char *what);
int accept_punct(parser *P, char c);
/* "'name'" for messages: the token text, truncated. */
const char *tok_text(const token *t, char *buf, size_t bufsz);

sym *sym_lookup(parser *P, const char *name, uint32_t len, uint32_t *elem);
uint32_t label_use(parser *P, const token *t);
void add_label_fixup(parser *P, uint32_t insn, uint32_t opnd, uint32_t label);
call_fixup *add_call_fixup(parser *P, uint32_t insn, uint32_t call, const token *callee);
const char *arena_strndup(parser *P, const char *s, size_t n);
void *xrealloc_array(parser *P, void *ptr, uint32_t *cap, uint32_t need, size_t elem,
                     uint32_t limit, const char *what);

ptx_type ptx_type_from_name(const char *s, uint32_t len); /* ".u32" -> PTX_T_U32, else NONE */
/* Bits of literal t (preceded by '-' if neg) as an operand of type ty (see parser.c). */
int64_t literal_bits(parser *P, const token *t, int neg, ptx_type ty);

/* ---- insn.c ---- */
/* Parse one instruction statement (the current token is its guard '@' or opcode)
 * up to and including ';', and append it to P->fn. */
void parse_instruction(parser *P);

/* ---- cfg.c ---- */
/* Build the CFG of a complete function and set ptx_insn.reconv on every branch.
 * Returns 0, or -1 on out-of-memory. */
int ptx_build_cfg(ptx_function *f);

#endif
