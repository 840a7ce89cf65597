/* Property: a workload's results do not depend on how warps interleave (issue 9,
 * item 2).  Every workload runs at its smaller test size in functional mode with
 * warp quanta 1, 32, 1024 and the default (32), and in timing mode; what the
 * host reads back (locsim_dtoh_digest: every byte of every device-to-host copy)
 * must be identical in all five runs, and every run must pass the workload's own
 * check.  A workload whose kernels use floating-point atomics (found by scanning
 * its PTX for atom/red on .f16/.bf16/.f32/.f64) legitimately depends on the order
 * of those atomics: for it only the workload's own check is required.  So does a
 * workload listed in atomic_scatter below: it places items in output lists with
 * integer atomic cursors (an item's place is the order its atomic arrived in), and
 * its own check compares those lists as sets.  The functional quanta are set
 * through the configuration option -functional_run_quantum (the default run loads
 * the configuration without it), so the option's path to the executor is what is
 * tested.
 *
 * racy_kernel_follows_the_quantum: a kernel with a deliberate race, whose result
 * must change with the quantum exactly as worked out by hand (see there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"
#include "workload.h"

/* Does the PTX contain an atom/red instruction on a floating-point type? */
static int uses_float_atomics(const char *ptx, size_t len) {
    for (size_t i = 0; i + 4 < len; i++) {
        if (ptx[i] != '\t' && ptx[i] != ' ') continue;
        const char *p = ptx + i + 1;
        if (strncmp(p, "atom.", 5) != 0 && strncmp(p, "red.", 4) != 0) continue;
        const char *end = memchr(p, ' ', len - (size_t)(p - ptx));
        const char *tab = memchr(p, '\t', len - (size_t)(p - ptx));
        if (!end || (tab && tab < end)) end = tab;
        if (!end) continue;
        for (const char *q = p; q + 3 <= end; q++)
            if (q[0] == '.' && (q[1] == 'f' || (q[1] == 'b' && q[2] == 'f'))) return 1;
    }
    return 0;
}

/* Workloads whose output lists are filled through atomic cursors (invindex: the
 * postings of a term are in the order the scatter's atomicAdds arrived). */
static const char *const atomic_scatter[] = { "invindex" };

static int scatters_with_atomics(const char *name) {
    for (size_t i = 0; i < sizeof atomic_scatter / sizeof atomic_scatter[0]; i++)
        if (strcmp(atomic_scatter[i], name) == 0) return 1;
    return 0;
}

typedef struct {
    wl_result r;
    uint64_t digest;
    char detail[512];
} run_result;

/* A device of the default configuration with -functional_run_quantum quantum
 * (0: the option left at its default), and tensor cores when `tensor` (a
 * workload with tensor-core instructions: workload_uses_tensor_cores). */
static locsim_device *device_with_quantum_tc(locsim_mode mode, uint32_t quantum, int tensor, locsim_config **cfg) {
    char q[16], err[512];
    snprintf(q, sizeof q, "%u", quantum);
    char *ov[] = {"-gpgpu_tensor_core_avail", "1", "-functional_run_quantum", q};
    int skip = tensor ? 0 : 2;
    locsim_status st = locsim_config_load("fermi_gtx480", (quantum ? 4 : 2) - skip, ov + skip, cfg, err, sizeof err);
    if (st != LOCSIM_OK) print_error("%s\n", err);
    assert_int_equal(st, LOCSIM_OK);
    locsim_device *dev = NULL;
    assert_int_equal(locsim_device_create(*cfg, mode, &dev), LOCSIM_OK);
    locsim_set_memcheck(dev, 1);
    return dev;
}

static locsim_device *device_with_quantum(locsim_mode mode, uint32_t quantum, locsim_config **cfg) {
    return device_with_quantum_tc(mode, quantum, 0, cfg);
}

static run_result run_once(const workload_entry *e, locsim_mode mode, uint32_t quantum) {
    run_result out;
    memset(&out, 0, sizeof out);
    locsim_config *cfg = NULL;
    locsim_device *dev = device_with_quantum_tc(mode, quantum, workload_uses_tensor_cores(e), &cfg);
    out.r = workload_run(e, dev, e->wl->test_sizes[0], 1, out.detail, sizeof out.detail);
    out.digest = locsim_dtoh_digest(dev);
    locsim_device_destroy(dev);
    locsim_config_free(cfg);
    return out;
}

static void invariance(void **state) {
    const workload_entry *e = *state;
    static const uint32_t quanta[] = {1, 32, 1024, 0};
    const int float_atomics = uses_float_atomics(e->ptx, *e->ptx_len);
    const int order_dependent = float_atomics || scatters_with_atomics(e->wl->name);
    run_result ref = run_once(e, LOCSIM_MODE_FUNCTIONAL, quanta[0]);
    printf("%-14s functional q=1     %s %016llx%s\n", e->wl->name, ref.r == WL_PASS ? "PASS" : "FAIL",
           (unsigned long long)ref.digest,
           float_atomics ? "  (float atomics: own check only)"
           : order_dependent ? "  (atomic scatter: own check only)" : "");
    assert_int_equal(ref.r, WL_PASS);
    for (size_t i = 1; i <= sizeof quanta / sizeof *quanta; i++) {
        int timing = i == sizeof quanta / sizeof *quanta;
        run_result r = run_once(e, timing ? LOCSIM_MODE_TIMING : LOCSIM_MODE_FUNCTIONAL, timing ? 0 : quanta[i]);
        printf("%-14s %-10s q=%-6u %s %016llx %s\n", e->wl->name, timing ? "timing" : "functional",
               timing ? 0 : quanta[i], r.r == WL_PASS ? "PASS" : "FAIL", (unsigned long long)r.digest, r.detail);
        assert_int_equal(r.r, WL_PASS);
        if (!order_dependent) assert_true(r.digest == ref.digest);
    }
}

