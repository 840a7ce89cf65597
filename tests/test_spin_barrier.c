/* The barrier the threads of a parallel kernel run meet at (src/sim/spin_barrier.h):
 * no thread leaves a round before every thread has arrived, whatever each wrote
 * before arriving is seen by all after it, and waiters that went to sleep on the
 * futex are woken (a lost wake-up would hang this test). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "sim/spin_barrier.h"

#define MAX_THREADS 4

typedef struct {
    spin_barrier bar;
    uint32_t n, rounds;
    uint64_t slot[MAX_THREADS];   /* written by its thread before a meeting, read by all after */
    _Atomic uint32_t wrong;       /* a thread saw another's slot not at the round (asserted on the main thread) */
    int sleepy;                   /* thread 0 waits until the others sleep before it arrives */
} shared;

typedef struct {
    shared *sh;
    uint32_t t;
} arg;

static void wait_for_sleepers(shared *sh) {
    /* the others first spin SPIN_BARRIER_SPINS polls, then sleep; 10 s at most */
    for (int i = 0; i < 10000 && atomic_load(&sh->bar.sleepers) < sh->n - 1; i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (atomic_load(&sh->bar.sleepers) != sh->n - 1) atomic_fetch_add(&sh->wrong, 1000000);
}

static void *run(void *p) {
    arg *a = p;
    shared *sh = a->sh;
    for (uint32_t r = 1; r <= sh->rounds; r++) {
        sh->slot[a->t] = r;
        if (sh->sleepy && a->t == 0) wait_for_sleepers(sh);
        spin_barrier_wait(&sh->bar);
        for (uint32_t u = 0; u < sh->n; u++)
            if (sh->slot[u] != r) atomic_fetch_add(&sh->wrong, 1);
        spin_barrier_wait(&sh->bar);   /* nobody writes round r + 1 while another still reads round r */
    }
    return NULL;
}

static uint32_t meet(uint32_t n, uint32_t rounds, int sleepy, uint32_t spins) {
    shared *sh = calloc(1, sizeof *sh);
    assert_non_null(sh);
    spin_barrier_init(&sh->bar, n, spins);
    sh->n = n;
    sh->rounds = rounds;
    sh->sleepy = sleepy;
    pthread_t th[MAX_THREADS];
    arg args[MAX_THREADS];
    for (uint32_t t = 0; t < n; t++) {
        args[t] = (arg){sh, t};
        assert_int_equal(pthread_create(&th[t], NULL, run, &args[t]), 0);
    }
    for (uint32_t t = 0; t < n; t++) assert_int_equal(pthread_join(th[t], NULL), 0);
    uint32_t wrong = atomic_load(&sh->wrong);
    assert_int_equal(atomic_load(&sh->bar.sleepers), 0);
    assert_int_equal(atomic_load(&sh->bar.arrived), 0);
    assert_int_equal(atomic_load(&sh->bar.round), 2 * rounds);
    free(sh);
    return wrong;
}

/* Many short rounds, 1 to 4 threads: spinning first, and sleeping at once. */
static void test_rounds(void **state) {
    (void)state;
    for (uint32_t n = 1; n <= MAX_THREADS; n++) {
        assert_int_equal(meet(n, n <= 2 ? 20000 : 2000, 0, 256), 0);
        assert_int_equal(meet(n, 2000, 0, 0), 0);
    }
}

/* Rounds in which the others are certainly asleep on the futex before the
 * last thread arrives: each must be woken, and see what was written. */
static void test_sleepers_woken(void **state) {
    (void)state;
    assert_int_equal(meet(2, 5, 1, SPIN_BARRIER_SPINS), 0);
    assert_int_equal(meet(3, 5, 1, SPIN_BARRIER_SPINS), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_sleepers_woken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
