/* Statistics registry (see stats.h). */
#include <stdlib.h>
#include <string.h>

#include "sim/stats.h"
#include "sim/stats_json.h"

/* COUNTER and REAL are sources (collected); RATIO, SCALED and SUM are derived
 * when read, from the kernel's or the total's own source values.  MAX is an
 * integer source that is not cumulative: a kernel's value is what its pass
 * collected, the total the largest of them. */
typedef enum { KIND_COUNTER, KIND_REAL, KIND_RATIO, KIND_SCALED, KIND_SUM, KIND_MAX } stat_kind;

static bool is_integer(stat_kind k) { return k == KIND_COUNTER || k == KIND_MAX; }

typedef struct {
    char *name, *total_name, *help;
    stat_kind kind;
    unsigned flags;
    int num, den;          /* RATIO: num / den; SCALED: num */
    double scale;
    int *terms;            /* SUM: earlier statistics, added in this order */
    uint32_t nterms;
} stat_def;

/* The values of every source at one point: kernel deltas or cumulative totals. */
typedef struct {
    char *kernel_name;
    uint64_t *counter, *cum_counter;   /* this kernel; the run up to its end */
    double *real, *cum_real;
} stat_record;

struct stats {
    stat_def *defs;
    uint32_t n, cap;
    uint64_t *acc_counter;      /* the collection pass in progress */
    double *acc_real;
    uint64_t *prev_counter;     /* cumulative values at the end of the last kernel */
    double *prev_real;
    stat_record *kernels;
    uint32_t nkernels, cap_kernels;
};

