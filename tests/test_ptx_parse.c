/* PTX parser: directives, declarations, operand forms, register scoping, frame
 * and kernel-parameter layout, variable initializers, calls.  Expected values
 * are worked out by hand in the comments next to each check. */
#include "ptx_test.h"

#include <math.h>

static char *load_source_file(const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LOCSIM_SOURCE_DIR, rel);
    char *text = read_file(path, len);
    if (!text)
        fail_msg("cannot read %s", path);
    return text;
}

static ptx_module *parse_source_file(const char *rel)
{
    size_t len;
    char *text = load_source_file(rel, &len);
    ptx_error err;
    ptx_module *m = ptx_parse(text, len, rel, &err);
    free(text);
    if (!m)
        fail_msg("%s", err.msg);
    return m;
}

static uint32_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- module header ---------------------------------------------------- */
static void test_header(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(".version 8.5\n.target sm_80, texmode_independent\n.address_size 64\n");
    assert_int_equal(m->version_major, 8);
    assert_int_equal(m->version_minor, 5);
    assert_int_equal(m->target_sm, 80);
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->nfuncs, 0);
    assert_string_equal(m->source_name, "test.ptx");
    ptx_module_free(m);

    /* debug material is skipped: .file/.loc lines and .section blocks */
    m = parse_ok("\t.file 1 \"x.cu\"\n" PTX_HEADER "\t.loc 1 2 3\n"
                 ".section .debug_str { $L__info: .b8 104,105,0 @@DWARF .b32 7 { nested } }\n"
                 ".visible .entry e() { ret; }\n");
    assert_int_equal(m->nfuncs, 1);
    ptx_module_free(m);
}

/* ---- the hand-written file covering every syntax form ----------------- */
static void test_syntax_file_variables(void **state)
{
    (void)state;
    ptx_module *m = parse_source_file("tests/ptx/syntax.ptx");
    char why[256];
    assert_int_equal(ptx_module_verify(m, why, sizeof why), 0);
    assert_int_equal(m->nvars, 12);
    assert_int_equal(m->target_sm, 80);

    /* bytes[8] = {1, 2, 255, 0x7f, 0b101, 017, -1, -128} */
    const ptx_var *v = &m->vars[ptx_find_var(m, "bytes")];
    const uint8_t bytes[8] = {1, 2, 255, 127, 5, 15, 255, 128};
    assert_int_equal(v->space, PTX_SPACE_GLOBAL);
    assert_int_equal(v->size, 8);
    assert_int_equal(v->align, 4);
    assert_memory_equal(v->init, bytes, 8);

    /* ptrs[3] = {bytes, generic(bytes)+4, twice}: addresses with addends */
    int ibytes = ptx_find_var(m, "bytes"), itwice = ptx_find_function(m, "twice");
    v = &m->vars[ptx_find_var(m, "ptrs")];
    assert_int_equal(v->size, 24);
    assert_non_null(v->init_sym);
    assert_int_equal(v->init_sym[0], (uint32_t)ibytes + 1);
    assert_int_equal(v->init_sym[1], (uint32_t)ibytes + 1);
    assert_int_equal(v->init_sym[2], ((uint32_t)itwice + 1) | PTX_INIT_SYM_FUNC);
    uint64_t addend;
    memcpy(&addend, v->init + 8, 8);
    assert_int_equal(addend, 4);
    memcpy(&addend, v->init + 0, 8);
    assert_int_equal(addend, 0);

    /* scalars: fone = 0f3F800000, dhalf = 0.5 */
    v = &m->vars[ptx_find_var(m, "fone")];
    assert_int_equal(v->size, 4);
    assert_int_equal(v->align, 4);
    uint32_t u32;
    memcpy(&u32, v->init, 4);
    assert_int_equal(u32, 0x3F800000u);
    v = &m->vars[ptx_find_var(m, "dhalf")];
    double d;
    memcpy(&d, v->init, 8);
    assert_true(d == 0.5);

    /* .v4 .f32 quad = {1.0, -2.5, 0f40400000, 4.0} */
    v = &m->vars[ptx_find_var(m, "quad")];
    assert_int_equal(v->size, 16);
    assert_int_equal(v->align, 16);
    float q[4];
    memcpy(q, v->init, 16);
    assert_true(q[0] == 1.0f && q[1] == -2.5f && q[2] == 3.0f && q[3] == 4.0f);

    /* grid[2][3] = {{1,2,3},{4,5,6}} */
    v = &m->vars[ptx_find_var(m, "grid")];
    int32_t g[6];
    assert_int_equal(v->size, 24);
    memcpy(g, v->init, 24);
    for (int i = 0; i < 6; i++)
        assert_int_equal(g[i], i + 1);

    /* unsized[] = {7, 8, 9}: the initializer sizes it */
    v = &m->vars[ptx_find_var(m, "unsized")];
    assert_int_equal(v->size, 12);
    memcpy(&u32, v->init + 8, 4);
    assert_int_equal(u32, 9);

    /* .u16 a16, b16 = 65535: two variables from one declaration */
    v = &m->vars[ptx_find_var(m, "a16")];
    assert_int_equal(v->size, 2);
    assert_null(v->init);
    v = &m->vars[ptx_find_var(m, "b16")];
    assert_int_equal(v->init[0], 0xff);
    assert_int_equal(v->init[1], 0xff);

    v = &m->vars[ptx_find_var(m, "ctab")];
    assert_int_equal(v->space, PTX_SPACE_CONST);
    assert_int_equal(v->align, 16);
    assert_null(v->init);
    v = &m->vars[ptx_find_var(m, "smem")];
    assert_int_equal(v->space, PTX_SPACE_SHARED);
    assert_int_equal(v->size, 64);
    v = &m->vars[ptx_find_var(m, "dynsmem")];
    assert_int_equal(v->space, PTX_SPACE_SHARED);
    assert_int_equal(v->is_extern, 1);
    assert_int_equal(v->size, 0);
    ptx_module_free(m);
}

