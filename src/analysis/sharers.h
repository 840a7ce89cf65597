/* Sharers per cache block (Tabbakh et al., Fig. 5 and Fig. 14: "the average
 * number of cores accessing a cache block"): for every line address that SMs
 * fetch from the L2 during a kernel, the set of distinct SMs that fetched it.
 *
 * Exact, not sampled: an open-addressed hash table keyed by line address holds
 * one bit per SM (ceil(SMs / 64) words per line).  sharers_kernel_end() adds the
 * kernel's distinct lines and the sum of their SM counts to the caller's totals
 * and empties the table (only the slots used, so many small kernels stay cheap).
 * The table doubles when half full: it allocates only while it grows, never in
 * steady state. */
#ifndef LOCSIM_ANALYSIS_SHARERS_H
#define LOCSIM_ANALYSIS_SHARERS_H

#include <stdint.h>

typedef struct sharers sharers;

/* line_shift: log2 of the line size the lines are counted at.  NULL: out of memory. */
sharers *sharers_create(uint32_t num_sms, uint32_t line_shift);
void sharers_destroy(sharers *t);

/* SM sm fetched the line holding addr: 1 if the table did not hold the line
 * (its first reference since the last sharers_kernel_end), else 0; -1 when out
 * of memory (nothing recorded). */
int sharers_record(sharers *t, uint64_t addr, uint32_t sm);

/* The same as sharers_record without the answer, recorded later (speed: the
 * notes are kept in a small batch whose table slots are prefetched together
 * before they are recorded, so their host-cache misses overlap).  What
 * sharers_kernel_end counts does not depend on the order of the records, and it
 * records what is pending first. */
void sharers_note(sharers *t, uint64_t addr, uint32_t sm);

/* Add this kernel's distinct lines and the sum over them of their distinct SMs to
 * *lines and *sm_lines; then forget them. */
void sharers_kernel_end(sharers *t, uint64_t *lines, uint64_t *sm_lines);

#endif
