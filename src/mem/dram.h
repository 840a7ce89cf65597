/* One DRAM channel (GDDR3/GDDR5-style): banks with open rows, command-level
 * timing in DRAM command-clock cycles, a bounded request queue served by a
 * pluggable scheduler (FIFO, FR-FCFS, ...), and a bounded return queue.
 *
 *   if (dram_push(d, &req, bank, row, col) < 0) ...queue full: retry later...
 *   dram_cycle(d);                         once per DRAM command-clock cycle
 *   while (dram_pop(d, &done) == 0) ...    requests whose data transfer finished
 *
 * Data path: the channel is bus_width x chips bytes wide and moves freq_ratio
 * beats per command cycle; one column command (RD/WR) moves one burst of
 * burst_length beats = an "atom" of bus_width * chips * burst_length bytes and
 * holds the data bus burst_length / freq_ratio cycles.  A request of N bytes
 * needs ceil(N / atom) column commands.
 *
 * Timing rules (one command per cycle on the command bus, or with dual_bus one
 * row command and one column command; rows stay open until
 * a request for another row of the bank needs the bank):
 *   ACT -> RD/WR same bank   tRCD        ACT -> ACT same bank  tRC
 *   ACT -> ACT other bank    tRRD        ACT -> PRE same bank  tRAS
 *   PRE -> ACT same bank     tRP         RD -> data            tCL
 *   WR  -> data              tWL         RD/WR -> RD/WR        tCCD (tCCDL in one bank group)
 *   end of write data -> RD  tCDLR       end of write data -> PRE  tWR
 *   RD -> PRE                max(tRTPL, burst)   and the data bus is never double-booked.
 * So a read to an idle bank completes tRCD + tCL + burst cycles after it
 * arrives; to an open row tCL + burst; to another row tRP + tRCD + tCL + burst
 * (plus whatever tRAS/tRC still require).
 */
#ifndef LOCSIM_MEM_DRAM_H
#define LOCSIM_MEM_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/mem_req.h"

typedef struct dram_timing {
    uint32_t nbk;                        /* banks per channel */
    uint32_t tCCD, tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tCDLR, tWR;
    uint32_t nbkgrp, tCCDL, tRTPL;       /* bank groups (1 = none) */
} dram_timing;

/* Parse GPGPU-Sim's -gpgpu_dram_timing_opt string, "nbk=16:CCD=2:RRD=6:RCD=12:
 * RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0".  Keys may
 * come in any order (whitespace is ignored); keys not given keep their value in
 * *t.  0 on success, -1 with err naming the bad key or value. */
int dram_timing_parse(const char *text, dram_timing *t, char *err, size_t errlen);
/* Format t back into that syntax (for config dumps). */
void dram_timing_format(const dram_timing *t, char *buf, size_t n);

typedef struct dram_config {
    dram_timing t;
    uint32_t bus_width;          /* bytes per chip per beat (-gpgpu_dram_buswidth) */
    uint32_t chips;              /* chips per channel (-gpgpu_n_mem_per_ctrlr) */
    uint32_t burst_length;       /* beats per column command (-gpgpu_dram_burst_length) */
    uint32_t freq_ratio;         /* beats per command cycle (-dram_data_command_freq_ratio) */
    uint32_t queue_size;         /* scheduler queue (-gpgpu_frfcfs_dram_sched_queue_size) */
    uint32_t return_queue_size;  /* finished requests not yet popped (-gpgpu_dram_return_queue_size) */
    char scheduler[32];          /* "fifo", "frfcfs", ... */
    uint32_t bnkgrp_lower_bits;  /* -dram_bnkgrp_indexing_policy: 0 group = bank / (nbk / nbkgrp), 1 bank % nbkgrp */
    uint32_t mfq_thresholds[3];  /* MFQ scheduler: sigma bounds of levels L0..L2 (-mfq_thresholds) */
    uint32_t mfq_timeouts[3];    /* MFQ: DRAM cycles before a request in L1, L2, L3 moves up (-mfq_timeouts) */
    bool mfq_row_hit_first;      /* MFQ: inside a level, open-row requests first (-mfq_row_hit_first) */
    bool dual_bus;               /* separate row and column command buses: one ACT/PRE and one RD/WR a
                                    cycle, as HBM has (-dram_dual_bus_interface) */
} dram_config;

static inline uint32_t dram_atom_bytes(const dram_config *c) { return c->bus_width * c->chips * c->burst_length; }
static inline uint32_t dram_burst_cycles(const dram_config *c) {
    uint32_t b = c->burst_length / c->freq_ratio;
    return b ? b : 1;
}

/* ---- the request queue, as schedulers see it ---- */

#define DRAM_NONE (-1)

