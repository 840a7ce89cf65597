/* Reading the device code nvcc embeds in a host binary (the "fatbinary").
 *
 * Layout (CUDA 13, see shared/notes/ptx-nvcc13.md): __cudaRegisterFatBinary gets a
 * wrapper {u32 magic 0x466243b1, u32 version, u64 ptr -> fatbin, u64 ...}.  A fatbin
 * is a 16-byte header {u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of
 * the entries} followed by entries, each a header (its own size in the header) and a
 * payload: PTX text (plain, or a zstd frame when compressed) or a cubin ELF.
 *
 * Nothing here trusts the bytes: every size is checked against what is available,
 * and a bad blob gets a message saying what was expected.
 */
#ifndef LOCSIM_CUDART_FATBIN_H
#define LOCSIM_CUDART_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_KIND_PTX 1
#define FATBIN_KIND_CUBIN 2
#define FATBIN_FLAG_ZSTD 0x8000u     /* payload is a zstd frame */
#define FATBIN_FLAG_LZ 0x2000u       /* older nvcc's own compression: not supported */
#define FATBIN_MAX_ENTRIES 64

typedef struct {
    uint16_t kind;                /* FATBIN_KIND_PTX, FATBIN_KIND_CUBIN, other */
    uint16_t ver_major, ver_minor;/* PTX ISA version (9.0) or cubin format version */
    uint32_t sm;                  /* target: 75 for compute_75 / sm_75 */
    uint32_t flags;
    const uint8_t *payload;
    uint64_t payload_size;        /* bytes stored (padded) */
    uint64_t uncompressed_size;   /* 0 when not compressed */
} fatbin_entry;

typedef struct {
    fatbin_entry entries[FATBIN_MAX_ENTRIES];
    int count;
    uint64_t total_size;          /* header + entries: where the next fatbin may start */
} fatbin_info;

/* Parse one fatbin at blob with at most avail readable bytes (SIZE_MAX when the
 * extent is unknown, as for a pointer handed to us by the program).  Returns 0, or -1
 * with a message in err. */
int fatbin_parse(const void *blob, size_t avail, fatbin_info *out, char *err, size_t errlen);

/* The fatbin a __cudaRegisterFatBinary wrapper points at, and the wrapper's version
 * in *version (2: relocatable device code, whose per-file fatbins the device linker
 * would combine); NULL and a message on a bad wrapper. */
const void *fatbin_from_wrapper(const void *wrapper, unsigned *version, char *err, size_t errlen);

/* Index of the PTX entry to load: the one with the lowest target (the most widely
 * supported ISA), ties by position.  -1 when the fatbin holds no PTX. */
int fatbin_pick_ptx(const fatbin_info *info);

/* Number of cubin entries (to explain a missing PTX). */
int fatbin_count_kind(const fatbin_info *info, uint16_t kind);

/* The PTX text of an entry, decompressed when needed, as a malloc'd NUL-terminated
 * string (*len excludes the NUL and any padding).  NULL and a message on failure. */
char *fatbin_ptx_text(const fatbin_entry *e, size_t *len, char *err, size_t errlen);

/* Index of the cubin entry compiled for target sm (sm_75 beside compute_75 PTX, as
 * -arch=sm_75 embeds them), -1 if there is none. */
int fatbin_find_cubin(const fatbin_info *info, uint32_t sm);

/* The ELF image of a cubin entry, decompressed when needed, malloc'd (*len bytes,
 * padding included).  NULL and a message on failure. */
uint8_t *fatbin_cubin_image(const fatbin_entry *e, size_t *len, char *err, size_t errlen);

#endif
