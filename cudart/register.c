/* Registration: what nvcc's generated constructors call before main().
 *
 * For each translation unit with device code the program's constructor calls
 *   h = __cudaRegisterFatBinary(&wrapper);
 *   __cudaRegisterFunction(h, stub, "_Z6kernelPf", ...)   once per kernel
 *   __cudaRegisterVar(h, &shadow, "name", ...)            once per __device__/__constant__
 *   __cudaRegisterFatBinaryEnd(h);
 * and registers __cudaUnregisterFatBinary(h) with atexit.  We extract the PTX when the
 * fatbin registers and load it onto the device at __cudaRegisterFatBinaryEnd, so bad
 * device code is reported before main() runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "cubin.h"
#include "elfsec.h"
#include "fatbin.h"

/* Grow a registration array by one element. */
static void *grow(void *array, int *cap, int n, size_t elem) {
    if (n < *cap) return array;
    int ncap = *cap ? *cap * 2 : 16;
    void *p = realloc(array, (size_t)ncap * elem);
    if (!p) cr_die("out of memory registering device code");
    *cap = ncap;
    return p;
}

static char *dup_or_die(const char *s) {
    char *d = strdup(s ? s : "");
    if (!d) cr_die("out of memory registering device code");
    return d;
}

static cr_fatbin *fatbin_of_handle(void **handle) {
    for (cr_fatbin *fb = cr.fatbins; fb; fb = fb->next)
        if (&fb->handle == handle) return fb;
    return NULL;
}

/* Extract the PTX to load from the program's fatbin (none: cubin only). */
static void extract_ptx(cr_fatbin *fb) {
    char err[512];
    const void *blob = fatbin_from_wrapper(fb->wrapper, &fb->wrapper_version, err, sizeof err);
    fatbin_info info;
    /* The fatbin lies in the program's .nv_fatbin section: never read past its end
     * (a corrupted size field would otherwise walk off into unmapped memory). */
    size_t avail = blob ? elf_extent_of(blob) : 0;
    if (blob && avail == 0)
        cr_die("%s: malformed device code (fatbin %d): the fatbinary wrapper points at %p, outside every "
               "loaded object", cr_program_name(), fb->index, blob);
    if (!blob || fatbin_parse(blob, avail, &info, err, sizeof err) != 0)
        cr_die("%s: malformed device code (fatbin %d): %s", cr_program_name(), fb->index, err);
    fb->ncubins = fatbin_count_kind(&info, FATBIN_KIND_CUBIN);
    int pick = fatbin_pick_ptx(&info);
    if (pick < 0) return;
    fb->ptx = fatbin_ptx_text(&info.entries[pick], &fb->ptx_len, err, sizeof err);
    if (!fb->ptx) cr_die("%s: cannot read the embedded PTX (fatbin %d): %s", cr_program_name(), fb->index, err);
    fb->ptx_sm = info.entries[pick].sm;
    /* The cubin ptxas made from this PTX's target (-arch=sm_75 embeds sm_75 SASS beside
     * compute_75 PTX): its register counts are what GPGPU-Sim would take from ptxas.  A
     * cubin for another target is not used (other registers for other hardware). */
    int cub = fatbin_find_cubin(&info, fb->ptx_sm);
    if (cub >= 0) {
        fb->cubin = fatbin_cubin_image(&info.entries[cub], &fb->cubin_len, err, sizeof err);
        if (!fb->cubin)   /* the PTX still runs: only the register counts fall back to the estimate */
            cr_warn("%s: cannot read the embedded sm_%u cubin (fatbin %d): %s; registers per thread are estimated",
                    cr_program_name(), fb->ptx_sm, fb->index, err);
    }
}

/* A cubin function's register count onto the module's kernel of that name (device
 * functions have no kernel: skipped). */
static int apply_cubin_regs(void *ctx, const char *name, size_t len, uint32_t regs) {
    char kname[1024];
    if (len >= sizeof kname) return 0;
    memcpy(kname, name, len);
    kname[len] = 0;
    (void)locsim_module_set_kernel_regs(ctx, kname, regs);
    return 0;
}

void **__cudaRegisterFatBinary(void *wrapper) {
    cr_lock();
    cr_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) cr_die("out of memory registering device code");
    fb->wrapper = wrapper;
    fb->index = cr.nfatbins++;
    fb->handle = fb;
    extract_ptx(fb);
    cr_fatbin **tail = &cr.fatbins;
    while (*tail) tail = &(*tail)->next;
    *tail = fb;
    cr_unlock();
    return &fb->handle;
}

