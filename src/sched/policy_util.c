/* Small helpers shared by the warp-scheduler policies. */
#include <string.h>

#include "sched/sched.h"

int sched_oldest_in(const sched_view *v, warp_mask m) {
    if (v->age_groups) {
        m &= v->live;
        for (uint32_t g = 0; g < v->ngroups; g++)
            if (m & v->age_groups[g]) return __builtin_ctzll(m & v->age_groups[g]);
        return -1;
    }
    for (uint32_t i = 0; i < v->nlive; i++)
        if (sched_mask_has(m, v->age_order[i])) return v->age_order[i];
    return -1;
}

int sched_greedy_in(const sched_view *v, warp_mask m, int last) {
    return last >= 0 && sched_mask_has(m, (uint32_t)last) ? last : sched_oldest_in(v, m);
}

void sched_forget_warp(int *last, uint32_t n, uint32_t w) {
    for (uint32_t i = 0; i < n; i++)
        if (last[i] == (int)w) last[i] = -1;
}

int sched_next_after(warp_mask m, int last) {
    if (!m) return -1;
    /* Warps strictly after `last` first, then wrap around to the lowest. */
    uint32_t start = last < 0 ? 0 : (uint32_t)last + 1;
    warp_mask after = start >= 64 ? 0 : m & (~(warp_mask)0 << start);
    return __builtin_ctzll(after ? after : m);
}

int sched_split_args(const char *args, char *buf, size_t bufsz, char **fields, int max) {
    if (!args || !*args || bufsz == 0) return 0;
    size_t len = strlen(args);
    if (len >= bufsz) len = bufsz - 1;
    memcpy(buf, args, len);
    buf[len] = '\0';
    int n = 0;
    char *p = buf;
    while (n < max) {
        fields[n++] = p;
        char *colon = strchr(p, ':');
        if (!colon) break;
        *colon = '\0';
        p = colon + 1;
    }
    return n;
}
