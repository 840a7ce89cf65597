/* The device heap behind device-side malloc() / free() (and so C++ new / delete,
 * which nvcc lowers to calls of them).
 *
 * A fixed range of device memory (cudaLimitMallocHeapSize, default 8 MB as CUDA),
 * handed out first fit from the lowest address in blocks of a multiple of 16 bytes
 * (CUDA: "the returned pointer is guaranteed to be aligned to a 16-byte boundary"),
 * free blocks coalesced.  The bookkeeping lives on the host, not in device memory,
 * so a kernel that writes outside its block cannot corrupt it.  Calls are made one
 * at a time (lane by lane, in the simulator's deterministic warp order), so the
 * same program always gets the same addresses.
 *
 * Cost: a malloc scans the free ranges (one, the untouched tail, until blocks are
 * freed out of order); a free is a hash lookup plus an insertion into the sorted
 * free ranges. */
#ifndef LOCSIM_DEVHEAP_H
#define LOCSIM_DEVHEAP_H

#include <stdint.h>

typedef struct devheap devheap;

/* A heap over [base, base + size); NULL on out-of-memory. */
devheap *devheap_create(uint64_t base, uint64_t size);
void devheap_destroy(devheap *h);

/* The address of a new block of at least n bytes (n = 0: 16), or 0 when no free
 * range is large enough (device malloc returns NULL). */
uint64_t devheap_malloc(devheap *h, uint64_t n);
/* Free the block at addr: 0, or -1 when addr is not the start of a live block
 * (never allocated, or freed already).  addr 0 is not passed here (a no-op). */
int devheap_free(devheap *h, uint64_t addr);

uint64_t devheap_base(const devheap *h);
uint64_t devheap_size(const devheap *h);
/* Bytes in live blocks (rounded up to 16) and how many there are. */
uint64_t devheap_used(const devheap *h);
uint64_t devheap_live_blocks(const devheap *h);

#endif