static void test_syntax_file_functions(void **state)
{
    (void)state;
    ptx_module *m = parse_source_file("tests/ptx/syntax.ptx");
    assert_int_equal(m->nfuncs, 3);
    const ptx_function *vp = func_named(m, "vprintf");
    assert_true(vp->is_extern);
    assert_int_equal(vp->ninsn, 0);
    /* extern .func (.param .b32 ret0) vprintf (.param .b64 fmt, .param .b64 args):
     * returns first in the frame: ret0 @0, fmt @8, args @16 */
    assert_int_equal(vp->nrets, 1);
    assert_int_equal(vp->rets[0].offset, 0);
    assert_int_equal(vp->params[0].offset, 8);
    assert_int_equal(vp->params[1].offset, 16);

    const ptx_function *tw = func_named(m, "twice");
    assert_false(tw->is_extern);
    assert_false(tw->is_entry);
    assert_int_equal(tw->ninsn, 4);
    /* the definition's names are in scope: ld.param.u32 %r1, [x] -> frame offset 4 */
    assert_string_equal(tw->params[0].name, "x");
    assert_int_equal(tw->insns[0].opnd[1].addr_base, PTX_ABASE_FRAME);
    assert_int_equal(tw->insns[0].opnd[1].imm, 4);
    assert_int_equal(tw->insns[2].opnd[0].imm, 0); /* st.param [r] */
    assert_int_equal(tw->frame_size, 8);

    const ptx_function *k = func_named(m, "kitchen");
    assert_true(k->is_entry);
    assert_true(k->is_visible);
    assert_int_equal(k->maxntid[0], 256);
    assert_int_equal(k->maxntid[1], 1);
    assert_int_equal(k->minnctapersm, 2);
    /* params: u64 @0, u32 @8, .align 8 .b8[12] @16, f64 @32; buffer 40 bytes */
    assert_int_equal(k->nparams, 4);
    assert_int_equal(k->params[0].is_ptr, 1);
    assert_int_equal(k->params[0].align, 8); /* .ptr's .align 16 is the pointee's */
    assert_int_equal(k->params[2].offset, 16);
    assert_int_equal(k->params[2].size, 12);
    assert_int_equal(k->params[3].offset, 32);
    assert_int_equal(k->kparam_size, 40);
    /* depot 16 bytes @0; the callseq block's param0 @16, retval0 @20 */
    assert_int_equal(k->frame_size, 24);
    assert_int_equal(k->frame_align, 8);
    assert_int_equal(k->ninsn, 98);
    ptx_module_free(m);
}

/* Instruction-by-instruction checks of tests/ptx/syntax.ptx (indices are the
 * instruction numbers in the kitchen kernel, counted by hand). */
