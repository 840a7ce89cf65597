/* locsim sweep (see sweep.h): plan, run the missing runs, store them.
 *
 *   locsim sweep SPEC [--jobs N] [--db FILE] [--retry-failed] [--dry-run]
 *   locsim sweep SPEC --slurm [--partition P] [--time T] [--array-max N] [--db FILE]
 *   locsim sweep SPEC --collect [--db FILE]
 *   locsim sweep SPEC --accept [--sample N] [--jobs N] [--db FILE]
 *
 * Each run is a child process: `locsim run W --size S --seed N --config FILE
 * -opt v ... --json TMP` for a built-in workload, `locsim exec --config FILE
 * -opt v ... --json TMP -- prog args` for an external program.  The parent
 * reads the JSON, and stores the run and every statistic in one transaction;
 * it is the only writer.  A child dies with the sweep (PR_SET_PDEATHSIG), so
 * killing the sweep leaves neither orphans nor half-written runs. */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "harness/equiv.h"
#include "harness/results_file.h"
#include "harness/sha256.h"
#include "harness/sweep.h"
#include "sim/config.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "locsim: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s) {
    char *p = strdup(s);
    if (!p) {
        fprintf(stderr, "locsim: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- planning ---- */

static int excluded(const spec *s, const spec_workload *w, uint32_t size, uint64_t seed, const spec_config *cfg,
                    const spec_variant *v) {
    for (int i = 0; i < s->nexcludes; i++) {
        const spec_exclude *x = &s->excludes[i];
        int m = 1, any;
#define GLOBS(list, n, value)                                                                           \
    if (m && list) {                                                                                    \
        any = 0;                                                                                        \
        for (int k = 0; k < n; k++) any |= (value) && !fnmatch(list[k], (value), 0);                    \
        m = any;                                                                                        \
    }
        GLOBS(x->workloads, x->nworkloads, w->id)
        GLOBS(x->classes, x->nclasses, w->cls)
        GLOBS(x->configs, x->nconfigs, cfg->name)
#undef GLOBS
        if (m && x->variants) {
            /* a regime probe is left out where its baseline is, or by its own name */
            const char *base = v->probe_of ? v->probe_of : v->name, *grid = v->probe_of ? v->probe_of_grid : v->grid;
            any = 0;
            for (int k = 0; k < x->nvariants; k++)
                any |= !fnmatch(x->variants[k], v->name, 0) || !fnmatch(x->variants[k], base, 0) ||
                       (grid && !fnmatch(x->variants[k], grid, 0));
            m = any;
        }
        if (m && x->sizes) {
            any = 0;
            for (int k = 0; k < x->nsizes; k++) any |= x->sizes[k] == size;
            m = any;
        }
        if (m && x->seeds) {
            any = 0;
            for (int k = 0; k < x->nseeds; k++) any |= x->seeds[k] == seed;
            m = any;
        }
        if (m) return 1;
    }
    return 0;
}

/* The program an exec: workload names, as a path (PATH lookup without a '/'). */
static int find_program(const char *argv0, char *out, size_t n) {
    if (strchr(argv0, '/')) return (size_t)snprintf(out, n, "%s", argv0) < n && access(out, X_OK) == 0 ? 0 : -1;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if ((size_t)snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", argv0) < n && access(out, X_OK) == 0)
            return 0;
        path = colon ? colon + 1 : NULL;
    }
    return -1;
}

static int key_of(const spec *s, sweep_plan *p, planned_run *r, char *err, size_t errlen) {
    sim_config cfg;
    char e[1024];
    if (config_load(&cfg, r->cfg->path, e, sizeof e)) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    for (int o = 0; o < r->v->nopts; o++)
        if (config_set(&cfg, r->v->opts[o].name, r->v->opts[o].value, s->path, e, sizeof e)) {
            snprintf(err, errlen, "%s", e);
            return -1;
        }
    if (config_finalize(&cfg, e, sizeof e)) {
        snprintf(err, errlen, "%s: %s", s->path, e);
        return -1;
    }
    char *dump = NULL;
    size_t dumplen = 0;
    FILE *f = open_memstream(&dump, &dumplen);
    if (!f) return -1;
    config_dump(&cfg, f);
    fclose(f);
    /* The key hashes the model, then the point; the point hashes the same
     * without the model (a stale run of an earlier simulator is found by it). */
    sha256_ctx c, pc;
    sha256_init(&c);
    sha256_init(&pc);
    char head[512];
    int n = snprintf(head, sizeof head, "locsim-run-v1\nmodel %s\n", p->binary_hash);
    sha256_update(&c, head, (size_t)n);
    n = snprintf(head, sizeof head, "size %u\nseed %llu\n", r->size, (unsigned long long)r->seed);
    sha256_update(&c, head, (size_t)n);
    sha256_update(&pc, "locsim-point-v1\n", 16);
    sha256_update(&pc, head, (size_t)n);
    if (r->w->name) {
        sha256_update(&c, "workload ", 9);
        sha256_update(&c, r->w->name, strlen(r->w->name) + 1);
        sha256_update(&pc, "workload ", 9);
        sha256_update(&pc, r->w->name, strlen(r->w->name) + 1);
    } else {
        char prog[PATH_MAX], h[65];
        if (find_program(r->w->argv[0], prog, sizeof prog) || sha256_file(prog, h)) {
            snprintf(err, errlen, "%s:%d: workload %s: cannot read the program '%s'", s->path, r->w->line, r->w->id,
                     r->w->argv[0]);
            free(dump);
            return -1;
        }
        sha256_update(&c, "program ", 8);
        sha256_update(&c, h, 64);
        sha256_update(&pc, "program ", 8);
        sha256_update(&pc, h, 64);
        for (int i = 0; i < r->w->argc; i++) {
            sha256_update(&c, r->w->argv[i], strlen(r->w->argv[i]) + 1);
            sha256_update(&pc, r->w->argv[i], strlen(r->w->argv[i]) + 1);
        }
    }
    sha256_update(&c, "config\n", 7);
    sha256_update(&c, dump, dumplen);
    sha256_update(&pc, "config\n", 7);
    sha256_update(&pc, dump, dumplen);
    free(dump);
    sha256_hex(&c, r->key);
    sha256_hex(&pc, r->point);
    return 0;
}

static void build_argv(const sweep_plan *p, planned_run *r) {
    int cap = 16 + 2 * r->v->nopts + r->w->argc;
    char **a = xcalloc((size_t)cap, sizeof *a);
    int n = 0;
    char buf[64];
    a[n++] = xstrdup(p->self);
    if (r->w->name) {
        a[n++] = xstrdup("run");
        a[n++] = xstrdup(r->w->name);
        snprintf(buf, sizeof buf, "%u", r->size);
        a[n++] = xstrdup("--size");
        a[n++] = xstrdup(buf);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->seed);
        a[n++] = xstrdup("--seed");
        a[n++] = xstrdup(buf);
    } else {
        a[n++] = xstrdup("exec");
    }
    a[n++] = xstrdup("--config");
    a[n++] = xstrdup(r->cfg->path);
    for (int o = 0; o < r->v->nopts; o++) {
        a[n++] = xstrdup(r->v->opts[o].name);
        a[n++] = xstrdup(r->v->opts[o].value);
    }
    if (!r->w->name) {
        a[n++] = xstrdup("--");
        for (int i = 0; i < r->w->argc; i++) a[n++] = xstrdup(r->w->argv[i]);
    }
    r->argv = a;
    r->argc = n;
}

extern const char locsim_model_hash[];      /* generated by tools/model-hash.cmake */
extern const char locsim_build_version[];   /* git describe at build time, same file */

static int self_version(sweep_plan *p, char *err, size_t errlen) {
    ssize_t n = readlink("/proc/self/exe", p->self, sizeof p->self - 1);
    if (n <= 0) {
        snprintf(err, errlen, "cannot find the locsim binary (/proc/self/exe)");
        return -1;
    }
    p->self[n] = 0;
    snprintf(p->binary_hash, sizeof p->binary_hash, "%s", locsim_model_hash);
    snprintf(p->version, sizeof p->version, "%s model:%.12s", locsim_build_version, locsim_model_hash);
    return 0;
}

int sweep_make_plan(const spec *s, sweep_plan *p, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    if (self_version(p, err, errlen)) return -1;
    int cap = 0;
    for (int w = 0; w < s->nworkloads; w++)
        cap += s->workloads[w].nsizes * s->workloads[w].nseeds * s->nconfigs * s->nvariants;
    p->runs = xcalloc((size_t)cap, sizeof *p->runs);
    for (int wi = 0; wi < s->nworkloads; wi++) {
        const spec_workload *w = &s->workloads[wi];
        for (int zi = 0; zi < w->nsizes; zi++)
            for (int si = 0; si < w->nseeds; si++)
                for (int ci = 0; ci < s->nconfigs; ci++)
                    for (int vi = 0; vi < s->nvariants; vi++) {
                        const spec_variant *v = &s->variants[vi];
                        if (!spec_workload_runs(w, v) ||
                            excluded(s, w, w->sizes[zi], w->seeds[si], &s->configs[ci], v))
                            continue;
                        planned_run *r = &p->runs[p->nruns];
                        r->w = w, r->size = w->sizes[zi], r->seed = w->seeds[si], r->cfg = &s->configs[ci], r->v = v;
                        if (key_of(s, p, r, err, errlen)) return -1;
                        build_argv(p, r);
                        p->nruns++;
                    }
    }
    return 0;
}

void sweep_free_plan(sweep_plan *p) {
    for (int i = 0; i < p->nruns; i++) {
        for (int k = 0; k < p->runs[i].argc; k++) free(p->runs[i].argv[k]);
        free(p->runs[i].argv);
    }
    free(p->runs);
    memset(p, 0, sizeof *p);
}

const planned_run *sweep_find(const sweep_plan *p, const spec_workload *w, uint32_t size, uint64_t seed,
                              const spec_config *cfg, const spec_variant *v) {
    for (int i = 0; i < p->nruns; i++) {
        const planned_run *r = &p->runs[i];
        if (r->w == w && r->size == size && r->seed == seed && r->cfg == cfg && r->v == v) return r;
    }
    return NULL;
}

void sweep_default_db(const char *spec_path, char *out, size_t n) {
    size_t len = strlen(spec_path);
    const char *dot = strrchr(spec_path, '.'), *slash = strrchr(spec_path, '/');
    if (dot && (!slash || dot > slash)) len = (size_t)(dot - spec_path);
    snprintf(out, n, "%.*s.db", (int)len, spec_path);
}

/* ---- reading a run's statistics (the JSON of --json; JSON is YAML, so libyaml reads it) ---- */

static int is_number(yaml_node_t *n, double *v) {
    if (n->type != YAML_SCALAR_NODE) return 0;
    const char *t = (const char *)n->data.scalar.value;
    char *end;
    if (!strcmp(t, "null")) {
        *v = 0.0 / 0.0;  /* a non-finite value was written as null */
        return 1;
    }
    *v = strtod(t, &end);
    return *t && !*end;
}

/* The JSON's "stop" member (a cap ended the timing simulation): "by" and where,
 * as one line in stop[]; stays "" when "stop" is null. */
static void read_stop(yaml_document_t *doc, yaml_node_t *v, char *stop, size_t n) {
    if (v->type != YAML_MAPPING_NODE) return;
    const char *by = "?", *cycle = "?", *insns = "?", *kernel = "?";
    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(doc, q->key), *x = yaml_document_get_node(doc, q->value);
        if (k->type != YAML_SCALAR_NODE || x->type != YAML_SCALAR_NODE) continue;
        const char *name = (const char *)k->data.scalar.value, *val = (const char *)x->data.scalar.value;
        if (!strcmp(name, "by")) by = val;
        else if (!strcmp(name, "cycle")) cycle = val;
        else if (!strcmp(name, "thread_insns")) insns = val;
        else if (!strcmp(name, "kernel")) kernel = val;
    }
    snprintf(stop, n, "stopped by %s at cycle %s (%s thread instructions timed) in kernel %s; the rest ran "
             "functionally", by, cycle, insns, kernel);
}

