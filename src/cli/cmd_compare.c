/* locsim compare: one table of IPC and L1D miss rate per workload and warp
 * scheduler, every run on a fresh timing-mode device.
 *
 *   locsim compare <workload...|all> [--config NAME|FILE] [--sched lrr,gto,two_level]
 *                  [--size S] [--seed N] [-option value ...]
 *
 * Each scheduler is given as -gpgpu_scheduler would take it ("two_level" and
 * "swl:gto:8" are short for two_level_active:2:gto:gto and warp_limiting:gto:8).
 * The last rows give the harmonic mean of IPC per scheduler and each
 * scheduler's harmonic-mean IPC relative to the first one. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "locsim/locsim.h"
#include "workload.h"

#define MAX_SCHED 16
#define MAX_WORKLOADS 256
#define MAX_OVERRIDES 128

typedef struct {
    const char *config;
    char sched_buf[512];
    const char *sched[MAX_SCHED];
    int nsched;
    const workload_entry *wl[MAX_WORKLOADS];
    int nwl;
    uint32_t size;
    uint64_t seed;
    char *overrides[MAX_OVERRIDES];
    int noverrides;
} compare_options;

typedef struct {
    int ok;
    double ipc, l1d_miss_rate;
} cell;

static int parse_u64_arg(const char *opt, const char *v, uint64_t max, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long x = v && *v != '-' ? strtoull(v, &end, 10) : 0;
    if (!v || !*v || *v == '-' || errno || *end || x > max) {
        fprintf(stderr, "locsim: %s expects an unsigned integer <= %" PRIu64 "\n", opt, max);
        return -1;
    }
    *out = x;
    return 0;
}

static int split_scheds(compare_options *o, const char *list) {
    snprintf(o->sched_buf, sizeof o->sched_buf, "%s", list);
    o->nsched = 0;
    for (char *p = strtok(o->sched_buf, ","); p; p = strtok(NULL, ",")) {
        if (o->nsched == MAX_SCHED) {
            fprintf(stderr, "locsim: at most %d schedulers\n", MAX_SCHED);
            return -1;
        }
        o->sched[o->nsched++] = p;
    }
    if (!o->nsched) {
        fprintf(stderr, "locsim: --sched needs a comma-separated list\n");
        return -1;
    }
    return 0;
}

static int add_workload(compare_options *o, const char *name) {
    if (!strcmp(name, "all")) {
        for (const workload_entry *e = workload_table; e->wl && o->nwl < MAX_WORKLOADS; e++) o->wl[o->nwl++] = e;
        return 0;
    }
    const workload_entry *e = workload_find(name);
    if (!e) {
        fprintf(stderr, "locsim: unknown workload '%s' (see 'locsim list')\n", name);
        return -1;
    }
    if (o->nwl < MAX_WORKLOADS) o->wl[o->nwl++] = e;
    return 0;
}

static int parse_compare(int argc, char **argv, compare_options *o) {
    memset(o, 0, sizeof *o);
    o->config = "fermi_gtx480";
    o->seed = 1;
    if (split_scheds(o, "lrr,gto,two_level")) return -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (!strcmp(a, "--config") || !strcmp(a, "--sched") || !strcmp(a, "--size") || !strcmp(a, "--seed")) {
            if (!v) {
                fprintf(stderr, "locsim: %s needs a value\n", a);
                return -1;
            }
            i++;
            if (!strcmp(a, "--config")) o->config = v;
            else if (!strcmp(a, "--sched")) {
                if (split_scheds(o, v)) return -1;
            } else if (!strcmp(a, "--size")) {
                if (parse_u64_arg(a, v, 1000000, &x) || x == 0) return -1;
                o->size = (uint32_t)x;
            } else if (parse_u64_arg(a, v, UINT64_MAX, &o->seed)) {
                return -1;
            }
        } else if (a[0] == '-' && a[1] != '-' && a[1]) {
            if (!v || o->noverrides + 4 > MAX_OVERRIDES) {
                fprintf(stderr, "locsim: %s: missing value (or too many overrides)\n", a);
                return -1;
            }
            o->overrides[o->noverrides++] = argv[i];
            o->overrides[o->noverrides++] = argv[++i];
        } else if (a[0] != '-') {
            if (add_workload(o, a)) return -1;
        } else {
            fprintf(stderr, "locsim: unknown option '%s'\n", a);
            return -1;
        }
    }
    if (!o->nwl) {
        fprintf(stderr, "locsim: compare needs workload names or 'all'\n");
        return -1;
    }
    return 0;
}

/* One run; returns -1 when the configuration is unusable (stop everything). */
static int run_cell(const compare_options *o, const workload_entry *e, const char *sched, cell *out) {
    char *ov[MAX_OVERRIDES];
    int n = o->noverrides;
    memcpy(ov, o->overrides, (size_t)n * sizeof *ov);
    ov[n++] = "-gpgpu_scheduler";
    ov[n++] = (char *)sched;
    locsim_config *cfg;
    memset(out, 0, sizeof *out);
    if (cli_load_config(o->config, n, ov, &cfg)) return -1;
    locsim_device *dev;
    locsim_status st = locsim_device_create(cfg, LOCSIM_MODE_TIMING, &dev);
    if (st != LOCSIM_OK) {
        fprintf(stderr, "locsim: cannot create a device with scheduler '%s': %s\n", sched, locsim_last_error(NULL));
        locsim_config_free(cfg);
        return -1;
    }
    char detail[512] = "";
    wl_result r = workload_run(e, dev, o->size, o->seed, detail, sizeof detail);
    out->ok = r == WL_PASS;
    if (!out->ok) fprintf(stderr, "locsim: %s with %s: %s\n", e->wl->name, sched, detail);
    out->ipc = cli_timing_stat(dev, "gpu_ipc");
    out->l1d_miss_rate = cli_timing_stat(dev, "L1D_total_cache_miss_rate");
    locsim_device_destroy(dev);
    locsim_config_free(cfg);
    return 0;
}

