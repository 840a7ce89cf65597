/* SHA-256 (FIPS 180-4), for the run keys of the results database: a key is the
 * hash of everything that determines a run, so it must not collide by accident
 * across millions of runs (a 64-bit hash could). */
#ifndef LOCSIM_HARNESS_SHA256_H
#define LOCSIM_HARNESS_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t len;        /* bytes hashed so far */
    uint8_t buf[64];
    size_t nbuf;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* Finish and write the digest as 64 lowercase hex digits + NUL. */
void sha256_hex(sha256_ctx *c, char out[65]);
/* The hash of a file's content; -1 if it cannot be read. */
int sha256_file(const char *path, char out[65]);

#endif
