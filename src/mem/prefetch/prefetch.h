/* Cache prefetchers: one plug-in per file behind prefetch_ops, found by name
 * (registry.c), attached to a cache level with -l1d_prefetcher / -l2_prefetcher
 * (ChampSim-style: the cache owns one instance and calls its hooks; the
 * pipeline never names a prefetcher).
 *
 * The cache calls, for each instance:
 *   on_access   every access the cache accepted (not reservation fails), after
 *               the access, with its outcome and the requester (address, PC,
 *               warp, SM).  The prefetcher writes the byte addresses it wants
 *               fetched into out[0..cap) and returns how many.  The cache then
 *               issues each one that is not present or in flight and for which
 *               it has resources, as a line fetch marked MEM_REQ_PREFETCH
 *               (so the level below and the DRAM scheduler see a prefetch);
 *               the others are dropped and counted.
 *   on_fill     a line arrived (prefetch = it was fetched by a prefetch that no
 *               demand request merged into; warp = whose access caused the fetch).
 *   on_evict    a line left the cache; unused_prefetch = it was brought by a
 *               prefetch and no demand request touched it.
 *
 * The cache keeps the bookkeeping every prefetcher shares (prefetch bit per
 * line, counters issued / useful / late / useless / dropped, see cache.h
 * cache_prefetch_counters); a prefetcher's own statistics go through report().
 * Prefetches only move data into caches: a program's results never depend on
 * them (tests/test_prefetch.c checks it).  Nothing is allocated after create.
 */
#ifndef LOCSIM_MEM_PREFETCH_H
#define LOCSIM_MEM_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ldesc_set;

/* Options of the prefetchers (one copy per cache level, filled by
 * config_finalize from the -nextline_* / -stride_* / -spp_* / -ppf_* options). */
typedef struct prefetch_config {
    char name[24];                 /* "" = none */
    uint32_t line_size;            /* of the cache it serves (set by the cache) */
    uint32_t cache_bytes;          /* capacity of the cache it serves (set by the cache) */
    uint32_t nextline_degree;      /* lines after the accessed one */
    uint32_t stride_entries;       /* per-PC stride table entries (power of two) */
    uint32_t stride_degree;        /* strides ahead once a stride is confirmed */
    uint32_t spp_page_bytes;       /* SPP page (4096) */
    uint32_t spp_st_entries;       /* signature table entries (256) */
    uint32_t spp_pt_sets;          /* pattern-table sets per warp (power of two) */
    uint32_t spp_warps;            /* pattern tables (warp ids modulo this) */
    uint32_t spp_tp;               /* path-confidence threshold T_p, 0..100 */
    uint32_t spp_max_lines;        /* at most this many candidates per trigger (T_f) */
    int32_t ppf_tau_hi, ppf_tau_lo;/* perceptron sum thresholds */
    int32_t ppf_theta_pos, ppf_theta_neg; /* train up only below theta_pos, down only above theta_neg */
    uint32_t ppf_min_prefetches;   /* too few approved: take the best candidates up to this */
} prefetch_config;

/* One access, as a prefetcher sees it. */
typedef struct prefetch_access {
    uint64_t addr;        /* byte address */
    uint32_t pc;
    uint16_t warp, sm;    /* requester (SM-local warp slot, as GPGPU-Sim's mem_fetch::get_wid) */
    uint8_t type;         /* mem_access_type */
    uint8_t hit;          /* 1: the data was present (hit); 0: miss or pending hit */
    uint8_t pending;      /* 1: a pending hit (the line was already in flight; hit = 0) */
    uint8_t useful;       /* first demand touch of a line a prefetch brought */
    uint8_t late;         /* merged into a prefetch still in flight */
    uint16_t pf_warp, pf_sm; /* useful / late: the warp (slot, SM) whose access triggered that prefetch */
} prefetch_access;

/* A statistic a prefetcher reports: a counter (num == NULL) or scale x num / den. */
typedef struct prefetch_stat_def {
    const char *name;     /* without the level prefix: "spp_lookaheads" -> "L2_spp_lookaheads" */
    const char *num, *den;
    double scale;
    const char *help;
} prefetch_stat_def;

typedef struct prefetch_ops {
    const char *name;
    const char *help;
    /* NULL with a message in err on a bad configuration or out of memory. */
    void *(*create)(const prefetch_config *cfg, char *err, size_t errlen);
    void (*destroy)(void *st);
    uint32_t (*on_access)(void *st, const prefetch_access *a, uint64_t now, uint64_t *out, uint32_t cap);
    /* optional */
    void (*on_fill)(void *st, uint64_t addr, uint16_t sm, uint16_t warp, bool prefetch, uint64_t now);
    void (*on_evict)(void *st, uint64_t addr, uint16_t warp, bool unused_prefetch);
    void (*report)(const void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx);
    const prefetch_stat_def *stats;   /* ends with name == NULL */
    /* true: the prefetcher learns once per line access, so the cache does not
     * call on_access for a demand read of the same line by the same warp (and SM)
     * as the previous call that is neither a prefetch's first use nor late: the
     * other sectors of one request, which a sectored L2 receives one after another
     * (counted as <L>_prefetch_line_repeats). */
    bool once_per_line;
    /* true: at an L2 slice, the prefetcher sees the slice's own address space
     * (the partition address, addrmap_partition_addr) instead of device
     * addresses, and its candidates are mapped back (cache_set_prefetch_space):
     * with lines interleaved over the slices, a slice holds 2 to 4 lines of a
     * 4 KB device page, too few for a page-local history (docs/wsmp.md). */
    bool slice_space;
    /* optional: a kernel starts with these Locality Descriptors (src/ldesc/ldesc.h;
     * NULL: none), valid until the next call (cache_kernel_begin) */
    void (*kernel_begin)(void *st, const struct ldesc_set *hints);
} prefetch_ops;

/* One warp of the whole GPU from its SM and SM-local slot (slots are below 64,
 * SCHED_MAX_WARPS): what SPP keys its tables by, so that warp 3 of every SM does
 * not share one history (WSMP 3.2.2: a pattern table per warp). */
#define PREFETCH_WARPS_PER_SM 64u
static inline uint32_t prefetch_gpu_warp(uint16_t sm, uint16_t warp) {
    return (uint32_t)sm * PREFETCH_WARPS_PER_SM + warp;
}

/* Most candidates one access may return (the cache's out[] capacity). */
#define PREFETCH_MAX_CANDIDATES 32u

const prefetch_ops *prefetch_find(const char *name);
const prefetch_ops *prefetch_at(uint32_t i);

#endif
