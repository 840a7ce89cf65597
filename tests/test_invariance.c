/* Property: a workload's results do not depend on how warps interleave (issue 9,
 * item 2).  Every workload runs at its smaller test size in functional mode with
 * warp quanta 1, 32, 1024 and the default (65536), and in timing mode; what the
 * host reads back (locsim_dtoh_digest: every byte of every device-to-host copy)
 * must be identical in all five runs, and every run must pass the workload's own
 * check.  A workload whose kernels use floating-point atomics (found by scanning
 * its PTX for atom/red on .f16/.bf16/.f32/.f64) legitimately depends on the order
 * of those atomics: for it only the workload's own check is required.  So does a
 * workload listed in atomic_scatter below: it places items in output lists with
 * integer atomic cursors (an item's place is the order its atomic arrived in), and
 * its own check compares those lists as sets. */
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

static run_result run_once(const workload_entry *e, locsim_mode mode, uint32_t quantum) {
    run_result out;
    memset(&out, 0, sizeof out);
    locsim_device *dev = NULL;
    assert_int_equal(locsim_device_create(NULL, mode, &dev), LOCSIM_OK);
    locsim_set_memcheck(dev, 1);
    locsim_set_run_quantum(dev, quantum);
    out.r = workload_run(e, dev, e->wl->test_sizes[0], 1, out.detail, sizeof out.detail);
    out.digest = locsim_dtoh_digest(dev);
    locsim_device_destroy(dev);
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

int main(void) {
    size_t n = workload_count();
    struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
    tests[0].name = "float_atomic_scanner";
    tests[0].test_func = scanner;
    for (size_t i = 0; i < n; i++) {
        tests[i + 1].name = workload_table[i].wl->name;
        tests[i + 1].test_func = invariance;
        tests[i + 1].initial_state = (void *)&workload_table[i];
    }
    int failed = _cmocka_run_group_tests("invariance", tests, n + 1, NULL, NULL);
    free(tests);
    return failed;
}
