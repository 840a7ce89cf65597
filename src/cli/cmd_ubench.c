/* locsim ubench: microbenchmarks that keep a configuration honest.
 *
 * Each row runs one kernel of ubench/kernel.cu on the timing model, turns its
 * %clock64 readings into cycles per operation (see the method there), works out
 * what the loaded configuration says that figure must be (from the options'
 * values, by their GPGPU-Sim names) and compares the two within a stated
 * tolerance.  docs/fidelity.md ("Microbenchmarks") explains every formula.
 *
 * Verdicts: PASS / FAIL; NO-OPT when no option of the configuration sets the
 * figure (the row shows what the model does instead, and is not counted as a
 * pass).  The exit status is 1 when any row FAILs. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "locsim/locsim.h"
#include "mem/addrmap.h"
#include "mem/mem_req.h"
#include "numa/numa.h"
#include "runtime/runtime.h"
#include "sim/config.h"

extern const char ubench_ptx[];
extern const size_t ubench_ptx_len;

#define MAX_OVERRIDES 128
#define SPAN (48 - 16)     /* LONG - SHORT operations per loop trip (kernel.cu) */
#define THR_WARPS 16       /* warps of the throughput kernels (one CTA, one SM); see alu_warps */
#define THR_WARPS_PER_SCHED 8 /* ... and at least this many per warp scheduler for thr.<op> */
#define THR_MAX_WARPS 32   /* 1024 threads: CUDA's CTA limit, and the size of the clock buffer (c->out) */

typedef enum { V_PASS, V_FAIL, V_NOOPT } verdict;

typedef struct {
    char name[24];
    char formula[200];      /* where the configured figure comes from */
    double configured;     /* what the options say */
    double lo, hi;         /* accepted range of the measured figure */
    char tol[16];          /* the tolerance as printed */
    double measured;
    verdict v;
} ub_row;

typedef struct ub_ctx {
    const sim_config *cfg;
    locsim_device *dev;
    locsim_module *mod;
    locsim_dptr out, sink, buf;
    size_t buf_bytes;
    const char *only;
    char config_name[64];  /* the configuration's file name without .cfg (published figures) */
    /* The listing pass (check_only): every row only names itself to wanted(),
     * which records the --only prefixes it matches and every name. */
    int listing;
    uint64_t matched;      /* bit i: --only's prefix i matches a row */
    char names[1024];
    int failed, passed, noopt, errors;
    uint32_t lanes;        /* warp_size / simd_width: cycles a warp holds a pipeline per issue */
    /* A multi-module configuration: the whole GPU (all its modules, placement
     * xor), where the lat.numa / thr.numa rows run; NULL otherwise. */
    struct ub_ctx *numa;
} ub_ctx;

/* ---- published load-to-use latencies (issue 35) ----
 * What a pointer chase measures on the real GPU a shipped configuration
 * models, in core cycles; a `pub.*` row compares the simulated chase of the
 * `lat.*` row with it, within 10%.  Each configuration file says how its
 * latency options were derived from these figures. */
typedef struct {
    const char *config;    /* configuration name (configs/<name>.cfg) */
    const char *row;       /* the lat.* row whose measurement is compared */
    double cycles;
    const char *source;
} published_latency;

#define GB_V100 "gpu-benches cuda-latency/v100.txt"
#define GB_A100 "gpu-benches cuda-latency/a100_40.txt"
#define GB_H100 "gpu-benches gpu-latency/h100_pcie.txt"
static const published_latency published_latencies[] = {
    /* te42kyfo/gpu-benches: one warp chasing a buffer, V100 PCIe at 1380 MHz */
    {"volta_v100", "lat.l1d.hit", 30.0, GB_V100 ", 1 kB"},
    {"volta_v100", "lat.l2.hit", 215.0, GB_V100 ", 1 MB"},
    {"volta_v100", "lat.dram.rowmiss", 428.2, GB_V100 ", 16 MB"},
    /* A100 40 GB at 1410 MHz; the L2's far half shows past 20 MB (one half) */
    {"ampere_a100", "lat.l1d.hit", 36.0, GB_A100 ", 1 kB"},
    {"ampere_a100", "lat.l2.hit", 213.0, GB_A100 ", 1 MB"},
    {"ampere_a100", "lat.l2.far", 426.6, GB_A100 ", 35 MB"},
    {"ampere_a100", "lat.dram.rowmiss", 570.1, GB_A100 ", 68 MB"},
    /* H100 PCIe at 1755 MHz */
    {"hopper_h100", "lat.l1d.hit", 34.1, GB_H100 ", 1 kB"},
    {"hopper_h100", "lat.l2.hit", 265.5, GB_H100 ", 1 MB"},
    {"hopper_h100", "lat.l2.far", 475.4, GB_H100 ", 35 MB"},
    {"hopper_h100", "lat.dram.rowmiss", 649.9, GB_H100 ", 125 MB"},
};

static const published_latency *published_for(const char *config, const char *row) {
    for (size_t i = 0; i < sizeof published_latencies / sizeof *published_latencies; i++)
        if (!strcmp(published_latencies[i].config, config) && !strcmp(published_latencies[i].row, row))
            return &published_latencies[i];
    return NULL;
}

/* ---- option values by name ---- */

static int opt_text(const ub_ctx *c, const char *name, char *buf, size_t n) {
    return config_get(c->cfg, name, buf, n);
}

static double opt_num(const ub_ctx *c, const char *name) {
    char buf[64];
    if (opt_text(c, name, buf, sizeof buf)) {
        fprintf(stderr, "locsim ubench: no option -%s\n", name);
        exit(2);
    }
    return strtod(buf, NULL);
}

/* Entry i of a comma-separated list option; -1 when the option or entry is missing. */
static double opt_list(const ub_ctx *c, const char *name, int i) {
    char buf[256];
    if (opt_text(c, name, buf, sizeof buf)) return -1;
    char *p = buf;
    for (int k = 0; k < i; k++) {
        p = strchr(p, ',');
        if (!p) return -1;
        p++;
    }
    return strtod(p, NULL);
}

/* A key=value of the DRAM timing string (nbk=16:CCD=2:...). */
static double dram_param(const ub_ctx *c, const char *key) {
    char buf[256], pat[32];
    opt_text(c, "gpgpu_dram_timing_opt", buf, sizeof buf);
    snprintf(pat, sizeof pat, "%s=", key);
    for (char *p = buf; (p = strstr(p, pat)); p++)
        if (p == buf || p[-1] == ':') return strtod(p + strlen(pat), NULL);
    return -1;
}

/* Clock domain d (0 core, 1 icnt, 2 L2, 3 DRAM) in MHz. */
static double clock_mhz(const ub_ctx *c, int d) {
    char buf[128];
    opt_text(c, "gpgpu_clock_domains", buf, sizeof buf);
    char *p = buf;
    for (int k = 0; k < d && p; k++) {
        p = strchr(p, ':');
        if (p) p++;
    }
    return p ? strtod(p, NULL) : 0;
}

/* ---- running kernels ---- */

/* --only: a comma-separated list of name prefixes.  In the listing pass,
 * record the name and which prefixes match it, and run nothing. */
static int wanted(ub_ctx *c, const char *name) {
    if (c->listing) {
        size_t len = strlen(c->names);
        snprintf(c->names + len, sizeof c->names - len, "%s%s", len ? ", " : "", name);
    }
    if (!c->only) return !c->listing;
    int i = 0, hit = 0;
    for (const char *p = c->only; *p; i++) {
        size_t n = strcspn(p, ",");
        if (n && strncmp(name, p, n) == 0) {
            hit = 1;
            if (i < 64) c->matched |= 1ull << i;
        }
        p += n;
        if (*p == ',') p++;
    }
    return hit && !c->listing;
}

/* Launch `kernel` (one CTA of `threads`) and return its (t_long - t_short): each
 * clock reading is the earliest over the CTA's warps (kernel.cu). */
static int run_once(ub_ctx *c, const char *kernel, uint32_t threads, void **args, uint32_t nargs, int64_t *diff) {
    locsim_kernel *k;
    locsim_dim3 grid = {1, 1, 1}, block = {threads, 1, 1};
    uint32_t warps = (threads + 31) / 32;
    int64_t t[3 * 32];
    if (locsim_module_get_kernel(c->mod, kernel, &k) != LOCSIM_OK ||
        locsim_launch(k, grid, block, 0, args, nargs) != LOCSIM_OK ||
        locsim_memcpy_dtoh(c->dev, t, c->out, 3 * warps * sizeof *t) != LOCSIM_OK) {
        fprintf(stderr, "locsim ubench: %s: %s\n", kernel, locsim_last_error(c->dev));
        c->errors++;
        return -1;
    }
    int64_t m[3];
    for (int j = 0; j < 3; j++) {
        m[j] = t[j];
        for (uint32_t w = 1; w < warps; w++)
            if (t[3 * w + j] < m[j]) m[j] = t[3 * w + j];
    }
    *diff = (m[2] - m[1]) - (m[1] - m[0]);
    return 0;
}

