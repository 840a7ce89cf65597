/* Next-line prefetching (ChampSim's next_line): every demand read asks for the
 * -nextline_degree lines that follow the accessed one, hit or miss. */
#include <stdlib.h>

#include "mem/mem_req.h"
#include "mem/prefetch/prefetch.h"

typedef struct {
    uint32_t line, degree;
} nextline;

static void *nl_create(const prefetch_config *cfg, char *err, size_t errlen) {
    (void)err;
    (void)errlen;
    nextline *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->line = cfg->line_size;
    n->degree = cfg->nextline_degree < PREFETCH_MAX_CANDIDATES ? cfg->nextline_degree : PREFETCH_MAX_CANDIDATES;
    return n;
}

static uint32_t nl_access(void *st, const prefetch_access *a, uint64_t now, uint64_t *out, uint32_t cap) {
    (void)now;
    const nextline *n = st;
    uint64_t base = a->addr & ~(uint64_t)(n->line - 1);
    uint32_t k = 0;
    for (uint32_t i = 1; i <= n->degree && k < cap; i++) out[k++] = base + (uint64_t)i * n->line;
    return k;
}

const prefetch_ops prefetch_nextline = {
    .name = "nextline",
    .help = "the -nextline_degree lines after each demand read (ChampSim next_line)",
    .create = nl_create,
    .destroy = free,
    .on_access = nl_access,
};
