/* A memory partition: one DRAM channel and the L2 slices in front of it
 * (GPGPU-Sim's memory partition with its sub-partitions).
 *
 * Per slice, requests flow through bounded queues (sizes from
 * -gpgpu_dram_partition_queues, GPGPU-Sim's "icnt->L2 : L2->dram : dram->L2 : L2->icnt"):
 *
 *   partition_push --[in: ROP latency]--> L2 slice --miss queue--> [to DRAM: dram_latency]
 *        --> DRAM channel (shared by the slices) --> [fills] --> cache_fill --> [replies]
 *        --> partition_reply_peek/pop (the caller moves them into the reply network)
 *
 * Each L2 cycle a slice does, in this order: one fill (when the reply queue can
 * take every request it may wake), moves one miss-queue entry towards DRAM, and
 * one L2 access (the oldest request whose ROP delay has passed; a reservation
 * failure leaves it at the head to retry next cycle).  Reads are answered with
 * their data; global/local writes with an acknowledgement (no data); write-backs
 * get no answer.  Requests are never dropped: every full queue stalls the stage
 * before it, up to partition_push() refusing.
 *
 * A sectored L2 (-gpgpu_cache:dl2 S:...) is accessed one 32 B sector at a
 * time, as GPGPU-Sim breaks requests into sector requests at the partition: a
 * request touching k sectors becomes k accesses (each with its ROP delay, its
 * sector MSHR, its 32 B DRAM read on a miss and its own reply).  Requesters
 * must accept one reply per sector (the L1 caches do: a line becomes valid
 * with its last sector; the LD/ST unit counts bypass replies in sectors).
 *
 * Clocks: partition_l2_cycle() at the L2 clock, partition_dram_cycle() at the
 * DRAM command clock; the ROP and dram_latency delays count L2 cycles.  Those
 * two delays are pipelines: their queues hold queue_size + latency requests, so
 * a partition fed one request per L2 cycle is never throttled by the delay.
 */
#ifndef LOCSIM_MEM_PARTITION_H
#define LOCSIM_MEM_PARTITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/addrmap.h"
#include "mem/cache.h"
#include "mem/dram.h"

enum { PART_Q_ICNT_L2 = 0, PART_Q_L2_DRAM, PART_Q_DRAM_L2, PART_Q_L2_ICNT, PART_Q_COUNT };

typedef struct partition_config {
    cache_geometry l2;            /* one slice (-gpgpu_cache:dl2) */
    dram_config dram;
    uint32_t rop_latency;         /* L2 cycles from arrival to the L2 access (-gpgpu_l2_rop_latency) */
    uint32_t dram_latency;        /* L2 cycles from the L2 miss queue to the DRAM queue (-dram_latency) */
    /* Two L2 halves (-l2_far_latency, docs/modern.md): SMs [0, num_sms/2) and
     * channels [0, channels/2) are half 0, the rest half 1; a request from an
     * SM to a slice of the other half waits far_latency more L2 cycles before
     * its access (in a queue of its own, so near requests do not wait behind it). */
    uint32_t far_latency;         /* 0: one uniform L2 */
    /* L2 cycles after which a slice fetches a prefetch candidate another slice
     * handed over (-l2_prefetch_forward, partition_forward_prefetch; each slice
     * has a queue of PART_FORWARD_QUEUE for them); 0: none are handed over. */
    uint32_t prefetch_forward;
    uint32_t num_sms;
    uint32_t queue_size[PART_Q_COUNT];   /* -gpgpu_dram_partition_queues */
} partition_config;

typedef struct partition_counters {
    uint64_t push_fails;          /* partition_push refused (input queue full) */
    uint64_t l2_access_stalls;    /* cycles the head request could not access the L2 */
    uint64_t fill_stalls;         /* cycles a fill waited for reply-queue room */
    uint64_t dram_push_stalls;    /* cycles a request waited for room in the DRAM queue */
    uint64_t replies;
    uint64_t sector_splits;       /* requests split into per-sector accesses (sectored L2) */
    uint64_t compulsory_misses;   /* L2 misses that were the first reference to their line */
    uint64_t distinct_lines;      /* lines referenced at least once (the footprint past the L1s) */
} partition_counters;

typedef struct partition partition;

/* Partition for memory channel `channel` of the mapping *am (which must outlive it). */
partition *partition_create(const partition_config *cfg, const addrmap *am, uint32_t channel,
                            char *err, size_t errlen);
void partition_destroy(partition *p);
/* Where the partition finds an address's DRAM bank, row and column, the slice a
 * DRAM reply goes back to, and which lines its slices' prefetchers own: by
 * default addrmap_decode of the partition's mapping; a multi-module GPU gives
 * numa_decode, which decodes the zone-local address (docs/numa.md). */
typedef void (*partition_decode_fn)(const void *ctx, uint64_t addr, addr_loc *out);
void partition_set_decode(partition *p, partition_decode_fn fn, const void *ctx);

/* Which L2 half SM `sm` of num_sms, or channel `ch` of n_channels, is in. */
static inline uint32_t l2_half_of(uint32_t i, uint32_t n) { return i >= n - n / 2 ? 1 : 0; }
/* Whether a request from SM sm to channel ch crosses to the far half. */
bool partition_is_far(const partition_config *cfg, uint32_t n_channels, uint32_t sm, uint32_t ch);

uint32_t partition_slices(const partition *p);
/* slice: 0 .. partition_slices()-1 (global slice = channel * slices + slice). */
bool partition_can_accept(const partition *p, uint32_t slice);
/* A prefetch candidate another slice's prefetcher proposed for a line of slice
 * `slice` (cfg.prefetch_forward): queued, and fetched as that slice's own
 * candidate (cache_prefetch) at L2 cycle `ready` or later, one per slice and
 * cycle after its demand access.  false: the queue is full (the candidate is
 * dropped). */
#define PART_FORWARD_QUEUE 32
bool partition_forward_prefetch(partition *p, uint32_t slice, const mem_req *cause, uint64_t addr, uint64_t ready);
int partition_push(partition *p, uint32_t slice, const mem_req *r);
void partition_l2_cycle(partition *p);
void partition_dram_cycle(partition *p);
const mem_req *partition_reply_peek(const partition *p, uint32_t slice);
void partition_reply_pop(partition *p, uint32_t slice);
/* Replies waiting in the partition's L2->icnt queues, ready or not (0: no
 * partition_reply_peek of its slices can answer). */
uint32_t partition_replies_queued(const partition *p);

bool partition_idle(const partition *p);
uint64_t partition_l2_now(const partition *p);
cache *partition_l2(partition *p, uint32_t slice);
dram *partition_dram(partition *p);
const partition_counters *partition_stats(const partition *p);

#endif