static char *dup_or_null(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

stats *stats_create(void) { return calloc(1, sizeof(stats)); }

static void free_record(stat_record *r) {
    free(r->kernel_name);
    free(r->counter);
    free(r->real);
    free(r->cum_counter);
    free(r->cum_real);
}

void stats_destroy(stats *s) {
    if (!s) return;
    for (uint32_t i = 0; i < s->n; i++) {
        free(s->defs[i].name);
        free(s->defs[i].total_name);
        free(s->defs[i].help);
        free(s->defs[i].terms);
    }
    for (uint32_t k = 0; k < s->nkernels; k++) free_record(&s->kernels[k]);
    free(s->defs);
    free(s->acc_counter);
    free(s->acc_real);
    free(s->prev_counter);
    free(s->prev_real);
    free(s->kernels);
    free(s);
}

int stats_find(const stats *s, const char *name) {
    for (uint32_t i = 0; i < s->n; i++)
        if (strcmp(s->defs[i].name, name) == 0 ||
            (s->defs[i].total_name && strcmp(s->defs[i].total_name, name) == 0))
            return (int)i;
    return -1;
}

uint32_t stats_count(const stats *s) { return s->n; }
const char *stats_name(const stats *s, int id) { return id >= 0 && (uint32_t)id < s->n ? s->defs[id].name : NULL; }

/* Grow every per-statistic array together. */
static int grow(stats *s) {
    if (s->n < s->cap) return 0;
    uint32_t cap = s->cap ? s->cap * 2 : 64;
    stat_def *d = realloc(s->defs, cap * sizeof *d);
    if (!d) return -1;
    s->defs = d;
    uint64_t **u[2] = {&s->acc_counter, &s->prev_counter};
    double **r[2] = {&s->acc_real, &s->prev_real};
    for (int i = 0; i < 2; i++) {
        uint64_t *nu = realloc(*u[i], cap * sizeof **u[i]);
        if (!nu) return -1;
        memset(nu + s->cap, 0, (cap - s->cap) * sizeof *nu);
        *u[i] = nu;
        double *nr = realloc(*r[i], cap * sizeof **r[i]);
        if (!nr) return -1;
        memset(nr + s->cap, 0, (cap - s->cap) * sizeof *nr);
        *r[i] = nr;
    }
    s->cap = cap;
    return 0;
}

static int define(stats *s, const char *name, const char *total_name, stat_kind kind, unsigned flags,
                  const char *help) {
    /* Statistics are defined before the first kernel ends: records have a fixed width. */
    if (!name || stats_find(s, name) >= 0 || (total_name && stats_find(s, total_name) >= 0) || s->nkernels ||
        grow(s))
        return -1;
    stat_def *d = &s->defs[s->n];
    memset(d, 0, sizeof *d);
    d->name = dup_or_null(name);
    d->total_name = dup_or_null(total_name);
    d->help = dup_or_null(help ? help : "");
    if (!d->name || !d->help || (total_name && !d->total_name)) {
        free(d->name);
        free(d->total_name);
        free(d->help);
        return -1;
    }
    d->kind = kind;
    d->flags = flags;
    return (int)s->n++;
}

int stats_define_counter(stats *s, const char *name, const char *total_name, unsigned flags, const char *help) {
    return define(s, name, total_name, KIND_COUNTER, flags, help);
}

int stats_define_max(stats *s, const char *name, const char *total_name, unsigned flags, const char *help) {
    return define(s, name, total_name, KIND_MAX, flags, help);
}

int stats_define_real(stats *s, const char *name, const char *total_name, unsigned flags, const char *help) {
    return define(s, name, total_name, KIND_REAL, flags, help);
}

/* Derived statistics may only refer to statistics defined before them, so the
 * reading recursion ends. */
static bool is_earlier(const stats *s, int id) { return id >= 0 && (uint32_t)id < s->n; }

int stats_define_ratio(stats *s, const char *name, const char *total_name, int num, int den, double scale,
                       unsigned flags, const char *help) {
    if (!is_earlier(s, num) || !is_earlier(s, den)) return -1;
    flags |= (s->defs[num].flags | s->defs[den].flags) & STAT_HOST;
    int id = define(s, name, total_name, KIND_RATIO, flags, help);
    if (id >= 0) {
        s->defs[id].num = num;
        s->defs[id].den = den;
        s->defs[id].scale = scale;
    }
    return id;
}

int stats_define_scaled(stats *s, const char *name, int src, double scale, unsigned flags, const char *help) {
    if (!is_earlier(s, src)) return -1;
    flags |= s->defs[src].flags & STAT_HOST;
    int id = define(s, name, NULL, KIND_SCALED, flags, help);
    if (id >= 0) {
        s->defs[id].num = src;
        s->defs[id].scale = scale;
    }
    return id;
}

int stats_define_sum(stats *s, const char *name, const int *terms, uint32_t nterms, unsigned flags,
                     const char *help) {
    if (!nterms) return -1;
    for (uint32_t i = 0; i < nterms; i++) {
        if (!is_earlier(s, terms[i])) return -1;
        flags |= s->defs[terms[i]].flags & STAT_HOST;
    }
    int *copy = malloc(nterms * sizeof *copy);
    if (!copy) return -1;
    memcpy(copy, terms, nterms * sizeof *copy);
    int id = define(s, name, NULL, KIND_SUM, flags, help);
    if (id < 0) {
        free(copy);
        return -1;
    }
    s->defs[id].terms = copy;
    s->defs[id].nterms = nterms;
    return id;
}

/* ---- collection ---- */

void stats_collect_begin(stats *s) {
    if (!s->n) return;
    memset(s->acc_counter, 0, s->n * sizeof *s->acc_counter);
    memset(s->acc_real, 0, s->n * sizeof *s->acc_real);
}

void stats_add(stats *s, int id, uint64_t cumulative) {
    if (id >= 0 && (uint32_t)id < s->n) s->acc_counter[id] += cumulative;
}

void stats_add_max(stats *s, int id, uint64_t value) {
    if (id >= 0 && (uint32_t)id < s->n && value > s->acc_counter[id]) s->acc_counter[id] = value;
}

void stats_add_real(stats *s, int id, double cumulative) {
    if (id >= 0 && (uint32_t)id < s->n) s->acc_real[id] += cumulative;
}

int stats_kernel_end(stats *s, const char *kernel_name) {
    if (s->nkernels == s->cap_kernels) {
        uint32_t cap = s->cap_kernels ? s->cap_kernels * 2 : 16;
        stat_record *k = realloc(s->kernels, cap * sizeof *k);
        if (!k) return -1;
        s->kernels = k;
        s->cap_kernels = cap;
    }
    stat_record *r = &s->kernels[s->nkernels];
    size_t n = s->n ? s->n : 1;
    r->kernel_name = dup_or_null(kernel_name ? kernel_name : "");
    r->counter = calloc(n, sizeof *r->counter);
    r->real = calloc(n, sizeof *r->real);
    r->cum_counter = calloc(n, sizeof *r->cum_counter);
    r->cum_real = calloc(n, sizeof *r->cum_real);
    if (!r->kernel_name || !r->counter || !r->real || !r->cum_counter || !r->cum_real) {
        free_record(r);
        return -1;
    }
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->defs[i].kind == KIND_MAX) {
            r->counter[i] = s->acc_counter[i];
            if (s->acc_counter[i] > s->prev_counter[i]) s->prev_counter[i] = s->acc_counter[i];
            r->cum_counter[i] = s->prev_counter[i];
            continue;
        }
        r->counter[i] = s->acc_counter[i] - s->prev_counter[i];
        r->real[i] = s->acc_real[i] - s->prev_real[i];
        s->prev_counter[i] = r->cum_counter[i] = s->acc_counter[i];
        s->prev_real[i] = r->cum_real[i] = s->acc_real[i];
    }
    s->nkernels++;
    return 0;
}

