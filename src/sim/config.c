/* Config files, command-line overrides, help and dumps (see config.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/config.h"
#include "sim/config_options.h"
#include "cta/cta_sched.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/prefetch/prefetch.h"
#include "numa/numa.h"
#include "sched/sched.h"

#define MAX_CONFIG_BYTES (1u << 20)
#define MAX_TOKEN 1024

static void *field_of(sim_config *c, const option_def *o) { return (char *)c + o->offset; }
static const void *cfield_of(const sim_config *c, const option_def *o) { return (const char *)c + o->offset; }

/* ---- finding options ---- */

static const option_def *find_option(const char *name) {
    size_t n;
    const option_def *t = config_option_table(&n);
    if (name[0] == '-') name++;
    for (size_t i = 0; i < n; i++) {
        if (!t[i].name) continue;
        if (strcmp(t[i].name, name) == 0 || (t[i].alias && strcmp(t[i].alias, name) == 0)) return &t[i];
    }
    return NULL;
}

static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    }
    return d[la][lb];
}

/* " (did you mean -x?)" for a near miss, else "". */
static void suggest(const char *name, char *buf, size_t n) {
    size_t count, best = 4;
    const option_def *t = config_option_table(&count);
    const char *pick = NULL;
    buf[0] = '\0';
    if (name[0] == '-') name++;
    for (size_t i = 0; i < count; i++) {
        if (!t[i].name) continue;
        size_t d = edit_distance(name, t[i].name);
        if (d < best) {
            best = d;
            pick = t[i].name;
        }
    }
    if (pick) snprintf(buf, n, " (did you mean -%s?)", pick);
}

/* ---- values ---- */

static int parse_u64(const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
    if (!isdigit((unsigned char)v[0])) return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

static void range_text(const option_def *o, char *buf, size_t n) {
    switch (o->type) {
    case OPT_UINT: case OPT_U64: case OPT_U32LIST:
        if (o->max == UINT64_MAX) snprintf(buf, n, "an integer >= %llu", (unsigned long long)o->min);
        else snprintf(buf, n, "an integer in [%llu, %llu]", (unsigned long long)o->min, (unsigned long long)o->max);
        break;
    case OPT_DOUBLE: snprintf(buf, n, "a number in [%g, %g]", o->dmin, o->dmax); break;
    case OPT_BOOL: snprintf(buf, n, "0 or 1"); break;
    case OPT_ENUM: snprintf(buf, n, "one of %s", o->choices); break;
    case OPT_STRING: snprintf(buf, n, "text of at most %zu characters", o->size - 1); break;
    default: snprintf(buf, n, "%s", o->syntax ? o->syntax : "a value"); break;
    }
}

static int parse_enum(const option_def *o, const char *v, uint32_t *out) {
    const char *p = o->choices;
    size_t len = strlen(v);
    for (uint32_t i = 0; *p; i++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, v, n) == 0) {
            *out = i;
            return 0;
        }
        if (!bar) break;
        p = bar + 1;
    }
    return -1;
}

static int parse_list(const option_def *o, const char *v, uint32_t *out) {
    char buf[256];
    if (strlen(v) >= sizeof buf) return -1;
    strcpy(buf, v);
    uint32_t vals[16];
    uint32_t n = 0;
    char *p = buf;
    while (p) {
        char *sep = strchr(p, o->sep);
        if (sep) *sep = '\0';
        uint64_t x;
        if (n == o->count || n == 16 || parse_u64(p, o->min, o->max, &x)) return -1;
        vals[n++] = (uint32_t)x;
        p = sep ? sep + 1 : NULL;
    }
    if (n != o->count && (!o->min_count || n < o->min_count)) return -1;
    memcpy(out, vals, n * sizeof *vals);
    return 0;
}

/* Parse v into o's field.  On error, msg says what was expected. */
static int set_value(sim_config *c, const option_def *o, const char *v, char *msg, size_t n) {
    char expect[160];
    range_text(o, expect, sizeof expect);
    uint64_t u;
    switch (o->type) {
    case OPT_UINT:
        if (parse_u64(v, o->min, o->max, &u)) goto bad;
        *(uint32_t *)field_of(c, o) = (uint32_t)u;
        return 0;
    case OPT_U64:
        if (parse_u64(v, o->min, o->max, &u)) goto bad;
        *(uint64_t *)field_of(c, o) = u;
        return 0;
    case OPT_DOUBLE: {
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end || !isfinite(d) || d < o->dmin || d > o->dmax) goto bad;
        *(double *)field_of(c, o) = d;
        return 0;
    }
    case OPT_BOOL:
        if (!strcmp(v, "1") || !strcmp(v, "true")) *(bool *)field_of(c, o) = true;
        else if (!strcmp(v, "0") || !strcmp(v, "false")) *(bool *)field_of(c, o) = false;
        else goto bad;
        return 0;
    case OPT_STRING:
        if (strlen(v) >= o->size) goto bad;
        for (const char *p = v; *p; p++)
            if (isspace((unsigned char)*p) || !isprint((unsigned char)*p)) {
                snprintf(msg, n, "expected text without spaces, got '%s'", v);
                return -1;
            }
        strcpy((char *)field_of(c, o), v);
        return 0;
    case OPT_ENUM:
        if (parse_enum(o, v, (uint32_t *)field_of(c, o))) goto bad;
        return 0;
    case OPT_U32LIST:
        if (parse_list(o, v, (uint32_t *)field_of(c, o))) {
            snprintf(msg, n, "expected %s, each %s, got '%s'", o->syntax, expect, v);
            return -1;
        }
        return 0;
    case OPT_CACHE:
        return cache_geometry_parse(v, (cache_geometry *)field_of(c, o), msg, n);
    case OPT_CUSTOM: {
        char why[400];
        if (o->parse(c, v, why, sizeof why) == 0) return 0;
        snprintf(msg, n, "%s, got '%s'", why, v);
        return -1;
    }
    }
