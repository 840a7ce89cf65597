/* Control-flow graphs and reconvergence points (ptx_insn.reconv = first
 * instruction of the branch block's immediate post-dominator, ninsn = exit).
 * Each case lists its instructions with their indices; the expected points are
 * worked out by hand from the blocks written next to them. */
#include "ptx_test.h"

/* A kernel with the given body (registers %r0..%r7, predicates %p0..%p3). */
static ptx_module *kernel(const char *body)
{
    char src[4096];
    snprintf(src, sizeof src,
             PTX_HEADER ".visible .entry k()\n{\n.reg .b32 %%r<8>;\n.reg .pred %%p<4>;\n%s\n}\n", body);
    return parse_ok(src);
}

static void expect_reconv(const ptx_function *f, uint32_t insn, uint32_t want)
{
    if (insn >= f->ninsn || f->insns[insn].op != PTX_OP_BRA)
        fail_msg("instruction %u is not a branch", insn);
    if (f->insns[insn].reconv != want)
        fail_msg("branch %u: reconv %u, expected %u", insn, f->insns[insn].reconv, want);
}

static void test_if_else(void **state)
{
    (void)state;
    /* B0 {0,1} -> B2 {4}, B1 {2,3};  B1 -> B3 {5,6};  B2 -> B3;  B3 -> exit.
     * ipdom(B0) = B3, ipdom(B1) = B3. */
    ptx_module *m = kernel("setp.lt.s32 %p1, %r1, 0;\n"   /* 0 */
                           "@%p1 bra ELSE;\n"            /* 1 */
                           "add.s32 %r2, %r1, 1;\n"      /* 2 */
                           "bra.uni JOIN;\n"             /* 3 */
                           "ELSE:\n"
                           "sub.s32 %r2, %r1, 1;\n"      /* 4 */
                           "JOIN:\n"
                           "mov.u32 %r3, %r2;\n"         /* 5 */
                           "ret;\n");                    /* 6 */
    const ptx_function *f = &m->funcs[0];
    assert_int_equal(f->ninsn, 7);
    assert_int_equal(f->insns[1].opnd[0].imm, 4);
    assert_int_equal(f->insns[3].opnd[0].imm, 5);
    expect_reconv(f, 1, 5);
    expect_reconv(f, 3, 5);
    ptx_module_free(m);
}

static void test_nested_ifs(void **state)
{
    (void)state;
    /* B0 {0,1} -> B4 {6}, B1 {2,3};  B1 -> B3 {5}, B2 {4};  B2 -> B3;  B3 -> B4;
     * B4 -> exit.  The outer branch reconverges at 6, the inner one at 5. */
    ptx_module *m = kernel("setp.lt.s32 %p1, %r1, 0;\n"   /* 0 */
                           "@%p1 bra END;\n"             /* 1 */
                           "setp.lt.s32 %p2, %r2, 0;\n"  /* 2 */
                           "@%p2 bra INNER_END;\n"       /* 3 */
                           "add.s32 %r3, %r3, 1;\n"      /* 4 */
                           "INNER_END:\n"
                           "add.s32 %r3, %r3, 2;\n"      /* 5 */
                           "END:\n"
                           "add.s32 %r3, %r3, 4;\n"      /* 6 (a join that does work; */
                           "ret;\n");                    /* 7  a lone ret: test_early_return) */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 1, 6);
    expect_reconv(f, 3, 5);
    ptx_module_free(m);
}