/* ---- reading ---- */

uint32_t stats_kernels(const stats *s) { return s->nkernels; }

const char *stats_kernel_name(const stats *s, uint32_t k) {
    return k < s->nkernels ? s->kernels[k].kernel_name : NULL;
}

static double source_value(const stats *s, const uint64_t *cnt, const double *real, int id) {
    return is_integer(s->defs[id].kind) ? (double)cnt[id] : real[id];
}

static double value_from(const stats *s, const uint64_t *cnt, const double *real, int id) {
    const stat_def *d = &s->defs[id];
    switch (d->kind) {
    case KIND_RATIO: {
        double den = value_from(s, cnt, real, d->den);
        return den != 0.0 ? d->scale * value_from(s, cnt, real, d->num) / den : 0.0;
    }
    case KIND_SCALED: return d->scale * value_from(s, cnt, real, d->num);
    case KIND_SUM: {
        double sum = 0.0;
        for (uint32_t i = 0; i < d->nterms; i++) sum += value_from(s, cnt, real, d->terms[i]);
        return sum;
    }
    default: return source_value(s, cnt, real, id);
    }
}

double stats_value(const stats *s, uint32_t k, int id) {
    if (id < 0 || (uint32_t)id >= s->n) return 0.0;
    if (k == STATS_TOTAL) return value_from(s, s->prev_counter, s->prev_real, id);
    if (k >= s->nkernels) return 0.0;
    return value_from(s, s->kernels[k].counter, s->kernels[k].real, id);
}

uint64_t stats_counter_value(const stats *s, uint32_t k, int id) {
    if (id < 0 || (uint32_t)id >= s->n || !is_integer(s->defs[id].kind)) return 0;
    if (k == STATS_TOTAL) return s->prev_counter[id];
    return k < s->nkernels ? s->kernels[k].counter[id] : 0;
}

/* ---- output ---- */

static void print_from(const stats *s, const char *name, const uint64_t *cnt, const double *real, int id,
                       FILE *out) {
    if (is_integer(s->defs[id].kind)) fprintf(out, "%s = %llu\n", name, (unsigned long long)cnt[id]);
    else fprintf(out, "%s = %.4f\n", name, value_from(s, cnt, real, id));
}

void stats_print_kernel(const stats *s, uint32_t k, FILE *out) {
    if (k >= s->nkernels) return;
    fprintf(out, "kernel_name = %s\nkernel_launch_uid = %u\n", s->kernels[k].kernel_name, k + 1);
    for (uint32_t i = 0; i < s->n; i++) {
        const stat_def *d = &s->defs[i];
        if (d->flags & STAT_DETAIL) continue;
        const stat_record *r = &s->kernels[k];
        print_from(s, d->name, r->counter, r->real, (int)i, out);
        /* GPGPU-Sim prints the running total right after the kernel's value. */
        if (d->total_name) print_from(s, d->total_name, r->cum_counter, r->cum_real, (int)i, out);
    }
}