bad:
    snprintf(msg, n, "expected %s, got '%s'", expect, v);
    return -1;
}

static void format_value(const sim_config *c, const option_def *o, char *buf, size_t n) {
    const void *f = cfield_of(c, o);
    switch (o->type) {
    case OPT_UINT: snprintf(buf, n, "%u", *(const uint32_t *)f); break;
    case OPT_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case OPT_DOUBLE: snprintf(buf, n, "%.17g", *(const double *)f); break;
    case OPT_BOOL: snprintf(buf, n, "%d", *(const bool *)f ? 1 : 0); break;
    case OPT_STRING: snprintf(buf, n, "%s", (const char *)f); break;
    case OPT_ENUM: {
        uint32_t idx = *(const uint32_t *)f;
        const char *p = o->choices;
        for (uint32_t i = 0; i < idx && p; i++) {
            p = strchr(p, '|');
            if (p) p++;
        }
        size_t len = p ? strcspn(p, "|") : 0;
        snprintf(buf, n, "%.*s", (int)len, p ? p : "");
        break;
    }
    case OPT_U32LIST: {
        const uint32_t *v = f;
        size_t k = 0;
        buf[0] = '\0';
        for (uint32_t i = 0; i < o->count && k < n; i++) {
            if (i) buf[k++] = o->sep;
            if (k < n) k += (size_t)snprintf(buf + k, n - k, "%u", v[i]);
        }
        break;
    }
    case OPT_CACHE: snprintf(buf, n, "%s", ((const cache_geometry *)f)->text); break;
    case OPT_CUSTOM: o->format(c, buf, n); break;
    }
}

/* ---- public: reading options ---- */

bool config_is_host_option(const char *name) {
    const option_def *o = find_option(name);
    return o && o->host;
}

int config_get(const sim_config *c, const char *name, char *buf, size_t n) {
    const option_def *o = find_option(name);
    if (!o || n == 0) return -1;
    format_value(c, o, buf, n);
    return 0;
}

/* ---- public: setting options ---- */

void config_defaults(sim_config *c) {
    size_t n;
    const option_def *t = config_option_table(&n);
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < n; i++) {
        if (!t[i].name) continue;
        char msg[512];
        if (set_value(c, &t[i], t[i].def, msg, sizeof msg)) {
            fprintf(stderr, "locsim: internal error: default of -%s: %s\n", t[i].name, msg);
            abort();
        }
    }
}

/* An option kept for GPGPU-Sim files only: say so when its value is not the default. */
static void compat_warning(const sim_config *c, const option_def *o, const char *origin) {
    sim_config d;
    char msg[512], now[256], def[256];
    memset(&d, 0, sizeof d);
    if (set_value(&d, o, o->def, msg, sizeof msg)) return;
    format_value(c, o, now, sizeof now);
    format_value(&d, o, def, sizeof def);
    if (strcmp(now, def) != 0)
        fprintf(stderr, "locsim: warning: %s: -%s %s is accepted for compatibility with GPGPU-Sim only: locsim does "
                        "not model it (behaves as %s)\n", origin, o->name, now, def);
}

int config_set(sim_config *c, const char *name, const char *value, const char *origin, char *err, size_t errlen) {
    if (!origin) origin = "command line";
    const option_def *o = find_option(name);
    const char *bare = name[0] == '-' ? name + 1 : name;
    if (!o) {
        char hint[96];
        suggest(bare, hint, sizeof hint);
        snprintf(err, errlen, "%s: unknown option '-%s'%s", origin, bare, hint);
        return -1;
    }
    char msg[512];
    if (set_value(c, o, value, msg, sizeof msg)) {
        snprintf(err, errlen, "%s: -%s: %s", origin, bare, msg);
        return -1;
    }
    if (o->compat) compat_warning(c, o, origin);
    return 0;
}

int config_apply_args(sim_config *c, int argc, char *const *argv, char *err, size_t errlen) {
    for (int i = 0; i < argc; i += 2) {
        if (argv[i][0] != '-') {
            snprintf(err, errlen, "command line: expected an option starting with '-', got '%s'", argv[i]);
            return -1;
        }
        if (i + 1 >= argc) {
            snprintf(err, errlen, "command line: %s: missing value", argv[i]);
            return -1;
        }
        if (config_set(c, argv[i], argv[i + 1], NULL, err, errlen)) return -1;
    }
    return 0;
}

/* ---- config files ---- */

typedef struct {
    const char *text;
    size_t pos;
    uint32_t line;
} lexer;