static void test_syntax_file_operands(void **state)
{
    (void)state;
    ptx_module *m = parse_source_file("tests/ptx/syntax.ptx");
    const ptx_function *k = func_named(m, "kitchen");
    const ptx_insn *in = k->insns;
    int itwice = ptx_find_function(m, "twice");

    /* 0: mov.u64 %SPL, __local_depot0 -> address of frame offset 0 */
    assert_int_equal(in[0].op, PTX_OP_MOV);
    assert_int_equal(in[0].opnd[1].kind, PTX_OPND_SYMADDR);
    assert_int_equal(in[0].opnd[1].addr_base, PTX_ABASE_FRAME);
    assert_int_equal(in[0].opnd[1].imm, 0);
    /* 1: cvta.local.u64 */
    assert_int_equal(in[1].op, PTX_OP_CVTA);
    assert_int_equal(in[1].space, PTX_SPACE_LOCAL);
    assert_false(in[1].flags & PTX_F_TO);
    /* 4: ld.param.u32 %r2, [kitchen_param_2+8] -> kernel param offset 16+8 */
    assert_int_equal(in[4].opnd[1].addr_base, PTX_ABASE_KPARAM);
    assert_int_equal(in[4].opnd[1].imm, 24);
    /* 6: cvta.to.global */
    assert_true(in[6].flags & PTX_F_TO);
    assert_int_equal(in[6].space, PTX_SPACE_GLOBAL);
    /* 7-13: special registers */
    assert_int_equal(in[7].opnd[1].kind, PTX_OPND_SREG);
    assert_int_equal(in[7].opnd[1].reg, PTX_SREG_TID);
    assert_int_equal(in[7].opnd[1].comp, 0);
    assert_int_equal(in[8].opnd[1].reg, PTX_SREG_NTID);
    assert_int_equal(in[8].opnd[1].comp, 1);
    assert_int_equal(in[9].opnd[1].reg, PTX_SREG_CTAID);
    assert_int_equal(in[9].opnd[1].comp, 2);
    assert_int_equal(in[10].opnd[1].reg, PTX_SREG_LANEID);
    assert_int_equal(in[11].opnd[1].reg, PTX_SREG_CLOCK64);
    assert_int_equal(in[12].opnd[1].reg, PTX_SREG_LANEMASK_LT);
    assert_int_equal(in[13].opnd[1].reg, PTX_SREG_DYNAMIC_SMEM_SIZE);
    /* 14: mov.u32 %r9, smem -> address of module variable smem */
    assert_int_equal(in[14].opnd[1].kind, PTX_OPND_SYMADDR);
    assert_int_equal(in[14].opnd[1].addr_base, PTX_ABASE_SYM);
    assert_int_equal(in[14].opnd[1].reg, ptx_find_var(m, "smem"));
    /* 16: mov.u64 %rd5, twice -> a function address */
    assert_int_equal(in[16].opnd[1].kind, PTX_OPND_FUNC);
    assert_int_equal(in[16].opnd[1].imm, itwice);
    /* 17/18: integer immediates -8 and 0xFF */
    assert_int_equal(in[17].opnd[2].kind, PTX_OPND_IMM);
    assert_int_equal(in[17].opnd[2].imm, -8);
    assert_int_equal(in[18].opnd[2].imm, 255);
    /* 19-21: float immediates as IEEE bits; 1.5 decimal -> 0x3FC00000 */
    assert_int_equal(in[19].opnd[2].imm, 0x3F800000);
    assert_true(in[20].opnd[2].imm == 0x4000000000000000ll);
    assert_int_equal(in[21].opnd[2].imm, f32bits(1.5f));
    /* 22: setp.lt.and.s32 %p1|%p2, %r3, %r1, %p3 */
    assert_int_equal(in[22].op, PTX_OP_SETP);
    assert_int_equal(in[22].cmp, PTX_CMP_LT);
    assert_int_equal(in[22].boolop, PTX_BOOL_AND);
    assert_int_equal(in[22].type, PTX_T_S32);
    assert_int_equal(in[22].ndst, 2);
    assert_int_equal(in[22].nopnd, 5);
    assert_int_equal(in[22].opnd[0].kind, PTX_OPND_PRED);
    assert_int_equal(in[22].opnd[0].reg, pred_index(k, "%p1"));
    assert_int_equal(in[22].opnd[1].reg, pred_index(k, "%p2"));
    assert_int_equal(in[22].opnd[2].kind, PTX_OPND_REG);
    assert_int_equal(in[22].opnd[4].kind, PTX_OPND_PRED);
    assert_int_equal(in[22].opnd[4].neg, 0);
    /* 23: ..., !%p2 */
    assert_int_equal(in[23].opnd[3].neg, 1);
    /* 24: @%p1 bra $L__BB0_2 (instruction 62); 25: @!%p2 bra.uni $L__BB0_1 (42) */
    assert_int_equal(in[24].guard, pred_index(k, "%p1"));
    assert_int_equal(in[24].guard_neg, 0);
    assert_int_equal(in[24].opnd[0].kind, PTX_OPND_LABEL);
    assert_int_equal(in[24].opnd[0].imm, 62);
    assert_int_equal(in[25].guard_neg, 1);
    assert_true(in[25].flags & PTX_F_UNI);
    assert_int_equal(in[25].opnd[0].imm, 42);
    /* 26: ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd2+16] */
    assert_int_equal(in[26].vec, 4);
    assert_true(in[26].flags & PTX_F_NC);
    assert_int_equal(in[26].opnd[0].kind, PTX_OPND_VEC);
    assert_int_equal(in[26].opnd[0].comp, 4);
    assert_int_equal(in[26].opnd[0].vec[0], reg_index(k, "%f1"));
    assert_int_equal(in[26].opnd[0].vec[2], PTX_REG_SINK);
    assert_int_equal(in[26].opnd[1].addr_base, PTX_ABASE_REG);
    assert_int_equal(in[26].opnd[1].reg, reg_index(k, "%rd2"));
    assert_int_equal(in[26].opnd[1].imm, 16);
    /* 27: st.global.v2.u32 [%rd2+-8], {%r1, %r2} */
    assert_int_equal(in[27].op, PTX_OP_ST);
    assert_int_equal(in[27].ndst, 0);
    assert_int_equal(in[27].opnd[0].imm, -8);
    assert_int_equal(in[27].opnd[1].comp, 2);
    /* 28: ld.shared.u32 %r11, [smem+4] */
    assert_int_equal(in[28].opnd[1].addr_base, PTX_ABASE_SYM);
    assert_int_equal(in[28].opnd[1].reg, ptx_find_var(m, "smem"));
    assert_int_equal(in[28].opnd[1].imm, 4);
    /* 32: generic ld; 33: st.local [__local_depot0+12] -> frame 12 */
    assert_int_equal(in[32].space, PTX_SPACE_NONE);
    assert_int_equal(in[33].opnd[0].addr_base, PTX_ABASE_FRAME);
    assert_int_equal(in[33].opnd[0].imm, 12);
    /* 34: ld.volatile; 35: .relaxed.gpu and .L1::evict_last parsed and ignored;
     * 37: ld.local [0x10], an absolute local address */
    assert_true(in[34].flags & PTX_F_VOLATILE);
    assert_int_equal(in[35].op, PTX_OP_LD);
    assert_int_equal(in[35].flags & (PTX_F_VOLATILE | PTX_F_NC), 0);
    assert_int_equal(in[37].space, PTX_SPACE_LOCAL);
    assert_int_equal(in[37].opnd[1].addr_base, PTX_ABASE_NONE);
    assert_int_equal(in[37].opnd[1].imm, 0x10);
    /* 38/39: unpack and pack; 40: mov.b32 %f5, {0, %rs1}: element 0 immediate */
    assert_int_equal(in[38].opnd[0].kind, PTX_OPND_VEC);
    assert_int_equal(in[39].opnd[1].kind, PTX_OPND_VEC);
    assert_int_equal(in[40].opnd[1].vec_imm, 1);
    assert_int_equal(in[40].opnd[1].vec[0], 0);
    assert_int_equal(in[40].opnd[1].vec[1], reg_index(k, "%rs1"));
    assert_int_equal(in[41].opnd[0].vec[1], PTX_REG_SINK);
    /* 42-46: atomics */
    assert_int_equal(in[42].op, PTX_OP_ATOM);
    assert_int_equal(in[42].mode, PTX_ATOM_ADD);
    assert_int_equal(in[42].opnd[2].imm, 1);
    assert_int_equal(in[43].mode, PTX_ATOM_CAS);
    assert_int_equal(in[43].space, PTX_SPACE_SHARED);
    assert_int_equal(in[43].nopnd, 4);
    assert_int_equal(in[43].opnd[3].imm, 7);
    assert_int_equal(in[44].mode, PTX_ATOM_EXCH);
    assert_int_equal(in[44].type, PTX_T_B64);
    assert_int_equal(in[45].op, PTX_OP_RED);
    assert_int_equal(in[45].ndst, 0);
    assert_int_equal(in[45].nopnd, 2);
    assert_int_equal(in[46].mode, PTX_ATOM_INC);
    assert_int_equal(in[46].space, PTX_SPACE_NONE);
    /* 47/48: membar.gl, fence.acq_rel.cta */
    assert_int_equal(in[47].mode, PTX_SCOPE_GPU);
    assert_int_equal(in[48].op, PTX_OP_FENCE);
    assert_int_equal(in[48].mode, PTX_SCOPE_CTA);
    /* 49-55: barriers; barrier.sync.aligned is bar.sync */
    assert_int_equal(in[49].op, PTX_OP_BAR);
    assert_true(in[49].flags & PTX_F_SYNC);
    assert_int_equal(in[49].nopnd, 1);
    assert_int_equal(in[50].nopnd, 2);
    assert_int_equal(in[50].opnd[1].imm, 64);
    assert_true(in[51].flags & PTX_F_ARRIVE);
    assert_int_equal(in[52].op, PTX_OP_BAR);
    assert_true(in[52].flags & PTX_F_SYNC);
    assert_true(in[53].flags & PTX_F_WARP);
    assert_int_equal(in[53].opnd[0].imm, 0xFFFFFFFF);
    assert_true(in[54].flags & PTX_F_RED);
    assert_int_equal(in[54].mode, PTX_ATOM_POPC);
    assert_int_equal(in[54].type, PTX_T_U32);
    assert_int_equal(in[54].nopnd, 4);
    assert_int_equal(in[54].opnd[2].kind, PTX_OPND_NONE);
    assert_int_equal(in[54].opnd[3].kind, PTX_OPND_PRED);
    assert_int_equal(in[55].mode, PTX_ATOM_AND);
    assert_int_equal(in[55].type, PTX_T_PRED);
    assert_int_equal(in[55].opnd[2].imm, 128);
    assert_int_equal(in[55].opnd[3].neg, 1);
    /* 56/57: shfl with and without |p: always d, p, a, b, c, mask */
    assert_int_equal(in[56].mode, PTX_SHFL_BFLY);
    assert_int_equal(in[56].ndst, 2);
    assert_int_equal(in[56].nopnd, 6);
    assert_int_equal(in[56].opnd[1].kind, PTX_OPND_PRED);
    assert_int_equal(in[56].opnd[3].imm, 1);
    assert_int_equal(in[56].opnd[5].imm, 0xFFFFFFFF);
    assert_int_equal(in[57].opnd[1].kind, PTX_OPND_SINK);
    assert_int_equal(in[57].mode, PTX_SHFL_IDX);
    /* 58-61: vote, match, activemask */
    assert_int_equal(in[58].mode, PTX_VOTE_BALLOT);
    assert_int_equal(in[58].type, PTX_T_B32);
    assert_int_equal(in[59].mode, PTX_VOTE_ALL);
    assert_int_equal(in[59].opnd[1].neg, 1);
    assert_int_equal(in[60].mode, PTX_MATCH_ALL);
    assert_int_equal(in[60].opnd[1].kind, PTX_OPND_PRED);
    assert_int_equal(in[61].opnd[0].reg, reg_index(k, "%extra"));
    /* 66: call.uni (retval0), twice, (param0): frame offsets 20 and 16 */
    assert_int_equal(in[66].op, PTX_OP_CALL);
    assert_true(in[66].flags & PTX_F_UNI);
    assert_int_equal(in[66].opnd[0].kind, PTX_OPND_FUNC);
    assert_int_equal(in[66].opnd[0].imm, itwice);
    const ptx_call *c = &k->calls[in[66].call];
    assert_int_equal(c->func, itwice);
    assert_int_equal(c->nargs, 1);
    assert_int_equal(c->nrets, 1);
    assert_int_equal(c->args[0].addr_base, PTX_ABASE_FRAME);
    assert_int_equal(c->args[0].imm, 16);
    assert_int_equal(c->rets[0].imm, 20);
    assert_int_equal(in[65].opnd[0].imm, 16); /* st.param.b32 [param0+0] */
    assert_int_equal(in[67].opnd[1].imm, 20); /* ld.param.b32 [retval0+0] */
    /* 68-72: conversions */
    assert_int_equal(in[68].type, PTX_T_F32);
    assert_int_equal(in[68].type2, PTX_T_S32);
    assert_int_equal(in[68].rnd, PTX_RND_RN);
    assert_int_equal(in[69].rnd, PTX_RND_RZI);
    assert_int_equal(in[69].type2, PTX_T_F64);
    assert_int_equal(in[70].rnd, PTX_RND_NONE);
    assert_int_equal(in[71].flags & (PTX_F_SAT | PTX_F_FTZ), PTX_F_SAT | PTX_F_FTZ);
    assert_int_equal(in[72].type, PTX_T_F16);
    /* 73-79: float ops */
    assert_int_equal(in[73].op, PTX_OP_FMA);
    assert_int_equal(in[73].nopnd, 4);
    assert_int_equal(in[74].flags & (PTX_F_APPROX | PTX_F_FTZ), PTX_F_APPROX | PTX_F_FTZ);
    assert_int_equal(in[74].type, PTX_T_F64);
    assert_int_equal(in[77].mode, PTX_TESTP_NOTANUMBER);
    assert_int_equal(in[79].op, PTX_OP_SLCT);
    assert_int_equal(in[79].type2, PTX_T_S32);
    /* 80-91: integer ops */
    assert_true(in[80].flags & PTX_F_WIDE);
    assert_int_equal(in[80].type, PTX_T_S32);
    assert_int_equal(in[81].flags & (PTX_F_LO | PTX_F_CC), PTX_F_LO | PTX_F_CC);
    assert_int_equal(in[82].op, PTX_OP_MAD);
    assert_int_equal(in[82].flags & (PTX_F_CARRYIN | PTX_F_HI), PTX_F_CARRYIN | PTX_F_HI);
    assert_int_equal(in[83].op, PTX_OP_ADD);
    assert_int_equal(in[83].flags & (PTX_F_CARRYIN | PTX_F_CC), PTX_F_CARRYIN | PTX_F_CC);
    assert_int_equal(in[85].nopnd, 5);
    assert_int_equal(in[86].mode, PTX_PRMT_F4E);
    assert_int_equal(in[87].flags & (PTX_F_SHF_L | PTX_F_SHF_WRAP), PTX_F_SHF_L | PTX_F_SHF_WRAP);
    assert_true(in[88].flags & PTX_F_SHIFTAMT);
    assert_true(in[89].flags & PTX_F_NAN);
    assert_int_equal(in[91].opnd[4].imm, 0x96);
    assert_int_equal(in[92].space, PTX_SPACE_SHARED);
    assert_int_equal(in[93].op, PTX_OP_PREFETCH);
    assert_int_equal(in[94].op, PTX_OP_NANOSLEEP);
    assert_int_equal(in[95].op, PTX_OP_TRAP);
    assert_int_equal(in[96].op, PTX_OP_EXIT);
    assert_int_equal(in[97].op, PTX_OP_RET);
    ptx_module_free(m);
}

