/* Modules: parse PTX, place its variables, resolve symbols, describe its kernels. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

#define MAX_PTX_FILE_BYTES (256u << 20)

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Place .global/.const variables in device memory (.shared ones are laid out
 * per kernel by layout_shared, once the kernels' uses are known). */
static locsim_status place_variables(locsim_module *mod) {
    locsim_device *dev = mod->dev;
    ptx_module *m = mod->ptx;
    for (uint32_t i = 0; i < m->nvars; i++) {
        ptx_var *v = &m->vars[i];
        switch (v->space) {
        case PTX_SPACE_GLOBAL:
        case PTX_SPACE_CONST: {
            uint64_t align = v->align ? v->align : 8;
            if (devmem_alloc(dev->mem, v->size ? v->size : 1, align, &v->addr) != 0)
                return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "%s:%u: no device memory for variable '%s'",
                                     m->source_name, v->line, v->name);
            break;
        }
        case PTX_SPACE_SHARED:
            break;
        default:
            return runtime_error(dev, LOCSIM_ERR_UNSUPPORTED, "%s:%u: unsupported: module-scope variable '%s' in space %d",
                                 m->source_name, v->line, v->name, v->space);
        }
    }
    return LOCSIM_OK;
}

/* Write initialisers once every variable has an address (initialisers may hold the
 * address of another variable). */
static void write_initialisers(locsim_module *mod) {
    ptx_module *m = mod->ptx;
    for (uint32_t i = 0; i < m->nvars; i++) {
        ptx_var *v = &m->vars[i];
        if ((v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) || !v->init) continue;
        devmem_write(mod->dev->mem, v->addr, v->init, v->size);
        if (!v->init_sym) continue;
        for (uint64_t slot = 0; slot < v->size / 8; slot++) {
            uint32_t ref = v->init_sym[slot];
            if (!ref) continue;
            uint32_t idx = (ref & ~PTX_INIT_SYM_FUNC) - 1;
            if ((ref & PTX_INIT_SYM_FUNC) ? idx >= m->nfuncs : idx >= m->nvars) continue;
            uint64_t value;
            memcpy(&value, v->init + slot * 8, 8);  /* offset added to the symbol */
            /* a function's address (a vtable entry): what indirect calls take */
            value += (ref & PTX_INIT_SYM_FUNC) ? PTX_FUNC_ADDR_BASE + (uint64_t)PTX_FUNC_ADDR_STRIDE * idx
                                               : m->vars[idx].addr;
            devmem_write(mod->dev->mem, v->addr + slot * 8, &value, 8);
        }
    }
}

/* Rewrite one operand's module-symbol reference into an absolute value. */
static void resolve_operand(const ptx_module *m, ptx_operand *o) {
    if ((o->kind != PTX_OPND_ADDR && o->kind != PTX_OPND_SYMADDR) || o->addr_base != PTX_ABASE_SYM) return;
    o->imm += (int64_t)m->vars[o->reg].addr;
    o->addr_base = PTX_ABASE_NONE;
    o->reg = 0;
    if (o->kind == PTX_OPND_SYMADDR) o->kind = PTX_OPND_IMM;
}

static void resolve_symbols(locsim_module *mod) {
    ptx_module *m = mod->ptx;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        ptx_function *fn = &m->funcs[f];
        for (uint32_t i = 0; i < fn->ninsn; i++)
            for (uint32_t k = 0; k < fn->insns[i].nopnd; k++) resolve_operand(m, &fn->insns[i].opnd[k]);
        for (uint32_t c = 0; c < fn->ncalls; c++) {
            for (uint32_t k = 0; k < fn->calls[c].nargs; k++) resolve_operand(m, &fn->calls[c].args[k]);
            for (uint32_t k = 0; k < fn->calls[c].nrets; k++) resolve_operand(m, &fn->calls[c].rets[k]);
        }
    }
}

/* ---- per-kernel resources, from the call graph ---- */

/* Which kernels use which .shared variables: (kernel, variable) pairs, each once. */
typedef struct {
    uint32_t kernel, var;
} shared_use;

