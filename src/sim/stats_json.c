/* Streaming JSON writer (see stats_json.h). */
#include <math.h>

#include "sim/stats_json.h"

void json_init(json_writer *w, FILE *out) {
    w->out = out;
    w->depth = 0;
    w->has_items[0] = false;
    w->error = false;
}

static void write_escaped(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Comma, newline and indentation before an item; then its key. */
static void item(json_writer *w, const char *key) {
    if (w->depth > 0) {
        if (w->has_items[w->depth]) fputc(',', w->out);
        fputc('\n', w->out);
        for (int i = 0; i < w->depth; i++) fputs("  ", w->out);
    }
    w->has_items[w->depth] = true;
    if (key) {
        write_escaped(w->out, key);
        fputs(": ", w->out);
    }
}

static void open_scope(json_writer *w, const char *key, char c) {
    item(w, key);
    fputc(c, w->out);
    if (w->depth + 1 >= JSON_MAX_DEPTH) {
        w->error = true;
        return;
    }
    w->depth++;
    w->has_items[w->depth] = false;
}

static void close_scope(json_writer *w, char c) {
    if (w->depth == 0) {
        w->error = true;
        return;
    }
    bool had = w->has_items[w->depth];
    w->depth--;
    if (had) {
        fputc('\n', w->out);
        for (int i = 0; i < w->depth; i++) fputs("  ", w->out);
    }
    fputc(c, w->out);
}

void json_begin_object(json_writer *w, const char *key) { open_scope(w, key, '{'); }
void json_end_object(json_writer *w) { close_scope(w, '}'); }
void json_begin_array(json_writer *w, const char *key) { open_scope(w, key, '['); }
void json_end_array(json_writer *w) { close_scope(w, ']'); }

void json_string(json_writer *w, const char *key, const char *value) {
    item(w, key);
    write_escaped(w->out, value);
}

void json_u64(json_writer *w, const char *key, uint64_t value) {
    item(w, key);
    fprintf(w->out, "%llu", (unsigned long long)value);
}

void json_double(json_writer *w, const char *key, double value) {
    item(w, key);
    if (!isfinite(value)) fputs("null", w->out);
    else fprintf(w->out, "%.17g", value);
}

int json_finish(json_writer *w) {
    if (w->depth != 0) w->error = true;
    fputc('\n', w->out);
    return w->error || ferror(w->out) ? -1 : 0;
}