/* ---- register scoping -------------------------------------------------- */
static void test_register_scoping(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".visible .entry k()\n"
                             "{\n"
                             "  .reg .pred %p<3>;\n"            /* preds 0..2 */
                             "  .reg .b32 %r<4>;\n"             /* regs 0..3 */
                             "  .reg .b32 %t;\n"                /* reg 4 */
                             "  mov.u32 %t, 1;\n"               /* 0 */
                             "  {\n"
                             "    .reg .pred %p1;\n"            /* pred 3, shadows %p1 */
                             "    .reg .b32 %t;\n"              /* reg 5, shadows %t */
                             "    setp.eq.s32 %p1, %r1, 0;\n"   /* 1 */
                             "    mov.u32 %t, %r2;\n"           /* 2 */
                             "  }\n"
                             "  setp.eq.s32 %p1, %r1, 0;\n"     /* 3: the outer %p1 again */
                             "  mov.u32 %t, %r3;\n"             /* 4 */
                             "  {\n"
                             "    .reg .b32 %u;\n"              /* reuses reg 5 */
                             "    .reg .pred %q;\n"             /* reuses pred 3 */
                             "    mov.u32 %u, %t;\n"            /* 5 */
                             "    @%q ret;\n"                   /* 6 */
                             "  }\n"
                             "  ret;\n"
                             "}\n");
    const ptx_function *f = &m->funcs[0];
    assert_int_equal(f->nregs, 6);
    assert_int_equal(f->npreds, 4);
    assert_string_equal(f->reg_names[3], "%r3");
    assert_string_equal(f->reg_names[4], "%t");
    assert_string_equal(f->reg_names[5], "%t"); /* a reused index keeps its first name */
    assert_string_equal(f->pred_names[3], "%p1");
    assert_int_equal(f->reg_types[4], PTX_T_B32);
    assert_int_equal(f->insns[0].opnd[0].reg, 4);
    assert_int_equal(f->insns[1].opnd[0].reg, 3);
    assert_int_equal(f->insns[1].opnd[1].reg, 1);
    assert_int_equal(f->insns[2].opnd[0].reg, 5);
    assert_int_equal(f->insns[2].opnd[1].reg, 2);
    assert_int_equal(f->insns[3].opnd[0].reg, 1);
    assert_int_equal(f->insns[4].opnd[0].reg, 4);
    assert_int_equal(f->insns[5].opnd[0].reg, 5);
    assert_int_equal(f->insns[5].opnd[1].reg, 4);
    assert_int_equal(f->insns[6].guard, 3);
    ptx_module_free(m);

    /* registers of one function are unknown in the next */
    parse_fails(PTX_HEADER
                ".visible .entry a() { .reg .b32 %x; mov.u32 %x, 1; ret; }\n"
                ".visible .entry b() { mov.u32 %x, 1; ret; }\n",
                5, 31, "undefined register '%x'");
    /* and block registers are unknown after the block */
    parse_fails(PTX_HEADER
                ".visible .entry a() {\n"
                "{ .reg .b32 %in; mov.u32 %in, 1; }\n"
                "mov.u32 %in, 2;\n"
                "ret; }\n",
                6, 9, "undefined register '%in'");
}