static void test_if_elseif_else(void **state)
{
    (void)state;
    /* three-way: {0,1} -> {6,7}, {2,3};  {2,3} -> {8}, {4,5};  {4,5}, {6,7} and
     * {8} all go to {9}: every branch reconverges at the join (9) */
    ptx_module *m = kernel("setp.eq.s32 %p1, %r1, 0;\n"   /* 0 */
                           "@%p1 bra A;\n"               /* 1 */
                           "setp.eq.s32 %p2, %r1, 1;\n"  /* 2 */
                           "@%p2 bra B;\n"               /* 3 */
                           "mov.u32 %r2, 3;\n"           /* 4 */
                           "bra.uni J;\n"                /* 5 */
                           "A: mov.u32 %r2, 1;\n"        /* 6 */
                           "bra.uni J;\n"                /* 7 */
                           "B: mov.u32 %r2, 2;\n"        /* 8 */
                           "J: ret;\n");                 /* 9 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 1, 9);
    expect_reconv(f, 3, 9);
    expect_reconv(f, 5, 9);
    expect_reconv(f, 7, 9);
    ptx_module_free(m);
}

static void test_loop_with_break(void **state)
{
    (void)state;
    /* B0 {0} -> B1 {1,2};  B1 -> B4 {7}, B2 {3,4};  B2 -> B4, B3 {5,6};
     * B3 -> B1;  B4 -> exit.
     * ipdom(B1) = B4, ipdom(B2) = B4 (the break skips B3), ipdom(B3) = B1. */
    ptx_module *m = kernel("mov.u32 %r1, 0;\n"             /* 0 */
                           "LOOP:\n"
                           "setp.ge.s32 %p1, %r1, %r2;\n" /* 1 */
                           "@%p1 bra EXIT;\n"            /* 2 */
                           "setp.eq.s32 %p2, %r1, 5;\n"  /* 3 */
                           "@%p2 bra EXIT;\n"            /* 4: break */
                           "add.s32 %r1, %r1, 1;\n"      /* 5 */
                           "bra.uni LOOP;\n"             /* 6 */
                           "EXIT:\n"
                           "add.s32 %r3, %r1, 1;\n"      /* 7 */
                           "ret;\n");                    /* 8 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 2, 7);
    expect_reconv(f, 4, 7);
    expect_reconv(f, 6, 1);
    ptx_module_free(m);
}

static void test_loop_with_continue_and_divergent_body(void **state)
{
    (void)state;
    /* do { if (odd) { r += 1; continue-ish } r += 2; } while (r < n);
     * B0 {0} -> B1;  B1 {1,2,3} -> B3 {6}, B2 {4,5};  B2 -> B4 {7..9};
     * B3 {6} -> B4;  B4 {7,8,9} -> B1 (loop), B5 {10};  B5 -> exit.
     * ipdom(B1) = B4 (7); ipdom(B2) = B4; ipdom(B4) = B5 (10). */
    ptx_module *m = kernel("mov.u32 %r1, 0;\n"             /* 0 */
                           "TOP:\n"
                           "and.b32 %r3, %r1, 1;\n"      /* 1 */
                           "setp.eq.s32 %p1, %r3, 0;\n"  /* 2 */
                           "@%p1 bra EVEN;\n"            /* 3 */
                           "add.s32 %r1, %r1, 1;\n"      /* 4 */
                           "bra.uni NEXT;\n"             /* 5 */
                           "EVEN:\n"
                           "add.s32 %r1, %r1, 2;\n"      /* 6 */
                           "NEXT:\n"
                           "add.s32 %r4, %r4, 1;\n"      /* 7 */
                           "setp.lt.s32 %p2, %r1, %r2;\n"/* 8 */
                           "@%p2 bra TOP;\n"             /* 9 */
                           "mov.u32 %r5, %r1;\n"         /* 10 */
                           "ret;\n");                    /* 11 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 3, 7);
    expect_reconv(f, 5, 7);
    expect_reconv(f, 9, 10);
    ptx_module_free(m);
}

static void test_early_return(void **state)
{
    (void)state;
    /* B0 {0,1} -> B2 {4: ret}, B1 {2,3};  B1 -> B3 {5,6};  B2 -> exit;  B3 -> exit.
     * B2 only leaves, so the edge B0 -> B2 is left out: the lanes that return
     * retire on their own and the others go on from B1 without waiting for them.
     * ipdom(B0) = B1: reconv = 2 (with the edge it would be the exit, 7). */
    ptx_module *m = kernel("setp.eq.s32 %p1, %r1, 0;\n"   /* 0 */
                           "@%p1 bra EARLY;\n"           /* 1 */
                           "add.s32 %r2, %r2, 1;\n"      /* 2 */
                           "bra.uni JOIN;\n"             /* 3 */
                           "EARLY:\n"
                           "ret;\n"                      /* 4 */
                           "JOIN:\n"
                           "add.s32 %r2, %r2, 2;\n"      /* 5 */
                           "ret;\n");                    /* 6 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 1, 2);
    expect_reconv(f, 3, 5);
    ptx_module_free(m);
}

static void test_guarded_return_inside_if(void **state)
{
    (void)state;
    /* B0 {0} -> B3 {3: ret}, B1 {1};  B1 {1: @p ret} -> exit, B2 {2};  B2 -> B3;
     * B3 -> exit.  B3 is a lone ret, so B0 -> B3 is left out (B0 has another way
     * on) and so is B1 -> exit: ipdom(B0) = B1, reconv = 1. */
    ptx_module *m = kernel("@%p1 bra A;\n"                /* 0 */
                           "@%p2 ret;\n"                 /* 1 */
                           "add.s32 %r1, %r1, 1;\n"      /* 2 */
                           "A: ret;\n");                 /* 3 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 0, 1);
    ptx_module_free(m);

    /* exit and trap end a block like ret; the lanes they take away are not
     * waited for, so the if reconverges at A (4), not at the exit (6) */
    m = kernel("@%p1 bra A;\n"                            /* 0 */
               "@%p2 exit;\n"                            /* 1 */
               "@%p3 trap;\n"                            /* 2 */
               "add.s32 %r1, %r1, 1;\n"                  /* 3 */
               "A: add.s32 %r1, %r1, 2;\n"               /* 4 */
               "ret;\n");                                /* 5 */
    expect_reconv(&m->funcs[0], 0, 4);
    ptx_module_free(m);

    /* without the early exits the same shape reconverges at A (3) */
    m = kernel("@%p1 bra A;\n"                            /* 0 */
               "add.s32 %r1, %r1, 1;\n"                  /* 1 */
               "add.s32 %r1, %r1, 1;\n"                  /* 2 */
               "A: add.s32 %r1, %r1, 2;\n"               /* 3 */
               "ret;\n");                                /* 4 */
    expect_reconv(&m->funcs[0], 0, 3);
    ptx_module_free(m);
}

