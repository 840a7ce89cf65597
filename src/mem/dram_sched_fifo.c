/* FIFO DRAM scheduling (GPGPU-Sim's -gpgpu_dram_scheduler 0): requests are
 * served strictly in arrival order; a bank may take the oldest request only
 * when that request is its own, so the head of the queue blocks the rest. */
#include "mem/dram.h"

static int32_t fifo_pick(void *st, const dram_queue *q, uint32_t bank, int64_t open_row, uint64_t now) {
    (void)st;
    (void)open_row;
    (void)now;
    int32_t head = q->oldest;
    return head != DRAM_NONE && q->slots[head].bank == bank ? head : DRAM_NONE;
}

const dram_sched_ops dram_sched_fifo = {
    .name = "fifo",
    .help = "in arrival order; the oldest request blocks younger ones",
    .pick = fifo_pick,
};