/* Names without '%', comma lists and range elements (nvcc inline asm). */
static void test_register_names(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".visible .entry k()\n"
                             "{\n"
                             "  .reg .b32 %r<12>, %single;\n"
                             "  .reg .f16 low, high;\n"
                             "  mov.b32 {low, high}, %r11;\n"
                             "  mov.b32 %single, %r10;\n"
                             "  .reg .b32 %r;\n"               /* a plain %r besides %r<12> */
                             "  mov.b32 %r, %r0;\n"
                             "  ret;\n"
                             "}\n");
    const ptx_function *f = &m->funcs[0];
    assert_int_equal(f->nregs, 16);
    assert_int_equal(f->insns[0].opnd[0].vec[0], 13);
    assert_int_equal(f->insns[0].opnd[0].vec[1], 14);
    assert_int_equal(f->insns[0].opnd[1].reg, 11);
    assert_int_equal(f->insns[1].opnd[0].reg, 12);
    assert_int_equal(f->insns[1].opnd[1].reg, 10);
    assert_int_equal(f->reg_types[13], PTX_T_F16);
    assert_int_equal(f->insns[2].opnd[0].reg, 15);
    assert_int_equal(f->insns[2].opnd[1].reg, 0);
    assert_string_equal(f->reg_names[15], "%r");
    ptx_module_free(m);
}

/* Registers wider than the type where PTX allows it: the data of ld/st, both
 * sides of cvt, and (leniently) the u32 side operands. */
static void test_register_widths(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".visible .entry k()\n"
                             "{\n"
                             "  .reg .b16 %h1;\n"
                             "  .reg .b32 %r<3>;\n"
                             "  .reg .b64 %rd<3>;\n"
                             "  ld.global.u8 %h1, [%rd1];\n"        /* 16-bit register for u8 */
                             "  ld.global.s32 %rd2, [%rd1];\n"      /* sign-extending load */
                             "  st.global.u32 [%rd1], %rd2;\n"      /* low half of a 64-bit register */
                             "  cvt.s32.s8 %r1, %r2;\n"             /* low byte of %r2 */
                             "  cvt.u16.u32 %h1, %r2;\n"
                             "  shl.b64 %rd1, %rd1, %rd2;\n"        /* shift amount from a wider register */
                             "  ld.shared.u32 %r1, [%r2];\n"        /* 32-bit shared address */
                             "  ret;\n"
                             "}\n");
    assert_int_equal(m->funcs[0].ninsn, 8);
    ptx_module_free(m);
}

