/* Malformed and unsupported PTX: every error names file:line:col and the
 * offending thing, and the parse returns NULL (no crash, no leak: the tests run
 * under ASan/LSan). */
#include "ptx_test.h"

/* Wrap body lines in a kernel whose body starts at line 9:
 *   1 .version 9.0      4 .visible .entry k(.param .u64 k_p0)   7 .reg .pred %p<2>;
 *   2 .target sm_75     5 {                                      8 .reg .b64 %rd<4>;
 *   3 .address_size 64  6 .reg .b32 %r<4>;                       9 <body> */
static void body_fails(const char *body, unsigned line, unsigned col, const char *want)
{
    char src[8192];
    snprintf(src, sizeof src,
             PTX_HEADER ".visible .entry k(.param .u64 k_p0)\n{\n.reg .b32 %%r<4>;\n.reg .pred %%p<2>;\n"
                        ".reg .b64 %%rd<4>;\n%s\n}\n",
             body);
    parse_fails(src, line, col, want);
}

static void test_opcode_errors(void **state)
{
    (void)state;
    body_fails("foo.u32 %r1, %r2;", 9, 1, "unknown opcode 'foo'");
    body_fails("sured.b.add.1d.u32 [%rd1, {%r1}], %r2;", 9, 1, "sured.b.add.1d.u32 is not supported");
    /* textures and surfaces: objects only, the forms ptxas takes */
    body_fails("tex.acube.v4.f32.f32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0, %r1, %r2, %r3}];", 9, 1,
               "tex.acube.v4.f32.f32 is not supported (layered cube-map and multi-sample textures)");
    body_fails("tex.cube.v4.f32.s32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0, %r1, %r2, %r3}];", 9, 50,
               "'tex.cube' takes .f32 coordinates");
    body_fails("suld.b.cube.b32.trap {%r0}, [%rd1, {%r0, %r1, %r2, %r3}];", 9, 1, "'suld' has no .cube geometry");
    body_fails("tex.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [k_p0, {%r0, %r1}];", 9, 42, "not texture references");
    body_fails("tex.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0}];", 9, 48, "takes 2 coordinates, found 1");
    body_fails("tex.2d.f32.f32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0, %r1}];", 9, 1, "'tex' needs .v4");
    body_fails("tex.v4.f32.f32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0, %r1}];", 9, 1, "'tex' needs a geometry");
    body_fails("tld4.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0, %r1}];", 9, 1, "needs a component");
    body_fails("suld.p.2d.b32.trap {%r0}, [%rd1, {%r0, %r1}];", 9, 1, "suld.p.2d.b32.trap is not supported (formatted surface access)");
    body_fails("suld.b.2d.b32.trap {%r0}, [%rd1, {%r0, %r1}], %r2;", 9, 1, "'suld' takes d, [handle, {coordinates}]");
    body_fails("txq.channel_order.b32 %r0, [%rd1];", 9, 1, "txq.channel_order.b32 is not supported");
    body_fails("tex.1d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [%rd1], {%r0};", 9, 1, "operand '[handle, {coordinates}]'");
    body_fails("txq.width.b32 %r0, [%rd1, {%r0}];", 9, 1, "operand '[handle]'");
    body_fails("sust.b.1d.b32 [%rd1, {%r0}], %r1;", 9, 1, "'sust' needs .trap, .clamp or .zero");
    body_fails("txq.width.b32 %r0, [%r1];", 9, 21, "is .b32, the operand is 64-bit");
    body_fails("brx.idx %r1, tbl;", 9, 1, "brx.idx is not supported (indirect branch)");
    body_fails("add.foo.u32 %r1, %r2, %r3;", 9, 4, "unsupported modifier '.foo' for 'add'");
    body_fails("add.u32.s32 %r1, %r2, %r3;", 9, 1, "'add' takes one type modifier, found two");
    body_fails("add %r1, %r2, %r3;", 9, 1, "'add' needs a type modifier");
    body_fails("add.rn.rz.f32 %r1, %r2, %r3;", 9, 7, "more than one rounding modifier");
    body_fails("mul.s32 %r1, %r2, %r3;", 9, 1, "needs exactly one of .hi, .lo, .wide");
    body_fails("fma.f32 %r1, %r2, %r3, %r0;", 9, 1, "'fma' needs a rounding modifier");
    body_fails("sin.f32 %r1, %r2;", 9, 1, "'sin' needs .approx");
    body_fails("setp.s32 %p1, %r1, %r2;", 9, 1, "'setp' needs a comparison");
    body_fails("setp.lt.b32 %p1, %r1, %r2;", 9, 1, "bit types compare only with .eq/.ne");
    body_fails("setp.ltu.s32 %p1, %r1, %r2;", 9, 1, "floating-point comparison on an integer type");
    body_fails("add.rn.s32 %r1, %r1, %r2;", 9, 1, "rounding modifier on an integer type");
    body_fails("cvt.rn.s32.f32 %r1, %r2;", 9, 1, "cvt from float to integer needs .rni, .rzi, .rmi or .rpi");
    /* rounding as ptxas requires it: never a default to guess */
    body_fails("cvt.f32.s32 %r1, %r2;", 9, 1, "cvt from integer to float needs .rn, .rz, .rm or .rp");
    body_fails("cvt.f32.f64 %r1, %rd1;", 9, 1, "narrowing float cvt needs .rn, .rz, .rm or .rp");
    body_fails("cvt.rn.f64.f32 %rd1, %r1;", 9, 1, "widening float cvt takes no rounding modifier");
    body_fails("cvt.rn.f32.f32 %r1, %r2;", 9, 1, "cvt within one float type takes .rni");
    body_fails("cvt.rn.u32.u16 %r1, %r2;", 9, 1, "cvt between integer types takes no rounding modifier");
    body_fails("ld.v8.u32 {%r0, %r1}, [%rd1];", 9, 3, "unsupported modifier '.v8' for 'ld'");
    body_fails("atom.global.u32 %r1, [%rd1], 1;", 9, 1, "'atom' needs an operation");
    body_fails("atom.global.and.u32 %r1, [%rd1], 1;", 9, 1, "unsupported type .u32 for 'atom'");
    body_fails("atom.local.add.u32 %r1, [%rd1], 1;", 9, 1, "not .local");
    body_fails("red.global.cas.b32 [%rd1], 1;", 9, 1, "'red' cannot do .exch/.cas");
    body_fails("bar 0;", 9, 1, "needs exactly one of .sync, .arrive, .red");
    body_fails("shfl.sync.b32 %r1, %r2, 1, 31, -1;", 9, 1, "'shfl' needs a mode");
    body_fails("fence.proxy.alias;", 9, 6, "unsupported modifier '.proxy' for 'fence'");
    body_fails("membar;", 9, 1, "'membar' needs .cta, .gl or .sys");
    body_fails("cvta.u64 %rd1, %rd2;", 9, 1, "'cvta' needs a state space");
    body_fails("ld.shared.nc.u32 %r1, [%rd1];", 9, 1, "'ld.nc' needs .global");
}

