/* SWL: static warp limiting (CCWS paper section 3.2).  Only the N oldest live
 * warps of the SM may issue (and, while one of them waits at a barrier, the rest
 * of its CTA); among them the priority policy (gto or lrr) picks.
 *
 *   -gpgpu_scheduler warp_limiting:<prio>:<N>      e.g. warp_limiting:gto:8
 *
 * (The reverse order <N>:<prio> is accepted too.)  N counts warps of the whole
 * SM, whichever scheduler owns them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

typedef struct {
    uint32_t limit;
    int gto;              /* 1: greedy-then-oldest among the allowed, 0: lrr */
    uint32_t num_sched;
    int last[];
} swl_state;

static int parse_limit(const char *text, uint32_t *out) {
    char *end;
    unsigned long n = strtoul(text, &end, 10);
    if (!*text || *end || n < 1 || n > SCHED_MAX_WARPS) return -1;
    *out = (uint32_t)n;
    return 0;
}

static void *swl_create(const sched_params *p, char *err, size_t errlen) {
    char buf[128], *f[3];
    const char *args = p->args ? p->args : "";
    int n = sched_split_args(args, buf, sizeof buf, f, 3);
    uint32_t limit = 0;
    const char *prio = NULL;
    if (n == 2 && !parse_limit(f[1], &limit)) prio = f[0];
    else if (n == 2 && !parse_limit(f[0], &limit)) prio = f[1];
    if (!prio || (strcmp(prio, "gto") && strcmp(prio, "lrr"))) {
        snprintf(err, errlen, "scheduler warp_limiting expects <gto|lrr>:<N 1..%d>, got '%s'", SCHED_MAX_WARPS, args);
        return NULL;
    }
    swl_state *s = malloc(sizeof *s + p->num_sched * sizeof(int));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->limit = limit;
    s->gto = !strcmp(prio, "gto");
    s->num_sched = p->num_sched;
    for (uint32_t i = 0; i < p->num_sched; i++) s->last[i] = -1;
    return s;
}

/* The N oldest live warps of the SM, and every live warp of a CTA one of whose
 * allowed warps waits at a barrier: the paper's SWL "limits the number of
 * wavefronts running until a barrier, allows the rest of the work-group to
 * reach the barrier, then continues with the same multithreading constraints"
 * (section 3.2).  Without it a limit below a CTA's warp count never releases
 * the barrier. */
static warp_mask allowed_warps(const swl_state *s, const sched_view *v) {
    warp_mask m = 0;
    for (uint32_t i = 0; i < v->nlive && i < s->limit; i++) m |= (warp_mask)1 << v->age_order[i];
    warp_mask waiting = m & v->at_barrier;
    for (uint32_t g = 0; waiting && g < v->ngroups; g++)
        if (v->age_groups[g] & waiting) m |= v->age_groups[g] & v->live;
    return m;
}

static int swl_pick(void *st, const sched_view *v) {
    swl_state *s = st;
    warp_mask cand = v->ready & allowed_warps(s, v);
    int last = s->last[v->sched_id], w;
    if (!cand) return -1;
    if (s->gto) w = sched_greedy_in(v, cand, last);
    else w = sched_next_after(cand, last);
    s->last[v->sched_id] = w;
    return w;
}

static void swl_warp_exit(void *st, uint32_t w, uint64_t now) {
    (void)now;
    swl_state *s = st;
    sched_forget_warp(s->last, s->num_sched, w);
}

const warp_sched_ops sched_swl = {
    .name = "warp_limiting",
    .help = "warp_limiting:<gto|lrr>:<N>: static warp limiting, only the N oldest warps of the SM may issue",
    .create = swl_create,
    .destroy = free,
    .pick = swl_pick,
    .warp_exit = swl_warp_exit,
};
