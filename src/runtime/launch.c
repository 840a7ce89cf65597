/* Kernel launch: validate the configuration, pack parameters, run the CTAs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "sim/config.h"

/* CUDA's limits (compute capability 7.5). */
#define MAX_THREADS_PER_BLOCK 1024u
#define MAX_BLOCK_X 1024u
#define MAX_BLOCK_Y 1024u
#define MAX_BLOCK_Z 64u
#define MAX_GRID_X 0x7fffffffu
#define MAX_GRID_YZ 65535u

static locsim_status check_dims(locsim_device *dev, const char *kname, locsim_dim3 grid, locsim_dim3 block) {
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
                             kname, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (threads > MAX_THREADS_PER_BLOCK || block.x > MAX_BLOCK_X || block.y > MAX_BLOCK_Y || block.z > MAX_BLOCK_Z)
        return runtime_error(dev, LOCSIM_ERR_LAUNCH,
                             "launch of '%s': block (%u,%u,%u) exceeds the limits (at most %u threads; x,y <= 1024, z <= 64)",
                             kname, block.x, block.y, block.z, MAX_THREADS_PER_BLOCK);
    if (grid.x > MAX_GRID_X || grid.y > MAX_GRID_YZ || grid.z > MAX_GRID_YZ)
        return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': grid (%u,%u,%u) exceeds the limits", kname, grid.x,
                             grid.y, grid.z);
    return LOCSIM_OK;
}

/* Honour .reqntid / .maxntid when the kernel declares them. */
static locsim_status check_ntid_directives(locsim_device *dev, const ptx_function *fn, locsim_dim3 block) {
    const uint32_t dims[3] = {block.x, block.y, block.z};
    if (fn->reqntid[0]) {
        for (int d = 0; d < 3; d++) {
            uint32_t want = fn->reqntid[d] ? fn->reqntid[d] : 1;
            if (dims[d] != want)
                return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': block (%u,%u,%u) differs from .reqntid %u,%u,%u",
                                     fn->name, block.x, block.y, block.z, fn->reqntid[0], fn->reqntid[1], fn->reqntid[2]);
        }
    }
    if (fn->maxntid[0]) {
        uint64_t limit = (uint64_t)fn->maxntid[0] * (fn->maxntid[1] ? fn->maxntid[1] : 1) * (fn->maxntid[2] ? fn->maxntid[2] : 1);
        if ((uint64_t)block.x * block.y * block.z > limit)
            return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': %u threads per block exceed .maxntid (%llu)", fn->name,
                                 block.x * block.y * block.z, (unsigned long long)limit);
    }
    return LOCSIM_OK;
}

locsim_status runtime_prepare_launch(locsim_kernel *k, locsim_dim3 grid, locsim_dim3 block, uint32_t dyn_smem,
                                     void **args, uint32_t nargs, uint8_t *params_buf, exec_launch *L) {
    locsim_device *dev = k->mod->dev;
    const ptx_function *fn = k->fn;
    locsim_status st = check_dims(dev, fn->name, grid, block);
    if (st == LOCSIM_OK) st = check_ntid_directives(dev, fn, block);
    if (st != LOCSIM_OK) return st;
    if (nargs != fn->nparams)
        return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': %u arguments given, the kernel takes %u", fn->name, nargs,
                             fn->nparams);
    if (nargs && !args) return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': argument array is NULL", fn->name);

    /* Dynamic shared memory begins at the kernel's dynamic base (see module.c). */
    uint32_t smem_static = dyn_smem ? k->dyn_smem_base : k->smem_static;
    if ((uint64_t)smem_static + dyn_smem > dev->max_smem_per_cta)
        return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': %u bytes of static + %u of dynamic shared memory exceed %u per CTA",
                             fn->name, smem_static, dyn_smem, dev->max_smem_per_cta);

    memset(params_buf, 0, k->param_bytes);
    for (uint32_t i = 0; i < nargs; i++) {
        if (!args[i]) return runtime_error(dev, LOCSIM_ERR_LAUNCH, "launch of '%s': argument %u is NULL", fn->name, i);
        memcpy(params_buf + fn->params[i].offset, args[i], fn->params[i].size);
    }

    memset(L, 0, sizeof *L);
    L->mod = k->mod->ptx;
    L->kernel = fn;
    L->params = params_buf;
    L->params_size = k->param_bytes;
    L->grid = grid;
    L->block = block;
    L->mem = dev->mem;
    L->smem_static = smem_static;
    L->smem_dynamic = dyn_smem;
    L->local_stack_bytes = k->recursive && dev->stack_bytes > k->local_stack_bytes ? dev->stack_bytes
                                                                                   : k->local_stack_bytes;
    L->smid_count = dev->num_sms;
    L->printf_out = dev->printf_out;
    L->printf_limit = dev->printf_fifo_bytes;
    L->printf_used = &dev->printf_used;
    L->printf_dropped = &dev->printf_dropped;
    L->watchdog_insns = RUNTIME_DEFAULT_WATCHDOG;
    L->texobjs = dev->texobjs;
    L->ntexobjs = dev->ntexobjs;
    L->memcheck = dev->memcheck;
    L->oob_accesses = &dev->counters.oob_accesses;
    L->run_quantum = dev->run_quantum;
    L->ldesc = dev->ldesc.n || dev->ldesc.nlocal ? &dev->ldesc : NULL;
    if (k->mod->uses_heap) {
        locsim_status hs = runtime_heap_for_launch(dev);
        if (hs != LOCSIM_OK) return hs;
        L->heap = dev->heap;
    }
    return LOCSIM_OK;
}

