/* Locality Descriptors for CUDA programs (include/locsim/locsim_ldesc.h): the
 * header looks these functions up with dlsym at run time.  Only this library
 * defines them, so on a real GPU (NVIDIA's libcudart) the lookup fails and the
 * program's descriptor calls do nothing; under `locsim exec` they attach the
 * descriptors to the simulated device (locsim_ldesc_attach).  The names are
 * outside CUDA's namespace and exported by libcudart.map's __locsim_* line. */
#include "cudart.h"

__attribute__((visibility("default"))) int __locsim_ldesc_attach(const locsim_ldesc *d, int *id);
__attribute__((visibility("default"))) int __locsim_ldesc_detach(int id);
__attribute__((visibility("default"))) int __locsim_ldesc_clear(void);

int __locsim_ldesc_attach(const locsim_ldesc *d, int *id) {
    if (id) *id = -1;
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!d) return cr_leave(cudaErrorInvalidValue);
    locsim_ldesc copy = *d;
    if (copy.space == LOCSIM_LDESC_GLOBAL)
        copy.base = cr_translate_arg(copy.base);   /* a managed region's host view -> its device memory */
    if (locsim_ldesc_attach(cr.dev, &copy, id) != LOCSIM_OK) {
        cr_warn("%s", locsim_last_error(cr.dev));
        return cr_leave(cudaErrorInvalidValue);
    }
    return cr_leave(cudaSuccess);
}

int __locsim_ldesc_detach(int id) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (locsim_ldesc_detach(cr.dev, id) != LOCSIM_OK) {
        cr_warn("%s", locsim_last_error(cr.dev));
        return cr_leave(cudaErrorInvalidValue);
    }
    return cr_leave(cudaSuccess);
}

int __locsim_ldesc_clear(void) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_ldesc_clear(cr.dev);
    return cr_leave(cudaSuccess);
}
