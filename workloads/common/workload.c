#include "workload.h"

#include <stdarg.h>
#include <string.h>

const workload_entry *workload_find(const char *name) {
    for (const workload_entry *e = workload_table; e->wl; e++)
        if (strcmp(e->wl->name, name) == 0) return e;
    return NULL;
}

size_t workload_count(void) {
    size_t n = 0;
    while (workload_table[n].wl) n++;
    return n;
}

wl_result workload_run(const workload_entry *e, locsim_device *dev, uint32_t size, uint64_t seed,
                       char *detail, size_t detail_size) {
    wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.dev = dev;
    ctx.size = size ? size : e->wl->default_size;
    ctx.seed = seed;
    ctx.ptx = e->ptx;
    ctx.ptx_len = *e->ptx_len;
    ctx.ptxas = e->ptxas;
    ctx.ptxas_len = e->ptxas_len ? *e->ptxas_len : 0;
    ctx.name = e->wl->name;
    ctx.dir = e->dir ? e->dir : e->wl->name;
    wl_result r = e->wl->run(&ctx);
    if (ctx.bad_size) r = WL_BAD_SIZE;
    if (detail && detail_size) snprintf(detail, detail_size, "%s", ctx.detail);
    return r;
}

locsim_module *wl_load_module(wl_ctx *ctx) {
    locsim_module *mod = NULL;
    char name[128];
    snprintf(name, sizeof name, "workloads/%s/kernel.ptx", ctx->dir);
    locsim_status st = locsim_module_load_ptx(ctx->dev, ctx->ptx, ctx->ptx_len, name, &mod);
    if (st != LOCSIM_OK) {
        wl_error(ctx, st, "loading the module");
        return NULL;
    }
    /* registers per thread as ptxas allocated them (tools/gen-ptx.sh) */
    if (ctx->ptxas_len) {
        snprintf(name, sizeof name, "workloads/%s/kernel.ptxas", ctx->dir);
        st = locsim_module_set_ptxas_listing(mod, ctx->ptxas, ctx->ptxas_len, name);
        if (st != LOCSIM_OK) {
            wl_error(ctx, st, "reading the ptxas listing");
            return NULL;
        }
    }
    return mod;
}

wl_result wl_error(wl_ctx *ctx, locsim_status st, const char *what) {
    snprintf(ctx->detail, sizeof ctx->detail, "%s failed (%s): %s", what, locsim_status_name(st),
             locsim_last_error(ctx->dev));
    return WL_ERROR;
}

/* An instruction at the start of a PTX statement: after a tab or space (nvcc
 * indents with a tab; inline asm with spaces). */
static int ptx_has_opcode(const char *ptx, size_t len, const char *op) {
    size_t n = strlen(op);
    for (size_t i = 1; i + n <= len; i++)
        if ((ptx[i - 1] == '\t' || ptx[i - 1] == ' ') && memcmp(ptx + i, op, n) == 0) return 1;
    return 0;
}

int workload_uses_tensor_cores(const workload_entry *e) {
    size_t len = *e->ptx_len;
    return ptx_has_opcode(e->ptx, len, "wmma.") || ptx_has_opcode(e->ptx, len, "mma.sync") ||
           ptx_has_opcode(e->ptx, len, "ldmatrix.");
}

wl_result wl_fail(wl_ctx *ctx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->detail, sizeof ctx->detail, fmt, ap);
    va_end(ap);
    return WL_FAIL;
}

size_t wl_first_float_diff(const float *got, const float *want, size_t n) {
    size_t i = 0;
    while (i < n && memcmp(&got[i], &want[i], sizeof(float)) == 0) i++;
    return i;
}

wl_result wl_check_floats_exact(wl_ctx *ctx, const char *what, const float *got, const float *want, size_t n) {
    size_t i = wl_first_float_diff(got, want, n);
    return i < n ? wl_fail(ctx, "%s: element %zu: got %.9g, expected %.9g", what, i, got[i], want[i]) : WL_PASS;
}

wl_result wl_out_of_memory(wl_ctx *ctx) {
    snprintf(ctx->detail, sizeof ctx->detail, "out of host memory");
    return WL_ERROR;
}

int wl_size_ok(wl_ctx *ctx, uint32_t max) {
    if (ctx->size <= max) return 1;
    snprintf(ctx->detail, sizeof ctx->detail, "--size %u is too large (max %u)", ctx->size, max);
    ctx->bad_size = 1;
    return 0;
}

void wl_free_buffers(locsim_device *dev, locsim_dptr *const *bufs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (*bufs[i]) locsim_free(dev, *bufs[i]);
        *bufs[i] = 0;
    }
}

locsim_ldesc wl_ldesc(locsim_dptr base, uint64_t size, uint32_t type, uint32_t elem_size) {
    locsim_ldesc d;
    memset(&d, 0, sizeof d);
    d.base = base;
    d.size = size;
    d.type = type;
    d.elem_size = elem_size;
    d.data_tile = (locsim_dim3){1, 1, 1};
    d.compute_tile = (locsim_dim3){1, 1, 1};
    d.map = (locsim_dim3){1, 0, 0};
    return d;
}