static int load_stats(const char *path, run_record *r, int kernel_stats, char *stop, size_t nstop, char *err,
                      size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "no statistics file (%s)", strerror(errno));
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    int ok = yaml_parser_load(&parser, &doc);
    yaml_parser_delete(&parser);
    fclose(f);
    if (!ok) {
        snprintf(err, errlen, "unreadable statistics file");
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    int rc = -1;
    if (!root || root->type != YAML_MAPPING_NODE) goto done;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&doc, p->key), *v = yaml_document_get_node(&doc, p->value);
        const char *key = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
        if (!strcmp(key, "stop")) {
            read_stop(&doc, v, stop, nstop);
        } else if (!strcmp(key, "total") && v->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                yaml_node_t *sk = yaml_document_get_node(&doc, q->key), *sv = yaml_document_get_node(&doc, q->value);
                double x;
                if (sk->type == YAML_SCALAR_NODE && is_number(sv, &x))
                    run_record_add_stat(r, DB_TOTAL_KERNEL, (const char *)sk->data.scalar.value, x);
            }
            rc = 0;
        } else if (!strcmp(key, "kernels") && v->type == YAML_SEQUENCE_NODE) {
            int nk = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
            if (!kernel_stats) continue;
            r->kernel_names = xcalloc((size_t)nk, sizeof *r->kernel_names);
            r->nkernels = nk;
            for (int i = 0; i < nk; i++) {
                yaml_node_t *kn = yaml_document_get_node(&doc, v->data.sequence.items.start[i]);
                if (kn->type != YAML_MAPPING_NODE) continue;
                for (yaml_node_pair_t *q = kn->data.mapping.pairs.start; q < kn->data.mapping.pairs.top; q++) {
                    yaml_node_t *fk = yaml_document_get_node(&doc, q->key), *fv = yaml_document_get_node(&doc, q->value);
                    const char *field = fk->type == YAML_SCALAR_NODE ? (const char *)fk->data.scalar.value : "";
                    if (!strcmp(field, "name") && fv->type == YAML_SCALAR_NODE)
                        r->kernel_names[i] = xstrdup((const char *)fv->data.scalar.value);
                    else if (!strcmp(field, "stats") && fv->type == YAML_MAPPING_NODE)
                        for (yaml_node_pair_t *s = fv->data.mapping.pairs.start; s < fv->data.mapping.pairs.top; s++) {
                            yaml_node_t *sk = yaml_document_get_node(&doc, s->key);
                            yaml_node_t *sv = yaml_document_get_node(&doc, s->value);
                            double x;
                            if (sk->type == YAML_SCALAR_NODE && is_number(sv, &x))
                                run_record_add_stat(r, i, (const char *)sk->data.scalar.value, x);
                        }
                }
            }
        }
    }
