/* Two-level scheduling (Narasiman et al.; CCWS paper's 2LVL): each scheduler's
 * warps are split into fetch groups of G warps, and the scheduler issues only
 * from its active group until none of that group's warps can issue; then the
 * outer policy picks the next group.  Inner and outer policies are lrr or gto.
 *
 *   -gpgpu_scheduler two_level_active:<G>:<inner>:<outer>     e.g. 2:gto:gto
 *
 * Fetch groups are static: scheduler s owns slots s, s+N, s+2N, ...; the k-th of
 * them (k = slot / N) is in group k / G.  Because a CTA's warps take consecutive
 * slots, a group holds warps of the same or neighbouring CTAs.
 * Outer lrr: the next group (in group order, wrapping) that has a ready warp.
 * Outer gto: the group of the oldest ready warp.
 * Inner lrr: the next ready warp of the group after the last one issued.
 * Inner gto: the last issued warp while it can, else the group's oldest ready warp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

typedef enum { POLICY_LRR, POLICY_GTO } level_policy;

typedef struct {
    uint32_t active;      /* active fetch group */
    int has_active;       /* 0 until the first issue: the outer policy picks the first group */
    int last;             /* warp issued last, -1 if none */
} tl_sched;

typedef struct {
    uint32_t num_sched, group_size, ngroups;
    level_policy inner, outer;
    tl_sched *sched;      /* [num_sched] */
    warp_mask *groups;    /* [num_sched][ngroups]: warps of each group */
} tl_state;

static int parse_policy(const char *text, level_policy *out) {
    if (!strcmp(text, "lrr")) *out = POLICY_LRR;
    else if (!strcmp(text, "gto")) *out = POLICY_GTO;
    else return -1;
    return 0;
}

static void tl_destroy(void *st) {
    tl_state *s = st;
    if (!s) return;
    free(s->sched);
    free(s->groups);
    free(s);
}

static void *tl_create(const sched_params *p, char *err, size_t errlen) {
    char buf[128], *f[4];
    const char *args = p->args && *p->args ? p->args : "2:gto:gto";
    int n = sched_split_args(args, buf, sizeof buf, f, 4);
    char *end;
    unsigned long g = n == 3 ? strtoul(f[0], &end, 10) : 0;
    level_policy inner, outer;
    if (n != 3 || *end || g < 1 || g > SCHED_MAX_WARPS || parse_policy(f[1], &inner) || parse_policy(f[2], &outer)) {
        snprintf(err, errlen,
                 "scheduler two_level_active expects <group size 1..%d>:<inner lrr|gto>:<outer lrr|gto>, got '%s'",
                 SCHED_MAX_WARPS, args);
        return NULL;
    }
    tl_state *s = calloc(1, sizeof *s);
    uint32_t per_sched = (p->max_warps + p->num_sched - 1) / p->num_sched;
    if (s) {
        s->num_sched = p->num_sched;
        s->group_size = (uint32_t)g;
        s->ngroups = (per_sched + s->group_size - 1) / s->group_size;
        if (s->ngroups == 0) s->ngroups = 1;
        s->inner = inner;
        s->outer = outer;
        s->sched = calloc(p->num_sched, sizeof *s->sched);
        s->groups = calloc((size_t)p->num_sched * s->ngroups, sizeof *s->groups);
    }
    if (!s || !s->sched || !s->groups) {
        tl_destroy(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (uint32_t w = 0; w < p->max_warps; w++) {
        uint32_t sid = w % p->num_sched, group = (w / p->num_sched) / s->group_size;
        s->groups[(size_t)sid * s->ngroups + group] |= (warp_mask)1 << w;
    }
    for (uint32_t i = 0; i < p->num_sched; i++) s->sched[i].last = -1;
    return s;
}

static uint32_t group_of(const tl_state *s, uint32_t w) { return (w / s->num_sched) / s->group_size; }

static int pick_inner(const tl_state *s, const tl_sched *t, const sched_view *v, warp_mask candidates) {
    if (s->inner == POLICY_GTO) return sched_greedy_in(v, candidates, t->last);
    return sched_next_after(candidates, t->last);
}

static uint32_t pick_group(const tl_state *s, const tl_sched *t, const sched_view *v, const warp_mask *groups) {
    if (s->outer == POLICY_GTO) return group_of(s, (uint32_t)sched_oldest_in(v, v->ready));
    for (uint32_t i = 1; i <= s->ngroups; i++) {
        uint32_t g = (t->active + i) % s->ngroups;
        if (groups[g] & v->ready) return g;
    }
    return t->active; /* not reached: ready is non-empty */
}

static int tl_pick(void *st, const sched_view *v) {
    tl_state *s = st;
    tl_sched *t = &s->sched[v->sched_id];
    const warp_mask *groups = &s->groups[(size_t)v->sched_id * s->ngroups];
    if (!v->ready) return -1;
    if (!t->has_active) {
        t->active = s->ngroups - 1; /* so that outer lrr starts its search at group 0 */
        t->active = pick_group(s, t, v, groups);
        t->has_active = 1;
    } else if (!(groups[t->active] & v->ready)) {
        t->active = pick_group(s, t, v, groups);
    }
    int w = pick_inner(s, t, v, groups[t->active] & v->ready);
    t->last = w;
    return w;
}

static void tl_warp_exit(void *st, uint32_t w, uint64_t now) {
    (void)now;
    tl_state *s = st;
    for (uint32_t i = 0; i < s->num_sched; i++)
        if (s->sched[i].last == (int)w) s->sched[i].last = -1;
}

const warp_sched_ops sched_two_level = {
    .name = "two_level_active",
    .help = "two_level_active:<G>:<inner>:<outer>: fetch groups of G warps, issue from the active group "
            "until it stalls (inner/outer: lrr|gto; default 2:gto:gto)",
    .create = tl_create,
    .destroy = tl_destroy,
    .pick = tl_pick,
    .warp_exit = tl_warp_exit,
};
