/* IPOLY index hashing: the set or sub-partition index of n = 2^k entries
 * XORed with the address bits above it reduced modulo an irreducible
 * polynomial P of degree k over GF(2) (Rau, "Pseudo-randomly interleaved
 * memory", ISCA 1991).  Each higher bit a_i contributes x^(k+i) mod P, so
 * every power-of-two stride visits all n entries before repeating one.
 *
 * GPGPU-Sim 4.x and Accel-Sim use it for the L2 set index (set index
 * function 'P') and for -gpgpu_memory_partition_indexing 2, for n = 16, 32
 * and 64 only, with P = x^4 + x + 1, x^5 + x^2 + 1 and x^6 + x + 1 and the
 * lowest 13, 15 and 19 higher bits (their hashing.cc writes the resulting
 * XOR equations out; tests/test_ipoly.c checks ours against them).  Other
 * sizes are refused, as there. */
#ifndef LOCSIM_MEM_IPOLY_H
#define LOCSIM_MEM_IPOLY_H

#include <stdint.h>

typedef struct ipoly {
    uint32_t n;              /* entries: 16, 32 or 64 */
    uint32_t high_mask;      /* the higher bits that take part */
    uint8_t byte[3][256];    /* XOR contribution of each byte of the higher bits */
} ipoly;

/* 0, or -1 when n is not 16, 32 or 64. */
int ipoly_init(ipoly *h, uint32_t n);

/* index (< n) XOR the contribution of `high` (the address bits above it). */
static inline uint32_t ipoly_hash(const ipoly *h, uint64_t high, uint32_t index) {
    uint32_t a = (uint32_t)high & h->high_mask;
    return index ^ h->byte[0][a & 0xff] ^ h->byte[1][(a >> 8) & 0xff] ^ h->byte[2][(a >> 16) & 0xff];
}

#endif
