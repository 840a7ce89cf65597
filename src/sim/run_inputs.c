/* The "inputs" member of a JSON report: see run_inputs.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/run_inputs.h"
#include "sim/stats_json.h"

#ifndef LOCSIM_VERSION
#define LOCSIM_VERSION "unknown"
#endif

const char *locsim_version(void) { return LOCSIM_VERSION; }

uint64_t config_hash(const sim_config *c) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return 0;
    config_dump(c, f);
    fclose(f);
    uint64_t h = 0xcbf29ce484222325ull;  /* FNV-1a offset basis and prime */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
    free(text);
    return h;
}

typedef struct {
    const run_inputs *in;
    const sim_config *cfg;
    const gpu *g;
} inputs_ctx;

/* "stop": which cap ended the timing simulation and where (null: none did; the
 * timing window is not a stop, its kernels show gpu_ff_insn). */
static void write_stop(json_writer *w, const gpu *g) {
    const gpu_cap_info *c = gpu_cap(g);
    if (!c) {
        json_double(w, "stop", (double)NAN);   /* null */
        return;
    }
    json_begin_object(w, "stop");
    json_string(w, "by", c->option);
    json_u64(w, "cycle", c->cycle);
    json_u64(w, "thread_insns", c->thread_insns);
    json_u64(w, "ctas", c->ctas);
    json_u64(w, "kernel", c->kernel);
    json_string(w, "kernel_name", c->kernel_name);
    json_end_object(w);
}

static void write_inputs(void *writer, void *ctx) {
    json_writer *w = writer;
    const inputs_ctx *x = ctx;
    const run_inputs *in = x->in;
    json_begin_object(w, "inputs");
    if (in->workload) json_string(w, "workload", in->workload);
    if (in->program) json_string(w, "program", in->program);
    if (in->size) json_u64(w, "size", in->size);
    if (in->has_seed) json_u64(w, "seed", in->seed);
    json_string(w, "config", in->config ? in->config : "");
    json_begin_array(w, "options");
    for (int i = 0; i < in->noptions; i++) {
        /* a host option and its value: results do not depend on them, so the
         * report is the same byte for byte whatever they are (-sim_threads) */
        if (in->options[i][0] == '-' && i + 1 < in->noptions && config_is_host_option(in->options[i])) {
            i++;
            continue;
        }
        json_string(w, NULL, in->options[i]);
    }
    json_end_array(w);
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)config_hash(x->cfg));
    json_string(w, "config_hash", hash);
    json_string(w, "version", locsim_version());
    json_end_object(w);
    if (x->g) write_stop(w, x->g);
}

int timing_report_json_inputs(const timing_state *t, FILE *out, const run_inputs *in) {
    inputs_ctx x = {in, t->cfg, t->g};
    return stats_write_json_with(t->stats, out, 0, write_inputs, &x);
}