/* ---- frame layout --------------------------------------------------------- */
static void test_frame_layout(void **state)
{
    (void)state;
    /* ret b64 @0..8; a b32 @8..12; b (.align 16, 20 bytes) @16..36;
     * depot (.align 4, 12 bytes) @36..48;
     * block 1: param0 b32 @48..52, param1 (.align 8, 16 bytes) @56..72;
     * block 2 (after block 1 closed): p b64 @48..56.
     * frame_size 72, frame_align 16. */
    ptx_module *m = parse_ok(PTX_HEADER
                             ".func (.param .b64 ret) f(.param .b32 a, .param .align 16 .b8 b[20])\n"
                             "{\n"
                             "  .local .align 4 .b8 __local_depot0[12];\n"
                             "  .reg .b64 %SPL;\n"
                             "  .reg .b32 %r<2>;\n"
                             "  mov.u64 %SPL, __local_depot0;\n"        /* 0 */
                             "  ld.param.u32 %r1, [a];\n"               /* 1 */
                             "  ld.param.u32 %r1, [b+16];\n"            /* 2 */
                             "  {\n"
                             "    .param .b32 param0;\n"
                             "    .param .align 8 .b8 param1[16];\n"
                             "    st.param.b32 [param0], %r1;\n"        /* 3 */
                             "    st.param.b32 [param1+12], %r1;\n"     /* 4 */
                             "  }\n"
                             "  {\n"
                             "    .param .b64 p;\n"
                             "    st.param.b64 [p], %SPL;\n"            /* 5 */
                             "  }\n"
                             "  st.param.b64 [ret], %SPL;\n"            /* 6 */
                             "  st.local.u32 [__local_depot0+8], %r1;\n"/* 7 */
                             "  ret;\n"
                             "}\n");
    const ptx_function *f = &m->funcs[0];
    assert_int_equal(f->rets[0].offset, 0);
    assert_int_equal(f->params[0].offset, 8);
    assert_int_equal(f->params[1].offset, 16);
    assert_int_equal(f->params[1].align, 16);
    assert_int_equal(f->frame_size, 72);
    assert_int_equal(f->frame_align, 16);
    assert_int_equal(f->insns[0].opnd[1].kind, PTX_OPND_SYMADDR);
    assert_int_equal(f->insns[0].opnd[1].addr_base, PTX_ABASE_FRAME);
    assert_int_equal(f->insns[0].opnd[1].imm, 36);
    assert_int_equal(f->insns[1].opnd[1].addr_base, PTX_ABASE_FRAME);
    assert_int_equal(f->insns[1].opnd[1].imm, 8);
    assert_int_equal(f->insns[2].opnd[1].imm, 32);
    assert_int_equal(f->insns[3].opnd[0].imm, 48);
    assert_int_equal(f->insns[4].opnd[0].imm, 68);
    assert_int_equal(f->insns[5].opnd[0].imm, 48);
    assert_int_equal(f->insns[6].opnd[0].imm, 0);
    assert_int_equal(f->insns[7].opnd[0].imm, 44);
    ptx_module_free(m);
}

static void test_kernel_param_layout(void **state)
{
    (void)state;
    /* u8 @0; u64 @8; .align 4 .b8[6] @16..22; f32 @24; u16 @28..30;
     * .align 16 .b8[3] @32..35; buffer rounded to 16 -> 48 */
    ptx_module *m = parse_ok(PTX_HEADER
                             ".visible .entry k(.param .u8 a, .param .u64 b, .param .align 4 .b8 c[6],\n"
                             "                  .param .f32 d, .param .u16 e, .param .align 16 .b8 g[3])\n"
                             "{\n"
                             "  .reg .b16 %rs1;\n"
                             "  .reg .b64 %rd1;\n"
                             "  ld.param.u16 %rs1, [c+4];\n"
                             "  ld.param.u8 %rs1, [g+2];\n"
                             "  mov.u64 %rd1, e;\n"
                             "  ret;\n"
                             "}\n");
    const ptx_function *f = &m->funcs[0];
    const uint32_t off[6] = {0, 8, 16, 24, 28, 32}, size[6] = {1, 8, 6, 4, 2, 3};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(f->params[i].offset, off[i]);
        assert_int_equal(f->params[i].size, size[i]);
    }
    assert_int_equal(f->params[2].type, PTX_T_B8);
    assert_int_equal(f->kparam_size, 48);
    assert_int_equal(f->frame_size, 0);
    assert_int_equal(f->insns[0].opnd[1].addr_base, PTX_ABASE_KPARAM);
    assert_int_equal(f->insns[0].opnd[1].imm, 20);
    assert_int_equal(f->insns[1].opnd[1].imm, 34);
    assert_int_equal(f->insns[2].opnd[1].kind, PTX_OPND_SYMADDR);
    assert_int_equal(f->insns[2].opnd[1].addr_base, PTX_ABASE_KPARAM);
    assert_int_equal(f->insns[2].opnd[1].imm, 28);
    ptx_module_free(m);
}

/* ---- immediates ------------------------------------------------------------ */
static void test_immediates(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".visible .entry k()\n"
                             "{\n"
                             "  .reg .b32 %r<2>;\n"
                             "  .reg .b16 %h;\n"
                             "  .reg .b64 %d;\n"
                             "  .reg .f32 %f;\n"
                             "  .reg .f64 %g;\n"
                             "  .reg .pred %p;\n"
                             "  mov.u32 %r1, -1;\n"          /* 0: u32 -> 0xFFFFFFFF */
                             "  mov.s32 %r1, -1;\n"          /* 1: s32 -> -1 */
                             "  mov.u16 %h, 0xFFFF;\n"       /* 2 */
                             "  mov.s16 %h, -32768;\n"       /* 3: sign-extended */
                             "  mov.u64 %d, 0x8000000000000000;\n" /* 4 */
                             "  mov.s64 %d, -9223372036854775808;\n" /* 5 */
                             "  mov.f32 %f, 2.0;\n"          /* 6 */
                             "  mov.f32 %f, -1.0;\n"         /* 7 */
                             "  mov.f64 %g, 0f3F800000;\n"   /* 8: f32 literal widened */
                             "  mov.f64 %g, -2.5;\n"         /* 9 */
                             "  mov.b32 %r1, 0f40000000;\n"  /* 10: bits */
                             "  mov.b64 %d, 1.0;\n"          /* 11: f64 bits */
                             "  mov.pred %p, 1;\n"           /* 12 */
                             "  mov.u32 %r1, 0b1010;\n"      /* 13 */
                             "  mov.u32 %r1, 0777;\n"        /* 14 */
                             "  mov.u16 %h, 65536;\n"        /* 15: truncated like ptxas: 0 */
                             "  mov.s16 %h, 70000;\n"        /* 16: 0x11170 -> 0x1170 */
                             "  mov.s16 %h, 0xFFFF8;\n"      /* 17: 0xFFF8 -> -8 */
                             "  selp.b32 %r1, 1, 2, 2;\n"    /* 18: predicate immediate, nonzero -> 1 */
                             "  mov.f32 %f, 0d3FF8000000000000;\n" /* 19: f64 literal -> 1.5f */
                             "  ret;\n"
                             "}\n");
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(in[0].opnd[1].imm, 0xFFFFFFFFll);
    assert_int_equal(in[1].opnd[1].imm, -1);
    assert_int_equal(in[2].opnd[1].imm, 0xFFFF);
    assert_int_equal(in[3].opnd[1].imm, -32768);
    assert_true((uint64_t)in[4].opnd[1].imm == 0x8000000000000000ull);
    assert_true((uint64_t)in[5].opnd[1].imm == 0x8000000000000000ull);
    assert_int_equal(in[6].opnd[1].imm, 0x40000000);
    assert_int_equal(in[7].opnd[1].imm, 0xBF800000ll);
    assert_true(in[8].opnd[1].imm == 0x3FF0000000000000ll);
    assert_true(in[9].opnd[1].imm == (int64_t)0xC004000000000000ull);
    assert_int_equal(in[10].opnd[1].imm, 0x40000000);
    assert_true(in[11].opnd[1].imm == 0x3FF0000000000000ll);
    assert_int_equal(in[12].opnd[1].kind, PTX_OPND_IMM);
    assert_int_equal(in[12].opnd[1].imm, 1);
    assert_int_equal(in[13].opnd[1].imm, 10);
    assert_int_equal(in[14].opnd[1].imm, 511);
    assert_int_equal(in[15].opnd[1].imm, 0);
    assert_int_equal(in[16].opnd[1].imm, 0x1170);
    assert_int_equal(in[17].opnd[1].imm, -8);
    assert_int_equal(in[18].opnd[3].kind, PTX_OPND_IMM);
    assert_int_equal(in[18].opnd[3].imm, 1);
    assert_int_equal(in[19].opnd[1].imm, 0x3FC00000);
    ptx_module_free(m);
}

