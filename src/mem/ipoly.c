/* IPOLY index hashing (see ipoly.h). */
#include <string.h>

#include "mem/ipoly.h"

/* x^e mod p over GF(2), p of degree k (bit k set). */
static uint32_t xpow_mod(uint32_t e, uint32_t p, uint32_t k) {
    uint64_t v = 1;
    for (uint32_t i = 0; i < e; i++) {
        v <<= 1;
        if (v >> k & 1) v ^= p;
    }
    return (uint32_t)v;
}

int ipoly_init(ipoly *h, uint32_t n) {
    uint32_t k, p, nhigh;
    switch (n) {
    case 16: k = 4, p = 0x13, nhigh = 13; break;   /* x^4 + x + 1 */
    case 32: k = 5, p = 0x25, nhigh = 15; break;   /* x^5 + x^2 + 1 */
    case 64: k = 6, p = 0x43, nhigh = 19; break;   /* x^6 + x + 1 */
    default: return -1;
    }
    memset(h, 0, sizeof *h);
    h->n = n;
    h->high_mask = (1u << nhigh) - 1;
    uint32_t col[24] = {0};
    for (uint32_t i = 0; i < nhigh; i++) col[i] = xpow_mod(k + i, p, k);
    for (uint32_t b = 0; b < 3; b++)
        for (uint32_t v = 0; v < 256; v++) {
            uint32_t x = 0;
            for (uint32_t j = 0; j < 8; j++)
                if (v >> j & 1) x ^= col[8 * b + j];
            h->byte[b][v] = (uint8_t)x;
        }
    return 0;
}
