/* BCS: the block CTA scheduler of Lee et al. (HPCA 2014), as Tabbakh et al.
 * (§VII-A) describe it: "BCS schedules sequential set of CTAs for each SM during
 * kernel initiation and then it schedules CTA in pairs.  It delays CTA scheduling
 * until there are two available CTA contexts available in the SM and then
 * schedules two CTAs at a time."
 *
 * Reading (docs/sharing.md):
 *  - initial dispatch: the first time an SM asks it is given a run of
 *    max_ctas_per_sm consecutive CTAs (SM 0 gets 0..m-1, the next SM to ask
 *    m..2m-1, ...), handed out one per visit (the GPU top places at most one CTA
 *    per SM per cycle);
 *  - afterwards an SM that asks with fewer than two free slots is held back; with
 *    two it is given the next two consecutive CTAs (a pair), again one per visit;
 *  - a pair is impossible when the kernel allows one CTA per SM or only one CTA
 *    is left: then a single CTA goes to an SM with one free slot (otherwise the
 *    kernel could never finish).
 * Lee et al.'s lazy CTA scheduling (choosing how many CTAs an SM runs) is a
 * separate mechanism and is not modelled: the occupancy limit stands. */
#include <stdio.h>
#include <stdlib.h>

#include "cta/cta_sched.h"

typedef struct {
    uint64_t next, nctas;        /* first CTA not yet given to any SM */
    uint32_t max_per_sm, num_sms;
    struct run {
        uint64_t cur, end;       /* CTAs [cur, end) are promised to this SM */
        uint8_t started;         /* has had its initial block */
    } sm[];
} bcs_state;

static void *bcs_create(const cta_sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "CTA scheduler 'bcs' takes no arguments (got ':%s')", p->args);
        return NULL;
    }
    bcs_state *s = calloc(1, sizeof *s + (size_t)p->num_sms * sizeof s->sm[0]);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->nctas = p->nctas;
    s->max_per_sm = p->max_ctas_per_sm ? p->max_ctas_per_sm : 1;
    s->num_sms = p->num_sms;
    return s;
}

/* Promise the next n CTAs (fewer at the end of the grid) to run r. */
static void promise(bcs_state *s, struct run *r, uint64_t n) {
    if (n > s->nctas - s->next) n = s->nctas - s->next;
    r->cur = s->next;
    r->end = s->next + n;
    s->next += n;
}

static int bcs_next(void *st, uint32_t sm, uint32_t free_slots, uint64_t now, uint64_t *cta) {
    (void)now;
    bcs_state *s = st;
    if (sm >= s->num_sms) return 0;
    struct run *r = &s->sm[sm];
    if (r->cur == r->end) {
        if (s->next >= s->nctas) return 0;
        if (!r->started) {
            r->started = 1;
            promise(s, r, s->max_per_sm);
        } else {
            uint64_t pair = s->max_per_sm >= 2 && s->nctas - s->next >= 2 ? 2 : 1;
            if (free_slots < pair) return 0;   /* wait for two free contexts */
            promise(s, r, pair);
        }
    }
    *cta = r->cur++;
    return 1;
}

const cta_sched_ops cta_sched_bcs = {
    .name = "bcs",
    .help = "Lee et al.'s block CTA scheduling: max-per-SM consecutive CTAs per SM at start, then pairs "
            "of consecutive CTAs when an SM has two free slots",
    .create = bcs_create,
    .destroy = free,
    .next = bcs_next,
};