/* Next token into tok; 1 found, 0 end of input, -1 error (in err). */
static int next_token(lexer *lx, char *tok, size_t toklen, uint32_t *tok_line, const char *origin,
                      char *err, size_t errlen) {
    const char *s = lx->text;
    for (;;) {
        while (s[lx->pos] && isspace((unsigned char)s[lx->pos])) {
            if (s[lx->pos] == '\n') lx->line++;
            lx->pos++;
        }
        if (s[lx->pos] != '#') break;
        while (s[lx->pos] && s[lx->pos] != '\n') lx->pos++;
    }
    if (!s[lx->pos]) return 0;
    *tok_line = lx->line;
    size_t n = 0;
    if (s[lx->pos] == '"') {
        lx->pos++;
        while (s[lx->pos] && s[lx->pos] != '"') {
            if (s[lx->pos] == '\n') lx->line++;
            if (n + 1 < toklen) tok[n++] = s[lx->pos];
            lx->pos++;
        }
        if (!s[lx->pos]) {
            snprintf(err, errlen, "%s:%u: unterminated quoted value", origin, *tok_line);
            return -1;
        }
        lx->pos++;
    } else {
        while (s[lx->pos] && !isspace((unsigned char)s[lx->pos])) {
            if (n + 1 < toklen) tok[n++] = s[lx->pos];
            lx->pos++;
        }
    }
    if (n + 1 >= toklen) {
        snprintf(err, errlen, "%s:%u: value longer than %zu characters", origin, *tok_line, toklen - 2);
        return -1;
    }
    tok[n] = '\0';
    return 1;
}

int config_load_string(sim_config *c, const char *text, const char *origin, char *err, size_t errlen) {
    lexer lx = {.text = text, .pos = 0, .line = 1};
    char name[MAX_TOKEN], value[MAX_TOKEN], where[600];
    uint32_t name_line, value_line;
    int rc;
    while ((rc = next_token(&lx, name, sizeof name, &name_line, origin, err, errlen)) == 1) {
        snprintf(where, sizeof where, "%s:%u", origin, name_line);
        if (name[0] != '-' || !name[1]) {
            snprintf(err, errlen, "%s: expected an option starting with '-', got '%s'", where, name);
            return -1;
        }
        if (!find_option(name)) return config_set(c, name, "", where, err, errlen);   /* unknown: reports it */
        rc = next_token(&lx, value, sizeof value, &value_line, origin, err, errlen);
        if (rc < 0) return -1;
        if (rc == 0 || (value[0] == '-' && isalpha((unsigned char)value[1]) && find_option(value))) {
            snprintf(err, errlen, "%s: %s: missing value", where, name);
            return -1;
        }
        snprintf(where, sizeof where, "%s:%u", origin, value_line);
        if (config_set(c, name, value, where, err, errlen)) return -1;
    }
    return rc;
}

/* A path as messages show it: whole up to 200 characters, else its start and
 * end, so that the reason after it is never cut off. */
static const char *short_path(const char *path, char *buf, size_t n) {
    size_t len = strlen(path);
    if (len <= 200) return path;
    snprintf(buf, n, "%.80s...%s", path, path + len - 100);
    return buf;
}

int config_load_file(sim_config *c, const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        char sp[200];
        int why = errno;
        snprintf(err, errlen, "%s: cannot open config file: %s", short_path(path, sp, sizeof sp), strerror(why));
        return -1;
    }
    char *text = malloc(MAX_CONFIG_BYTES + 1);
    size_t n = text ? fread(text, 1, MAX_CONFIG_BYTES + 1, f) : 0;
    bool read_error = ferror(f);
    fclose(f);
    if (!text || read_error || n > MAX_CONFIG_BYTES) {
        snprintf(err, errlen, "%s: %s", path, !text ? "out of memory" : read_error ? "read error" : "config file larger than 1 MB");
        free(text);
        return -1;
    }
    text[n] = '\0';
    if (strlen(text) != n) {
        snprintf(err, errlen, "%s: config file contains a NUL byte", path);
        free(text);
        return -1;
    }
    int rc = config_load_string(c, text, path, err, errlen);
    free(text);
    return rc;
}

static bool readable(const char *path) { return access(path, R_OK) == 0; }

int config_resolve(const char *name, const char *extra_dir, char *out, size_t outlen, char *err, size_t errlen) {
    size_t len = strlen(name);
    if (len >= outlen) {   /* said so, rather than failing later on a truncated path */
        snprintf(err, errlen, "config path too long: %zu characters, locsim takes at most %zu (%.60s...)", len,
                 outlen - 1, name);
        return -1;
    }
    if (strchr(name, '/') || (len > 4 && strcmp(name + len - 4, ".cfg") == 0)) {
        if (!readable(name)) {
            char sp[200];
            int why = errno;
            snprintf(err, errlen, "%s: cannot read config file: %s", short_path(name, sp, sizeof sp), strerror(why));
            return -1;
        }
        snprintf(out, outlen, "%s", name);
        return 0;
    }
    const char *dirs[3] = {getenv("LOCSIM_CONFIG_DIR"), "configs", extra_dir};
    char tried[512] = "";
    size_t k = 0;
    for (int i = 0; i < 3; i++) {
        if (!dirs[i] || !dirs[i][0]) continue;
        char path[CONFIG_PATH_MAX];
        int n = snprintf(path, sizeof path, "%s/%s.cfg", dirs[i], name);
        if (n < 0 || (size_t)n >= outlen || (size_t)n >= sizeof path) continue;   /* cannot name a file we could open */
        if (readable(path)) {
            snprintf(out, outlen, "%s", path);
            return 0;
        }
        if (k < sizeof tried) k += (size_t)snprintf(tried + k, sizeof tried - k, "%s%s", k ? ", " : "", path);
    }
    snprintf(err, errlen, "unknown config '%s' (no file %s)", name, tried);
    return -1;
}

int config_load(sim_config *c, const char *name_or_path, char *err, size_t errlen) {
    char path[CONFIG_PATH_MAX];
    config_defaults(c);
    if (config_resolve(name_or_path, NULL, path, sizeof path, err, errlen)) return -1;
    return config_load_file(c, path, err, errlen);
}

/* ---- finalize ---- */

