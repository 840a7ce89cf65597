/* Executor: the timing model's view.  exec_warp_step executes one instruction and
 * describes it (pc, active lanes, thread count, memory space and per-lane
 * addresses); barriers block until exec_cta_try_release_barrier; %clock64 follows
 * exec_cta_set_clock. */
#include "test_exec_util.h"

#include "exec/exec.h"
#include "ptx/ir.h"
#include "runtime/devmem.h"

static const char *step_ptx = XT_HEADER
    ".visible .entry stepk(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"        /* 0 */
    "  mov.u32 %r1, %tid.x;\n"            /* 1 */
    "  mul.wide.u32 %rd2, %r1, 4;\n"      /* 2 */
    "  add.s64 %rd3, %rd1, %rd2;\n"       /* 3 */
    "  ld.global.u32 %r2, [%rd3];\n"      /* 4 */
    "  setp.lt.u32 %p1, %r1, 4;\n"        /* 5 */
    "  @%p1 add.s32 %r2, %r2, 1;\n"       /* 6 */
    "  mov.u64 %rd4, %clock64;\n"         /* 7 */
    "  bar.sync 0;\n"                     /* 8 */
    "  ld.param.u64 %rd5, [out];\n"       /* 9 */
    "  add.s64 %rd6, %rd5, %rd2;\n"       /* 10 */
    "  st.global.u32 [%rd6], %r2;\n"      /* 11 */
    "  st.global.u64 [%rd5+256], %rd4;\n" /* 12 */
    "  ret;\n"                            /* 13 */
    "}\n";

/* A launch of one CTA of one warp (32 threads) of `kernel` on one SM. */
static exec_launch one_warp_launch(ptx_module *m, const char *kernel, const uint64_t *params, size_t params_size,
                                   devmem *mem) {
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.mod = m;
    L.kernel = &m->funcs[ptx_find_function(m, kernel)];
    L.params = (const uint8_t *)params;
    L.params_size = params_size;
    L.grid = (locsim_dim3){1, 1, 1};
    L.block = (locsim_dim3){32, 1, 1};
    L.mem = mem;
    L.smid_count = 1;
    return L;
}

static void test_step_by_step(void **state) {
    (void)state;
    ptx_error err;
    ptx_module *m = ptx_parse(step_ptx, strlen(step_ptx), "step.ptx", &err);
    if (!m) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(m);
    devmem *mem = devmem_create();
    uint64_t in, out;
    assert_int_equal(devmem_alloc(mem, 32 * 4, 256, &in), 0);
    assert_int_equal(devmem_alloc(mem, 512, 256, &out), 0);
    uint32_t vals[32];
    for (uint32_t i = 0; i < 32; i++) vals[i] = 100 * i;
    devmem_write(mem, in, vals, sizeof vals);
    uint64_t params[2] = {in, out};
    exec_launch L = one_warp_launch(m, "stepk", params, sizeof params, mem);
    exec_cta *cta = exec_cta_create(&L, 0, 3);
    assert_non_null(cta);
    assert_int_equal(exec_cta_num_warps(cta), 1);
    exec_step_info info;

    for (uint32_t pc = 0; pc < 8; pc++) {
        const ptx_insn *next = exec_warp_next_insn(cta, 0);
        assert_ptr_equal(next, &L.kernel->insns[pc]);
        if (pc == 7) exec_cta_set_clock(cta, 12345);
        assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
        assert_int_equal(info.pc, pc);
        assert_ptr_equal(info.insn, next);
        /* pc 6 is guarded by tid < 4: its other 28 lanes do not count (GPGPU-Sim's
         * active_count after set_not_active) */
        assert_int_equal(info.thread_insns, pc == 6 ? 4 : 32);
        if (pc == 0) assert_int_equal(info.mem_space, PTX_SPACE_PARAM);
        if (pc == 4) {
            assert_int_equal(info.mem_space, PTX_SPACE_GLOBAL);
            assert_int_equal(info.mem_size, 4);
            assert_int_equal(info.mem_is_store, 0);
            assert_int_equal(info.mem_mask, 0xffffffffu);
            assert_true(info.mem_addr[5] == in + 20);
        }
        if (pc == 6) assert_int_equal(info.active_mask, 0xfu); /* guard: t < 4 */
        if (pc != 0 && pc != 4) assert_int_equal(info.mem_space, PTX_SPACE_NONE);
    }
    /* bar.sync: retired, and the warp waits until the barrier is released */
    assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_BARRIER);
    assert_int_equal(info.pc, 8);
    assert_true(exec_warp_waiting(cta, 0));
    assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_BARRIER); /* still waiting */
    assert_int_equal(exec_cta_try_release_barrier(cta), 1);
    assert_false(exec_warp_waiting(cta, 0));
    for (uint32_t pc = 9; pc < 13; pc++) {
        assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
        if (pc == 11) {
            assert_int_equal(info.mem_is_store, 1);
            assert_true(info.mem_addr[31] == out + 124);
        }
    }
    assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_EXITED);
    assert_int_equal(info.pc, 13);
    assert_true(exec_warp_exited(cta, 0));
    assert_true(exec_cta_done(cta));
    assert_null(exec_warp_next_insn(cta, 0));
    assert_null(exec_cta_fault(cta));
    uint32_t r[32];
    uint64_t clk;
    devmem_read(mem, out, r, sizeof r);
    devmem_read(mem, out + 256, &clk, 8);
    for (uint32_t i = 0; i < 32; i++) assert_int_equal(r[i], 100 * i + (i < 4));
    assert_int_equal(clk, 12345);
    exec_cta_destroy(cta);
    devmem_destroy(mem);
    ptx_module_free(m);
}