/* Give the module's __managed__ variables their host copies (or, after a device
 * reset, point the existing host copies at the reloaded module). */
static void bind_managed_vars(cr_fatbin *fb) {
    for (int i = 0; i < cr.nvars; i++) {
        cr_var *v = &cr.vars[i];
        if (v->fb != fb || !v->managed_ptr) continue;
        locsim_dptr addr;
        size_t size;
        if (cr_var_address(v, &addr, &size) != cudaSuccess)
            cr_die("__managed__ variable %s is registered by the program but not in its PTX", v->name);
        cr_bind_managed_var(v, addr, size);
    }
}

/* Load one fatbin's PTX onto the current device. */
static void load_module(cr_fatbin *fb) {
    if (!fb->ptx || fb->mod) return;
    char name[512];
    snprintf(name, sizeof name, "%s[compute_%u ptx]", cr_program_name(), fb->ptx_sm);
    /* lazily: a kernel using something unsupported fails at its launch, not here */
    locsim_status st = locsim_module_load_ptx_ex(cr.dev, fb->ptx, fb->ptx_len, name, LOCSIM_LOAD_LAZY_UNSUPPORTED,
                                                 &fb->mod);
    if (st != LOCSIM_OK)
        cr_die("cannot load the PTX embedded in %s: %s\n"
               "locsim: (the PTX can be extracted with: locsim-fatbin %s)",
               cr_program_name(), locsim_last_error(cr.dev), cr_program_name());
    if (fb->cubin && cubin_function_regs(fb->cubin, fb->cubin_len, apply_cubin_regs, fb->mod) < 0)
        cr_warn("the sm_%u cubin embedded in %s is not a well-formed ELF: registers per thread are estimated",
                fb->ptx_sm, cr_program_name());
    bind_managed_vars(fb);
}

void __cudaRegisterFatBinaryEnd(void **handle) {
    cr_lock();
    cr_fatbin *fb = fatbin_of_handle(handle);
    if (!fb) cr_die("__cudaRegisterFatBinaryEnd: unknown fatbinary handle %p", (void *)handle);
    if (!fb->ptx && (fb->nfuncs > 0 || fb->nvars > 0) && fb->wrapper_version == 2)
        cr_die("%s was built with relocatable device code (-rdc=true / -dc): locsim supports neither "
               "relocatable device code (its kernels are only complete after device linking, which locsim does "
               "not do) nor dynamic parallelism (kernels launching kernels, which needs -rdc); rebuild without "
               "-rdc if the program does not launch kernels from the device",
               cr_program_name());
    if (!fb->ptx && (fb->nfuncs > 0 || fb->nvars > 0))
        cr_die("%s contains no PTX for its kernels; rebuild with PTX, e.g. -arch=compute_75 or "
               "-gencode arch=compute_75,code=compute_75%s",
               cr_program_name(), fb->ncubins ? "\nlocsim: (it holds only cubins: machine code for one GPU, "
                                                "which a simulator cannot run)" : "");
    if (cr.dev) {
        load_module(fb);
    } else {
        cr_device();  /* loads every registered module, this one included */
    }
    cr_unlock();
}

void cr_load_modules(void) {
    for (cr_fatbin *fb = cr.fatbins; fb; fb = fb->next) load_module(fb);
}

void cr_release_modules(void) {
    for (cr_fatbin *fb = cr.fatbins; fb; fb = fb->next) {
        if (fb->mod) locsim_module_unload(fb->mod);
        fb->mod = NULL;
    }
    for (int i = 0; i < cr.nfuncs; i++) cr.funcs[i].kernel = NULL;
}

/* Drop the functions and variables registered against fb (order kept). */
static void forget_registrations(cr_fatbin *fb) {
    int j = 0;
    for (int i = 0; i < cr.nfuncs; i++) {
        if (cr.funcs[i].fb == fb) free(cr.funcs[i].name);
        else cr.funcs[j++] = cr.funcs[i];
    }
    cr.nfuncs = j;
    j = 0;
    for (int i = 0; i < cr.nvars; i++) {
        if (cr.vars[i].fb == fb) free(cr.vars[i].name);
        else cr.vars[j++] = cr.vars[i];
    }
    cr.nvars = j;
}

void __cudaUnregisterFatBinary(void **handle) {
    cr_lock();
    cr_fatbin *fb = fatbin_of_handle(handle);
    if (fb) {
        forget_registrations(fb);
        if (fb->mod && cr.dev) locsim_module_unload(fb->mod);
        cr_fatbin **pp = &cr.fatbins;
        while (*pp != fb) pp = &(*pp)->next;
        *pp = fb->next;
        free(fb->ptx);
        free(fb->cubin);
        free(fb);
    }
    cr_unlock();
}

