/* Real PTX: every workloads/<name>/kernel.ptx in the tree and every nvcc-generated
 * snippet in tests/ptx/ must parse, verify and disassemble; the snippets are
 * also checked for what they are there to cover (counts taken with grep over the
 * committed .ptx files). */
#include "ptx_test.h"

#include <dirent.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parse, verify and disassemble every instruction of one file. */
static void check_file(const char *path, unsigned *nfuncs_out, unsigned *ninsn_out)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        fail_msg("cannot read %s", path);
    ptx_error err;
    ptx_module *m = ptx_parse(text, len, path, &err);
    free(text);
    if (!m)
        fail_msg("%s", err.msg);
    char why[512];
    if (ptx_module_verify(m, why, sizeof why) != 0) {
        ptx_module_free(m);
        fail_msg("%s: %s", path, why);
    }
    unsigned ninsn = 0, nentry = 0;
    char line[512];
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        nentry += fn->is_entry;
        for (uint32_t i = 0; i < fn->ninsn; i++) {
            ptx_insn_format(m, fn, &fn->insns[i], line, sizeof line);
            if (strlen(line) < 3 || line[strlen(line) - 1] != ';')
                fail_msg("%s: %s insn %u disassembles as \"%s\"", path, fn->name, i, line);
        }
        ninsn += fn->ninsn;
    }
    if (nentry == 0)
        fail_msg("%s: no kernel", path);
    *nfuncs_out = m->nfuncs;
    *ninsn_out = ninsn;
    ptx_module_free(m);
}

static void test_workload_kernels(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/workloads", LOCSIM_SOURCE_DIR);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        char path[2048];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s/kernel.ptx", dir, e->d_name);
        if (e->d_name[0] != '.' && stat(path, &st) == 0)
            names[n++] = strdup(path);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    for (size_t i = 0; i < n; i++) {
        unsigned nf, ni;
        check_file(names[i], &nf, &ni);
        print_message("%-60s %3u functions %6u instructions\n", names[i] + strlen(LOCSIM_SOURCE_DIR) + 1, nf, ni);
        free(names[i]);
    }
    /* the tree has workloads (issue 2 asks for at least 16) */
    if (n == 0)
        print_message("no workloads/*/kernel.ptx in the tree yet\n");
}

static ptx_module *load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ptx/%s", LOCSIM_SOURCE_DIR, name);
    unsigned nf, ni;
    check_file(path, &nf, &ni);
    size_t len;
    char *text = read_file(path, &len);
    ptx_error err;
    ptx_module *m = ptx_parse(text, len, name, &err);
    free(text);
    assert_non_null(m);
    return m;
}

static unsigned count_op(const ptx_module *m, ptx_opcode op, int mode)
{
    unsigned n = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninsn; i++) {
            const ptx_insn *in = &m->funcs[f].insns[i];
            if (in->op == op && (mode < 0 || in->mode == mode))
                n++;
        }
    return n;
}

static void test_snippet_atomics(void **state)
{
    (void)state;
    ptx_module *m = load("atomics.ptx");
    /* grep: add 11, exch 3, cas 3, inc 1, dec 1, min 4, max 4, and 2, or 3, xor 2 */
    assert_int_equal(count_op(m, PTX_OP_ATOM, -1), 34);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_ADD), 11);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_EXCH), 3);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_CAS), 3);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_INC), 1);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_DEC), 1);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_MIN), 4);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_MAX), 4);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_AND), 2);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_OR), 3);
    assert_int_equal(count_op(m, PTX_OP_ATOM, PTX_ATOM_XOR), 2);
    assert_int_equal(count_op(m, PTX_OP_MEMBAR, -1), 3);
    /* the demoted __shared__ counter array is a module variable */
    int v = ptx_find_var(m, "s_counts");
    assert_true(v >= 0);
    assert_int_equal(m->vars[v].space, PTX_SPACE_SHARED);
    assert_int_equal(m->vars[v].size, 256);
    ptx_module_free(m);
}

