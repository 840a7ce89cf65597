/* Registers per thread from a ptxas listing (`ptxas -v`), as GPGPU-Sim takes
 * them from ptxas's output rather than from the PTX: nvcc's PTX gives every
 * value a fresh virtual register, so only the register allocator knows what a
 * kernel really needs.
 *
 * The listing is what ptxas writes to stderr, e.g.
 *
 *   ptxas info    : Compiling entry function 'memc_get' for 'sm_75'
 *   ptxas info    : Function properties for memc_get
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 34 registers, used 0 barriers, 408 bytes cmem[0]
 *
 * A "Used N registers" line belongs to the entry function whose compilation
 * was announced last.  Every other line is skipped.  tools/gen-ptx.sh records
 * each workload's listing in workloads/NAME/kernel.ptxas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

static const char *line_end(const char *p, const char *end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

/* The text after "needle" within [p, e), or NULL. */
static const char *after(const char *p, const char *e, const char *needle) {
    size_t n = strlen(needle);
    for (; p + n <= e; p++)
        if (!memcmp(p, needle, n)) return p + n;
    return NULL;
}

int ptxas_listing_parse(const char *text, size_t len, const char *file, ptxas_kernel_fn each, void *ctx, char *err,
                        size_t errlen) {
    const char *end = text + len, *name = NULL;
    size_t name_len = 0;
    unsigned lineno = 0;
    for (const char *p = text; p < end;) {
        const char *e = line_end(p, end), *q;
        lineno++;
        if ((q = after(p, e, "Compiling entry function '"))) {
            const char *close = memchr(q, '\'', (size_t)(e - q));
            if (!close || close == q) {
                snprintf(err, errlen, "%s:%u: expected 'NAME' after \"Compiling entry function\"", file, lineno);
                return -1;
            }
            name = q;
            name_len = (size_t)(close - q);
        } else if ((q = after(p, e, "ptxas info    : Used "))) {
            char *stop;
            unsigned long regs = strtoul(q, &stop, 10);
            if (stop == q || stop > e || strncmp(stop, " register", 9) || regs > 65535) {
                snprintf(err, errlen, "%s:%u: expected \"Used N registers\"", file, lineno);
                return -1;
            }
            if (!name) {
                snprintf(err, errlen, "%s:%u: a register count before any \"Compiling entry function\" line", file,
                         lineno);
                return -1;
            }
            if (each(ctx, name, name_len, (uint32_t)regs)) {
                snprintf(err, errlen, "%s:%u: no kernel '%.*s' in the module", file, lineno, (int)name_len, name);
                return -1;
            }
            name = NULL;   /* one count per compiled entry */
        }
        p = e < end ? e + 1 : end;
    }
    return 0;
}

static int set_regs(void *ctx, const char *name, size_t len, uint32_t regs) {
    locsim_module *mod = ctx;
    for (uint32_t i = 0; i < mod->nkernels; i++) {
        ptx_function *fn = (ptx_function *)mod->kernels[i].fn;
        if (strlen(fn->name) == len && !memcmp(fn->name, name, len)) {
            fn->ptxas_regs = regs ? regs : 1;   /* 0 means "no count": a kernel using none still needs one */
            return 0;
        }
    }
    return -1;
}

locsim_status locsim_module_set_ptxas_listing(locsim_module *mod, const char *listing, size_t len, const char *name) {
    if (!mod || !listing) return LOCSIM_ERR_INVALID;
    char err[512];
    if (ptxas_listing_parse(listing, len, name ? name : "<ptxas listing>", set_regs, mod, err, sizeof err))
        return runtime_error(mod->dev, LOCSIM_ERR_PARSE, "%s", err);
    return LOCSIM_OK;
}

locsim_status locsim_module_set_kernel_regs(locsim_module *mod, const char *name, uint32_t regs) {
    if (!mod || !name) return LOCSIM_ERR_INVALID;
    if (set_regs(mod, name, strlen(name), regs))
        return runtime_error(mod->dev, LOCSIM_ERR_NOT_FOUND, "no kernel '%s' in the module", name);
    return LOCSIM_OK;
}