void config_addrmap(const sim_config *c, addrmap_config *out) {
    memset(out, 0, sizeof *out);
    out->n_channels = c->n_mem;
    out->n_sub_per_channel = c->n_sub_partition_per_mchannel;
    out->nbanks = c->dram.t.nbk;
    snprintf(out->mapping, sizeof out->mapping, "%s", c->mem_addr_mapping);
    out->channel_hash = (uint8_t)c->memory_partition_indexing;
    out->bank_hash = (uint8_t)c->dram_bank_indexing;
}

/* -dram_bw_scale N: the channel's command clock runs N times faster
 * (gpu_params_from_config), so N times as many column commands and data bursts fit
 * in a nanosecond; every timing that is a delay (row open, precharge, CAS,
 * write recovery, turnarounds, ACT spacing, MFQ's waits) is multiplied by N so
 * that it lasts as many nanoseconds as before.  tCCD, tCCDL and the burst stay
 * in command cycles: they are the rates the probe speeds up.  Scaling only the
 * burst (the probe's first form) left tCCD binding, so a channel at 92% data-bus
 * use gained 0.3% (knn, fermi_gtx480) and an HBM channel, whose burst is one
 * cycle, nothing. */
static void scale_dram_bandwidth(dram_config *d, uint32_t n) {
    if (n <= 1) return;
    dram_timing *t = &d->t;
    uint32_t *delays[] = {&t->tRRD, &t->tRCD, &t->tRAS, &t->tRP, &t->tRC, &t->tCL, &t->tWL, &t->tCDLR, &t->tWR,
                          &t->tRTPL};
    for (size_t i = 0; i < sizeof delays / sizeof *delays; i++) *delays[i] *= n;
    for (int k = 0; k < 3; k++) d->mfq_timeouts[k] *= n;
}

void config_partition(const sim_config *c, partition_config *out) {
    memset(out, 0, sizeof *out);
    out->l2 = c->l2;
    out->dram = c->dram;
    scale_dram_bandwidth(&out->dram, c->dram_bw_scale);
    out->rop_latency = c->rop_latency;
    out->dram_latency = c->dram_latency;
    out->far_latency = c->l2_far_latency;
    out->prefetch_forward = c->l2_prefetch_forward;
    out->num_sms = config_num_sms(c);
    memcpy(out->queue_size, c->partition_queues, sizeof out->queue_size);
}

static int check_policy(cache_geometry *g, uint8_t level, const char *override, const char *option, char *err,
                        size_t errlen) {
    if (override[0]) snprintf(g->policy, sizeof g->policy, "%s", override);
    g->level = level;
    const cache_policy_ops *pol = cache_policy_find(g->policy);
    const char *why = pol && pol->check ? pol->check(g) : NULL;
    if (why) {
        snprintf(err, errlen, "-%s: policy '%s': %s", option, g->policy, why);
        return -1;
    }
    if (pol) return 0;
    int k = snprintf(err, errlen, "-%s: unknown replacement policy '%s' (expected", option, g->policy);
    for (uint32_t i = 0; cache_policy_at(i) && k > 0 && (size_t)k < errlen; i++)
        k += snprintf(err + k, errlen - (size_t)k, " %s", cache_policy_at(i)->name);
    if (k > 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, ")");
    return -1;
}

/* -l1d_prefetcher / -l2_prefetcher and their options into the two caches'
 * geometries (cache_create builds the prefetcher from them). */
static int set_prefetcher(cache_geometry *g, const char *name, const sim_config *c, const char *option, char *err,
                          size_t errlen) {
    g->pf = c->pf;
    snprintf(g->pf.name, sizeof g->pf.name, "%s", name);
    g->pf.line_size = g->line_size;
    g->pf.ppf_tau_hi = (int32_t)c->ppf_tau_hi;
    g->pf.ppf_tau_lo = (int32_t)c->ppf_tau_lo;
    g->pf.ppf_theta_pos = (int32_t)c->ppf_theta_pos;
    g->pf.ppf_theta_neg = (int32_t)c->ppf_theta_neg;
    if (!name[0] || prefetch_find(name)) return 0;
    int k = snprintf(err, errlen, "-%s: unknown prefetcher '%s' (expected", option, name);
    for (uint32_t i = 0; prefetch_at(i) && k > 0 && (size_t)k < errlen; i++)
        k += snprintf(err + k, errlen - (size_t)k, " %s", prefetch_at(i)->name);
    if (k > 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, ")");
    return -1;
}

/* -1 with "-<option> <v>: expected a power of two" unless v is one (0 passes:
 * the options' own ranges refuse it). */
static int check_power_of_two(const char *option, uint32_t v, char *err, size_t errlen) {
    if (!(v & (v - 1))) return 0;
    snprintf(err, errlen, "-%s %u: expected a power of two", option, v);
    return -1;
}