static void test_operand_errors(void **state)
{
    (void)state;
    body_fails("ld.global.u32 %r1, [%rd1;", 9, 25, "expected ']', found ';'");
    body_fails("mov.u32 %r9, 1;", 9, 9, "undefined register '%r9'");
    /* the prefix of %r<4> alone is not a register (found by differential testing
     * against ptxas: it used to decode as %r0) */
    body_fails("mov.u32 %r, 1;", 9, 9, "undefined register '%r'");
    body_fails("mov.u32 %r01, 1;", 9, 9, "undefined register '%r01'");
    body_fails("mov.u32 %r1, nothing;", 9, 14, "undefined symbol 'nothing'");
    body_fails("bra BB0_3;", 9, 5, "undefined label 'BB0_3' in 'k'");
    body_fails("add.s32 %r1, %r2;", 9, 1, "'add' takes 3 operands, found 2");
    body_fails("add.s32 %r1, %p1, 1;", 9, 14, "expected a value register, found predicate '%p1'");
    body_fails("setp.eq.s32 %r1, %r1, 1;", 9, 13, "expected a predicate register, found '%r1'");
    body_fails("add.f32 %r1, %r1, 1;", 9, 19, "integer literal used with floating-point type .f32");
    body_fails("mov.f32 %r1, -0f3F800000;", 9, 15, "'-' before a hex float literal");
    body_fails("mov.b32 %r1, 0d3FF0000000000000;", 9, 14, "64-bit float literal used with .b32");
    body_fails("add.s32 %r1, %r1, 1.5;", 9, 19, "floating-point literal used with integer type .s32");
    body_fails("mov.f32 %r1, 0f3F80;", 9, 14, "expected 8 hex digits");
    body_fails("st.param.u64 [k_p0], %rd1;", 9, 15, "kernel parameter 'k_p0' is read-only");
    body_fails("ld.param.u64 %rd1, [k_p0+4];", 9, 21, "access of 8 bytes at offset 4 is outside 'k_p0'");
    body_fails("ld.global.u64 %rd1, [k_p0];", 9, 22, "'k_p0' is a .param variable");
    body_fails("add.u32 %r1, %tid.x, 1;", 9, 14, "special register '%tid' is only allowed in mov/cvt");
    body_fails("mov.u32 %r1, %tid;", 9, 14, "needs a component .x, .y or .z");
    body_fails("mov.u32 %r1, %envreg3;", 9, 14, "unsupported special register '%envreg3'");
    body_fails("mov.u64 %rd1, %tid.x;", 9, 15, "special register '%tid' is 32-bit, the operand is .u64");
    body_fails("mov.u32 %r1, %clock64;", 9, 14, "special register '%clock64' is 64-bit, the operand is .u32");
    body_fails("xor.b32 %r1, %r1, 1.5;", 9, 19, "decimal float literal used with .b32 (write a 0f hex float)");
    body_fails("add.s32 %r1, !%r2, 1;", 9, 15, "'!' is only allowed on predicates");
    body_fails("ld.global.v2.u32 {%r1, %r2, %r3, %r0}, [%rd1];", 9, 18, "vector operand has 4 elements");
    body_fails("ld.global.u32 {%r1, %r2}, [%rd1];", 9, 15, "vector operand needs a .v2/.v4 modifier");
    body_fails("mov.u32 %r1, 1 2;", 9, 16, "expected ';' after instruction, found '2'");
    body_fails("ret\n", 11, 1, "expected ';' after instruction, found '}'");
    body_fails("@%r1 ret;", 9, 2, "expected a predicate register, found '%r1'");
    body_fails("call.uni nowhere;", 9, 10, "call to undeclared function 'nowhere'");
    /* register widths must match the instruction (ptxas: "Arguments mismatch") */
    body_fails("add.s32 %r1, %rd1, 1;", 9, 14, "register '%rd1' is .b64, the operand is 32-bit (.s32)");
    body_fails("setp.eq.s32 %p1, %rd1, 0;", 9, 18, "register '%rd1' is .b64");
    body_fails("mul.wide.s32 %r1, %r2, 4;", 9, 14, "register '%r1' is .b32, the operand is 64-bit (.s64)");
    body_fails("ld.global.u64 %r1, [%rd1];", 9, 15, "the operand is at least 64-bit (.u64)");
    body_fails(".reg .f32 %f1;\nst.global.u32 [%f1], %r1;", 10, 16,
               "address register '%f1' is .f32: an address needs a 32- or 64-bit integer register");
    body_fails(".reg .b16 %h1;\nmov.b64 %rd1, {%r1, %h1};", 10, 21, "register '%h1' is .b16, the operand is 32-bit");
    body_fails("atom.global.add.u32 %r1, [%rd1], %rd2;", 9, 34, "register '%rd2' is .b64, the operand is 32-bit");
    /* and kinds: integer registers do not feed float operands, nor the reverse */
    body_fails(".reg .f32 %f1;\nadd.s32 %r1, %f1, 1;", 10, 14, "register '%f1' is .f32, the operand is .s32");
    body_fails(".reg .u32 %u1;\nadd.f32 %u1, %u1, 0f3F800000;", 10, 9, "register '%u1' is .u32, the operand is .f32");
    body_fails("ld.global.f16 %r1, [%rd1];", 9, 1, "unsupported type .f16 for 'ld'");
    body_fails("cvt.b32.u32 %r1, %r2;", 9, 1, "unsupported type .b32 for 'cvt'");
    body_fails("setp.hi.s32 %p1, %r1, 0;", 9, 1, "unsigned comparison (.lo/.ls/.hi/.hs) on a signed type");
}

