/* Parser for GPGPU-Sim's cache configuration strings, e.g.
 *   N:32:128:4,L:L:m:N:H,A:32:8,8        (Fermi L1D: 16 KB, 4-way, 128 B lines)
 *   N:64:128:8,L:B:m:W:L,A:32:4,4:0,32   (one GTX480 L2 slice)
 * Every field is checked; an error says which field and what it accepts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"

#define MAX_GROUPS 5
#define MAX_FIELDS 6

typedef struct {
    char buf[160];
    char *group[MAX_GROUPS][MAX_FIELDS];
    int nfields[MAX_GROUPS];
    int ngroups;
} split_text;

static int fail(char *err, size_t errlen, const char *text, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, const char *text, const char *fmt, ...) {
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (err && errlen) snprintf(err, errlen, "bad cache configuration '%s': %s", text, what);
    return -1;
}

/* Split on ',' then ':' in place; whitespace is not allowed inside the string. */
static int split(const char *text, split_text *s) {
    memset(s, 0, sizeof *s);
    if (strlen(text) >= sizeof s->buf) return -1;
    strcpy(s->buf, text);
    char *p = s->buf;
    s->ngroups = 0;
    while (p) {
        if (s->ngroups == MAX_GROUPS) return -1;
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        int g = s->ngroups++;
        char *q = p;
        while (q) {
            if (s->nfields[g] == MAX_FIELDS) return -1;
            char *colon = strchr(q, ':');
            if (colon) *colon = '\0';
            s->group[g][s->nfields[g]++] = q;
            q = colon ? colon + 1 : NULL;
        }
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

/* A decimal unsigned number in [lo, hi]. */
static int parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    errno = 0;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = (uint32_t)v;
    return 0;
}

static bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

static int letter(const char *field, const char *allowed, char *out) {
    if (!field || strlen(field) != 1 || !strchr(allowed, field[0])) return -1;
    *out = field[0];
    return 0;
}

static int parse_shape(const split_text *s, const char *text, cache_geometry *g, char *err, size_t errlen) {
    char *const *f = s->group[0];
    int n = s->nfields[0];
    int first = 0;
    if (n == 4) {
        char kind;
        if (letter(f[0], "NS", &kind))
            return fail(err, errlen, text, "first field '%s' must be N (normal) or S (sectored)", f[0]);
        g->sectored = kind == 'S';
        first = 1;
    } else if (n != 3) {
        return fail(err, errlen, text, "first group must be [N|S:]<sets>:<line bytes>:<assoc>");
    }
    if (parse_u32(f[first], 1, 1u << 20, &g->nsets))
        return fail(err, errlen, text, "number of sets '%s' must be an integer in [1, 1048576]", f[first]);
    if (parse_u32(f[first + 1], 32, 256, &g->line_size) || !is_pow2(g->line_size))
        return fail(err, errlen, text, "line size '%s' must be a power of two in [32, 256] bytes", f[first + 1]);
    if (parse_u32(f[first + 2], 1, CACHE_MAX_ASSOC, &g->assoc))
        return fail(err, errlen, text, "associativity '%s' must be an integer in [1, 64]", f[first + 2]);
    return 0;
}

static uint8_t write_policy_of(char c) {
    switch (c) {
    case 'B': return CACHE_WRITE_BACK;
    case 'T': return CACHE_WRITE_THROUGH;
    case 'E': return CACHE_WRITE_EVICT;
    default: return CACHE_WRITE_READ_ONLY;
    }
}

static int parse_policies(const split_text *s, const char *text, cache_geometry *g, char *err, size_t errlen) {
    char *const *f = s->group[1];
    int n = s->nfields[1];
    if (n != 4 && n != 5)
        return fail(err, errlen, text, "second group must be <repl>:<write>:<alloc>:<write alloc>[:<index>]");
    char wr, alloc, walloc, idx = 'L';
    if (letter(f[0], "LF", &g->repl))
        return fail(err, errlen, text, "replacement '%s' must be L (LRU) or F (FIFO)", f[0]);
    snprintf(g->policy, sizeof g->policy, "%s", g->repl == 'L' ? "lru" : "fifo");
    if (letter(f[1], "RBTEL", &wr))
        return fail(err, errlen, text,
                    "write policy '%s' must be R (read-only), B (write-back), T (write-through), "
                    "E (write-evict) or L (local write-back, global write-through)", f[1]);
    if (wr == 'L') {
        g->write_local = CACHE_WRITE_BACK;
        g->write_global = CACHE_WRITE_THROUGH;
    } else {
        g->write_local = g->write_global = write_policy_of(wr);
    }
    if (letter(f[2], "mf", &alloc))
        return fail(err, errlen, text, "allocation policy '%s' must be m (on miss) or f (on fill)", f[2]);
    g->alloc = alloc == 'm' ? CACHE_ALLOC_ON_MISS : CACHE_ALLOC_ON_FILL;
    if (letter(f[3], "NWFL", &walloc))
        return fail(err, errlen, text,
                    "write-allocate policy '%s' must be N (no allocate), W (allocate), "
                    "F (fetch on write) or L (lazy fetch on read)", f[3]);
    g->write_alloc = walloc == 'N' ? CACHE_NO_WRITE_ALLOCATE
                     : walloc == 'F' ? CACHE_FETCH_ON_WRITE : CACHE_WRITE_ALLOCATE;
    if (n == 5 && letter(f[4], "LHP", &idx))
        return fail(err, errlen, text, "set index function '%s' must be L (linear), H (XOR hash) or P (IPOLY)",
                    f[4]);
    g->index = idx == 'H' ? CACHE_INDEX_XOR : idx == 'P' ? CACHE_INDEX_IPOLY : CACHE_INDEX_LINEAR;
    if (g->index == CACHE_INDEX_IPOLY && g->nsets != 16 && g->nsets != 32 && g->nsets != 64)
        return fail(err, errlen, text, "the P (IPOLY) index function needs 16, 32 or 64 sets, not %u", g->nsets);
    if (g->index == CACHE_INDEX_XOR && !is_pow2(g->nsets))
        return fail(err, errlen, text, "the H index function needs a power-of-two number of sets, not %u",
                    g->nsets);
    return 0;
}

static int parse_mshr(const split_text *s, const char *text, cache_geometry *g, char *err, size_t errlen) {
    char *const *f = s->group[2];
    if (s->nfields[2] != 3)
        return fail(err, errlen, text, "third group must be <mshr type>:<entries>:<max merged requests>");
    if (letter(f[0], "ASFT", &g->mshr_kind))
        return fail(err, errlen, text, "MSHR type '%s' must be A (associative), S (sector), F or T (texture FIFO)",
                    f[0]);
    if (parse_u32(f[1], 1, 4096, &g->mshr_entries))
        return fail(err, errlen, text, "MSHR entries '%s' must be an integer in [1, 4096]", f[1]);
    if (parse_u32(f[2], 1, 256, &g->mshr_max_merge))
        return fail(err, errlen, text, "MSHR max merge '%s' must be an integer in [1, 256]", f[2]);
    return 0;
}

static int parse_queues(const split_text *s, const char *text, cache_geometry *g, char *err, size_t errlen) {
    char *const *f = s->group[3];
    int n = s->nfields[3];
    if (n < 1 || n > 2)
        return fail(err, errlen, text, "fourth group must be <miss queue entries>[:<result fifo entries>]");
    if (parse_u32(f[0], 1, 4096, &g->miss_queue_size))
        return fail(err, errlen, text, "miss queue size '%s' must be an integer in [1, 4096]", f[0]);
    if (n == 2 && parse_u32(f[1], 0, 4096, &g->result_fifo_size))
        return fail(err, errlen, text, "result FIFO size '%s' must be an integer in [0, 4096]", f[1]);
    if (s->ngroups == 5) {
        if (s->nfields[4] != 1 || parse_u32(s->group[4][0], 1, 4096, &g->data_port_width))
            return fail(err, errlen, text, "fifth group must be the data port width in bytes [1, 4096]");
    }
    return 0;
}

int cache_geometry_parse(const char *text, cache_geometry *g, char *err, size_t errlen) {
    split_text s;
    cache_geometry parsed;
    memset(&parsed, 0, sizeof parsed);
    if (!text || !*text) return fail(err, errlen, "", "empty string");
    for (const char *p = text; *p; p++)
        if (isspace((unsigned char)*p))
            return fail(err, errlen, text, "whitespace is not allowed inside a cache string");
    if (split(text, &s) != 0)
        return fail(err, errlen, text, "too long or too many fields");
    if (s.ngroups < 4)
        return fail(err, errlen, text,
                    "expected 4 or 5 comma-separated groups: <N|S>:<sets>:<line>:<assoc>, "
                    "<repl>:<wr>:<alloc>:<wr_alloc>:<idx>, <mshr>:<entries>:<merge>, <miss queue>");
    if (parse_shape(&s, text, &parsed, err, errlen) || parse_policies(&s, text, &parsed, err, errlen) ||
        parse_mshr(&s, text, &parsed, err, errlen) || parse_queues(&s, text, &parsed, err, errlen))
        return -1;
    /* A miss that evicts a dirty line queues its write-back and its fetch
     * together (cache.c, miss_fetch): with room for one request only, such a
     * miss is refused forever and the cache stalls everything behind it. */
    if ((parsed.write_global == CACHE_WRITE_BACK || parsed.write_local == CACHE_WRITE_BACK) &&
        parsed.miss_queue_size < 2)
        return fail(err, errlen, text,
                    "a write-back cache needs a miss queue of at least 2 entries (a miss that evicts a dirty line "
                    "queues the write-back and the fetch together; with 1 entry it could never be accepted)");
    snprintf(parsed.text, sizeof parsed.text, "%s", text);
    *g = parsed;
    return 0;
}