done:
    if (rc) snprintf(err, errlen, "statistics file without a total");
    yaml_document_delete(&doc);
    return rc;
}

/* ---- running one child ---- */

typedef struct {
    const planned_run *run;
    pid_t pid;
    double start;
    int timed_out;
    char json[PATH_MAX], log[PATH_MAX];
} slot;

static volatile sig_atomic_t stop_signal;
static void on_stop(int sig) { stop_signal = sig; }

/* timeout: seconds of CPU time (0 = none).  CPU, not wall-clock time: a run that
 * spins without end uses CPU, and a busy machine must not turn slow runs into timeouts. */
static pid_t start_child(const planned_run *r, slot *sl, const char *tmpdir, int index, double timeout) {
    snprintf(sl->json, sizeof sl->json, "%s/run-%d.json", tmpdir, index);
    snprintf(sl->log, sizeof sl->log, "%s/run-%d.log", tmpdir, index);
    unlink(sl->json);
    /* argv + "--json FILE" (before "--" for exec) */
    char **a = xcalloc((size_t)r->argc + 3, sizeof *a);
    int n = 0, k = 0;
    if (r->w->name) {
        for (; k < r->argc; k++) a[n++] = r->argv[k];
        a[n++] = "--json";
        a[n++] = sl->json;
    } else {
        for (; k < r->argc && strcmp(r->argv[k], "--"); k++) a[n++] = r->argv[k];
        a[n++] = "--json";
        a[n++] = sl->json;
        for (; k < r->argc; k++) a[n++] = r->argv[k];
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);                      /* a timeout kills the run and whatever it started */
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* and the run dies with the sweep */
        if (getppid() != parent) _exit(127);
        if (timeout > 0) {
            struct rlimit cpu = {(rlim_t)timeout, (rlim_t)timeout + 10};   /* SIGXCPU, then SIGKILL */
            setrlimit(RLIMIT_CPU, &cpu);
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
        int log = open(sl->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || log < 0) _exit(127);
        dup2(in, 0), dup2(out, 1), dup2(log, 2);
        execv(a[0], a);
        fprintf(stderr, "cannot run %s: %s\n", a[0], strerror(errno));
        _exit(127);
    }
    free(a);
    if (pid > 0) setpgid(pid, pid);
    sl->run = r;
    sl->pid = pid;
    sl->start = now_s();
    sl->timed_out = 0;
    return pid;
}

/* The last lines of a run's stderr, without progress lines' carriage returns. */
static char *log_tail(const char *path, const char *suffix) {
    char buf[1600] = "";
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET);
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = 0;
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
    for (char *p = buf; *p; p++)
        if (*p == '\r') *p = '\n';
    size_t len = strlen(buf) + strlen(suffix) + 4;
    char *m = xcalloc(len, 1);
    snprintf(m, len, "%s%s%s", buf, *buf && *suffix ? "\n" : "", suffix);
    return m;
}

static char *shell_join(char **argv, int argc) {
    size_t len = 1;
    for (int i = 0; i < argc; i++) len += 3 + 4 * strlen(argv[i]);
    char *s = xcalloc(len, 1), *p = s;
    for (int i = 0; i < argc; i++) {
        if (i) *p++ = ' ';
        int plain = *argv[i] != 0;
        for (const char *c = argv[i]; *c; c++) plain &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                  "0123456789-_./:=,+@%", *c);
        if (plain) {
            p += sprintf(p, "%s", argv[i]);
        } else {
            *p++ = '\'';
            for (const char *c = argv[i]; *c; c++) p += *c == '\'' ? sprintf(p, "'\\''") : sprintf(p, "%c", *c);
            *p++ = '\'';
        }
    }
    return s;
}

/* The wall-clock limit of a run: the spec's wall_timeout, else ten times its
 * CPU-time limit (a loaded machine stretches a run's wall time several times
 * over), at least a minute more.  None without a timeout. */
static double wall_limit(const spec *s) {
    if (s->wall_timeout > 0) return s->wall_timeout;
    double w = 10.0 * s->timeout;
    return w > s->timeout + 60.0 ? w : s->timeout + 60.0;
}

/* Turn a finished child into a record (stats read, status decided). */
static void finish_record(const spec *s, const sweep_plan *p, const slot *sl, int wstatus, const struct rusage *ru,
                          run_record *rec) {
    const planned_run *r = sl->run;
    memset(rec, 0, sizeof *rec);
    memcpy(rec->key, r->key, sizeof rec->key);
    memcpy(rec->point, r->point, sizeof rec->point);
    rec->spec = s->name;
    rec->workload = r->w->id;
    rec->size = r->size;
    rec->seed = r->seed;
    rec->config = r->cfg->name;
    rec->variant = r->v->name;
    rec->version = p->version;
    rec->wall_s = now_s() - sl->start;
    rec->cpu_s = ru->ru_utime.tv_sec + ru->ru_utime.tv_usec * 1e-6 + ru->ru_stime.tv_sec + ru->ru_stime.tv_usec * 1e-6;
    char why[600] = "", serr[256], stop[400] = "";
    int have = load_stats(sl->json, rec, s->kernel_stats, stop, sizeof stop, serr, sizeof serr) == 0;
    /* SIGXCPU: the soft limit (the kernel's CPU accounting may read a little below it
     * in rusage); SIGKILL past the hard limit.  `locsim exec` runs the program as
     * its child and exits 128 + the signal that killed it. */
    int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus)
              : WIFEXITED(wstatus) && WEXITSTATUS(wstatus) > 128 && r->w->argv ? WEXITSTATUS(wstatus) - 128 : 0;
    if (sl->timed_out) {
        rec->status = "timeout";
        snprintf(why, sizeof why, "stopped at the wall-clock limit of %.0f s (it had used %.1f s of CPU time)",
                 wall_limit(s), rec->cpu_s);
    } else if (s->timeout > 0 && (sig == SIGXCPU || (sig == SIGKILL && rec->cpu_s >= s->timeout))) {
        rec->status = "timeout";
        snprintf(why, sizeof why, "stopped at the limit of %.0f s of CPU time", s->timeout);
    } else if (WIFSIGNALED(wstatus)) {
        rec->status = "error";
        snprintf(why, sizeof why, "killed by signal %d (%s)", WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
    } else if (WEXITSTATUS(wstatus) == 0 && have) {
        rec->status = stop[0] ? "capped" : "ok";   /* capped: the statistics cover the timed part */
        snprintf(why, sizeof why, "%s", stop);
    } else if (WEXITSTATUS(wstatus) == 1 && have) {
        rec->status = "check-failed";
        snprintf(why, sizeof why, "exit status 1: the output check failed");
    } else {
        rec->status = "error";
        snprintf(why, sizeof why, "exit status %d%s%s", WEXITSTATUS(wstatus), have ? "" : "; ", have ? "" : serr);
    }
    if (!strcmp(rec->status, "capped")) {
        rec->message = xstrdup(why);
    } else if (strcmp(rec->status, "ok")) {
        rec->message = log_tail(sl->log, why);
        if (!have || !strcmp(rec->status, "timeout")) {
            /* keep no partial statistics of a run that did not finish */
            run_record_free(rec);
            rec->message = log_tail(sl->log, why);
        }
    }
}

