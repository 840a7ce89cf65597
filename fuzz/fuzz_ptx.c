/* libFuzzer target: ptx_parse on arbitrary bytes.
 *
 * A parse must either fail with a message naming a position, or produce a
 * module that passes ptx_module_verify (every index the executor follows is in
 * range) and that the disassembler can print.  Anything else -- a crash, a
 * leak, a hang, an inconsistent module -- is a finding.
 *
 * The PTX dictionary (ptx.dict) and a default input size are added to the
 * command line here, so `make fuzz` needs no extra flags.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static char dict_arg[4096];
    static char *args[256];
    int have_dict = 0, have_len = 0, n = *argc;
    for (int i = 1; i < n; i++) {
        if (strncmp((*argv)[i], "-dict=", 6) == 0)
            have_dict = 1;
        if (strncmp((*argv)[i], "-max_len=", 9) == 0)
            have_len = 1;
    }
    if (n + 2 >= (int)(sizeof(args) / sizeof(args[0])))
        return 0;
    for (int i = 0; i < n; i++)
        args[i] = (*argv)[i];
    if (!have_dict) {
        snprintf(dict_arg, sizeof dict_arg, "-dict=%s", LOCSIM_FUZZ_DICT);
        args[n++] = dict_arg;
    }
    if (!have_len)
        args[n++] = "-max_len=8192";
    args[n] = NULL;
    *argc = n;
    *argv = args;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_error err;
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &err);
    if (!m) {
        /* a failure must say where: "fuzz.ptx:LINE:COL: ..." */
        if (strncmp(err.msg, "fuzz.ptx:", 9) != 0 || err.line == 0) {
            fprintf(stderr, "error without a position: %s\n", err.msg);
            abort();
        }
        return 0;
    }
    char why[512];
    if (ptx_module_verify(m, why, sizeof why) != 0) {
        fprintf(stderr, "parsed module fails verification: %s\n", why);
        abort();
    }
    char line[512];
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        if (ptx_find_function(m, fn->name) < 0)
            abort();
        for (uint32_t i = 0; i < fn->ninsn; i++)
            ptx_insn_format(m, fn, &fn->insns[i], line, sizeof line);
    }
    for (uint32_t v = 0; v < m->nvars; v++)
        if (ptx_find_var(m, m->vars[v].name) < 0)
            abort();
    ptx_module_free(m);
    return 0;
}

/* ---- structure-aware mutations -------------------------------------------
 * Byte-level mutations of PTX almost always stop the parse at the first broken
 * token, so the code behind a successful parse (scopes, frames, calls, the CFG)
 * is reached rarely.  Half of the mutations therefore work on whole lines and
 * words -- delete, duplicate, move a line; replace a word by an opcode,
 * modifier, register or operand -- which keeps most inputs well-formed. */

