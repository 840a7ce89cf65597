/* The baseline CTA scheduler (GPGPU-Sim's): CTAs in linear order, one to each SM
 * that has room, visiting the SMs round-robin; SMs are filled greedily up to
 * their occupancy limit and refilled as CTAs finish. */
#include <stdio.h>
#include <stdlib.h>

#include "cta/cta_sched.h"

typedef struct {
    uint64_t next_cta, nctas;
} rr_state;

static void *rr_create(const cta_sched_params *p, char *err, size_t errlen) {
    if (p->args && *p->args) {
        snprintf(err, errlen, "CTA scheduler 'rr' takes no arguments (got ':%s')", p->args);
        return NULL;
    }
    rr_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->nctas = p->nctas;
    return s;
}

static int rr_next(void *st, uint32_t sm, uint32_t free_slots, uint64_t now, uint64_t *cta) {
    (void)sm;
    (void)free_slots;
    (void)now;
    rr_state *s = st;
    if (s->next_cta >= s->nctas) return 0;
    *cta = s->next_cta++;
    return 1;
}

const cta_sched_ops cta_sched_rr = {
    .name = "rr",
    .help = "baseline: CTAs in linear order to SMs with room, round-robin over SMs",
    .create = rr_create,
    .destroy = free,
    .next = rr_next,
};