static void test_declaration_errors(void **state)
{
    (void)state;
    body_fails(".reg .b32 %x;\n.reg .b32 %x;", 10, 11, "'%x' redeclared in the same scope");
    body_fails(".reg .b32 %z<300000>;", 9, 14, "register range too large: 300000 (limit 262144)");
    body_fails(".reg .v4 .f32 %v;", 9, 6, "unsupported: vector registers");
    body_fails("L1: ret;\nL1: ret;", 10, 1, "label 'L1' redefined (first defined at line 9)");
    body_fails(".local .u32 x = 5;", 9, 15, ".local variables cannot be initialized");
    body_fails(".shared .u32 s = 5;", 9, 16, ".shared variables cannot be initialized");
    body_fails(".foo;", 9, 1, "unexpected directive '.foo' in function body");
    /* a prototype names its call's type; it is not a call target of its own */
    body_fails("prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\ncall prototype_1, ();", 10, 6,
               "call to undeclared function 'prototype_1'");
    /* a brx.idx's table comes before the brx.idx itself: named as what it is */
    body_fails("tbl: .branchtargets L1, L2;", 9, 6, "unsupported: brx.idx (indirect branch; its .branchtargets table)");
    body_fails("ctbl: .calltargets f1, f2;", 9, 7, "unsupported: a call's .calltargets table (calls through a register run)");
    body_fails("{ .reg .b32 %q; ", 11, 1, "unexpected end of file in function 'k'");

    char deep[400] = "";
    for (int i = 0; i < 70; i++)
        strcat(deep, "{");
    /* the kernel's parameters and body already use two levels */
    body_fails(deep, 9, 63, "blocks nested too deeply (limit 64)");
}