/* Cycles per operation: run with *reps = r2, then r1 (r1 < r2), and divide the
 * growth of (t_long - t_short) by the operations added per warp and by `per`
 * (warps sharing the pipeline, for throughput). */
static int measure(ub_ctx *c, const char *kernel, uint32_t threads, void **args, uint32_t nargs, int *reps, int r1,
                   int r2, double per, double *out) {
    int64_t d1, d2;
    *reps = r2;
    if (run_once(c, kernel, threads, args, nargs, &d2)) return -1;
    *reps = r1;
    if (run_once(c, kernel, threads, args, nargs, &d1)) return -1;
    *out = (double)(d2 - d1) / ((double)(r2 - r1) * SPAN * per);
    return 0;
}

static void all_rows(ub_ctx *c);

/* Every --only prefix must name at least one measurement: a misspelt one would
 * otherwise run nothing and report "0 passed, 0 failed".  0, or -1 after a
 * message listing the names. */
static int check_only(ub_ctx *c) {
    if (!c->only) return 0;
    c->listing = 1;
    all_rows(c);
    c->listing = 0;
    int i = 0, bad = 0;
    for (const char *p = c->only; *p; i++) {
        size_t n = strcspn(p, ",");
        if (!n || (i < 64 && !(c->matched & (1ull << i)))) {
            fprintf(stderr, "locsim ubench: --only '%.*s' matches no measurement\n", (int)n, p);
            bad = 1;
        }
        p += n;
        if (*p == ',') p++;
    }
    if (bad) fprintf(stderr, "locsim ubench: the measurements are: %s\n", c->names);
    return bad ? -1 : 0;
}

static void print_header(void) {
    printf("%-18s %-66s %10s %10s %10s  %s\n", "measurement", "configured as", "configured", "measured", "tolerance",
           "result");
}

static void report(ub_ctx *c, ub_row *r) {
    const char *vs = "PASS";
    if (r->v == V_NOOPT) {
        vs = "NO-OPT";
        c->noopt++;
    } else if (r->measured >= r->lo - 1e-9 && r->measured <= r->hi + 1e-9) {
        c->passed++;
    } else {
        vs = "FAIL";
        r->v = V_FAIL;
        c->failed++;
    }
    char conf[16] = "-";
    if (r->configured >= 0) snprintf(conf, sizeof conf, "%.2f", r->configured);
    printf("%-18s %-66s %10s %10.2f %10s  %s\n", r->name, r->formula, conf, r->measured, r->tol, vs);
    fflush(stdout);
}

static int wanted(ub_ctx *c, const char *name);

/* The pub.* row of a lat.* row ("lat.l2.hit" -> "pub.l2.hit"): wanted when the
 * configuration has a published figure for it and --only asks for it. */
static int pub_wanted(ub_ctx *c, const char *lat_name) {
    if (!published_for(c->config_name, lat_name)) return 0;
    char name[32];
    snprintf(name, sizeof name, "pub.%.20s", lat_name + 4);
    return wanted(c, name);
}

static void report(ub_ctx *c, ub_row *r);

/* The simulated chase of a lat.* row against the published figure: within 10%. */
static void report_published(ub_ctx *c, const char *lat_name, double measured) {
    const published_latency *p = published_for(c->config_name, lat_name);
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, "pub.%.19s", lat_name + 4);
    snprintf(r.formula, sizeof r.formula, "published: %.180s", p->source);
    r.configured = p->cycles;
    r.lo = p->cycles * 0.9;
    r.hi = p->cycles * 1.1;
    snprintf(r.tol, sizeof r.tol, "+-10%%");
    r.measured = measured;
    report(c, &r);
}

/* Exact figures: every overhead cancels in the difference of differences, so
 * the margin only absorbs floating-point rounding (a one-cycle error over the
 * 64 operations of the runs' difference would show as 0.016: 0.05 is smaller
 * than any real discrepancy of a whole cycle per operation). */
static void tol_exact(ub_row *r, double want) {
    r->configured = want;
    r->lo = want - 0.05;
    r->hi = want + 0.05;
    snprintf(r->tol, sizeof r->tol, "+-0.05");
}

/* ---- arithmetic pipelines ---- */

typedef enum { T_INT, T_F32, T_F64 } val_type;
typedef enum { U_SP, U_SFU, U_DP, U_INT } unit_kind;

typedef struct {
    const char *name;      /* kernel suffix */
    val_type type;
    const char *table;     /* int | fp | dp | sfu: -ptx_opcode_latency_<table> */
    int group;             /* ADD MAX MUL MAD DIV (SHFL = 5) */
    unit_kind unit;
} alu_op;

static const char *const group_names[] = {"ADD", "MAX", "MUL", "MAD", "DIV", "SHFL"};

/* Which latency column and pipeline each operation takes.  With the
 * -ptx_opcode_latency_sfu option (GPGPU-Sim 3.x's set_opcode_and_latency, issue
 * 8): int and fp ops on the SP units; f64 add/max/mul/fma on the DP unit (the SFU
 * when -gpgpu_num_dp_units is 0); div of any type on the SFU with its type's DIV
 * column; transcendentals of any type (f64 rcp/sqrt too) on the SFU with the
 * _sfu figures; shfl with the 6th int column.  Without that option (the model
 * before it): div on SP (f64 on DP), transcendentals with the fp DIV column, f64
 * ones with the dp DIV column on DP.  With -gpgpu_num_int_units above 0 the
 * int-table operations that run on SP (add, max, mul, mad, shfl) run on the INT
 * units (src/core/opclass.c). */
typedef struct {
    const char *table;
    int group;
    unit_kind unit;
} alu_class;

static const alu_op alu_ops[] = {
    {"iadd", T_INT, "int", 0, U_SP},  {"imax", T_INT, "int", 1, U_SP},  {"imul", T_INT, "int", 2, U_SP},
    {"imad", T_INT, "int", 3, U_SP},  {"idiv", T_INT, "int", 4, U_SFU}, {"fadd", T_F32, "fp", 0, U_SP},
    {"fmax", T_F32, "fp", 1, U_SP},   {"fmul", T_F32, "fp", 2, U_SP},   {"ffma", T_F32, "fp", 3, U_SP},
    {"fdiv", T_F32, "fp", 4, U_SFU},  {"dadd", T_F64, "dp", 0, U_DP},   {"dmax", T_F64, "dp", 1, U_DP},
    {"dmul", T_F64, "dp", 2, U_DP},   {"dfma", T_F64, "dp", 3, U_DP},   {"ddiv", T_F64, "dp", 4, U_SFU},
    {"sin", T_F32, "sfu", 0, U_SFU},  {"rcp", T_F32, "sfu", 0, U_SFU},  {"sqrt", T_F32, "sfu", 0, U_SFU},
    {"drcp", T_F64, "sfu", 0, U_SFU}, {"dsqrt", T_F64, "sfu", 0, U_SFU}, {"shfl", T_INT, "int", 5, U_SP},
};

/* The classification in force: the table above when the configuration has
 * -ptx_opcode_latency_sfu, else the older one. */
static alu_class alu_classify(const ub_ctx *c, const alu_op *op) {
    char buf[32];
    alu_class k = {op->table, op->group, op->unit};
    if (k.unit == U_SP && !strcmp(k.table, "int") && opt_num(c, "gpgpu_num_int_units") > 0) k.unit = U_INT;
    if (config_get(c->cfg, "ptx_opcode_latency_sfu", buf, sizeof buf) == 0) return k;
    if (op->group == 4) k.unit = op->type == T_F64 ? U_DP : U_SP;      /* div */
    if (op->type == T_F64 && !strcmp(op->table, "sfu")) {              /* f64 rcp, sqrt */
        k.table = "dp";
        k.group = 4;
        k.unit = U_DP;
    }
    return k;
}

/* Latency (what=0) or initiation interval (what=1) the options give op; -1 if
 * none does.  *src says which option entry. */