void cr_free_registrations(void) {
    while (cr.fatbins) __cudaUnregisterFatBinary(&cr.fatbins->handle);
    free(cr.funcs);
    free(cr.vars);
    cr.funcs = NULL;
    cr.vars = NULL;
    cr.nfuncs = cr.cap_funcs = cr.nvars = cr.cap_vars = 0;
}

void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize) {
    (void)device_fun;
    (void)thread_limit;
    (void)tid;
    (void)bid;
    (void)bdim;
    (void)gdim;
    (void)wsize;
    cr_lock();
    cr_fatbin *fb = fatbin_of_handle(handle);
    if (!fb) cr_die("__cudaRegisterFunction(%s): unknown fatbinary handle", device_name ? device_name : "?");
    cr.funcs = grow(cr.funcs, &cr.cap_funcs, cr.nfuncs, sizeof *cr.funcs);
    cr_function *f = &cr.funcs[cr.nfuncs++];
    memset(f, 0, sizeof *f);
    f->host_fun = host_fun;
    f->name = dup_or_die(device_name);
    f->fb = fb;
    fb->nfuncs++;
    cr_unlock();
}

static void register_var(void **handle, const void *host_var, void **managed_ptr, const char *name, size_t size,
                         int constant) {
    cr_lock();
    cr_fatbin *fb = fatbin_of_handle(handle);
    if (!fb) cr_die("__cudaRegisterVar(%s): unknown fatbinary handle", name ? name : "?");
    cr.vars = grow(cr.vars, &cr.cap_vars, cr.nvars, sizeof *cr.vars);
    cr_var *v = &cr.vars[cr.nvars++];
    memset(v, 0, sizeof *v);
    v->host_var = host_var;
    v->managed_ptr = managed_ptr;
    v->name = dup_or_die(name);
    v->size = size;
    v->constant = constant;
    v->fb = fb;
    fb->nvars++;
    cr_unlock();
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                       size_t size, int constant, int global) {
    (void)device_address;
    (void)ext;
    (void)global;
    register_var(handle, host_var, NULL, device_name, size, constant);
}

/* A __managed__ variable: the host reads it through *host_ptr_address, which we
 * point at a host copy once the module is loaded (bind_managed_vars). */
void __cudaRegisterManagedVar(void **handle, void **host_ptr_address, char *device_address,
                              const char *device_name, int ext, size_t size, int constant, int global) {
    (void)device_address;
    (void)ext;
    (void)global;
    register_var(handle, host_ptr_address, host_ptr_address, device_name, size, constant);
}

/* Called by the program before it touches a __managed__ variable: the module is
 * loaded (and its managed variables bound) when it registers, or when the device
 * is created again after a reset. */
char __cudaInitModule(void **handle) {
    cr_lock();
    cr_fatbin *fb = fatbin_of_handle(handle);
    if (fb && !cr.unloading) cr_device();
    cr_unlock();
    return fb != NULL;
}

cr_function *cr_find_function(const void *host_fun) {
    for (int i = 0; i < cr.nfuncs; i++)
        if (cr.funcs[i].host_fun == host_fun) return &cr.funcs[i];
    return NULL;
}

cr_var *cr_find_var(const void *host_var) {
    for (int i = 0; i < cr.nvars; i++)
        if (cr.vars[i].host_var == host_var) return &cr.vars[i];
    /* cudaMemcpyToSymbol("name", ...) was removed in CUDA 5; only addresses count. */
    return NULL;
}

locsim_kernel *cr_function_kernel(cr_function *f, cudaError_t *err) {
    if (f->kernel) return f->kernel;
    if (!f->fb->mod) {
        *err = cudaErrorNoKernelImageForDevice;
        return NULL;
    }
    if (locsim_module_get_kernel(f->fb->mod, f->name, &f->kernel) != LOCSIM_OK) {
        cr_warn("kernel %s is registered by the program but not in its PTX", f->name);
        *err = cudaErrorInvalidDeviceFunction;
        return NULL;
    }
    return f->kernel;
}

cudaError_t cr_var_address(cr_var *v, locsim_dptr *addr, size_t *size) {
    if (!v->fb->mod) return cudaErrorInvalidSymbol;
    if (locsim_module_get_symbol(v->fb->mod, v->name, addr, size) != LOCSIM_OK) return cudaErrorInvalidSymbol;
    return cudaSuccess;
}
