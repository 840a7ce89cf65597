/* Address mapping (see addrmap.h for the string syntax and the hashes). */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/addrmap.h"

static bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

static uint32_t bits_in(uint64_t m) { return (uint32_t)__builtin_popcountll(m); }

/* Split a mask into runs of consecutive bits, lowest first. */
static void make_field(uint64_t mask, addrmap_field *f) {
    memset(f, 0, sizeof *f);
    uint32_t dst = 0;
    for (uint32_t bit = 0; bit < 64 && f->n < ADDRMAP_MAX_RUNS;) {
        if (!(mask >> bit & 1)) {
            bit++;
            continue;
        }
        uint32_t len = 0;
        while (bit + len < 64 && (mask >> (bit + len) & 1)) len++;
        f->src[f->n] = (uint8_t)bit;
        f->len[f->n] = (uint8_t)len;
        f->dst[f->n] = (uint8_t)dst;
        f->mask[f->n] = len == 64 ? ~0ull : ((1ull << len) - 1) << bit;
        f->shift[f->n] = (uint8_t)(bit - dst);
        f->n++;
        dst += len;
        bit += len;
    }
}

/* Gather the field's address bits into the low bits of the result. */
static uint64_t gather(uint64_t addr, const addrmap_field *f) {
    uint64_t out = 0;
    for (uint32_t i = 0; i < f->n; i++) out |= (addr & f->mask[i]) >> f->shift[i];
    return out;
}

static uint32_t fold8(uint32_t v) {
    uint32_t h = 0;
    while (v) {
        h ^= v & 0xff;
        v >>= 8;
    }
    return h;
}

static int parse_mask(addrmap *m, const char *s, char *err, size_t errlen) {
    char letters[65];
    size_t n = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '.') continue;
        if (!strchr("0DBRCS", *p)) {
            snprintf(err, errlen, "address mapping '%s': '%c' is not one of 0 D B R C S", s, *p);
            return -1;
        }
        if (n == 64) {
            snprintf(err, errlen, "address mapping '%s': more than 64 bits", s);
            return -1;
        }
        letters[n++] = *p;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t bit = 1ull << (n - 1 - i);
        switch (letters[i]) {
        case 'D': m->chan_mask |= bit; break;
        case 'B': m->bank_mask |= bit; break;
        case 'R': m->row_mask |= bit; break;
        case 'C': case 'S': m->col_mask |= bit; break;
        default: break;
        }
    }
    return 0;
}

static int check_fields(addrmap *m, const char *text, char *err, size_t errlen) {
    const addrmap_config *c = &m->cfg;
    uint32_t bank_bits = bits_in(m->bank_mask);
    if ((1ull << bank_bits) != c->nbanks) {
        snprintf(err, errlen, "address mapping '%s' has %u bank bits (%llu banks) but the DRAM has nbk=%u",
                 text, bank_bits, 1ull << bank_bits, c->nbanks);
        return -1;
    }
    m->row_bits = bits_in(m->row_mask);
    if (m->row_bits == 0 || m->row_bits > 32 || bits_in(m->col_mask) > 32) {
        snprintf(err, errlen, "address mapping '%s' needs 1 to 32 row bits and at most 32 column bits", text);
        return -1;
    }
    uint32_t chan_bits = bits_in(m->chan_mask);
    if (m->dramid_bit >= 0 && chan_bits) {
        snprintf(err, errlen, "address mapping '%s': use either dramid@ or D bits, not both", text);
        return -1;
    }
    if (m->dramid_bit < 0 && (1ull << chan_bits) != c->n_channels) {
        snprintf(err, errlen, "address mapping '%s' has %u channel (D) bits but there are %u channels%s", text,
                 chan_bits, c->n_channels, is_pow2(c->n_channels) ? "" : " (use dramid@<bit>; for that)");
        return -1;
    }
    if (!is_pow2(c->n_sub_per_channel) || c->n_sub_per_channel > c->nbanks) {
        snprintf(err, errlen, "%u L2 slices per channel: expected a power of two no larger than the %u banks",
                 c->n_sub_per_channel, c->nbanks);
        return -1;
    }
    return 0;
}

static int init_slice_hash(addrmap *m, const char *text, char *err, size_t errlen);