static double alu_option(const ub_ctx *c, const alu_op *op, int what, char *src, size_t n) {
    const char *kind = what ? "initiation" : "latency";
    char name[40];
    alu_class k = alu_classify(c, op);
    if (!strcmp(k.table, "sfu")) {
        snprintf(name, sizeof name, "ptx_opcode_%s_sfu", kind);
        double v = opt_list(c, name, 0);
        if (v >= 0) {
            snprintf(src, n, "-%s", name);
            return v;
        }
        /* no SFU option in this configuration: the fp DIV column stands in */
        snprintf(name, sizeof name, "ptx_opcode_%s_fp", kind);
        snprintf(src, n, "-%s[DIV] (no _sfu option)", name);
        return opt_list(c, name, 4);
    }
    snprintf(name, sizeof name, "ptx_opcode_%s_%s", kind, k.table);
    snprintf(src, n, "-%s[%s]", name, group_names[k.group]);
    return opt_list(c, name, k.group);
}

/* Sub-cores an SM has (-gpgpu_sub_core_model): 1 without them. */
static uint32_t sub_cores(const ub_ctx *c) {
    return opt_num(c, "gpgpu_sub_core_model") > 0 ? (uint32_t)opt_num(c, "gpgpu_num_sched_per_core") : 1;
}

static uint32_t unit_count(const ub_ctx *c, unit_kind u, const char **name) {
    if (u == U_INT) {
        *name = "int";
        return (uint32_t)opt_num(c, "gpgpu_num_int_units");
    }
    if (u == U_DP && opt_num(c, "gpgpu_num_dp_units") > 0) {
        *name = "dp";
        return (uint32_t)opt_num(c, "gpgpu_num_dp_units");
    }
    if (u == U_SP) {
        *name = "sp";
        return (uint32_t)opt_num(c, "gpgpu_num_sp_units");
    }
    *name = "sfu";
    return (uint32_t)opt_num(c, "gpgpu_num_sfu_units");
}

static void alu_args(const alu_op *op, ub_ctx *c, int *reps, void *a, void *b, void **args) {
    static int ia = 3, ib = 1, ishfl = 0;
    static float fa = 1.5f, fb = 1.0f;
    static double da = 1.5, db = 1.0;
    /* b is the neutral operand for the op (x*1, x/1, x+0 would also do): only timing matters */
    if (op->type == T_INT) {
        memcpy(a, &ia, sizeof ia);
        memcpy(b, !strcmp(op->name, "shfl") ? &ishfl : &ib, sizeof ib);
    } else if (op->type == T_F32) {
        memcpy(a, &fa, sizeof fa);
        memcpy(b, &fb, sizeof fb);
    } else {
        memcpy(a, &da, sizeof da);
        memcpy(b, &db, sizeof db);
    }
    args[0] = &c->out;
    args[1] = reps;
    args[2] = a;
    args[3] = b;
    args[4] = &c->sink;
}

/* Cycles a link of kernel's dependent chain waits for register banks: a bank
 * delivers one operand a cycle (src/core/opcoll.c), so the link's source
 * registers that share a bank cost one cycle each beyond the first.  The
 * chain's instruction is the kernel's first of the form x = op(x, ...) whose
 * other operands, if any, include a register (the loop counter, x = x + 1, has
 * none); one warp (warp 0), so register r is in bank r mod the banks one warp's
 * registers spread over (all of them, or its sub-core's share).  Fermi's 16
 * banks: only mad/fma (x = fma(x, b, b)) pays, for b read twice. */
static uint32_t chain_bank_extra(const ub_ctx *c, const char *kernel) {
    const ptx_module *m = c->mod->ptx;
    int fi = ptx_find_function(m, kernel);
    uint32_t banks = (uint32_t)opt_num(c, "gpgpu_num_reg_banks") / sub_cores(c);
    if (fi < 0 || banks == 0) return 0;
    const ptx_function *f = &m->funcs[fi];
    for (uint32_t i = 0; i < f->ninsn; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->ndst != 1 || in->nopnd < 2 || in->opnd[0].kind != PTX_OPND_REG || in->opnd[1].kind != PTX_OPND_REG ||
            in->opnd[1].reg != in->opnd[0].reg)
            continue;
        uint32_t per_bank[64] = {0}, most = 0, regs = 0;
        for (uint32_t k = 1; k < in->nopnd; k++) {
            if (in->opnd[k].kind != PTX_OPND_REG) continue;
            regs++;
            uint32_t n = ++per_bank[in->opnd[k].reg % banks];
            if (n > most) most = n;
        }
        if (in->nopnd > 2 && regs < 2) continue; /* x = x op immediate: not a chain of the kernels */
        return most - 1;
    }
    return 0;
}

/* Cycles a dependent ALU instruction adds to its latency in GPGPU-Sim's core:
 * collector unit, operand read, dispatch, function-unit issue, writeback
 * (src/core/opcoll.c; GPGPU-Sim's shader.cc pipeline). */
#define ALU_PIPELINE_CYCLES 6

static void alu_latency(ub_ctx *c, const alu_op *op) {
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, "lat.%s", op->name);
    if (!wanted(c, r.name)) return;
    char src[80], kernel[32];
    double lat = alu_option(c, op, 0, src, sizeof src);
    int reps = 2;
    double a[1], b[1];
    void *args[5];
    alu_args(op, c, &reps, a, b, args);
    snprintf(kernel, sizeof kernel, "lat_%s", op->name);
    if (measure(c, kernel, 32, args, 5, &reps, 1, 3, 1, &r.measured)) return;
    if (lat < 0) {
        snprintf(r.formula, sizeof r.formula, "no option sets it (%s)", src);
        r.configured = -1;
        snprintf(r.tol, sizeof r.tol, "-");
        r.v = V_NOOPT;
    } else {
        /* A pipeline of simd_width lanes finishes a warp lanes-1 cycles later.
         * With a single unit of the kind, the next operation of the chain also
         * waits for the unit: its initiation interval (x lanes) bounds the chain. */
        const char *uname;
        char isrc[80];
        double init = alu_option(c, op, 1, isrc, sizeof isrc) * c->lanes;
        /* sources sharing a register bank: mad/fma read b twice (x = fma(x, b,
         * b)); with sub-cores' fewer banks x and b may share one too */
        uint32_t bank_extra = chain_bank_extra(c, kernel);
        double want = lat + c->lanes - 1 + ALU_PIPELINE_CYCLES + bank_extra;
        /* one warp reaches only its sub-core's share of the units */
        int unit_bound = unit_count(c, alu_classify(c, op).unit, &uname) / sub_cores(c) == 1 && init > want;
        if (unit_bound) {
            snprintf(r.formula, sizeof r.formula, "%s%s (1 %s unit%s: initiation-bound)", isrc,
                     c->lanes > 1 ? " x lanes" : "", uname, sub_cores(c) > 1 ? " per sub-core" : "");
            want = init;
        } else if (c->lanes > 1) {
            snprintf(r.formula, sizeof r.formula, "%s + %u + %d pipeline", src, c->lanes - 1, ALU_PIPELINE_CYCLES);
        } else {
            snprintf(r.formula, sizeof r.formula, "%s + %d pipeline", src, ALU_PIPELINE_CYCLES);
        }
        if (bank_extra && !unit_bound) {
            size_t len = strlen(r.formula);
            snprintf(r.formula + len, sizeof r.formula - len, " + %u bank", bank_extra);
        }
        tol_exact(&r, want);
    }
    report(c, &r);
}

/* Warps of the thr.<op> kernels: THR_WARPS_PER_SCHED per warp scheduler, at least
 * THR_WARPS (16: Fermi's 2 schedulers x 8, what the kernels were written for;
 * 32 on a 4-scheduler SM).
 *
 * Why per scheduler: the method (kernel.cu) cancels the loop's own
 * instructions (counter add -> setp -> bra, then the next trip's fetch) only if
 * they cost the same per trip in the short and the long loop.  They cost nothing
 * extra while the other warps of the same scheduler keep the unit busy through
 * one warp's loop control; whatever they leave exposed depends on details that
 * differ between the two loops (nvcc gives each loop its own counter register,
 * which with -gpgpu_sub_core_model's 4 register banks per sub-core can share a
 * bank with the loop bound or the body's last writebacks in one loop and not
 * in the other).  A round-robin scheduler keeps its warps in step, so all of
 * them reach the loop control together and only the warps behind the first one
 * cover its chain (about 10 cycles for add -> setp alone: int latency 4 + 6
 * pipeline).  With 16 warps on 4 schedulers that is 3 operations; on
 * volta_v100 thr.iadd's sub-core 0 left its unit idle 22 cycles per 2 trips in
 * the short loop and 10 in the long one, so the difference came out 12 cycles
 * short of the unit's work: 0.49 for a bound of 0.50 (fmax: 54 and 26, 0.47).
 * With 8 warps per scheduler the first warp's chain is covered by the 7 behind
 * it (issue 35, docs/timing-core.md "Volta-class SM"). */
