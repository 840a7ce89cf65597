/* storehash: input generation and CPU reference (shared by host.c and kernel.cu).
 *
 * StoreGPU-style content hashing: a buffer is cut into fixed-size chunks and each
 * chunk gets its MD5 digest (RFC 1321), the digests a content-addressable store
 * uses to find duplicate chunks.  One GPU thread hashes one chunk.
 *
 * Chunks are SH_CHUNK = 1 KB (StoreGPU's fixed-size-block mode works on blocks of
 * this order); the buffer is 128 * size chunks, 6 MB at the default size 48.  It
 * models a backup stream: mostly fresh data (text-like bytes and binary runs),
 * with about one chunk in five a repeat of an earlier one, which dedup must find
 * (the check also requires equal chunks to get equal digests).
 *
 * md5_block is written once here and used by the CPU reference and the kernel
 * alike; it is checked against RFC 1321's test vectors (md5_self_test) before any
 * GPU digest is trusted, and the kernel's own chunk walk and padding are checked
 * by comparing every digest. */
#ifndef WL_STOREHASH_REF_H
#define WL_STOREHASH_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#ifdef __CUDACC__
#define SH_HD __host__ __device__
#else
#define SH_HD
#endif

#define SH_CHUNK 1024u           /* bytes per chunk */
#define SH_BLOCK 64u             /* threads per CTA */
#define SH_MAX_SIZE 4096u        /* 512 MB */

static inline uint32_t sh_num_chunks(uint32_t size) { return 128u * size; }

SH_HD static inline uint32_t md5_rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

#define MD5_F(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define MD5_G(x, y, z) (((x) & (z)) | ((y) & ~(z)))
#define MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))
#define MD5_STEP(f, a, b, c, d, m, k, s) (a) = (b) + md5_rotl((a) + f((b), (c), (d)) + (m) + (k), (s))

