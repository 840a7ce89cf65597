/* Fatbinary parsing: see fatbin.h for the layout. */
#include "fatbin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FATBIN_HEADER_SIZE 16u
#define ENTRY_MIN_HEADER 0x40u

/* Little-endian field readers (the host and the fatbin are both little-endian;
 * memcpy keeps unaligned reads defined). */
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, sizeof v); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, sizeof v); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, sizeof v); return v; }

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

const void *fatbin_from_wrapper(const void *wrapper, unsigned *version_out, char *err, size_t errlen) {
    if (!wrapper) {
        fail(err, errlen, "fatbinary wrapper is NULL");
        return NULL;
    }
    const uint8_t *w = wrapper;
    uint32_t magic = rd32(w), version = rd32(w + 4);
    if (magic != FATBIN_WRAPPER_MAGIC) {
        fail(err, errlen, "fatbinary wrapper: magic 0x%08x, expected 0x%08x", magic, FATBIN_WRAPPER_MAGIC);
        return NULL;
    }
    /* Version 1 is what each translation unit registers; version 2 (relocatable
     * device code linking) also points at its fatbin in the same field. */
    if (version != 1 && version != 2) {
        fail(err, errlen, "fatbinary wrapper: version %u, expected 1 or 2", version);
        return NULL;
    }
    *version_out = version;
    const void *blob = (const void *)(uintptr_t)rd64(w + 8);
    if (!blob) fail(err, errlen, "fatbinary wrapper: NULL fatbin pointer");
    return blob;
}

/* Decode one entry header at p (avail bytes left in the fatbin). Returns the entry's
 * total size (header + payload) or 0 on error. */
static uint64_t parse_entry(const uint8_t *p, uint64_t avail, fatbin_entry *e, char *err, size_t errlen) {
    if (avail < ENTRY_MIN_HEADER) {
        fail(err, errlen, "fatbin entry header truncated: %llu bytes left, expected at least %u",
             (unsigned long long)avail, ENTRY_MIN_HEADER);
        return 0;
    }
    uint32_t hdr = rd32(p + 4);
    uint64_t payload = rd64(p + 8);
    if (hdr < ENTRY_MIN_HEADER || hdr > avail) {
        fail(err, errlen, "fatbin entry header size %u, expected %u..%llu", hdr, ENTRY_MIN_HEADER,
             (unsigned long long)avail);
        return 0;
    }
    if (payload > avail - hdr) {
        fail(err, errlen, "fatbin entry payload of %llu bytes overruns the fatbin (%llu bytes left)",
             (unsigned long long)payload, (unsigned long long)(avail - hdr));
        return 0;
    }
    e->kind = rd16(p);
    e->ver_minor = rd16(p + 0x18);
    e->ver_major = rd16(p + 0x1a);
    e->sm = rd32(p + 0x1c);
    e->flags = rd32(p + 0x28);
    e->uncompressed_size = rd64(p + 0x38);
    e->payload = p + hdr;
    e->payload_size = payload;
    return hdr + payload;
}

int fatbin_parse(const void *blob, size_t avail, fatbin_info *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!blob) return fail(err, errlen, "fatbin pointer is NULL");
    if (avail < FATBIN_HEADER_SIZE)
        return fail(err, errlen, "fatbin truncated: %zu bytes, expected a %u-byte header", avail, FATBIN_HEADER_SIZE);
    const uint8_t *b = blob;
    uint32_t magic = rd32(b);
    uint16_t hdr = rd16(b + 6);
    uint64_t size = rd64(b + 8);
    if (magic != FATBIN_MAGIC) return fail(err, errlen, "fatbin magic 0x%08x, expected 0x%08x", magic, FATBIN_MAGIC);
    if (hdr < FATBIN_HEADER_SIZE || hdr > avail)
        return fail(err, errlen, "fatbin header size %u, expected %u..%zu", hdr, FATBIN_HEADER_SIZE, avail);
    if (size > avail - hdr)
        return fail(err, errlen, "fatbin says %llu bytes of entries, only %zu available", (unsigned long long)size,
                    avail - hdr);
    out->total_size = hdr + size;
    const uint8_t *p = b + hdr;
    uint64_t left = size;
    while (left > 0) {
        if (out->count == FATBIN_MAX_ENTRIES)
            return fail(err, errlen, "fatbin has more than %d entries", FATBIN_MAX_ENTRIES);
        uint64_t used = parse_entry(p, left, &out->entries[out->count], err, errlen);
        if (used == 0) return -1;
        out->count++;
        p += used;
        left -= used;
    }
    return 0;
}

