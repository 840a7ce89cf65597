/* Address mapping: a device address -> (memory channel, L2 slice, DRAM bank,
 * row, column).
 *
 * The mapping string uses GPGPU-Sim's -gpgpu_mem_addr_mapping syntax:
 *   [dramid@<K>;]<mask>
 * <mask> gives one letter per address bit, most significant first (dots are
 * ignored; shorter masks are right-aligned): D channel, B bank, R row, C and S
 * column, 0 unused.  Letters of one kind are gathered in order, lowest address
 * bit -> lowest field bit.  With "dramid@K;" (and no D bits) the channel is
 * taken by division, which allows channel counts that are not powers of two:
 *   channel = (addr >> K) % channels,  then the channel-local address
 *   ((addr >> K) / channels) << K | (addr & (2^K - 1)) is decoded by the mask.
 * Example (GTX480, 6 channels, 16 banks): consecutive 256 B chunks go to
 * consecutive channels; inside a channel, bank bit 0 is local bit 8, so the two
 * L2 slices of a channel alternate every 256 B.
 *
 * Optional hashing (all keep the mapping one-to-one):
 *   channel_hash 1: channel ^= fold(row) for power-of-two channel counts,
 *                 channel = (channel + fold(row)) % channels otherwise
 *                 (fold = XOR of the row's 8-bit chunks);
 *   channel_hash 2: IPOLY over the L2 slices, as GPGPU-Sim 4.x's
 *                 -gpgpu_memory_partition_indexing 2: the linear slice index
 *                 (channel * slices_per_channel + bank mod slices_per_channel,
 *                 the bank before bank_hash) hashed with the address bits
 *                 above dramid@K's channel and slice bits (mem/ipoly.h); the
 *                 slice gives the channel.  Needs dramid@, a power-of-two
 *                 channel count and 16, 32 or 64 slices in all;
 *   bank_hash:    bank ^= row mod banks (permutation-based interleaving).
 * L2 slice: channel * slices_per_channel + (bank mod slices_per_channel).
 */
#ifndef LOCSIM_MEM_ADDRMAP_H
#define LOCSIM_MEM_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "mem/ipoly.h"

/* GPGPU-Sim's GTX480 mapping (6 channels, 16 banks, 4 KB of a row per bank). */
#define ADDRMAP_GTX480_DEFAULT \
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"

typedef struct addrmap_config {
    uint32_t n_channels;          /* -gpgpu_n_mem */
    uint32_t n_sub_per_channel;   /* -gpgpu_n_sub_partition_per_mchannel (power of two) */
    uint32_t nbanks;              /* nbk of the DRAM timing */
    char mapping[256];            /* -gpgpu_mem_addr_mapping ("" = ADDRMAP_GTX480_DEFAULT) */
    uint8_t channel_hash;         /* -gpgpu_memory_partition_indexing: 0 linear, 1 row fold, 2 IPOLY */
    uint8_t bank_hash;            /* -dram_bnk_indexing_policy: 0 linear, 1 XOR */
} addrmap_config;

typedef struct addr_loc {
    uint32_t channel;    /* memory channel (DRAM controller) */
    uint32_t slice;      /* global L2 slice (sub-partition) index */
    uint32_t bank, row, col;
} addr_loc;

/* A field's bits as runs of consecutive address bits (decoding is a few shifts):
 * run i is bits [src, src + len) of the address, placed at bit dst of the field;
 * mask[i] selects them in the address and shift[i] = src - dst moves them down
 * (dst <= src always: the runs below take the field bits below), so a run costs
 * an AND, a shift and an OR on every decode (addrmap_decode runs once or twice
 * per memory request and per sector). */
#define ADDRMAP_MAX_RUNS 32
typedef struct {
    uint8_t n;
    uint8_t src[ADDRMAP_MAX_RUNS], len[ADDRMAP_MAX_RUNS], dst[ADDRMAP_MAX_RUNS];
    uint64_t mask[ADDRMAP_MAX_RUNS];
    uint8_t shift[ADDRMAP_MAX_RUNS];
} addrmap_field;

typedef struct addrmap {
    addrmap_config cfg;
    int dramid_bit;                          /* -1: channel from D bits */
    uint64_t chan_mask, bank_mask, row_mask, col_mask;
    uint32_t row_bits;
    addrmap_field chan, bank, row, col;
    uint64_t sub_mask;                       /* channel-local address bits that pick the L2 slice */
    /* dramid@: x / n_channels as (x * chan_magic) >> 64 for x <= chan_magic_max
     * (exact there, see addrmap_init; a 64-bit division otherwise); 0: not set */
    uint64_t chan_magic, chan_magic_max;
    ipoly slice_hash;                        /* channel_hash 2 */
    uint32_t ipoly_shift;                    /* the hash's higher bits: address >> ipoly_shift */
} addrmap;

/* 0, or -1 with err saying what in the mapping is wrong. */
int addrmap_init(addrmap *m, const addrmap_config *cfg, char *err, size_t errlen);
void addrmap_decode(const addrmap *m, uint64_t addr, addr_loc *out);
/* The address within its L2 slice, as GPGPU-Sim's partition_address(): the
 * channel taken out (by division with dramid@, else its D bits squeezed out),
 * then the bank bits that choose the slice within the channel squeezed out.
 * GPGPU-Sim's L2 indexes its sets with it, so that a slice's lines spread over
 * all its sets instead of camping on those the partition bits select. */
uint64_t addrmap_partition_addr(const addrmap *m, uint64_t addr);
/* Its inverse: the device address whose slice is `slice` and whose partition
 * address is part_addr (an L2 slice's prefetcher learns in its own address
 * space and fetches what it finds there: docs/wsmp.md). */
uint64_t addrmap_global_addr(const addrmap *m, uint32_t slice, uint64_t part_addr);

/* 1 when addresses that agree above bit line_shift - 1 always decode to the same
 * L2 slice (the channel and the slice-choosing bank bits, and the row bits the
 * hashes fold in, all come from bits >= line_shift), so one decode serves a
 * whole line; 0 when the mapping may split a line between slices. */
int addrmap_slice_per_line(const addrmap *m, uint32_t line_shift);

/* Total L2 slices (channels x slices per channel). */
static inline uint32_t addrmap_slices(const addrmap *m) { return m->cfg.n_channels * m->cfg.n_sub_per_channel; }

#endif