static uint32_t alu_warps(const ub_ctx *c) {
    uint32_t w = THR_WARPS_PER_SCHED * (uint32_t)opt_num(c, "gpgpu_num_sched_per_core");
    if (w < THR_WARPS) w = THR_WARPS;
    return w > THR_MAX_WARPS ? THR_MAX_WARPS : w;
}

static void alu_throughput(ub_ctx *c, const alu_op *op) {
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, "thr.%s", op->name);
    if (!wanted(c, r.name)) return;
    char src[80], kernel[32];
    const char *uname;
    double init = alu_option(c, op, 1, src, sizeof src);
    uint32_t units = unit_count(c, alu_classify(c, op).unit, &uname);
    double sched = opt_num(c, "gpgpu_num_sched_per_core");
    int reps = 2;
    double a[1], b[1];
    void *args[5];
    alu_args(op, c, &reps, a, b, args);
    snprintf(kernel, sizeof kernel, "thr_%s", op->name);
    uint32_t warps = alu_warps(c);
    if (warps * 32 > opt_num(c, "gpgpu_shader_core_pipeline")) {
        fprintf(stderr, "locsim ubench: %s: %u warps do not fit in an SM\n", r.name, warps);
        c->errors++;
        return;
    }
    if (measure(c, kernel, warps * 32, args, 5, &reps, 2, 4, warps, &r.measured)) return;
    if (init < 0) {
        snprintf(r.formula, sizeof r.formula, "no option sets it (%s)", src);
        r.configured = -1;
        snprintf(r.tol, sizeof r.tol, "-");
        r.v = V_NOOPT;
        report(c, &r);
        return;
    }
    double want = init * c->lanes / units;
    int issue_bound = 1.0 / sched > want;
    if (issue_bound) want = 1.0 / sched;
    snprintf(r.formula, sizeof r.formula, "%s%s / %u %s%s", src, c->lanes > 1 ? " x lanes" : "", units, uname,
             issue_bound ? " (issue-bound)" : "");
    r.configured = want;
    r.lo = want * 0.98;
    r.hi = want * 1.02;
    snprintf(r.tol, sizeof r.tol, "+-2%%");
    if (want < 1.5) {
        /* Within a cycle and a half per instruction the front end also binds: one
         * fetch of 2 instructions per SM per cycle, register-bank conflicts between
         * warps (bank = register + warp), collector units and result buses
         * (src/core/opcoll.c, sm.c).  The option is then a lower bound, met within
         * one front-end cycle per instruction. */
        r.hi = want + 1.0;
        snprintf(r.tol, sizeof r.tol, "-2%%..+1");
    }
    report(c, &r);
}

/* ---- sub-cores ---- */

/* f32 adds (kernel.cu part_fadd) of N warps (N = the scheduler count), one per
 * scheduler, all working (spread) or only warp 0 (packed: the others only take
 * part in the barriers), so the packed work is all on scheduler 0.  Cycles per
 * warp instruction over the working warps: a scheduler issues at most one a
 * cycle, so packed is at least 1; the fp units bound both, and with
 * -gpgpu_sub_core_model 1 the packed warp reaches only sub-core 0's share of
 * the units (units / N), without it all of them:
 *   spread  max(init x lanes / units, 1 / N)
 *   packed  max(init x lanes / (units / sub-cores), 1)
 * so the two differ as much as the sub-cores cut the units one scheduler can use.
 * One working warp per scheduler: alone on its scheduler, a warp's loop control
 * (a setp/bra for `work`, counter add -> setp -> bra) is fully exposed at every
 * trip, the same in both timed loops, so the method cancels it.  Packed once ran
 * N warps on scheduler 0; kept in step by a round-robin scheduler they covered
 * part of each other's loop control, by amounts that differ between the loops
 * (issue 35: ampere_a100 1.95, hopper_h100 1.83 for 2.00; 2 warps: hopper_h100
 * 1.95), and 8 warps, enough to cover it, overload sub-core 0's 4 register banks
 * on volta_v100 (2.16).  One warp with 16 independent chains issues an add a
 * cycle, enough for one SP unit of interval 2; without sub-cores its own fetch
 * (2 instructions, 2 cycles from fetch to issue) holds it near 1.5, within the
 * front-end tolerance. */
static void sub_core_row(ub_ctx *c, int packed) {
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, "thr.sub.%s", packed ? "packed" : "spread");
    if (!wanted(c, r.name)) return;
    uint32_t n = (uint32_t)opt_num(c, "gpgpu_num_sched_per_core"), subs = sub_cores(c);
    uint32_t units = (uint32_t)opt_num(c, "gpgpu_num_sp_units");
    double init = opt_list(c, "ptx_opcode_initiation_fp", 0) * c->lanes;
    int reps = 2, stride = packed ? (int)n : 1;
    float a = 1.5f, b = 1.0f;
    void *args[6] = {&c->out, &reps, &a, &b, &c->sink, &stride};
    uint32_t working = packed ? 1 : n;
    if (measure(c, "part_fadd", n * 32, args, 6, &reps, 2, 4, working, &r.measured)) return;
    double unit_bound = packed ? init / (units / subs) : init / units, issue_bound = packed ? 1.0 : 1.0 / n;
    double want = unit_bound > issue_bound ? unit_bound : issue_bound;
    snprintf(r.formula, sizeof r.formula, "%u warp%s on %s: fp[ADD] init%s / %u sp unit%s%s", working,
             working > 1 ? "s" : "",
             packed ? "scheduler 0" : "all schedulers", c->lanes > 1 ? " x lanes" : "", packed ? units / subs : units,
             packed && subs > 1 ? " of sub-core 0" : "s", unit_bound < issue_bound ? " (issue-bound)" : "");
    r.configured = want;
    r.lo = want * 0.98;
    r.hi = want < 1.5 ? want + 1.0 : want * 1.02; /* the front end may add up to a cycle (alu_throughput) */
    snprintf(r.tol, sizeof r.tol, want < 1.5 ? "-2%%..+1" : "+-2%%");
    report(c, &r);
}

/* ---- shared memory ---- */

/* Bank-conflict degree of chase_shared's pattern for n ways: the most distinct
 * 4-byte words that one bank must deliver. */
static uint32_t smem_degree(uint32_t ways, uint32_t banks) {
    uint32_t per_bank[64] = {0}, degree = 1;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t word = (l % ways) * 32 + l / ways; /* distinct for distinct lanes */
        uint32_t b = word % banks;
        if (++per_bank[b] > degree) degree = per_bank[b];
    }
    return degree;
}

static void smem_rows(ub_ctx *c) {
    static const int ways[] = {1, 2, 4, 8, 16, 32};
    uint32_t banks = (uint32_t)opt_num(c, "gpgpu_shmem_num_banks");
    double lat = opt_num(c, "gpgpu_smem_latency");
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
            ub_row r = {0};
            snprintf(r.name, sizeof r.name, "%s.smem.%dway", pass ? "thr" : "lat", ways[i]);
            if (!wanted(c, r.name)) continue;
            int reps = 2, w = ways[i];
            void *args[] = {&c->out, &reps, &w, &c->sink};
            uint32_t degree = smem_degree((uint32_t)w, banks);
            if (measure(c, pass ? "stream_shared" : "chase_shared", pass ? THR_WARPS * 32 : 32, args, 4, &reps, 1, 3,
                        pass ? THR_WARPS : 1, &r.measured))
                continue;
            if (pass == 0) {
                snprintf(r.formula, sizeof r.formula, "-gpgpu_smem_latency + %u-way conflict - 1 (%u banks)", degree,
                         banks);
                tol_exact(&r, lat + degree - 1);
            } else {
                snprintf(r.formula, sizeof r.formula, "%u-way conflict: LD/ST cycles per access (%u banks)", degree,
                         banks);
                r.configured = degree;
                r.lo = degree * 0.98;
                r.hi = degree * 1.02;
                snprintf(r.tol, sizeof r.tol, "+-2%%");
                if (degree <= 2) { /* the front end may delay the next access (see alu_throughput) */
                    r.hi = degree * 1.05;
                    snprintf(r.tol, sizeof r.tol, "-2%%..+5%%");
                }
            }
            report(c, &r);
        }
}

/* ---- pointer chasing ---- */