/* ---- demoted shared variables are scoped to their function ---------------- */
/* nvcc marks __managed__ variables `.global .attribute(.managed)`; other
 * attributes, and the attribute on another space, are errors. */
static void test_managed_attribute(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".global .attribute(.managed) .align 4 .b8 table[16] = {1, 0, 0, 0, 2};\n"
                             ".global .align 4 .u32 plain;\n"
                             ".visible .entry k() { ret; }\n");
    assert_int_equal(m->nvars, 2);
    assert_int_equal(m->vars[0].is_managed, 1);
    assert_int_equal(m->vars[0].size, 16);
    assert_int_equal(m->vars[0].align, 4);
    assert_int_equal(m->vars[0].init[4], 2);
    assert_int_equal(m->vars[1].is_managed, 0);
    ptx_module_free(m);
    parse_fails(PTX_HEADER ".global .attribute(.unified) .u32 x;\n", 4, 20, "unsupported: .attribute('.unified')");
    parse_fails(PTX_HEADER ".const .attribute(.managed) .u32 x;\n", 4, 34, ".attribute(.managed) is only allowed on .global");
}

static void test_function_scope_variables(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".visible .entry a()\n"
                             "{\n"
                             "  .reg .b32 %r1;\n"
                             "  .shared .align 4 .b8 tile[128];\n"
                             "  ld.shared.u32 %r1, [tile+124];\n"
                             "  ret;\n"
                             "}\n"
                             ".visible .entry b()\n"
                             "{\n"
                             "  .reg .b32 %r1;\n"
                             "  .shared .align 8 .b8 tile[16];\n"
                             "  mov.u32 %r1, tile;\n"
                             "  ret;\n"
                             "}\n");
    assert_int_equal(m->nvars, 2);
    assert_int_equal(m->vars[0].size, 128);
    assert_int_equal(m->vars[1].size, 16);
    assert_int_equal(m->funcs[0].insns[0].opnd[1].reg, 0);
    assert_int_equal(m->funcs[0].insns[0].opnd[1].imm, 124);
    assert_int_equal(m->funcs[1].insns[0].opnd[1].reg, 1);
    ptx_module_free(m);

    /* .extern .shared inside a body is dynamic shared memory of that kernel */
    m = parse_ok(PTX_HEADER
                 ".visible .entry c()\n"
                 "{\n"
                 "  .reg .b32 %r1;\n"
                 "  .extern .shared .align 16 .b8 dsm[];\n"
                 "  ld.shared.u32 %r1, [dsm+8];\n"
                 "  ret;\n"
                 "}\n");
    assert_int_equal(m->nvars, 1);
    assert_true(m->vars[0].is_extern);
    assert_int_equal(m->vars[0].size, 0);
    assert_int_equal(m->funcs[0].insns[0].opnd[1].addr_base, PTX_ABASE_SYM);
    assert_int_equal(m->funcs[0].insns[0].opnd[1].imm, 8);
    ptx_module_free(m);
}

/* ---- calls: forward declaration, recursion, no return value ------------ */
static void test_calls(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".func (.param .b32 r) fib(.param .b32 n);\n"
                             ".func sink(.param .b64 p);\n"
                             ".visible .entry k(.param .u32 k_n)\n"
                             "{\n"
                             "  .reg .b32 %r<3>;\n"
                             "  ld.param.u32 %r1, [k_n];\n"
                             "  {\n"
                             "  .param .b32 a0;\n"
                             "  st.param.b32 [a0], %r1;\n"
                             "  .param .b32 rv;\n"
                             "  call (rv), fib, (a0);\n"
                             "  ld.param.b32 %r2, [rv];\n"
                             "  }\n"
                             "  {\n"
                             "  .param .b64 a0;\n"
                             "  st.param.b64 [a0], 0;\n"
                             "  call.uni sink, (a0);\n"
                             "  }\n"
                             "  ret;\n"
                             "}\n"
                             ".func (.param .b32 r) fib(.param .b32 n)\n"
                             "{\n"
                             "  .reg .b32 %r<3>;\n"
                             "  .reg .pred %p;\n"
                             "  ld.param.u32 %r1, [n];\n"
                             "  setp.lt.s32 %p, %r1, 2;\n"
                             "  @%p bra DONE;\n"
                             "  {\n"
                             "  .param .b32 a0;\n"
                             "  .param .b32 rv;\n"
                             "  sub.s32 %r2, %r1, 1;\n"
                             "  st.param.b32 [a0], %r2;\n"
                             "  call.uni (rv), fib, (a0);\n"
                             "  ld.param.b32 %r1, [rv];\n"
                             "  }\n"
                             "DONE:\n"
                             "  st.param.b32 [r], %r1;\n"
                             "  ret;\n"
                             "}\n"
                             ".func sink(.param .b64 p) { ret; }\n");
    assert_int_equal(m->nfuncs, 3);
    int ifib = ptx_find_function(m, "fib"), isink = ptx_find_function(m, "sink");
    const ptx_function *k = func_named(m, "k");
    assert_int_equal(k->ncalls, 2);
    /* kernel frame: a0 @0, rv @4; second block's a0 (b64) @0 */
    assert_int_equal(k->calls[0].func, ifib);
    assert_int_equal(k->calls[0].args[0].imm, 0);
    assert_int_equal(k->calls[0].rets[0].imm, 4);
    assert_int_equal(k->calls[1].func, isink);
    assert_int_equal(k->calls[1].nrets, 0);
    assert_int_equal(k->calls[1].args[0].imm, 0);
    assert_int_equal(k->frame_size, 8);
    const ptx_function *fib = &m->funcs[ifib];
    assert_false(fib->is_extern);
    /* fib frame: r @0, n @4, a0 @8, rv @12 */
    assert_int_equal(fib->frame_size, 16);
    assert_int_equal(fib->calls[0].func, ifib);
    assert_int_equal(fib->calls[0].args[0].imm, 8);
    assert_int_equal(fib->calls[0].rets[0].imm, 12);
    assert_int_equal(fib->insns[2].opnd[0].imm, 7); /* bra DONE -> st.param (insn 7) */
    ptx_module_free(m);
}