typedef struct {
    const ptx_module *m;
    uint8_t *state;          /* 0 unvisited, 1 on the DFS path, 2 done */
    uint64_t *stack_bytes;   /* deepest chain of frames from each function */
    int recursive;
    uint32_t kernel;         /* the kernel being walked */
    uint32_t *stamp;         /* per variable: last kernel that recorded it + 1 */
    shared_use *uses;
    uint32_t nuses, uses_cap;
    int oom;
} callgraph_walk;

static void note_shared_uses(callgraph_walk *w, const ptx_function *fn) {
    for (uint32_t i = 0; i < fn->ninsn; i++)
        for (uint32_t k = 0; k < fn->insns[i].nopnd; k++) {
            const ptx_operand *o = &fn->insns[i].opnd[k];
            if ((o->kind != PTX_OPND_ADDR && o->kind != PTX_OPND_SYMADDR) || o->addr_base != PTX_ABASE_SYM) continue;
            if (w->m->vars[o->reg].space != PTX_SPACE_SHARED || w->stamp[o->reg] == w->kernel + 1) continue;
            w->stamp[o->reg] = w->kernel + 1;
            if (w->nuses == w->uses_cap) {
                uint32_t cap = w->uses_cap ? 2 * w->uses_cap : 64;
                shared_use *u = realloc(w->uses, cap * sizeof *u);
                if (!u) { w->oom = 1; return; }
                w->uses = u;
                w->uses_cap = cap;
            }
            w->uses[w->nuses++] = (shared_use){w->kernel, o->reg};
        }
}

static void walk(callgraph_walk *w, uint32_t f) {
    const ptx_function *fn = &w->m->funcs[f];
    w->state[f] = 1;
    note_shared_uses(w, fn);
    uint64_t deepest = 0;
    for (uint32_t c = 0; c < fn->ncalls; c++) {
        /* an indirect call may reach any .func with a body: count the deepest */
        int indirect = fn->calls[c].indirect;
        for (uint32_t g = indirect ? 0 : fn->calls[c].func; g < w->m->nfuncs; g++) {
            const ptx_function *gf = &w->m->funcs[g];
            if (!indirect || (!gf->is_entry && gf->insns)) {
                if (w->state[g] == 1) w->recursive = 1;
                else {
                    if (w->state[g] == 0) walk(w, g);
                    if (w->stack_bytes[g] > deepest) deepest = w->stack_bytes[g];
                }
            }
            if (!indirect) break;
        }
    }
    w->stack_bytes[f] = align_up(fn->frame_size, 16) + deepest;
    w->state[f] = 2;
}

/* Shared memory is per kernel: a variable gets an offset past what every kernel
 * using it has placed so far, so a kernel's size counts only its own variables
 * (nvcc gives each kernel's __shared__ arrays their own module-scope names; a big
 * library module has hundreds).  One offset per variable keeps the resolved
 * operands valid in .funcs shared by several kernels.  Dynamic (.extern) shared
 * memory starts, for every kernel that names it, after the largest static part
 * among them, so all .extern names alias one region as in CUDA. */
