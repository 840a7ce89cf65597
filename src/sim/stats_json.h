/* A minimal streaming JSON writer: objects, arrays, strings, integers, doubles.
 * Output depends only on the calls made (keys in call order, two-space indent,
 * doubles with %.17g so every bit survives), so equal data gives equal bytes. */
#ifndef LOCSIM_SIM_STATS_JSON_H
#define LOCSIM_SIM_STATS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct {
    FILE *out;
    int depth;
    bool has_items[JSON_MAX_DEPTH];
    bool error;          /* nesting misuse (too deep / unbalanced) */
} json_writer;

void json_init(json_writer *w, FILE *out);
/* key is the member name inside an object, NULL inside an array or at the top. */
void json_begin_object(json_writer *w, const char *key);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w, const char *key);
void json_end_array(json_writer *w);
void json_string(json_writer *w, const char *key, const char *value);
void json_u64(json_writer *w, const char *key, uint64_t value);
void json_double(json_writer *w, const char *key, double value);   /* NaN/inf -> null */
/* 0 when everything was balanced and written; -1 otherwise. */
int json_finish(json_writer *w);

#endif
