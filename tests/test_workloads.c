/* Every workload passes its CPU-reference check at both test sizes and two seeds,
 * in functional mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "locsim/locsim.h"
#include "workload.h"

static void run_workload(void **state) {
    const workload_entry *e = *state;
    static const uint64_t seeds[2] = {1, 7};
    for (int s = 0; s < 2; s++)
        for (int z = 0; z < 2; z++) {
            locsim_device *dev = NULL;
            assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
            locsim_set_memcheck(dev, 1); /* our own workloads make no out-of-bounds access */
            char detail[512] = "";
            uint32_t size = e->wl->test_sizes[z];
            wl_result r = workload_run(e, dev, size, seeds[s], detail, sizeof detail);
            locsim_counters c;
            locsim_get_counters(dev, &c);
            locsim_device_destroy(dev);
            printf("%-14s size %-3u seed %-2llu %-5s %10llu thread insns %s\n", e->wl->name, size,
                   (unsigned long long)seeds[s], r == WL_PASS ? "PASS" : "FAIL", (unsigned long long)c.thread_insns,
                   detail);
            assert_int_equal(r, WL_PASS);
            assert_true(c.kernels > 0);
            assert_true(c.thread_insns > 0);
        }
}

int main(void) {
    size_t n = workload_count();
    struct CMUnitTest *tests = calloc(n ? n : 1, sizeof *tests);
    for (size_t i = 0; i < n; i++) {
        tests[i].name = workload_table[i].wl->name;
        tests[i].test_func = run_workload;
        tests[i].initial_state = (void *)&workload_table[i];
    }
    int failed = _cmocka_run_group_tests("workloads", tests, n, NULL, NULL);
    free(tests);
    return failed;
}
