/* The DRAM scheduler registry: a new scheduler is one file in src/mem/ plus one
 * line in each list below. */
#include <string.h>

#include "mem/dram.h"

extern const dram_sched_ops dram_sched_fifo;
extern const dram_sched_ops dram_sched_frfcfs;
extern const dram_sched_ops dram_sched_mfq;

static const dram_sched_ops *const schedulers[] = {
    &dram_sched_fifo,
    &dram_sched_frfcfs,
    &dram_sched_mfq,
};

const dram_sched_ops *dram_sched_find(const char *name) {
    for (size_t i = 0; i < sizeof schedulers / sizeof schedulers[0]; i++)
        if (strcmp(schedulers[i]->name, name) == 0) return schedulers[i];
    return NULL;
}

const dram_sched_ops *dram_sched_at(uint32_t i) {
    return i < sizeof schedulers / sizeof schedulers[0] ? schedulers[i] : NULL;
}