/* Functional %clock64: the CTA's warp instructions so far (deterministic). */
static void test_functional_clock(void **state) {
    (void)state;
    static const char *body =
        "  mov.u64 %rd1, %clock64;\n"  /* 1 instruction executed before: ld.param */
        "  mov.u64 %rd2, %clock64;\n"
        "  sub.s64 %rd3, %rd2, %rd1;\n"
        "  st.global.u64 [%rd0], %rd1;\n"
        "  st.global.u64 [%rd0+8], %rd3;\n";
    uint64_t r[2];
    xt_run_body(body, r, sizeof r);
    assert_int_equal(r[0], 2); /* ld.param and this mov itself have been counted */
    assert_int_equal(r[1], 1);
}

/* Parallel simulation (exec.h, "Parallel simulation"): with a memory log set,
 * global stores, loads and atomics are checked and described at issue but move
 * no data; the replay moves it in issue order, so a load sees the store logged
 * before it, and an atomic's lanes get their old values in lane order. */
/* A kernel's first four instructions: %rd3 = buf + 4 * tid (the fixture below
 * steps them). */
#define BUF_LANE_ADDR(kernel)                                                   \
    ".visible .entry " kernel "(.param .u64 buf)\n"                            \
    "{\n"                                                                      \
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"                                \
    "  ld.param.u64 %rd1, [buf];\n"                                            \
    "  mov.u32 %r1, %tid.x;\n"                                                 \
    "  mul.wide.u32 %rd2, %r1, 4;\n"                                           \
    "  add.s64 %rd3, %rd1, %rd2;\n"

static const char *defer_ptx = XT_HEADER BUF_LANE_ADDR("deferk")
    "  st.global.u32 [%rd3], %r1;\n"              /* 4: logged */
    "  ld.global.u32 %r2, [%rd3];\n"              /* 5: logged, sees pc 4's store */
    "  atom.global.add.u32 %r3, [%rd1+256], 1;\n" /* 6: logged */
    "  st.global.u32 [%rd3+1024], %r2;\n"         /* 7: after the replay, no log */
    "  st.global.u32 [%rd3+2048], %r3;\n"         /* 8 */
    "  ret;\n"
    "}\n";

/* One warp of `kernel` (parameter: a 4 KB buffer whose first 32 words are 7),
 * stepped through its first four instructions (the address arithmetic). */
typedef struct {
    devmem *mem;
    uint64_t buf, params[1];
    exec_launch L;
    exec_cta *cta;
} warp_fixture;

static void fixture_begin(warp_fixture *f, ptx_module *m, const char *kernel) {
    f->mem = devmem_create();
    assert_int_equal(devmem_alloc(f->mem, 4096, 256, &f->buf), 0);
    uint32_t init[32];
    for (uint32_t i = 0; i < 32; i++) init[i] = 7;
    devmem_write(f->mem, f->buf, init, sizeof init);
    f->params[0] = f->buf;
    f->L = one_warp_launch(m, kernel, f->params, sizeof f->params, f->mem);
    f->cta = exec_cta_create(&f->L, 0, 0);
    assert_non_null(f->cta);
    exec_step_info info;
    for (uint32_t pc = 0; pc < 4; pc++) assert_int_equal(exec_warp_step(f->cta, 0, &info), EXEC_STEP_OK);
}

static void fixture_end(warp_fixture *f) {
    exec_cta_destroy(f->cta);
    devmem_destroy(f->mem);
}