static int set_prefetchers(sim_config *c, char *err, size_t errlen) {
    const struct { const char *name; double v; } ints[] = {{"ppf_tau_hi", c->ppf_tau_hi}, {"ppf_tau_lo", c->ppf_tau_lo},
                                                           {"ppf_theta_pos", c->ppf_theta_pos},
                                                           {"ppf_theta_neg", c->ppf_theta_neg}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (ints[i].v != floor(ints[i].v)) {
            snprintf(err, errlen, "-%s: expected an integer, got %g", ints[i].name, ints[i].v);
            return -1;
        }
    }
    if (c->ppf_tau_lo > c->ppf_tau_hi) {
        snprintf(err, errlen, "-ppf_tau_lo %g is above -ppf_tau_hi %g", c->ppf_tau_lo, c->ppf_tau_hi);
        return -1;
    }
    if (check_power_of_two("stride_entries", c->pf.stride_entries, err, errlen) ||
        check_power_of_two("spp_pt_sets", c->pf.spp_pt_sets, err, errlen) ||
        check_power_of_two("spp_page_bytes", c->pf.spp_page_bytes, err, errlen))
        return -1;
    if (c->pf.spp_st_entries % 16) {
        snprintf(err, errlen, "-spp_st_entries %u: expected a multiple of 16", c->pf.spp_st_entries);
        return -1;
    }
    const uint32_t *th = c->dram.mfq_thresholds;
    if (th[0] > th[1] || th[1] > th[2]) {
        snprintf(err, errlen, "-mfq_thresholds %u:%u:%u: expected non-decreasing bounds", th[0], th[1], th[2]);
        return -1;
    }
    return set_prefetcher(&c->l1d, c->l1d_prefetcher, c, "l1d_prefetcher", err, errlen) ||
                   set_prefetcher(&c->l2, c->l2_prefetcher, c, "l2_prefetcher", err, errlen)
               ? -1
               : 0;
}

static int check_l1_banks(const sim_config *c, char *err, size_t errlen) {
    return check_power_of_two("gpgpu_l1_banks", c->l1_banks, err, errlen) ||
                   check_power_of_two("gpgpu_l1_banks_byte_interleaving", c->l1_banks_byte_interleaving, err, errlen)
               ? -1
               : 0;
}

/* An L1 fill is answered by one L2 slice from one L2 line, so no L1 line may
 * span several L2 lines (their halves could live in different slices). */
static int check_cache_lines(const sim_config *c, char *err, size_t errlen) {
    const struct { const cache_geometry *g; const char *opt; } l1[] = {
        {&c->l1d, "-gpgpu_cache:dl1"}, {&c->l1c, "-gpgpu_const_cache:l1"}, {&c->l1i, "-gpgpu_cache:il1"}};
    for (size_t i = 0; i < sizeof l1 / sizeof l1[0]; i++) {
        if (!l1[i].g->nsets || l1[i].g->line_size <= c->l2.line_size) continue;
        snprintf(err, errlen, "%s: its %u-byte lines are longer than the L2's %u-byte lines (-gpgpu_cache:dl2); "
                 "an L1 line must fit in one L2 line", l1[i].opt, l1[i].g->line_size, c->l2.line_size);
        return -1;
    }
    return 0;
}

static int check_buffers(const sim_config *c, char *err, size_t errlen) {
    uint32_t line = c->l1d.line_size > c->l2.line_size ? c->l1d.line_size : c->l2.line_size;
    if (c->l1t.line_size > line) line = c->l1t.line_size;
    uint32_t bytes = line + MEM_PACKET_HEADER_BYTES;
    uint32_t flits = (bytes + c->icnt.flit_size - 1) / c->icnt.flit_size;
    if (c->icnt.in_buffer_flits < flits || c->icnt.out_buffer_flits < flits) {
        snprintf(err, errlen, "-icnt_in_buffer_limit and -icnt_out_buffer_limit must hold one %u-byte packet "
                 "(%u flits of %u B)", bytes, flits, c->icnt.flit_size);
        return -1;
    }
    uint32_t l2_sectors = c->l2.line_size / MEM_SECTOR_SIZE;
    if (c->l2.sectored && c->partition_queues[PART_Q_ICNT_L2] < l2_sectors) {
        snprintf(err, errlen, "-gpgpu_dram_partition_queues: the icnt->L2 queue (%u) must hold the %u sector "
                 "requests one request to a sectored L2 (-gpgpu_cache:dl2 S:) becomes",
                 c->partition_queues[PART_Q_ICNT_L2], l2_sectors);
        return -1;
    }
    if (c->partition_queues[PART_Q_L2_ICNT] < c->l2.mshr_max_merge) {
        snprintf(err, errlen, "-gpgpu_dram_partition_queues: the L2->icnt queue (%u) must hold the %u requests "
                 "one L2 fill can wake (-gpgpu_cache:dl2 max merge)", c->partition_queues[PART_Q_L2_ICNT],
                 c->l2.mshr_max_merge);
        return -1;
    }
    return 0;
}

/* The GPU's size and clocks: the model ticks every edge of the fastest clock, so a
 * clock far slower than the others makes every access to its domain cost thousands
 * of fast-clock ticks (a 0.02 s run becomes hours).  No real GPU is near the limit. */
#define CONFIG_MAX_SMS 4096
#define CONFIG_MAX_CLOCK_RATIO 100.0

