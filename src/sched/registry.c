/* The warp-scheduler registry: a new policy is one file plus one line here. */
#include <string.h>

#include "sched/sched.h"

extern const warp_sched_ops sched_lrr, sched_gto, sched_two_level, sched_swl, sched_ccws, sched_cwlp, sched_wsmp;

static const warp_sched_ops *const schedulers[] = {
    &sched_lrr,
    &sched_gto,
    &sched_two_level,
    &sched_swl,
    &sched_ccws,
    &sched_cwlp,
    &sched_wsmp,
};

/* Short names accepted for the GPGPU-Sim ones (locsim compare --sched two_level,swl...). */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"two_level", "two_level_active"},
    {"swl", "warp_limiting"},
};

const warp_sched_ops *sched_find(const char *spec, const char **args) {
    if (!spec) return NULL;
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    *args = colon ? colon + 1 : "";
    const char *name = spec;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strlen(aliases[i].alias) == len && !strncmp(spec, aliases[i].alias, len)) {
            name = aliases[i].name;
            len = strlen(name);
        }
    for (size_t i = 0; i < sizeof schedulers / sizeof *schedulers; i++)
        if (strlen(schedulers[i]->name) == len && !strncmp(name, schedulers[i]->name, len)) return schedulers[i];
    return NULL;
}

const warp_sched_ops *sched_at(uint32_t i) {
    return i < sizeof schedulers / sizeof *schedulers ? schedulers[i] : NULL;
}