/* A bijection of the k-bit integers (multiply by an odd number, xor-shift, multiply),
 * keyed by seed. */
static uint64_t mix_bits(uint64_t c, uint64_t seed, unsigned k, uint64_t mask) {
    c = (c * (2 * seed + 0x9E3779B97F4A7C15ull) + seed) & mask;
    c ^= c >> (k / 2 + 1);
    c = (c * 0xBF58476D1CE4E5B9ull) & mask;
    c ^= c >> (k / 2 + 1);
    return c;
}

/* The i-th CTA to run under -functional_cta_order `order` (a permutation of 0..n-1):
 * 0 linear, 1 reverse, else mix_bits over the next power of two, walking the cycle
 * until it lands below n (a bijection of 0..n-1; a few steps on average). */
static uint64_t cta_at(uint64_t i, uint64_t n, uint32_t order) {
    if (order == 0) return i;
    if (order == 1) return n - 1 - i;
    unsigned k = 1;
    while (k < 64 && (1ull << k) < n) k++;
    uint64_t mask = k == 64 ? ~0ull : (1ull << k) - 1, c = i;
    do c = mix_bits(c, order, k, mask); while (c >= n);
    return c;
}

/* Functional mode: CTAs one after another, in linear order (or the order
 * -functional_cta_order asks for), each on SM (its number mod the SMs). */
static locsim_status run_functional(locsim_device *dev, const exec_launch *L) {
    uint64_t nctas = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    for (uint64_t i = 0; i < nctas; i++) {
        uint64_t c = cta_at(i, nctas, dev->cta_order);
        exec_cta *cta = exec_cta_create(L, c, (uint32_t)(c % dev->num_sms));
        if (!cta)
            return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "kernel '%s': out of host memory creating CTA %llu",
                                 L->kernel->name, (unsigned long long)c);
        locsim_status st = exec_cta_run(cta, &dev->counters.thread_insns, &dev->counters.warp_insns);
        if (st != LOCSIM_OK) {
            const exec_fault *f = exec_cta_fault(cta);
            runtime_error(dev, st, "%s", f && f->msg[0] ? f->msg : locsim_status_name(st));
            exec_cta_destroy(cta);
            return st;
        }
        exec_cta_destroy(cta);
    }
    return LOCSIM_OK;
}

/* A cooperative launch in functional mode: every CTA exists at once and they take
 * turns, a round of warp turns each, in linear order, so a CTA spinning at
 * grid.sync() lets the others reach it.  A CTA's fault stops the launch. */
static locsim_status run_functional_cooperative(locsim_device *dev, const exec_launch *L) {
    uint64_t nctas = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    exec_cta **ctas = calloc(nctas, sizeof *ctas);
    if (!ctas) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "kernel '%s': out of host memory", L->kernel->name);
    locsim_status st = LOCSIM_OK;
    for (uint64_t c = 0; c < nctas && st == LOCSIM_OK; c++)
        if (!(ctas[c] = exec_cta_create(L, c, (uint32_t)(c % dev->num_sms))))
            st = runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "kernel '%s': out of host memory creating CTA %llu",
                               L->kernel->name, (unsigned long long)c);
    for (int busy = 1; busy && st == LOCSIM_OK;) {
        busy = 0;
        for (uint64_t c = 0; c < nctas && st == LOCSIM_OK; c++) {
            if (exec_cta_done(ctas[c])) continue;
            busy = 1;
            exec_cta_round(ctas[c], &dev->counters.thread_insns, &dev->counters.warp_insns);
            const exec_fault *f = exec_cta_fault(ctas[c]);
            if (f) st = runtime_error(dev, f->status, "%s", f->msg[0] ? f->msg : locsim_status_name(f->status));
        }
    }
    for (uint64_t c = 0; c < nctas; c++) exec_cta_destroy(ctas[c]);
    free(ctas);
    return st;
}