static void test_infinite_loop(void **state)
{
    (void)state;
    /* B0 {0} -> B2 {2}, B1 {1};  B1 -> exit;  B2 -> B2 (never exits).
     * B2 has no post-dominator: reconv = ninsn (3).  B0's only way to the exit
     * is B1, a lone ret: leaving that edge out would leave B0 no way to the exit,
     * so it stays, and B0's ipdom is B1: reconv = 1. */
    ptx_module *m = kernel("@%p1 bra SPIN;\n"             /* 0 */
                           "ret;\n"                      /* 1 */
                           "SPIN:\n"
                           "bra.uni SPIN;\n");           /* 2 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 2, 3);
    expect_reconv(f, 0, 1);
    ptx_module_free(m);

    /* a function that never returns at all: every branch gets ninsn */
    m = kernel("L: @%p1 bra L;\n"                         /* 0 */
               "bra.uni L;\n");                          /* 1 */
    expect_reconv(&m->funcs[0], 0, 2);
    expect_reconv(&m->funcs[0], 1, 2);
    ptx_module_free(m);
}

/* A loop whose only way out is the fall-through into the function's lone ret,
 * after an early return to that same ret (histogram's shape):
 *   B0 {0} -> B3 {3: ret} (left out), B1 {1};  B1 {1,2} -> B1 (loop), B3;
 *   B3 -> exit.
 * Leaving out B1 -> B3 too would make the loop endless and erase every
 * post-dominator, so that edge comes back: the loop reconverges at 3, and the
 * early-return branch at 1 (its lanes are not waited for). */
static void test_loop_leaving_through_lone_ret(void **state)
{
    (void)state;
    ptx_module *m = kernel("@%p1 bra DONE;\n"             /* 0 */
                           "LOOP: add.s32 %r1, %r1, 1;\n" /* 1 */
                           "@%p2 bra LOOP;\n"            /* 2 */
                           "DONE: ret;\n");              /* 3 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 0, 1);
    expect_reconv(f, 2, 3);
    ptx_module_free(m);
}

static void test_branch_to_end(void **state)
{
    (void)state;
    /* a label after the last instruction: the target is ninsn (the exit), and
     * falling off the end also reaches the exit.  The branch's edge to the exit
     * only leaves, so it is left out: reconv = 1, the fall-through. */
    ptx_module *m = kernel("@%p1 bra END;\n"              /* 0 */
                           "add.s32 %r1, %r1, 1;\n"      /* 1 */
                           "END:\n");
    const ptx_function *f = &m->funcs[0];
    assert_int_equal(f->ninsn, 2);
    assert_int_equal(f->insns[0].opnd[0].imm, 2);
    expect_reconv(f, 0, 1);
    ptx_module_free(m);
}

static void test_branch_to_next_and_unreachable(void **state)
{
    (void)state;
    /* a conditional branch to the next instruction has one successor: it
     * reconverges right there; code after an unconditional branch is a block
     * nobody reaches, and still gets a defined reconv */
    ptx_module *m = kernel("@%p1 bra N;\n"                /* 0 */
                           "N: bra.uni OUT;\n"           /* 1 */
                           "@%p2 bra OUT;\n"             /* 2: unreachable */
                           "add.s32 %r1, %r1, 1;\n"      /* 3: unreachable */
                           "OUT: ret;\n");               /* 4 */
    const ptx_function *f = &m->funcs[0];
    expect_reconv(f, 0, 1);
    expect_reconv(f, 1, 4); /* one successor: the edge to the lone ret stays */
    expect_reconv(f, 2, 3); /* two successors: the edge to the lone ret goes */
    ptx_module_free(m);
}

