/* The replacement-policy registry: a new policy is one file in this directory
 * plus one line in each list below. */
#include <string.h>

#include "mem/cache.h"

extern const cache_policy_ops cache_policy_lru;
extern const cache_policy_ops cache_policy_fifo;
extern const cache_policy_ops cache_policy_lpc;
extern const cache_policy_ops cache_policy_sharing;
extern const cache_policy_ops cache_policy_ldesc;

static const cache_policy_ops *const policies[] = {
    &cache_policy_lru,
    &cache_policy_fifo,
    &cache_policy_lpc,
    &cache_policy_sharing,
    &cache_policy_ldesc,
};

const cache_policy_ops *cache_policy_find(const char *name) {
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i]->name, name) == 0) return policies[i];
    return NULL;
}

const cache_policy_ops *cache_policy_at(uint32_t i) {
    return i < sizeof policies / sizeof policies[0] ? policies[i] : NULL;
}