/* One thread chasing from `start`: runs with r2 trips per loop, then r1. */
static int chase_run(ub_ctx *c, const char *kernel, uint64_t start, int r1, int r2, double *per_load) {
    int reps = 0;
    void *args[] = {&c->out, &reps, &start, &c->sink};
    return measure(c, kernel, 1, args, 4, &reps, r1, r2, 1, per_load);
}

/* A cyclic chain through `n` addresses of the buffer (offsets off[]). */
static int chain_write(ub_ctx *c, const uint64_t *off, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t next = c->buf + off[(i + 1) % n];
        if (locsim_memcpy_htod(c->dev, c->buf + off[i], &next, sizeof next) != LOCSIM_OK) return -1;
    }
    return 0;
}

static void l1_hit_row(ub_ctx *c) {
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, "lat.l1d.hit");
    int want_lat = wanted(c, r.name), want_pub = pub_wanted(c, r.name);
    if (!want_lat && !want_pub) return;
    /* 16 lines, one after the other: 2 KB, fits any L1D; pass 1 warms it */
    uint64_t off[16];
    uint32_t line = c->cfg->l1d.line_size ? c->cfg->l1d.line_size : 128;
    for (int i = 0; i < 16; i++) off[i] = (uint64_t)i * line;
    if (chain_write(c, off, 16) || chase_run(c, "chase_global", c->buf, 1, 3, &r.measured)) {
        c->errors++;
        return;
    }
    double l1 = opt_num(c, "gpgpu_l1_latency");
    /* +1: the LD/ST unit sends the access to the L1D the cycle after the load issues */
    snprintf(r.formula, sizeof r.formula, "-gpgpu_l1_latency + 1 (LD/ST unit)");
    tol_exact(&r, l1 + 1);
    if (want_lat) report(c, &r);
    if (want_pub) report_published(c, r.name, r.measured);
}

static void const_hit_row(ub_ctx *c) {
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, "lat.const.hit");
    if (!wanted(c, r.name)) return;
    locsim_kernel *k;
    locsim_dim3 one = {1, 1, 1};
    void *args[] = {&c->out};
    uint64_t base[2];
    if (locsim_module_get_kernel(c->mod, "c_chain_base", &k) != LOCSIM_OK ||
        locsim_launch(k, one, one, 0, args, 1) != LOCSIM_OK ||
        locsim_memcpy_dtoh(c->dev, base, c->out, sizeof base) != LOCSIM_OK) {
        c->errors++;
        return;
    }
    /* 8 lines of the constant cache (its line size apart), cyclic */
    uint32_t line = c->cfg->l1c.line_size ? c->cfg->l1c.line_size : 64;
    uint32_t step = line / 8, n = 8;
    uint64_t chain[256] = {0};
    for (uint32_t i = 0; i < n; i++) chain[i * step] = base[0] + (uint64_t)((i + 1) % n) * step * 8;
    if (locsim_memcpy_to_symbol(c->mod, "c_chain", chain, sizeof chain, 0) != LOCSIM_OK ||
        chase_run(c, "chase_const", base[0], 1, 3, &r.measured)) {
        c->errors++;
        return;
    }
    /* GPGPU-Sim's constant cache has no latency queue (-gpgpu_l1_latency is the
     * L1D's): a hit is visible the cycle after the access */
    snprintf(r.formula, sizeof r.formula, "1 (constant-cache hit) + 1 (LD/ST unit)");
    tol_exact(&r, 2);
    report(c, &r);
}

/* The L2-hit path in core cycles: the L1D miss (l1 latency + 1 as for a hit),
 * the crossbar both ways (latency plus serialisation: the request is a header,
 * the reply a header and the data the L1D asked for: its line, or one 32 B
 * sector from a sectored L1D; ceil(bytes / -icnt_flit_size) flits at
 * -icnt_flits_per_cycle) and the ROP queue in front of the L2.
 * Tolerance: four clock-domain crossings (SM -> crossbar -> L2 -> crossbar ->
 * SM) may each gain or lose up to one cycle of the slower domain. */
static void l2_expect(const ub_ctx *c, ub_row *r) {
    const sim_config *g = c->cfg;
    double l1 = opt_num(c, "gpgpu_l1_latency");
    double core = clock_mhz(c, 0), icnt = clock_mhz(c, 1), l2 = clock_mhz(c, 2);
    double icnt_lat = opt_num(c, "icnt_latency"), rop = opt_num(c, "gpgpu_l2_rop_latency");
    double flit = opt_num(c, "icnt_flit_size"), fpc = opt_num(c, "icnt_flits_per_cycle");
    double data = g->l1d.sectored ? 32 : g->l1d.line_size;
    double req_ser = ceil(ceil(MEM_PACKET_HEADER_BYTES / flit) / fpc);
    double rep_ser = ceil(ceil((MEM_PACKET_HEADER_BYTES + data) / flit) / fpc);
    double slow = core / (icnt < l2 ? icnt : l2);   /* core cycles per cycle of the slower domain */
    r->configured = l1 + 1 + (2 * icnt_lat + req_ser + rep_ser) * core / icnt + rop * core / l2;
    r->lo = r->configured - 4 * (slow > 1 ? slow - 1 : 0);
    r->hi = r->configured + 4 * (slow > 1 ? slow : 1);
    snprintf(r->tol, sizeof r->tol, "-%.0f..+%.0f", r->configured - r->lo, r->hi - r->configured);
}

/* Lines an L2 chase from SM 0 visits: four times what the L1D holds (at least
 * 512), so that every load misses an LRU L1D, at most 16384. */
static uint32_t l2_chain_length(const ub_ctx *c) {
    const cache_geometry *g = &c->cfg->l1d;
    uint64_t lines = (uint64_t)g->nsets * g->assoc * c->cfg->l1d_size_scale * 4;
    if (lines < 512) lines = 512;
    if (lines > 16384) lines = 16384;
    return (uint32_t)((lines + 63) / 64 * 64);
}

/* Offsets of n lines of the buffer's first 8 MB, in address order, for a chase
 * from SM 0 (where the one-CTA launches run): every line on a GPU with one L2;
 * with -l2_far_latency only the lines of SM 0's L2 half (far = 0) or of the
 * other half (far = 1).  The number found (n, unless the region runs out). */
static size_t l2_chain_lines(const ub_ctx *c, int far, uint64_t *off, size_t n) {
    uint32_t line = c->cfg->l1d.line_size ? c->cfg->l1d.line_size : 128;
    addrmap_config ac;
    addrmap m;
    char err[256];
    config_addrmap(c->cfg, &ac);
    if (c->cfg->l2_far_latency && addrmap_init(&m, &ac, err, sizeof err)) return 0;
    uint32_t sm_half = l2_half_of(0, config_num_sms(c->cfg));
    size_t k = 0;
    for (uint64_t a = 0; a + line <= (8u << 20) && k < n; a += line) {
        if (c->cfg->l2_far_latency) {
            addr_loc loc;
            addrmap_decode(&m, c->buf + a, &loc);
            if ((l2_half_of(loc.channel, ac.n_channels) != sm_half) != far) continue;
        }
        off[k++] = a;
    }
    return k;
}

/* lat.l2.hit: a cycle of l2_chain_length lines, more than an LRU L1D can keep,
 * so every load misses it; the L2 keeps them all.  The first run (N/64 trips
 * per loop: 2 x N loads) brings every line into the L2; after it every timed
 * load misses the L1D and hits the L2.  lat.l2.far (with -l2_far_latency): the
 * same through lines of the other L2 half, which add the far latency. */
static void l2_row(ub_ctx *c, int far) {
    ub_row r = {0};
    snprintf(r.name, sizeof r.name, far ? "lat.l2.far" : "lat.l2.hit");
    if (far && !c->cfg->l2_far_latency) return;
    int want_lat = wanted(c, r.name), want_pub = pub_wanted(c, r.name);
    if (!want_lat && !want_pub) return;
    static uint64_t off[16384];
    uint32_t n = l2_chain_length(c), reps = n / 64;
    if (l2_chain_lines(c, far, off, n) < n || chain_write(c, off, n) ||
        chase_run(c, "chase_global", c->buf + off[0], (int)reps / 2, (int)reps, &r.measured)) {
        c->errors++;
        return;
    }
    l2_expect(c, &r);
    if (far) {
        double add = opt_num(c, "l2_far_latency") * clock_mhz(c, 0) / clock_mhz(c, 2);
        r.configured += add;
        r.lo += add;
        r.hi += add;
        snprintf(r.formula, sizeof r.formula, "lat.l2.hit + l2_far_latency (the other L2 half)");
    } else {
        snprintf(r.formula, sizeof r.formula, "l1+1 + 2 x icnt_latency + flits (req, reply) + rop_latency");
    }
    if (want_lat) report(c, &r);
    if (want_pub) report_published(c, r.name, r.measured);
}