static uint32_t rng_next(uint32_t *s)
{
    uint32_t x = *s ? *s : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

static const char *const words[] = {
#define OP(e, name, cls) name,
#include "ptx/opcodes.def"
#undef OP
    ".u32", ".s32", ".u64", ".s64", ".b32", ".b64", ".f32", ".f64", ".f16", ".pred", ".u16", ".b8",
    ".global", ".shared", ".local", ".param", ".const", ".v2", ".v4", ".rn", ".rzi", ".ftz", ".sat",
    ".approx", ".lo", ".hi", ".wide", ".eq", ".lt", ".and", ".sync", ".uni", ".to", ".add", ".cas",
    "%r1", "%r2", "%rd1", "%rd2", "%f1", "%fd1", "%p1", "%p2", "!%p1", "%tid.x", "%ctaid.y", "%laneid",
    "0", "1", "-1", "4", "0x7fffffff", "0f3F800000", "0d3FF0000000000000", "1.5", "_",
    "[%rd1]", "[%rd1+4]", "[%r1]", "{%r1, %r2}", "{%f1, %f2, _, %r1}", "$L__BB0_1", "$L__BB0_2",
    "@%p1", "@!%p2", "{", "}", ";", ",", "|", "ret;", "bra $L__BB0_1;", "$L__BB0_1:",
    ".reg .b32 %r<4>;", ".reg .pred %p<3>;", ".param .b32 param0;", ".local .align 8 .b8 __local_depot0[16];",
};

/* Line boundaries of data: starts[i], ends[i] (exclusive, without '\n'). */
static size_t split_lines(const uint8_t *data, size_t size, size_t *starts, size_t *ends, size_t max)
{
    size_t n = 0, b = 0;
    for (size_t i = 0; i <= size && n < max; i++) {
        if (i == size || data[i] == '\n') {
            starts[n] = b;
            ends[n++] = i;
            b = i + 1;
        }
    }
    return n;
}

#define MAX_LINES 4096
static size_t ls_[MAX_LINES], le_[MAX_LINES];
static uint8_t scratch[1 << 17];

/* Append bytes to scratch within max; returns the new length. */
static size_t put_bytes(size_t len, size_t max, const uint8_t *p, size_t n)
{
    if (len + n > max)
        n = max > len ? max - len : 0;
    memcpy(scratch + len, p, n);
    return len + n;
}

static size_t mutate_lines(uint8_t *data, size_t size, size_t max_size, uint32_t *rs)
{
    if (max_size > sizeof(scratch))
        max_size = sizeof(scratch);
    size_t n = split_lines(data, size, ls_, le_, MAX_LINES);
    if (n == 0)
        return 0;
    size_t a = rng_next(rs) % n, b = rng_next(rs) % n, len = 0;
    unsigned op = rng_next(rs) % 4;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *line = data + ls_[i];
        size_t ll = le_[i] - ls_[i];
        if (op == 0 && i == a)
            continue; /* delete line a */
        if (op == 2 && (i == a || i == b)) {
            size_t j = i == a ? b : a; /* swap lines a and b */
            line = data + ls_[j];
            ll = le_[j] - ls_[j];
        }
        if (op == 3 && i == a) {
            /* replace one space-separated word of line a */
            size_t w = 0, nwords = 0, start = 0, end = 0;
            for (size_t k = 0; k <= ll; k++)
                if (k == ll || line[k] == ' ' || line[k] == '\t' || line[k] == ',')
                    nwords++;
            size_t pick = nwords ? rng_next(rs) % nwords : 0;
            for (size_t k = 0; k <= ll; k++) {
                if (k == ll || line[k] == ' ' || line[k] == '\t' || line[k] == ',') {
                    if (w == pick) {
                        end = k;
                        break;
                    }
                    w++;
                    start = k + 1;
                }
            }
            const char *word = words[rng_next(rs) % (sizeof(words) / sizeof(words[0]))];
            len = put_bytes(len, max_size, line, start);
            len = put_bytes(len, max_size, (const uint8_t *)word, strlen(word));
            len = put_bytes(len, max_size, line + end, ll - end);
            len = put_bytes(len, max_size, (const uint8_t *)"\n", 1);
            continue;
        }
        len = put_bytes(len, max_size, line, ll);
        len = put_bytes(len, max_size, (const uint8_t *)"\n", 1);
        if (op == 1 && i == a) { /* duplicate line b after line a */
            len = put_bytes(len, max_size, data + ls_[b], le_[b] - ls_[b]);
            len = put_bytes(len, max_size, (const uint8_t *)"\n", 1);
        }
    }
    memcpy(data, scratch, len);
    return len;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t rs = seed;
    if (size == 0 || rng_next(&rs) % 2 == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    size_t n = mutate_lines(data, size, max_size, &rs);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
}

/* Cross-over by lines: the first lines of one input, the rest of the other. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed)
{
    uint32_t rs = seed;
    size_t cut1 = s1 ? rng_next(&rs) % (s1 + 1) : 0, cut2 = s2 ? rng_next(&rs) % (s2 + 1) : 0;
    while (cut1 < s1 && d1[cut1] != '\n')
        cut1++;
    while (cut2 < s2 && d2[cut2] != '\n')
        cut2++;
    size_t n1 = cut1 < max_out ? cut1 : max_out;
    memcpy(out, d1, n1);
    size_t n2 = s2 - cut2;
    if (n1 + n2 > max_out)
        n2 = max_out - n1;
    memcpy(out + n1, d2 + cut2, n2);
    return n1 + n2;
}