/* The scanner itself: hand-written lines, with and without float atomics. */
static void scanner(void **state) {
    (void)state;
    const char *a = "\tatom.shared.add.f32 \t%f1, [%r1], %f2;\n";
    const char *b = "\tatom.global.add.u32 \t%r1, [%rd1], 1;\n\tadd.f32 %f1, %f2, %f3;\n";
    const char *c = "\tred.global.add.bf16x2 [%rd1], %r1;\n";
    assert_true(uses_float_atomics(a, strlen(a)));
    assert_false(uses_float_atomics(b, strlen(b)));
    assert_true(uses_float_atomics(c, strlen(c)));
}

/* Two warps race on a shared word with no barrier between them.  Warp 0's lane 0
 * first counts to 20 (a 3-instruction loop: 60 instructions) and then stores 1
 * into `flag`; every thread of warp 1 loads `flag` as its 5th instruction
 * (ld.param, mov, setp, bra, ld.shared; its branch is uniform) and stores it to
 * out[tid - 32].  Shared memory starts zeroed.  Warp 0 runs first in each round:
 *   quantum 1:    round 5 runs warp 1's load; warp 0's store is in round > 60: 0
 *   quantum 32:   warp 0 stops inside its loop after 32 instructions, then warp 1
 *                 runs to its end: 0
 *   quantum 1024: warp 0 runs to its exit (about 67 instructions) first: 1
 *   default (32): the same as 32: 0
 *   timing mode:  warp 1's load issues long before warp 0's loop ends: 0
 * The quantum is set once through the configuration and once through
 * locsim_set_run_quantum. */
static const char race_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".shared .align 4 .b32 flag;\n"
    ".visible .entry race(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra WRITER;\n"
    "  ld.shared.u32 %r2, [flag];\n"
    "  sub.u32 %r3, %r1, 32;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n"
    "WRITER:\n"
    "  setp.ne.u32 %p2, %r1, 0;\n"
    "  @%p2 ret;\n"
    "  mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "  add.u32 %r4, %r4, 1;\n"
    "  setp.lt.u32 %p2, %r4, 20;\n"
    "  @%p2 bra LOOP;\n"
    "  st.shared.u32 [flag], 1;\n"
    "  ret;\n"
    "}\n";

/* What warp 1 saw (all 32 of its threads must agree). */
static uint32_t race_result(locsim_device *dev) {
    locsim_module *mod = NULL;
    locsim_kernel *k = NULL;
    assert_int_equal(locsim_module_load_ptx(dev, race_ptx, sizeof race_ptx - 1, "race.ptx", &mod), LOCSIM_OK);
    assert_int_equal(locsim_module_get_kernel(mod, "race", &k), LOCSIM_OK);
    locsim_dptr out;
    uint32_t init[32], got[32];
    for (int i = 0; i < 32; i++) init[i] = 7;
    assert_int_equal(locsim_malloc(dev, &out, sizeof got), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(dev, out, init, sizeof init), LOCSIM_OK);
    void *args[] = {&out};
    locsim_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    assert_int_equal(locsim_launch(k, grid, block, 0, args, 1), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_dtoh(dev, got, out, sizeof got), LOCSIM_OK);
    for (int i = 1; i < 32; i++) assert_int_equal(got[i], got[0]);
    return got[0];
}

static void racy_kernel(void **state) {
    (void)state;
    static const struct { uint32_t quantum, want; } cases[] = {{1, 0}, {32, 0}, {1024, 1}, {0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        locsim_config *cfg = NULL;
        locsim_device *dev = device_with_quantum(LOCSIM_MODE_FUNCTIONAL, cases[i].quantum, &cfg);
        uint32_t via_option = race_result(dev);
        locsim_device_destroy(dev);
        locsim_config_free(cfg);
        assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
        locsim_set_run_quantum(dev, cases[i].quantum);
        uint32_t via_api = race_result(dev);
        locsim_device_destroy(dev);
        printf("racy kernel, quantum %u: %u (option), %u (API)\n", cases[i].quantum, via_option, via_api);
        assert_int_equal(via_option, cases[i].want);
        assert_int_equal(via_api, cases[i].want);
    }
    locsim_config *cfg = NULL;
    locsim_device *dev = device_with_quantum(LOCSIM_MODE_TIMING, 0, &cfg);
    assert_int_equal(race_result(dev), 0);
    locsim_device_destroy(dev);
    locsim_config_free(cfg);
}

int main(void) {
    size_t n = workload_count();
    struct CMUnitTest *tests = calloc(n + 2, sizeof *tests);
    tests[0].name = "float_atomic_scanner";
    tests[0].test_func = scanner;
    tests[1].name = "racy_kernel_follows_the_quantum";
    tests[1].test_func = racy_kernel;
    for (size_t i = 0; i < n; i++) {
        tests[i + 2].name = workload_table[i].wl->name;
        tests[i + 2].test_func = invariance;
        tests[i + 2].initial_state = (void *)&workload_table[i];
    }
    int failed = _cmocka_run_group_tests("invariance", tests, n + 2, NULL, NULL);
    free(tests);
    return failed;
}