static void test_module_errors(void **state)
{
    (void)state;
    parse_fails("", 1, 1, "expected '.version' at the start of the module");
    parse_fails(".target sm_75\n", 1, 1, "expected '.version' at the start of the module");
    parse_fails(".version 10.0\n", 1, 10, "unsupported PTX version 10.0");
    parse_fails(".version nine\n", 1, 10, "expected a version number");
    parse_fails(PTX_HEADER ".version 9.0\n", 4, 1, "duplicate .version directive");
    parse_fails(".version 9.0\n.target sm_75, map_f64_to_f32\n", 2, 16, "unsupported: .target map_f64_to_f32");
    parse_fails(".version 9.0\n.target gfx90a\n", 2, 9, "unknown target 'gfx90a'");
    parse_fails(".version 9.0\n.target sm_75\n.address_size 32\n", 3, 15, "unsupported: .address_size 32 (only 64)");
    parse_fails(".version 9.0\n.address_size 64\n", 2, 1, "expected '.target' after .version");
    parse_fails(PTX_HEADER ".target sm_80\n", 4, 1, "duplicate .target directive");
    parse_fails(PTX_HEADER ".foo 1;\n", 4, 1, "unsupported directive '.foo'");
    parse_fails(PTX_HEADER "ret;\n", 4, 1, "expected a directive, found 'ret'");
    parse_fails(PTX_HEADER ".global .u32 x;\n.global .u32 x;\n", 5, 14, "'x' redeclared in the same scope");
    parse_fails(PTX_HEADER ".global .u32 a[2] = {1, 2, 3};\n", 4, 28, "too many initializers");
    parse_fails(PTX_HEADER ".global .f32 x = 1;\n", 4, 18, "integer literal used with floating-point type .f32");
    parse_fails(PTX_HEADER ".global .u32 p = missing;\n", 4, 18, "undefined symbol 'missing' in initializer");
    parse_fails(PTX_HEADER ".global .u32 g;\n.global .u32 p = g;\n", 5, 18,
                "address initializer needs a 64-bit element type");
    parse_fails(PTX_HEADER ".global .u32 u[];\n", 4, 14, "unsized array 'u' needs an initializer or .extern");
    parse_fails(PTX_HEADER ".global .b8 big[4294967296] = {1};\n", 4, 31, "initializer too large");
    parse_fails(PTX_HEADER ".local .u32 l;\n", 4, 1, "unsupported: module-scope .local variable");
    parse_fails(PTX_HEADER ".global .align 3 .u32 x;\n", 4, 16, "alignment must be a power of two");
    parse_fails(PTX_HEADER ".entry k(.reg .u32 r) { ret; }\n", 4, 10, "kernel parameters must be .param, not .reg");
    /* .func .reg formals are scalars (ptxas: .reg arrays/vectors are not parameters) */
    parse_fails(PTX_HEADER ".func f(.reg .u32 r[2]) { ret; }\n", 4, 19, "a .reg parameter cannot be an array");
    parse_fails(PTX_HEADER ".func f(.reg .pred p) { ret; }\n", 4, 14, ".pred is only allowed for registers");
    /* ptxas: "State space incorrect for instruction 'st'" */
    parse_fails(PTX_HEADER ".const .b32 c;\n.entry k() { st.const.u32 [c], 1; ret; }\n", 5, 14,
                "'st' cannot write the read-only .const space");
    parse_fails(PTX_HEADER ".entry k() { ret; }\n.entry k() { ret; }\n", 5, 8, "redefinition of function 'k'");
    parse_fails(PTX_HEADER ".func f(.param .b32 a);\n.func f(.param .b64 a) { ret; }\n", 5, 7,
                "declaration of 'f' conflicts with the one at line 4");
    parse_fails(PTX_HEADER ".extern .func e() { ret; }\n", 4, 19, ".extern function 'e' cannot have a body");
    parse_fails(PTX_HEADER ".entry k() .maxclusterrank 2 { ret; }\n", 4, 12, "unsupported function directive");
    parse_fails(PTX_HEADER "/* never closed\n", 4, 1, "unterminated comment");
    parse_fails(PTX_HEADER ".entry k() { ret; } #\n", 4, 21, "unexpected character '#'");
    parse_fails(PTX_HEADER ".section .debug_info { .b8 1\n", 4, 1, "unterminated .section");

    /* calls are checked against the callee's declaration at the end of the module */
    parse_fails(PTX_HEADER ".func f(.param .b32 a) { ret; }\n"
                           ".entry k() { { .param .b32 x; .param .b32 y; call f, (x, y); } ret; }\n",
                5, 51, "call to 'f' passes 2 arguments, it takes 1");
    parse_fails(PTX_HEADER ".func f(.param .b64 a) { ret; }\n"
                           ".entry k() { { .param .b32 x; call f, (x); } ret; }\n",
                5, 36, "argument 1 of call to 'f' is 4 bytes, the parameter is 8");
    parse_fails(PTX_HEADER ".entry g() { ret; }\n.entry k() { call g; ret; }\n", 5, 19, "cannot call kernel 'g'");
    parse_fails(PTX_HEADER ".entry k(.param .u32 a, .param .u32 a) { ret; }\n", 4, 1, "parameter 'a' declared twice");
    parse_fails(PTX_HEADER ".func f(.param .u32 a, .param .u32 a) { ret; }\n", 4, 1, "parameter 'a' declared twice");
    parse_fails(PTX_HEADER ".entry k() { .reg .b64 %rd; call (%rd), %rd, (); ret; }\n", 4, 48,
                "an indirect call needs a prototype (.callprototype label) after its arguments");
    parse_fails(PTX_HEADER ".func f(.param .b32 a) { ret; }\n"
                           ".entry k() { .reg .b64 %rd; call f, (%rd); ret; }\n",
                5, 34, "argument 1 of call to 'f' is 8 bytes, the parameter is 4");
    parse_fails(PTX_HEADER ".entry k() { call f, (1); ret; }\n.func f(.param .b32 a) { ret; }\n", 4, 23,
                "immediate argument in a call to a function declared later");
    parse_fails(PTX_HEADER ".func f(.param .b32 a) { ret; }\n.entry k() { .reg .pred %p; call f, (%p); ret; }\n",
                5, 38, "call argument '%p' must be a .param variable or a register");
}