static void print_header(const compare_options *o) {
    printf("config %s, size %s, seed %" PRIu64 "; IPC = thread instructions per core cycle, L1D = miss rate\n",
           o->config, o->size ? "given" : "default", o->seed);
    printf("%-14s", "workload");
    for (int s = 0; s < o->nsched; s++) printf(" | %-17.17s", o->sched[s]);
    printf("\n%-14s", "");
    for (int s = 0; s < o->nsched; s++) printf(" | %8s %8s", "IPC", "L1D");
    printf("\n");
}

int cmd_compare(int argc, char **argv) {
    compare_options o;
    if (parse_compare(argc, argv, &o)) return 2;
    print_header(&o);
    double inv_sum[MAX_SCHED] = {0};
    int counted[MAX_SCHED] = {0}, failures = 0;
    for (int w = 0; w < o.nwl; w++) {
        printf("%-14s", o.wl[w]->wl->name);
        fflush(stdout);
        for (int s = 0; s < o.nsched; s++) {
            cell c;
            if (run_cell(&o, o.wl[w], o.sched[s], &c)) return 2;
            if (!c.ok) {
                printf(" | %17s", "FAIL");
                failures++;
            } else {
                printf(" | %8.2f %8.4f", c.ipc, c.l1d_miss_rate);
                if (c.ipc > 0) inv_sum[s] += 1.0 / c.ipc, counted[s]++;
            }
            fflush(stdout);
        }
        printf("\n");
    }
    printf("%-14s", "HMEAN IPC");
    double hmean[MAX_SCHED];
    for (int s = 0; s < o.nsched; s++) {
        hmean[s] = counted[s] ? counted[s] / inv_sum[s] : 0.0;
        printf(" | %8.2f %8s", hmean[s], "");
    }
    printf("\n%-14s", "vs first");
    for (int s = 0; s < o.nsched; s++) printf(" | %8.3f %8s", hmean[0] > 0 ? hmean[s] / hmean[0] : 0.0, "");
    printf("\n");
    return failures ? 1 : 0;
}
