/* A memory request as it travels through the timing model's memory hierarchy:
 * LD/ST unit -> L1D -> interconnect -> L2 slice -> DRAM channel and back.
 *
 * Requests are small plain structs passed and queued BY VALUE: every queue in
 * src/mem/ is a preallocated ring of mem_req, so the memory system never
 * allocates per access and never depends on pointer identity.  The field `tag`
 * is the requester's cookie (e.g. the LD/ST unit's slot for the warp access);
 * the memory system copies it through untouched.
 */
#ifndef LOCSIM_MEM_REQ_H
#define LOCSIM_MEM_REQ_H

#include <stdbool.h>
#include <stdint.h>

/* Access types, named as GPGPU-Sim names them in its cache statistics. */
typedef enum {
    MEM_GLOBAL_ACC_R = 0,
    MEM_LOCAL_ACC_R,
    MEM_CONST_ACC_R,
    MEM_TEXTURE_ACC_R,
    MEM_GLOBAL_ACC_W,
    MEM_LOCAL_ACC_W,
    MEM_L1_WRBK_ACC,   /* dirty line written back by an L1 */
    MEM_L2_WRBK_ACC,   /* dirty line written back by an L2 slice */
    MEM_INST_ACC_R,
    MEM_ACCESS_TYPE_COUNT
} mem_access_type;

/* Sectors are 32 bytes: a 128 B line has 4, and sector_mask bit i covers bytes
 * [32i, 32i + 32) of the line.  Lines up to 256 B (8 sectors) are supported. */
#define MEM_SECTOR_SIZE 32u
#define MEM_MAX_SECTORS 8u

/* Size of the control part of an interconnect packet (address, ids), as in
 * GPGPU-Sim: a read request is header only, a write carries its data. */
#define MEM_PACKET_HEADER_BYTES 8u

/* Flag bits. */
#define MEM_REQ_ATOMIC 0x01u   /* read-modify-write (counted as a write by nobody yet) */
#define MEM_REQ_REPLY  0x02u   /* travelling back towards the SM */
#define MEM_REQ_PREFETCH 0x04u /* a cache's prefetcher asked for it (no requester waits) */

typedef struct mem_req {
    uint64_t addr;          /* byte address (caches use the line / sectors containing it) */
    uint64_t tag;           /* requester's cookie, copied through untouched */
    uint64_t issue_cycle;   /* core cycle the request left the SM (latency statistics) */
    uint32_t pc;            /* PC of the instruction that made it (policies use it) */
    uint16_t size;          /* bytes of data moved (write data, or read data returned) */
    uint16_t sm;            /* requesting SM (routes the reply) */
    uint16_t warp;          /* requesting warp, SM-local id */
    uint8_t  type;          /* mem_access_type */
    uint8_t  sector_mask;   /* sectors of the line touched; never 0 */
    uint8_t  flags;         /* MEM_REQ_* */
    uint8_t  hint;          /* CACHE_HINT_* bits a cache policy put on its answer
                               (cache.h); copied through like tag */
    uint8_t  sigma;         /* the requesting warp's latency tolerance at issue, 0..100
                               (docs/wsmp.md; 100 = no lane waits on memory) */
    uint8_t  mshr[1];       /* a fetch: the MSHR entry (mod 256) its cache opened for it,
                               so that the fill answering it finds the entry without
                               a search; only a hint (the cache checks it), copied
                               through like tag.  (An array of one: as a plain
                               field, GCC's scalar replacement split copies of a
                               request into per-field moves, +0.5% instructions.) */
} mem_req;

static inline bool mem_access_is_write(uint8_t type) {
    return type == MEM_GLOBAL_ACC_W || type == MEM_LOCAL_ACC_W ||
           type == MEM_L1_WRBK_ACC || type == MEM_L2_WRBK_ACC;
}

static inline bool mem_access_is_writeback(uint8_t type) {
    return type == MEM_L1_WRBK_ACC || type == MEM_L2_WRBK_ACC;
}

static inline bool mem_access_is_local(uint8_t type) {
    return type == MEM_LOCAL_ACC_R || type == MEM_LOCAL_ACC_W;
}

/* GPGPU-Sim's spelling of each access type ("GLOBAL_ACC_R", ...). */
const char *mem_access_type_name(uint8_t type);

/* Sector mask of the bytes [addr, addr + size) inside the line of line_size
 * bytes that contains addr (bytes past the end of the line are ignored; size 0
 * counts as 1; sectors past the 8th are left out).  Inline and without a loop:
 * the LD/ST unit calls it for every lane of every global access. */
static inline uint8_t mem_sector_mask(uint64_t addr, uint32_t size, uint32_t line_size) {
    if (size == 0) size = 1;
    /* line sizes are powers of two (cache_geom checks it); others divide */
    uint32_t first = (uint32_t)((line_size & (line_size - 1)) ? addr % line_size : addr & (line_size - 1));
    uint32_t last = first + size - 1;
    if (last >= line_size || last < first) last = line_size - 1;
    uint32_t s0 = first / MEM_SECTOR_SIZE, s1 = last / MEM_SECTOR_SIZE;
    if (s0 >= MEM_MAX_SECTORS) return 0;
    if (s1 >= MEM_MAX_SECTORS) s1 = MEM_MAX_SECTORS - 1;
    return (uint8_t)(((2u << s1) - 1) & ~((1u << s0) - 1));   /* sectors s0 .. s1 */
}

/* sector_mask counts from the sector that holds addr: bit i is the 32 B sector
 * at (addr rounded down to 32 B) + 32 i.  Requests made for a line carry the
 * line's address, so there it is the line's own sector mask; a cache with
 * longer lines than the requester (a 64 B constant-cache line inside a 128 B
 * L2 line) or a per-sector request sees it shifted into place by this. */
static inline uint8_t mem_line_mask(const mem_req *r, uint32_t line_size) {
    uint32_t shift = (uint32_t)(r->addr & (line_size - 1)) / MEM_SECTOR_SIZE;
    uint32_t full = (1u << (line_size / MEM_SECTOR_SIZE)) - 1;
    return (uint8_t)(((uint32_t)r->sector_mask << shift) & full);
}

/* Number of sectors set in a mask.  SWAR on the byte: the build targets
 * baseline x86-64, where __builtin_popcount is a libgcc call, and this sits in
 * every memory request's path. */
static inline uint32_t mem_sector_count(uint8_t mask) {
    uint32_t m = mask;
    m = m - ((m >> 1) & 0x55u);
    m = (m & 0x33u) + ((m >> 2) & 0x33u);
    return (m + (m >> 4)) & 0x0fu;
}

/* Bytes an interconnect packet for this request occupies: requests carry write
 * data, replies carry read data; everything has a header. */
uint32_t mem_packet_bytes(const mem_req *r);

#endif