/* DRAM: one thread chases lines of one bank of channel 0 that nothing has
 * touched before (every load misses the L1D and the L2), in an order that makes
 * every access a row-buffer miss (each line in another row than the last) or
 * mostly hits (the lines of a row one after the other; the first access to each
 * row misses).  The expected figure adds, per load, the DRAM part (in DRAM
 * cycles) and dram_latency to the L2-hit path. */
enum { DRAM_R1 = 1, DRAM_R2 = 2, DRAM_LINES = 2 * 64 * (DRAM_R1 + DRAM_R2) };

/* Per-load expected DRAM figure in core cycles for a row hit (miss = 0) or a
 * row miss (miss = 1), on top of the L2-hit path. */
static double dram_part(const ub_ctx *c, int miss) {
    double core = clock_mhz(c, 0), l2 = clock_mhz(c, 2), dram = clock_mhz(c, 3);
    /* bytes an L2 miss reads: its line; a sectored L2 reads only the sectors the
     * request asks for: one (the 8-byte load's) from a sectored L1D, else the
     * L1D's whole line */
    const sim_config *g = c->cfg;
    double line = !g->l2.sectored ? g->l2.line_size : g->l1d.sectored ? 32 : g->l1d.line_size;
    double atom = opt_num(c, "gpgpu_dram_buswidth") * opt_num(c, "gpgpu_n_mem_per_ctrlr") *
                  opt_num(c, "gpgpu_dram_burst_length");
    /* column commands: a normal L2 reads its line in atoms; a sectored L2 makes
     * one 32 B DRAM read per sector (each a column command of its own), and the
     * load completes with the last.  They all go to one bank, so one bank group:
     * tCCDL (when longer than tCCD) spaces them. */
    double cols = g->l2.sectored ? line / 32 : line > atom ? ceil(line / atom) : 1;
    double burst = opt_num(c, "gpgpu_dram_burst_length") / opt_num(c, "dram_data_command_freq_ratio");
    if (burst < 1) burst = 1;
    double ccd = dram_param(c, "CCD"), ccdl = dram_param(c, "CCDL");
    double spacing = ccdl > ccd ? ccdl : ccd;
    double d = spacing * (cols - 1) + dram_param(c, "CL") + burst;
    if (miss) d += dram_param(c, "RP") + dram_param(c, "RCD");
    return opt_num(c, "dram_latency") * core / l2 + d * core / dram;
}

/* Read one word of every line of a region four times the L2's size, so that
 * nothing the host wrote (the chain, if copies pass through the L2) stays in it.
 * The region, from 8 MB into the buffer, holds none of the chains' lines. */
static int flush_l2(ub_ctx *c) {
    const sim_config *g = c->cfg;
    uint64_t l2_bytes = (uint64_t)g->l2.nsets * g->l2.line_size * g->l2.assoc * config_num_l2_slices(g);
    uint32_t line = g->l2.line_size ? g->l2.line_size : 128, words = line / 4;
    uint64_t lines = 4 * l2_bytes / line;
    if ((8u << 20) + lines * line > c->buf_bytes / 2) {
        fprintf(stderr, "locsim ubench: the L2 (%" PRIu64 " bytes) is too large for the flush region\n", l2_bytes);
        return -1;
    }
    locsim_dptr region = c->buf + (8u << 20);
    locsim_kernel *k;
    locsim_dim3 grid = {(uint32_t)((lines + 255) / 256), 1, 1}, block = {256, 1, 1};
    void *args[] = {&region, &words, &c->sink};
    if (locsim_module_get_kernel(c->mod, "flush_l2", &k) != LOCSIM_OK || locsim_launch(k, grid, block, 0, args, 3) != LOCSIM_OK) {
        fprintf(stderr, "locsim ubench: flush_l2: %s\n", locsim_last_error(c->dev));
        return -1;
    }
    return 0;
}

/* Launch the chase from chain position `start` with `reps` trips; d = t_long -
 * t_short of pass 2, e = the same from the expected per-load figures. */
static int dram_launch(ub_ctx *c, const uint64_t *off, const uint8_t *miss, int start, int reps, double base,
                       int64_t *d, double *e) {
    uint64_t p = c->buf + off[start];
    void *args[] = {&c->out, &reps, &p, &c->sink};
    if (run_once(c, "chase_global", 1, args, 4, d)) return -1;
    /* pass 2: short loop = positions [64R, 80R), long loop = [80R, 128R) */
    double es = 0, el = 0;
    for (int i = 64 * reps; i < 80 * reps; i++) es += base + dram_part(c, miss[start + i]);
    for (int i = 80 * reps; i < 128 * reps; i++) el += base + dram_part(c, miss[start + i]);
    *e = el - es;
    return 0;
}

static void dram_rows(ub_ctx *c) {
    for (int hits = 0; hits < 2; hits++) {
        ub_row r = {0};
        snprintf(r.name, sizeof r.name, "lat.dram.%s", hits ? "rowhit" : "rowmiss");
        int want_lat = wanted(c, r.name), want_pub = pub_wanted(c, r.name);
        if (!want_lat && !want_pub) continue;
        addrmap_config ac;
        addrmap m;
        char err[256];
        config_addrmap(c->cfg, &ac);
        if (addrmap_init(&m, &ac, err, sizeof err)) {
            fprintf(stderr, "locsim ubench: %s\n", err);
            c->errors++;
            return;
        }
        /* the buffer's lines in channel 0, bank 0, by row (rows in address order) */
        static uint64_t found[DRAM_LINES * 4], off[DRAM_LINES];
        static uint32_t row_of[DRAM_LINES * 4];
        static uint8_t miss[DRAM_LINES];
        uint32_t line = c->cfg->l2.line_size ? c->cfg->l2.line_size : 128, nfound = 0;
        /* the second half of the buffer: the first half holds the L1/L2 chains */
        for (uint64_t a = c->buf_bytes / 2; a < c->buf_bytes && nfound < DRAM_LINES * 4; a += line) {
            addr_loc loc;
            addrmap_decode(&m, c->buf + a, &loc);
            if (loc.channel == 0 && loc.bank == 0) {
                row_of[nfound] = loc.row;
                found[nfound++] = a;
            }
        }
        if (nfound < DRAM_LINES * 2) {
            fprintf(stderr, "locsim ubench: %s: only %u lines of bank 0 in the buffer\n", r.name, nfound);
            c->errors++;
            return;
        }
        /* Row hits: found[0, DRAM_LINES) in order.  Row misses: alternately from
         * two runs of lines far apart, after those (so no line of one chain is in
         * the other): consecutive loads fall in different rows. */
        uint32_t far = DRAM_LINES + (nfound - DRAM_LINES) / 2;
        for (uint32_t i = 0; i < DRAM_LINES; i++) {
            uint32_t k = hits ? i : i % 2 ? far + i / 2 : DRAM_LINES + i / 2;
            off[i] = found[k];
            uint32_t prev_row = i == 0 ? UINT32_MAX : row_of[hits ? k - 1 : i % 2 ? DRAM_LINES + (i - 1) / 2 : far + (i - 1) / 2];
            miss[i] = row_of[k] != prev_row;
        }
        uint32_t nmiss = 0;
        for (uint32_t i = 0; i < DRAM_LINES; i++) nmiss += miss[i];
        if (chain_write(c, off, DRAM_LINES) || flush_l2(c)) {
            c->errors++;
            return;
        }
        ub_row l2 = {0};
        l2_expect(c, &l2);
        int64_t d1, d2;
        double e1, e2;
        if (dram_launch(c, off, miss, 0, DRAM_R2, l2.configured, &d2, &e2) ||
            dram_launch(c, off, miss, 128 * DRAM_R2, DRAM_R1, l2.configured, &d1, &e1))
            return;
        double span = (double)(DRAM_R2 - DRAM_R1) * SPAN;
        r.measured = (double)(d2 - d1) / span;
        r.configured = (e2 - e1) / span;
        snprintf(r.formula, sizeof r.formula, "L2 hit + dram_latency + %s (%u of %u row misses)",
                 hits ? "CL+burst" : "RP+RCD+CL+burst", nmiss, DRAM_LINES);
        /* the L2 path's tolerance plus two more crossings (L2 -> DRAM -> L2), each
         * up to one cycle of the slower of the L2 and DRAM clocks either way */
        double l2c = clock_mhz(c, 2), dc = clock_mhz(c, 3);
        double x = 2 * clock_mhz(c, 0) / (l2c < dc ? l2c : dc);
        r.lo = r.configured + (l2.lo - l2.configured) - x;
        r.hi = r.configured + (l2.hi - l2.configured) + x;
        snprintf(r.tol, sizeof r.tol, "-%.0f..+%.0f", r.configured - r.lo, r.hi - r.configured);
        if (want_lat) report(c, &r);
        if (want_pub) report_published(c, r.name, r.measured);
    }
}

