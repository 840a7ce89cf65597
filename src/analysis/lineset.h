/* A set of line addresses that only grows (partition.c: every line an L2 slice
 * has been asked for, for the compulsory-miss count).
 *
 * A bitmap of the address space, one bit per line, kept in chunks of
 * LINESET_CHUNK_LINES lines that are allocated when first touched and found
 * through a small hash directory (with the last chunk remembered).  Requests
 * that stream through memory set neighbouring bits of one chunk, so a probe
 * mostly hits the host cache where a hash table of line addresses missed on
 * nearly every new line.  Chunks are never freed before lineset_destroy. */
#ifndef LOCSIM_ANALYSIS_LINESET_H
#define LOCSIM_ANALYSIS_LINESET_H

#include <stdint.h>

#define LINESET_CHUNK_BITS 15   /* 32768 lines (4 MB of 128 B lines) per 4 KB chunk */
#define LINESET_CHUNK_LINES (1u << LINESET_CHUNK_BITS)

typedef struct lineset lineset;

/* line_shift: log2 of the line size.  NULL: out of memory. */
lineset *lineset_create(uint32_t line_shift);
void lineset_destroy(lineset *s);

/* Add the line holding addr: 1 if it was not in the set, 0 if it was, -1 when
 * out of memory (nothing added). */
int lineset_add(lineset *s, uint64_t addr);

/* Lines in the set. */
uint64_t lineset_count(const lineset *s);

#endif
