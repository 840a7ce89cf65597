/* Sparse paged device memory: the functional backing store of the simulated GPU.
 *
 * Addresses are 64-bit device addresses.  Pages (64 KB) are materialised on first
 * touch, so a 4 GB allocation costs only the pages a kernel writes or reads.  Every
 * allocation is recorded so accesses can be checked against live allocations
 * (the compute-sanitizer style out-of-bounds report).
 */
#ifndef LOCSIM_DEVMEM_H
#define LOCSIM_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

/* Layout of the generic address space.  Global allocations live below
 * DEVMEM_GLOBAL_LIMIT; the shared and local windows map generic addresses to the
 * executing CTA's shared memory and the executing thread's local memory. */
#define DEVMEM_GLOBAL_BASE   0x0000000100000000ull   /* first heap address (the driver's region below) */
/* The driver's own allocations: a GPU driver maps memory for itself (printf FIFO,
 * device malloc heap, local memory, constant banks) when it creates a context, in
 * the same address range as the user's allocations and before them, so an address
 * a little below the first cudaMalloc is mapped on a GPU.  Here the 16 MiB below
 * DEVMEM_GLOBAL_BASE are that region: always mapped, never handed out (reads give
 * zero, until a kernel writes there).  The null page guard lies below it. */
#define DEVMEM_DRIVER_SIZE   (16ull << 20)
#define DEVMEM_DRIVER_BASE   (DEVMEM_GLOBAL_BASE - DEVMEM_DRIVER_SIZE)
#define DEVMEM_GLOBAL_LIMIT  0x0000010000000000ull   /* 1 TB of global space */
#define DEVMEM_SHARED_WINDOW 0x00007e0000000000ull   /* generic base of .shared (32-bit offsets) */
#define DEVMEM_LOCAL_WINDOW  0x00007f0000000000ull   /* generic base of .local (32-bit offsets) */
#define DEVMEM_WINDOW_SIZE   0x0000000100000000ull
#define DEVMEM_PAGE_BITS     16
#define DEVMEM_PAGE_SIZE     (1ull << DEVMEM_PAGE_BITS)

typedef struct devmem devmem;

typedef struct {
    uint64_t base, size;
    uint32_t id;            /* allocation number, for reports */
} devmem_alloc_info;

devmem *devmem_create(void);
void devmem_destroy(devmem *m);

/* Allocate size bytes aligned to align (power of two, >= 256 recommended).
 * Returns 0 and *addr on success, -1 when out of address space. */
int devmem_alloc(devmem *m, uint64_t size, uint64_t align, uint64_t *addr);
/* Free an allocation by its base address.  -1 if addr is not a live allocation base. */
int devmem_free(devmem *m, uint64_t addr);

/* 1 if [addr, addr+size) lies inside one live allocation, else 0.  Fast for the
 * common case (repeated hits on the same allocation). */
int devmem_check(devmem *m, uint64_t addr, uint64_t size);
/* Mapped device memory: GPUs map device memory in large pages and sub-allocate
 * small cudaMallocs inside them, so an address a little outside an allocation is
 * still backed.  Here the mapping granule is 2 MiB (the large page CUDA uses): an
 * address is mapped when its 2 MiB granule holds a byte of some live allocation,
 * or lies in the driver's region (DEVMEM_DRIVER_BASE).
 * 1 if every byte of [addr, addr+size) is mapped. */
#define DEVMEM_MAP_GRANULE (2ull << 20)
int devmem_mapped(devmem *m, uint64_t addr, uint64_t size);
/* The allocation containing addr, or NULL. */
const devmem_alloc_info *devmem_find(devmem *m, uint64_t addr);

/* Host pointer to the byte at addr; the page is materialised (zero-filled) on demand.
 * The pointer is valid for the bytes up to the end of addr's page. */
uint8_t *devmem_ptr(devmem *m, uint64_t addr);
/* Copy bytes in and out; may cross pages.  No bounds checking (callers check). */
void devmem_read(devmem *m, uint64_t addr, void *dst, size_t n);
void devmem_write(devmem *m, uint64_t addr, const void *src, size_t n);
void devmem_fill(devmem *m, uint64_t addr, int value, size_t n);

/* Bytes of host memory held by materialised pages (for the memory benchmarks). */
uint64_t devmem_resident_bytes(const devmem *m);

#endif
