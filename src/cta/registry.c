/* The CTA-scheduler registry: a new policy is one file plus one line here. */
#include <string.h>

#include "cta/cta_sched.h"

extern const cta_sched_ops cta_sched_rr, cta_sched_bcs, cta_sched_q8, cta_sched_q16, cta_sched_qx,
    cta_sched_q8_adpt, cta_sched_q16_adpt, cta_sched_qx_adpt, cta_sched_ldesc;

static const cta_sched_ops *const policies[] = {
    &cta_sched_rr,      &cta_sched_bcs,      &cta_sched_q8,      &cta_sched_q16,
    &cta_sched_qx,      &cta_sched_q8_adpt,  &cta_sched_q16_adpt, &cta_sched_qx_adpt, &cta_sched_ldesc,
};

const cta_sched_ops *cta_sched_find(const char *spec, const char **args) {
    if (!spec) return NULL;
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    *args = colon ? colon + 1 : "";
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        if (strlen(policies[i]->name) == len && !strncmp(spec, policies[i]->name, len)) return policies[i];
    return NULL;
}

const cta_sched_ops *cta_sched_at(uint32_t i) { return i < sizeof policies / sizeof *policies ? policies[i] : NULL; }
