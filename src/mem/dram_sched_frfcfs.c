/* FR-FCFS DRAM scheduling (Rixner et al.; GPGPU-Sim's -gpgpu_dram_scheduler 1):
 * a free bank takes its oldest request to the open row (a row hit) if there is
 * one, else its oldest request. */
#include "mem/dram.h"

static int32_t frfcfs_pick(void *st, const dram_queue *q, uint32_t bank, int64_t open_row, uint64_t now) {
    (void)st;
    (void)now;
    int32_t oldest = q->bank_oldest[bank];
    if (open_row < 0) return oldest;
    for (int32_t s = oldest; s != DRAM_NONE; s = q->slots[s].bank_next)
        if ((int64_t)q->slots[s].row == open_row) return s;
    return oldest;
}

const dram_sched_ops dram_sched_frfcfs = {
    .name = "frfcfs",
    .help = "first-ready first-come-first-served: row hits first, then the oldest request",
    .pick = frfcfs_pick,
};