/* Text that is not NUL-terminated, NULL arguments, and the error struct. */
static void test_api_edges(void **state)
{
    (void)state;
    ptx_error err;
    /* only the first len bytes count */
    const char text[] = PTX_HEADER ".entry k() { ret; }\nGARBAGE";
    ptx_module *m = ptx_parse(text, sizeof(text) - 1 - 8, "t.ptx", &err);
    assert_non_null(m);
    ptx_module_free(m);
    /* NULL text with a length is refused, NULL error pointer is allowed */
    assert_null(ptx_parse(NULL, 10, "t.ptx", &err));
    assert_non_null(strstr(err.msg, "no text"));
    assert_null(ptx_parse("junk", 4, NULL, NULL));
    m = ptx_parse(PTX_HEADER, strlen(PTX_HEADER), NULL, &err);
    assert_non_null(m);
    assert_string_equal(m->source_name, "<ptx>");
    ptx_module_free(m);
    assert_null(ptx_parse("junk", 4, "file.ptx", &err));
    assert_string_equal(err.msg, "file.ptx:1:1: expected '.version' at the start of the module");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opcode_errors),
        cmocka_unit_test(test_operand_errors),
        cmocka_unit_test(test_declaration_errors),
        cmocka_unit_test(test_module_errors),
        cmocka_unit_test(test_api_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
