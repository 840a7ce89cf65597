/* Placement 'xor' (the Locality Descriptor paper's NUMA baseline, §6.2): every
 * 128 B line goes to the zone given by XOR-folding its line address, so data is
 * spread finely and evenly over the zones whatever the program does.  CTAs are
 * left to the configured CTA scheduler. */
#include <stdio.h>
#include <stdlib.h>

#include "numa/numa.h"

typedef struct {
    uint32_t zone_bits;
} xor_state;

static void *xor_create(const numa_geom *g, char *err, size_t errlen) {
    xor_state *s = malloc(sizeof *s);
    if (!s) snprintf(err, errlen, "out of memory");
    else s->zone_bits = g->zone_bits;
    return s;
}

static void xor_destroy(void *st) { free(st); }

static uint32_t xor_zone_of(void *st, uint64_t addr, uint32_t from, int touch, uint64_t *local) {
    (void)from;
    (void)touch;
    const xor_state *s = st;
    *local = numa_squeeze(addr, 7, s->zone_bits);
    return numa_xor_zone(addr, s->zone_bits);
}

const numa_place_ops numa_place_xor = {
    .name = "xor",
    .help = "fine-grained interleaving: zone = XOR-fold of the 128 B line address (the paper's baseline)",
    .create = xor_create,
    .destroy = xor_destroy,
    .zone_of = xor_zone_of,
};