static int check_gpu_size(const sim_config *c, char *err, size_t errlen) {
    uint32_t sms = config_num_sms(c);
    if (sms > CONFIG_MAX_SMS) {
        snprintf(err, errlen, "-gpgpu_n_clusters %u x -gpgpu_n_cores_per_cluster %u = %u SMs; locsim simulates "
                 "at most %u", c->n_clusters, c->n_cores_per_cluster, sms, CONFIG_MAX_SMS);
        return -1;
    }
    static const char *const names[CLOCK_COUNT] = {"core", "interconnect", "L2", "DRAM"};
    double mhz[CLOCK_COUNT];   /* the clocks the model ticks: -dram_bw_scale speeds the DRAM's up */
    for (int d = 0; d < CLOCK_COUNT; d++) mhz[d] = c->clock_mhz[d] * (d == CLOCK_DRAM ? c->dram_bw_scale : 1);
    if (mhz[CLOCK_DRAM] > 100000.0) {
        snprintf(err, errlen, "-dram_bw_scale %u: the DRAM clock would run at %g MHz; locsim accepts clocks up to "
                 "100000 MHz", c->dram_bw_scale, mhz[CLOCK_DRAM]);
        return -1;
    }
    int lo = 0, hi = 0;
    for (int d = 0; d < CLOCK_COUNT; d++) {
        if (c->clock_mhz[d] < 0.001) {
            snprintf(err, errlen, "-gpgpu_clock_domains: the %s clock (%g MHz) is below 0.001 MHz", names[d],
                     c->clock_mhz[d]);
            return -1;
        }
        if (mhz[d] < mhz[lo]) lo = d;
        if (mhz[d] > mhz[hi]) hi = d;
    }
    if (mhz[hi] > CONFIG_MAX_CLOCK_RATIO * mhz[lo]) {
        snprintf(err, errlen, "-gpgpu_clock_domains: the %s clock (%g MHz%s) is %.0f times the %s clock (%g MHz); "
                 "locsim simulates every edge of the fastest clock, so it accepts ratios up to %.0f (real GPUs "
                 "are within 4)", names[hi], mhz[hi], hi == CLOCK_DRAM && c->dram_bw_scale > 1 ?
                 " with -dram_bw_scale" : "", mhz[hi] / mhz[lo], names[lo], mhz[lo], CONFIG_MAX_CLOCK_RATIO);
        return -1;
    }
    return 0;
}

/* -gpgpu_sub_core_model 1 gives each warp scheduler an equal share of the
 * register banks, the collector units of each set and the units of each
 * pipeline (Accel-Sim asserts the same divisibility for the banks and the
 * collector units, and gives each scheduler one issue slot of each pipeline).
 * The LD/ST unit stays one per SM. */
static int check_sub_cores(const sim_config *c, char *err, size_t errlen) {
    if (c->l0i.nsets && !c->sub_core_model) {
        snprintf(err, errlen, "-gpgpu_cache:il0: L0 instruction caches belong to sub-cores: they need "
                 "-gpgpu_sub_core_model 1");
        return -1;
    }
    if (c->l0i.nsets && c->l0i.line_size > c->l1i.line_size) {
        snprintf(err, errlen, "-gpgpu_cache:il0: its %u-byte lines are longer than the L1I's %u-byte lines "
                 "(-gpgpu_cache:il1)", c->l0i.line_size, c->l1i.line_size);
        return -1;
    }
    if (!c->sub_core_model) return 0;
    uint32_t n = c->num_sched_per_core;
    const struct { uint32_t v; const char *opt; } share[] = {
        {c->num_reg_banks, "-gpgpu_num_reg_banks"},
        {c->oc_units_sp, "-gpgpu_operand_collector_num_units_sp"},
        {c->oc_units_sfu, "-gpgpu_operand_collector_num_units_sfu"},
        {c->num_sp_units, "-gpgpu_num_sp_units"},
        {c->num_sfu_units, "-gpgpu_num_sfu_units"},
        {c->num_dp_units, "-gpgpu_num_dp_units"},
        {c->num_int_units, "-gpgpu_num_int_units"},
        {c->tensor_core_avail ? c->num_tensor_units : 0, "-gpgpu_num_tensor_core_units"}};
    for (size_t i = 0; i < sizeof share / sizeof share[0]; i++) {
        if (share[i].v % n == 0) continue; /* 0 (no such unit, or one per scheduler) divides too */
        snprintf(err, errlen, "-gpgpu_sub_core_model 1: %s %u must be a multiple of -gpgpu_num_sched_per_core %u "
                 "(each sub-core gets an equal share)", share[i].opt, share[i].v, n);
        return -1;
    }
    return 0;
}

/* The multi-module options (docs/numa.md): checked even with one module, so a
 * misspelt placement is reported whatever the module count. */
static int check_numa(const sim_config *c, char *err, size_t errlen) {
    uint32_t m = c->numa_n_modules;
    if (!numa_place_find(c->numa_placement)) {
        int k = snprintf(err, errlen, "-numa_placement: unknown placement '%s' (expected", c->numa_placement);
        for (uint32_t i = 0; numa_place_at(i) && k > 0 && (size_t)k < errlen; i++)
            k += snprintf(err + k, errlen - (size_t)k, "%s %s", i ? "," : "", numa_place_at(i)->name);
        if (k > 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, ")");
        return -1;
    }
    if (strcmp(c->numa_link_topology, "egress") && strcmp(c->numa_link_topology, "ring")) {
        snprintf(err, errlen, "-numa_link_topology: expected egress or ring, got '%s'", c->numa_link_topology);
        return -1;
    }
    if (m & (m - 1)) {
        snprintf(err, errlen, "-numa_n_modules: expected a power of two, got %u", m);
        return -1;
    }
    if (config_num_sms(c) % m || c->n_mem % m) {
        snprintf(err, errlen, "-numa_n_modules %u: the %u SMs and %u memory channels must divide evenly among the modules",
                 m, config_num_sms(c), c->n_mem);
        return -1;
    }
    if (c->numa_page_size & (c->numa_page_size - 1)) {
        snprintf(err, errlen, "-numa_page_size: expected a power of two, got %u", c->numa_page_size);
        return -1;
    }
    return 0;
}

/* Unified L1D/shared memory (docs/modern.md): the L1D string describes the
 * whole array, each carve-out leaves it whole ways, and the L1D is emptied at
 * every kernel boundary (a carve-out may take ways that held lines). */