/* texture.cu: grep of texture.ptx -- tex 12 (.1d 4, .2d 4 of which .level 1, .grad 1,
 * .3d 2, .a1d 1, .a2d 1), tld4.g 1, suld 3, sust 3, txq 4, suq 1 */
static void test_snippet_texture(void **state)
{
    (void)state;
    ptx_module *m = load("texture.ptx");
    assert_int_equal(count_op(m, PTX_OP_TEX, -1), 12);
    assert_int_equal(count_op(m, PTX_OP_TEX, PTX_GEOM_1D), 4);
    assert_int_equal(count_op(m, PTX_OP_TEX, PTX_GEOM_2D), 4);
    assert_int_equal(count_op(m, PTX_OP_TEX, PTX_GEOM_3D), 2);
    assert_int_equal(count_op(m, PTX_OP_TEX, PTX_GEOM_A1D), 1);
    assert_int_equal(count_op(m, PTX_OP_TEX, PTX_GEOM_A2D), 1);
    assert_int_equal(count_op(m, PTX_OP_TLD4, PTX_GEOM_2D), 1);
    assert_int_equal(count_op(m, PTX_OP_SULD, -1), 3);
    assert_int_equal(count_op(m, PTX_OP_SUST, -1), 3);
    assert_int_equal(count_op(m, PTX_OP_TXQ, -1), 4);
    assert_int_equal(count_op(m, PTX_OP_SUQ, -1), 1);
    /* decoded details of a few: tex.grad carries two gradient vectors, tld4.g
     * component 1, sust.b.1d.v4.b8.zero, suld.b.3d.v2.b16.trap */
    unsigned grads = 0, gathers = 0, st8 = 0, ld16 = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninsn; i++) {
            const ptx_insn *in = &m->funcs[f].insns[i];
            if (in->op == PTX_OP_TEX && in->aux == PTX_TEX_GRAD)
                grads += in->nopnd == 5 && in->opnd[3].kind == PTX_OPND_VEC && in->opnd[3].comp == 2;
            if (in->op == PTX_OP_TLD4)
                gathers += in->aux == 1 && in->type == PTX_T_F32 && in->opnd[2].comp == 2;
            if (in->op == PTX_OP_SUST && in->vec == 4)
                st8 += in->type == PTX_T_B8 && in->aux == PTX_SURF_ZERO && in->mode == PTX_GEOM_1D &&
                       in->opnd[1].comp == 1 && in->opnd[2].comp == 4;
            if (in->op == PTX_OP_SULD && in->vec == 2)
                ld16 += in->type == PTX_T_B16 && in->aux == PTX_SURF_TRAP && in->mode == PTX_GEOM_3D &&
                        in->opnd[2].comp == 4;
        }
    assert_int_equal(grads, 1);
    assert_int_equal(gathers, 1);
    assert_int_equal(st8, 1);
    assert_int_equal(ld16, 1);
    ptx_module_free(m);
}

/* texture_forms.ptx (hand-written, checked with ptxas): 10 txq, 4 suq, 1 tld4,
 * 1 tex, 3 sust, 2 suld */
static void test_texture_forms(void **state)
{
    (void)state;
    ptx_module *m = load("texture_forms.ptx");
    assert_int_equal(count_op(m, PTX_OP_TXQ, -1), 10);
    assert_int_equal(count_op(m, PTX_OP_SUQ, -1), 4);
    assert_int_equal(count_op(m, PTX_OP_TLD4, -1), 1);
    assert_int_equal(count_op(m, PTX_OP_TEX, PTX_GEOM_2D), 1);
    assert_int_equal(count_op(m, PTX_OP_SUST, -1), 3);
    assert_int_equal(count_op(m, PTX_OP_SULD, PTX_GEOM_A1D), 1);
    assert_int_equal(count_op(m, PTX_OP_SULD, PTX_GEOM_1D), 1);
    ptx_module_free(m);
}

