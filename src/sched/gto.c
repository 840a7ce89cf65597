/* GTO: greedy-then-oldest.  Keep issuing the warp issued last while it can;
 * otherwise the oldest ready warp (age = order of arrival on the SM; warps of one
 * CTA by warp index) (CCWS paper section 5.1). */
#include <stdio.h>
#include <stdlib.h>

#include "sched/sched.h"

typedef struct {
    uint32_t num_sched;
    int last[];           /* per scheduler: the greedy warp, -1 if none */
} gto_state;

static void *gto_create(const sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "scheduler 'gto' takes no arguments (got ':%s')", p->args);
        return NULL;
    }
    gto_state *s = malloc(sizeof *s + p->num_sched * sizeof(int));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->num_sched = p->num_sched;
    for (uint32_t i = 0; i < p->num_sched; i++) s->last[i] = -1;
    return s;
}

static int gto_pick(void *st, const sched_view *v) {
    gto_state *s = st;
    int w = sched_greedy_in(v, v->ready, s->last[v->sched_id]);
    s->last[v->sched_id] = w;
    return w;
}

static void gto_warp_exit(void *st, uint32_t w, uint64_t now) {
    (void)now;
    gto_state *s = st;
    sched_forget_warp(s->last, s->num_sched, w);
}

const warp_sched_ops sched_gto = {
    .name = "gto",
    .help = "greedy-then-oldest: the last issued warp while it can, else the oldest ready",
    .create = gto_create,
    .destroy = free,
    .pick = gto_pick,
    .warp_exit = gto_warp_exit,
};