/* One 64-byte block (16 little-endian words m) into the state h[4]. */
SH_HD static inline void md5_block(uint32_t h[4], const uint32_t m[16]) {
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    MD5_STEP(MD5_F, a, b, c, d, m[0], 0xd76aa478u, 7);   MD5_STEP(MD5_F, d, a, b, c, m[1], 0xe8c7b756u, 12);
    MD5_STEP(MD5_F, c, d, a, b, m[2], 0x242070dbu, 17);  MD5_STEP(MD5_F, b, c, d, a, m[3], 0xc1bdceeeu, 22);
    MD5_STEP(MD5_F, a, b, c, d, m[4], 0xf57c0fafu, 7);   MD5_STEP(MD5_F, d, a, b, c, m[5], 0x4787c62au, 12);
    MD5_STEP(MD5_F, c, d, a, b, m[6], 0xa8304613u, 17);  MD5_STEP(MD5_F, b, c, d, a, m[7], 0xfd469501u, 22);
    MD5_STEP(MD5_F, a, b, c, d, m[8], 0x698098d8u, 7);   MD5_STEP(MD5_F, d, a, b, c, m[9], 0x8b44f7afu, 12);
    MD5_STEP(MD5_F, c, d, a, b, m[10], 0xffff5bb1u, 17); MD5_STEP(MD5_F, b, c, d, a, m[11], 0x895cd7beu, 22);
    MD5_STEP(MD5_F, a, b, c, d, m[12], 0x6b901122u, 7);  MD5_STEP(MD5_F, d, a, b, c, m[13], 0xfd987193u, 12);
    MD5_STEP(MD5_F, c, d, a, b, m[14], 0xa679438eu, 17); MD5_STEP(MD5_F, b, c, d, a, m[15], 0x49b40821u, 22);
    MD5_STEP(MD5_G, a, b, c, d, m[1], 0xf61e2562u, 5);   MD5_STEP(MD5_G, d, a, b, c, m[6], 0xc040b340u, 9);
    MD5_STEP(MD5_G, c, d, a, b, m[11], 0x265e5a51u, 14); MD5_STEP(MD5_G, b, c, d, a, m[0], 0xe9b6c7aau, 20);
    MD5_STEP(MD5_G, a, b, c, d, m[5], 0xd62f105du, 5);   MD5_STEP(MD5_G, d, a, b, c, m[10], 0x02441453u, 9);
    MD5_STEP(MD5_G, c, d, a, b, m[15], 0xd8a1e681u, 14); MD5_STEP(MD5_G, b, c, d, a, m[4], 0xe7d3fbc8u, 20);
    MD5_STEP(MD5_G, a, b, c, d, m[9], 0x21e1cde6u, 5);   MD5_STEP(MD5_G, d, a, b, c, m[14], 0xc33707d6u, 9);
    MD5_STEP(MD5_G, c, d, a, b, m[3], 0xf4d50d87u, 14);  MD5_STEP(MD5_G, b, c, d, a, m[8], 0x455a14edu, 20);
    MD5_STEP(MD5_G, a, b, c, d, m[13], 0xa9e3e905u, 5);  MD5_STEP(MD5_G, d, a, b, c, m[2], 0xfcefa3f8u, 9);
    MD5_STEP(MD5_G, c, d, a, b, m[7], 0x676f02d9u, 14);  MD5_STEP(MD5_G, b, c, d, a, m[12], 0x8d2a4c8au, 20);
    MD5_STEP(MD5_H, a, b, c, d, m[5], 0xfffa3942u, 4);   MD5_STEP(MD5_H, d, a, b, c, m[8], 0x8771f681u, 11);
    MD5_STEP(MD5_H, c, d, a, b, m[11], 0x6d9d6122u, 16); MD5_STEP(MD5_H, b, c, d, a, m[14], 0xfde5380cu, 23);
    MD5_STEP(MD5_H, a, b, c, d, m[1], 0xa4beea44u, 4);   MD5_STEP(MD5_H, d, a, b, c, m[4], 0x4bdecfa9u, 11);
    MD5_STEP(MD5_H, c, d, a, b, m[7], 0xf6bb4b60u, 16);  MD5_STEP(MD5_H, b, c, d, a, m[10], 0xbebfbc70u, 23);
    MD5_STEP(MD5_H, a, b, c, d, m[13], 0x289b7ec6u, 4);  MD5_STEP(MD5_H, d, a, b, c, m[0], 0xeaa127fau, 11);
    MD5_STEP(MD5_H, c, d, a, b, m[3], 0xd4ef3085u, 16);  MD5_STEP(MD5_H, b, c, d, a, m[6], 0x04881d05u, 23);
    MD5_STEP(MD5_H, a, b, c, d, m[9], 0xd9d4d039u, 4);   MD5_STEP(MD5_H, d, a, b, c, m[12], 0xe6db99e5u, 11);
    MD5_STEP(MD5_H, c, d, a, b, m[15], 0x1fa27cf8u, 16); MD5_STEP(MD5_H, b, c, d, a, m[2], 0xc4ac5665u, 23);
    MD5_STEP(MD5_I, a, b, c, d, m[0], 0xf4292244u, 6);   MD5_STEP(MD5_I, d, a, b, c, m[7], 0x432aff97u, 10);
    MD5_STEP(MD5_I, c, d, a, b, m[14], 0xab9423a7u, 15); MD5_STEP(MD5_I, b, c, d, a, m[5], 0xfc93a039u, 21);
    MD5_STEP(MD5_I, a, b, c, d, m[12], 0x655b59c3u, 6);  MD5_STEP(MD5_I, d, a, b, c, m[3], 0x8f0ccc92u, 10);
    MD5_STEP(MD5_I, c, d, a, b, m[10], 0xffeff47du, 15); MD5_STEP(MD5_I, b, c, d, a, m[1], 0x85845dd1u, 21);
    MD5_STEP(MD5_I, a, b, c, d, m[8], 0x6fa87e4fu, 6);   MD5_STEP(MD5_I, d, a, b, c, m[15], 0xfe2ce6e0u, 10);
    MD5_STEP(MD5_I, c, d, a, b, m[6], 0xa3014314u, 15);  MD5_STEP(MD5_I, b, c, d, a, m[13], 0x4e0811a1u, 21);
    MD5_STEP(MD5_I, a, b, c, d, m[4], 0xf7537e82u, 6);   MD5_STEP(MD5_I, d, a, b, c, m[11], 0xbd3af235u, 10);
    MD5_STEP(MD5_I, c, d, a, b, m[2], 0x2ad7d2bbu, 15);  MD5_STEP(MD5_I, b, c, d, a, m[9], 0xeb86d391u, 21);
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
}