static void test_snippet_warp(void **state)
{
    (void)state;
    ptx_module *m = load("warp.ptx");
    assert_int_equal(count_op(m, PTX_OP_SHFL, -1), 8);
    assert_int_equal(count_op(m, PTX_OP_VOTE, -1), 4);
    assert_int_equal(count_op(m, PTX_OP_MATCH, -1), 2);
    assert_int_equal(count_op(m, PTX_OP_ACTIVEMASK, -1), 1);
    assert_int_equal(count_op(m, PTX_OP_BAR, PTX_ATOM_POPC), 1);
    assert_int_equal(count_op(m, PTX_OP_BAR, PTX_ATOM_AND), 1);
    assert_int_equal(count_op(m, PTX_OP_BAR, PTX_ATOM_OR), 1);
    ptx_module_free(m);
}

static void test_snippet_calls(void **state)
{
    (void)state;
    ptx_module *m = load("printf.ptx");
    const ptx_function *vp = func_named(m, "vprintf");
    assert_true(vp->is_extern);
    const ptx_function *h = func_named(m, "hello");
    assert_int_equal(h->ncalls, 2);
    assert_int_equal(h->calls[0].func, ptx_find_function(m, "vprintf"));
    assert_int_equal(h->calls[0].nargs, 2);
    assert_int_equal(h->calls[0].nrets, 1);
    /* depot 32 bytes (align 16); both call blocks reuse the same param slots */
    assert_int_equal(h->calls[0].args[0].imm, 32);
    assert_int_equal(h->calls[1].args[0].imm, 32);
    assert_int_equal(h->calls[0].args[1].imm, 40);
    assert_int_equal(h->calls[0].rets[0].imm, 48);
    assert_int_equal(h->frame_size, 52);
    assert_int_equal(h->frame_align, 16);
    ptx_module_free(m);

    m = load("recursion.ptx");
    int ifib = ptx_find_function(m, "_Z3fibi");
    const ptx_function *fib = &m->funcs[ifib];
    assert_int_equal(fib->ncalls, 2);
    assert_int_equal(fib->calls[0].func, ifib);
    assert_int_equal(fib->calls[1].func, ifib);
    const ptx_function *mp = func_named(m, "_Z9make_pairfdPKi");
    assert_int_equal(mp->nrets, 1);
    assert_int_equal(mp->rets[0].size, 16);
    assert_int_equal(mp->rets[0].align, 8);
    assert_int_equal(count_op(m, PTX_OP_CALL, -1), 5);
    ptx_module_free(m);
}

static void test_snippet_constants(void **state)
{
    (void)state;
    ptx_module *m = load("constmem.ptx");
    const ptx_var *c = &m->vars[ptx_find_var(m, "c_coef")];
    assert_int_equal(c->space, PTX_SPACE_CONST);
    float coef[8];
    memcpy(coef, c->init, 32);
    assert_true(coef[0] == 1.0f && coef[1] == 0.5f && coef[4] == -1.0f && coef[5] == 3.5f && coef[7] == 2.0f);
    /* g_table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4}: the tail is zero */
    const ptx_var *t = &m->vars[ptx_find_var(m, "g_table")];
    int32_t tab[4];
    memcpy(tab, t->init, 16);
    assert_true(tab[0] == 1 && tab[1] == 2 && tab[2] == 3 && tab[3] == 4);
    /* g_ptr = generic(g_table) */
    const ptx_var *p = &m->vars[ptx_find_var(m, "g_ptr")];
    assert_non_null(p->init_sym);
    assert_int_equal(p->init_sym[0], (uint32_t)ptx_find_var(m, "g_table") + 1);
    const ptx_var *dyn = &m->vars[ptx_find_var(m, "dyn")];
    assert_true(dyn->is_extern);
    assert_int_equal(dyn->space, PTX_SPACE_SHARED);
    const ptx_var *tile = &m->vars[ptx_find_var(m, "_ZZ10with_constE4tile")];
    assert_int_equal(tile->size, 4224);
    ptx_module_free(m);
}