/* ---- a multi-module GPU: local and remote L2 hits (docs/numa.md) ----
 * Run on the whole GPU with the xor placement, whose zone of an address the
 * host can work out (numa_xor_zone).  The timed CTAs run on module 0's SMs
 * (the round-robin CTA scheduler gives CTA i to SM i at a launch). */

/* Up to n offsets into the buffer of L2 lines whose zone is z, from `from` on. */
static size_t zone_lines(const ub_ctx *c, uint32_t z, uint64_t from, uint64_t *off, size_t n) {
    uint32_t line = c->cfg->l2.line_size ? c->cfg->l2.line_size : 128, bits = (uint32_t)__builtin_ctz(c->cfg->numa_n_modules);
    size_t k = 0;
    for (uint64_t a = from; a + line <= c->buf_bytes && k < n; a += line)
        if (numa_xor_zone(c->buf + a, bits) == z) off[k++] = a;
    return k;
}

/* The module farthest from module 0: half the ring away (any other module
 * with one egress link each: all are one hop). */
static uint32_t far_zone(const ub_ctx *c, uint32_t *hops) {
    uint32_t m = c->cfg->numa_n_modules;
    int ring = !strcmp(c->cfg->numa_link_topology, "ring");
    *hops = ring ? m / 2 : 1;
    return m / 2;
}

/* What one remote access adds, each way, in interconnect cycles: the far
 * module's crossbar (icnt_latency + the packet's flits) and, per link, the
 * link's latency and the packet's time on the wire (bytes / bytes per cycle,
 * rounded up); a packet that goes on to a next link leaves it a cycle later. */
static double remote_extra(const ub_ctx *c, double bytes, uint32_t hops) {
    double icnt = clock_mhz(c, 1), flit = opt_num(c, "icnt_flit_size"), fpc = opt_num(c, "icnt_flits_per_cycle");
    double lat = ceil(opt_num(c, "numa_link_latency") * icnt / 1000 - 1e-9);
    double bpc = opt_num(c, "numa_link_bandwidth") * 1000 / icnt;
    return opt_num(c, "icnt_latency") + ceil(ceil(bytes / flit) / fpc) + hops * (lat + ceil(bytes / bpc - 1e-9)) +
           (hops - 1);
}

static void numa_lat_rows(ub_ctx *c) {
    for (int remote = 0; remote < 2; remote++) {
        ub_row r = {0};
        snprintf(r.name, sizeof r.name, "lat.numa.%s", remote ? "remote" : "local");
        if (!wanted(c, r.name) || !c->numa) continue;
        ub_ctx *n = c->numa;
        uint32_t hops = 0, z = remote ? far_zone(n, &hops) : 0;
        /* 512 lines of zone z (more than the L1D holds, all in the zone's L2),
         * chased as lat.l2.hit chases its lines */
        enum { N = 512 };
        static uint64_t off[N];
        if (zone_lines(n, z, 0, off, N) < N || chain_write(n, off, N) ||
            chase_run(n, "chase_global", n->buf + off[0], N / 128, N / 64, &r.measured)) {
            c->errors++;
            continue;
        }
        l2_expect(n, &r);
        if (remote) {
            const sim_config *g = n->cfg;
            double data = g->l1d.sectored ? 32 : g->l1d.line_size, core = clock_mhz(n, 0), icnt = clock_mhz(n, 1);
            double add = (remote_extra(n, MEM_PACKET_HEADER_BYTES, hops) +
                          remote_extra(n, MEM_PACKET_HEADER_BYTES + data, hops)) * core / icnt;
            r.configured += add;
            r.lo += add;
            r.hi += add;
            snprintf(r.formula, sizeof r.formula, "L2 hit + 2 x (far crossbar + %u x (numa_link_latency + wire))", hops);
        } else {
            snprintf(r.formula, sizeof r.formula, "L2 hit of the SM's own module (as lat.l2.hit)");
        }
        report(c, &r);
    }
}

/* One launch of stream_lines over `nlines` lines (list: their addresses) by
 * `ctas` CTAs of THR_WARPS warps: the span from the earliest CTA's start to the
 * latest one's end, in core cycles. */
static int stream_span(ub_ctx *n, locsim_dptr list, uint32_t nlines, uint32_t ctas, int reps, int64_t *span) {
    locsim_kernel *k;
    locsim_dim3 grid = {ctas, 1, 1}, block = {THR_WARPS * 32, 1, 1};
    void *args[] = {&n->out, &reps, &list, &nlines, &n->sink};
    int64_t t[2 * 64];
    if (ctas > 64 || locsim_module_get_kernel(n->mod, "stream_lines", &k) != LOCSIM_OK ||
        locsim_launch(k, grid, block, 0, args, 5) != LOCSIM_OK ||
        locsim_memcpy_dtoh(n->dev, t, n->out, 2 * ctas * sizeof *t) != LOCSIM_OK) {
        fprintf(stderr, "locsim ubench: stream_lines: %s\n", locsim_last_error(n->dev));
        return -1;
    }
    int64_t lo = t[0], hi = t[1];
    for (uint32_t i = 1; i < ctas; i++) {
        if (t[2 * i] < lo) lo = t[2 * i];
        if (t[2 * i + 1] > hi) hi = t[2 * i + 1];
    }
    *span = hi - lo;
    return 0;
}

/* Module 0's SMs (one CTA each) read L2 lines of zone z: 8 lines per warp at a
 * time, 2048 lines (256 KB: in the zone's L2), with 2 and 4 timed passes; the
 * growth of the span over the two extra passes gives L2 data bytes per core
 * cycle, free of the start and the end. */
static int numa_stream(ub_ctx *n, uint32_t z, double *bpc) {
    enum { LINES = 2048 };
    static uint64_t off[LINES], addr[LINES];
    uint32_t sms = config_num_sms(n->cfg) / n->cfg->numa_n_modules;
    uint32_t line = n->cfg->l2.line_size ? n->cfg->l2.line_size : 128;
    locsim_dptr list;
    if (LINES % (8 * THR_WARPS * sms) || zone_lines(n, z, 16u << 20, off, LINES) < LINES) {
        fprintf(stderr, "locsim ubench: thr.numa: cannot lay out %d lines of zone %u for %u SMs\n", LINES, z, sms);
        return -1;
    }
    for (int i = 0; i < LINES; i++) addr[i] = n->buf + off[i];
    if (locsim_malloc(n->dev, &list, sizeof addr) != LOCSIM_OK ||
        locsim_memcpy_htod(n->dev, list, addr, sizeof addr) != LOCSIM_OK)
        return -1;
    int64_t s2, s4;
    int rc = stream_span(n, list, LINES, sms, 2, &s2) || stream_span(n, list, LINES, sms, 4, &s4) ? -1 : 0;
    locsim_free(n->dev, list);
    if (rc || s4 <= s2) return -1;
    *bpc = (double)LINES * line * 2 / (double)(s4 - s2);
    return 0;
}

static void numa_thr_rows(ub_ctx *c) {
    for (int remote = 0; remote < 2; remote++) {
        ub_row r = {0};
        snprintf(r.name, sizeof r.name, "thr.numa.%s", remote ? "remote" : "local");
        if (!wanted(c, r.name) || !c->numa) continue;
        ub_ctx *n = c->numa;
        uint32_t hops = 0, z = remote ? far_zone(n, &hops) : 0;
        if (numa_stream(n, z, &r.measured)) {
            c->errors++;
            continue;
        }
        const sim_config *g = n->cfg;
        double data = g->l1d.sectored ? 32 : g->l1d.line_size, core = clock_mhz(n, 0), icnt = clock_mhz(n, 1);
        double flit = opt_num(n, "icnt_flit_size"), fpc = opt_num(n, "icnt_flits_per_cycle");
        double rep_cycles = ceil(ceil((MEM_PACKET_HEADER_BYTES + data) / flit) / fpc);
        double sms = config_num_sms(g) / g->numa_n_modules;
        if (remote) {
            /* every reply crosses one link (zone z's way to module 0): its bytes per
             * cycle, of which the data's share */
            double link = opt_num(n, "numa_link_bandwidth") * 1000 / icnt;
            r.configured = link * data / (MEM_PACKET_HEADER_BYTES + data) * icnt / core;
            snprintf(r.formula, sizeof r.formula, "numa_link_bandwidth x data/(data+header), B/core cycle");
        } else {
            /* a reply holds the SM's crossbar output for its flits */
            r.configured = sms * data / rep_cycles * icnt / core;
            snprintf(r.formula, sizeof r.formula, "%.0f SMs x line / reply flits, B/core cycle", sms);
        }
        r.hi = r.configured * 1.02;
        r.lo = 0;
        snprintf(r.tol, sizeof r.tol, "<= +2%%");
        report(c, &r);
    }
}