SH_HD static inline void md5_init(uint32_t h[4]) {
    h[0] = 0x67452301u; h[1] = 0xefcdab89u; h[2] = 0x98badcfeu; h[3] = 0x10325476u;
}

/* MD5 of len bytes (any length, padded as RFC 1321 says): the CPU reference. */
static inline void md5(const uint8_t *data, size_t len, uint32_t h[4]) {
    uint32_t m[16];
    uint8_t tail[128];
    size_t full = len / 64, rest = len % 64;
    md5_init(h);
    for (size_t b = 0; b < full; b++) {
        for (int i = 0; i < 16; i++) {
            const uint8_t *p = data + b * 64 + (size_t)i * 4;
            m[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        }
        md5_block(h, m);
    }
    /* the rest, 0x80, zeros up to 56 mod 64, the length in bits (little-endian) */
    size_t tail_len = rest < 56 ? 64 : 128;
    memset(tail, 0, sizeof tail);
    memcpy(tail, data + full * 64, rest);
    tail[rest] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) tail[tail_len - 8 + (size_t)i] = (uint8_t)(bits >> (8 * i));
    for (size_t b = 0; b < tail_len; b += 64) {
        for (int i = 0; i < 16; i++) {
            const uint8_t *p = tail + b + (size_t)i * 4;
            m[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        }
        md5_block(h, m);
    }
}

/* The digest as RFC 1321 prints it (bytes of h[0..3], little-endian), into hex[33]. */
static inline void md5_hex(const uint32_t h[4], char *hex) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        uint8_t byte = (uint8_t)(h[i / 4] >> (8 * (i % 4)));
        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 15];
    }
    hex[32] = 0;
}

/* RFC 1321 appendix A.5 test vectors; returns the first failing input, or NULL. */
static inline const char *md5_self_test(void) {
    static const char *const cases[][2] = {
        { "", "d41d8cd98f00b204e9800998ecf8427e" },
        { "a", "0cc175b9c0f1b6a831c399e269772661" },
        { "abc", "900150983cd24fb0d6963f7d28e17f72" },
        { "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
        { "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
        { "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
          "57edf4a22be3c955ac49da2e2107b67a" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t h[4];
        char hex[33];
        md5((const uint8_t *)cases[i][0], strlen(cases[i][0]), h);
        md5_hex(h, hex);
        if (strcmp(hex, cases[i][1]) != 0) return cases[i][0];
    }
    return NULL;
}

/* The chunked buffer (NULL on out-of-memory): fresh chunks are text-like (words
 * of letters and spaces) or binary (random bytes with zero runs); about one in
 * five copies an earlier chunk. */
static inline uint8_t *sh_generate(uint32_t chunks, uint64_t seed) {
    uint8_t *buf = (uint8_t *)malloc((size_t)chunks * SH_CHUNK);
    if (!buf) return NULL;
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (uint32_t c = 0; c < chunks; c++) {
        uint8_t *chunk = buf + (size_t)c * SH_CHUNK;
        uint32_t kind = wl_rng_below(&r, 10);
        if (c > 0 && kind < 2) {
            memcpy(chunk, buf + (size_t)wl_rng_below(&r, c) * SH_CHUNK, SH_CHUNK);
        } else if (kind < 7) {
            for (uint32_t i = 0; i < SH_CHUNK; i++)
                chunk[i] = wl_rng_below(&r, 6) == 0 ? ' ' : (uint8_t)('a' + wl_rng_below(&r, 26));
        } else {
            for (uint32_t i = 0; i < SH_CHUNK; i++) chunk[i] = wl_rng_below(&r, 4) == 0 ? 0 : (uint8_t)wl_rng_next(&r);
        }
    }
    return buf;
}

#endif