static void test_snippet_math_bits_half(void **state)
{
    (void)state;
    ptx_module *m = load("math.ptx");
    assert_true(count_op(m, PTX_OP_FMA, -1) > 100);
    assert_true(count_op(m, PTX_OP_EX2, -1) >= 2);
    const ptx_var *i2opi = &m->vars[ptx_find_var(m, "__cudart_i2opi_f")];
    assert_int_equal(i2opi->size, 24);
    assert_int_equal(i2opi->init[0], 65);
    assert_int_equal(i2opi->init[23], 162);
    ptx_module_free(m);

    m = load("bits.ptx");
    assert_int_equal(count_op(m, PTX_OP_BREV, -1), 2);
    assert_int_equal(count_op(m, PTX_OP_CLZ, -1), 3);
    assert_int_equal(count_op(m, PTX_OP_POPC, -1), 2);
    assert_int_equal(count_op(m, PTX_OP_SHF, -1), 4);
    assert_int_equal(count_op(m, PTX_OP_DP4A, -1), 1);
    assert_int_equal(count_op(m, PTX_OP_DP2A, -1), 1);
    assert_int_equal(count_op(m, PTX_OP_SAD, -1), 2);
    assert_int_equal(count_op(m, PTX_OP_BFIND, -1), 1);
    assert_int_equal(count_op(m, PTX_OP_PRMT, -1), 1);
    ptx_module_free(m);

    m = load("half.ptx");
    unsigned packs_with_imm = 0;
    const ptx_function *f = &m->funcs[0];
    for (uint32_t i = 0; i < f->ninsn; i++)
        if (f->insns[i].op == PTX_OP_MOV && f->insns[i].opnd[1].kind == PTX_OPND_VEC && f->insns[i].opnd[1].vec_imm)
            packs_with_imm++;
    assert_int_equal(packs_with_imm, 2); /* mov.b32 %f4, {0,%rs46}; mov.b32 %f5, {0,%rs31} */
    ptx_module_free(m);
}

static void test_snippet_grid_constant(void **state)
{
    (void)state;
    /* mov.b64 %rd1, kgc_param_0; ... ld.param.u32 %r5, [%rd7]: the register holds
     * a kernel-parameter offset (0 here: the struct is the first parameter) */
    ptx_module *m = load("grid_constant.ptx");
    const ptx_function *k = func_named(m, "kgc");
    assert_int_equal(k->params[0].size, 64);
    assert_int_equal(k->params[1].offset, 64);
    assert_int_equal(k->params[2].offset, 72);
    assert_int_equal(k->kparam_size, 80);
    const ptx_insn *mov = &k->insns[0];
    assert_int_equal(mov->op, PTX_OP_MOV);
    assert_int_equal(mov->opnd[1].kind, PTX_OPND_SYMADDR);
    assert_int_equal(mov->opnd[1].addr_base, PTX_ABASE_KPARAM);
    assert_int_equal(mov->opnd[1].imm, 0);
    unsigned through_reg = 0;
    for (uint32_t i = 0; i < k->ninsn; i++) {
        const ptx_insn *in = &k->insns[i];
        if (in->op == PTX_OP_LD && in->space == PTX_SPACE_PARAM && in->opnd[1].addr_base == PTX_ABASE_REG)
            through_reg++;
    }
    assert_int_equal(through_reg, 1);
    ptx_module_free(m);
}

static void test_all_snippets_parse(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/ptx", LOCSIM_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    unsigned n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unsigned nf, ni;
        check_file(path, &nf, &ni);
        n++;
    }
    closedir(d);
    assert_true(n >= 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workload_kernels),
        cmocka_unit_test(test_all_snippets_parse),
        cmocka_unit_test(test_snippet_atomics),
        cmocka_unit_test(test_snippet_warp),
        cmocka_unit_test(test_snippet_calls),
        cmocka_unit_test(test_snippet_constants),
        cmocka_unit_test(test_snippet_math_bits_half),
        cmocka_unit_test(test_snippet_grid_constant),
        cmocka_unit_test(test_snippet_texture),
        cmocka_unit_test(test_texture_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