static void test_calls_are_not_terminators(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(PTX_HEADER
                             ".func f() { ret; }\n"
                             ".visible .entry k()\n"
                             "{\n"
                             ".reg .pred %p1;\n"
                             "@%p1 bra SKIP;\n"          /* 0 */
                             "call f;\n"                 /* 1 */
                             "call f;\n"                 /* 2 */
                             "SKIP:\n"
                             "ret;\n"                    /* 3 */
                             "}\n");
    /* SKIP is a lone ret: the skipping lanes leave, the others go on at 1 */
    expect_reconv(func_named(m, "k"), 0, 1);
    ptx_module_free(m);
}

static void test_real_kernel_reconvergence(void **state)
{
    (void)state;
    /* tests/ptx/control.ptx (nvcc): the loop's "if (i & 1)" branch (insn 24)
     * and the "i % 3 == 0" continue (34) reconverge at the loop exit (41)
     * because the break at 37 leaves from inside; the switch's range check (44)
     * reconverges after the switch (68).  (Indices from the disassembly.) */
    size_t len;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ptx/control.ptx", LOCSIM_SOURCE_DIR);
    char *text = read_file(path, &len);
    assert_non_null(text);
    ptx_error err;
    ptx_module *m = ptx_parse(text, len, "control.ptx", &err);
    free(text);
    if (!m)
        fail_msg("%s", err.msg);
    const ptx_function *f = func_named(m, "control");
    assert_int_equal(f->ninsn, 85);
    expect_reconv(f, 8, 9);   /* if (t >= n) return; -- the returning lanes are not waited for */
    expect_reconv(f, 24, 41);
    expect_reconv(f, 34, 41);
    expect_reconv(f, 40, 41);
    expect_reconv(f, 44, 68);
    expect_reconv(f, 51, 68);
    ptx_module_free(m);
}

/* ptx_find_zero_regs: the registers a thread may read before it writes them,
 * plus shfl sources; worked out by following every path from instruction 0. */
