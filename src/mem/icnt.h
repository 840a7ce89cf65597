/* Interconnect: a crossbar from n_src input ports to n_dst output ports.
 * The timing model uses two: SMs -> L2 slices (requests) and L2 slices -> SMs
 * (replies), like GPGPU-Sim's two subnets.
 *
 * A packet of B bytes is ceil(B / flit_size) flits.  Each cycle every output
 * port that is free grants one waiting input (round-robin from the input after
 * its last grant) whose head packet goes there and fits in the output buffer;
 * the packet then occupies both ports for ceil(flits / flits_per_cycle) cycles
 * and can be popped at the output `latency` cycles after its last flit crossed:
 * zero-load latency = latency + ceil(flits / flits_per_cycle) cycles.
 * Buffers are counted in flits: icnt_push() fails when the source's input
 * buffer has no room (the sender keeps the packet and retries), a full output
 * buffer stalls the inputs behind it.  Nothing is ever dropped.  Ports are
 * served in index order with rotating priorities: fully deterministic.
 */
#ifndef LOCSIM_MEM_ICNT_H
#define LOCSIM_MEM_ICNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/mem_req.h"

typedef struct icnt_config {
    uint32_t flit_size;          /* bytes per flit (-icnt_flit_size) */
    uint32_t in_buffer_flits;    /* per input port (-icnt_in_buffer_limit) */
    uint32_t out_buffer_flits;   /* per output port (-icnt_out_buffer_limit) */
    uint32_t latency;            /* cycles (-icnt_latency) */
    uint32_t flits_per_cycle;    /* per port (-icnt_flits_per_cycle) */
} icnt_config;

typedef struct icnt_counters {
    uint64_t cycles;
    uint64_t packets_in, packets_out;
    uint64_t flits_in, flits_out;
    uint64_t push_fails;         /* icnt_push refused: input buffer full */
    uint64_t output_full_stalls; /* a head packet could not move: its output buffer was full */
    uint64_t latency_sum;        /* sum over popped packets of (pop cycle - push cycle) */
} icnt_counters;

typedef struct icnt icnt;

icnt *icnt_create(const icnt_config *cfg, uint32_t n_src, uint32_t n_dst, const char *name,
                  char *err, size_t errlen);
void icnt_destroy(icnt *n);

uint32_t icnt_flits(const icnt *n, uint32_t bytes);
bool icnt_can_push(const icnt *n, uint32_t src, uint32_t bytes);
/* icnt_can_push once `pkts` more packets of `flits` flits in all have been
 * pushed into input src (a parallel core cycle stages an SM's requests and
 * pushes them after it: docs/timing-core.md, "Parallel simulation").  Reads
 * only input src. */
bool icnt_can_push_after(const icnt *n, uint32_t src, uint32_t pkts, uint32_t flits, uint32_t bytes);
/* Queue a packet of `bytes` bytes carrying *r.  -1 if the input buffer is full. */
int icnt_push(icnt *n, uint32_t src, uint32_t dst, const mem_req *r, uint32_t bytes);
/* The same when icnt_can_push allows it; otherwise -1 and nothing counted (for
 * a sender that waits for room, which is not a failed push). */
int icnt_try_push(icnt *n, uint32_t src, uint32_t dst, const mem_req *r, uint32_t bytes);
void icnt_cycle(icnt *n);
/* The packet ready at output dst, or NULL; pop it with icnt_pop. */
const mem_req *icnt_peek(const icnt *n, uint32_t dst);
int icnt_pop(icnt *n, uint32_t dst, mem_req *out);

bool icnt_idle(const icnt *n);
/* Outputs 64 w .. 64 w + 63 with a packet ready (one icnt_peek would return):
 * bit i set when output 64 w + i has one (0 past the last output), so that a
 * receiver visits only those outputs.  A receiver that pops
 * only from the outputs it visits may take the set once per cycle: a pop
 * changes no other output's head. */
uint64_t icnt_ready_word(const icnt *n, uint32_t w);
void icnt_skip_idle(icnt *n, uint64_t cycles);
uint64_t icnt_now(const icnt *n);
const icnt_counters *icnt_stats(const icnt *n);

#endif