static void all_rows(ub_ctx *c) {
    for (size_t i = 0; i < sizeof alu_ops / sizeof *alu_ops; i++) alu_latency(c, &alu_ops[i]);
    for (size_t i = 0; i < sizeof alu_ops / sizeof *alu_ops; i++) alu_throughput(c, &alu_ops[i]);
    sub_core_row(c, 0);
    sub_core_row(c, 1);
    smem_rows(c);
    l1_hit_row(c);
    const_hit_row(c);
    l2_row(c, 0);
    l2_row(c, 1);
    dram_rows(c);
    numa_lat_rows(c);
    numa_thr_rows(c);
}

/* The whole multi-module GPU for the lat.numa / thr.numa rows: the loaded
 * configuration (its own overrides, without the -numa_n_modules 1 added for the
 * other rows) with -numa_placement xor, on a device of its own. */
static int numa_ctx_open(ub_ctx *c, ub_ctx *nc, const char *config, int noverrides, char **overrides,
                         locsim_config **ncfg) {
    char *ov[MAX_OVERRIDES + 2];
    for (int i = 0; i < noverrides; i++) ov[i] = overrides[i];
    ov[noverrides] = "-numa_placement";
    ov[noverrides + 1] = "xor";
    if (cli_load_config(config, noverrides + 2, ov, ncfg)) return -1;
    *nc = *c;
    nc->cfg = *ncfg;
    nc->numa = NULL;
    nc->buf_bytes = 64u << 20;
    if (locsim_device_create(*ncfg, LOCSIM_MODE_TIMING, &nc->dev) != LOCSIM_OK ||
        locsim_module_load_ptx(nc->dev, ubench_ptx, ubench_ptx_len, "ubench/kernel.ptx", &nc->mod) != LOCSIM_OK ||
        locsim_malloc(nc->dev, &nc->out, 3 * 32 * sizeof(int64_t) + 2 * 4096 * sizeof(int64_t)) != LOCSIM_OK ||
        locsim_malloc(nc->dev, &nc->sink, 4u << 20) != LOCSIM_OK ||
        locsim_malloc(nc->dev, &nc->buf, nc->buf_bytes) != LOCSIM_OK) {
        fprintf(stderr, "locsim ubench: the multi-module GPU: %s\n",
                nc->dev ? locsim_last_error(nc->dev) : "cannot create a device");
        if (nc->dev) locsim_device_destroy(nc->dev);
        locsim_config_free(*ncfg);
        return -1;
    }
    c->numa = nc;
    return 0;
}

int cmd_ubench(int argc, char **argv) {
    const char *config = "fermi_gtx480";
    ub_ctx c = {0};
    int noverrides = 0;
    char *overrides[MAX_OVERRIDES];
    for (int i = 1; i < argc; i++) {
        if ((!strcmp(argv[i], "--config") || !strcmp(argv[i], "--only")) && i + 1 < argc) {
            if (argv[i][2] == 'c') config = argv[++i];
            else c.only = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '-' && i + 1 < argc && noverrides + 2 <= MAX_OVERRIDES) {
            overrides[noverrides++] = argv[i];
            overrides[noverrides++] = argv[++i];
        } else {
            fprintf(stderr, "usage: locsim ubench [--config NAME|FILE] [--only PREFIX[,PREFIX...]] [-option value ...]\n");
            return 2;
        }
    }
    locsim_config *cfg = NULL;
    if (cli_load_config(config, noverrides, overrides, &cfg)) return 2;
    c.cfg = cfg;
    /* the name published figures are kept under: the file name without .cfg */
    const char *base = strrchr(config, '/') ? strrchr(config, '/') + 1 : config;
    snprintf(c.config_name, sizeof c.config_name, "%.*s", (int)strcspn(base, "."), base);
    /* A multi-module configuration is measured as one module: every row checks a
     * latency or throughput inside a module (the modules are alike), and each
     * row's formula has no inter-module link in it.  The link's latency and
     * bandwidth are checked by tests/test_numa.c (docs/numa.md). */
    int modules = (int)opt_num(&c, "numa_n_modules");
    if (modules > 1) {
        locsim_config_free(cfg);
        if (noverrides + 2 > MAX_OVERRIDES) {
            fprintf(stderr, "locsim ubench: too many options\n");
            return 2;
        }
        overrides[noverrides++] = "-numa_n_modules";
        overrides[noverrides++] = "1";
        if (cli_load_config(config, noverrides, overrides, &cfg)) return 2;
        c.cfg = cfg;
    }
    if (check_only(&c)) {
        locsim_config_free(cfg);
        return 2;
    }
    uint32_t simd = (uint32_t)opt_num(&c, "gpgpu_simd_width");
    c.lanes = simd && simd < 32 ? 32 / simd : 1;
    /* The DRAM rows need 2 x DRAM_LINES lines of channel 0, bank 0 in the second
     * half of the buffer, of the L2's line size as dram_rows searches it; one line
     * in (channels x banks) is of that bank on average, and the address hash
     * spreads them unevenly, hence a quarter more.  64 MB is enough for
     * fermi_gtx480's 6 x 16; more channels or banks need a larger buffer. */
    addrmap_config amc;
    config_addrmap(cfg, &amc);
    double pairs = (double)amc.n_channels * amc.nbanks;
    double line = cfg->l2.line_size ? cfg->l2.line_size : 128;
    c.buf_bytes = 64u << 20;
    while ((double)c.buf_bytes / 2 / line < pairs * DRAM_LINES * 2.5) c.buf_bytes *= 2;
    /* ... and flush_l2's region, four times the L2 from 8 MB on, in the first half */
    uint64_t l2_bytes = (uint64_t)cfg->l2.nsets * cfg->l2.line_size * cfg->l2.assoc * config_num_l2_slices(cfg);
    while (c.buf_bytes / 2 < (8u << 20) + 4 * l2_bytes) c.buf_bytes *= 2;
    if (locsim_device_create(cfg, LOCSIM_MODE_TIMING, &c.dev) != LOCSIM_OK ||
        locsim_module_load_ptx(c.dev, ubench_ptx, ubench_ptx_len, "ubench/kernel.ptx", &c.mod) != LOCSIM_OK ||
        locsim_malloc(c.dev, &c.out, 3 * 32 * sizeof(int64_t)) != LOCSIM_OK || locsim_malloc(c.dev, &c.sink, 8 * 1024) != LOCSIM_OK ||
        locsim_malloc(c.dev, &c.buf, c.buf_bytes) != LOCSIM_OK) {
        fprintf(stderr, "locsim ubench: %s\n", c.dev ? locsim_last_error(c.dev) : "cannot create a device");
        if (c.dev) locsim_device_destroy(c.dev);
        locsim_config_free(cfg);
        return 2;
    }
    ub_ctx nc;
    locsim_config *ncfg = NULL;
    if (modules > 1 && numa_ctx_open(&c, &nc, config, noverrides - 2, overrides, &ncfg)) {
        locsim_module_unload(c.mod);
        locsim_device_destroy(c.dev);
        locsim_config_free(cfg);
        return 2;
    }
    printf("locsim ubench: configuration %s\n", config);
    if (modules > 1)
        printf("(%d modules: every row but lat.numa and thr.numa measured as one module, -numa_n_modules 1; those on "
               "the whole GPU with -numa_placement xor)\n",
               modules);
    printf("\n");
    print_header();
    all_rows(&c);
    printf("\n%d passed, %d failed, %d not set by any option%s\n", c.passed, c.failed, c.noopt,
           c.errors ? ", kernel errors" : "");
    if (c.numa) {
        locsim_module_unload(nc.mod);
        locsim_device_destroy(nc.dev);
        locsim_config_free(ncfg);
    }
    locsim_module_unload(c.mod);
    locsim_device_destroy(c.dev);
    locsim_config_free(cfg);
    if (c.errors) return 2;
    return c.failed ? 1 : 0;
}
