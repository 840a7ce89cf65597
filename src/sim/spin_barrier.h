/* A barrier for the threads of a parallel kernel run (-sim_threads, src/sim/gpu.c):
 * they meet twice per simulated core cycle, a few microseconds of host work
 * apart, so the meeting itself must cost far less than that.  Measured on the
 * 2-vCPU development machine (2 threads, 10^6 meetings): this barrier 0.07-0.10 us
 * per meeting; libgomp's `omp barrier` 0.39 us; a whole `omp parallel` fork and
 * join 1.0 us.  The threads themselves are OpenMP's (one parallel region per
 * kernel); only the meeting is done here.
 *
 * A waiting thread spins (with the CPU's pause hint) for a while, then sleeps
 * on a futex until the round ends, as libgomp's own waits do by default: a
 * long wait (every SM asleep while the memory side works, or a host with more
 * runnable threads than cores) then holds no core. */
#ifndef LOCSIM_SIM_SPIN_BARRIER_H
#define LOCSIM_SIM_SPIN_BARRIER_H

#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Polls before a waiting thread sleeps, by default: about 0.5 ms at 30 ns a
 * pause (the development machine's AMD EPYC), far above a simulated cycle's
 * host time (1-60 us), so a thread sleeps only through long waits.  With more
 * threads than cores a spinning waiter holds the core of the thread it waits
 * for, so it sleeps at once (libgomp cuts its spinning there too). */
#define SPIN_BARRIER_SPINS 16384u

typedef struct {
    _Alignas(64) _Atomic uint32_t arrived;   /* threads at the barrier in this round */
    _Alignas(64) _Atomic uint32_t round;     /* rounds completed: what waiters watch */
    _Atomic uint32_t sleepers;               /* waiters asleep on `round` (or about to be) */
    uint32_t n;                              /* threads that meet */
    uint32_t spins;                          /* polls before a waiter sleeps */
} spin_barrier;

static inline void spin_barrier_init(spin_barrier *b, uint32_t n, uint32_t spins) {
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&b->round, 0, memory_order_relaxed);
    atomic_store_explicit(&b->sleepers, 0, memory_order_relaxed);
    b->n = n;
    b->spins = spins;
}

static inline void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Sleep while `round` is r (or return at once if it no longer is). */
static inline void spin_barrier_sleep(spin_barrier *b, uint32_t r) {
#ifdef __linux__
    syscall(SYS_futex, (uint32_t *)&b->round, FUTEX_WAIT_PRIVATE, r, NULL, NULL, 0);
#else
    (void)b, (void)r;
    sched_yield();
#endif
}

static inline void spin_barrier_wake(spin_barrier *b) {
#ifdef __linux__
    syscall(SYS_futex, (uint32_t *)&b->round, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)b;
#endif
}

/* Wait until all n threads have called it.  Everything a thread wrote before
 * its call is visible to every thread after the barrier: the last arrival's
 * read-modify-write follows every earlier arrival's release, and its release
 * store of `round` is what the others acquire.  No wake-up is lost: a sleeper
 * counts itself before it reads `round` for the last time, the last arrival
 * stores `round` before it reads the count (all four sequentially consistent),
 * and the futex sleeps only while `round` is still r. */
static inline void spin_barrier_wait(spin_barrier *b) {
    uint32_t r = atomic_load_explicit(&b->round, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) == b->n - 1) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);   /* before anyone can arrive again */
        atomic_store(&b->round, r + 1);
        if (atomic_load(&b->sleepers)) spin_barrier_wake(b);
        return;
    }
    for (uint32_t polls = 0; polls < b->spins; polls++) {
        if (atomic_load_explicit(&b->round, memory_order_acquire) != r) return;
        spin_pause();
    }
    atomic_fetch_add(&b->sleepers, 1);
    while (atomic_load(&b->round) == r) spin_barrier_sleep(b, r);
    atomic_fetch_sub(&b->sleepers, 1);
}

#endif