/* ---- progress ---- */

typedef struct {
    int total, done, failed, running;
    double t0, last;
    int tty;
} progress;

static void fmt_eta(char *buf, size_t n, double s) {
    if (s < 0) snprintf(buf, n, "?");
    else if (s < 60) snprintf(buf, n, "%.0fs", s);
    else if (s < 3600) snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(buf, n, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

static void progress_show(progress *pg, int force) {
    double t = now_s();
    if (!force && t - pg->last < (pg->tty ? 0.25 : 10.0)) return;
    pg->last = t;
    char eta[32];
    double el = t - pg->t0;
    fmt_eta(eta, sizeof eta, pg->done ? el / pg->done * (pg->total - pg->done) : -1);
    if (pg->tty) {
        int width = 30, fill = pg->total ? width * pg->done / pg->total : width;
        char bar[64];
        for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
        bar[width] = 0;
        fprintf(stderr, "\r\033[K[%s] %d/%d done, %d running, %d failed, ETA %s", bar, pg->done, pg->total,
                pg->running, pg->failed, eta);
    } else {
        fprintf(stderr, "sweep: %d/%d done, %d running, %d failed, %.0f s elapsed, ETA %s\n", pg->done, pg->total,
                pg->running, pg->failed, el, eta);
    }
    fflush(stderr);
}

/* ---- the local sweep ---- */

/* Write the committed results file (results_file.h); a failure is reported, and
 * the runs stay in the database.  *last (if given) gets the time. */
static void export_results(results_db *db, const char *results_path, double *last) {
    char err[1024];
    if (results_export(db, results_path, err, sizeof err)) fprintf(stderr, "locsim sweep: %s\n", err);
    if (last) *last = now_s();
}

#define EXPORT_INTERVAL_S 120.0   /* rewrite the results file at most this often while runs finish */

/* The runs' temporary files live in /tmp/locsim-sweep-<pid>-XXXXXX.  A sweep
 * killed with SIGKILL cannot remove its folder; the next sweep removes the
 * folders of sweeps that no longer run (their pid is gone). */
static void remove_dead_sweep_dirs(void) {
    DIR *d = opendir("/tmp");
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        char *end;
        if (strncmp(e->d_name, "locsim-sweep-", 13)) continue;
        long pid = strtol(e->d_name + 13, &end, 10);
        if (end == e->d_name + 13 || *end != '-' || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "/tmp/%s", e->d_name);
        struct stat sb;
        if (lstat(dir, &sb) || !S_ISDIR(sb.st_mode) || sb.st_uid != getuid()) continue;
        DIR *sub = opendir(dir);
        for (struct dirent *f; sub && (f = readdir(sub));) {
            if (!strncmp(f->d_name, "run-", 4)) {   /* only what a sweep puts there */
                char path[PATH_MAX + 256];
                snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
                unlink(path);
            }
        }
        if (sub) closedir(sub);
        rmdir(dir);
    }
    closedir(d);
}

static int run_local(const spec *s, const sweep_plan *p, results_db *db, const planned_run **todo, int ntodo,
                     int jobs, const char *results_path) {
    double last_export = now_s();
    remove_dead_sweep_dirs();
    char tmpdir[64];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/locsim-sweep-%d-XXXXXX", (int)getpid());
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "locsim sweep: cannot make a temporary directory: %s\n", strerror(errno));
        return 2;
    }
    slot *slots = xcalloc((size_t)jobs, sizeof *slots);
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    struct sigaction sa = {0};
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    progress pg = {ntodo, 0, 0, 0, now_s(), 0, isatty(2)};
    int next = 0, rc = 0, serial = 0, others = 0, unstored = 0;
    long other_pid = 0;
    while ((next < ntodo && !stop_signal) || pg.running) {
        for (int j = 0; j < jobs && next < ntodo && !stop_signal; j++)
            if (!slots[j].pid) {
                /* another sweep on this database may have run it or be running it */
                char err[1024];
                long holder;
                int claim = db_claim(db, todo[next]->key, &holder, err, sizeof err);
                if (claim < 0) {
                    fprintf(stderr, "%slocsim sweep: %s\n", pg.tty ? "\n" : "", err);
                    stop_signal = SIGTERM;
                    rc = 2;
                    break;
                }
                if (claim == 0) {
                    others++;
                    if (holder) other_pid = holder;
                    pg.total--;
                    next++;
                    j--;   /* this slot is still free */
                    continue;
                }
                if (start_child(todo[next], &slots[j], tmpdir, serial++, s->timeout) < 0) {
                    fprintf(stderr, "locsim sweep: fork failed: %s\n", strerror(errno));
                    stop_signal = SIGTERM;
                    rc = 2;
                    break;
                }
                next++;
                pg.running++;
            }
        if (stop_signal)
            for (int j = 0; j < jobs; j++)
                if (slots[j].pid) kill(-slots[j].pid, SIGKILL);
        /* A run that blocks (a pipe, a lock, a sleep) uses no CPU, so the CPU
         * limit never stops it: the wall clock does, generously. */
        for (int j = 0; j < jobs && (s->timeout > 0 || s->wall_timeout > 0); j++)
            if (slots[j].pid && !slots[j].timed_out && now_s() - slots[j].start > wall_limit(s)) {
                slots[j].timed_out = 1;
                kill(-slots[j].pid, SIGKILL);
            }
        struct timespec ts = {0, 200 * 1000 * 1000};
        sigtimedwait(&chld, NULL, &ts);
        int wstatus;
        struct rusage ru;
        pid_t pid;
        while ((pid = wait4(-1, &wstatus, WNOHANG, &ru)) > 0) {
            int j = 0;
            while (j < jobs && slots[j].pid != pid) j++;
            if (j == jobs) continue;
            pg.running--;
            if (stop_signal) { /* a run we killed: leave it missing */
                slots[j].pid = 0;
                continue;
            }
            run_record rec;
            finish_record(s, p, &slots[j], wstatus, &ru, &rec);
            char *cmd = shell_join(slots[j].run->argv, slots[j].run->argc);
            rec.command = cmd;
            char err[1024];
            if (db_store(db, &rec, err, sizeof err)) {
                fprintf(stderr, "%slocsim sweep: %s\n", pg.tty ? "\n" : "", err);
                stop_signal = SIGTERM;
                rc = 2;
                unstored++;   /* finished, but not in the database: not counted as stored */
            } else {
                pg.done++;
            }
            if (!db_status_complete(rec.status)) {
                pg.failed++;
                fprintf(stderr, "%slocsim sweep: %s size %u seed %llu %s %s: %s: %s\n", pg.tty ? "\r\033[K" : "",
                        rec.workload, rec.size, (unsigned long long)rec.seed, rec.config, rec.variant, rec.status,
                        rec.message ? rec.message : "");
            }
            free(cmd);
            run_record_free(&rec);
            unlink(slots[j].json);
            unlink(slots[j].log);
            slots[j].pid = 0;
            if (results_path[0] && now_s() - last_export >= EXPORT_INTERVAL_S)
                export_results(db, results_path, &last_export);
        }
        progress_show(&pg, 0);
    }
    progress_show(&pg, 1);
    if (pg.tty) fputc('\n', stderr);
    db_release_claims(db);
    if (others)
        fprintf(stderr, "locsim sweep: %d runs left to another sweep on %s%s%.0ld%s (stored by it, or running there)\n",
                others, db->path, other_pid ? " (pid " : "", other_pid, other_pid ? ")" : "");
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(slots);
    for (int i = 0; i < serial; i++) {
        char f[PATH_MAX];
        snprintf(f, sizeof f, "%s/run-%d.json", tmpdir, i);
        unlink(f);
        snprintf(f, sizeof f, "%s/run-%d.log", tmpdir, i);
        unlink(f);
    }
    rmdir(tmpdir);
    if (stop_signal && !rc) {
        fprintf(stderr, "locsim sweep: stopped by signal %d; %d runs stored, %d not run\n", (int)stop_signal, pg.done,
                ntodo - others - pg.done);
        return 130;
    }
    double el = now_s() - pg.t0;
    if (unstored)
        fprintf(stderr, "locsim sweep: %d runs stored, %d finished but could not be stored, %d not run\n", pg.done,
                unstored, ntodo - others - pg.done - unstored);
    else
        fprintf(stderr, "locsim sweep: %d runs in %.1f s (%d failed)\n", pg.done, el, pg.failed);
    return rc ? rc : pg.failed ? 1 : 0;
}

