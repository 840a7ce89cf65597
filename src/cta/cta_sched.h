/* CTA (thread-block) schedulers: one plug-in per file behind cta_sched_ops,
 * chosen by name (-cta_scheduler).  An instance lives for one kernel launch.
 *
 * Every core cycle in which CTAs remain, the GPU top visits the SMs round-robin
 * (starting after the SM served last) and, for each SM that has room for one
 * more CTA of the kernel under its occupancy limits, asks the policy which CTA to
 * place there:
 *
 *     if (ops->next(state, sm, free_slots, now, &cta)) dispatch cta on sm;
 *
 * At most one CTA is dispatched per SM per cycle (as GPGPU-Sim does).  A policy
 * may hold an SM back (return 0) to keep a slot for a CTA it wants there later.
 * It must hand out every CTA id in [0, nctas) exactly once; the GPU top reports a
 * policy that stops doing so while SMs are idle as a deadlock.
 */
#ifndef LOCSIM_CTA_SCHED_H
#define LOCSIM_CTA_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "locsim/locsim.h"

typedef struct {
    uint32_t num_sms;
    uint32_t max_ctas_per_sm;   /* occupancy limit of this kernel */
    uint64_t nctas;             /* CTAs in the grid (linear ids 0..nctas-1, x fastest) */
    locsim_dim3 grid;
    const char *args;           /* text after "<name>:" ("" if none) */
    const void *cfg;            /* the locsim_config, for a policy's own options */
    const struct ldesc_set *ldesc;  /* the launch's Locality Descriptors (src/ldesc/), NULL: none */
} cta_sched_params;

typedef struct cta_sched_ops {
    const char *name;
    const char *help;
    void *(*create)(const cta_sched_params *p, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* SM sm can take free_slots more CTAs: set *cta and return 1 to place one. */
    int (*next)(void *st, uint32_t sm, uint32_t free_slots, uint64_t now, uint64_t *cta);
    /* Optional: CTA cta finished on SM sm. */
    void (*done)(void *st, uint32_t sm, uint64_t cta, uint64_t now);
    /* Optional: CTA clusters (groups of CTAs meant for one SM) the policy formed
     * for this kernel (statistic cta_sched_clusters). */
    uint64_t (*clusters)(const void *st);
} cta_sched_ops;

/* By name ("rr", ...; text after ':' goes to *args).  NULL if unknown. */
const cta_sched_ops *cta_sched_find(const char *spec, const char **args);
const cta_sched_ops *cta_sched_at(uint32_t i);

#endif