int addrmap_init(addrmap *m, const addrmap_config *cfg, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    m->cfg = *cfg;
    if (!cfg->n_channels) {
        snprintf(err, errlen, "address mapping: no memory channels");
        return -1;
    }
    const char *text = cfg->mapping[0] ? cfg->mapping : ADDRMAP_GTX480_DEFAULT;
    const char *mask = text;
    m->dramid_bit = -1;
    if (strncmp(text, "dramid@", 7) == 0) {
        char *end;
        errno = 0;
        long k = strtol(text + 7, &end, 10);
        if (!isdigit((unsigned char)text[7]) || *end != ';' || errno || k < 0 || k > 40) {
            snprintf(err, errlen, "address mapping '%s': expected dramid@<bit 0..40>; before the mask", text);
            return -1;
        }
        m->dramid_bit = (int)k;
        mask = end + 1;
    }
    if (parse_mask(m, mask, err, errlen)) return -1;
    if (m->dramid_bit >= 0 && (m->bank_mask | m->row_mask | m->col_mask) >> 58) {
        snprintf(err, errlen, "address mapping '%s': bits above 57 cannot be used with dramid@", text);
        return -1;
    }
    if (check_fields(m, text, err, errlen)) return -1;
    make_field(m->chan_mask, &m->chan);
    make_field(m->bank_mask, &m->bank);
    make_field(m->row_mask, &m->row);
    make_field(m->col_mask, &m->col);
    /* The quotient by the channel count without a 64-bit division (tens of
     * cycles, on every decode): with M = floor(2^64 / n) + 1, M * n = 2^64 + e
     * with 0 < e <= n, so x * M / 2^64 = x / n + x e / (n 2^64), and the error
     * x e / (n 2^64) is below 1 / n while x < 2^64 / n; x / n is at most
     * (n - 1) / n above its floor, so the floor is unchanged there.  Larger x
     * (not a device address) divide.  (For a power of two n, M = 2^64 / n and
     * e = 0: the product is the shift.) */
    if (m->dramid_bit >= 0 && cfg->n_channels > 1) {
        m->chan_magic = UINT64_MAX / cfg->n_channels + 1;
        m->chan_magic_max = UINT64_MAX / cfg->n_channels - 1;
    }
    /* slice = bank mod slices per channel: the bank field's low bits */
    for (uint32_t b = 0; (1u << b) < cfg->n_sub_per_channel; b++)
        for (uint32_t i = 0; i < m->bank.n; i++)
            if (b >= m->bank.dst[i] && b < (uint32_t)m->bank.dst[i] + m->bank.len[i])
                m->sub_mask |= 1ull << (m->bank.src[i] + (b - m->bank.dst[i]));
    if (cfg->channel_hash == 2 && init_slice_hash(m, text, err, errlen)) return -1;
    return 0;
}

static uint32_t log2_exact(uint32_t v) { return (uint32_t)__builtin_ctz(v); }

/* -gpgpu_memory_partition_indexing 2 (IPOLY) where GPGPU-Sim defines it: the
 * higher bits are the address above dramid@K's channel and slice bits, which
 * must hold no slice (bank) bit of the channel-local address, so that a
 * slice and its partition address give the address back. */
static int init_slice_hash(addrmap *m, const char *text, char *err, size_t errlen) {
    const addrmap_config *c = &m->cfg;
    uint32_t slices = c->n_channels * c->n_sub_per_channel;
    if (m->dramid_bit < 0 || !is_pow2(c->n_channels) || ipoly_init(&m->slice_hash, slices)) {
        snprintf(err, errlen,
                 "-gpgpu_memory_partition_indexing 2 (IPOLY) needs dramid@<bit>, a power-of-two channel count "
                 "and 16, 32 or 64 L2 slices in all (GPGPU-Sim's hash); '%s' with %u channels x %u slices",
                 text, c->n_channels, c->n_sub_per_channel);
        return -1;
    }
    uint32_t sub_bits = log2_exact(c->n_sub_per_channel);
    if (m->sub_mask >> ((uint32_t)m->dramid_bit + sub_bits)) {
        snprintf(err, errlen,
                 "-gpgpu_memory_partition_indexing 2 (IPOLY): the bank bits that pick a channel's L2 slice must lie "
                 "below bit %u of the channel-local address in '%s'",
                 (uint32_t)m->dramid_bit + sub_bits, text);
        return -1;
    }
    m->ipoly_shift = (uint32_t)m->dramid_bit + log2_exact(c->n_channels) + sub_bits;
    return 0;
}

/* x / n_channels (see addrmap_init for why the product is exact). */
static uint64_t chan_quotient(const addrmap *m, uint64_t x) {
    if (m->chan_magic && x <= m->chan_magic_max) return (uint64_t)(((unsigned __int128)x * m->chan_magic) >> 64);
    return x / m->cfg.n_channels;
}

/* Remove the bits of mask from x, shifting the bits above each one down. */
static uint64_t squeeze(uint64_t x, uint64_t mask) {
    while (mask) {
        uint32_t b = 63 - (uint32_t)__builtin_clzll(mask); /* highest first */
        mask &= ~(1ull << b);
        uint64_t low = x & ((1ull << b) - 1);
        x = b == 63 ? low : (x >> (b + 1)) << b | low;
    }
    return x;
}

uint64_t addrmap_partition_addr(const addrmap *m, uint64_t addr) {
    /* With D bits the fields (the slice's bank bits among them) are positions
     * of the address itself: both go out of it together. */
    if (m->dramid_bit < 0) return squeeze(addr, m->chan_mask | m->sub_mask);
    uint64_t low = addr & ((1ull << m->dramid_bit) - 1);
    uint64_t local = chan_quotient(m, addr >> m->dramid_bit) << m->dramid_bit | low;
    return squeeze(local, m->sub_mask);
}

/* The inverse of squeeze: open a gap at each bit of mask, lowest first (the
 * positions are those of the result), and put there the next bit of fill. */
