/* Locality Descriptors for CUDA programs (docs/ldesc.md).
 *
 *     #include "locsim_ldesc.h"          // -I<locsim>/include/locsim
 *     locsim_ldesc d = locsimLdescMake(d_hist, bytes, LOCSIM_LDESC_INTER_THREAD, sizeof(int));
 *     d.compute_tile = {1, grid.y, 1};   // ... the other components
 *     locsimLdescAttach(&d, NULL);
 *     kernel<<<grid, block>>>(...);
 *
 * Under `locsim exec` (locsim's libcudart.so.13) the calls attach descriptors to
 * the simulated GPU.  With NVIDIA's runtime, on a real GPU, they do nothing and
 * return cudaSuccess (0): the functions are looked up with dlsym at run time and
 * only locsim's runtime defines them, so one annotated program runs on both.
 * Build as usual: nvcc -cudart shared ... (glibc >= 2.34 has dlsym in libc;
 * older systems add -ldl).  Return values are cudaError_t numbers: 0, or
 * cudaErrorInvalidValue (1) for a descriptor locsim rejects (the reason is
 * printed on stderr). */
#ifndef LOCSIM_LOCSIM_LDESC_H
#define LOCSIM_LOCSIM_LDESC_H

#include <dlfcn.h>
#include <string.h>

#include "locsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* glibc's RTLD_DEFAULT (the global scope) is the null handle; <dlfcn.h> names it
 * only under _GNU_SOURCE, which C compilers do not always define. */
#define LOCSIM_LDESC_GLOBAL_SCOPE ((void *)0)

static inline void *locsim_ldesc_fn(const char *name) { return dlsym(LOCSIM_LDESC_GLOBAL_SCOPE, name); }

/* 1 when the program runs on locsim (descriptors take effect), 0 on a real GPU. */
static inline int locsimLdescActive(void) { return locsim_ldesc_fn("__locsim_ldesc_attach") != NULL; }

/* A descriptor with the given data structure and type, element size, tiles of one
 * element and one CTA, map (1,0,0), COACCESSED, REGULAR, stride 0, priority 0. */
static inline locsim_ldesc locsimLdescMake(const void *base, unsigned long long size, unsigned type,
                                           unsigned elem_size) {
    locsim_ldesc d;
    memset(&d, 0, sizeof d);
    d.base = (locsim_dptr)(unsigned long long)(size_t)base;
    d.size = size;
    d.type = type;
    d.elem_size = elem_size;
    d.data_tile.x = d.data_tile.y = d.data_tile.z = 1;
    d.compute_tile.x = d.compute_tile.y = d.compute_tile.z = 1;
    d.map.x = 1;
    return d;
}

/* Attach d; *id (may be NULL) gets its number, -1 on a real GPU. */
static inline int locsimLdescAttach(const locsim_ldesc *d, int *id) {
    int (*f)(const locsim_ldesc *, int *) = (int (*)(const locsim_ldesc *, int *))locsim_ldesc_fn("__locsim_ldesc_attach");
    if (!f) {
        if (id) *id = -1;
        return 0;
    }
    return f(d, id);
}

static inline int locsimLdescDetach(int id) {
    int (*f)(int) = (int (*)(int))locsim_ldesc_fn("__locsim_ldesc_detach");
    return f ? f(id) : 0;
}

static inline int locsimLdescClear(void) {
    int (*f)(void) = (int (*)(void))locsim_ldesc_fn("__locsim_ldesc_clear");
    return f ? f() : 0;
}

#ifdef __cplusplus
}
#endif
#endif
