/* The prefetcher registry: a new prefetcher is one file in src/mem/prefetch/
 * plus one line in the list below. */
#include <string.h>

#include "mem/prefetch/prefetch.h"

extern const prefetch_ops prefetch_nextline;
extern const prefetch_ops prefetch_stride;
extern const prefetch_ops prefetch_ldesc;
extern const prefetch_ops prefetch_spp;
extern const prefetch_ops prefetch_spp_ppf;

static const prefetch_ops *const prefetchers[] = {
    &prefetch_nextline,
    &prefetch_stride,
    &prefetch_ldesc,
    &prefetch_spp,
    &prefetch_spp_ppf,
};

const prefetch_ops *prefetch_find(const char *name) {
    for (size_t i = 0; i < sizeof prefetchers / sizeof prefetchers[0]; i++)
        if (strcmp(prefetchers[i]->name, name) == 0) return prefetchers[i];
    return NULL;
}

const prefetch_ops *prefetch_at(uint32_t i) {
    return i < sizeof prefetchers / sizeof prefetchers[0] ? prefetchers[i] : NULL;
}