/* Registers and immediates as call arguments and return values (ptxas accepts
 * them; the executor copies them like .param slots). */
static void test_call_register_arguments(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".func (.param .b32 r) add2(.param .b32 a, .param .f32 b)\n"
                             "{\n"
                             "  .reg .b32 %r<2>;\n"
                             "  ld.param.u32 %r1, [a];\n"
                             "  st.param.b32 [r], %r1;\n"
                             "  ret;\n"
                             "}\n"
                             ".visible .entry k()\n"
                             "{\n"
                             "  .reg .b32 %r<3>;\n"
                             "  call.uni (%r1), add2, (%r2, 0f40000000);\n"
                             "  call.uni (%r1), add2, (-3, 1.5);\n"
                             "  ret;\n"
                             "}\n");
    const ptx_function *k = func_named(m, "k");
    assert_int_equal(k->ncalls, 2);
    const ptx_call *c = &k->calls[0];
    assert_int_equal(c->rets[0].kind, PTX_OPND_REG);
    assert_int_equal(c->rets[0].reg, 1);
    assert_int_equal(c->args[0].kind, PTX_OPND_REG);
    assert_int_equal(c->args[0].reg, 2);
    assert_int_equal(c->args[1].kind, PTX_OPND_IMM);
    assert_int_equal(c->args[1].imm, 0x40000000);
    /* immediates take the type of the formal: .b32 -3, .f32 1.5 */
    assert_int_equal(k->calls[1].args[0].imm, 0xFFFFFFFDll);
    assert_int_equal(k->calls[1].args[1].imm, 0x3FC00000);
    ptx_module_free(m);
}

static void test_disassembly(void **state)
{
    (void)state;
    ptx_module *m = parse_source_file("tests/ptx/syntax.ptx");
    const ptx_function *k = func_named(m, "kitchen");
    char buf[256];
    struct {
        uint32_t insn;
        const char *text;
    } want[] = {
        {22, "setp.lt.and.s32 %p1|%p2, %r3, %r1, %p3;"},
        {24, "@%p1 bra L62;"},
        {26, "ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd2+16];"},
        {4, "ld.param.u32 %r2, [kitchen_param_2+8];"},
        {28, "ld.shared.u32 %r11, [smem+4];"},
        {56, "shfl.sync.bfly.b32 %r19|%p4, %r18, 1, 31, 4294967295;"},
        {82, "madc.hi.u32 %r5, %r3, %r2, 0;"},
        {19, "sub.f32 %f1, %f2, 0f3F800000;"},
        {66, "call.uni ([__frame+20]), twice, ([__frame+16]);"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ptx_insn_format(m, k, &k->insns[want[i].insn], buf, sizeof buf);
        assert_string_equal(buf, want[i].text);
    }
    /* a tiny buffer is truncated, never overrun */
    char small[8];
    ptx_insn_format(m, k, &k->insns[22], small, sizeof small);
    assert_string_equal(small, "setp.lt");
    const ptx_function *tw = func_named(m, "twice");
    ptx_insn_format(m, tw, &tw->insns[0], buf, sizeof buf);
    assert_string_equal(buf, "ld.param.u32 %r1, [x];");
    ptx_module_free(m);
}

static void test_lookups_and_names(void **state)
{
    (void)state;
    ptx_module *m = parse_source_file("tests/ptx/syntax.ptx");
    assert_int_equal(ptx_find_function(m, "nope"), -1);
    assert_int_equal(ptx_find_var(m, "nope"), -1);
    assert_int_equal(ptx_find_function(NULL, "x"), -1);
    assert_int_equal(ptx_find_var(m, NULL), -1);
    assert_string_equal(ptx_opcode_name(PTX_OP_SHFL), "shfl");
    assert_string_equal(ptx_opcode_name(PTX_OP_COUNT), "?");
    assert_int_equal(ptx_opcode_class(PTX_OP_LD), PTX_CLASS_MEM);
    assert_int_equal(ptx_opcode_class(PTX_OP_SQRT), PTX_CLASS_SFU);
    assert_int_equal(ptx_opcode_class(PTX_OP_BAR), PTX_CLASS_BAR);
    assert_int_equal(ptx_opcode_class(PTX_OP_BRA), PTX_CLASS_CTRL);
    assert_int_equal(ptx_type_size(PTX_T_F16X2), 4);
    assert_int_equal(ptx_type_size(PTX_T_B128), 16);
    assert_int_equal(ptx_type_size(PTX_T_PRED), 0);
    assert_true(ptx_type_is_signed(PTX_T_S8));
    assert_false(ptx_type_is_signed(PTX_T_U64));
    assert_true(ptx_type_is_float(PTX_T_BF16));
    assert_false(ptx_type_is_float(PTX_T_B32));
    assert_string_equal(ptx_type_name(PTX_T_BF16X2), "bf16x2");
    ptx_module_free(NULL);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_syntax_file_variables),
        cmocka_unit_test(test_syntax_file_functions),
        cmocka_unit_test(test_syntax_file_operands),
        cmocka_unit_test(test_register_scoping),
        cmocka_unit_test(test_register_names),
        cmocka_unit_test(test_register_widths),
        cmocka_unit_test(test_frame_layout),
        cmocka_unit_test(test_kernel_param_layout),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_managed_attribute),
        cmocka_unit_test(test_function_scope_variables),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_call_register_arguments),
        cmocka_unit_test(test_disassembly),
        cmocka_unit_test(test_lookups_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