void stats_print_total(const stats *s, FILE *out) {
    fprintf(out, "kernels = %u\n", s->nkernels);
    for (uint32_t i = 0; i < s->n; i++) {
        const stat_def *d = &s->defs[i];
        if (d->flags & STAT_DETAIL) continue;
        print_from(s, d->total_name ? d->total_name : d->name, s->prev_counter, s->prev_real, (int)i, out);
    }
}

static void json_values(const stats *s, json_writer *w, uint32_t k, bool total, unsigned flags) {
    for (uint32_t i = 0; i < s->n; i++) {
        const stat_def *d = &s->defs[i];
        if ((d->flags & STAT_HOST) && !(flags & STATS_JSON_HOST)) continue;
        const char *name = total && d->total_name ? d->total_name : d->name;
        if (is_integer(d->kind)) json_u64(w, name, stats_counter_value(s, k, (int)i));
        else json_double(w, name, stats_value(s, k, (int)i));
    }
}

int stats_write_json(const stats *s, FILE *out, unsigned flags) { return stats_write_json_with(s, out, flags, NULL, NULL); }

int stats_write_json_with(const stats *s, FILE *out, unsigned flags, stats_json_extra_fn extra, void *ctx) {
    json_writer w;
    json_init(&w, out);
    json_begin_object(&w, NULL);
    if (extra) extra(&w, ctx);
    json_begin_array(&w, "kernels");
    for (uint32_t k = 0; k < s->nkernels; k++) {
        json_begin_object(&w, NULL);
        json_string(&w, "name", s->kernels[k].kernel_name);
        json_u64(&w, "index", k);
        json_begin_object(&w, "stats");
        json_values(s, &w, k, false, flags);
        json_end_object(&w);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_object(&w, "total");
    json_u64(&w, "kernels", s->nkernels);
    json_values(s, &w, STATS_TOTAL, true, flags);
    json_end_object(&w);
    json_end_object(&w);
    return json_finish(&w);
}

/* ---- standard groups ---- */

static int all_ok(const int *ids, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (ids[i] < 0) return -1;
    return 0;
}

int stats_define_gpu(stats *s, stats_gpu_ids *g) {
    g->cycle = stats_define_counter(s, "gpu_sim_cycle", "gpu_tot_sim_cycle", 0, "core cycles");
    g->insn = stats_define_counter(s, "gpu_sim_insn", "gpu_tot_sim_insn", 0, "thread instructions");
    g->warp_insn = stats_define_counter(s, "gpu_sim_warp_insn", "gpu_tot_sim_warp_insn", 0, "warp instructions");
    g->ipc = stats_define_ratio(s, "gpu_ipc", "gpu_tot_ipc", g->insn, g->cycle, 1.0, 0,
                                "thread instructions per core cycle");
    g->mem_latency_sum = stats_define_counter(s, "gpu_mem_latency_sum", NULL, STAT_DETAIL,
                                              "sum of memory request latencies, core cycles");
    g->mem_latency_n = stats_define_counter(s, "gpu_mem_requests", NULL, STAT_DETAIL, "memory requests timed");
    g->mem_latency = stats_define_ratio(s, "averagemflatency", NULL, g->mem_latency_sum, g->mem_latency_n, 1.0, 0,
                                        "average memory request latency, core cycles");
    g->host_seconds = stats_define_real(s, "gpgpu_simulation_time_sec", NULL, STAT_HOST, "host seconds simulating");
    g->sim_rate = stats_define_ratio(s, "gpgpu_simulation_rate", NULL, g->insn, g->host_seconds, 1.0, 0,
                                     "simulated thread instructions per host second");
    return all_ok((const int *)g, sizeof *g / sizeof(int));
}

int stats_define_cache(stats *s, const char *p, int insn_id, stats_cache_ids *c) {
    char name[128];
#define DEF(field, suffix, help) \
    (snprintf(name, sizeof name, "%s%s", p, suffix), c->field = stats_define_counter(s, name, NULL, 0, help))
    DEF(accesses, "_total_cache_accesses", "hits + pending hits + misses");
    DEF(hits, "_total_cache_hits", "hits");
    DEF(misses, "_total_cache_misses", "misses");
    DEF(pending_hits, "_total_cache_pending_hits", "accesses merged into an MSHR entry in flight");
    DEF(reservation_fails, "_total_cache_reservation_fails", "accesses refused for lack of a resource (retried)");
    DEF(writebacks, "_total_cache_writebacks", "dirty lines written back");
    DEF(evictions, "_total_cache_evictions", "valid lines replaced");
#undef DEF
    snprintf(name, sizeof name, "%s_total_cache_miss_rate", p);
    c->miss_rate = stats_define_ratio(s, name, NULL, c->misses, c->accesses, 1.0, 0, "misses / accesses");
    c->mpki = 0;   /* a placeholder id until the end (-1 when there is no MPKI) */
    if (insn_id >= 0) {
        snprintf(name, sizeof name, "%s_MPKI", p);
        c->mpki = stats_define_ratio(s, name, NULL, c->misses, insn_id, 1000.0, 0,
                                     "misses per 1000 thread instructions");
    }
    for (int t = 0; t < MEM_ACCESS_TYPE_COUNT; t++) {
        for (int o = 0; o < CACHE_OUTCOME_COUNT; o++) {
            snprintf(name, sizeof name, "%s_cache_stats_breakdown[%s][%s]", p, mem_access_type_name((uint8_t)t),
                     cache_outcome_name((cache_outcome)o));
            c->breakdown[t][o] = stats_define_counter(s, name, NULL, STAT_DETAIL, "accesses by type and outcome");
        }
    }
    for (int f = 0; f < CACHE_FAIL_COUNT; f++) {
        snprintf(name, sizeof name, "%s_cache_fail_breakdown[%s]", p, cache_fail_name((cache_fail_reason)f));
        c->fail[f] = stats_define_counter(s, name, NULL, STAT_DETAIL, "reservation failures by reason");
    }
    int rc = all_ok((const int *)c, sizeof *c / sizeof(int));
    if (insn_id < 0) c->mpki = -1;
    return rc;
}

void stats_add_cache(stats *s, const stats_cache_ids *ids, const cache *c) {
    const cache_counters *k = cache_stats(c);
    stats_add(s, ids->accesses, cache_total_accesses(c));
    stats_add(s, ids->hits, cache_total(c, CACHE_HIT));
    stats_add(s, ids->misses, cache_total(c, CACHE_MISS));
    stats_add(s, ids->pending_hits, cache_total(c, CACHE_HIT_RESERVED));
    stats_add(s, ids->reservation_fails, cache_total(c, CACHE_RESERVATION_FAIL));
    stats_add(s, ids->writebacks, k->writebacks);
    stats_add(s, ids->evictions, k->evictions);
    for (int t = 0; t < MEM_ACCESS_TYPE_COUNT; t++)
        for (int o = 0; o < CACHE_OUTCOME_COUNT; o++) stats_add(s, ids->breakdown[t][o], k->access[t][o]);
    for (int f = 0; f < CACHE_FAIL_COUNT; f++) stats_add(s, ids->fail[f], k->fail[f]);
}

int stats_define_dram(stats *s, stats_dram_ids *d) {
    d->reads = stats_define_counter(s, "dram_reads", NULL, 0, "DRAM read requests completed");
    d->writes = stats_define_counter(s, "dram_writes", NULL, 0, "DRAM write requests completed");
    d->read_bytes = stats_define_counter(s, "dram_read_bytes", NULL, 0, "bytes read from DRAM");
    d->write_bytes = stats_define_counter(s, "dram_write_bytes", NULL, 0, "bytes written to DRAM");
    d->activates = stats_define_counter(s, "dram_activates", NULL, 0, "row activations");
    d->precharges = stats_define_counter(s, "dram_precharges", NULL, 0, "precharges");
    d->row_hits = stats_define_counter(s, "dram_row_buffer_hits", NULL, 0, "requests that found their row open");
    d->row_misses = stats_define_counter(s, "dram_row_buffer_misses", NULL, 0, "requests that had to open their row");
    d->requests = stats_define_counter(s, "dram_requests", NULL, STAT_DETAIL, "reads + writes");
    d->latency_sum = stats_define_counter(s, "dram_latency_sum", NULL, STAT_DETAIL, "sum of DRAM latencies");
    d->channel_cycles = stats_define_counter(s, "dram_channel_cycles", NULL, STAT_DETAIL, "DRAM cycles x channels");
    d->bus_cycles = stats_define_counter(s, "dram_data_bus_cycles", NULL, STAT_DETAIL, "cycles moving data");
    d->queue_sum = stats_define_counter(s, "dram_queue_occupancy_sum", NULL, STAT_DETAIL, "queue length summed per cycle");
    d->push_fails = stats_define_counter(s, "dram_queue_full", NULL, 0, "requests refused by a full DRAM queue");
    d->row_locality = stats_define_ratio(s, "dram_row_buffer_locality", NULL, d->row_hits, d->requests, 1.0, 0,
                                         "row-buffer hit rate");
    d->avg_latency = stats_define_ratio(s, "dram_avg_latency", NULL, d->latency_sum, d->requests, 1.0, 0,
                                        "DRAM cycles from queue entry to the end of the data");
    d->bw_util = stats_define_ratio(s, "dram_bw_util", NULL, d->bus_cycles, d->channel_cycles, 1.0, 0,
                                    "fraction of DRAM cycles the data bus was busy");
    d->avg_queue = stats_define_ratio(s, "dram_avg_queue_occupancy", NULL, d->queue_sum, d->channel_cycles, 1.0, 0,
                                      "average scheduler queue length");
    return all_ok((const int *)d, sizeof *d / sizeof(int));
}

void stats_add_dram(stats *s, const stats_dram_ids *ids, const dram *d) {
    const dram_counters *k = dram_stats(d);
    stats_add(s, ids->reads, k->reads);
    stats_add(s, ids->writes, k->writes);
    stats_add(s, ids->read_bytes, k->read_bytes);
    stats_add(s, ids->write_bytes, k->write_bytes);
    stats_add(s, ids->activates, k->activates);
    stats_add(s, ids->precharges, k->precharges);
    stats_add(s, ids->row_hits, k->row_hits);
    stats_add(s, ids->row_misses, k->row_misses);
    stats_add(s, ids->requests, k->row_hits + k->row_misses);
    stats_add(s, ids->latency_sum, k->latency_sum);
    stats_add(s, ids->channel_cycles, k->cycles);
    stats_add(s, ids->bus_cycles, k->data_bus_cycles);
    stats_add(s, ids->queue_sum, k->queue_occupancy_sum);
    stats_add(s, ids->push_fails, k->push_fails);
}

int stats_define_icnt(stats *s, const char *p, stats_icnt_ids *ids) {
    char name[128];
#define DEF(field, suffix, flags, help) \
    (snprintf(name, sizeof name, "%s%s", p, suffix), ids->field = stats_define_counter(s, name, NULL, flags, help))
    DEF(packets, "_packets", 0, "packets injected");
    DEF(flits, "_flits", 0, "flits injected");
    DEF(push_fails, "_push_fails", 0, "injections refused by a full input buffer");
    DEF(latency_sum, "_latency_sum", STAT_DETAIL, "sum of packet latencies");
    DEF(delivered, "_delivered", STAT_DETAIL, "packets delivered");
#undef DEF
    snprintf(name, sizeof name, "%s_avg_latency", p);
    ids->avg_latency = stats_define_ratio(s, name, NULL, ids->latency_sum, ids->delivered, 1.0, 0,
                                          "interconnect cycles from injection to delivery");
    return all_ok((const int *)ids, sizeof *ids / sizeof(int));
}

void stats_add_icnt(stats *s, const stats_icnt_ids *ids, const icnt *n) {
    const icnt_counters *k = icnt_stats(n);
    stats_add(s, ids->packets, k->packets_in);
    stats_add(s, ids->flits, k->flits_in);
    stats_add(s, ids->push_fails, k->push_fails);
    stats_add(s, ids->latency_sum, k->latency_sum);
    stats_add(s, ids->delivered, k->packets_out);
}