/* ---- Slurm ---- */

/* The runs of a Slurm batch: DIR/runs.tsv, one run per line:
 * key,point, workload id, size, seed, config name, variant name, then the argv words. */
static int write_batch(const spec *s, const char *dir, const planned_run **todo, int ntodo) {
    char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/spec.tsv", dir);   /* what a task needs of the spec */
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "%s\t%d\t%.17g\n", s->name, s->kernel_stats, s->timeout);
    if (fclose(f)) return -1;
    snprintf(path, sizeof path, "%s/runs.tsv", dir);
    f = fopen(path, "w");
    if (!f) return -1;
    for (int i = 0; i < ntodo; i++) {
        const planned_run *r = todo[i];
        fprintf(f, "%s,%s\t%s\t%u\t%llu\t%s\t%s", r->key, r->point, r->w->id, r->size, (unsigned long long)r->seed,
                r->cfg->name, r->v->name);
        for (int k = 0; k < r->argc; k++) fprintf(f, "\t%s", r->argv[k]);
        fputc('\n', f);
    }
    return fclose(f);
}

static int argv_plain(const planned_run **todo, int ntodo) {
    for (int i = 0; i < ntodo; i++)
        for (int k = 0; k < todo[i]->argc; k++)
            if (strpbrk(todo[i]->argv[k], "\t\n")) {
                fprintf(stderr, "locsim sweep: --slurm: argument '%s' holds a tab or newline\n", todo[i]->argv[k]);
                return -1;
            }
    return 0;
}

static int run_slurm(const spec *s, const sweep_plan *p, const char *dbpath, const planned_run **todo, int ntodo,
                     const char *partition, const char *timelimit, int array_max) {
    if (argv_plain(todo, ntodo)) return 2;
    char base[PATH_MAX + 16], dir[PATH_MAX + 96], script[PATH_MAX + 128];
    snprintf(base, sizeof base, "%s.slurm", dbpath);
    mkdir(base, 0755);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(dir, sizeof dir, "%s/batch-%s-%d", base, stamp, (int)getpid());
    char shards[PATH_MAX + 128];
    snprintf(shards, sizeof shards, "%s/shards", dir);
    if (mkdir(dir, 0755) || mkdir(shards, 0755) || write_batch(s, dir, todo, ntodo)) {
        fprintf(stderr, "locsim sweep: cannot write the batch in %s: %s\n", dir, strerror(errno));
        return 2;
    }
    char absdir[PATH_MAX + 96];
    if (!realpath(dir, absdir)) snprintf(absdir, sizeof absdir, "%s", dir);
    snprintf(script, sizeof script, "%s/job.sh", dir);
    FILE *f = fopen(script, "w");
    if (!f) {
        fprintf(stderr, "locsim sweep: cannot write %s\n", script);
        return 2;
    }
    fprintf(f, "#!/bin/sh\n# locsim sweep %s: %d runs, one per array task; each writes shards/<task>.db\n", s->path,
            ntodo);
    fprintf(f, "#SBATCH --job-name=locsim-%s\n#SBATCH --array=0-%d", s->name, ntodo - 1);
    if (array_max > 0) fprintf(f, "%%%d", array_max);
    fprintf(f, "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/task-%%a.out\n", absdir);
    if (partition) fprintf(f, "#SBATCH --partition=%s\n", partition);
    if (timelimit) fprintf(f, "#SBATCH --time=%s\n", timelimit);
    fprintf(f, "exec '%s' sweep --task '%s' \"$SLURM_ARRAY_TASK_ID\"\n", p->self, absdir);
    fclose(f);
    char cmd[PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "sbatch --parsable '%s'", script);
    FILE *sb = popen(cmd, "r");
    char job[128] = "";
    if (!sb || !fgets(job, sizeof job, sb) || pclose(sb) != 0) {
        fprintf(stderr, "locsim sweep: sbatch failed (is Slurm installed and running?); the batch is in %s\n", dir);
        return 2;
    }
    job[strcspn(job, "\n")] = 0;
    printf("submitted job %s: %d runs as a job array; when it has finished: locsim sweep %s --collect%s%s\n", job,
           ntodo, s->path, strcmp(dbpath, "") ? " --db " : "", dbpath);
    return 0;
}