int fatbin_pick_ptx(const fatbin_info *info) {
    int best = -1;
    for (int i = 0; i < info->count; i++) {
        const fatbin_entry *e = &info->entries[i];
        if (e->kind != FATBIN_KIND_PTX) continue;
        if (best < 0 || e->sm < info->entries[best].sm) best = i;
    }
    return best;
}

int fatbin_count_kind(const fatbin_info *info, uint16_t kind) {
    int n = 0;
    for (int i = 0; i < info->count; i++) n += info->entries[i].kind == kind;
    return n;
}

/* Copy n bytes of text into a fresh NUL-terminated buffer, cut at the first NUL
 * (payloads are padded with zeros). */
static char *dup_text(const uint8_t *src, size_t n, size_t *len) {
    size_t used = strnlen((const char *)src, n);
    char *s = malloc(used + 1);
    if (!s) return NULL;
    memcpy(s, src, used);
    s[used] = 0;
    *len = used;
    return s;
}

/* Largest PTX text (or cubin) we decompress: the biggest real programs' PTX is tens of MB. */
#define PTX_MAX_BYTES (256u << 20)

static const char *kind_name(const fatbin_entry *e) { return e->kind == FATBIN_KIND_CUBIN ? "cubin" : "PTX"; }

/* Decompress one zstd frame with a buffer that grows with the output actually
 * produced: the sizes the frame and the entry header declare are hints only, so a
 * corrupted size costs nothing (a header claiming 4 GB once made us allocate 4 GB). */
static uint8_t *zstd_stream(const fatbin_entry *e, size_t frame, size_t hint, size_t *got, char *err, size_t errlen) {
    ZSTD_DStream *ds = ZSTD_createDStream();
    size_t cap = hint < 4096 ? 4096 : hint;
    if (cap > 64 * (size_t)frame + 65536) cap = 64 * (size_t)frame + 65536;
    if (cap > PTX_MAX_BYTES) cap = PTX_MAX_BYTES;
    uint8_t *buf = malloc(cap);
    if (!ds || !buf) {
        fail(err, errlen, "out of memory decompressing %s", kind_name(e));
        goto bad;
    }
    ZSTD_initDStream(ds);
    ZSTD_inBuffer in = {e->payload, frame, 0};
    ZSTD_outBuffer out = {buf, cap, 0};
    for (;;) {
        size_t r = ZSTD_decompressStream(ds, &out, &in);
        if (ZSTD_isError(r)) {
            fail(err, errlen, "compressed %s (sm_%u): zstd says %s", kind_name(e), e->sm, ZSTD_getErrorName(r));
            goto bad;
        }
        if (r == 0) break;  /* frame complete */
        if (out.pos < out.size && in.pos == in.size) {
            fail(err, errlen, "compressed %s (sm_%u): the zstd frame is truncated", kind_name(e), e->sm);
            goto bad;
        }
        if (out.pos == out.size) {
            if (cap == PTX_MAX_BYTES) {
                fail(err, errlen, "compressed %s (sm_%u) decompresses to more than %u MiB", kind_name(e), e->sm,
                     PTX_MAX_BYTES >> 20);
                goto bad;
            }
            cap = cap > PTX_MAX_BYTES / 2 ? PTX_MAX_BYTES : cap * 2;
            uint8_t *grown = realloc(buf, cap);
            if (!grown) {
                fail(err, errlen, "out of memory decompressing %s", kind_name(e));
                goto bad;
            }
            buf = out.dst = grown;
            out.size = cap;
        }
    }
    ZSTD_freeDStream(ds);
    *got = out.pos;
    return buf;
bad:
    ZSTD_freeDStream(ds);
    free(buf);
    return NULL;
}

