/* Statistics of a multi-module GPU (docs/numa.md), defined only when
 * -numa_n_modules > 1 (a single-module run's statistics are unchanged):
 *   numa_local_accesses, numa_remote_accesses   SM requests by where their L2 slice is
 *   numa_access_efficiency                      local / all (the paper's Figure 18)
 *   numa_zone<z>_accesses, _access_share        requests to zone z's slices, and share (Figure 19)
 *   numa_zone<z>_dram_bytes, _dram_bytes_per_cycle   DRAM traffic of zone z's channels, per core cycle
 *   numa_link_packets, numa_link_bytes          packets/bytes that crossed a link (requests + replies)
 *   numa_link_send_stalls                       pushes a full link refused
 *   numa_link_capacity_bytes, numa_link_utilisation   what the links could carry; bytes / capacity
 *   numa_partitioned_kernels                    launches whose grid the placement partitioned
 *   numa_stolen_ctas                            CTAs of a partitioned grid run outside their zone (-numa_cta_steal) */
#include <math.h>
#include <stdio.h>

#include "sim/timing.h"

int timing_numa_stats_define(timing_state *t) {
    timing_stat_ids *d = &t->ids;
    stats *s = t->stats;
    const numa *n = gpu_numa(t->g);
    d->numa_on = 0;
    if (!n) return 0;
    int ok = 1;
    char name[64];
#define C(id, nm, flags, help) ok &= ((id) = stats_define_counter(s, nm, NULL, flags, help)) >= 0
    C(d->numa_local, "numa_local_accesses", 0, "SM requests to an L2 slice of their own module");
    C(d->numa_remote, "numa_remote_accesses", 0, "SM requests to another module's L2 slice (cross a link both ways)");
    if (!ok) return -1;
    int terms[2] = {d->numa_local, d->numa_remote};
    d->numa_all = stats_define_sum(s, "numa_accesses", terms, 2, STAT_DETAIL, "local + remote requests");
    d->numa_eff = d->numa_all < 0 ? -1
                                  : stats_define_ratio(s, "numa_access_efficiency", NULL, d->numa_local, d->numa_all,
                                                       1.0, 0, "local / all requests (access efficiency)");
    if (d->numa_eff < 0) return -1;
    for (uint32_t z = 0; z < numa_modules(n); z++) {
        snprintf(name, sizeof name, "numa_zone%u_accesses", z);
        C(d->numa_zone[z], name, STAT_DETAIL, "requests to this zone's L2 slices");
        snprintf(name, sizeof name, "numa_zone%u_access_share", z);
        ok &= (d->numa_zone_share[z] = stats_define_ratio(s, name, NULL, d->numa_zone[z], d->numa_all, 1.0, 0,
                                                          "this zone's share of the requests (access distribution)")) >= 0;
        snprintf(name, sizeof name, "numa_zone%u_dram_bytes", z);
        C(d->numa_zone_dram[z], name, STAT_DETAIL, "bytes read and written by this zone's DRAM channels");
        snprintf(name, sizeof name, "numa_zone%u_dram_bytes_per_cycle", z);
        ok &= (d->numa_zone_bw[z] = stats_define_ratio(s, name, NULL, d->numa_zone_dram[z], d->gpu.cycle, 1.0, 0,
                                                       "this zone's DRAM bandwidth, bytes per core cycle")) >= 0;
    }
    C(d->numa_link_packets, "numa_link_packets", STAT_DETAIL, "packets that crossed an inter-module link");
    C(d->numa_link_bytes, "numa_link_bytes", 0, "bytes that crossed an inter-module link (requests and replies)");
    C(d->numa_link_stalls, "numa_link_send_stalls", STAT_DETAIL, "pushes refused by a full link queue");
    C(d->numa_link_cap, "numa_link_capacity_bytes", STAT_DETAIL,
      "bytes the links could have carried: links x interconnect cycles x bytes per cycle");
    C(d->numa_parts, "numa_partitioned_kernels", STAT_DETAIL, "launches whose CTAs the placement partitioned");
    C(d->numa_stolen, "numa_stolen_ctas", STAT_DETAIL,
      "CTAs of a partitioned grid run by an SM of another zone (-numa_cta_steal)");
#undef C
    if (!ok) return -1;
    d->numa_link_util = stats_define_ratio(s, "numa_link_utilisation", NULL, d->numa_link_bytes, d->numa_link_cap, 1.0,
                                           0, "link bytes / link capacity");
    if (d->numa_link_util < 0) return -1;
    d->numa_on = 1;
    return 0;
}

void timing_numa_stats_collect(timing_state *t) {
    const timing_stat_ids *d = &t->ids;
    if (!d->numa_on) return;
    const numa *n = gpu_numa(t->g);
    stats *s = t->stats;
    const numa_counters *c = numa_stats(n);
    stats_add(s, d->numa_local, c->local);
    stats_add(s, d->numa_remote, c->remote);
    uint64_t zone_dram[NUMA_MAX_MODULES] = {0};
    for (uint32_t i = 0; i < gpu_num_partitions(t->g); i++) {
        const dram_counters *k = dram_stats(partition_dram(gpu_partition(t->g, i)));
        zone_dram[i / (gpu_num_partitions(t->g) / numa_modules(n))] += k->read_bytes + k->write_bytes;
    }
    for (uint32_t z = 0; z < numa_modules(n); z++) {
        stats_add(s, d->numa_zone[z], c->zone_accesses[z]);
        stats_add(s, d->numa_zone_dram[z], zone_dram[z]);
    }
    stats_add(s, d->numa_link_packets, c->link_packets);
    stats_add(s, d->numa_link_bytes, c->link_bytes);
    stats_add(s, d->numa_link_stalls, c->link_send_stalls);
    stats_add(s, d->numa_link_cap,
              (uint64_t)llround((double)c->link_cycles * numa_n_links(n) * numa_link_bytes_per_cycle(n)));
    stats_add(s, d->numa_parts, c->partitioned_kernels);
    stats_add(s, d->numa_stolen, c->stolen_ctas);
}