typedef struct dram_request {
    mem_req req;
    uint64_t arrival;             /* DRAM cycle it entered the queue */
    uint64_t seq;                 /* arrival order, unique */
    uint32_t bank, row, col;
    uint32_t columns_left;        /* RD/WR commands still to issue */
    int32_t prev, next;           /* all requests, oldest first */
    int32_t bank_prev, bank_next; /* this bank's requests, oldest first */
    uint8_t in_service;           /* taken by its bank; no longer a candidate */
    uint8_t used;
    uint8_t sched_data[6];        /* free for the scheduler (e.g. a priority level) */
} dram_request;

typedef struct dram_queue {
    dram_request *slots;          /* capacity entries */
    uint32_t capacity, length;
    int32_t oldest, newest;       /* all requests */
    int32_t *bank_oldest, *bank_newest;
    uint32_t nbanks;
} dram_queue;

/* Scheduler plug-in: when a bank is free, pick() chooses the next request for it
 * among the waiting ones (slots with used && !in_service), or DRAM_NONE. */
typedef struct dram_sched_ops {
    const char *name;
    const char *help;
    void *(*create)(const dram_config *cfg);             /* may be NULL */
    void (*destroy)(void *st);
    void (*on_arrival)(void *st, dram_queue *q, int32_t slot, uint64_t now);   /* may be NULL */
    int32_t (*pick)(void *st, const dram_queue *q, uint32_t bank, int64_t open_row, uint64_t now);
    /* Set when pick() depends on `now` (timeouts, aging).  Otherwise the channel
     * skips the cycles in which no command can issue and asks pick() again only
     * when a request arrives or a command has issued. */
    bool pick_uses_time;
    /* Set when the scheduler reads mem_req.sigma: the SMs then keep each warp's
     * latency tolerance (docs/wsmp.md). */
    bool uses_sigma;
    /* Optional: the scheduler's own statistics (cumulative counters written
     * through emit, summed over the channels), and their definitions, ending
     * with name == NULL (a ratio has num/den). */
    void (*report)(const void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx);
    const struct dram_sched_stat_def *stats;
} dram_sched_ops;

typedef struct dram_sched_stat_def {
    const char *name;
    const char *num, *den;
    double scale;
    const char *help;
} dram_sched_stat_def;

const dram_sched_ops *dram_sched_find(const char *name);
const dram_sched_ops *dram_sched_at(uint32_t i);

/* ---- the channel ---- */

typedef struct dram_counters {
    uint64_t cycles;              /* DRAM cycles simulated (incl. skipped idle ones) */
    uint64_t reads, writes;       /* requests completed */
    uint64_t read_bytes, write_bytes;
    uint64_t activates, precharges, column_cmds;
    uint64_t read_bursts, write_bursts;  /* column_cmds by direction (energy model) */
    uint64_t row_hits, row_misses;/* request found its row open when its bank took it */
    uint64_t bank_busy_cycles;    /* sum over banks of cycles serving a request */
    uint64_t data_bus_cycles;     /* cycles the data bus was transferring */
    uint64_t queue_occupancy_sum; /* sum over cycles of the queue length */
    uint64_t queue_max;
    uint64_t push_fails;          /* dram_push refused: queue full (back-pressure) */
    uint64_t latency_sum;         /* sum of (done - arrival) over completed requests */
} dram_counters;

typedef struct dram dram;

dram *dram_create(const dram_config *cfg, const char *name, char *err, size_t errlen);
/* The same with a scheduler given directly instead of by cfg->scheduler
 * (tests, schedulers outside the registry). */
dram *dram_create_with(const dram_config *cfg, const dram_sched_ops *sched, const char *name, char *err,
                       size_t errlen);
void dram_destroy(dram *d);

bool dram_can_accept(const dram *d);
/* Count a push refused because the queue is full (what dram_push does when
 * !dram_can_accept), for callers that check first. */
void dram_refuse(dram *d);
/* Queue a request (bank < nbk; row and col from the address mapping).  -1 when full. */
int dram_push(dram *d, const mem_req *r, uint32_t bank, uint32_t row, uint32_t col);
void dram_cycle(dram *d);
/* A finished request (read data transferred / write done), oldest completion first. */
int dram_pop(dram *d, mem_req *out);
/* The request dram_pop would return, or NULL. */
const mem_req *dram_peek(const dram *d);

/* Nothing queued, in service or waiting to be popped. */
bool dram_idle(const dram *d);
/* Advance the clock n cycles while idle (the top skips dead time with it). */
void dram_skip_idle(dram *d, uint64_t n);
uint64_t dram_now(const dram *d);
const dram_counters *dram_stats(const dram *d);
const dram_config *dram_cfg(const dram *d);
/* The scheduler and its state (for its statistics). */
const dram_sched_ops *dram_scheduler(const dram *d);
const void *dram_sched_state(const dram *d);

#endif