static void test_deferred_memory(void **state) {
    (void)state;
    ptx_error err;
    ptx_module *m = ptx_parse(defer_ptx, strlen(defer_ptx), "defer.ptx", &err);
    assert_non_null(m);
    assert_true(exec_module_parallel_safe(m));
    warp_fixture f;
    fixture_begin(&f, m, "deferk");
    exec_cta *cta = f.cta;
    devmem *mem = f.mem;
    uint64_t buf = f.buf;
    exec_step_info info;
    exec_memlog log = {0};
    exec_cta_set_memlog(cta, &log);
    for (uint32_t pc = 4; pc < 7; pc++) {
        assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
        /* the timing model's view is the same as without the log */
        assert_int_equal(info.mem_space, PTX_SPACE_GLOBAL);
        assert_int_equal(info.mem_mask, 0xffffffffu);
        assert_true(info.mem_addr[3] == (pc == 6 ? buf + 256 : buf + 12));
    }
    exec_cta_set_memlog(cta, NULL);
    assert_int_equal(log.n, 96);   /* one op per lane: store, load, atomic */
    uint32_t r[32], counter;
    devmem_read(mem, buf, r, sizeof r);
    devmem_read(mem, buf + 256, &counter, 4);
    for (uint32_t i = 0; i < 32; i++) assert_int_equal(r[i], 7);   /* nothing moved yet */
    assert_int_equal(counter, 0);
    int written = 0;
    exec_memlog_replay(&log, &written);
    assert_int_equal(written, 1);
    assert_int_equal(log.n, 0);
    devmem_read(mem, buf, r, sizeof r);
    devmem_read(mem, buf + 256, &counter, 4);
    for (uint32_t i = 0; i < 32; i++) assert_int_equal(r[i], i);
    assert_int_equal(counter, 32);
    assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
    assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
    devmem_read(mem, buf + 1024, r, sizeof r);
    for (uint32_t i = 0; i < 32; i++) assert_int_equal(r[i], i);   /* the load saw the store */
    devmem_read(mem, buf + 2048, r, sizeof r);
    for (uint32_t i = 0; i < 32; i++) assert_int_equal(r[i], i);   /* old values in lane order */
    exec_memlog_free(&log);
    fixture_end(&f);
    ptx_module_free(m);
}

/* A logged load reads at issue (nothing writes global memory while the SMs
 * step) and the replay reads it again only after a store or atomic of the same
 * cycle: here memory changes between issue and replay (as a store of an earlier
 * SM would change it), and the register keeps the issue's value unless the
 * replay is told a write came first. */
static const char *load_ptx = XT_HEADER BUF_LANE_ADDR("loadk")
    "  ld.global.u32 %r2, [%rd3];\n"              /* 4: logged, read now */
    "  st.global.u32 [%rd3+1024], %r2;\n"         /* 5: after the replay, no log */
    "  ret;\n"
    "}\n";

static void test_deferred_load_reads_at_issue(void **state) {
    (void)state;
    ptx_error err;
    ptx_module *m = ptx_parse(load_ptx, strlen(load_ptx), "load.ptx", &err);
    assert_non_null(m);
    for (int write_first = 0; write_first < 2; write_first++) {
        warp_fixture f;
        fixture_begin(&f, m, "loadk");
        exec_cta *cta = f.cta;
        exec_step_info info;
        exec_memlog log = {0};
        exec_cta_set_memlog(cta, &log);
        assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
        exec_cta_set_memlog(cta, NULL);
        assert_int_equal(log.n, 32);
        uint32_t v[32];
        for (uint32_t i = 0; i < 32; i++) v[i] = 9 + i;
        devmem_write(f.mem, f.buf, v, sizeof v);
        int written = write_first;
        exec_memlog_replay(&log, &written);
        assert_int_equal(written, write_first);   /* a load writes nothing */
        assert_int_equal(exec_warp_step(cta, 0, &info), EXEC_STEP_OK);
        uint32_t r[32];
        devmem_read(f.mem, f.buf + 1024, r, sizeof r);
        for (uint32_t i = 0; i < 32; i++) assert_int_equal(r[i], write_first ? 9 + i : 7);
        exec_memlog_free(&log);
        fixture_end(&f);
    }
    ptx_module_free(m);
}

/* Kernels that move global data outside ld/st/atom/red step serially. */
static void test_parallel_safe(void **state) {
    (void)state;
    static const char *const unsafe[] = {
        XT_HEADER ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<4>;\n  .shared .align 16 .b8 s[64];\n"
                  "  ld.param.u64 %rd1, [p];\n  mov.u64 %rd2, s;\n  cp.async.ca.shared.global [%rd2], [%rd1], 16;\n"
                  "  ret;\n}\n",
        XT_HEADER ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
                  ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
                  "  ld.param.u64 %rd1, [p];\n  mov.u64 %rd2, 0;\n"
                  "  { .param .b64 a0; st.param.b64 [a0], %rd1; .param .b64 a1; st.param.b64 [a1], %rd2;\n"
                  "    .param .b32 r0; call.uni (r0), vprintf, (a0, a1); ld.param.b32 %r1, [r0]; }\n"
                  "  ret;\n}\n",
    };
    for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++) {
        ptx_error err;
        ptx_module *m = ptx_parse(unsafe[i], strlen(unsafe[i]), "unsafe.ptx", &err);
        if (!m) fprintf(stderr, "%s\n", err.msg);
        assert_non_null(m);
        assert_false(exec_module_parallel_safe(m));
        ptx_module_free(m);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_by_step),
        cmocka_unit_test(test_functional_clock),
        cmocka_unit_test(test_deferred_memory),
        cmocka_unit_test(test_deferred_load_reads_at_issue),
        cmocka_unit_test(test_parallel_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