static int check_unified(const sim_config *c, char *err, size_t errlen) {
    if (!c->adaptive_cache_config) return 0;
    const cache_geometry *g = &c->l1d;
    uint64_t way_bytes = (uint64_t)g->nsets * g->line_size, total = way_bytes * g->assoc;
    uint64_t unified = (uint64_t)c->unified_l1d_kb * 1024;
    if (!g->nsets) {
        snprintf(err, errlen, "-gpgpu_adaptive_cache_config 1 needs an L1D (-gpgpu_cache:dl1 is none)");
        return -1;
    }
    if (total != unified) {
        snprintf(err, errlen,
                 "-gpgpu_adaptive_cache_config 1: -gpgpu_cache:dl1 holds %llu bytes (%u sets x %u B x %u ways); "
                 "-gpgpu_unified_l1d_size %u KB is %llu",
                 (unsigned long long)total, g->nsets, g->line_size, g->assoc, c->unified_l1d_kb,
                 (unsigned long long)unified);
        return -1;
    }
    if (!c->flush_l1_cache) {
        snprintf(err, errlen, "-gpgpu_adaptive_cache_config 1 needs -gpgpu_flush_l1_cache 1 (a carve-out may take "
                              "ways that hold lines)");
        return -1;
    }
    for (uint32_t i = 0; i < c->n_shmem_option; i++) {
        uint64_t smem = (uint64_t)c->shmem_option[i] * 1024;
        if (smem >= unified || smem % way_bytes) {
            snprintf(err, errlen,
                     "-gpgpu_shmem_option: a carve-out of %u KB must be below -gpgpu_unified_l1d_size (%u KB) and a "
                     "whole number of L1D ways (%llu bytes each)",
                     c->shmem_option[i], c->unified_l1d_kb, (unsigned long long)way_bytes);
            return -1;
        }
    }
    uint64_t largest = (uint64_t)c->shmem_option[c->n_shmem_option - 1] * 1024;
    if (c->shmem_size > largest) {
        snprintf(err, errlen, "-gpgpu_shmem_size %u is more than the largest -gpgpu_shmem_option (%u KB)",
                 c->shmem_size, c->shmem_option[c->n_shmem_option - 1]);
        return -1;
    }
    return 0;
}

uint32_t config_l1d_carveout(const sim_config *c, uint64_t smem_bytes, uint32_t *ways) {
    const cache_geometry *g = &c->l1d;
    *ways = g->assoc;
    if (!c->adaptive_cache_config) return 0;
    uint32_t pick = c->shmem_option[c->n_shmem_option - 1];
    for (uint32_t i = 0; i < c->n_shmem_option; i++)
        if (smem_bytes <= (uint64_t)c->shmem_option[i] * 1024) {
            pick = c->shmem_option[i];
            break;
        }
    uint64_t way_bytes = (uint64_t)g->nsets * g->line_size;
    *ways = (uint32_t)(((uint64_t)c->unified_l1d_kb * 1024 - (uint64_t)pick * 1024) / way_bytes);
    return pick;
}

/* -l2_prefetch_forward: candidates go from slice to slice of one module, and
 * there must be a prefetcher to make them. */
static int check_forward(const sim_config *c, char *err, size_t errlen) {
    if (!c->l2_prefetch_forward) return 0;
    if (!c->l2_prefetcher[0]) {
        snprintf(err, errlen, "-l2_prefetch_forward %u needs an L2 prefetcher (-l2_prefetcher)", c->l2_prefetch_forward);
        return -1;
    }
    if (c->numa_n_modules > 1) {
        snprintf(err, errlen, "-l2_prefetch_forward is for one module (-numa_n_modules 1): candidates are not sent "
                              "over the links");
        return -1;
    }
    return 0;
}

/* -l2_far_latency: the halves are made of SMs and channels, one module's. */
static int check_far(const sim_config *c, char *err, size_t errlen) {
    if (!c->l2_far_latency) return 0;
    if (c->numa_n_modules > 1 || config_num_sms(c) < 2 || c->n_mem < 2) {
        snprintf(err, errlen, "-l2_far_latency needs one module (-numa_n_modules 1) with at least 2 SMs and 2 "
                              "memory channels to split into halves");
        return -1;
    }
    return 0;
}

int config_finalize(sim_config *c, char *err, size_t errlen) {
    if (check_policy(&c->l1d, CACHE_LEVEL_L1D, c->l1d_policy, c->l1d_policy[0] ? "l1d_policy" : "gpgpu_cache:dl1",
                     err, errlen) ||
        check_policy(&c->l2, CACHE_LEVEL_L2, c->l2_policy, c->l2_policy[0] ? "l2_policy" : "gpgpu_cache:dl2", err,
                     errlen) ||
        check_policy(&c->l1i, CACHE_LEVEL_OTHER, "", "gpgpu_cache:il1", err, errlen) ||
        (c->l0i.nsets && check_policy(&c->l0i, CACHE_LEVEL_OTHER, "", "gpgpu_cache:il0", err, errlen)) ||
        check_policy(&c->l1c, CACHE_LEVEL_OTHER, "", "gpgpu_const_cache:l1", err, errlen) ||
        check_policy(&c->l1t, CACHE_LEVEL_OTHER, "", "gpgpu_tex_cache:l1", err, errlen))
        return -1;
    c->l1d.sharing_dead_block = (uint8_t)c->sharing_dead_block;
    c->l2.sharing_detect_stores = (uint8_t)c->sharing_detect_stores;
    c->l2.sharing_kernel_reset = (uint8_t)c->sharing_kernel_reset;
    c->l1d.ldesc_bypass = (uint8_t)c->ldesc_l1_bypass;
    c->l1d.ldesc_hard_pin = (uint8_t)c->ldesc_l1_hard_pin;
    c->l1d.ldesc_soft_pin = (uint8_t)c->ldesc_l1_soft_pin;
    c->l1d.ldesc_unpin_period = c->ldesc_unpin_period;
    if (set_prefetchers(c, err, errlen)) return -1;
    static const uint8_t global_write[] = {0, CACHE_WRITE_THROUGH, CACHE_WRITE_EVICT, CACHE_WRITE_BACK};
    if (c->l1d_global_write != L1D_GLOBAL_WRITE_FROM_CACHE) c->l1d.write_global = global_write[c->l1d_global_write];
    if (c->warp_size % c->simd_width) {
        snprintf(err, errlen, "-gpgpu_simd_width %u does not divide the warp size %u", c->simd_width, c->warp_size);
        return -1;
    }
    if (check_gpu_size(c, err, errlen) || check_numa(c, err, errlen) || check_unified(c, err, errlen) ||
        check_far(c, err, errlen) || check_forward(c, err, errlen) || check_sub_cores(c, err, errlen))
        return -1;
    addrmap_config ac;
    addrmap am;
    char why[400];
    config_addrmap(c, &ac);
    if (addrmap_init(&am, &ac, why, sizeof why)) {
        snprintf(err, errlen, "-gpgpu_mem_addr_mapping: %s", why);
        return -1;
    }
    if (check_cache_lines(c, err, errlen) || check_l1_banks(c, err, errlen)) return -1;
    return check_buffers(c, err, errlen);
}