static locsim_status layout_shared(locsim_module *mod, const shared_use *uses, uint32_t nuses) {
    ptx_module *m = mod->ptx;
    uint64_t *end = calloc(mod->nkernels + 1, sizeof *end);
    uint8_t *names_extern = calloc(mod->nkernels + 1, 1);
    uint32_t *first = calloc(m->nvars + 2, sizeof *first); /* users of var v: by_var[first[v]..first[v+1]) */
    uint32_t *by_var = malloc((nuses + 1) * sizeof *by_var);
    if (!end || !names_extern || !first || !by_var) {
        free(end);
        free(names_extern);
        free(first);
        free(by_var);
        return runtime_error(mod->dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory loading %s", m->source_name);
    }
    for (uint32_t i = 0; i < nuses; i++) first[uses[i].var + 1]++;
    for (uint32_t v = 0; v < m->nvars; v++) first[v + 1] += first[v];
    for (uint32_t i = 0, *fill = first; i < nuses; i++) by_var[fill[uses[i].var]++] = uses[i].kernel;
    /* the fill moved first[v] to the end of v's users: v's users start at first[v-1] */
    for (uint32_t v = 0; v < m->nvars; v++) {
        ptx_var *var = &m->vars[v];
        if (var->space != PTX_SPACE_SHARED || var->is_extern) continue;
        uint32_t lo = v ? first[v - 1] : 0, hi = first[v];
        uint64_t off = 0;
        for (uint32_t i = lo; i < hi; i++)
            if (end[by_var[i]] > off) off = end[by_var[i]];
        var->addr = align_up(off, var->align ? var->align : 1);
        for (uint32_t i = lo; i < hi; i++) end[by_var[i]] = var->addr + var->size;
    }
    free(first);
    free(by_var);
    uint64_t dyn_base = 0;
    for (uint32_t i = 0; i < nuses; i++)
        if (m->vars[uses[i].var].is_extern) {
            names_extern[uses[i].kernel] = 1;
            if (end[uses[i].kernel] > dyn_base) dyn_base = end[uses[i].kernel];
        }
    dyn_base = align_up(dyn_base, 16);
    for (uint32_t v = 0; v < m->nvars; v++)
        if (m->vars[v].space == PTX_SPACE_SHARED && m->vars[v].is_extern) m->vars[v].addr = dyn_base;
    locsim_status st = LOCSIM_OK;
    for (uint32_t k = 0; k < mod->nkernels; k++) {
        locsim_kernel *K = &mod->kernels[k];
        if (end[k] > UINT32_MAX / 2 || dyn_base > UINT32_MAX / 2) {
            st = runtime_error(mod->dev, LOCSIM_ERR_INVALID, "%s: kernel '%s': static shared memory too large",
                               m->source_name, K->fn->name);
            break;
        }
        K->smem_static = (uint32_t)end[k];
        K->dyn_smem_base = names_extern[k] ? (uint32_t)dyn_base : (uint32_t)align_up(end[k], 16);
    }
    free(end);
    free(names_extern);
    return st;
}

static locsim_status describe_kernels(locsim_module *mod) {
    const ptx_module *m = mod->ptx;
    uint32_t n = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) n += m->funcs[f].is_entry;
    mod->kernels = calloc(n ? n : 1, sizeof *mod->kernels);
    callgraph_walk w = {.m = m};
    w.state = calloc(m->nfuncs + 1, 1);
    w.stack_bytes = calloc(m->nfuncs + 1, sizeof *w.stack_bytes);
    w.stamp = calloc(m->nvars + 1, sizeof *w.stamp);
    locsim_status st = LOCSIM_OK;
    if (!mod->kernels || !w.state || !w.stack_bytes || !w.stamp) {
        st = runtime_error(mod->dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory loading %s", m->source_name);
        goto out;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        if (!fn->is_entry) continue;
        memset(w.state, 0, m->nfuncs);
        w.recursive = 0;
        w.kernel = mod->nkernels;
        walk(&w, f);
        if (w.oom) {
            st = runtime_error(mod->dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory loading %s", m->source_name);
            goto out;
        }
        locsim_kernel *k = &mod->kernels[mod->nkernels++];
        k->mod = mod;
        k->fn = fn;
        k->index = f;
        uint64_t stack = w.recursive ? 0 : w.stack_bytes[f];
        if (stack > RUNTIME_MAX_STACK_BYTES) {
            st = runtime_error(mod->dev, LOCSIM_ERR_UNSUPPORTED, "%s:%u: kernel '%s' needs %llu bytes of local memory per thread",
                               m->source_name, fn->line, fn->name, (unsigned long long)stack);
            goto out;
        }
        k->local_stack_bytes = (uint32_t)stack;
        k->recursive = w.recursive;
        k->nregs = fn->nregs + fn->npreds;
        k->param_bytes = fn->kparam_size;
    }
    st = layout_shared(mod, w.uses, w.nuses);
out:
    free(w.state);
    free(w.stack_bytes);
    free(w.stamp);
    free(w.uses);
    return st;
}

locsim_status runtime_module_link(locsim_module *mod) {
    for (uint32_t i = 0; i < mod->ptx->nfuncs; i++) {
        const ptx_function *f = &mod->ptx->funcs[i];
        if (f->is_extern && (strcmp(f->name, "malloc") == 0 || strcmp(f->name, "free") == 0)) mod->uses_heap = 1;
    }
    locsim_status st = place_variables(mod);
    if (st != LOCSIM_OK) return st;
    write_initialisers(mod);
    st = describe_kernels(mod);  /* before resolve: it reads the symbolic references */
    if (st != LOCSIM_OK) return st;
    resolve_symbols(mod);
    return LOCSIM_OK;
}

/* ---- public API ---- */

locsim_status locsim_module_load_ptx(locsim_device *dev, const char *ptx, size_t len, const char *name,
                                     locsim_module **out) {
    return locsim_module_load_ptx_ex(dev, ptx, len, name, 0, out);
}

locsim_status locsim_module_load_ptx_ex(locsim_device *dev, const char *ptx, size_t len, const char *name,
                                        unsigned flags, locsim_module **out) {
    if (!dev || !ptx || !out) return LOCSIM_ERR_INVALID;
    *out = NULL;
    ptx_error perr;
    memset(&perr, 0, sizeof perr);
    unsigned pflags = (flags & LOCSIM_LOAD_LAZY_UNSUPPORTED) ? PTX_PARSE_LAZY : 0;
    ptx_module *pm = ptx_parse_ex(ptx, len, name ? name : "<ptx>", pflags, &perr);
    if (!pm) {
        locsim_status st = strstr(perr.msg, "unsupported") || strstr(perr.msg, "not supported") ? LOCSIM_ERR_UNSUPPORTED : LOCSIM_ERR_PARSE;
        return runtime_error(dev, st, "%s", perr.msg);  /* msg is "file:line:col: message" */
    }
    locsim_module *mod = calloc(1, sizeof *mod);
    if (!mod) {
        ptx_module_free(pm);
        return LOCSIM_ERR_OUT_OF_MEMORY;
    }
    mod->dev = dev;
    mod->ptx = pm;
    /* Instruction memory, as GPGPU-Sim lays out the functions it loads: one after
     * another in load order, 8 bytes an instruction; here each starts on a 128 B
     * boundary (the fetch model's line arithmetic assumes it). */
    for (uint32_t i = 0; i < pm->nfuncs; i++) {
        pm->funcs[i].code_addr = dev->next_code_addr;
        dev->next_code_addr += ((uint64_t)pm->funcs[i].ninsn * 8 + 127) & ~(uint64_t)127;
    }
    locsim_status st = runtime_module_link(mod);
    if (st != LOCSIM_OK) {
        free(mod->kernels);
        ptx_module_free(pm);
        free(mod);
        return st;
    }
    mod->next = dev->modules;
    dev->modules = mod;
    *out = mod;
    return LOCSIM_OK;
}

locsim_status locsim_module_load_file(locsim_device *dev, const char *path, locsim_module **out) {
    if (!dev || !path || !out) return LOCSIM_ERR_INVALID;
    FILE *f = fopen(path, "rb");
    if (!f) return runtime_error(dev, LOCSIM_ERR_IO, "%s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = cap <= MAX_PTX_FILE_BYTES ? realloc(buf, cap) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                return runtime_error(dev, LOCSIM_ERR_IO, "%s: file too large or out of memory", path);
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return runtime_error(dev, LOCSIM_ERR_IO, "%s: read error", path);
    }
    locsim_status st = locsim_module_load_ptx(dev, buf, len, path, out);
    free(buf);
    return st;
}

void locsim_module_unload(locsim_module *mod) {
    if (!mod) return;
    locsim_device *dev = mod->dev;
    for (locsim_module **p = &dev->modules; *p; p = &(*p)->next)
        if (*p == mod) {
            *p = mod->next;
            break;
        }
    for (uint32_t i = 0; i < mod->ptx->nvars; i++) {
        const ptx_var *v = &mod->ptx->vars[i];
        if (v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST) devmem_free(dev->mem, v->addr);
    }
    ptx_module_free(mod->ptx);
    free(mod->kernels);
    free(mod);
}

locsim_status locsim_module_get_kernel(locsim_module *mod, const char *name, locsim_kernel **out) {
    if (!mod || !name || !out) return LOCSIM_ERR_INVALID;
    for (uint32_t i = 0; i < mod->nkernels; i++)
        if (strcmp(mod->kernels[i].fn->name, name) == 0) {
            *out = &mod->kernels[i];
            return LOCSIM_OK;
        }
    *out = NULL;
    return runtime_error(mod->dev, LOCSIM_ERR_NOT_FOUND, "%s: no kernel named '%s'", mod->ptx->source_name, name);
}

static const ptx_var *device_variable(locsim_module *mod, const char *name) {
    int i = ptx_find_var(mod->ptx, name);
    if (i < 0) return NULL;
    const ptx_var *v = &mod->ptx->vars[i];
    return v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST ? v : NULL;
}

locsim_status locsim_module_get_symbol(locsim_module *mod, const char *name, locsim_dptr *addr, size_t *size) {
    if (!mod || !name) return LOCSIM_ERR_INVALID;
    const ptx_var *v = device_variable(mod, name);
    if (!v)
        return runtime_error(mod->dev, LOCSIM_ERR_NOT_FOUND, "%s: no __device__ or __constant__ variable named '%s'",
                             mod->ptx->source_name, name);
    if (addr) *addr = v->addr;
    if (size) *size = v->size;
    return LOCSIM_OK;
}

static locsim_status symbol_range(locsim_module *mod, const char *name, size_t bytes, size_t offset,
                                  locsim_dptr *addr) {
    size_t size = 0;
    locsim_status st = locsim_module_get_symbol(mod, name, addr, &size);
    if (st != LOCSIM_OK) return st;
    if (offset > size || bytes > size - offset)
        return runtime_error(mod->dev, LOCSIM_ERR_INVALID, "symbol '%s' has %zu bytes; copy of %zu at offset %zu is out of range",
                             name, size, bytes, offset);
    *addr += offset;
    return LOCSIM_OK;
}

locsim_status locsim_memcpy_to_symbol(locsim_module *mod, const char *name, const void *src, size_t bytes,
                                      size_t offset) {
    locsim_dptr addr;
    locsim_status st = symbol_range(mod, name, bytes, offset, &addr);
    if (st == LOCSIM_OK) {
        devmem_write(mod->dev->mem, addr, src, bytes);
        runtime_memcpy_touch(mod->dev, addr, bytes);
    }
    return st;
}

locsim_status locsim_memcpy_from_symbol(locsim_module *mod, const char *name, void *dst, size_t bytes,
                                        size_t offset) {
    locsim_dptr addr;
    locsim_status st = symbol_range(mod, name, bytes, offset, &addr);
    if (st == LOCSIM_OK) {
        devmem_read(mod->dev->mem, addr, dst, bytes);
        runtime_memcpy_touch(mod->dev, addr, bytes);
    }
    return st;
}

locsim_status locsim_kernel_get_info(const locsim_kernel *k, locsim_kernel_info *out) {
    if (!k || !out) return LOCSIM_ERR_INVALID;
    memset(out, 0, sizeof *out);
    out->num_params = k->fn->nparams;
    out->param_bytes = k->param_bytes;
    out->static_smem_bytes = k->smem_static;
    out->local_bytes_per_thread = k->local_stack_bytes;
    /* ptxas's count when the module came with one (listing or cubin), as a GPU reports it;
     * else the PTX's declared registers */
    out->num_regs = k->fn->ptxas_regs ? k->fn->ptxas_regs : k->nregs;
    out->max_threads_per_block = 1024;
    if (k->fn->maxntid[0]) {
        uint32_t n = k->fn->maxntid[0];
        if (k->fn->maxntid[1]) n *= k->fn->maxntid[1];
        if (k->fn->maxntid[2]) n *= k->fn->maxntid[2];
        if (n < out->max_threads_per_block) out->max_threads_per_block = n;
    }
    return LOCSIM_OK;
}

const char *locsim_kernel_name(const locsim_kernel *k) { return k ? k->fn->name : NULL; }