static int split_tabs(char *line, char **f, int max) {
    int n = 0;
    line[strcspn(line, "\n")] = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

/* One array task: run line INDEX of DIR/runs.tsv, write DIR/shards/INDEX.db. */
static int run_task(const char *dir, const char *index_text) {
    char *end;
    long index = strtol(index_text, &end, 10);
    if (*end || index < 0) {
        fprintf(stderr, "locsim sweep --task: bad task index '%s'\n", index_text);
        return 2;
    }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/runs.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "locsim sweep --task: cannot read %s\n", path);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    long i = 0;
    while (getline(&line, &cap, f) > 0 && i < index) i++;
    fclose(f);
    char *fld[512];
    int n = line && i == index ? split_tabs(line, fld, 511) : 0;
    if (n < 8) {
        fprintf(stderr, "locsim sweep --task: %s has no run %ld\n", path, index);
        free(line);
        return 2;
    }
    /* a minimal plan/spec for the record */
    spec_workload w = {0};
    spec_variant v = {0};
    spec_config c = {0};
    w.id = fld[1];
    w.name = strcmp(fld[7], "run") ? NULL : fld[1];
    v.name = fld[5];
    c.name = fld[4];
    planned_run r = {.w = &w, .size = (uint32_t)strtoul(fld[2], NULL, 10), .seed = strtoull(fld[3], NULL, 10),
                     .cfg = &c, .v = &v, .argv = fld + 6, .argc = n - 6};
    char *comma = strchr(fld[0], ',');   /* key,point */
    if (comma) *comma = 0, snprintf(r.point, sizeof r.point, "%s", comma + 1);
    snprintf(r.key, sizeof r.key, "%s", fld[0]);
    spec s = {0};
    char specname[512] = "", sline[512];
    s.name = specname;
    s.kernel_stats = 1;
    snprintf(path, sizeof path, "%s/spec.tsv", dir);
    FILE *sf = fopen(path, "r");
    if (sf && fgets(sline, sizeof sline, sf)) {
        char *fs[3];
        if (split_tabs(sline, fs, 3) == 3) {
            snprintf(specname, sizeof specname, "%s", fs[0]);
            s.kernel_stats = atoi(fs[1]);
            s.timeout = strtod(fs[2], NULL);
        }
    }
    if (sf) fclose(sf);
    sweep_plan p = {0};
    char err[1024];
    if (self_version(&p, err, sizeof err)) {
        fprintf(stderr, "locsim sweep --task: %s\n", err);
        free(line);
        return 2;
    }
    char tmp[PATH_MAX + 64], shard[PATH_MAX + 64], tmpdir[PATH_MAX + 64];
    snprintf(tmpdir, sizeof tmpdir, "%s/shards", dir);
    snprintf(tmp, sizeof tmp, "%s/shards/.%ld.db.tmp", dir, index);
    snprintf(shard, sizeof shard, "%s/shards/%ld.db", dir, index);
    slot sl = {0};
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    if (start_child(&r, &sl, tmpdir, (int)index, s.timeout) < 0) {
        fprintf(stderr, "locsim sweep --task: fork failed\n");
        free(line);
        return 2;
    }
    int wstatus;
    struct rusage ru;
    while (wait4(sl.pid, &wstatus, 0, &ru) < 0 && errno == EINTR) {}
    run_record rec;
    finish_record(&s, &p, &sl, wstatus, &ru, &rec);
    char *cmd = shell_join(r.argv, r.argc);
    rec.command = cmd;
    unlink(tmp);
    results_db db;
    int rc = db_open(&db, tmp, 1, 0, err, sizeof err) || db_store(&db, &rec, err, sizeof err);
    if (db.db) {
        sqlite3_exec(db.db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL); /* one file to move */
        db_close(&db);
    }
    if (!rc && rename(tmp, shard)) rc = -1, snprintf(err, sizeof err, "cannot rename the shard into %.900s", shard);
    if (rc) fprintf(stderr, "locsim sweep --task: %s\n", err);
    printf("run %s: %s\n", rec.key, rec.status);
    unlink(sl.json);
    unlink(sl.log);
    free(cmd);
    run_record_free(&rec);
    free(line);
    return rc ? 2 : 0;
}

static int collect(const char *dbpath, results_db *db) {
    char base[PATH_MAX + 16];
    snprintf(base, sizeof base, "%s.slurm", dbpath);
    char cmd[PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "ls -1d '%s'/batch-*/shards/*.db 2>/dev/null", base);
    FILE *ls = popen(cmd, "r");
    if (!ls) return 2;
    char line[PATH_MAX];
    int shards = 0, copied = 0, bad = 0;
    while (fgets(line, sizeof line, ls)) {
        line[strcspn(line, "\n")] = 0;
        int c;
        char err[1024];
        if (db_merge(db, line, &c, err, sizeof err)) {
            fprintf(stderr, "locsim sweep --collect: %s\n", err);
            bad++;
            continue;
        }
        shards++;
        copied += c;
    }
    pclose(ls);
    printf("collected %d shards from %s: %d new runs\n", shards, base, copied);
    return bad ? 1 : 0;
}

/* ---- accepting an earlier model's runs (harness/equiv.h) ---- */

typedef struct {
    const planned_run *run;
    sqlite3_int64 old_id;          /* the earlier model's run of the same point */
    char model[MODEL_ID_CHARS + 1];
    double cpu_s;
    int picked;
} stale_run;