static uint64_t expand(uint64_t x, uint64_t mask, uint64_t fill) {
    for (uint32_t j = 0; mask; j++) {
        uint32_t b = (uint32_t)__builtin_ctzll(mask);
        mask &= mask - 1;
        uint64_t low = x & ((1ull << b) - 1);
        x = (b == 63 ? 0 : (x >> b) << (b + 1)) | (fill >> j & 1) << b | low;
    }
    return x;
}

/* The fill for expand over chan_mask | sub_mask: at each of their bits, lowest
 * first, the next bit of chan or of sub, whichever mask the bit is in. */
static uint64_t interleave(uint64_t chan_mask, uint64_t sub_mask, uint64_t chan, uint64_t sub) {
    uint64_t fill = 0, both = chan_mask | sub_mask;
    for (uint32_t j = 0, jc = 0, js = 0; both; j++, both &= both - 1) {
        uint64_t bit = both & -both;
        uint64_t v = bit & chan_mask ? chan >> jc++ & 1 : sub >> js++ & 1;
        fill |= v << j;
    }
    return fill;
}

uint64_t addrmap_global_addr(const addrmap *m, uint32_t slice, uint64_t part_addr) {
    const addrmap_config *c = &m->cfg;
    uint32_t nsub = c->n_sub_per_channel, chan = slice / nsub, sub = slice % nsub;
    bool dbits = m->dramid_bit < 0;
    uint64_t out_mask = dbits ? m->chan_mask | m->sub_mask : m->sub_mask;
    /* the slice bits are the bank field's low bits (addrmap_init) and the row
     * bits are others, so the row is known before they are put back */
    uint64_t local0 = expand(part_addr, out_mask, 0);
    uint32_t row = (uint32_t)gather(local0, &m->row);
    if (c->channel_hash == 2) {
        /* the higher bits lie above the slice bits (init_slice_hash), so the
         * partition address alone gives them; XOR undoes the hash */
        uint64_t high = local0 >> (m->ipoly_shift - log2_exact(c->n_channels));
        uint32_t lin = ipoly_hash(&m->slice_hash, high, slice);
        chan = lin / nsub;
        sub = lin % nsub;
    } else if (c->bank_hash) {
        sub ^= row & (nsub - 1);
    }
    if (c->channel_hash == 1 && c->n_channels > 1) {
        uint32_t h = fold8(row);
        chan = is_pow2(c->n_channels) ? chan ^ (h & (c->n_channels - 1))
                                      : (chan + c->n_channels - h % c->n_channels) % c->n_channels;
    }
    if (dbits) return expand(part_addr, out_mask, interleave(m->chan_mask, m->sub_mask, chan, sub));
    uint64_t local = expand(part_addr, m->sub_mask, sub);
    uint64_t low = local & ((1ull << m->dramid_bit) - 1);
    return ((local >> m->dramid_bit) * c->n_channels + chan) << m->dramid_bit | low;
}

void addrmap_decode(const addrmap *m, uint64_t addr, addr_loc *out) {
    const addrmap_config *c = &m->cfg;
    uint64_t local = addr;
    uint32_t chan;
    if (m->dramid_bit >= 0) {
        uint64_t low = addr & ((1ull << m->dramid_bit) - 1);
        uint64_t high = addr >> m->dramid_bit, q = chan_quotient(m, high);
        chan = (uint32_t)(high - q * c->n_channels);
        local = q << m->dramid_bit | low;
    } else {
        chan = (uint32_t)gather(addr, &m->chan);
    }
    uint32_t bank = (uint32_t)gather(local, &m->bank);
    uint32_t row = (uint32_t)gather(local, &m->row);
    uint32_t col = (uint32_t)gather(local, &m->col);
    if (c->channel_hash == 2) {
        uint32_t nsub = c->n_sub_per_channel;
        uint32_t slice = ipoly_hash(&m->slice_hash, addr >> m->ipoly_shift, chan * nsub + (bank & (nsub - 1)));
        if (c->bank_hash) bank ^= row & (c->nbanks - 1);
        out->channel = slice / nsub;
        out->bank = bank;
        out->row = row;
        out->col = col;
        out->slice = slice;
        return;
    }
    if (c->channel_hash == 1 && c->n_channels > 1) {
        uint32_t h = fold8(row);
        chan = is_pow2(c->n_channels) ? chan ^ (h & (c->n_channels - 1)) : (chan + h) % c->n_channels;
    }
    if (c->bank_hash) bank ^= row & (c->nbanks - 1);
    out->channel = chan;
    out->bank = bank;
    out->row = row;
    out->col = col;
    out->slice = chan * c->n_sub_per_channel + (bank & (c->n_sub_per_channel - 1));
}

int addrmap_slice_per_line(const addrmap *m, uint32_t line_shift) {
    if (line_shift >= 64) return 0;
    uint64_t below = (1ull << line_shift) - 1;
    if (m->dramid_bit >= 0 && (uint32_t)m->dramid_bit < line_shift) return 0;
    return !((m->chan_mask | m->bank_mask | m->row_mask) & below);
}