static void expect_zero_regs(const ptx_function *f, const uint32_t *want, uint32_t n)
{
    if (!f->zero_regs_known)
        fail_msg("zero_regs unknown");
    assert_int_equal(f->nzero_regs, n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(f->zero_regs[i], want[i]);
}

static void test_zero_regs(void **state)
{
    (void)state;
    /* %r1 is written before it is read; %r3 is read unwritten; %r2 is never read */
    ptx_module *m = kernel("mov.u32 %r1, 5;\n"
                           "add.s32 %r2, %r1, %r3;\n"
                           "ret;\n");
    expect_zero_regs(&m->funcs[0], (const uint32_t[]){3}, 1);
    ptx_module_free(m);
    /* %r1 written on one path only: the lanes that branch read it unwritten;
     * %r4's write is guarded (lanes with !%p2 keep the old value) */
    m = kernel("@%p1 bra SKIP;\n"
               "mov.u32 %r1, 1;\n"
               "SKIP:\n"
               "add.s32 %r2, %r1, 1;\n"
               "@%p2 mov.u32 %r4, 1;\n"
               "add.s32 %r5, %r4, %r2;\n"
               "ret;\n");
    expect_zero_regs(&m->funcs[0], (const uint32_t[]){1, 4}, 2);
    ptx_module_free(m);
    /* a loop: %r1 is written before the loop, %r2 only read in it, %r3 written
     * in the body before its read; the shfl's source %r6 is written first but
     * is read from other lanes */
    m = kernel("mov.u32 %r1, 0;\n"
               "LOOP:\n"
               "mov.u32 %r3, 2;\n"
               "add.s32 %r1, %r1, %r3;\n"
               "add.s32 %r1, %r1, %r2;\n"
               "@%p1 bra LOOP;\n"
               "mov.u32 %r6, %r1;\n"
               "shfl.sync.down.b32 %r7, %r6, 1, 31, -1;\n"
               "ret;\n");
    expect_zero_regs(&m->funcs[0], (const uint32_t[]){2, 6}, 2);
    ptx_module_free(m);
    /* a call: arguments pass through the call site, which the analysis does
     * not follow, so every register is zeroed */
    m = parse_ok(PTX_HEADER
                 ".func f() { ret; }\n"
                 ".visible .entry k()\n"
                 "{\n"
                 ".reg .b32 %r<4>;\n"
                 "mov.u32 %r1, 1;\n"
                 "call f;\n"
                 "ret;\n"
                 "}\n");
    assert_int_equal(func_named(m, "k")->zero_regs_known, 0);
    ptx_module_free(m);
}

/* ptx_assign_reg_slots: registers never live together share a row.  Worked
 * out by hand: interference from liveness (a guarded write does not kill),
 * an instruction's sources against its destinations, registers live at the
 * entry against each other, shfl sources alone in their slot; then the greedy
 * colouring in register order (lowest slot free of interfering registers). */
static void expect_slots(const ptx_function *f, const uint32_t *want, uint32_t first, uint32_t n, uint32_t nslots)
{
    assert_int_equal(f->nslots, nslots);
    for (uint32_t i = 0; i < n; i++)
        if (f->reg_slot[first + i] != want[i])
            fail_msg("%%r%u: slot %u, expected %u", first + i, f->reg_slot[first + i], want[i]);
}

static void test_reg_slots(void **state)
{
    (void)state;
    /* a chain: each register dies where the next is written (src/dst of one
     * instruction never share), so two slots alternate */
    ptx_module *m = kernel("mov.u32 %r1, 5;\n"
                           "add.s32 %r2, %r1, 1;\n"
                           "add.s32 %r3, %r2, 1;\n"
                           "add.s32 %r4, %r3, 1;\n"
                           "ret;\n");
    expect_slots(&m->funcs[0], (const uint32_t[]){0, 1, 0, 1}, 1, 4, 2);
    ptx_module_free(m);
    /* %r1 is live while %r2 is written; %r3 needs a third slot; %r4 only meets %r3 */
    m = kernel("mov.u32 %r1, 1;\n"
               "mov.u32 %r2, 2;\n"
               "add.s32 %r3, %r1, %r2;\n"
               "mov.u32 %r4, %r3;\n"
               "add.s32 %r5, %r4, %r4;\n"
               "ret;\n");
    expect_slots(&m->funcs[0], (const uint32_t[]){0, 1, 2, 0, 1}, 1, 5, 3);
    ptx_module_free(m);
    /* the guarded write of %r2 keeps the old value in some lanes, so %r2 is
     * live from the entry: it may not share %r1's slot (were the guarded write
     * a kill, %r2 would take slot 0) */
    m = kernel("mov.u32 %r1, 1;\n"
               "add.s32 %r3, %r1, 1;\n"
               "@%p1 mov.u32 %r2, 2;\n"
               "add.s32 %r4, %r2, %r3;\n"
               "ret;\n");
    expect_slots(&m->funcs[0], (const uint32_t[]){0, 1, 2, 0}, 1, 4, 3);
    ptx_module_free(m);
    /* the shfl source %r1 owns slot 0 (no one else may take it, though %r5
     * meets only %r3); %r4 is read unwritten, live from the entry */
    m = kernel("mov.u32 %r1, 1;\n"
               "shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n"
               "add.s32 %r3, %r2, %r4;\n"
               "add.s32 %r5, %r3, 1;\n"
               "ret;\n");
    expect_slots(&m->funcs[0], (const uint32_t[]){0, 1, 2, 3, 1}, 1, 5, 4);
    expect_zero_regs(&m->funcs[0], (const uint32_t[]){1, 4}, 2);
    ptx_module_free(m);
    /* a kernel with a call keeps one row per register */
    m = parse_ok(PTX_HEADER
                 ".func f() { ret; }\n"
                 ".visible .entry k()\n"
                 "{\n"
                 ".reg .b32 %r<4>;\n"
                 "mov.u32 %r1, 1;\n"
                 "mov.u32 %r2, 2;\n"
                 "call f;\n"
                 "ret;\n"
                 "}\n");
    const ptx_function *k = func_named(m, "k");
    assert_int_equal(k->nslots, k->nregs);
    for (uint32_t r = 0; r < k->nregs; r++)
        assert_int_equal(k->reg_slot[r], r);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_ifs),
        cmocka_unit_test(test_if_elseif_else),
        cmocka_unit_test(test_loop_with_break),
        cmocka_unit_test(test_loop_with_continue_and_divergent_body),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_guarded_return_inside_if),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_loop_leaving_through_lone_ret),
        cmocka_unit_test(test_branch_to_end),
        cmocka_unit_test(test_branch_to_next_and_unreachable),
        cmocka_unit_test(test_calls_are_not_terminators),
        cmocka_unit_test(test_real_kernel_reconvergence),
        cmocka_unit_test(test_zero_regs),
        cmocka_unit_test(test_reg_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
