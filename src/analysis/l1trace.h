/* L1D access-stream analyses of the CCWS paper (section 5.2, Figs. 8, 11, 12):
 * an optional recording of every L1D access of one SM, and, per kernel, two
 * analyses of it:
 *
 *  - Belady-optimal replacement (OPT/MIN): the same stream replayed through a
 *    cache of the same geometry (sets x ways, same set-index function) that on a
 *    miss evicts the resident line whose next reference is furthest in the
 *    future (never referenced again = furthest).  Its misses are the
 *    "<scheduler>-BEL" misses.
 *  - Locality breakdown of the real cache's hits: a read hit (or pending hit) is
 *    intra-warp when the line was brought in by the same warp (the warp whose
 *    miss allocated the line this time it entered the cache: its "initial
 *    reference", as the paper defines it), and then intra-thread when at least
 *    one of the hitting lanes is a lane of that initial access (the same scalar
 *    thread re-references its data), inter-thread otherwise; it is inter-warp
 *    when another warp of the kernel brought the line in, and counted apart
 *    (inter-kernel) when a warp of an earlier kernel did.  A warp is a dynamic
 *    warp (CTA and warp index), so a new CTA in the same warp slot is another
 *    warp.
 *  - The continuous reuse number (CRN) distribution of the CWLP paper (Fig. 1:
 *    "the number of continuous memory accesses at a time to the same
 *    address"): every miss of the real cache brings a line in and starts a
 *    run; each later access to that line (hit or pending hit, read or write)
 *    adds one to the run's CRN; the run ends at the line's next miss (it was
 *    evicted or invalidated meanwhile) or at the kernel's end.  The histogram
 *    counts runs -- memory accesses (misses) -- by CRN: 0, 1, ..., 15 and 16+.
 *    Hits on a line kept from an earlier kernel belong to no run.
 *
 * The breakdown and the CRN runs need no future, so they are taken as each
 * access is recorded; l1_trace_analyze() runs the OPT replay at each kernel end
 * on that kernel's stream, closes the open CRN runs, adds to the totals and
 * empties the stream.  The real L1D keeps its lines from one
 * kernel to the next (unless -gpgpu_flush_l1_cache), and so do the analyses:
 * the OPT cache keeps its lines, and a line keeps the warp that brought it in
 * (a hit on a line of an earlier kernel is inter-kernel).  OPT looks ahead only
 * to the end of the kernel being analysed: lines kept from an earlier kernel are
 * valued by their first use in this one, and among lines not used again in the
 * kernel the least recently used goes first.
 * With l1_trace_set_flushed(t, true) both start every kernel empty.
 *
 * Writes.  Both the real cache and the OPT replay count a write to an absent
 * line as a miss.  In the OPT replay a write follows the geometry's policy for
 * its space: a write hit invalidates the line under write-evict, keeps it
 * otherwise; a write miss allocates only with a write-allocate policy.  The
 * breakdown classifies read hits only; writes are counted apart.
 *
 * Memory: 8 bytes per recorded access (the stream of one kernel of one SM:
 * line and flags, all the OPT replay needs), grown by doubling, and 4 more per
 * access during the replay (next uses); the hash tables hold one entry per
 * distinct line.  (Before, 24 bytes a record and tables sized to the stream:
 * kmeans --size 1000 on ccws_gtx285 needed over 10 GB.)  Nothing is allocated
 * unless -l1d_access_analysis is on.
 */
#ifndef LOCSIM_ANALYSIS_L1TRACE_H
#define LOCSIM_ANALYSIS_L1TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/cache.h"

/* Flags of a recorded access. */
#define L1T_WRITE 0x1u
#define L1T_LOCAL 0x2u

/* One access as the analyses see it. */
typedef struct {
    uint64_t line;        /* address / line size */
    uint32_t warp;        /* dynamic warp id (unique among the kernel's warps of this SM) */
    uint32_t lanes;       /* lanes of the warp whose addresses fall in the line */
    uint8_t flags;        /* L1T_* */
    uint8_t outcome;      /* cache_outcome of the real cache (never RESERVATION_FAIL) */
} l1_access;

#define L1T_CRN_BUCKETS 17   /* CRN 0..15, and 16 or more */

/* Cumulative results over the kernels analysed so far. */
typedef struct {
    uint64_t accesses, reads, writes;
    uint64_t misses;              /* real cache, reads + writes (= the cache's CACHE_MISS count) */
    uint64_t read_misses;
    uint64_t hits_intra_thread;   /* read hits / pending hits, by who brought the line in */
    uint64_t hits_inter_thread;
    uint64_t hits_inter_warp;     /* ... another warp of the same kernel */
    uint64_t hits_inter_kernel;   /* ... a warp of an earlier kernel (the L1D kept the line) */
    uint64_t hits_unattributed;   /* a read hit on a line no recorded miss brought in (should stay 0) */
    uint64_t bel_misses;          /* Belady-optimal replay, reads + writes */
    uint64_t bel_read_misses;
    uint64_t lost;                /* accesses not recorded for lack of memory */
    uint64_t crn[L1T_CRN_BUCKETS];/* runs (misses) by continuous reuse number */
} l1_trace_totals;

typedef struct l1_trace l1_trace;

/* A recorder for a cache of geometry g; NULL with err on out of memory or a bad geometry. */
l1_trace *l1_trace_create(const cache_geometry *g, char *err, size_t errlen);
void l1_trace_destroy(l1_trace *t);
/* The real L1D is invalidated at every kernel start (-gpgpu_flush_l1_cache 1). */
void l1_trace_set_flushed(l1_trace *t, bool flushed);

/* One access the cache accepted (o is HIT, HIT_RESERVED or MISS). */
void l1_trace_record(l1_trace *t, uint64_t line, uint32_t warp, uint32_t lanes, unsigned flags, cache_outcome o);
/* Accesses recorded since the last analysis. */
size_t l1_trace_length(const l1_trace *t);

/* Analyse the recorded stream (one kernel), add it to the totals and empty it.
 * 0, or -1 when out of memory (the stream is dropped and counted in `lost`). */
int l1_trace_analyze(l1_trace *t);
const l1_trace_totals *l1_trace_get_totals(const l1_trace *t);

/* Belady-optimal misses of a stream in a cache of geometry g, starting empty
 * (the OPT replay of l1_trace_analyze, for tests and tools).  *read_misses (may
 * be NULL) gets the read misses.  Returns UINT64_MAX when out of memory. */
uint64_t l1_belady_misses(const cache_geometry *g, const l1_access *a, size_t n, uint64_t *read_misses);

#endif