/* The decompressed bytes of a zstd-compressed entry (malloc'd, *got of them). */
static uint8_t *decompress_zstd(const fatbin_entry *e, size_t *got, char *err, size_t errlen) {
    size_t frame = ZSTD_findFrameCompressedSize(e->payload, e->payload_size);
    if (ZSTD_isError(frame)) {
        fail(err, errlen, "compressed %s (sm_%u): not a valid zstd frame (%s)", kind_name(e), e->sm,
             ZSTD_getErrorName(frame));
        return NULL;
    }
    unsigned long long declared = ZSTD_getFrameContentSize(e->payload, frame);
    int known = declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR;
    if (!known) declared = e->uncompressed_size;
    *got = 0;
    uint8_t *buf = zstd_stream(e, frame, declared < PTX_MAX_BYTES ? (size_t)declared : PTX_MAX_BYTES, got, err,
                               errlen);
    if (!buf) return NULL;
    if (known && *got != declared) {
        fail(err, errlen, "compressed %s (sm_%u): the zstd frame declares %llu bytes but holds %zu", kind_name(e),
             e->sm, declared, *got);
        free(buf);
        return NULL;
    }
    return buf;
}

static int is_zstd_entry(const fatbin_entry *e) {
    static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    return (e->flags & FATBIN_FLAG_ZSTD) || (e->payload_size >= 4 && memcmp(e->payload, zstd_magic, 4) == 0);
}

char *fatbin_ptx_text(const fatbin_entry *e, size_t *len, char *err, size_t errlen) {
    if (e->kind != FATBIN_KIND_PTX) {
        fail(err, errlen, "fatbin entry of kind %u is not PTX", e->kind);
        return NULL;
    }
    if (is_zstd_entry(e)) {
        size_t got;
        uint8_t *buf = decompress_zstd(e, &got, err, errlen);
        if (!buf) return NULL;
        char *text = dup_text(buf, got, len);
        free(buf);
        if (!text) fail(err, errlen, "out of memory copying PTX");
        return text;
    }
    if (e->flags & FATBIN_FLAG_LZ) {
        fail(err, errlen, "PTX (sm_%u) uses an older nvcc's fatbin compression, which locsim cannot read; "
             "rebuild with nvcc 13 or add --no-compress", e->sm);
        return NULL;
    }
    char *text = dup_text(e->payload, e->payload_size, len);
    if (!text) fail(err, errlen, "out of memory copying PTX");
    return text;
}

int fatbin_find_cubin(const fatbin_info *info, uint32_t sm) {
    for (int i = 0; i < info->count; i++)
        if (info->entries[i].kind == FATBIN_KIND_CUBIN && info->entries[i].sm == sm) return i;
    return -1;
}

uint8_t *fatbin_cubin_image(const fatbin_entry *e, size_t *len, char *err, size_t errlen) {
    if (e->kind != FATBIN_KIND_CUBIN) {
        fail(err, errlen, "fatbin entry of kind %u is not a cubin", e->kind);
        return NULL;
    }
    if (is_zstd_entry(e)) return decompress_zstd(e, len, err, errlen);
    if (e->flags & FATBIN_FLAG_LZ) {
        fail(err, errlen, "cubin (sm_%u) uses an older nvcc's fatbin compression, which locsim cannot read", e->sm);
        return NULL;
    }
    uint8_t *copy = malloc(e->payload_size ? e->payload_size : 1);
    if (!copy) {
        fail(err, errlen, "out of memory copying a cubin");
        return NULL;
    }
    memcpy(copy, e->payload, e->payload_size);
    *len = e->payload_size;
    return copy;
}