/* ---- help and dump ---- */

static void syntax_of(const option_def *o, char *buf, size_t n) {
    switch (o->type) {
    case OPT_UINT: case OPT_U64: snprintf(buf, n, "<n>"); break;
    case OPT_DOUBLE: snprintf(buf, n, "<x>"); break;
    case OPT_BOOL: snprintf(buf, n, "0|1"); break;
    case OPT_STRING: snprintf(buf, n, "<text>"); break;
    case OPT_ENUM: snprintf(buf, n, "%s", o->choices); break;
    case OPT_CACHE: snprintf(buf, n, "<cache string>"); break;
    default: snprintf(buf, n, "%s", o->syntax); break;
    }
}

/* The policies registered for an option that names one (from the registries
 * themselves, so the list cannot go stale), comma-separated; 0 for other options. */
static int registered_names(const char *option, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
#define LIST(AT)                                                                                  \
    do {                                                                                          \
        for (uint32_t i = 0; AT(i) && k < n; i++)                                                 \
            k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", AT(i)->name);            \
    } while (0)
    if (!strcmp(option, "gpgpu_scheduler")) LIST(sched_at);
    else if (!strcmp(option, "cta_scheduler")) LIST(cta_sched_at);
    else if (!strcmp(option, "l1d_policy") || !strcmp(option, "l2_policy")) LIST(cache_policy_at);
    else if (!strcmp(option, "l1d_prefetcher") || !strcmp(option, "l2_prefetcher")) LIST(prefetch_at);
    else if (!strcmp(option, "gpgpu_dram_scheduler")) LIST(dram_sched_at);
    else if (!strcmp(option, "numa_placement")) LIST(numa_place_at);
    else return 0;
#undef LIST
    return 1;
}

void config_help(FILE *out) {
    size_t n;
    const option_def *t = config_option_table(&n);
    fprintf(out, "Options (config files take the same '-option value' pairs; later settings win).\n"
                 "Cache strings: <N|S>:<sets>:<line>:<assoc>,<repl L|F>:<wr R|B|T|E|L>:<alloc m|f>:"
                 "<wr_alloc N|W|F|L>:<idx L|H>,<mshr A|S>:<entries>:<max merge>,<miss queue>\n");
    for (size_t i = 0; i < n; i++) {
        const option_def *o = &t[i];
        if (!o->name) {
            fprintf(out, "\n%s:\n", o->help);
            continue;
        }
        char syn[256], range[160];
        syntax_of(o, syn, sizeof syn);
        fprintf(out, "  -%s %s\n      %s%s\n", o->name, syn, o->help,
                o->compat ? " [accepted for compatibility only: no effect]" : "");
        char names[1024];
        if (registered_names(o->name, names, sizeof names)) fprintf(out, "      registered: %s\n", names);
        fprintf(out, "      default: %s", o->def[0] ? o->def : "(empty)");
        if (o->type == OPT_UINT || o->type == OPT_U64 || o->type == OPT_DOUBLE || o->type == OPT_U32LIST) {
            range_text(o, range, sizeof range);
            fprintf(out, "; %s%s", o->type == OPT_U32LIST ? "each " : "", range);
        }
        if (o->alias) fprintf(out, "; also accepted as -%s", o->alias);
        fputc('\n', out);
    }
}

/* Are the options of the section starting at t (up to the next header) all
 * host options?  Then the dump leaves its header out too, so that it is the
 * same as before the section existed. */
static bool section_all_host(const option_def *t, size_t n) {
    size_t i = 0;
    for (; i < n && t[i].name; i++)
        if (!t[i].host) return false;
    return i > 0;
}

void config_dump(const sim_config *c, FILE *out) {
    size_t n;
    const option_def *t = config_option_table(&n);
    for (size_t i = 0; i < n; i++) {
        const option_def *o = &t[i];
        if (!o->name) {
            if (!section_all_host(t + i + 1, n - i - 1)) fprintf(out, "\n# %s\n", o->help);
            continue;
        }
        if (o->host) continue;   /* not part of the simulated machine (config_options.h) */
        char v[512];
        format_value(c, o, v, sizeof v);
        bool quote = !v[0] || strpbrk(v, " \t\n#\"") != NULL;
        fprintf(out, quote ? "-%s \"%s\"\n" : "-%s %s\n", o->name, v);
    }
}