/* A kernel with tensor-core instructions runs only where the configuration has
 * tensor cores (-gpgpu_tensor_core_avail 1); elsewhere its launch is refused, as
 * for an instruction locsim does not implement, naming the instruction. */
static locsim_status check_tensor_cores(const locsim_kernel *k) {
    locsim_device *dev = k->mod->dev;
    /* a device made without a configuration describes no GPU: it runs every
     * instruction locsim implements (docs/tensor.md) */
    if (!dev->cfg || dev->cfg->tensor_core_avail) return LOCSIM_OK;
    const ptx_module *m = k->mod->ptx;
    uint32_t fi, ii;
    int found = ptx_function_tensor_insn(m, (uint32_t)(k->fn - m->funcs), &fi, &ii);
    if (found < 0) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory");
    if (!found) return LOCSIM_OK;
    const ptx_function *f = &m->funcs[fi];
    char text[256];
    ptx_insn_format(m, f, &f->insns[ii], text, sizeof text);
    return runtime_error(dev, LOCSIM_ERR_UNSUPPORTED,
                         "kernel '%s' cannot run on this configuration: %s:%u: '%s' needs tensor cores, and this "
                         "GPU has none (-gpgpu_tensor_core_avail 0; set it to 1 to enable them)",
                         k->fn->name, m->source_name ? m->source_name : "<ptx>", f->insns[ii].line, text);
}

locsim_status locsim_launch(locsim_kernel *k, locsim_dim3 grid, locsim_dim3 block, uint32_t dyn_smem_bytes, void **args,
                            uint32_t nargs) {
    return locsim_launch_ex(k, grid, block, dyn_smem_bytes, args, nargs, 0);
}

locsim_status locsim_launch_ex(locsim_kernel *k, locsim_dim3 grid, locsim_dim3 block, uint32_t dyn_smem_bytes,
                               void **args, uint32_t nargs, unsigned flags) {
    if (!k) return LOCSIM_ERR_INVALID;
    locsim_device *dev = k->mod->dev;
    const char *why = ptx_function_unsupported(k->mod->ptx, (uint32_t)(k->fn - k->mod->ptx->funcs));
    if (why)
        return runtime_error(dev, LOCSIM_ERR_UNSUPPORTED, "kernel '%s' cannot run on locsim: %s", k->fn->name, why);
    locsim_status tst = check_tensor_cores(k);
    if (tst != LOCSIM_OK)
        return tst;
    uint8_t *params = malloc(k->param_bytes ? k->param_bytes : 1);
    if (!params) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory");
    exec_launch L;
    locsim_status st = runtime_prepare_launch(k, grid, block, dyn_smem_bytes, args, nargs, params, &L);
    if (st == LOCSIM_OK) {
        uint64_t oob0 = dev->counters.oob_accesses;
        dev->printf_used = dev->printf_dropped = 0;   /* the FIFO is empty at a launch */
        dev->counters.kernels++;
        locsim_dptr ws = 0;
        if (flags & LOCSIM_LAUNCH_COOPERATIVE) {
            /* the grid-sync workspace: a barrier word that grid.sync() counts arrivals in */
            st = locsim_malloc(dev, &ws, 16);
            if (st == LOCSIM_OK) st = locsim_memset(dev, ws, 0, 16);
            L.grid_workspace = ws;
        }
        if (st == LOCSIM_OK) {
            if (dev->timing_ops) st = dev->timing_ops->launch(dev->timing, &L, dev);
            else if (flags & LOCSIM_LAUNCH_COOPERATIVE) st = run_functional_cooperative(dev, &L);
            else st = run_functional(dev, &L);
        }
        if (ws) locsim_free(dev, ws);
        if (dev->counters.oob_accesses > oob0 && !dev->warned_oob) {
            dev->warned_oob = 1;
            fprintf(stderr,
                    "locsim: warning: kernel '%s' made %llu out-of-bounds global access(es) inside mapped device "
                    "memory (they ran, as on a GPU; -memcheck 1 stops at the first with a report)\n",
                    k->fn->name, (unsigned long long)(dev->counters.oob_accesses - oob0));
        }
        if (dev->printf_dropped)
            fprintf(stderr,
                    "locsim: warning: kernel '%s': %llu device printf call(s) dropped: their output would not fit in "
                    "the %llu-byte printf FIFO (cudaLimitPrintfFifoSize)\n",
                    k->fn->name, (unsigned long long)dev->printf_dropped, (unsigned long long)dev->printf_fifo_bytes);
    }
    free(params);
    return st;
}