static double run_cpu_s(results_db *db, sqlite3_int64 id) {
    sqlite3_stmt *st;
    double v = 0;
    if (sqlite3_prepare_v2(db->db, "SELECT cpu_s FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK) return 0;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
}

static sqlite3_int64 run_id_of_key(results_db *db, const char *key) {
    sqlite3_stmt *st;
    sqlite3_int64 id = -1;
    if (sqlite3_prepare_v2(db->db, "SELECT id FROM runs WHERE key = ? AND status IN ('ok', 'capped')", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

/* The sample of model m's stale runs to rerun: the longest one first (the
 * largest state a speed change could mishandle), then in key order (a hash:
 * an unbiased spread) one per variant not yet sampled, then any. */
static int pick_sample(stale_run *st, int n, const char *m, int want, const planned_run **out) {
    int k = 0, longest = -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(st[i].model, m) && (longest < 0 || st[i].cpu_s > st[longest].cpu_s)) longest = i;
    if (longest < 0) return 0;
    st[longest].picked = 1;
    out[k++] = st[longest].run;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n && k < want; i++) {
            if (st[i].picked || strcmp(st[i].model, m)) continue;
            int seen = 0;
            for (int j = 0; j < k && pass == 0 && !seen; j++) seen = out[j]->v == st[i].run->v;
            if (seen) continue;
            st[i].picked = 1;
            out[k++] = st[i].run;
        }
    return k;
}

static int by_key(const void *a, const void *b) {
    return strcmp(((const stale_run *)a)->run->key, ((const stale_run *)b)->run->key);
}

/* Rerun `k` sampled runs of model m and compare each with the earlier run. */
static int accept_model(const spec *s, const sweep_plan *p, results_db *db, stale_run *st, int n, const char *m,
                        int nstale, int want, int jobs, const char *results_path) {
    const planned_run **sample = xcalloc((size_t)want, sizeof *sample);
    int k = pick_sample(st, n, m, want, sample);
    fprintf(stderr, "locsim sweep --accept: model %s made %d runs this model lacks; rerunning %d of them\n", m,
            nstale, k);
    int rc = run_local(s, p, db, sample, k, jobs < k ? jobs : k, results_path);
    int same = 0;
    long nstats = 0;
    char keys[16 * 13 + 1] = "";
    for (int i = 0; i < k && rc == 0; i++) {
        sqlite3_int64 old_id = -1, new_id = run_id_of_key(db, sample[i]->key);
        for (int j = 0; j < n; j++)
            if (st[j].run == sample[i]) old_id = st[j].old_id;
        const char *label = sample[i]->w->id;
        if (new_id < 0) {
            fprintf(stderr, "  %s %s: the rerun did not complete\n", label, sample[i]->v->name);
            continue;
        }
        char diff[2048];
        long c;
        int r = equiv_compare_runs(db, old_id, new_id, &c, diff, sizeof diff);
        if (r == 0) {
            same++;
            nstats += c;
            if (strlen(keys) + 14 < sizeof keys)
                snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%.12s", *keys ? " " : "", sample[i]->key);
            fprintf(stderr, "  %s size %u %s: identical (%ld statistics)\n", label, sample[i]->size,
                    sample[i]->v->name, c);
        } else {
            fprintf(stderr, "  %s size %u %s: %s\n", label, sample[i]->size, sample[i]->v->name,
                    r < 0 ? "cannot read the runs" : diff);
        }
    }
    free(sample);
    if (rc || same < k || k == 0) {
        fprintf(stderr, "locsim sweep --accept: model %s NOT accepted (%d of %d reruns identical): its runs stay "
                "stale; `locsim sweep` reruns them\n", m, same, k);
        return rc ? rc : 1;
    }
    char err[1024], cur[MODEL_ID_CHARS + 1];
    snprintf(cur, sizeof cur, "%.12s", p->binary_hash);
    if (equiv_record(db, m, cur, k, nstats, keys, err, sizeof err)) {
        fprintf(stderr, "locsim sweep --accept: %s\n", err);
        return 2;
    }
    fprintf(stderr, "locsim sweep --accept: model %s accepted as %s: %d reruns, %ld statistics, all identical; its "
            "%d other runs now count as this model's\n", m, cur, k, nstats, nstale - k);
    return 0;
}

/* Run i has the key of an earlier run of the plan (two variants with the same
 * options are one run): count and run it once. */
static int repeats_earlier_key(const sweep_plan *p, int i) {
    for (int k = 0; k < i; k++)
        if (!strcmp(p->runs[k].key, p->runs[i].key)) return 1;
    return 0;
}

/* Every earlier model with complete runs of points this model lacks. */
static int accept_models(const spec *s, const sweep_plan *p, results_db *db, int want, int jobs,
                         const char *results_path) {
    char cur[MODEL_ID_CHARS + 1];
    snprintf(cur, sizeof cur, "%.12s", p->binary_hash);
    model_set cls;
    equiv_closure(db, cur, &cls);
    stale_run *st = xcalloc((size_t)p->nruns, sizeof *st);
    int n = 0;
    for (int i = 0; i < p->nruns; i++) {
        char status[32], version[128];
        sqlite3_int64 id;
        if (repeats_earlier_key(p, i) || db_run_status(db, p->runs[i].key, status, sizeof status) == 1 ||
            equiv_latest_run(db, p->runs[i].point, cur, &cls, &id, version, sizeof version) == 1 ||
            equiv_latest_run(db, p->runs[i].point, cur, NULL, &id, version, sizeof version) != 1)
            continue;
        st[n].run = &p->runs[i];
        st[n].old_id = id;
        equiv_model_of_version(version, st[n].model);
        st[n].cpu_s = run_cpu_s(db, id);
        n++;
    }
    model_set_free(&cls);
    qsort(st, (size_t)n, sizeof *st, by_key);
    int rc = 0, done_any = 0;
    for (int i = 0; i < n; i++) {
        int first = 1, count = 0;
        for (int j = 0; j < i && first; j++) first = strcmp(st[j].model, st[i].model) != 0;
        if (!first) continue;
        for (int j = 0; j < n; j++) count += !strcmp(st[j].model, st[i].model);
        int r = accept_model(s, p, db, st, n, st[i].model, count, want, jobs, results_path);
        done_any = 1;
        if (r > rc) rc = r;
        if (stop_signal) break;
    }
    if (!done_any) fprintf(stderr, "locsim sweep --accept: no earlier model's run stands in for a missing one\n");
    free(st);
    return rc;
}

/* ---- the command ---- */

static void usage(FILE *f) {
    fprintf(f, "usage: locsim sweep SPEC [--jobs N] [--db FILE] [--retry-failed] [--dry-run]\n"
               "       locsim sweep SPEC --slurm [--partition P] [--time T] [--array-max N] [--db FILE]\n"
               "       locsim sweep SPEC --collect [--db FILE]\n"
               "       locsim sweep SPEC --accept [--sample N] [--jobs N] [--db FILE]\n"
               "Runs what the spec's results database lacks, one process per run; --accept reruns N (default 4)\n"
               "runs of each earlier model and, when every statistic is identical, counts its runs as this model's.\n"
               "See docs/harness.md.\n");
}

int sweep_main(int argc, char **argv) {
    const char *specpath = NULL, *dbpath = NULL, *partition = NULL, *timelimit = NULL;
    int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), retry = 0, dry = 0, slurm = 0, do_collect = 0, array_max = 0;
    int own_db = 0;   /* the spec's default database: the committed results file goes with it */
    int accept = 0, sample = 4;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--task")) {
            if (i + 2 >= argc) {
                fprintf(stderr, "locsim sweep --task DIR INDEX\n");
                return 2;
            }
            return run_task(argv[i + 1], argv[i + 2]);
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--retry-failed")) {
            retry = 1;
        } else if (!strcmp(a, "--dry-run")) {
            dry = 1;
        } else if (!strcmp(a, "--slurm")) {
            slurm = 1;
        } else if (!strcmp(a, "--collect")) {
            do_collect = 1;
        } else if (!strcmp(a, "--accept")) {
            accept = 1;
        } else if (!strcmp(a, "--sample")) {
            char *end;
            long n = val ? strtol(val, &end, 10) : 0;
            if (!val || *end || n < 1 || n > 1000) {
                fprintf(stderr, "locsim sweep: --sample expects an integer 1..1000, got '%s'\n", val ? val : "");
                return 2;
            }
            sample = (int)n;
            i++;
        } else if (!strcmp(a, "--jobs") || !strcmp(a, "--array-max") || !strcmp(a, "--db") ||
                   !strcmp(a, "--partition") || !strcmp(a, "--time")) {
            if (!val) {
                fprintf(stderr, "locsim sweep: %s needs a value\n", a);
                return 2;
            }
            i++;
            if (!strcmp(a, "--db") && !*val) {
                fprintf(stderr, "locsim sweep: --db needs a file name, got an empty string\n");
                return 2;
            }
            if (!strcmp(a, "--db")) dbpath = val;
            else if (!strcmp(a, "--partition")) partition = val;
            else if (!strcmp(a, "--time")) timelimit = val;
            else {
                char *end;
                long n = strtol(val, &end, 10);
                if (*end || n < 1 || n > 4096) {
                    fprintf(stderr, "locsim sweep: %s expects an integer 1..4096, got '%s'\n", a, val);
                    return 2;
                }
                if (a[2] == 'j') jobs = (int)n;
                else array_max = (int)n;
            }
        } else if (a[0] != '-' && !specpath) {
            specpath = a;
        } else {
            fprintf(stderr, "locsim sweep: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!specpath) {
        usage(stderr);
        return 2;
    }
    if (jobs < 1) jobs = 1;
    char err[2048], dbbuf[PATH_MAX];
    spec *s = spec_load(specpath, err, sizeof err);
    if (!s) {
        fprintf(stderr, "locsim sweep: %s\n", err);
        return 2;
    }
    if (!dbpath) {
        sweep_default_db(specpath, dbbuf, sizeof dbbuf);
        dbpath = dbbuf;
        own_db = 1;
    }
    sweep_plan p;
    if (sweep_make_plan(s, &p, err, sizeof err)) {
        fprintf(stderr, "locsim sweep: %s\n", err);
        spec_free(s);
        return 2;
    }
    results_db db;
    if (db_open(&db, dbpath, !dry, dry && access(dbpath, F_OK) == 0, err, sizeof err)) {
        if (!(dry && access(dbpath, F_OK) != 0)) {
            fprintf(stderr, "locsim sweep: %s\n", err);
            sweep_free_plan(&p);
            spec_free(s);
            return 2;
        }
        db.db = NULL; /* dry run without a database: everything is missing */
    }
    int rc = 0;
    /* The committed results file goes with the spec's own database; a --db of
     * one's own neither reads nor writes it. */
    char results_path[PATH_MAX] = "", dry_db[PATH_MAX] = "";
    if (own_db) results_file_path(s->path, s->name, results_path, sizeof results_path);
    if (dry && results_path[0] && access(results_path, F_OK) == 0) {
        /* a dry run writes nothing: it counts against a scratch copy of the
         * database and the committed results */
        const char *t = getenv("TMPDIR");
        snprintf(dry_db, sizeof dry_db, "%s/locsim-dry-%d.db", t && *t ? t : "/tmp", (int)getpid());
        int copied;
        results_db scratch;
        if (db_open(&scratch, dry_db, 1, 0, err, sizeof err) ||
            (db.db && db_merge(&scratch, dbpath, &copied, err, sizeof err))) {
            fprintf(stderr, "locsim sweep: %s\n", err);
            rc = 2;
            goto out;
        }
        db_close(&db);
        db = scratch;
    }
    if (db.db && results_path[0] && (!dry || dry_db[0])) {
        int copied;
        if (results_import(&db, results_path, &copied, err, sizeof err)) {
            fprintf(stderr, "locsim sweep: %s\n", err);
            rc = 2;
            goto out;
        }
        if (copied) fprintf(stderr, "locsim sweep: %d runs merged from %s\n", copied, results_path);
    }
    if (accept && (dry || slurm || do_collect || !db.db)) {
        fprintf(stderr, "locsim sweep: --accept runs locally and writes the database (not with --dry-run, --slurm "
                        "or --collect)\n");
        rc = 2;
        goto out;
    }
    if (accept) {
        rc = accept_models(s, &p, &db, sample, jobs, results_path);
        if (results_path[0]) export_results(&db, results_path, NULL);
        goto out;
    }
    if (do_collect) {
        rc = collect(dbpath, &db);
        if (rc != 2 && results_path[0]) export_results(&db, results_path, NULL);
        goto out;
    }
    /* the missing runs, each key once (two variants with the same settings are one run) */
    const planned_run **todo = xcalloc((size_t)p.nruns, sizeof *todo);
    int ntodo = 0, have = 0, failed_before = 0, accepted = 0;
    /* an earlier model's complete run counts when that model was accepted as this one (equiv.h) */
    char cur[MODEL_ID_CHARS + 1];
    snprintf(cur, sizeof cur, "%.12s", p.binary_hash);
    model_set cls;
    equiv_closure(&db, cur, &cls);
    for (int i = 0; i < p.nruns; i++) {
        if (repeats_earlier_key(&p, i)) continue;
        char status[32] = "";
        int found = db.db ? db_run_status(&db, p.runs[i].key, status, sizeof status) : 0;
        if (found < 0) {
            fprintf(stderr, "locsim sweep: %s: cannot read the runs table\n", dbpath);
            rc = 2;
            free(todo);
            goto out;
        }
        if (found && !db_status_complete(status)) failed_before++;
        if (found && !(retry && !db_status_complete(status))) {
            have++;
            continue;
        }
        sqlite3_int64 id;
        char version[128];
        if (db.db && cls.n > 1 &&
            equiv_latest_run(&db, p.runs[i].point, cur, &cls, &id, version, sizeof version) == 1) {
            have++;
            accepted++;
            continue;
        }
        todo[ntodo++] = &p.runs[i];
    }
    model_set_free(&cls);
    if (accepted)
        fprintf(stderr, "locsim sweep: %d runs by earlier models accepted as this one's (--accept) count as present\n",
                accepted);
    /* Run variant by variant (in spec order), each over every workload: a sweep
     * stopped early has whole comparisons across workloads, not whole workloads. */
    for (int i = 1; i < ntodo; i++) {
        const planned_run *x = todo[i];
        int j = i - 1;
        while (j >= 0 && todo[j]->v > x->v) {
            todo[j + 1] = todo[j];
            j--;
        }
        todo[j + 1] = x;
    }
    fprintf(stderr, "locsim sweep: %s: %d runs (%d points), %d in %s already%s, %d to run%s\n", s->path,
            have + ntodo, p.nruns, have, dbpath, failed_before && !retry ? " (some failed: --retry-failed reruns them)" : "",
            ntodo, dry ? " (dry run)" : "");
    if (dry) {
        for (int i = 0; i < ntodo; i++)
            printf("%-16s size %-6u seed %-4llu %-14s %-22s %.12s\n", todo[i]->w->id, todo[i]->size,
                   (unsigned long long)todo[i]->seed, todo[i]->cfg->name, todo[i]->v->name, todo[i]->key);
    } else if (slurm) {
        rc = ntodo ? run_slurm(s, &p, dbpath, todo, ntodo, partition, timelimit, array_max) : 0;
    } else if (ntodo) {
        rc = run_local(s, &p, &db, todo, ntodo, jobs < ntodo ? jobs : ntodo, results_path);
        if (results_path[0]) export_results(&db, results_path, NULL);
    }
    free(todo);
out:
    db_close(&db);
    if (dry_db[0]) {
        char side[PATH_MAX + 8];
        unlink(dry_db);
        snprintf(side, sizeof side, "%s-wal", dry_db);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", dry_db);
        unlink(side);
    }
    sweep_free_plan(&p);
    spec_free(s);
    return rc;
}
