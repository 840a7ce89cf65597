/* L0 instruction caches (-gpgpu_cache:il0), one per sub-core of a Volta-class
 * SM (-gpgpu_sub_core_model 1): NVIDIA's Volta whitepaper gives each of the
 * SM's four processing blocks "a new L0 instruction cache" in front of the
 * SM's shared L1 instruction cache.  GPGPU-Sim and Accel-Sim have no L0, so
 * what is modelled is locsim's choice (docs/timing-core.md):
 *   - each sub-core's scheduler fetches for its warps in its own fetch slot
 *     (one fetch of up to 16 bytes per sub-core per cycle) from its own L0;
 *   - an L0 hit behaves as an L1I hit does without L0s (the instructions are
 *     decoded 2 cycles after the fetch);
 *   - an L0 miss waits in the L0's MSHRs; its request goes to the L1I, which
 *     takes one such request per cycle (sub-cores in turn, from the one after
 *     the last served), in the cycle after the miss at the earliest; an L1I
 *     hit fills the L0 at once, an L1I miss fills it when the L1I's own fill
 *     arrives from the L2.  The L1I sees only L0 misses.
 * Without L0s (the default) the fetch path is the one in sm.c unchanged. */
#include <stdio.h>
#include <stdlib.h>

#include "core/sm_internal.h"

int l0i_init(sm *s, char *err, size_t errlen) {
    if (!s->c.l0i.nsets || !s->l1i) return 0; /* no L0s, or a perfect instruction cache */
    cache_geometry g = s->c.l0i;
    g.write_global = g.write_local = CACHE_WRITE_READ_ONLY;
    for (uint32_t k = 0; k < s->c.num_sched; k++) {
        char name[32], why[512];
        snprintf(name, sizeof name, "L0I[%u.%u]", s->id, k);
        s->l0i[k] = cache_create(&g, name, why, sizeof why);
        if (!s->l0i[k]) {
            snprintf(err, errlen, "-gpgpu_cache:il0: %s", why);
            return -1;
        }
    }
    s->l0_woken_cap = cache_max_waiters(s->l0i[0]);
    s->l0_woken = calloc(s->l0_woken_cap, sizeof *s->l0_woken);
    if (!s->l0_woken) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

void l0i_free(sm *s) {
    for (uint32_t k = 0; k < SM_MAX_SCHED; k++) cache_destroy(s->l0i[k]);
    free(s->l0_woken);
}

/* Sub-core k's L0 got the line of its miss r: the warps that waited fetch. */
static void fill(sm *s, uint32_t k, const mem_req *r, uint64_t now) {
    int n = cache_fill(s->l0i[k], r, now, s->l0_woken, s->l0_woken_cap);
    for (int i = 0; i < n; i++) sm_ifetch_filled(s, (uint32_t)(s->l0_woken[i].tag & TAG_SLOT_MASK), now);
    if (s->iretry) sm_ifetch_retry(s, now); /* an MSHR entry is free again */
}

void l0i_cycle(sm *s, uint64_t now) {
    uint32_t n = s->c.num_sched;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = (s->l0_rr + i) % n;
        const mem_req *q = cache_miss_queue_peek(s->l0i[k]);
        if (!q || q->issue_cycle >= now) continue; /* a miss reaches the L1I the cycle after */
        mem_req r = *q;
        r.tag = ((uint64_t)TARGET_L0I << TAG_TARGET_SHIFT) | k;
        r.issue_cycle = now;
        cache_fail_reason why;
        /* (cache_access, not the cache_read_hit shortcut: a second caller of it
         * keeps the compiler from inlining it into the fetch path) */
        cache_outcome o = cache_access(s->l1i, &r, now, &why);
        if (o == CACHE_RESERVATION_FAIL) return; /* the L1I's port was used: again next cycle */
        cache_miss_queue_pop(s->l0i[k]);
        s->l0_rr = k + 1 < n ? k + 1 : 0;
        if (o == CACHE_HIT) fill(s, k, &r, now);
        else if (s->iretry) sm_ifetch_retry(s, now); /* miss-queue room in the L0 */
        return;
    }
}

void l0i_filled(sm *s, const mem_req *r, uint64_t now) { fill(s, (uint32_t)(r->tag & TAG_SLOT_MASK), r, now); }

int l0i_queued(const sm *s) {
    for (uint32_t k = 0; k < s->c.num_sched; k++)
        if (cache_miss_queue_length(s->l0i[k])) return 1;
    return 0;
}

const cache *sm_l0i(const sm *s, uint32_t sub) { return sub < SM_MAX_SCHED ? s->l0i[sub] : NULL; }
