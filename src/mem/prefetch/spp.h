/* The GPU-adapted Signature Path Prefetcher of WSMP (paper 3.2; Kim et al.,
 * MICRO 2016), shared by the 'spp' and 'spp_ppf' prefetchers (docs/wsmp.md).
 * Internal to src/mem/prefetch/. */
#ifndef LOCSIM_MEM_PREFETCH_SPP_H
#define LOCSIM_MEM_PREFETCH_SPP_H

#include <stdint.h>

#include "mem/prefetch/prefetch.h"

#define SPP_PT_WAYS 4      /* deltas per pattern-table entry (SPP: 4) */
#define SPP_C_MAX 15       /* 4-bit C_sig / C_delta (SPP) */
#define SPP_SIG_MASK 0x7FFFFFFu

typedef struct {
    uint64_t addr;         /* byte address of the candidate line */
    uint32_t sig;          /* the signature whose pattern proposed it (S'') */
    int32_t delta;         /* its delta from the offset it was proposed at */
    uint8_t depth;         /* lookahead depth d (0 = straight from the access) */
    uint8_t conf;          /* path confidence P_d, percent */
    uint16_t warp;
    uint32_t offset;       /* its line offset in the page */
} spp_candidate;

typedef struct spp spp;

spp *spp_create(const prefetch_config *cfg, char *err, size_t errlen);
void spp_destroy(spp *p);

/* S'' from S, a delta (lines, |delta| < 64) and a warp id: WSMP's formulas (1), (2). */
uint32_t spp_next_signature(uint32_t sig, int32_t delta, uint32_t warp);

/* A demand read: update the signature table and the warp's pattern table, then
 * walk the lookahead path; the candidates go to out (at most cap; the stop rule
 * also ends it at spp_max_lines).  Returns how many. */
uint32_t spp_operate(spp *p, const prefetch_access *a, spp_candidate *out, uint32_t cap);
/* Accuracy bookkeeping for alpha_warp: a prefetch by warp w filled / was used. */
void spp_note_fill(spp *p, uint32_t warp);
void spp_note_useful(spp *p, uint32_t warp);
/* alpha_warp in percent (100 until the warp has a prefetch filled). */
uint32_t spp_alpha(const spp *p, uint32_t warp);

/* For tests: the pattern-table entry of (warp, signature): C_sig, and C_delta
 * of delta (0 if absent). */
uint32_t spp_pt_csig(const spp *p, uint32_t warp, uint32_t sig);
uint32_t spp_pt_cdelta(const spp *p, uint32_t warp, uint32_t sig, int32_t delta);
/* The signature the table holds for (page of addr, warp), or -1. */
int64_t spp_st_signature(const spp *p, uint64_t addr, uint32_t warp);

/* Counters (statistics). */
typedef struct {
    uint64_t triggers, st_hits, st_misses, candidates, depth_sum, stopped_conf, stopped_lines;
} spp_counters;
const spp_counters *spp_stats(const spp *p);
/* Emit them as spp_* statistics, defined by SPP_STAT_DEFS. */
void spp_report_counters(const spp *p, void (*emit)(void *ctx, const char *name, double value), void *ctx);
#define SPP_STAT_DEFS                                                                                            \
    {"spp_triggers", NULL, NULL, 0, "demand line accesses SPP saw (once per line: prefetch_ops.once_per_line)"}, \
    {"spp_st_hits", NULL, NULL, 0, "of which found their (page, warp) in the signature table"},                  \
    {"spp_candidates", NULL, NULL, 0, "lines SPP proposed (P_d >= T_p)"},                                        \
    {"spp_lookahead_steps", NULL, NULL, 0, "pattern-table entries the lookahead paths read"},                    \
    {"spp_stop_confidence", NULL, NULL, 0, "lookahead paths ended by the path confidence falling below T_p"},    \
    {"spp_stop_lines", NULL, NULL, 0, "lookahead paths ended by reaching -spp_max_lines candidates (T_f)"}


/* spp_ppf's filter (spp_ppf.c), for tests: filter n candidates of one trigger
 * (prefetch / candidate / reject, recorded in the tables) and write the
 * addresses to prefetch; the perceptron sum of a candidate. */
uint32_t spp_ppf_filter(void *st, const spp_candidate *c, uint32_t n, uint64_t *out, uint32_t cap);
int32_t spp_ppf_sum(const void *st, const spp_candidate *c);

#endif
