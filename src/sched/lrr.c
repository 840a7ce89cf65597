/* LRR: loose round-robin.  Each scheduler issues from the first ready warp after
 * the one it issued last, in warp-slot order; a warp that cannot issue is skipped
 * (CCWS paper section 5.1). */
#include <stdio.h>
#include <stdlib.h>

#include "sched/sched.h"

typedef struct {
    uint32_t num_sched;
    int last[];           /* per scheduler: warp issued last, -1 before the first */
} lrr_state;

static void *lrr_create(const sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "scheduler 'lrr' takes no arguments (got ':%s')", p->args);
        return NULL;
    }
    lrr_state *s = malloc(sizeof *s + p->num_sched * sizeof(int));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->num_sched = p->num_sched;
    for (uint32_t i = 0; i < p->num_sched; i++) s->last[i] = -1;
    return s;
}

static int lrr_pick(void *st, const sched_view *v) {
    lrr_state *s = st;
    int w = sched_next_after(v->ready, s->last[v->sched_id]);
    s->last[v->sched_id] = w;
    return w;
}

const warp_sched_ops sched_lrr = {
    .name = "lrr",
    .help = "loose round-robin: the next ready warp after the last issued",
    .create = lrr_create,
    .destroy = free,
    .pick = lrr_pick,
};
