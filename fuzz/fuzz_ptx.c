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
