/* Per-PC stride prefetching (ChampSim's ip_stride; Fu, Patel and Janssens,
 * MICRO 1992).  A direct-mapped table of -stride_entries entries indexed by the
 * load's PC keeps the last line address and the last stride (in lines) seen by
 * that PC.  When an access repeats the entry's stride (non-zero), the
 * -stride_degree lines at 1, 2, .. degree strides ahead are asked for.  On a
 * GPU one PC is shared by every warp, so the stride learnt is the one between
 * consecutive accesses of the PC in arrival order, whatever the warp. */
#include <stdio.h>
#include <stdlib.h>

#include "mem/mem_req.h"
#include "mem/prefetch/prefetch.h"

typedef struct {
    uint32_t pc;
    uint8_t valid;
    int64_t last_line;
    int64_t stride;
} stride_entry;

typedef struct {
    uint32_t line_shift, mask, degree;
    stride_entry *t;
    uint64_t trained, confirmed;
} stride_pf;

static uint32_t log2_u32(uint32_t v) {
    uint32_t b = 0;
    while ((1u << b) < v) b++;
    return b;
}

static void *st_create(const prefetch_config *cfg, char *err, size_t errlen) {
    if (!cfg->stride_entries || (cfg->stride_entries & (cfg->stride_entries - 1))) {
        snprintf(err, errlen, "-stride_entries %u: expected a power of two", cfg->stride_entries);
        return NULL;
    }
    stride_pf *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->t = calloc(cfg->stride_entries, sizeof *s->t);
    if (!s->t) {
        free(s);
        return NULL;
    }
    s->line_shift = log2_u32(cfg->line_size);
    s->mask = cfg->stride_entries - 1;
    s->degree = cfg->stride_degree < PREFETCH_MAX_CANDIDATES ? cfg->stride_degree : PREFETCH_MAX_CANDIDATES;
    return s;
}

static void st_destroy(void *st) {
    stride_pf *s = st;
    if (s) free(s->t);
    free(s);
}

/* PCs are byte offsets of instructions: fold the low bits away a little. */
static uint32_t pc_index(const stride_pf *s, uint32_t pc) { return (pc ^ (pc >> 7) ^ (pc >> 14)) & s->mask; }

static uint32_t st_access(void *st, const prefetch_access *a, uint64_t now, uint64_t *out, uint32_t cap) {
    (void)now;
    stride_pf *s = st;
    stride_entry *e = &s->t[pc_index(s, a->pc)];
    int64_t line = (int64_t)(a->addr >> s->line_shift);
    if (!e->valid || e->pc != a->pc) {   /* a new PC takes the entry */
        e->valid = 1;
        e->pc = a->pc;
        e->last_line = line;
        e->stride = 0;
        return 0;
    }
    int64_t stride = line - e->last_line;
    if (stride == 0) return 0;           /* same line again: nothing learnt */
    uint32_t k = 0;
    s->trained++;
    if (stride == e->stride) {
        s->confirmed++;
        for (uint32_t i = 1; i <= s->degree && k < cap; i++) {
            int64_t target = line + stride * (int64_t)i;
            if (target < 0) break;
            out[k++] = (uint64_t)target << s->line_shift;
        }
    }
    e->last_line = line;
    e->stride = stride;
    return k;
}

static void st_report(const void *st, void (*emit)(void *ctx, const char *name, double value), void *ctx) {
    const stride_pf *s = st;
    emit(ctx, "stride_updates", (double)s->trained);
    emit(ctx, "stride_confirmed", (double)s->confirmed);
}

static const prefetch_stat_def st_stats[] = {
    {"stride_updates", NULL, NULL, 0, "accesses that found a non-zero stride for their PC"},
    {"stride_confirmed", NULL, NULL, 0, "of those, accesses that repeated the PC's last stride (and prefetched)"},
    {NULL, NULL, NULL, 0, NULL},
};

const prefetch_ops prefetch_stride = {
    .name = "stride",
    .help = "per-PC stride table (-stride_entries); -stride_degree strides ahead once a stride repeats (ChampSim ip_stride)",
    .create = st_create,
    .destroy = st_destroy,
    .on_access = st_access,
    .report = st_report,
    .stats = st_stats,
};
