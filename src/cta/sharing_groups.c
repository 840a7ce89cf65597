/* The sharing-aware CTA schedulers of Tabbakh et al. (§IV): the grid's CTAs, in
 * linear order (x fastest), are cut into groups of N consecutive CTAs, and each
 * group runs on one SM, so that neighbouring CTAs, which share data, meet in one
 * L1.  q8, q16: N = 8, 16; qx: N = gridDim.x (a group is one row of the grid:
 * "all CTAs in the group have the same blockIdx.y").
 *
 * "The scheduler maintains the current and end pointer for each CTA group.  The
 * scheduler starts by issuing the maximum allowed CTAs to each SM from the CTA
 * group assigned to that SM.  When one of the assigned CTAs completes its
 * execution then the scheduler picks the next CTA from the same group. [...]
 * When the CTA-pointer reaches the end of the CTA group, then a new CTA group is
 * allocated for that SM."  So an SM with room takes the next CTA of its group;
 * when its group is used up it is given the next unassigned group (groups in
 * order, to SMs in the order they ask); with no group left it idles.
 *
 * The _adpt variants (§IV, last paragraph): "the scheduler assigns CTA groups to
 * SMs until the number of remaining CTA groups is less than the number of SMs.
 * At that time it switches to the conventional RR CTA scheduler."  Read here: an
 * SM that needs a new group while fewer unassigned groups than SMs remain flips
 * the scheduler, for good, into round-robin over the CTAs of the unassigned
 * groups (linear order, one to each SM that asks, as rr does); SMs finish the
 * groups they already hold first.  A grid with fewer groups than SMs is
 * scheduled round-robin from its start. */
#include <stdio.h>
#include <stdlib.h>

#include "cta/cta_sched.h"

typedef struct {
    uint64_t nctas, group;       /* CTAs in the grid; CTAs per group */
    uint64_t next;               /* first CTA of the first unassigned group (or, in
                                    round-robin mode, the next CTA to hand out) */
    uint32_t num_sms;
    uint8_t adaptive, rr_mode;
    struct group_ptr {
        uint64_t cur, end;       /* the SM's group: CTAs [cur, end) still to run */
    } sm[];
} groups_state;

static void *groups_create(const cta_sched_params *p, uint64_t n, int adaptive, const char *name, char *err,
                           size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "CTA scheduler '%s' takes no arguments (got ':%s')", name, p->args);
        return NULL;
    }
    groups_state *s = calloc(1, sizeof *s + (size_t)p->num_sms * sizeof s->sm[0]);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->nctas = p->nctas;
    s->group = n ? n : 1;
    s->num_sms = p->num_sms;
    s->adaptive = (uint8_t)adaptive;
    return s;
}

static uint64_t groups_left(const groups_state *s) {
    return (s->nctas - s->next + s->group - 1) / s->group;
}

static int groups_next(void *st, uint32_t sm, uint32_t free_slots, uint64_t now, uint64_t *cta) {
    (void)free_slots;
    (void)now;
    groups_state *s = st;
    if (sm >= s->num_sms) return 0;
    struct group_ptr *g = &s->sm[sm];
    if (g->cur < g->end) {
        *cta = g->cur++;
        return 1;
    }
    if (s->next >= s->nctas) return 0;
    if (s->adaptive && !s->rr_mode && groups_left(s) < s->num_sms) s->rr_mode = 1;
    if (s->rr_mode) {
        *cta = s->next++;
        return 1;
    }
    g->cur = s->next;
    g->end = s->next + s->group < s->nctas ? s->next + s->group : s->nctas;
    s->next = g->end;
    *cta = g->cur++;
    return 1;
}

#define GROUP_SCHED(ident, nm, n_expr, adpt, helptext)                                             \
    static void *ident##_create(const cta_sched_params *p, char *err, size_t errlen) {            \
        return groups_create(p, (n_expr), adpt, nm, err, errlen);                                  \
    }                                                                                              \
    const cta_sched_ops cta_sched_##ident = {                                                      \
        .name = nm, .help = helptext, .create = ident##_create, .destroy = free, .next = groups_next, \
    };

GROUP_SCHED(q8, "q8", 8, 0, "Tabbakh et al.: groups of 8 consecutive CTAs, each group on one SM")
GROUP_SCHED(q16, "q16", 16, 0, "Tabbakh et al.: groups of 16 consecutive CTAs, each group on one SM")
GROUP_SCHED(qx, "qx", p->grid.x, 0, "Tabbakh et al.: groups of gridDim.x consecutive CTAs (a grid row) per SM")
GROUP_SCHED(q8_adpt, "q8_adpt", 8, 1, "q8, round-robin once fewer unassigned groups than SMs remain")
GROUP_SCHED(q16_adpt, "q16_adpt", 16, 1, "q16, round-robin once fewer unassigned groups than SMs remain")
GROUP_SCHED(qx_adpt, "qx_adpt", p->grid.x, 1, "qx, round-robin once fewer unassigned groups than SMs remain")
